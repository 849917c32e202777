package dev.weft.concierge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.internal.Refusals;
import dev.weft.concierge.internal.Replies;
import dev.weft.concierge.internal.States;
import dev.weft.concierge.shop.Refusal;
import dev.weft.concierge.shop.ShopTools;
import dev.weft.concierge.spi.MemoryFact;
import dev.weft.concierge.spi.Specialist;
import dev.weft.concierge.spi.SpecialistInput;
import dev.weft.concierge.spi.SpecialistOutput;
import dev.weft.concierge.spi.ToolRequest;
import dev.weft.concierge.spi.ToolResult;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.Node;
import dev.weft.core.NodeContext;
import dev.weft.core.NodeResult;
import dev.weft.core.WeftException;
import dev.weft.language.BareAnswers;
import dev.weft.plan.PlanEvents;
import dev.weft.plan.Risk;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code dispatch_specialist}: seed 004's two-pass dispatch. For a sales or support goal the goal's
 * specialist runs its first pass; the tools it asks for must be on the goal's list ({@code
 * E_TOOL_NOT_ALLOWED} otherwise, before any runs) and run in order through {@code weft-plan}'s tool
 * registry (arguments validated against the tool's schema, the conversation's session set by this node
 * and never by the specialist). A change (a high-risk call) first checks itself with a dry run; a change
 * the shop refuses is a result like any other, and one it allows pauses the run ({@code WAITING}) with
 * the question, until the customer's next message says yes (it runs, approved) or anything else (it does
 * not). The second pass then answers from the results and must not ask for tools ({@code
 * E_PASS2_TOOL_REQUEST}); the state updates of both passes are merged. Small talk has no specialist.
 */
final class Dispatch implements Node {
    /** The type of this node's interrupt payload. */
    static final String CONFIRMATION = "confirmation";

    private final Concierge concierge;

    Dispatch(Concierge concierge) {
        this.concierge = concierge;
    }

    @Override
    public NodeResult execute(NodeContext context) {
        JsonNode request = context.outputs().get("validate_request");
        JsonNode plan = context.outputs().get("plan_goal");
        ObjectNode state = (ObjectNode) context.input().get("state");
        Goal goal = Goal.of(context.input().path("goal").asText());
        String language = state.path("language").asText("en");
        String text = request.path("text").asText();
        if (!goal.hasSpecialist()) {
            String words = plan.path("bare").asBoolean()
                    ? BareAnswers.acknowledgement(text, language).orElseThrow()
                    : Replies.smalltalk(language, text, state);
            ObjectNode out = output(goal, words, Json.object(), List.of(), List.of(), List.of());
            return NodeResult.output(out);
        }
        Specialist specialist = concierge.specialist(goal);
        SpecialistInput input = new SpecialistInput(
                goal,
                language,
                text,
                state,
                Orchestrator.memory(context.outputs().get("read_memory")),
                (ObjectNode) plan,
                concierge.recent(
                        Orchestrator.user(context), state.path("session").asText()));
        SpecialistOutput first;
        ToolResult[] results;
        Set<Integer> earlier = new HashSet<>();
        List<ObjectNode> changes = new ArrayList<>();
        Set<Integer> approved = new HashSet<>();
        if (context.resumeValue().isEmpty()) {
            first = specialist.first(context, input);
            if (first.toolCalls().isEmpty()) {
                return NodeResult.output(
                        output(goal, first.message(), first.stateUpdates(), first.memory(), List.of(), List.of()));
            }
            for (ToolRequest call : first.toolCalls()) {
                if (!goal.tools().contains(call.name())) {
                    throw new WeftException(
                            ErrorCode.E_TOOL_NOT_ALLOWED,
                            "the specialist for " + goal.id() + " asked for tool '" + call.name()
                                    + "', which is not among its tools (" + String.join(", ", goal.tools())
                                    + "); nothing was called");
                }
            }
            results = new ToolResult[first.toolCalls().size()];
        } else {
            JsonNode waited = context.interruptPayload().orElseThrow();
            first = SpecialistOutput.fromJson(waited.path("first"));
            results = new ToolResult[first.toolCalls().size()];
            JsonNode done = waited.path("results");
            for (int i = 0; i < results.length; i++) {
                if (done.path(i).isObject()) {
                    results[i] = ToolResult.fromJson(done.get(i));
                    earlier.add(i);
                }
            }
            waited.path("changes").forEach(c -> changes.add((ObjectNode) c.deepCopy()));
            boolean yes = context.resumeValue().get().path("approved").asBoolean(false);
            for (JsonNode index : waited.path("waiting")) {
                int i = index.asInt();
                if (yes) {
                    approved.add(i);
                } else {
                    ToolRequest call = first.toolCalls().get(i);
                    results[i] = declined(
                            call.name(),
                            args(call, state),
                            context.resumeValue().get());
                    changes.add(change(results[i], false));
                }
            }
        }
        for (int i = 0; i < results.length; i++) {
            if (results[i] != null) {
                continue;
            }
            ToolRequest call = first.toolCalls().get(i);
            ObjectNode args = args(call, state);
            if (!highRisk(call, args)) {
                results[i] = call(context, i, call.name(), args, false);
                continue;
            }
            if (approved.contains(i)) {
                results[i] = call(context, i, call.name(), args, true);
                changes.add(change(results[i], true));
                continue;
            }
            // This change and every later one check themselves now, so that one yes confirms them all.
            List<Integer> waiting = new ArrayList<>();
            List<ToolResult> checks = new ArrayList<>();
            for (int j = i; j < results.length; j++) {
                ToolRequest later = first.toolCalls().get(j);
                ObjectNode laterArgs = args(later, state);
                if (results[j] != null || !highRisk(later, laterArgs)) {
                    continue;
                }
                ObjectNode dry = laterArgs.deepCopy();
                dry.put(ShopTools.DRY_RUN, true);
                ToolResult check = call(context, j, later.name(), dry, false);
                if (check.ok()) {
                    waiting.add(j);
                    checks.add(check);
                } else {
                    results[j] = new ToolResult(later.name(), shown(laterArgs), false, check.result(), check.error());
                    changes.add(change(results[j], false));
                }
            }
            if (!waiting.isEmpty()) {
                // What the shop refused of this pass is said before the question about the rest.
                StringBuilder refused = new StringBuilder();
                for (int j = i; j < results.length; j++) {
                    if (results[j] != null
                            && !results[j].ok()
                            && highRisk(
                                    first.toolCalls().get(j),
                                    args(first.toolCalls().get(j), state))) {
                        refused.append(Refusals.why(language, goal, results[j], state))
                                .append(' ');
                    }
                }
                return NodeResult.interrupt(
                        waiting(context, waiting, checks, first, results, changes, language, refused.toString()));
            }
        }
        List<ToolResult> all = java.util.Arrays.asList(results);
        SpecialistOutput second = specialist.second(context, input, first, List.copyOf(all));
        if (!second.toolCalls().isEmpty()) {
            throw new WeftException(
                    ErrorCode.E_PASS2_TOOL_REQUEST,
                    "the specialist for " + goal.id() + " asked for tools in its second pass ("
                            + String.join(
                                    ", ",
                                    second.toolCalls().stream()
                                            .map(ToolRequest::name)
                                            .toList())
                            + "), which must answer from the first pass's results; they were not called");
        }
        ObjectNode updates = States.merge(first.stateUpdates(), second.stateUpdates());
        List<MemoryFact> memory = new ArrayList<>(first.memory());
        memory.addAll(second.memory());
        List<ToolResult> now = new ArrayList<>();
        ArrayNode before = Json.mapper().createArrayNode();
        for (int i = 0; i < results.length; i++) {
            if (earlier.contains(i)) {
                before.add(summary(results[i]));
            } else {
                now.add(results[i]);
            }
        }
        ObjectNode out = output(goal, second.message(), updates, memory, now, changes);
        out.set("earlierToolCalls", before);
        return NodeResult.output(out);
    }

    /**
     * The call's arguments as the tool gets them: the conversation's session set here (for a tool that
     * acts in one), whatever the specialist gave, and no dry run.
     */
    private ObjectNode args(ToolRequest call, ObjectNode state) {
        ObjectNode args = call.args().deepCopy();
        args.remove(ShopTools.DRY_RUN);
        args.remove(ShopTools.SESSION);
        boolean inSession = concierge
                .tools()
                .registry()
                .find(call.name())
                .map(t -> t.inputSchema().path("properties").has(ShopTools.SESSION))
                .orElse(false);
        if (inSession) {
            args.put(ShopTools.SESSION, state.path("session").asText());
        }
        return args;
    }

    /**
     * Calls tool {@code name} once for this step (its result kept, so a step run again after a crash does
     * not call it twice), turning a refusal or failure into a result that says why.
     */
    private ToolResult call(NodeContext context, int index, String name, ObjectNode args, boolean approved) {
        boolean dry = args.path(ShopTools.DRY_RUN).asBoolean(false);
        ObjectNode shown = shown(args);
        ObjectNode called = Json.object();
        called.put("tool", name);
        called.set("args", shown);
        called.put("dryRun", dry);
        context.emit(PlanEvents.TOOL_CALLED, called);
        JsonNode outcome = context.once("tool-" + index + (dry ? "-check" : approved ? "-approved" : ""), () -> {
            ObjectNode result = Json.object();
            try {
                JsonNode value = concierge
                        .tools()
                        .registry()
                        .call(name, args, ToolContext.of(context, "call-" + index + (dry ? "-check" : ""), approved));
                result.put("ok", true);
                result.set("result", value);
            } catch (Refusal refusal) {
                result.put("ok", false);
                result.set("error", refusal.toJson());
            } catch (WeftException e) {
                if (e.code() == ErrorCode.E_STORE_UNAVAILABLE || e.isTransient()) {
                    throw e;
                }
                ObjectNode error = result.putObject("error");
                error.put("code", e.code().name());
                error.put("message", e.getMessage());
                error.put("reason", e.code() == ErrorCode.E_ARGS_INVALID ? "bad_arguments" : "failed");
                error.putObject("details");
                result.put("ok", false);
            }
            return result;
        });
        boolean ok = outcome.path("ok").asBoolean();
        ObjectNode event = Json.object();
        event.put("tool", name);
        event.put("dryRun", dry);
        if (!ok) {
            event.set("error", outcome.path("error"));
        }
        context.emit(ok ? PlanEvents.TOOL_SUCCEEDED : PlanEvents.TOOL_FAILED, event);
        return new ToolResult(
                name,
                shown,
                ok,
                outcome.has("result") ? outcome.get("result") : Json.mapper().nullNode(),
                outcome.path("error").isObject() ? Optional.of((ObjectNode) outcome.get("error")) : Optional.empty());
    }

    /** A change the customer did not say yes to: not called. */
    private static ToolResult declined(String name, ObjectNode args, JsonNode decision) {
        ObjectNode error = Json.object();
        error.put("code", ErrorCode.E_APPROVAL_REQUIRED.name());
        error.put("message", "the customer did not confirm " + name + "; nothing was done");
        error.put("reason", decision.path("reason").asText("declined"));
        error.putObject("details");
        return new ToolResult(name, shown(args), false, Json.mapper().nullNode(), Optional.of(error));
    }

    private boolean highRisk(ToolRequest call, ObjectNode args) {
        Tool tool = concierge.tools().registry().find(call.name()).orElseThrow();
        return tool.risk(args) == Risk.HIGH;
    }

    /**
     * The interrupt a turn waits on: the changes checked and allowed ({@code waiting}, by their call's
     * index), the question that asks for the customer's yes to all of them, and what the pass has done.
     */
    private ObjectNode waiting(
            NodeContext context,
            List<Integer> waiting,
            List<ToolResult> checks,
            SpecialistOutput first,
            ToolResult[] results,
            List<ObjectNode> changes,
            String language,
            String refused) {
        ObjectNode payload = Json.object();
        payload.put("type", CONFIRMATION);
        ArrayNode indices = payload.putArray("waiting");
        waiting.forEach(indices::add);
        ArrayNode asked = payload.putArray("changes_asked");
        List<Replies.Change> toConfirm = new ArrayList<>();
        for (int k = 0; k < waiting.size(); k++) {
            ToolRequest call = first.toolCalls().get(waiting.get(k));
            ObjectNode one = asked.addObject();
            one.put("tool", call.name());
            one.set("args", checks.get(k).args());
            one.set("preview", checks.get(k).result());
            toConfirm.add(new Replies.Change(call.name(), checks.get(k).result()));
        }
        String prefix = "";
        for (ToolResult done : results) {
            if (done != null
                    && done.ok()
                    && (done.name().equals(ShopTools.FIND_BY_EMAIL)
                            || done.name().equals(ShopTools.FIND_BY_NAME))) {
                prefix = Replies.verifiedBriefly(
                                language, done.result().path("firstName").asText()) + " ";
            }
        }
        payload.put("question", prefix + refused + Replies.confirmation(language, toConfirm));
        payload.put("language", language);
        payload.set("first", first.toJson());
        ArrayNode done = payload.putArray("results");
        for (ToolResult result : results) {
            if (result == null) {
                done.addNull();
            } else {
                done.add(result.toJson());
            }
        }
        ArrayNode changed = payload.putArray("changes");
        changes.forEach(changed::add);
        ObjectNode event = Json.object();
        event.put("type", CONFIRMATION);
        event.set("changes", asked.deepCopy());
        event.put("question", payload.path("question").asText());
        context.emit(PlanEvents.APPROVAL_AWAITING, event);
        return payload;
    }

    private static ObjectNode change(ToolResult result, boolean confirmed) {
        ObjectNode json = result.toJson();
        json.put("confirmed", confirmed);
        return json;
    }

    /** The arguments as callers are shown them: without the session and the dry run. */
    private static ObjectNode shown(ObjectNode args) {
        ObjectNode shown = args.deepCopy();
        shown.remove(ShopTools.SESSION);
        shown.remove(ShopTools.DRY_RUN);
        return shown;
    }

    /** A call as a turn shows it: its name, arguments and whether it went through; a refused one with its error code. */
    static ObjectNode summary(ToolResult result) {
        ObjectNode json = Json.object();
        json.put("name", result.name());
        json.set("args", result.args());
        json.put("ok", result.ok());
        result.error()
                .filter(error -> !result.ok() && error.path("code").isTextual())
                .ifPresent(error -> json.put("code", error.path("code").asText()));
        return json;
    }

    private static ObjectNode output(
            Goal goal,
            String message,
            ObjectNode updates,
            List<MemoryFact> memory,
            List<ToolResult> results,
            List<ObjectNode> changes) {
        ObjectNode out = Json.object();
        out.put("goal", goal.id());
        out.put("message", message);
        out.set("stateUpdates", updates);
        ArrayNode facts = out.putArray("memory");
        memory.forEach(f ->
                facts.addObject().put("kind", f.kind()).put("item", f.item()).put("value", f.value()));
        ArrayNode calls = out.putArray("toolCalls");
        results.forEach(r -> calls.add(summary(r)));
        ArrayNode changed = out.putArray("changes");
        changes.forEach(changed::add);
        ArrayNode detail = out.putArray("results");
        results.forEach(r -> detail.add(r.toJson()));
        return out;
    }
}
