package dev.weft.concierge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Vouch;
import dev.weft.concierge.internal.Confirmation;
import dev.weft.concierge.internal.ModelPlanner;
import dev.weft.concierge.internal.ModelSpecialist;
import dev.weft.concierge.internal.OfflinePlanner;
import dev.weft.concierge.internal.OfflineSpecialist;
import dev.weft.concierge.internal.Replies;
import dev.weft.concierge.internal.States;
import dev.weft.concierge.shop.OneTimeCodes;
import dev.weft.concierge.shop.Shop;
import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.concierge.shop.ShopTools;
import dev.weft.concierge.spi.Planner;
import dev.weft.concierge.spi.Specialist;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.NodeContext;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
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
    /** The id of the one-node graph that checks a one-time code said back; its runs are turns too. */
    public static final String CODE_GRAPH_ID = "concierge.check_code";

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

        /**
         * {@code {"session", "runId", "goal", "reply", "language", "toolCalls": [{"name", "args", "ok"}]}}; a
         * call that failed has its error's {@code "code"} too.
         */
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
    private final Graph codeGraph;

    private Concierge(Builder builder) {
        this.shop = Shop.open(builder.store);
        this.tools = new ShopTools(shop, builder.policy);
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
            this.planner = builder.planner.orElseGet(() -> new OfflinePlanner(shop::allProducts));
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
        this.codeGraph = Graph.builder(CODE_GRAPH_ID)
                .node(NodeSpec.builder("check_code", this::checkCode)
                        .type("concierge")
                        .maxVisits(1)
                        .build())
                .edge(Graph.START, "check_code")
                .edge("check_code", Graph.END)
                .compile();
    }

    /**
     * The offline concierge over {@code store}'s database (its tables made or brought up to date) — its
     * graph compiled now, so that one that does not compile stops here — under the strict policy ({@link
     * ShopPolicy#strict()}: it acts only for customers a storefront vouches for).
     *
     * @throws dev.weft.core.GraphInvalidException when the orchestrator graph does not compile
     * @throws IllegalArgumentException for a store with no database (the in-memory store)
     */
    public static Concierge open(RunStore store) {
        return builder(store).build();
    }

    /** The concierge, under the strict policy, planning and answering with {@code model}: the planner with structured output, the specialists with tool calling in their first pass and structured output in their second. */
    public static Concierge open(RunStore store, Model model) {
        return builder(store).model(model).build();
    }

    /** The concierge under {@code policy} (how customers are verified), with {@code model} when present. */
    public static Concierge open(RunStore store, Optional<Model> model, ShopPolicy policy) {
        Builder builder = builder(store).policy(policy);
        model.ifPresent(builder::model);
        return builder.build();
    }

    static Builder builder(RunStore store) {
        return new Builder(store);
    }

    /** The compiled orchestrator graph every turn runs. */
    public Graph graph() {
        return graph;
    }

    /** The graph of {@code run}, one of the concierge's turns. */
    public Optional<Graph> graphOf(Run run) {
        if (run.graphId().equals(GRAPH_ID)) {
            return Optional.of(graph);
        }
        return run.graphId().equals(CODE_GRAPH_ID) ? Optional.of(codeGraph) : Optional.empty();
    }

    /** How the concierge verifies customers. */
    public ShopPolicy policy() {
        return tools.policy();
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
        return run.graphId().equals(GRAPH_ID) || run.graphId().equals(CODE_GRAPH_ID);
    }

    /**
     * One message of {@code user}'s conversation {@code session}: when the conversation waits for a yes,
     * a yes carries the change out and anything else does not (a message that is neither yes nor no is
     * then answered as a new message too); otherwise the message starts a new turn. A yes or a no given
     * with {@code runId} and handled again (a channel's message redelivered after its process died) gets
     * the reply it got the first time: the turn it answered is not decided twice and no turn is started.
     *
     * @param runId the id the new turn's run is to have, if the caller chose one (a channel: one per message)
     * @throws WeftException {@code E_BAD_INPUT} for an empty message or a bad session id (nothing runs);
     *     the code of a turn that fails ({@code E_STATE_INVALID}, {@code E_PASS2_TOOL_REQUEST}, …)
     */
    public Reply converse(Runner runner, String user, String session, String text, Optional<String> runId) {
        return converse(runner, user, session, text, runId, Optional.empty());
    }

    /**
     * One message, as {@link #converse(Runner, String, String, String, Optional)}, from the customer
     * {@code vouch} names when a storefront vouches: the conversation then acts for that customer only,
     * and every later message of it must be vouched for the same customer. Where nothing vouches and the
     * conversation waits for a one-time code, a message that says six digits is checked as the code (a
     * run of its own); the right code verifies the conversation and carries on the message that asked
     * for it.
     *
     * @throws WeftException {@code E_CUSTOMER_TOKEN_INVALID} for a token that is malformed, not the shop's
     *     or expired, for a shop with no key, or for an unvouched message in a conversation a storefront
     *     vouched for; {@code E_FORBIDDEN} for a vouch for another customer than the conversation's.
     *     Nothing runs and nothing changes.
     */
    public Reply converse(
            Runner runner, String user, String session, String text, Optional<String> runId, Optional<Vouch> vouch) {
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
        Optional<ObjectNode> vouched = vouched(runner, user, session, vouch);
        if (vouched.isEmpty() && shop.awaitsCode(user, session)) {
            Optional<String> code = OneTimeCodes.said(message);
            if (code.isPresent()) {
                return codeSaid(runner, user, session, message, code.get(), runId);
            }
        }
        Optional<RunResult> waiting = waiting(runner, user, session);
        if (waiting.isPresent()) {
            Confirmation answer = Confirmation.of(message);
            if (answer != Confirmation.NEITHER) {
                ObjectNode decision = Json.object();
                decision.put("approved", answer == Confirmation.YES);
                decision.put("reason", answer == Confirmation.YES ? "confirmed" : "declined");
                // The message's id goes with the answer: the same message handled again (a channel whose
                // process died before it stored the reply) finds the turn it answered, not a new one.
                runId.ifPresent(id -> decision.put("message", id));
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
        if (waiting.isEmpty() && runId.isPresent()) {
            Optional<RunResult> answered = answeredBy(runner, user, session, runId.get());
            if (answered.isPresent()) {
                return answeredAgain(runner, user, session, message, answered.get());
            }
        }
        Reply reply = turn(runner, user, session, message, runId, vouched);
        shop.codeAskedBy(user, session, reply.run().runId(), message);
        return kept(runner, user, session, message, reply);
    }

    private Reply turn(
            Runner runner,
            String user,
            String session,
            String message,
            Optional<String> runId,
            Optional<ObjectNode> vouched) {
        ObjectNode input = Json.object().put("session", session).put("text", message);
        vouched.ifPresent(customer -> input.set("customer", customer));
        RunRequest.Builder request = RunRequest.builder()
                .user(user)
                .input(input)
                .source(Json.object().put("kind", NAME));
        runId.ifPresent(request::runId);
        return reply(runner.run(graph, request.build()));
    }

    /**
     * Checks {@code vouch} and records it for the conversation: the state's customer that the turn is to
     * start from (empty when nothing vouches, or the shop has no customer with the vouched email).
     */
    private Optional<ObjectNode> vouched(Runner runner, String user, String session, Optional<Vouch> vouch) {
        Optional<Shop.Vouched> before = shop.vouched(user, session);
        if (vouch.isEmpty()) {
            if (before.isPresent()) {
                throw new WeftException(
                        ErrorCode.E_CUSTOMER_TOKEN_INVALID,
                        "conversation '" + session + "' is one a storefront vouched for; each of its messages must"
                                + " carry its customer's token (X-Weft-Customer, --customer-token) or come with"
                                + " the customer's key; nothing was done");
            }
            return Optional.empty();
        }
        String email;
        String source;
        switch (vouch.get()) {
            case Vouch.SignedToken token -> {
                email = tools.policy()
                        .tokens()
                        .orElseThrow(() -> new WeftException(
                                ErrorCode.E_CUSTOMER_TOKEN_INVALID,
                                "this shop takes no customer tokens: WEFT_SHOP_SECRET is not set; nothing was done"))
                        .email(token.token(), runner.time().now());
                source = "token";
            }
            case Vouch.BoundKey key -> {
                email = key.email().strip().toLowerCase(java.util.Locale.ROOT);
                source = "key";
            }
        }
        if (before.isPresent() && !before.get().email().equalsIgnoreCase(email)) {
            throw new WeftException(
                    ErrorCode.E_FORBIDDEN,
                    "conversation '" + session + "' is another customer's: a conversation acts for one customer;"
                            + " start another; nothing was done");
        }
        return shop.vouch(user, session, email, source, runner.time().now()).map(customer -> {
            ObjectNode json = Json.object();
            json.put("verified", true);
            json.put("id", customer.id());
            json.put("name", customer.name());
            json.put("method", source);
            return json;
        });
    }

    /**
     * A one-time code said back: checked by a run of its own ({@link #CODE_GRAPH_ID}); when it is right,
     * the message that asked for it is carried on in the same reply.
     */
    private Reply codeSaid(
            Runner runner, String user, String session, String message, String code, Optional<String> runId) {
        ObjectNode input = Json.object().put("session", session).put("code", code);
        RunRequest.Builder request = RunRequest.builder()
                .user(user)
                .input(input)
                .source(Json.object().put("kind", NAME));
        runId.ifPresent(request::runId);
        RunResult checked = runner.run(codeGraph, request.build());
        Reply reply = reply(checked);
        String asked = checked.output().path("carryOn").asText("");
        if (!asked.isEmpty()) {
            Reply carried = turn(runner, user, session, asked, Optional.empty(), Optional.empty());
            reply = new Reply(
                    session,
                    carried.run(),
                    carried.goal(),
                    reply.text() + " " + carried.text(),
                    carried.language(),
                    concat(reply.toolCalls(), carried.toolCalls()));
        }
        return kept(runner, user, session, message, reply);
    }

    private static ArrayNode concat(ArrayNode first, ArrayNode second) {
        ArrayNode all = first.deepCopy();
        all.addAll(second.deepCopy());
        return all;
    }

    /** {@code check_code}: the code said back, against the one the conversation waits for. */
    private NodeResult checkCode(NodeContext context) {
        String user = Orchestrator.user(context);
        String session = context.input().path("session").asText();
        Optional<Conversations.Saved> saved = conversations.load(user, session);
        String language =
                saved.map(s -> s.state().path("language").asText("en")).orElse("en");
        Shop.CodeCheck check = shop.checkCode(
                user,
                session,
                OneTimeCodes.hash(user, session, context.input().path("code").asText()),
                context.time().now());
        ObjectNode out = Json.object();
        out.put("session", session);
        out.put("goal", "verify_code");
        out.put("language", language);
        ObjectNode call = out.putArray("toolCalls").addObject();
        call.put("name", "verify_code");
        call.putObject("args");
        String reply;
        switch (check) {
            case Shop.CodeCheck.Accepted accepted -> {
                var customer = shop.customer(accepted.customerId()).orElseThrow();
                shop.verify(user, session, customer.id(), "code", context.time().now());
                if (saved.isPresent()) {
                    ObjectNode state = saved.get().state().deepCopy();
                    ObjectNode verified = state.putObject("customer");
                    verified.put("verified", true);
                    verified.put("id", customer.id());
                    verified.put("name", customer.name());
                    verified.put("method", "code");
                    state.put("awaiting", "nothing");
                    if (States.violations(state).isEmpty()) {
                        conversations.save(
                                user,
                                session,
                                state,
                                saved.get().version(),
                                context.time().now());
                    }
                }
                reply = Replies.codeAccepted(language, customer.firstName());
                accepted.text().ifPresent(text -> out.put("carryOn", text));
                call.put("ok", true);
            }
            case Shop.CodeCheck.Wrong wrong -> {
                reply = Replies.codeWrong(language, wrong.triesLeft());
                call.put("ok", false);
            }
            case Shop.CodeCheck.Expired expired -> {
                reply = Replies.codeExpired(language);
                call.put("ok", false);
            }
            case Shop.CodeCheck.Exhausted exhausted -> {
                reply = Replies.codeUsedUp(language);
                call.put("ok", false);
            }
            case Shop.CodeCheck.Limited limited -> {
                reply = Replies.codeLimited(language);
                call.put("ok", false);
                call.put("code", ErrorCode.E_CODE_LIMIT.name());
            }
            case Shop.CodeCheck.NoneWaiting none -> {
                reply = Replies.codeExpired(language);
                call.put("ok", false);
            }
        }
        if (!call.path("ok").asBoolean() && !call.has("code")) {
            call.put("code", ErrorCode.E_CODE_INVALID.name());
        }
        out.put("reply", reply);
        return NodeResult.output(out);
    }

    /**
     * The reply of {@code user}'s turn {@code runId}, which {@link #converse} ran earlier under that id (a
     * channel handling a message again after its process died), without running anything again. When the
     * process died after the turn ran but before the conversation kept it, the message and the reply are
     * kept now, so that a turn waiting for a yes is still the one the next message continues.
     *
     * @throws dev.weft.core.NotFoundException for a run that does not exist
     * @throws WeftException {@code E_FORBIDDEN} for another user's run, {@code E_NOT_FOUND} for a run that is
     *     not a turn of the concierge; the turn's own code when it failed
     */
    public Reply turnOf(Runner runner, String user, String runId) {
        RunResult run = runner.result(runId);
        run.run().requireUser(user);
        if (!owns(run.run())) {
            throw new WeftException(ErrorCode.E_NOT_FOUND, "run '" + runId + "' is not a turn of the concierge");
        }
        Reply reply = reply(run);
        String session = reply.session();
        // A code said back keeps its lines under the turn it carried on, not under its own run.
        if (run.run().graphId().equals(GRAPH_ID) && !conversations.keeps(user, session, runId)) {
            String message = run.run().input().path("text").asText();
            shop.codeAskedBy(user, session, runId, message);
            kept(runner, user, session, message, reply);
        }
        return reply;
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

    /**
     * The turn of {@code user}'s conversation that the message {@code messageId} already answered with a
     * yes or a no (its id is in the turn's {@code run.resumed}): the conversation's last turn, when it
     * was. Empty for a message not handled before.
     */
    private Optional<RunResult> answeredBy(Runner runner, String user, String session, String messageId) {
        List<Conversations.Line> last = conversations.recent(user, session, 1);
        if (last.isEmpty() || last.get(0).runId().isEmpty()) {
            return Optional.empty();
        }
        String turn = last.get(0).runId().get();
        boolean answered = runner.store().events(turn).stream()
                .anyMatch(e -> e.type().equals(Event.RUN_RESUMED)
                        && e.data().path("value").path("message").asText("").equals(messageId));
        return answered ? Optional.of(runner.result(turn)) : Optional.empty();
    }

    /**
     * The reply a yes or a no gave when it was handled the first time, given again without deciding
     * anything a second time; what was said is kept now if the process died before keeping it.
     */
    private Reply answeredAgain(Runner runner, String user, String session, String message, RunResult turn) {
        turn.run().requireUser(user);
        Reply reply = reply(turn);
        List<Conversations.Line> last = conversations.recent(user, session, 1);
        if (!last.get(0).role().equals("concierge") || !last.get(0).text().equals(reply.text())) {
            kept(runner, user, session, message, reply);
        }
        return reply;
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
        private ShopPolicy policy = ShopPolicy.strict();

        private Builder(RunStore store) {
            this.store = Objects.requireNonNull(store, "store");
        }

        Builder model(Model model) {
            this.model = Optional.of(model);
            return this;
        }

        /** How customers are verified (default: {@link ShopPolicy#strict()}). */
        Builder policy(ShopPolicy policy) {
            this.policy = Objects.requireNonNull(policy, "policy");
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
