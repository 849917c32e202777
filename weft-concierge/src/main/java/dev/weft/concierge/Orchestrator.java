package dev.weft.concierge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.internal.States;
import dev.weft.concierge.spi.MemoryFact;
import dev.weft.concierge.spi.PlannerInput;
import dev.weft.core.ErrorCode;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.Node;
import dev.weft.core.NodeContext;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
import dev.weft.core.WeftException;
import dev.weft.language.BareAnswers;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Seed 004's orchestrator graph, {@code START → validate_request → load_or_create_state → read_memory →
 * plan_goal → apply_plan → dispatch_specialist → apply_state_updates → validate_and_save_state →
 * write_memory → finalize_reply → END}, compiled once. Its guarantees: the state is validated before it
 * is saved; memory is written only after the state is saved; an empty reply is refused at {@code
 * finalize_reply}; every error fails the run at once, with its code, and nothing falls back.
 */
final class Orchestrator {
    static final List<String> NODES = List.of(
            "validate_request",
            "load_or_create_state",
            "read_memory",
            "plan_goal",
            "apply_plan",
            "dispatch_specialist",
            "apply_state_updates",
            "validate_and_save_state",
            "write_memory",
            "finalize_reply");

    /** The longest message a turn takes. */
    static final int MAX_TEXT = 2000;

    private Orchestrator() {}

    /**
     * The orchestrator's graph for {@code concierge}, with {@code edit} applied before it compiles.
     *
     * @throws dev.weft.core.GraphInvalidException when it does not compile, naming the node and the rule
     */
    static Graph compile(Concierge concierge, Consumer<Graph.Builder> edit) {
        Graph.Builder graph = Graph.builder(Concierge.GRAPH_ID);
        graph.node(node("validate_request", Orchestrator::validateRequest));
        graph.node(node("load_or_create_state", context -> loadOrCreateState(concierge, context)));
        graph.node(node("read_memory", context -> readMemory(concierge, context)));
        graph.node(node("plan_goal", context -> planGoal(concierge, context)));
        graph.node(node("apply_plan", Orchestrator::applyPlan));
        graph.node(node("dispatch_specialist", new Dispatch(concierge)));
        graph.node(node("apply_state_updates", Orchestrator::applyStateUpdates));
        graph.node(node("validate_and_save_state", context -> validateAndSaveState(concierge, context)));
        graph.node(node("write_memory", context -> writeMemory(concierge, context)));
        graph.node(node("finalize_reply", Orchestrator::finalizeReply));
        graph.edge(Graph.START, NODES.get(0));
        for (int i = 0; i + 1 < NODES.size(); i++) {
            graph.edge(NODES.get(i), NODES.get(i + 1));
        }
        graph.edge(NODES.get(NODES.size() - 1), Graph.END);
        edit.accept(graph);
        return graph.compile();
    }

    private static NodeSpec node(String id, Node node) {
        return NodeSpec.builder(id, node).type("concierge").maxVisits(1).build();
    }

    // ---------------------------------------------------------------- 1 validate_request

    private static NodeResult validateRequest(NodeContext context) {
        JsonNode input = context.input();
        user(context);
        String session = input.path("session").asText("");
        requireSession(session);
        String text = input.path("text").asText("").strip();
        if (text.isEmpty()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the message is empty: say something to the concierge");
        }
        if (text.length() > MAX_TEXT) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "the message is " + text.length() + " characters long; the concierge reads at most " + MAX_TEXT);
        }
        ObjectNode out = Json.object();
        out.put("session", session);
        out.put("text", text);
        out.put(
                "language",
                dev.weft.language.Language.of(text)
                        .map(dev.weft.language.Language::code)
                        .orElse(""));
        if (input.path("customer").isObject()) {
            // The customer a storefront vouched for: the turn acts for them whatever the state said.
            out.set("customer", input.get("customer").deepCopy());
        }
        return NodeResult.output(out);
    }

    /** @throws WeftException {@code E_BAD_INPUT} for a session id that is blank, too long or not printable */
    static void requireSession(String session) {
        if (session.isBlank() || session.length() > 200 || session.chars().anyMatch(Character::isISOControl)) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "a session id must be 1-200 printable characters, not blank; was '" + session + "'");
        }
    }

    static String user(NodeContext context) {
        return context.user()
                .orElseThrow(() -> new WeftException(
                        ErrorCode.E_BAD_INPUT, "a concierge turn is a user's: its run must be started for a user"));
    }

    private static JsonNode output(NodeContext context, String node) {
        JsonNode output = context.outputs().get(node);
        if (output == null) {
            throw new IllegalStateException(
                    "node '" + context.nodeId() + "' runs after '" + node + "', which has no output");
        }
        return output;
    }

    // ---------------------------------------------------------------- 2 load_or_create_state

    private static NodeResult loadOrCreateState(Concierge concierge, NodeContext context) {
        JsonNode request = context.input();
        String session = request.path("session").asText();
        Optional<Conversations.Saved> saved = concierge.conversations().load(user(context), session);
        ObjectNode out = Json.object();
        if (saved.isPresent()) {
            out.set("state", saved.get().state());
            out.put("version", saved.get().version());
            out.put("created", false);
        } else {
            String language = request.path("language").asText("");
            out.set("state", States.fresh(session, language.isEmpty() ? "en" : language));
            out.put("version", 0);
            out.put("created", true);
        }
        if (request.path("customer").isObject()) {
            ((ObjectNode) out.get("state"))
                    .set("customer", request.get("customer").deepCopy());
        }
        return NodeResult.output(out);
    }

    // ---------------------------------------------------------------- 3 read_memory

    private static NodeResult readMemory(Concierge concierge, NodeContext context) {
        JsonNode customer = context.input().path("state").path("customer");
        ObjectNode out = Json.object();
        ArrayNode memory = out.putArray("memory");
        if (customer.path("verified").asBoolean(false)) {
            out.put("customerId", customer.path("id").asText());
            for (MemoryFact fact :
                    concierge.conversations().memory(customer.path("id").asText())) {
                memory.addObject()
                        .put("kind", fact.kind())
                        .put("item", fact.item())
                        .put("value", fact.value());
            }
        }
        return NodeResult.output(out);
    }

    static List<MemoryFact> memory(JsonNode readMemory) {
        List<MemoryFact> facts = new ArrayList<>();
        readMemory
                .path("memory")
                .forEach(f -> facts.add(new MemoryFact(
                        f.path("kind").asText(),
                        f.path("item").asText(),
                        f.path("value").asText())));
        return facts;
    }

    // ---------------------------------------------------------------- 4 plan_goal

    private static NodeResult planGoal(Concierge concierge, NodeContext context) {
        JsonNode request = output(context, "validate_request");
        ObjectNode state = (ObjectNode) output(context, "load_or_create_state").get("state");
        String language = request.path("language").asText("");
        if (language.isEmpty()) {
            language = state.path("language").asText("en");
        }
        String text = request.path("text").asText();
        if (state.path("awaiting").asText("nothing").equals("nothing")
                && BareAnswers.acknowledgement(text, language).isPresent()) {
            // A bare "no", "ok" or "yes" with nothing asked before it asks for nothing: answered in words
            // (Dispatch), never planned (a model torn over "cancel" would pick a goal of its own).
            ObjectNode bare = Json.object();
            bare.put("goal", Goal.SMALLTALK.id());
            bare.putObject("slots");
            bare.put("bare", true);
            bare.put("language", language);
            bare.put("planner", "none");
            return NodeResult.output(bare);
        }
        List<String> recent =
                concierge.recent(user(context), request.path("session").asText());
        ObjectNode plan = concierge
                .planner()
                .plan(
                        context,
                        new PlannerInput(
                                request.path("text").asText(), language, state, memory(context.input()), recent));
        Goal goal = Goal.find(plan.path("goal").asText())
                .orElseThrow(() -> new WeftException(
                        ErrorCode.E_MODEL_OUTPUT_INVALID,
                        "planner '" + concierge.planner().name() + "' picked no goal the concierge has: "
                                + plan.path("goal")));
        ObjectNode out = plan.deepCopy();
        out.put("goal", goal.id());
        if (!out.path("slots").isObject()) {
            out.putObject("slots");
        }
        out.put("language", language);
        out.put("planner", concierge.planner().name());
        return NodeResult.output(out);
    }

    // ---------------------------------------------------------------- 5 apply_plan

    private static NodeResult applyPlan(NodeContext context) {
        JsonNode plan = context.input();
        ObjectNode state = ((ObjectNode) output(context, "load_or_create_state").get("state")).deepCopy();
        Goal goal = Goal.of(plan.path("goal").asText());
        int turn = state.path("turns").asInt(0) + 1;
        state.put("turns", turn);
        state.put("language", plan.path("language").asText("en"));
        JsonNode previous = state.path("goal");
        boolean onGoal = previous.isObject()
                && previous.path("name").asText().equals(goal.id())
                && previous.path("status").asText().equals("active");
        boolean keepGoal = goal == Goal.SMALLTALK
                && previous.isObject()
                && previous.path("status").asText().equals("active");
        if (!onGoal && !keepGoal) {
            ObjectNode request = Json.object();
            for (String identity : List.of("email", "name", "postcode")) {
                if (state.path("request").has(identity)) {
                    request.set(identity, state.path("request").get(identity));
                }
            }
            state.set("request", request);
            ObjectNode next = state.putObject("goal");
            next.put("name", goal.id());
            // Small talk is answered at once: there is nothing of it for a next message to continue.
            next.put("status", goal == Goal.SMALLTALK ? "done" : "active");
            next.put("since", turn);
        }
        ObjectNode request = (ObjectNode) state.get("request");
        if (plan.path("slots").has("orderId") && !plan.path("slots").has("orderIds")) {
            // One order named now: the several named before are done with.
            request.remove("orderIds");
        }
        plan.path("slots").properties().forEach(slot -> {
            if (!slot.getValue().isNull()) {
                request.set(slot.getKey(), slot.getValue().deepCopy());
            }
        });
        state.put("awaiting", "nothing");
        ObjectNode out = Json.object();
        out.set("state", state);
        out.put("goal", goal.id());
        return NodeResult.output(out);
    }

    // ---------------------------------------------------------------- 7 apply_state_updates

    private static NodeResult applyStateUpdates(NodeContext context) {
        JsonNode dispatched = context.input();
        ObjectNode state = (ObjectNode) output(context, "apply_plan").get("state");
        ObjectNode merged = States.merge(state, dispatched.path("stateUpdates"));
        ArrayNode history =
                merged.path("history").isArray() ? (ArrayNode) merged.get("history") : merged.putArray("history");
        for (JsonNode call : dispatched.path("changes")) {
            ObjectNode entry = history.addObject();
            entry.put("turn", merged.path("turns").asInt());
            entry.put("goal", dispatched.path("goal").asText());
            entry.put("tool", call.path("name").asText());
            entry.put("ok", call.path("ok").asBoolean());
            if (call.path("args").path("orderId").isTextual()) {
                entry.put("orderId", call.path("args").path("orderId").asText());
            } else if (call.path("result").path("orderId").isTextual()) {
                entry.put("orderId", call.path("result").path("orderId").asText());
            }
            entry.put("confirmed", call.path("confirmed").asBoolean(false));
        }
        while (history.size() > 20) {
            history.remove(0);
        }
        ObjectNode out = Json.object();
        out.set("state", merged);
        return NodeResult.output(out);
    }

    // ---------------------------------------------------------------- 8 validate_and_save_state

    private static NodeResult validateAndSaveState(Concierge concierge, NodeContext context) {
        ObjectNode state = (ObjectNode) context.input().get("state");
        List<String> violations = States.violations(state);
        if (!violations.isEmpty()) {
            throw new WeftException(
                    ErrorCode.E_STATE_INVALID,
                    "the state of conversation '" + state.path("session").asText()
                            + "' does not fit its schema, so it was not saved: " + String.join("; ", violations));
        }
        long loaded = output(context, "load_or_create_state").path("version").asLong();
        long version = concierge
                .conversations()
                .save(
                        user(context),
                        state.path("session").asText(),
                        state,
                        loaded,
                        context.time().now());
        ObjectNode out = Json.object();
        out.set("state", state);
        out.put("version", version);
        return NodeResult.output(out);
    }

    // ---------------------------------------------------------------- 9 write_memory

    private static NodeResult writeMemory(Concierge concierge, NodeContext context) {
        JsonNode customer = context.input().path("state").path("customer");
        List<MemoryFact> facts = new ArrayList<>();
        output(context, "dispatch_specialist")
                .path("memory")
                .forEach(f -> facts.add(new MemoryFact(
                        f.path("kind").asText(),
                        f.path("item").asText(),
                        f.path("value").asText())));
        ObjectNode out = Json.object();
        if (customer.path("verified").asBoolean(false) && !facts.isEmpty()) {
            String id = customer.path("id").asText();
            out.put("customerId", id);
            out.put(
                    "written",
                    concierge.conversations().remember(id, facts, context.time().now()));
        } else {
            out.put("written", 0);
        }
        return NodeResult.output(out);
    }

    // ---------------------------------------------------------------- 10 finalize_reply

    private static NodeResult finalizeReply(NodeContext context) {
        JsonNode dispatched = output(context, "dispatch_specialist");
        String message = dispatched.path("message").asText("").strip();
        if (message.isEmpty()) {
            throw new WeftException(
                    ErrorCode.E_EMPTY_REPLY,
                    "the specialist for " + dispatched.path("goal").asText()
                            + " gave an empty message; nothing to say");
        }
        JsonNode state = output(context, "validate_and_save_state").path("state");
        ObjectNode out = Json.object();
        out.put("session", state.path("session").asText());
        out.put("goal", dispatched.path("goal").asText());
        out.put("reply", message);
        out.put("language", state.path("language").asText());
        out.set("toolCalls", dispatched.path("toolCalls").deepCopy());
        return NodeResult.output(out);
    }
}
