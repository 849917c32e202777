package dev.weft.concierge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.internal.Confirmation;
import dev.weft.concierge.internal.ModelPlanner;
import dev.weft.concierge.internal.ModelSpecialist;
import dev.weft.concierge.internal.OfflinePlanner;
import dev.weft.concierge.internal.OfflineSpecialist;
import dev.weft.concierge.shop.Shop;
import dev.weft.concierge.shop.ShopTools;
import dev.weft.concierge.spi.Planner;
import dev.weft.concierge.spi.Specialist;
import dev.weft.core.ErrorCode;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunError;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.Model;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The concierge: a shop's sales and support assistant. Every message is one run of the compiled
 * orchestrator graph ({@link #graph()}, the ten nodes of seed 004); a change the customer must confirm
 * leaves the run {@code WAITING}, and their next message continues it (a yes carries the change out,
 * anything else does not). Offline (the default) the planner and the specialists are rules and
 * templates in English and Hebrew; with a model they ask it. Thread-safe: one instance serves every user
 * and conversation.
 */
public final class Concierge {
    /** The assistant's name: {@code weft chat --assistant concierge}, the OpenAI endpoint's model. */
    public static final String NAME = "concierge";
    /** The id of the orchestrator graph, under which every turn's run is stored. */
    public static final String GRAPH_ID = "concierge.handle_message";

    /**
     * What one turn did: the conversation, the run (completed, or waiting for the customer's yes), the goal
     * the turn was on, the reply in the customer's language, and the tools called in the turn.
     */
    public record Reply(String session, RunResult run, String goal, String text, String language, ArrayNode toolCalls) {
        public Reply {
            Objects.requireNonNull(session, "session");
            Objects.requireNonNull(run, "run");
            Objects.requireNonNull(goal, "goal");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(language, "language");
            toolCalls = Objects.requireNonNull(toolCalls, "toolCalls").deepCopy();
        }

        /** {@code {"session", "runId", "goal", "reply", "language", "toolCalls": [{"name", "args", "ok"}]}}. */
        public ObjectNode json() {
            ObjectNode json = Json.object();
            json.put("session", session);
            json.put("runId", run.runId());
            json.put("goal", goal);
            json.put("reply", text);
            json.put("language", language);
            json.set("toolCalls", toolCalls.deepCopy());
            return json;
        }

        /** Whether the run waits for the customer's yes. */
        public boolean waiting() {
            return run.status() == RunStatus.WAITING;
        }
    }

    private final Shop shop;
    private final ShopTools tools;
    private final Conversations conversations;
    private final Planner planner;
    private final Map<Goal, Specialist> specialists;
    private final Graph graph;

    private Concierge(Builder builder) {
        this.shop = Shop.open(builder.store);
        this.tools = new ShopTools(shop);
        this.conversations = new Conversations(shop.database());
        if (builder.model.isPresent()) {
            Model model = builder.model.get();
            this.planner = builder.planner.orElseGet(() -> new ModelPlanner(model));
            Map<Goal, Specialist> byGoal = new EnumMap<>(Goal.class);
            for (Goal goal : Goal.values()) {
                if (goal.hasSpecialist()) {
                    byGoal.put(goal, builder.specialists.getOrDefault(goal, new ModelSpecialist(model, tools)));
                }
            }
            this.specialists = byGoal;
        } else {
            this.planner = builder.planner.orElseGet(() -> new OfflinePlanner(shop::products));
            Map<Goal, Specialist> byGoal = new EnumMap<>(Goal.class);
            Specialist offline = new OfflineSpecialist();
            for (Goal goal : Goal.values()) {
                if (goal.hasSpecialist()) {
                    byGoal.put(goal, builder.specialists.getOrDefault(goal, offline));
                }
            }
            this.specialists = byGoal;
        }
        this.graph = Orchestrator.compile(this, builder.edit);
    }

    /**
     * The offline concierge over {@code store}'s database (its tables made or brought up to date) — its
     * graph compiled now, so that one that does not compile stops here.
     *
     * @throws dev.weft.core.GraphInvalidException when the orchestrator graph does not compile
     * @throws IllegalArgumentException for a store with no database (the in-memory store)
     */
    public static Concierge open(RunStore store) {
        return builder(store).build();
    }

    /** The concierge planning and answering with {@code model}: the planner with structured output, the specialists with tool calling in their first pass and structured output in their second. */
    public static Concierge open(RunStore store, Model model) {
        return builder(store).model(model).build();
    }

    static Builder builder(RunStore store) {
        return new Builder(store);
    }

    /** The compiled orchestrator graph every turn runs. */
    public Graph graph() {
        return graph;
    }

    public Shop shop() {
        return shop;
    }

    public ShopTools tools() {
        return tools;
    }

    public Conversations conversations() {
        return conversations;
    }

    Planner planner() {
        return planner;
    }

    Specialist specialist(Goal goal) {
        return Objects.requireNonNull(specialists.get(goal), () -> "no specialist for " + goal.id());
    }

    /** The last lines of a conversation as the planner and specialists read them. */
    List<String> recent(String user, String session) {
        List<String> lines = new ArrayList<>();
        for (Conversations.Line line : conversations.recent(user, session, 6)) {
            lines.add(line.role() + ": " + line.text());
        }
        return lines;
    }

    /** Whether {@code run} is a turn of the concierge. */
    public boolean owns(Run run) {
        return run.graphId().equals(GRAPH_ID);
    }

    /**
     * One message of {@code user}'s conversation {@code session}: when the conversation waits for a yes,
     * a yes carries the change out and anything else does not (a message that is neither yes nor no is
     * then answered as a new message too); otherwise the message starts a new turn.
     *
     * @param runId the id the new turn's run is to have, if the caller chose one
     * @throws WeftException {@code E_BAD_INPUT} for an empty message or a bad session id (nothing runs);
     *     the code of a turn that fails ({@code E_STATE_INVALID}, {@code E_PASS2_TOOL_REQUEST}, …)
     */
    public Reply converse(Runner runner, String user, String session, String text, Optional<String> runId) {
        try {
            RunRequest.requireUser(user);
        } catch (IllegalArgumentException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, e.getMessage());
        }
        Orchestrator.requireSession(session);
        String message = text.strip();
        if (message.isEmpty()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the message is empty: say something to the concierge");
        }
        if (message.length() > Orchestrator.MAX_TEXT) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "the message is " + message.length() + " characters long; the concierge reads at most "
                            + Orchestrator.MAX_TEXT);
        }
        Optional<RunResult> waiting = waiting(runner, user, session);
        if (waiting.isPresent()) {
            Confirmation answer = Confirmation.of(message);
            if (answer != Confirmation.NEITHER) {
                ObjectNode decision = Json.object();
                decision.put("approved", answer == Confirmation.YES);
                decision.put("reason", answer == Confirmation.YES ? "confirmed" : "declined");
                return kept(runner, user, session, message, resume(runner, waiting.get(), decision));
            }
            ObjectNode decision = Json.object();
            decision.put("approved", false);
            decision.put("reason", "moved_on");
            Reply left = resume(runner, waiting.get(), decision);
            conversations.append(
                    user,
                    session,
                    "concierge",
                    left.text(),
                    Optional.of(left.run().runId()),
                    runner.time().now());
        }
        RunRequest.Builder request = RunRequest.builder()
                .user(user)
                .input(Json.object().put("session", session).put("text", message))
                .source(Json.object().put("kind", NAME));
        runId.ifPresent(request::runId);
        return kept(runner, user, session, message, reply(runner.run(graph, request.build())));
    }

    /** Says yes to what {@code user}'s waiting turn {@code runId} asks, and continues it. */
    public Reply approve(Runner runner, String user, String runId) {
        return decide(runner, user, runId, true, "confirmed");
    }

    /** Says no to what {@code user}'s waiting turn {@code runId} asks: the change is not made. */
    public Reply reject(Runner runner, String user, String runId) {
        return decide(runner, user, runId, false, "declined");
    }

    private Reply decide(Runner runner, String user, String runId, boolean approved, String reason) {
        RunResult run = runner.result(runId);
        run.run().requireUser(user);
        if (!owns(run.run())) {
            throw new WeftException(ErrorCode.E_NOT_FOUND, "run '" + runId + "' is not a turn of the concierge");
        }
        ObjectNode decision = Json.object();
        decision.put("approved", approved);
        decision.put("reason", reason);
        Reply reply = resume(runner, run, decision);
        String session = run.run().input().path("session").asText();
        conversations.append(
                user,
                session,
                "concierge",
                reply.text(),
                Optional.of(runId),
                runner.time().now());
        return reply;
    }

    private Reply resume(Runner runner, RunResult waiting, ObjectNode decision) {
        if (waiting.status() != RunStatus.WAITING) {
            throw new WeftException(
                    ErrorCode.E_RUN_STATE,
                    "run '" + waiting.runId() + "' is " + waiting.status() + "; it waits for nothing");
        }
        return reply(runner.resume(graph, waiting.runId(), decision));
    }

    /** Keeps what was said, and returns the reply. */
    private Reply kept(Runner runner, String user, String session, String message, Reply reply) {
        conversations.append(
                user,
                session,
                "customer",
                message,
                Optional.of(reply.run().runId()),
                runner.time().now());
        conversations.append(
                user,
                session,
                "concierge",
                reply.text(),
                Optional.of(reply.run().runId()),
                runner.time().now());
        return reply;
    }

    /**
     * The turn {@code user}'s conversation waits on: the run of the concierge's last reply, when it is
     * still {@code WAITING} for a yes.
     */
    public Optional<RunResult> waiting(Runner runner, String user, String session) {
        List<Conversations.Line> last = conversations.recent(user, session, 1);
        if (last.isEmpty()
                || !last.get(0).role().equals("concierge")
                || last.get(0).runId().isEmpty()) {
            return Optional.empty();
        }
        RunResult run = runner.result(last.get(0).runId().get());
        return run.status() == RunStatus.WAITING ? Optional.of(run) : Optional.empty();
    }

    /**
     * The reply of one of the concierge's runs: a completed turn's answer, or the question a waiting one
     * asks.
     *
     * @throws WeftException with the run's own code when it failed (fail-fast: nothing else is said)
     */
    public Reply reply(RunResult result) {
        JsonNode input = result.run().input();
        String session = input.path("session").asText();
        switch (result.status()) {
            case COMPLETED -> {
                JsonNode out = result.output();
                return new Reply(
                        session,
                        result,
                        out.path("goal").asText(),
                        out.path("reply").asText(),
                        out.path("language").asText("en"),
                        out.path("toolCalls").isArray()
                                ? (ArrayNode) out.get("toolCalls")
                                : Json.mapper().createArrayNode());
            }
            case WAITING -> {
                JsonNode payload = result.interrupts().getOrDefault("dispatch_specialist", Json.object());
                JsonNode planned = result.outputs().getOrDefault("apply_plan", Json.object());
                ArrayNode calls = Json.mapper().createArrayNode();
                payload.path("results").forEach(r -> {
                    if (r.isObject()) {
                        calls.add(Dispatch.summary(dev.weft.concierge.spi.ToolResult.fromJson(r)));
                    }
                });
                return new Reply(
                        session,
                        result,
                        planned.path("goal").asText(),
                        payload.path("question").asText(),
                        payload.path("language").asText("en"),
                        calls);
            }
            case CANCELLED -> {
                String language = dev.weft.language.Language.of(
                                input.path("text").asText())
                        .map(dev.weft.language.Language::code)
                        .orElse("en");
                return new Reply(
                        session,
                        result,
                        "",
                        language.equals("he") ? "בוטל." : "Cancelled.",
                        language,
                        Json.mapper().createArrayNode());
            }
            default -> {
                RunError error = result.error()
                        .orElse(new RunError(ErrorCode.E_NODE_FAILED, "the turn ended " + result.status()));
                throw new WeftException(error.code(), "turn " + result.runId() + " failed: " + error.message());
            }
        }
    }

    /** Builds a concierge; the planner, specialists and graph edits are for tests. Not thread-safe. */
    static final class Builder {
        private final RunStore store;
        private Optional<Model> model = Optional.empty();
        private Optional<Planner> planner = Optional.empty();
        private final Map<Goal, Specialist> specialists = new EnumMap<>(Goal.class);
        private Consumer<Graph.Builder> edit = graph -> {};

        private Builder(RunStore store) {
            this.store = Objects.requireNonNull(store, "store");
        }

        Builder model(Model model) {
            this.model = Optional.of(model);
            return this;
        }

        Builder planner(Planner planner) {
            this.planner = Optional.of(planner);
            return this;
        }

        Builder specialist(Goal goal, Specialist specialist) {
            if (!goal.hasSpecialist()) {
                throw new IllegalArgumentException(goal.id() + " has no specialist");
            }
            specialists.put(goal, specialist);
            return this;
        }

        /** Changes the orchestrator graph before it compiles (to show that one that does not compile stops startup). */
        Builder editGraph(Consumer<Graph.Builder> edit) {
            this.edit = Objects.requireNonNull(edit, "edit");
            return this;
        }

        Concierge build() {
            return new Concierge(this);
        }
    }
}
