package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.Node;
import dev.weft.core.NodeContext;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
import dev.weft.core.RetryPolicy;
import dev.weft.core.RunError;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStateException;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.plan.internal.Nodes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;

/**
 * Runs plans on the graph runtime. A plan becomes a graph — a {@code plan} node, one node per step
 * with an edge from each of its dependencies, and a {@code join} node after the last steps — so a
 * step starts the moment its own dependencies are done, and the run gets the runtime's checkpoints,
 * events, interrupts, cancellation and store. Thread-safe; one executor serves many runs.
 */
public final class PlanExecutor {
    static final String PLAN_NODE = "plan";
    static final String JOIN_NODE = "join";
    static final String STEP_PREFIX = "step:";
    /** The capability of an undo run's steps: each calls the undo tool its action names, with its constraints. */
    public static final String UNDO_CAPABILITY = "weft.undo";
    /** The {@code kind} of a plan run's source. */
    public static final String SOURCE_KIND = "plan";

    private final Optional<String> name;

    private final ResolverRegistry resolvers;
    private final ToolRegistry tools;
    private final StepQueue queue;
    private final RetryPolicy retry;
    private final int maxConcurrentSteps;
    private final int maxConcurrentPerCapability;
    private final boolean rejectCycles;
    private final java.util.random.RandomGenerator random;
    /**
     * Compiled graphs of recent plans, with each plan's JSON: a planner asked the same thing twice
     * gives the same plan, and compiling one costs more than running a short plan's bookkeeping.
     */
    private final Map<Plan, Compiled> compiled =
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<Plan, Compiled>(64, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<Plan, Compiled> eldest) {
                    return size() > MAX_COMPILED_PLANS;
                }
            });

    private static final int MAX_COMPILED_PLANS = 256;

    /**
     * The plan compiled last. Looking a plan up in {@link #compiled} hashes the whole record, its
     * steps' JSON included; a caller that runs one {@code Plan} object many times is answered by
     * identity here without hashing it.
     */
    private volatile @org.jspecify.annotations.Nullable Compiled last;

    /**
     * A plan's graph, and the plan as JSON for its runs' input: one object every run of the plan
     * shares, read and never changed (as run inputs are).
     */
    private record Compiled(Plan plan, Graph graph, ObjectNode planJson) {}

    private PlanExecutor(Builder builder) {
        this.random = builder.random;
        this.name = builder.name;
        this.resolvers = builder.resolvers.with(new UndoResolver());
        this.tools = builder.tools;
        this.queue = builder.queue;
        this.retry = builder.retry;
        this.maxConcurrentSteps = builder.maxConcurrentSteps;
        this.maxConcurrentPerCapability = builder.maxConcurrentPerCapability;
        this.rejectCycles = builder.rejectCycles;
    }

    public static Builder builder() {
        return new Builder();
    }

    ResolverRegistry resolvers() {
        return resolvers;
    }

    /** The tools this executor's steps call. */
    public ToolRegistry tools() {
        return tools;
    }

    StepQueue queue() {
        return queue;
    }

    RetryPolicy retry() {
        return retry;
    }

    /** The next retry delay after failed attempt {@code attempt}, with jitter from the injected source. */
    Duration retryDelay(int attempt) {
        synchronized (random) {
            return retry.delayAfter(attempt, random);
        }
    }

    /**
     * The graph that runs {@code plan}. Its run input is {@link #runInput}; the join's output is the
     * {@link PlanSummary}. Graphs of recent plans are kept, so asking again is cheap.
     *
     * @throws PlanInvalidException with {@code E_PLAN_CYCLE} for a cycle when cycles are rejected
     */
    public Graph graph(Plan plan) {
        return compiledOf(plan).graph();
    }

    private Compiled compiledOf(Plan plan) {
        Compiled recent = last;
        if (recent != null && recent.plan() == plan) {
            return recent;
        }
        Compiled known = compiled.get(plan);
        if (known == null) {
            known = new Compiled(plan, compile(plan), plan.toJson());
            compiled.put(plan, known);
        }
        last = known;
        return known;
    }

    private Graph compile(Plan plan) {
        ExecutionGroups groups = ExecutionGroups.of(plan, rejectCycles);
        Set<String> stepIds = new HashSet<>();
        plan.steps().forEach(step -> stepIds.add(step.id()));
        check(plan, groups.dependencies(), stepIds);
        Graph.Builder builder = Graph.builder(graphId(plan));
        builder.node(NodeSpec.builder(PLAN_NODE, new PlanNode(plan, groups))
                .type("plan")
                .build());
        builder.edge(Graph.START, PLAN_NODE);
        Set<String> hasDependents = new HashSet<>();
        for (PlanStep step : plan.steps()) {
            List<String> deps = groups.dependencies().get(step.id());
            Set<String> scope = ancestors(step.id(), groups.dependencies());
            builder.node(NodeSpec.builder(STEP_PREFIX + step.id(), new StepNode(this, step, deps, scope, stepIds))
                    .name(STEP_PREFIX + step.id())
                    .type("plan-step")
                    .maxVisits(1)
                    .build());
            if (deps.isEmpty()) {
                builder.edge(PLAN_NODE, STEP_PREFIX + step.id());
            }
            for (String dep : deps) {
                builder.edge(STEP_PREFIX + dep, STEP_PREFIX + step.id());
                hasDependents.add(dep);
            }
        }
        builder.node(
                NodeSpec.builder(JOIN_NODE, new JoinNode(plan)).type("join").build());
        for (PlanStep step : plan.steps()) {
            if (!hasDependents.contains(step.id())) {
                builder.edge(STEP_PREFIX + step.id(), JOIN_NODE);
            }
        }
        return builder.compile();
    }

    /**
     * Checks what can be checked before a plan runs: every placeholder in a step's constraints and
     * changes reads a step it depends on, directly or not, and where that step's resolver knows its
     * tool ({@link Resolver#tool}), a path of the tool's output schema ({@code [*]} only over arrays).
     *
     * @throws PlanInvalidException naming each step, placeholder and reason
     */
    private void check(Plan plan, Map<String, List<String>> dependencies, Set<String> stepIds) {
        List<String> problems = new ArrayList<>();
        for (PlanStep step : plan.steps()) {
            Set<String> scope = ancestors(step.id(), dependencies);
            List<dev.weft.plan.internal.PlaceholderRefs.Ref> refs = new ArrayList<>();
            refs.addAll(dev.weft.plan.internal.PlaceholderRefs.find(step.constraints(), stepIds));
            refs.addAll(dev.weft.plan.internal.PlaceholderRefs.find(step.changes(), stepIds));
            for (dev.weft.plan.internal.PlaceholderRefs.Ref ref : refs) {
                if (!scope.contains(ref.step())) {
                    problems.add("step '" + step.id() + "': placeholder " + ref.text() + " reads step '" + ref.step()
                            + "', which it does not depend on (add '" + ref.step() + "' to its dependsOn)");
                    continue;
                }
                PlanStep read = plan.step(ref.step()).orElseThrow();
                Optional<Tool> tool = resolvers
                        .find(read.capability(), read.action())
                        .flatMap(r -> r.tool(read))
                        .flatMap(tools::find);
                if (tool.isPresent()) {
                    dev.weft.plan.internal.PlaceholderRefs.problem(tool.get().outputSchema(), ref.path())
                            .ifPresent(problem -> problems.add("step '" + step.id() + "': placeholder " + ref.text()
                                    + " reads the output of tool '" + tool.get().name() + "' (step '" + ref.step()
                                    + "'), where " + problem));
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new PlanInvalidException(String.join("; ", problems));
        }
    }

    /**
     * The id of {@code plan}'s graph: {@code plan:<intentType>:<hash>}, where the hash is of the
     * plan's JSON, so two plans of one intent never share a graph id (the runner keys graphs by id,
     * and a resume checks the stored run's graph id against the plan it rebuilds).
     */
    static String graphId(Plan plan) {
        byte[] digest;
        try {
            digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest(Json.write(plan.toJson()).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
        return "plan:" + plan.intentType() + ":" + java.util.HexFormat.of().formatHex(digest, 0, 8);
    }

    /**
     * The caps on concurrent steps of the run {@code context} belongs to; none when no cap is set.
     */
    @org.jspecify.annotations.Nullable
    Limits limits(NodeContext context) {
        if (maxConcurrentSteps == Integer.MAX_VALUE && maxConcurrentPerCapability == Integer.MAX_VALUE) {
            return null;
        }
        return context.runLocal(
                "weft.plan.limits", Limits.class, () -> new Limits(maxConcurrentSteps, maxConcurrentPerCapability));
    }

    /** The run input of a plan's graph: the plan itself (so another process can rebuild the graph) and the request. */
    public static ObjectNode runInput(Plan plan, PlanRequest request) {
        return runInput(plan.toJson(), request);
    }

    private static ObjectNode runInput(ObjectNode planJson, PlanRequest request) {
        ObjectNode input = Nodes.object(5);
        input.set("plan", planJson);
        input.put("mode", request.mode().name());
        input.set("input", request.input());
        ArrayNode approved = input.putArray("approvedSteps");
        request.approvedSteps().forEach(approved::add);
        if (!request.heldSteps().isEmpty()) {
            ArrayNode held = input.putArray("heldSteps");
            request.heldSteps().forEach(held::add);
        }
        input.set("answers", request.answers());
        return input;
    }

    /** Runs {@code plan} until it completes, fails or waits (for an approval or an answer). */
    public RunResult run(Runner runner, Plan plan, PlanRequest request) {
        Compiled known = compiledOf(plan);
        return runner.run(known.graph(), runRequest(known, request));
    }

    /** Starts {@code plan} on a virtual thread. */
    public Runner.RunHandle start(Runner runner, Plan plan, PlanRequest request) {
        Compiled known = compiledOf(plan);
        return runner.start(known.graph(), runRequest(known, request));
    }

    private RunRequest runRequest(Compiled known, PlanRequest request) {
        ObjectNode input = runInput(known.planJson(), request);
        if (request.runId().isEmpty() && request.user().isEmpty() && name.isEmpty()) {
            return RunRequest.of(input);
        }
        RunRequest.Builder builder = RunRequest.builder().input(input).source(source());
        request.runId().ifPresent(builder::runId);
        request.user().ifPresent(builder::user);
        return builder.build();
    }

    /**
     * What a plan run stores as its source: {@code {"kind": "plan", "executor": <name>}}, so a process
     * that did not start the run (the {@code weft} command, a recovering server) can find an executor
     * of that name ({@link dev.weft.plan.spi.PlanExecutorProvider}) and rebuild the run's graph from
     * the plan in its input.
     */
    private ObjectNode source() {
        ObjectNode source = Json.object();
        source.put("kind", SOURCE_KIND);
        name.ifPresent(n -> source.put("executor", n));
        return source;
    }

    /** The name this executor was built with, under which stored runs find it again. */
    public Optional<String> name() {
        return name;
    }

    /**
     * The graph of a stored plan run, rebuilt from the plan kept in its input, or empty when
     * {@code run} is not a plan run. This is what a {@link dev.weft.core.RecoveryWatcher} needs to
     * recover plan runs.
     */
    public Optional<Graph> graphOf(dev.weft.core.Run run) {
        JsonNode plan = run.input().path("plan");
        if (!plan.isObject() || !run.graphId().startsWith("plan:")) {
            return Optional.empty();
        }
        return Optional.of(graph(PlanParser.fromJson(plan)));
    }

    /** Whether {@code run} was started by a plan executor (of any name). */
    public static boolean isPlanRun(dev.weft.core.Run run) {
        return run.graphId().startsWith("plan:") && run.input().path("plan").isObject();
    }

    /** The name of the executor that started plan run {@code run}, if it had one. */
    public static Optional<String> executorName(dev.weft.core.Run run) {
        JsonNode executor = run.source().path("executor");
        return executor.isTextual() ? Optional.of(executor.asText()) : Optional.empty();
    }

    /**
     * {@link #resume(Runner, String, PlanDecision)} for {@code user}, who must be the run's user.
     *
     * @throws dev.weft.core.ForbiddenException ({@code E_FORBIDDEN}) if the run is another user's;
     *     nothing changes
     */
    public RunResult resume(Runner runner, String runId, PlanDecision decision, String user) {
        runner.result(runId).run().requireUser(user);
        return resume(runner, runId, decision);
    }

    /**
     * {@link #undo(Runner, String)} for {@code user}, who must be the run's user.
     *
     * @throws dev.weft.core.ForbiddenException ({@code E_FORBIDDEN}) if the run is another user's;
     *     nothing changes
     */
    public UndoReport undo(Runner runner, String runId, String user) {
        runner.result(runId).run().requireUser(user);
        return undo(runner, runId);
    }

    /** Continues a waiting plan run with a person's decision, rebuilding its graph from the stored plan. */
    public RunResult resume(Runner runner, String runId, PlanDecision decision) {
        RunResult current = runner.result(runId);
        Plan plan = PlanParser.fromJson(current.run().input().path("plan"));
        return runner.resume(graph(plan), runId, decision.toJson());
    }

    /**
     * Makes the tool calls of a plan step that a runner with a step dispatcher queued ({@code work}, of
     * kind {@value StepNode#QUEUED_KIND}), as a worker process does for it: each call with this
     * executor's tool, its validation, timeout and retries, a non-idempotent tool's result kept under
     * the step's idempotency key by {@code scope} ({@link dev.weft.core.StepScope#once}). Returns the
     * value of the outcome to deliver back; a failed call is an entry of it, not an exception.
     *
     * @throws WeftException {@code E_TOOL_FAILED} if this executor has no such tool
     */
    public ObjectNode runQueued(JsonNode work, dev.weft.core.StepScope scope) {
        return StepNode.runQueued(this, work, scope);
    }

    /** The kind of work a plan step's queued tool calls are dispatched as. */
    public static final String QUEUED_KIND = StepNode.QUEUED_KIND;

    /** The join's summary of a completed plan run; empty while the run has not reached the join. */
    public static Optional<PlanSummary> summary(RunResult result) {
        JsonNode join = result.outputs().get(JOIN_NODE);
        return join == null ? Optional.empty() : Optional.of(PlanSummary.fromJson(join));
    }

    /** Every step's outcome so far, by step id, in plan order. */
    public static Map<String, StepOutcome> outcomes(RunResult result) {
        Map<String, StepOutcome> outcomes = new java.util.LinkedHashMap<>();
        result.outputs().forEach((name, value) -> {
            if (name.startsWith(STEP_PREFIX) && value.isObject() && value.has("status")) {
                outcomes.put(name.substring(STEP_PREFIX.length()), StepOutcome.fromJson(value));
            }
        });
        return outcomes;
    }

    /** What one undo call did: the step it undid, the tool, and its result or error. */
    public record UndoCall(String stepId, String tool, boolean succeeded, JsonNode result, Optional<RunError> error) {
        public UndoCall {
            Objects.requireNonNull(stepId, "stepId");
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(result, "result");
            Objects.requireNonNull(error, "error");
        }
    }

    /**
     * What an undo did: the run that made the undo calls (empty when there was nothing to undo), how
     * it ended, and each call, newest commit first.
     */
    public record UndoReport(Optional<String> undoRunId, RunStatus status, List<UndoCall> calls) {
        public UndoReport {
            Objects.requireNonNull(undoRunId, "undoRunId");
            Objects.requireNonNull(status, "status");
            calls = List.copyOf(calls);
        }

        /** Whether every undo call succeeded. */
        public boolean complete() {
            return calls.stream().allMatch(UndoCall::succeeded);
        }
    }

    /** The id of attempt {@code attempt} (from 1) at undoing run {@code runId}. */
    public static String undoRunId(String runId, int attempt) {
        return runId + "-undo-" + attempt;
    }

    /**
     * Undoes a finished plan run: its queued undo actions, newest commit first, run as a plan run of
     * their own ({@link #undoRunId}), so each call has what any step has — argument validation, the
     * tool's timeout, retries, the idempotency key, events in the undo run's log and its time source.
     * The calls run one after another; the first that fails stops the rest (they end {@code SKIPPED}),
     * and undoing again retries from there, calling only what was not undone yet. The person asking
     * for the undo approves its calls, high-risk ones included. Two callers undoing the same run at
     * once cannot both do it: the undo run's id is fixed, and only one of them can create it.
     *
     * @throws RunStateException if the run has not finished, is being undone, or was already undone
     */
    public UndoReport undo(Runner runner, String runId) {
        RunResult result = runner.result(runId);
        if (!result.status().isFinished()) {
            throw new RunStateException("run '" + runId + "' is " + result.status() + "; undo it once it has finished");
        }
        List<StepOutcome> committed = new ArrayList<>();
        for (StepOutcome outcome : outcomes(result).values()) {
            for (StepOutcome leaf : outcome.leaves()) {
                if (leaf.undo().isPresent() && leaf.status() == StepOutcome.Status.SUCCEEDED) {
                    committed.add(leaf);
                }
            }
        }
        committed.sort(Comparator.comparing((StepOutcome o) -> o.committedAt().orElse(Instant.EPOCH))
                .reversed());
        Set<String> undone = new HashSet<>();
        int attempts = 0;
        while (true) {
            String previous = undoRunId(runId, attempts + 1);
            Optional<dev.weft.core.Run> earlier = runner.store().findRun(previous);
            if (earlier.isEmpty()) {
                break;
            }
            attempts++;
            if (!earlier.get().status().isFinished()) {
                throw new RunStateException("run '" + runId + "' is being undone by run '" + previous + "', which is "
                        + earlier.get().status());
            }
            outcomes(runner.result(previous)).forEach((id, outcome) -> {
                if (outcome.status() == StepOutcome.Status.SUCCEEDED) {
                    undone.add(id);
                }
            });
        }
        List<StepOutcome> todo =
                committed.stream().filter(o -> !undone.contains(o.stepId())).toList();
        if (todo.isEmpty()) {
            if (attempts > 0) {
                throw new RunStateException(
                        "run '" + runId + "' was already undone (by run '" + undoRunId(runId, attempts) + "')");
            }
            return new UndoReport(Optional.empty(), RunStatus.COMPLETED, List.of());
        }
        List<PlanStep> steps = new ArrayList<>();
        String before = null;
        for (StepOutcome leaf : todo) {
            UndoAction action = leaf.undo().orElseThrow();
            steps.add(new PlanStep(
                    leaf.stepId(),
                    UNDO_CAPABILITY,
                    action.toolName(),
                    action.args(),
                    Json.object(),
                    before == null ? List.of() : List.of(before)));
            before = leaf.stepId();
        }
        Plan plan = new Plan("undo", 1.0, steps);
        ObjectNode input = Json.object();
        input.put("undoOf", runId);
        PlanRequest request = new PlanRequest(
                        PlanMode.AUTO,
                        input,
                        steps.stream().map(PlanStep::id).collect(java.util.stream.Collectors.toSet()),
                        Json.object())
                .withRunId(undoRunId(runId, attempts + 1));
        Optional<String> user = result.run().user();
        if (user.isPresent()) {
            request = request.forUser(user.get());
        }
        RunResult ran;
        try {
            ran = run(runner, plan, request);
        } catch (WeftException e) {
            if (runner.store().findRun(undoRunId(runId, attempts + 1)).isPresent()) {
                throw new RunStateException("run '" + runId + "' is being undone by another caller (run '"
                        + undoRunId(runId, attempts + 1) + "')");
            }
            throw e;
        }
        List<UndoCall> calls = new ArrayList<>();
        Map<String, StepOutcome> outcomes = outcomes(ran);
        for (StepOutcome leaf : todo) {
            StepOutcome outcome = outcomes.get(leaf.stepId());
            String tool = leaf.undo().orElseThrow().toolName();
            if (outcome == null) {
                calls.add(new UndoCall(
                        leaf.stepId(),
                        tool,
                        false,
                        Json.mapper().nullNode(),
                        Optional.of(ran.run().error().orElse(new RunError(ErrorCode.E_TOOL_FAILED, "not run")))));
            } else {
                boolean ok = outcome.status() == StepOutcome.Status.SUCCEEDED;
                calls.add(new UndoCall(
                        leaf.stepId(),
                        tool,
                        ok,
                        outcome.result(),
                        ok
                                ? Optional.empty()
                                : Optional.of(outcome.error()
                                        .orElse(new RunError(
                                                ErrorCode.E_TOOL_FAILED,
                                                outcome.reason()
                                                        .orElse("step '" + leaf.stepId() + "' did not run"))))));
            }
        }
        return new UndoReport(Optional.of(ran.runId()), ran.status(), calls);
    }

    /**
     * A node that runs the plan it finds in its input — {@code {"plan": …, "input": …, "mode": …,
     * "approvedSteps": […], "answers": {…}}}, or the plan itself — as a child run, so an assistant's
     * pipeline (planner → plan → response) is one graph. Its output is the {@link PlanSummary}; a
     * step that waits for a person pauses the enclosing run too.
     */
    public Graph.Builder addTo(Graph.Builder graph, String nodeId) {
        return graph.subgraph(nodeId, context -> graph(planOf(context.input())));
    }

    /** The run input for a plan node's child run, built from the node's input. */
    static Plan planOf(JsonNode input) {
        JsonNode plan = input.has("plan") && input.get("plan").isObject() ? input.get("plan") : input;
        return PlanParser.fromJson(plan);
    }

    private static Set<String> ancestors(String stepId, Map<String, List<String>> deps) {
        Set<String> seen = new LinkedHashSet<>();
        List<String> todo = new ArrayList<>(deps.get(stepId));
        while (!todo.isEmpty()) {
            String next = todo.remove(todo.size() - 1);
            if (seen.add(next)) {
                todo.addAll(deps.get(next));
            }
        }
        return seen;
    }

    /** The caps on concurrent steps of one run: in all, and per capability. */
    static final class Limits {
        private final Semaphore run;
        private final int perCapability;
        private final Map<String, Semaphore> capabilities = new ConcurrentHashMap<>();

        Limits(int perRun, int perCapability) {
            this.run = new Semaphore(perRun, true);
            this.perCapability = perCapability;
        }

        void acquire(String capability) throws InterruptedException {
            run.acquire();
            try {
                capabilities
                        .computeIfAbsent(capability, c -> new Semaphore(perCapability, true))
                        .acquire();
            } catch (InterruptedException e) {
                run.release();
                throw e;
            }
        }

        void release(String capability) {
            capabilities.get(capability).release();
            run.release();
        }
    }

    /** The entry node: reports broken cycles and groups, and in APPROVAL mode waits for the plan to be approved. */
    static final class PlanNode implements Node {
        private final Plan plan;
        private final ExecutionGroups groups;
        /**
         * The groups as JSON, built once: every run of the plan emits and outputs this same array,
         * which is read and never changed (as the shared plan JSON of the run input is).
         */
        private final ArrayNode groupArray;

        PlanNode(Plan plan, ExecutionGroups groups) {
            this.plan = plan;
            this.groups = groups;
            this.groupArray = Json.mapper().createArrayNode();
            for (ExecutionGroups.Group group : groups.groups()) {
                ObjectNode g = groupArray.addObject();
                g.put("index", group.index());
                ArrayNode steps = g.putArray("steps");
                group.steps().forEach(steps::add);
                g.put("parallelizable", group.parallelizable());
            }
        }

        @Override
        public NodeResult execute(NodeContext context) {
            ObjectNode out = Nodes.object(2);
            out.set("groups", groupArray);
            if (context.resumeValue().isEmpty()) {
                for (ExecutionGroups.BrokenCycle cycle : groups.brokenCycles()) {
                    ObjectNode data = Json.object();
                    ArrayNode path = data.putArray("path");
                    cycle.path().forEach(path::add);
                    data.put("runsFirst", cycle.runsFirst());
                    context.emit(PlanEvents.PLAN_CYCLE_BROKEN, data);
                }
                context.emit(PlanEvents.PLAN_GROUPS, groupArray);
            }
            PlanMode mode = PlanMode.valueOf(context.runInput().path("mode").asText("AUTO"));
            boolean approved = true;
            if (mode == PlanMode.APPROVAL) {
                if (context.resumeValue().isEmpty()) {
                    ObjectNode payload = Json.object();
                    payload.put("type", "plan_approval");
                    payload.set("plan", plan.toJson());
                    payload.set("groups", groupArray);
                    context.emit(PlanEvents.APPROVAL_AWAITING, payload);
                    return NodeResult.interrupt(payload);
                }
                JsonNode decision = context.resumeValue().get();
                approved = !decision.path("approved").isBoolean()
                        || decision.get("approved").asBoolean();
                out.set(
                        "approve",
                        decision.path("approve").isArray()
                                ? decision.get("approve")
                                : Json.mapper().createArrayNode());
                out.set("answers", decision.path("answers").isObject() ? decision.get("answers") : Json.object());
            }
            out.put("approved", approved);
            return NodeResult.output(out);
        }
    }

    /** Seed 000's join: counts, partial failure, and the run fails only when every step failed. */
    static final class JoinNode implements Node {
        /** The steps' node names ({@code step:<id>}), in plan order, built once rather than per run. */
        private final List<String> stepNodes;

        JoinNode(Plan plan) {
            this.stepNodes =
                    plan.steps().stream().map(step -> STEP_PREFIX + step.id()).toList();
        }

        @Override
        public NodeResult execute(NodeContext context) {
            List<JsonNode> outcomes = new ArrayList<>(stepNodes.size());
            for (String node : stepNodes) {
                JsonNode output = context.outputs().get(node);
                if (output != null && output.has("status")) {
                    outcomes.add(output);
                }
            }
            ObjectNode summary = PlanSummary.summarize(outcomes);
            if (summary.get("successfulSteps").asInt() == 0
                    && summary.get("failedSteps").asInt() > 0) {
                Set<String> codes = new LinkedHashSet<>();
                List<String> messages = new ArrayList<>();
                for (JsonNode error : summary.get("errors")) {
                    String code = error.path("code").asText();
                    codes.add(code);
                    messages.add(error.path("stepId").asText() + ": " + code + ": "
                            + error.path("message").asText());
                }
                ErrorCode code =
                        codes.size() == 1 ? ErrorCode.valueOf(codes.iterator().next()) : ErrorCode.E_TOOL_FAILED;
                throw new WeftException(code, "every step failed: " + String.join("; ", messages));
            }
            return NodeResult.output(summary);
        }
    }

    /** Resolves an undo run's steps: the tool the action names, with the constraints as its arguments. */
    private static final class UndoResolver implements Resolver {
        @Override
        public String name() {
            return "undo";
        }

        @Override
        public String capability() {
            return UNDO_CAPABILITY;
        }

        @Override
        public Set<String> actions() {
            return Set.of();
        }

        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            return Resolution.execute(step.action(), step.constraints().deepCopy());
        }
    }

    /** Builds a {@link PlanExecutor}; every setter rejects a bad value at once. */
    public static final class Builder {
        private ResolverRegistry resolvers = ResolverRegistry.of();
        private ToolRegistry tools = ToolRegistry.of();
        private StepQueue queue = StepQueue.inline();
        private RetryPolicy retry = RetryPolicy.attempts(3)
                .withBackoff(Duration.ofMillis(200), Duration.ofSeconds(5), 2.0)
                .withJitter(0.3);
        private int maxConcurrentSteps = Integer.MAX_VALUE;
        private int maxConcurrentPerCapability = Integer.MAX_VALUE;
        private boolean rejectCycles;
        private java.util.random.RandomGenerator random = java.util.random.RandomGenerator.of("L64X128MixRandom");
        private Optional<String> name = Optional.empty();

        private Builder() {}

        /**
         * The name stored with this executor's runs ({@code source.executor}), so that another process
         * can find the same executor through {@link dev.weft.plan.spi.PlanExecutorProvider} and
         * resume, cancel or recover them.
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (!name.matches("[a-z][a-z0-9_.-]*")) {
                throw new IllegalArgumentException(
                        "executor name must be lower-case letters, digits, '_', '.' or '-', starting with a letter;"
                                + " was '" + name + "'");
            }
            this.name = Optional.of(name);
            return this;
        }

        /** The source of retry jitter; injected so tests can pin it. */
        public Builder random(java.util.random.RandomGenerator random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        public Builder resolvers(ResolverRegistry resolvers) {
            this.resolvers = Objects.requireNonNull(resolvers, "resolvers");
            return this;
        }

        public Builder tools(ToolRegistry tools) {
            this.tools = Objects.requireNonNull(tools, "tools");
            return this;
        }

        /** Where tool calls run; inline by default. */
        public Builder queue(StepQueue queue) {
            this.queue = Objects.requireNonNull(queue, "queue");
            return this;
        }

        /** How transient tool failures (timeouts, rate limits, 5xx) are retried; 3 attempts by default. */
        public Builder retry(RetryPolicy retry) {
            this.retry = Objects.requireNonNull(retry, "retry");
            return this;
        }

        public Builder maxConcurrentSteps(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("max concurrent steps must be at least 1, was " + max);
            }
            this.maxConcurrentSteps = max;
            return this;
        }

        public Builder maxConcurrentStepsPerCapability(int max) {
            if (max < 1) {
                throw new IllegalArgumentException(
                        "max concurrent steps per capability must be at least 1, was " + max);
            }
            this.maxConcurrentPerCapability = max;
            return this;
        }

        /** Rejects a plan with a dependency cycle ({@code E_PLAN_CYCLE}) instead of breaking it. */
        public Builder rejectCycles(boolean rejectCycles) {
            this.rejectCycles = rejectCycles;
            return this;
        }

        public PlanExecutor build() {
            return new PlanExecutor(this);
        }
    }
}
