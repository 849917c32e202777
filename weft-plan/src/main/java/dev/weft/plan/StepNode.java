package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.Node;
import dev.weft.core.NodeContext;
import dev.weft.core.NodeResult;
import dev.weft.core.RunError;
import dev.weft.core.StepScope;
import dev.weft.core.WeftException;
import dev.weft.plan.internal.Nodes;
import dev.weft.plan.internal.PlaceholderRefs;
import dev.weft.plan.internal.Placeholders;
import dev.weft.plan.internal.Placeholders.Prepared;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One plan step as a graph node: resolve → prepare → validate → approve → execute → commit (seed
 * 001). It never throws for a failure of the step itself: the outcome says what went wrong, so the
 * rest of the plan runs on. Thread-safe; the state of a step lives in its context and outcome.
 */
final class StepNode implements Node {
    /** The {@link ToolContext#once} key of a call to a tool that is not idempotent. */
    static final String ONCE_KEY = "call";

    private final PlanExecutor executor;
    private final PlanStep step;
    private final List<String> dependencies;
    private final Set<String> scope;
    /** The node names ({@code step:<id>}) of {@link #dependencies}, built once rather than per run. */
    private final List<String> dependencyNodes;
    /** The node names of {@link #scope}. */
    private final List<String> scopeNodes;

    /** Every step id of the plan: only these make {@code $id} a placeholder. */
    private final Set<String> planStepIds;

    StepNode(
            PlanExecutor executor,
            PlanStep step,
            List<String> dependencies,
            Set<String> scope,
            Set<String> planStepIds) {
        this.executor = executor;
        this.step = step;
        this.planStepIds = Set.copyOf(planStepIds);
        this.dependencies = List.copyOf(dependencies);
        this.scope = Set.copyOf(scope);
        this.dependencyNodes = nodeNames(this.dependencies);
        this.scopeNodes = nodeNames(this.scope);
    }

    private static List<String> nodeNames(java.util.Collection<String> stepIds) {
        return stepIds.stream().map(id -> PlanExecutor.STEP_PREFIX + id).toList();
    }

    @Override
    public NodeResult execute(NodeContext context) {
        JsonNode runInput = context.runInput();
        PlanMode mode = PlanMode.valueOf(runInput.path("mode").asText("AUTO"));
        JsonNode plan = context.outputs().getOrDefault(PlanExecutor.PLAN_NODE, NullNode.getInstance());
        if (!plan.path("approved").asBoolean(true)) {
            return done(StepOutcome.skipped(step.id(), "", NullNode.getInstance(), "the plan was not approved"));
        }
        for (int i = 0; i < dependencyNodes.size(); i++) {
            JsonNode outcome = outcome(context, dependencyNodes.get(i));
            StepOutcome.Status status = outcome == null
                    ? null
                    : StepOutcome.Status.valueOf(outcome.get("status").asText());
            if (status != StepOutcome.Status.SUCCEEDED && status != StepOutcome.Status.PREVIEWED) {
                return done(StepOutcome.skipped(
                        step.id(),
                        "",
                        NullNode.getInstance(),
                        "step '" + dependencies.get(i) + "' it depends on did not succeed"));
            }
        }
        JsonNode resume = context.resumeValue().orElse(NullNode.getInstance());
        Set<String> approved = ids(runInput.path("approvedSteps"), plan.path("approve"), resume.path("approve"));
        Set<String> rejected = ids(resume.path("reject"), MissingNode.getInstance(), MissingNode.getInstance());
        ObjectNode answers = Json.object();
        addAnswers(answers, runInput.path("answers"));
        addAnswers(answers, plan.path("answers"));
        addAnswers(answers, resume.path("answers"));
        PlanExecutor.Limits limits = executor.limits(context);
        if (limits == null) {
            return run(context, mode, answers, approved, rejected);
        }
        try {
            limits.acquire(step.capability());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return done(StepOutcome.failed(
                    step.id(),
                    "",
                    NullNode.getInstance(),
                    new RunError(ErrorCode.E_CANCELLED, "step '" + step.id() + "' was interrupted"),
                    0,
                    0));
        }
        try {
            return run(context, mode, answers, approved, rejected);
        } finally {
            limits.release(step.capability());
        }
    }

    /** The ids listed in the arrays {@code a}, {@code b} and {@code c}; an empty set (not allocated) when they list none. */
    private static Set<String> ids(JsonNode a, JsonNode b, JsonNode c) {
        if (a.isEmpty() && b.isEmpty() && c.isEmpty()) {
            return Set.of();
        }
        Set<String> ids = new HashSet<>();
        a.forEach(id -> ids.add(id.asText()));
        b.forEach(id -> ids.add(id.asText()));
        c.forEach(id -> ids.add(id.asText()));
        return ids;
    }

    /** Adds this step's entry of {@code source} (answers by step id) to {@code answers}. */
    private void addAnswers(ObjectNode answers, JsonNode source) {
        JsonNode mine = source.path(step.id());
        if (mine.isObject()) {
            answers.setAll((ObjectNode) mine);
        }
    }

    /**
     * Where the stages before the calls left a step: ended (skipped, failed, or waiting for a person)
     * with a result, or ready to call. The stages return here instead of each calling the next, so
     * that a step waiting in its tool call parks a virtual thread with a shallow stack: every frame
     * on it is frozen when the thread parks and thawed, one return at a time, when it wakes.
     */
    private sealed interface Stage permits Ended, Ready {}

    /** The step ended before any call with {@code result}. */
    private record Ended(NodeResult result) implements Stage {}

    /** The calls to make: {@code tool} with each of {@code prepared}, for the step's {@code originalArgs}. */
    private record Ready(Tool tool, JsonNode originalArgs, List<Prepared> prepared) implements Stage {}

    private NodeResult run(
            NodeContext context, PlanMode mode, ObjectNode answers, Set<String> approved, Set<String> rejected) {
        JsonNode payload = context.interruptPayload().orElse(NullNode.getInstance());
        if (payload.path("type").asText().equals("queued")
                && payload.path("kind").asText().equals(QUEUED_KIND)) {
            JsonNode work = payload.path("work");
            StepOutcome outcome = delivered(context, work, context.resumeValue().orElse(NullNode.getInstance()));
            return executor.tools()
                    .find(work.path("tool").asText())
                    .flatMap(tool ->
                            unknownWaits(context, tool, work.path("args"), preparedOf(work.path("calls")), outcome))
                    .or(() -> inputWaits(context, outcome))
                    .orElseGet(() -> done(outcome));
        }
        if (payload.path("type").asText().equals("clarify") && isIn(step.id(), rejected)) {
            // The question was turned down ("never mind"): the step is dropped and nothing is called.
            return done(StepOutcome.skipped(step.id(), "", NullNode.getInstance(), "rejected"));
        }
        if (payload.path("type").asText().equals("clarify")
                && payload.path("code").asText().equals(ErrorCode.E_INPUT_REQUIRED.name())) {
            // The user answered what the tool's call asked: their answer is their say on sending it.
            Set<String> withThis = new HashSet<>(approved);
            withThis.add(step.id());
            approved = withThis;
        }
        boolean approval = payload.path("type").asText().equals("approval");
        // The person was told the calls' outcome is unknown: approving them makes them again.
        boolean repeat = approval && payload.path("code").asText().equals(ErrorCode.E_OUTCOME_UNKNOWN.name());
        Stage stage =
                approval && answers.isEmpty() ? approvedCalls(payload) : resolveAndPrepare(context, mode, answers);
        if (stage instanceof Ended ended) {
            return ended.result();
        }
        Ready ready = (Ready) stage;
        NodeResult waiting = gate(context, ready.tool(), ready.originalArgs(), ready.prepared(), approved, rejected);
        if (waiting != null) {
            return waiting;
        }
        Optional<NodeResult> queued = dispatch(context, ready, rejected, repeat);
        if (queued.isPresent()) {
            return queued.get();
        }
        List<StepOutcome> outcomes = ready.prepared().size() == 1
                ? List.of(runOne(context, ready.tool(), ready.prepared().get(0), rejected, repeat))
                : runAll(context, ready.tool(), ready.prepared(), rejected, repeat);
        StepOutcome outcome = combine(ready.tool(), ready.originalArgs(), outcomes);
        return unknownWaits(context, ready.tool(), ready.originalArgs(), ready.prepared(), outcome)
                .or(() -> inputWaits(context, outcome))
                .orElseGet(() -> done(outcome));
    }

    /**
     * The question a tool's call asked ({@link InputRequiredException}, {@code E_INPUT_REQUIRED}) as the
     * step's own: the run waits on it like a resolver's question, and the answer, merged over the step's
     * arguments, goes to the tool's next call. Empty when the call did not ask, or the step was expanded
     * into several calls (one question a step: such a call fails with the code).
     */
    private Optional<NodeResult> inputWaits(NodeContext context, StepOutcome outcome) {
        if (!outcome.children().isEmpty()
                || outcome.status() != StepOutcome.Status.FAILED
                || outcome.error()
                        .map(e -> e.code() != ErrorCode.E_INPUT_REQUIRED)
                        .orElse(true)) {
            return Optional.empty();
        }
        ObjectNode payload = Json.object();
        payload.put("type", "clarify");
        payload.put("code", ErrorCode.E_INPUT_REQUIRED.name());
        payload.put("stepId", step.id());
        payload.put("tool", outcome.tool());
        // The user is asked the tool's own words, without the step's name the failure was given.
        String message = outcome.error().orElseThrow().message();
        String named = "step '" + outcome.stepId() + "': ";
        payload.put("question", message.startsWith(named) ? message.substring(named.length()) : message);
        payload.putArray("options");
        context.emit(PlanEvents.CLARIFY_AWAITING, payload);
        return Optional.of(NodeResult.interrupt(payload));
    }

    private static List<Prepared> preparedOf(JsonNode calls) {
        List<Prepared> prepared = new ArrayList<>();
        calls.forEach(c -> {
            if (c.path("args").isObject()) {
                prepared.add(new Prepared(c.path("stepId").asText(), (ObjectNode) c.get("args")));
            }
        });
        return prepared;
    }

    /**
     * The interrupt that asks a person about calls of a high-risk tool whose outcome is unknown ({@code
     * E_OUTCOME_UNKNOWN}: they may have taken effect, nothing can tell), or empty when no call's is, or
     * the tool is not high-risk (its step then fails with the code). Approving makes them again with
     * {@link ToolContext#repeatApproved()}; rejecting gives up. Never a second call on its own.
     */
    private Optional<NodeResult> unknownWaits(
            NodeContext context, Tool tool, JsonNode originalArgs, List<Prepared> prepared, StepOutcome outcome) {
        List<StepOutcome> leaves = outcome.children().isEmpty() ? List.of(outcome) : outcome.children();
        // Called after every call: a plain loop, which allocates nothing when no outcome is unknown.
        List<StepOutcome> unknown = List.of();
        for (StepOutcome leaf : leaves) {
            if (leaf.status() == StepOutcome.Status.FAILED
                    && leaf.error().isPresent()
                    && leaf.error().get().code() == ErrorCode.E_OUTCOME_UNKNOWN) {
                if (unknown.isEmpty()) {
                    unknown = new ArrayList<>();
                }
                unknown.add(leaf);
            }
        }
        if (unknown.isEmpty()
                || tool.risk() != Risk.HIGH
                || unknown.stream().anyMatch(o -> tool.risk(o.args()) != Risk.HIGH)) {
            return Optional.empty();
        }
        String message = unknown.get(0).error().orElseThrow().message();
        ObjectNode payload = Json.object();
        payload.put("type", "approval");
        payload.put("code", ErrorCode.E_OUTCOME_UNKNOWN.name());
        payload.put("question", OUTCOME_UNKNOWN_QUESTION);
        payload.put("message", message);
        payload.put("stepId", step.id());
        payload.put("tool", tool.name());
        payload.set("args", originalArgs);
        ArrayNode steps = payload.putArray("prepared");
        for (Prepared p : prepared) {
            ObjectNode entry = steps.addObject();
            entry.put("stepId", p.stepId());
            entry.set("args", p.args());
        }
        ArrayNode listed = Json.mapper().createArrayNode();
        for (StepOutcome o : unknown) {
            ObjectNode entry = listed.addObject();
            entry.put("stepId", o.stepId());
            entry.put("tool", tool.name());
            entry.set("args", o.args());
        }
        payload.set("unknown", listed);
        ObjectNode error = Json.object();
        error.put("code", ErrorCode.E_OUTCOME_UNKNOWN.name());
        error.put("message", message);
        context.record("error", error);
        ObjectNode event = Json.object();
        event.put("stepId", step.id());
        event.put("code", ErrorCode.E_OUTCOME_UNKNOWN.name());
        event.put("question", OUTCOME_UNKNOWN_QUESTION);
        event.set("steps", listed);
        context.emit(PlanEvents.APPROVAL_AWAITING, event);
        return Optional.of(NodeResult.interrupt(payload));
    }

    /** What a person is asked about a call whose outcome is unknown. */
    static final String OUTCOME_UNKNOWN_QUESTION = "may have been sent — send again?";

    private static NodeResult done(StepOutcome outcome) {
        return NodeResult.output(outcome.toJson());
    }

    private static Stage ended(StepOutcome outcome) {
        return new Ended(done(outcome));
    }

    /**
     * A step's outcome as its node (named {@code step:<id>}) stored it ({@link StepOutcome#toJson});
     * read in place, not parsed.
     */
    private static @org.jspecify.annotations.Nullable JsonNode outcome(NodeContext context, String nodeName) {
        JsonNode output = context.outputs().get(nodeName);
        return output == null || !output.has("status") ? null : output;
    }

    /** Every result a placeholder of this step may read: its dependencies' results, children by their own ids. */
    private Map<String, JsonNode> results(NodeContext context) {
        if (scopeNodes.isEmpty()) {
            return Map.of();
        }
        Map<String, JsonNode> results = new LinkedHashMap<>();
        for (String node : scopeNodes) {
            JsonNode outcome = outcome(context, node);
            if (outcome != null) {
                putLeafResults(outcome, results);
            }
        }
        // Immutable once, here: the resolve context would otherwise copy it again.
        return Map.copyOf(results);
    }

    private static void putLeafResults(JsonNode outcome, Map<String, JsonNode> results) {
        JsonNode children = outcome.path("children");
        if (children.isEmpty()) {
            JsonNode result = outcome.get("result");
            results.put(outcome.get("stepId").asText(), result == null ? NullNode.getInstance() : result);
        } else {
            children.forEach(child -> putLeafResults(child, results));
        }
    }

    private Stage resolveAndPrepare(NodeContext context, PlanMode mode, ObjectNode answers) {
        Optional<Resolver> resolver = executor.resolvers().find(step.capability(), step.action());
        if (resolver.isEmpty()) {
            return ended(StepOutcome.failed(
                    step.id(),
                    "",
                    NullNode.getInstance(),
                    new RunError(
                            ErrorCode.E_NO_RESOLVER,
                            "step '" + step.id() + "': no resolver for capability '" + step.capability() + "' (action '"
                                    + step.action() + "')"),
                    0,
                    0));
        }
        Map<String, JsonNode> results = results(context);
        Resolution resolution;
        try {
            resolution = resolver.get()
                    .resolve(
                            step,
                            new ResolveContext(
                                    context, step.id(), context.runInput().path("input"), results, answers));
        } catch (RuntimeException e) {
            return ended(StepOutcome.failed(
                    step.id(),
                    "",
                    NullNode.getInstance(),
                    errorOf("resolver '" + resolver.get().name() + "'", e),
                    0,
                    0));
        }
        return switch (resolution) {
            case Resolution.Clarify clarify -> new Ended(clarify(context, clarify));
            case Resolution.Execute call -> {
                Optional<String> mismatch =
                        resolver.get().slice(step).flatMap(slice -> slice.mismatch(call.functionName(), call.args()));
                yield mismatch.isPresent()
                        ? refused(context, resolver.get(), call, mismatch.get())
                        : prepare(context, mode, call, results, answers);
            }
        };
    }

    /**
     * A call outside its step's slice: recorded ({@code step.refused}, then the step's failed outcome)
     * and never prepared, approved or made.
     */
    private Stage refused(NodeContext context, Resolver resolver, Resolution.Execute call, String why) {
        String message = "step '" + step.id() + "' (" + step.capability() + "/" + step.action() + "): resolver '"
                + resolver.name() + "' returned a call the step is not for: " + why + "; nothing was done";
        ObjectNode event = Nodes.object(5);
        event.put("stepId", step.id());
        event.put("resolver", resolver.name());
        event.put("tool", call.functionName());
        event.set("args", call.args());
        event.put("reason", message);
        context.emit(PlanEvents.STEP_REFUSED, event);
        return ended(StepOutcome.failed(
                step.id(), call.functionName(), call.args(), new RunError(ErrorCode.E_STEP_MISMATCH, message), 0, 0));
    }

    private NodeResult clarify(NodeContext context, Resolution.Clarify clarify) {
        ObjectNode payload = Json.object();
        payload.put("type", "clarify");
        payload.put("stepId", step.id());
        payload.put("question", clarify.question());
        ArrayNode options = payload.putArray("options");
        clarify.options().forEach(options::add);
        context.emit(PlanEvents.CLARIFY_AWAITING, payload);
        return NodeResult.interrupt(payload);
    }

    private Stage prepare(
            NodeContext context,
            PlanMode mode,
            Resolution.Execute call,
            Map<String, JsonNode> results,
            ObjectNode answers) {
        Optional<Tool> found = executor.tools().find(call.functionName());
        if (found.isEmpty()) {
            return ended(StepOutcome.failed(
                    step.id(),
                    call.functionName(),
                    call.args(),
                    new RunError(
                            ErrorCode.E_TOOL_FAILED,
                            "step '" + step.id() + "': no tool named '" + call.functionName() + "'"),
                    0,
                    0));
        }
        Tool tool = found.get();
        Optional<String> unfit = unfitPlaceholder(context, call.args());
        if (unfit.isPresent()) {
            return ended(StepOutcome.failed(
                    step.id(), tool.name(), call.args(), new RunError(ErrorCode.E_PLAN_INVALID, unfit.get()), 0, 0));
        }
        List<Prepared> prepared;
        try {
            prepared = Placeholders.prepare(
                    step.id(), call.args(), results, scope, planStepIds, answers, mode == PlanMode.PREVIEW);
        } catch (WeftException e) {
            return ended(StepOutcome.failed(step.id(), tool.name(), call.args(), e.toError(), 0, 0));
        }
        if (mode == PlanMode.PREVIEW) {
            List<StepOutcome> previews = new ArrayList<>();
            for (Prepared p : prepared) {
                previews.add(new StepOutcome(
                        p.stepId(),
                        StepOutcome.Status.PREVIEWED,
                        tool.name(),
                        p.args(),
                        NullNode.getInstance(),
                        Optional.empty(),
                        Optional.empty(),
                        List.of(),
                        Optional.empty(),
                        Optional.empty(),
                        0,
                        0));
            }
            return ended(combine(tool, call.args(), previews));
        }
        for (Prepared p : prepared) {
            try {
                tool.requireValidInput(p.stepId(), p.args());
            } catch (WeftException e) {
                return ended(StepOutcome.failed(p.stepId(), tool.name(), p.args(), e.toError(), 0, 0));
            }
        }
        return new Ready(tool, call.args(), prepared);
    }

    /**
     * Why a placeholder of the resolved arguments cannot be filled, checked against the output schema
     * of the tool its step called (known now that the step has run, or was previewed): the path must
     * exist there, and {@code [*]} or {@code [n]} must apply to an array. Empty when every placeholder
     * fits, or its step is not one this step depends on (preparing reports that).
     */
    private Optional<String> unfitPlaceholder(NodeContext context, JsonNode args) {
        if (scope.isEmpty()) {
            return Optional.empty();
        }
        for (PlaceholderRefs.Ref ref : PlaceholderRefs.find(args, planStepIds)) {
            if (!scope.contains(ref.step())) {
                continue;
            }
            JsonNode outcome = outcome(context, PlanExecutor.STEP_PREFIX + ref.step());
            Optional<Tool> tool = outcome == null
                    ? Optional.empty()
                    : executor.tools().find(outcome.path("tool").asText());
            if (tool.isPresent()) {
                Optional<String> problem = PlaceholderRefs.problem(tool.get().outputSchema(), ref.path());
                if (problem.isPresent()) {
                    return Optional.of("step '" + step.id() + "': placeholder " + ref.text() + " reads the output of"
                            + " tool '" + tool.get().name() + "' (step '" + ref.step() + "'), where "
                            + problem.get());
                }
            }
        }
        return Optional.empty();
    }

    /** The calls an approval interrupt held, to make now the run is resumed. */
    private Stage approvedCalls(JsonNode payload) {
        Optional<Tool> tool = executor.tools().find(payload.path("tool").asText());
        if (tool.isEmpty()) {
            return ended(StepOutcome.failed(
                    step.id(),
                    payload.path("tool").asText(),
                    NullNode.getInstance(),
                    new RunError(
                            ErrorCode.E_TOOL_FAILED,
                            "step '" + step.id() + "': no tool named '"
                                    + payload.path("tool").asText() + "'"),
                    0,
                    0));
        }
        List<Prepared> prepared = new ArrayList<>();
        payload.path("prepared")
                .forEach(p -> prepared.add(new Prepared(p.get("stepId").asText(), (ObjectNode) p.get("args"))));
        return new Ready(tool.get(), payload.path("args"), prepared);
    }

    /** The approval gate: the interrupt that waits for a person, or null when no call waits. */
    private @org.jspecify.annotations.Nullable NodeResult gate(
            NodeContext context,
            Tool tool,
            JsonNode originalArgs,
            List<Prepared> prepared,
            Set<String> approved,
            Set<String> rejected) {
        // A step held for a person (a change the user's words did not ask for) waits whatever its risk.
        boolean held = isIn(
                step.id(),
                ids(context.runInput().path("heldSteps"), MissingNode.getInstance(), MissingNode.getInstance()));
        if ((tool.risk() == Risk.HIGH || held) && !tool.chat()) {
            List<Prepared> waiting = prepared.stream()
                    .filter(p -> !isIn(p.stepId(), approved) && !isIn(p.stepId(), rejected))
                    .filter(p -> held || tool.risk(p.args()) == Risk.HIGH)
                    .toList();
            if (!waiting.isEmpty()) {
                ObjectNode payload = Json.object();
                payload.put("type", "approval");
                payload.put("stepId", step.id());
                payload.put("tool", tool.name());
                if (held) {
                    payload.put("held", true);
                }
                payload.set("args", originalArgs);
                ArrayNode steps = payload.putArray("prepared");
                ArrayNode listed = Json.mapper().createArrayNode();
                for (Prepared p : prepared) {
                    ObjectNode entry = steps.addObject();
                    entry.put("stepId", p.stepId());
                    entry.set("args", p.args());
                }
                for (Prepared p : waiting) {
                    ObjectNode entry = listed.addObject();
                    entry.put("stepId", p.stepId());
                    entry.put("tool", tool.name());
                    entry.set("args", p.args());
                }
                ObjectNode event = Json.object();
                event.put("stepId", step.id());
                event.set("steps", listed);
                context.emit(PlanEvents.APPROVAL_AWAITING, event);
                return NodeResult.interrupt(payload);
            }
        }
        return null;
    }

    /** Whether {@code stepId} or the plan step it was expanded from is in {@code ids}. */
    private boolean isIn(String stepId, Set<String> ids) {
        return ids.contains(stepId) || ids.contains(step.id());
    }

    /** The calls of an expanded step, each on a virtual thread of its own. */
    private List<StepOutcome> runAll(
            NodeContext context, Tool tool, List<Prepared> prepared, Set<String> rejected, boolean repeat) {
        List<CompletableFuture<StepOutcome>> futures = new ArrayList<>();
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (Prepared p : prepared) {
                futures.add(CompletableFuture.supplyAsync(() -> runOne(context, tool, p, rejected, repeat), threads));
            }
        }
        return futures.stream().map(CompletableFuture::join).toList();
    }

    private StepOutcome runOne(NodeContext context, Tool tool, Prepared call, Set<String> rejected, boolean repeat) {
        String id = call.stepId();
        if (isIn(id, rejected)) {
            return StepOutcome.skipped(id, tool.name(), call.args(), rejectedReason(repeat));
        }
        announce(context, tool, id, call.args());
        Attempts done = attempts(executor, context, tool, id, call.args(), !id.equals(step.id()), repeat);
        RuntimeException failure = done.failure();
        return failure == null
                ? committed(
                        context,
                        tool,
                        id,
                        call.args(),
                        java.util.Objects.requireNonNull(done.result()),
                        done.attempts(),
                        done.ms(),
                        done.replayed())
                : failedCall(context, tool, id, call.args(), failure, done.attempts(), done.ms());
    }

    /** Seed 001's input table before a call, and {@code tool.called}. */
    private static void announce(NodeContext context, Tool tool, String id, ObjectNode args) {
        if (!tool.chat()) {
            ObjectNode delta = Nodes.object(2);
            delta.put("stepId", id);
            delta.put("text", inputTable(tool, args));
            context.emit(PlanEvents.ASSISTANT_DELTA, delta);
        }
        ObjectNode called = Nodes.object(3);
        called.put("stepId", id);
        called.put("tool", tool.name());
        called.set("args", args);
        context.emit(PlanEvents.TOOL_CALLED, called);
    }

    /**
     * The attempts at one call: its result, or the failure of its last attempt; with how many
     * attempts it took, how long, and whether a non-idempotent call's result was found stored rather
     * than made again.
     */
    record Attempts(
            @org.jspecify.annotations.Nullable JsonNode result,
            @org.jspecify.annotations.Nullable RuntimeException failure,
            int attempts,
            long ms,
            boolean replayed) {}

    /**
     * Calls {@code tool} for call {@code id} (a child of the plan step when {@code child}) in {@code
     * scope}, retrying transient failures as the executor's policy says: what a step does inline, and
     * a worker does for a queued step. Past the gate: a high-risk call here was approved by a person.
     */
    static Attempts attempts(
            PlanExecutor executor,
            StepScope scope,
            Tool tool,
            String id,
            ObjectNode args,
            boolean child,
            boolean repeat) {
        long started = System.nanoTime();
        int attempt = 1;
        ToolContext first = new ToolContext(scope, id, 1, true, child, repeat);
        while (true) {
            ToolContext toolContext = attempt == 1 ? first : first.attempt(attempt);
            RuntimeException failure;
            try {
                boolean[] invoked = {false};
                JsonNode result = tool.idempotent()
                        ? call(executor, tool, args, toolContext)
                        // Stored as soon as it returns, before the step commits: a step run again after
                        // a crash finds the result rather than calling a second time.
                        : toolContext.once(ONCE_KEY, () -> {
                            invoked[0] = true;
                            return call(executor, tool, args, toolContext);
                        });
                tool.requireValidOutput(result);
                return new Attempts(result, null, attempt, millisSince(started), !tool.idempotent() && !invoked[0]);
            } catch (RuntimeException e) {
                failure = e;
            }
            if (executor.retry().shouldRetry(attempt, failure)) {
                Duration delay = executor.retryDelay(attempt);
                ObjectNode retrying = Json.object();
                retrying.put("stepId", id);
                retrying.put("tool", tool.name());
                retrying.put("attempt", attempt);
                retrying.put("delayMs", delay.toMillis());
                retrying.put("error", failure.getMessage());
                scope.emit(PlanEvents.TOOL_RETRYING, retrying);
                try {
                    scope.time().sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = new WeftException(ErrorCode.E_CANCELLED, "interrupted while waiting to retry");
                    return new Attempts(null, failure, attempt, millisSince(started), false);
                }
                attempt++;
                continue;
            }
            return new Attempts(null, failure, attempt, millisSince(started), false);
        }
    }

    private static long millisSince(long started) {
        return (System.nanoTime() - started) / 1_000_000;
    }

    /** The kind of a plan step's queued work: its tool calls. */
    static final String QUEUED_KIND = "weft.plan";

    /**
     * Hands the step's calls to a worker, when the run's runner has a step dispatcher and this
     * executor can be found by name in another process (and its calls are not sent to a queue of its
     * own choosing); empty when they are to be made here.
     */
    private static String rejectedReason(boolean repeat) {
        return repeat ? "rejected: not made again, though its first attempt may have taken effect" : "rejected";
    }

    private Optional<NodeResult> dispatch(NodeContext context, Ready ready, Set<String> rejected, boolean repeat) {
        if (executor.queue() != StepQueue.inline() || executor.name().isEmpty()) {
            return Optional.empty();
        }
        List<Prepared> toCall = ready.prepared().stream()
                .filter(p -> !isIn(p.stepId(), rejected))
                .toList();
        if (toCall.isEmpty()) {
            return Optional.empty();
        }
        ObjectNode work = Json.object();
        work.put("executor", executor.name().get());
        work.put("tool", ready.tool().name());
        work.put("stepId", step.id());
        work.set("args", ready.originalArgs());
        if (repeat) {
            work.put("repeat", true);
        }
        ArrayNode calls = work.putArray("calls");
        for (Prepared p : ready.prepared()) {
            ObjectNode entry = calls.addObject();
            entry.put("stepId", p.stepId());
            entry.set("args", p.args());
            if (isIn(p.stepId(), rejected)) {
                entry.put("rejected", true);
            }
        }
        Optional<NodeResult> handed = context.dispatch(QUEUED_KIND, work);
        if (handed.isPresent()) {
            for (Prepared p : toCall) {
                announce(context, ready.tool(), p.stepId(), p.args());
            }
        }
        return handed;
    }

    /**
     * The calls of queued work ({@link #dispatch}) made here, on a worker, in {@code scope}: the value
     * of its outcome, {@code {"calls": [{"stepId", "result" | "error", "attempts", "ms", "replayed"}]}}.
     */
    static ObjectNode runQueued(PlanExecutor executor, JsonNode work, StepScope scope) {
        String toolName = work.path("tool").asText();
        Tool tool = executor.tools()
                .find(toolName)
                .orElseThrow(() -> new WeftException(
                        ErrorCode.E_TOOL_FAILED,
                        "executor '" + executor.name().orElse("") + "' has no tool named '" + toolName + "'"));
        String stepId = work.path("stepId").asText();
        List<JsonNode> calls = new ArrayList<>();
        work.path("calls").forEach(calls::add);
        boolean repeat = work.path("repeat").asBoolean(false);
        List<CompletableFuture<ObjectNode>> futures = new ArrayList<>();
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (JsonNode call : calls) {
                if (calls.size() == 1) {
                    futures.add(CompletableFuture.completedFuture(
                            runQueuedCall(executor, scope, tool, stepId, call, repeat)));
                } else {
                    futures.add(CompletableFuture.supplyAsync(
                            () -> runQueuedCall(executor, scope, tool, stepId, call, repeat), threads));
                }
            }
        }
        ObjectNode value = Json.object();
        ArrayNode results = value.putArray("calls");
        futures.forEach(f -> results.add(f.join()));
        return value;
    }

    private static ObjectNode runQueuedCall(
            PlanExecutor executor, StepScope scope, Tool tool, String stepId, JsonNode call, boolean repeat) {
        String id = call.path("stepId").asText();
        ObjectNode out = Json.object();
        out.put("stepId", id);
        if (call.path("rejected").asBoolean(false)) {
            out.put("rejected", true);
            return out;
        }
        if (!call.path("args").isObject()) {
            RunError error = new RunError(ErrorCode.E_ARGS_INVALID, "the queued call has no arguments object");
            out.putObject("error").put("code", error.code().name()).put("message", error.message());
            return out;
        }
        Attempts done = attempts(executor, scope, tool, id, (ObjectNode) call.get("args"), !id.equals(stepId), repeat);
        if (done.failure() == null) {
            out.set("result", done.result());
            out.put("replayed", done.replayed());
        } else {
            RunError error = errorOf("tool '" + tool.name() + "'", done.failure());
            out.putObject("error").put("code", error.code().name()).put("message", error.message());
        }
        out.put("attempts", done.attempts());
        out.put("ms", done.ms());
        return out;
    }

    /**
     * The step's outcome from its worker's: each call committed or failed here as if made here (the
     * worker's own events are already in the log), or every call failed with the queue's error when no
     * worker could make them (the run was cancelled, the entry was dead-lettered).
     */
    private StepOutcome delivered(NodeContext context, JsonNode work, JsonNode outcome) {
        String toolName = work.path("tool").asText();
        Optional<Tool> found = executor.tools().find(toolName);
        if (found.isEmpty()) {
            return StepOutcome.failed(
                    step.id(),
                    toolName,
                    work.path("args"),
                    new RunError(ErrorCode.E_TOOL_FAILED, "step '" + step.id() + "': no tool named '" + toolName + "'"),
                    0,
                    0);
        }
        Tool tool = found.get();
        JsonNode error = outcome.path("error");
        Map<String, JsonNode> results = new java.util.HashMap<>();
        outcome.path("value")
                .path("calls")
                .forEach(r -> results.put(r.path("stepId").asText(), r));
        List<StepOutcome> outcomes = new ArrayList<>();
        for (JsonNode call : work.path("calls")) {
            String id = call.path("stepId").asText();
            ObjectNode args = call.path("args").isObject() ? (ObjectNode) call.get("args") : Json.object();
            if (call.path("rejected").asBoolean(false)) {
                outcomes.add(StepOutcome.skipped(id, tool.name(), args, "rejected"));
                continue;
            }
            JsonNode result = results.get(id);
            JsonNode failure = error.isObject() ? error : result == null ? null : result.path("error");
            if (result == null && failure == null) {
                failure = Json.object()
                        .put("code", ErrorCode.E_TOOL_FAILED.name())
                        .put("message", "the worker's outcome has no result for call '" + id + "'");
            }
            int attempts = result == null ? 0 : result.path("attempts").asInt();
            long ms = result == null ? 0 : result.path("ms").asLong();
            if (failure != null && failure.isObject()) {
                outcomes.add(failedCall(context, tool, id, args, failureOf(failure), attempts, ms));
            } else {
                outcomes.add(committed(
                        context,
                        tool,
                        id,
                        args,
                        result.path("result"),
                        attempts,
                        ms,
                        result.path("replayed").asBoolean(false)));
            }
        }
        return combine(tool, work.path("args"), outcomes);
    }

    private static WeftException failureOf(JsonNode error) {
        ErrorCode code;
        try {
            code = ErrorCode.valueOf(error.path("code").asText());
        } catch (IllegalArgumentException e) {
            code = ErrorCode.E_TOOL_FAILED;
        }
        return new WeftException(code, error.path("message").asText());
    }

    private static JsonNode call(PlanExecutor executor, Tool tool, ObjectNode args, ToolContext toolContext) {
        CompletableFuture<JsonNode> future = executor.queue().submit(new StepQueue.Invocation(tool, args, toolContext));
        try {
            return future.get(tool.timeout().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw StepQueue.timedOut(tool);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            while (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new WeftException(ErrorCode.E_TOOL_FAILED, "tool '" + tool.name() + "' failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new WeftException(ErrorCode.E_CANCELLED, "interrupted while tool '" + tool.name() + "' ran");
        }
    }

    private StepOutcome committed(
            NodeContext context,
            Tool tool,
            String id,
            ObjectNode args,
            JsonNode result,
            int attempts,
            long ms,
            boolean replayed) {
        ObjectNode succeeded = Nodes.object(5);
        succeeded.put("stepId", id);
        succeeded.put("tool", tool.name());
        succeeded.put("ms", ms);
        succeeded.set("result", result);
        if (replayed) {
            // The call was made before a crash and its result stored; it was not made again.
            succeeded.put("replayed", true);
        }
        context.emit(PlanEvents.TOOL_SUCCEEDED, succeeded);
        if (tool.chat()) {
            ObjectNode last = Json.object();
            last.put("stepId", id);
            last.put(
                    "text",
                    result.isTextual() ? result.asText() : result.path("text").asText(Json.write(result)));
            context.emit(PlanEvents.ASSISTANT_FINAL, last);
        }
        Optional<UndoAction> undo = tool.undo().flatMap(u -> u.undoFor(args, result));
        undo.ifPresent(action -> {
            ObjectNode enqueued = Json.object();
            enqueued.put("stepId", id);
            enqueued.put("tool", action.toolName());
            enqueued.set("args", action.args());
            context.emit(PlanEvents.UNDO_ENQUEUED, enqueued);
        });
        ObjectNode executed = Nodes.object(3);
        executed.put("stepId", id);
        executed.put("status", StepOutcome.Status.SUCCEEDED.name());
        executed.put("ms", ms);
        context.emit(PlanEvents.STEP_EXECUTED, executed);
        return new StepOutcome(
                id,
                StepOutcome.Status.SUCCEEDED,
                tool.name(),
                args,
                result,
                Optional.empty(),
                Optional.empty(),
                List.of(),
                undo,
                Optional.of(context.time().now()),
                attempts,
                ms);
    }

    private StepOutcome failedCall(
            NodeContext context,
            Tool tool,
            String id,
            ObjectNode args,
            RuntimeException failure,
            int attempts,
            long ms) {
        RunError error = errorOf("tool '" + tool.name() + "'", failure);
        error = new RunError(error.code(), "step '" + id + "': " + error.message());
        ObjectNode failed = Json.object();
        failed.put("stepId", id);
        failed.put("tool", tool.name());
        failed.put("code", error.code().name());
        failed.put("message", error.message());
        failed.put("attempts", attempts);
        context.emit(PlanEvents.TOOL_FAILED, failed);
        ObjectNode executed = Json.object();
        executed.put("stepId", id);
        executed.put("status", StepOutcome.Status.FAILED.name());
        executed.put("ms", ms);
        context.emit(PlanEvents.STEP_EXECUTED, executed);
        return StepOutcome.failed(id, tool.name(), args, error, attempts, ms);
    }

    private static RunError errorOf(String who, RuntimeException e) {
        if (e instanceof WeftException weft) {
            return weft.toError();
        }
        return new RunError(
                ErrorCode.E_TOOL_FAILED,
                who + " failed: " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage()));
    }

    /** One outcome for the plan step: the single call's, or a parent over the expanded children. */
    private StepOutcome combine(Tool tool, JsonNode args, List<StepOutcome> outcomes) {
        if (outcomes.size() == 1 && outcomes.get(0).stepId().equals(step.id())) {
            return outcomes.get(0);
        }
        ArrayNode results = Json.mapper().createArrayNode();
        int failed = 0;
        int skipped = 0;
        int previewed = 0;
        long ms = 0;
        for (StepOutcome child : outcomes) {
            results.add(child.result());
            ms = Math.max(ms, child.durationMs());
            switch (child.status()) {
                case FAILED -> failed++;
                case SKIPPED -> skipped++;
                case PREVIEWED -> previewed++;
                case SUCCEEDED -> {}
            }
        }
        StepOutcome.Status status;
        Optional<RunError> error = Optional.empty();
        if (failed > 0) {
            status = StepOutcome.Status.FAILED;
            error = Optional.of(new RunError(
                    outcomes.stream()
                            .flatMap(o -> o.error().stream())
                            .findFirst()
                            .map(RunError::code)
                            .orElse(ErrorCode.E_TOOL_FAILED),
                    "step '" + step.id() + "': " + failed + " of " + outcomes.size() + " calls failed"));
        } else if (!outcomes.isEmpty() && skipped == outcomes.size()) {
            status = StepOutcome.Status.SKIPPED;
        } else if (!outcomes.isEmpty() && previewed == outcomes.size()) {
            status = StepOutcome.Status.PREVIEWED;
        } else {
            status = StepOutcome.Status.SUCCEEDED;
        }
        return new StepOutcome(
                step.id(),
                status,
                tool.name(),
                args,
                results,
                error,
                Optional.empty(),
                outcomes,
                Optional.empty(),
                Optional.empty(),
                outcomes.stream().mapToInt(StepOutcome::attempts).max().orElse(0),
                ms);
    }

    /** Seed 001's pre-execution table of a tool's inputs, in markdown. */
    static String inputTable(Tool tool, JsonNode args) {
        String header = tool.inputTableHeader();
        if (args.isEmpty()) {
            return header;
        }
        StringBuilder table = new StringBuilder(header.length() + 32 * args.size()).append(header);
        for (Map.Entry<String, JsonNode> e : args.properties()) {
            table.append("| ");
            escapeInto(table, e.getKey());
            table.append(" | ");
            escapeInto(table, e.getValue().isValueNode() ? e.getValue().asText() : Json.write(e.getValue()));
            table.append(" |\n");
        }
        return table.toString();
    }

    /** Appends {@code text} with '|' escaped and newlines turned into spaces, so it stays in its table cell. */
    private static void escapeInto(StringBuilder table, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '|') {
                table.append("\\|");
            } else if (c == '\n') {
                table.append(' ');
            } else {
                table.append(c);
            }
        }
    }
}
