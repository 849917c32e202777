package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.spi.Checkpoint;
import dev.weft.core.spi.Checkpoint.Activation;
import dev.weft.core.spi.Checkpoint.Arrival;
import dev.weft.core.spi.Checkpoint.Waiting;
import dev.weft.core.spi.RunStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * Drives one run: decides which activated nodes may start, executes them, applies their results,
 * routes, and writes steps, events and checkpoints. Its state is touched only by the thread that
 * holds the driver role ({@code driving}): the caller of {@link #drive} first, then whichever thread
 * finishes a node while the role is free. A thread that finishes a node while another drives leaves
 * its result in the queue, which the driver applies before it gives the role up.
 */
final class RunCoordinator {
    /** A step may start from PENDING, from WAITING (resumed) and from RUNNING (its process died). */
    private static final Set<StepStatus> STARTABLE = Set.of(StepStatus.PENDING, StepStatus.WAITING, StepStatus.RUNNING);

    private static final Set<StepStatus> IN_FLIGHT = Set.of(StepStatus.RUNNING);

    private final Runner runner;
    private final RunStore store;
    private final Graph graph;
    private Run run;
    private final WriteBuffer writes;
    private final EventSink events;
    private final Map<String, JsonNode> variables;
    private final List<String> cancelScope;

    private final Map<String, JsonNode> outputs = new LinkedHashMap<>();
    private final Map<String, Integer> visits = new HashMap<>();
    private final LinkedHashMap<String, Pending> pending = new LinkedHashMap<>();
    private final Map<Integer, Pending> running = new HashMap<>();
    private final List<Waiting> waiting = new ArrayList<>();
    private final Map<String, JsonNode> ended = new LinkedHashMap<>();
    private String lastEnded = "";
    /**
     * The immutable copies of {@code outputs}, {@code visits} and {@code ended} the last checkpoint
     * took, or null once the map has changed since: a checkpoint copies only what changed since the
     * one before, and shares the rest with it (both are immutable).
     */
    private @Nullable Map<String, JsonNode> checkpointedOutputs;

    private @Nullable Map<String, Integer> checkpointedVisits;
    private @Nullable Map<String, JsonNode> checkpointedEnded;
    private final Map<Integer, Step> steps = new java.util.concurrent.ConcurrentHashMap<>();
    private int nextOrder;
    /** Results of nodes run by threads that did not hold the driver role. */
    private final ConcurrentLinkedQueue<Completion> completions = new ConcurrentLinkedQueue<>();
    /** Held by the one thread that may touch the run's state (every field not marked otherwise). */
    private final AtomicBoolean driving = new AtomicBoolean();

    private final CompletableFuture<RunResult> outcome = new CompletableFuture<>();
    private volatile boolean interruptRequested;
    /** What the run's nodes share while this process drives it ({@link NodeContext#runLocal}). */
    private final java.util.concurrent.ConcurrentMap<String, Object> runLocals =
            new java.util.concurrent.ConcurrentHashMap<>();

    private @Nullable RunError failure;
    private boolean cancelled;
    private int lastCompleted;

    /** Steps whose work a worker has, by step order: in flight, holding no thread, until delivered. */
    private final Map<Integer, Parked> parked = new HashMap<>();
    /** Outcomes delivered before their step was parked (a fast worker), applied as it is. */
    private final Map<Integer, JsonNode> early = new HashMap<>();
    /** The steps handed to workers whose outcome has not been applied; any thread reads it. */
    private final Set<Integer> outstanding = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Outcomes from workers ({@link Runner#deliver}), applied by the driver. */
    private final ConcurrentLinkedQueue<Delivery> deliveries = new ConcurrentLinkedQueue<>();

    /** A step whose work went to a worker: what the node needs to run again when its outcome comes. */
    private record Parked(
            Pending activation,
            JsonNode input,
            String kind,
            JsonNode work,
            Map<String, JsonNode> details,
            Map<String, JsonNode> visibleOutputs) {}

    private record Delivery(int order, JsonNode outcome) {}

    /** An activated node not yet completed: its step, the outputs that reached it, and resume data. */
    private static final class Pending {
        final String nodeId;
        final int order;
        /** Only ever appended to, so its size tells whether {@link #checkpointed} is still current. */
        final List<Arrival> arrivals = new ArrayList<>(2);

        /** How the last checkpoint recorded this activation, shared by the next while no output arrives. */
        @Nullable
        Activation checkpointed;

        @Nullable
        JsonNode resumeValue;

        @Nullable
        JsonNode interruptPayload;

        Pending(String nodeId, int order) {
            this.nodeId = nodeId;
            this.order = order;
        }

        boolean isResume() {
            return interruptPayload != null;
        }
    }

    private sealed interface Completion {
        Pending activation();

        JsonNode input();

        Map<String, JsonNode> details();
    }

    private record Done(
            Pending activation, JsonNode input, JsonNode output, Optional<String> handle, Map<String, JsonNode> details)
            implements Completion {}

    private record Interrupted(Pending activation, JsonNode input, JsonNode payload, Map<String, JsonNode> details)
            implements Completion {}

    private record Failed(Pending activation, JsonNode input, RunError error, Map<String, JsonNode> details)
            implements Completion {}

    /** The node handed its work to a worker; the step stays in flight. */
    private record Handed(
            Pending activation,
            JsonNode input,
            String kind,
            JsonNode work,
            Map<String, JsonNode> details,
            Map<String, JsonNode> visibleOutputs)
            implements Completion {}

    /**
     * A node that has been started: run by the driver itself when nothing else is in flight
     * ({@code alone}, with the live outputs), otherwise by a thread without the role, with a
     * snapshot of them.
     */
    private final class Task {
        final Pending activation;
        final NodeSpec spec;
        final JsonNode input;
        final Map<String, JsonNode> visibleOutputs;
        final boolean alone;
        /** For a node run again with a worker's outcome: that outcome, and what it dispatched. */
        final @Nullable JsonNode delivered;

        final @Nullable JsonNode dispatchedPayload;
        final Map<String, JsonNode> details;

        Task(Pending activation, NodeSpec spec, JsonNode input, Map<String, JsonNode> visibleOutputs, boolean alone) {
            this(activation, spec, input, visibleOutputs, alone, null, null, Map.of());
        }

        Task(
                Pending activation,
                NodeSpec spec,
                JsonNode input,
                Map<String, JsonNode> visibleOutputs,
                boolean alone,
                @Nullable JsonNode delivered,
                @Nullable JsonNode dispatchedPayload,
                Map<String, JsonNode> details) {
            this.activation = activation;
            this.spec = spec;
            this.input = input;
            this.visibleOutputs = visibleOutputs;
            this.alone = alone;
            this.delivered = delivered;
            this.dispatchedPayload = dispatchedPayload;
            this.details = details;
        }

        boolean alone() {
            return alone;
        }

        /** Executes the node; a failure outside the node itself still ends as its completion, never lost. */
        Completion run() {
            try {
                return execute(activation, spec, input, visibleOutputs, delivered, dispatchedPayload, details);
            } catch (RuntimeException | Error e) {
                return new Failed(activation, input, errorOf(spec, e), Map.of());
            }
        }
    }

    /** Runs {@code task} on a thread of the runner's executor, which then drives the run if it can. */
    private void launch(Task task) {
        runner.executor().execute(() -> {
            completions.add(task.run());
            driveIfFree();
        });
    }

    private RunCoordinator(Runner runner, Graph graph, Run run, long lastSequence) {
        this.runner = runner;
        this.store = runner.store();
        this.graph = graph;
        this.run = run;
        this.writes = new WriteBuffer(runner, run.id());
        this.events = new EventSink(runner, run.id(), lastSequence, writes);
        Map<String, JsonNode> vars = new LinkedHashMap<>(graph.variables());
        vars.putAll(run.variables());
        this.variables = java.util.Collections.unmodifiableMap(vars);
        // The run and its ancestors. A parent that is not in the store yet (its creation waits for its
        // writer, see start) has no parent itself: only a top-level run's creation waits.
        List<String> scope = new ArrayList<>();
        scope.add(run.id());
        Optional<String> parent = run.parentRunId();
        while (parent.isPresent()) {
            scope.add(parent.get());
            parent = store.findRun(parent.get()).flatMap(Run::parentRunId);
        }
        this.cancelScope = List.copyOf(scope);
    }

    static RunCoordinator start(
            Runner runner, Graph graph, RunRequest request, String runId, Optional<String> parentRunId) {
        Instant now = runner.time().now();
        Run run = new Run(
                runId,
                graph.id(),
                parentRunId,
                RunStatus.RUNNING,
                request.input(),
                request.variables(),
                request.pins(),
                NullNode.getInstance(),
                Optional.empty(),
                now,
                Optional.empty(),
                request.source(),
                request.user());
        RunCoordinator coordinator = new RunCoordinator(runner, graph, run, 0);
        ObjectNode data = Json.object(2);
        data.put("graphId", graph.id());
        data.set("input", request.input());
        coordinator.events.emit(Event.RUN_STARTED, null, 0, data);
        for (String entry : graph.entries()) {
            coordinator.deliver(Graph.START, entry, request.input());
        }
        // A first checkpoint, so that a run that dies before its first step completes can be recovered;
        // the run is created with it, claimed by this runner, in one transaction.
        coordinator.saveCheckpoint();
        // Created before it starts, whatever the durability: a run whose id the caller chose, so that a
        // duplicate id fails before any node runs; and a run that is part of another, so that the runs
        // it starts in turn find their ancestors through it in the store.
        coordinator.writes.createRun(run, runner.newLease(now), request.runId().isEmpty() && parentRunId.isEmpty());
        runner.holding(runId);
        return coordinator;
    }

    /** Continues a run whose process died, from its latest checkpoint: in-flight steps run again. */
    static RunCoordinator recover(Runner runner, Graph graph, Run run, Checkpoint checkpoint) {
        RunCoordinator coordinator = new RunCoordinator(runner, graph, run, runner.lastSequence(run.id()));
        coordinator.restore(checkpoint);
        coordinator.waiting.addAll(checkpoint.waiting());
        ObjectNode data = Json.object();
        data.put("fromStep", checkpoint.afterStep());
        coordinator.events.emit(Event.RUN_RECOVERED, null, 0, data);
        return coordinator;
    }

    /**
     * A new run that starts where {@code source} stood after the step of {@code checkpoint}: the steps
     * finished by then are copied, the rest runs again.
     */
    static RunCoordinator fork(Runner runner, Graph graph, Run source, Checkpoint checkpoint, String newRunId) {
        Instant now = runner.time().now();
        Run run = new Run(
                newRunId,
                graph.id(),
                source.parentRunId(),
                RunStatus.RUNNING,
                source.input(),
                source.variables(),
                source.pins(),
                NullNode.getInstance(),
                Optional.empty(),
                now,
                Optional.empty(),
                source.source(),
                source.user());
        RunStore store = runner.store();
        runner.createClaimed(run);
        java.util.Set<Integer> open = new java.util.HashSet<>();
        checkpoint.pending().forEach(a -> open.add(a.stepOrder()));
        checkpoint.waiting().forEach(w -> open.add(w.stepOrder()));
        for (Step step : store.steps(source.id())) {
            if (step.order() > checkpoint.nextOrder()) {
                continue;
            }
            Step copy = new Step(
                    newRunId,
                    step.order(),
                    step.nodeId(),
                    step.name(),
                    step.type(),
                    open.contains(step.order()) ? StepStatus.PENDING : step.status(),
                    step.attempt(),
                    step.pinned(),
                    step.input(),
                    step.output(),
                    step.error(),
                    step.startedAt(),
                    step.endedAt(),
                    step.details());
            store.insertStep(copy);
        }
        RunCoordinator coordinator = new RunCoordinator(runner, graph, run, 0);
        coordinator.restore(checkpoint.forRun(newRunId));
        for (Waiting waiting : checkpoint.waiting()) {
            Pending again = new Pending(waiting.nodeId(), waiting.stepOrder());
            again.arrivals.add(new Arrival("FORK", waiting.input()));
            coordinator.pending.put(pendingKey(again), again);
        }
        ObjectNode data = Json.object();
        data.put("forkedFrom", source.id());
        data.put("afterStep", checkpoint.afterStep());
        coordinator.events.emit(Event.RUN_STARTED, null, 0, data);
        coordinator.saveCheckpoint();
        return coordinator;
    }

    static RunCoordinator resume(Runner runner, Graph graph, Run run, Checkpoint checkpoint, JsonNode value) {
        RunCoordinator coordinator = new RunCoordinator(runner, graph, run, runner.lastSequence(run.id()));
        coordinator.restore(checkpoint);
        for (Waiting waiting : checkpoint.waiting()) {
            Pending activation = new Pending(waiting.nodeId(), waiting.stepOrder());
            activation.arrivals.add(new Arrival("RESUME", waiting.input()));
            activation.resumeValue = value;
            activation.interruptPayload = waiting.payload();
            coordinator.pending.put(pendingKey(activation), activation);
        }
        ObjectNode data = Json.object();
        data.set("value", value);
        coordinator.events.emit(Event.RUN_RESUMED, null, 0, data);
        return coordinator;
    }

    private void restore(Checkpoint checkpoint) {
        outputs.putAll(checkpoint.outputs());
        visits.putAll(checkpoint.visits());
        ended.putAll(checkpoint.ended());
        checkpointedOutputs = null;
        checkpointedVisits = null;
        checkpointedEnded = null;
        lastEnded = checkpoint.lastEnded();
        lastCompleted = checkpoint.afterStep();
        nextOrder = checkpoint.nextOrder();
        for (Step step : store.steps(run.id())) {
            steps.put(step.order(), step);
            nextOrder = Math.max(nextOrder, step.order());
        }
        for (Activation activation : checkpoint.pending()) {
            Pending restored = new Pending(activation.nodeId(), activation.stepOrder());
            restored.arrivals.addAll(activation.arrivals());
            pending.put(pendingKey(restored), restored);
        }
    }

    /** Resumed activations are keyed apart, so a fresh arrival for the same node does not merge into them. */
    private static String pendingKey(Pending activation) {
        return activation.isResume() ? activation.nodeId + "#" + activation.order : activation.nodeId;
    }

    String runId() {
        return run.id();
    }

    /**
     * Drives the run on the calling thread for as long as it has work for this thread, then waits
     * until the run stops. Interrupting the waiting thread fails the run with {@code E_CANCELLED}
     * before its next node; nodes in flight finish first.
     */
    RunResult drive() {
        driveIfFree();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return outcome.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                    interruptRequested = true;
                } catch (java.util.concurrent.ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    if (cause instanceof Error error) {
                        throw error;
                    }
                    throw new IllegalStateException(cause);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Starts driving the run on a thread of the runner's executor; the future completes when it stops. */
    CompletableFuture<RunResult> driveAsync() {
        runner.executor().execute(this::driveIfFree);
        return outcome.copy();
    }

    /** Drives the run on this thread if no other thread holds the role. */
    private void driveIfFree() {
        if (driving.compareAndSet(false, true)) {
            work();
        }
    }

    /**
     * The work loop of a thread that holds the driver role: applies finished nodes, starts ready
     * ones, and runs one of them itself after giving the role up; then takes the role again if it
     * can, so the thread that finishes a node is the one that starts the next. Returns when the run
     * has nothing for this thread: other threads hold its nodes, or it has stopped.
     */
    private void work() {
        try {
            while (true) {
                Task own = driveWhileHolding();
                driving.set(false);
                // A node that finished while this thread held the role left its result in the queue,
                // and its thread went away: drive on, and hand this thread's node to another.
                if ((!completions.isEmpty() || !deliveries.isEmpty())
                        && !outcome.isDone()
                        && driving.compareAndSet(false, true)) {
                    if (own != null) {
                        launch(own);
                    }
                    continue;
                }
                if (own == null) {
                    return;
                }
                completions.add(own.run());
                if (!driving.compareAndSet(false, true)) {
                    return;
                }
            }
        } catch (LeaseLostException lost) {
            // Another process recovered this run while this one was taken for dead: stop writing.
            runner.released(run.id());
            runner.undispatching(run.id(), this);
            outcome.complete(runner.result(run.id()));
        } catch (RuntimeException | Error e) {
            runner.released(run.id());
            runner.undispatching(run.id(), this);
            outcome.completeExceptionally(e);
        }
    }

    /** One pass as driver; returns a node this thread should run once it has given the role up. */
    private @Nullable Task driveWhileHolding() {
        while (!outcome.isDone()) {
            Completion done;
            while ((done = completions.poll()) != null) {
                apply(done);
            }
            applyDeliveries();
            if (interruptRequested) {
                fail(new RunError(ErrorCode.E_CANCELLED, "run '" + run.id() + "' was interrupted"));
            }
            Task own = stopping() ? null : dispatchReady();
            if (own != null) {
                if (!own.alone()) {
                    return own;
                }
                // Nothing else is in flight, so nothing can change the run's state meanwhile.
                apply(own.run());
                continue;
            }
            if (running.isEmpty()) {
                if (stopping() || pending.isEmpty()) {
                    outcome.complete(finish());
                    return null;
                }
                continue;
            }
            if (completions.isEmpty() && deliveries.isEmpty()) {
                if (!parked.isEmpty()) {
                    commitWhileParked();
                    if (!deliveries.isEmpty()) {
                        continue;
                    }
                }
                return null;
            }
        }
        return null;
    }

    /**
     * Commits what the run has done before it sits with steps at workers and nothing else to do, so
     * that the store shows them queued and the run can be recovered from there; a cancellation
     * learnt of here stops the run without waiting for the workers.
     */
    private void commitWhileParked() {
        if (!writes.hasChanges()) {
            return;
        }
        if (commitAndCheckCancel() && !cancelled) {
            cancelled = true;
            abandonDispatched("the run was cancelled while the step was queued for a worker");
        }
    }

    /** Registers that step {@code order}'s work is being handed to a worker, before it is. */
    void expectDelivery(int order) {
        outstanding.add(order);
        runner.dispatching(run.id(), this);
    }

    /** The work of step {@code order} was not handed over after all: it runs here. */
    void dropExpectation(int order) {
        outstanding.remove(order);
    }

    String graphId() {
        return graph.id();
    }

    /** Takes a worker's outcome for step {@code order}; false if the step does not wait for one. */
    boolean deliver(int order, JsonNode outcome) {
        if (!outstanding.contains(order) || this.outcome.isDone()) {
            return false;
        }
        deliveries.add(new Delivery(order, outcome));
        runner.executor().execute(this::driveIfFree);
        return true;
    }

    /** Fails every step still waiting for a worker with {@code E_CANCELLED}, saying {@code why}. */
    void abandonDispatched(String why) {
        for (Integer order : List.copyOf(outstanding)) {
            deliver(order, dev.weft.core.spi.StepDispatcher.failed(ErrorCode.E_CANCELLED, why));
        }
    }

    /** Applies the outcomes workers delivered: each step runs on with its own (driver only). */
    private void applyDeliveries() {
        Delivery delivery;
        while ((delivery = deliveries.poll()) != null) {
            Parked step = parked.remove(delivery.order());
            if (step != null) {
                resumeDispatched(step, delivery.outcome());
            } else if (running.containsKey(delivery.order()) && outstanding.contains(delivery.order())) {
                early.putIfAbsent(delivery.order(), delivery.outcome());
            }
        }
    }

    /**
     * Continues a parked step with its worker's outcome: the events and facts the work reported go into
     * the run's log and onto the step, then a queued node's outcome completes it here, and any other
     * node runs again with it.
     */
    private void resumeDispatched(Parked step, JsonNode delivered) {
        Pending activation = step.activation();
        outstanding.remove(activation.order);
        NodeSpec spec = graph.nodes().get(activation.nodeId);
        for (JsonNode event : delivered.path("events")) {
            String type = event.path("type").asText("");
            if (!type.isBlank()) {
                events.emitNow(type, spec.id(), activation.order, event.path("data"));
            }
        }
        Map<String, JsonNode> details = new LinkedHashMap<>(step.details());
        delivered.path("facts").properties().forEach(fact -> details.put(fact.getKey(), fact.getValue()));
        if (step.kind().equals(dev.weft.core.spi.StepDispatcher.NODE_KIND)) {
            apply(queuedNodeCompletion(step, spec, delivered, details));
            return;
        }
        ObjectNode payload = Json.object();
        payload.put("type", "queued");
        payload.put("kind", step.kind());
        payload.set("work", step.work());
        launch(new Task(
                activation,
                spec,
                step.input(),
                step.visibleOutputs(),
                false,
                delivered,
                payload,
                java.util.Collections.unmodifiableMap(details)));
    }

    /** What a queued node's outcome from a worker makes of its step. */
    private Completion queuedNodeCompletion(
            Parked step, NodeSpec spec, JsonNode delivered, Map<String, JsonNode> details) {
        JsonNode error = delivered.path("error");
        if (error.isObject()) {
            ErrorCode code;
            try {
                code = ErrorCode.valueOf(error.path("code").asText());
            } catch (IllegalArgumentException e) {
                code = ErrorCode.E_NODE_FAILED;
            }
            String message = error.path("message").asText();
            String prefix = "node '" + spec.id() + "'";
            return new Failed(
                    step.activation(),
                    step.input(),
                    new RunError(code, message.startsWith(prefix) ? message : prefix + ": " + message),
                    details);
        }
        JsonNode value = delivered.path("value");
        if (value.has("interrupt")) {
            return new Failed(
                    step.activation(),
                    step.input(),
                    new RunError(
                            ErrorCode.E_NODE_FAILED,
                            "node '" + spec.id() + "' is queued and asked to wait for a person on its worker;"
                                    + " a node that interrupts cannot be queued"),
                    details);
        }
        JsonNode handle = value.path("handle");
        return new Done(
                step.activation(),
                step.input(),
                value.has("output") ? value.get("output") : NullNode.getInstance(),
                handle.isTextual() ? Optional.of(handle.asText()) : Optional.empty(),
                details);
    }

    private boolean stopping() {
        return failure != null || cancelled || !waiting.isEmpty();
    }

    private void fail(RunError error) {
        if (failure == null) {
            failure = error;
        }
    }

    /** Whether the run or a run it is part of was asked to stop, without committing anything. */
    private boolean cancelRequested() {
        for (String id : cancelScope) {
            if (store.isCancelRequested(id)) {
                return true;
            }
        }
        return false;
    }

    /** Commits what the run has done so far, and learns in the same round trip whether it must stop. */
    private boolean commitAndCheckCancel() {
        boolean requested = writes.commit();
        for (int i = 1; i < cancelScope.size() && !requested; i++) {
            requested = store.isCancelRequested(cancelScope.get(i));
        }
        return requested;
    }

    /**
     * Starts every ready node: all but one on the runner's executor; the last is returned for this
     * thread to run.
     */
    private @Nullable Task dispatchReady() {
        List<Pending> ready = readyActivations();
        if (ready.isEmpty() && running.isEmpty() && !pending.isEmpty()) {
            ready = List.of(pending.values().iterator().next());
        }
        if (ready.isEmpty()) {
            return null;
        }
        // Cancellation is checked before every node: the commit that precedes it says.
        if (commitAndCheckCancel()) {
            cancelled = true;
            return null;
        }
        boolean alone = ready.size() == 1 && running.isEmpty();
        Task own = null;
        Map<String, JsonNode> snapshot = null;
        for (Pending activation : ready) {
            NodeSpec spec = graph.nodes().get(activation.nodeId);
            pending.remove(pendingKey(activation));
            if (!activation.isResume()) {
                int visit = visits.merge(activation.nodeId, 1, Integer::sum);
                checkpointedVisits = null;
                if (visit > spec.maxVisits()) {
                    visits.merge(activation.nodeId, -1, Integer::sum);
                    RunError error = new VisitLimitException(activation.nodeId, spec.maxVisits()).toError();
                    JsonNode input = mergeArrivals(activation);
                    recordFinished(
                            activation,
                            StepStatus.FAILED,
                            input,
                            NullNode.getInstance(),
                            Optional.of(error),
                            Map.of(),
                            STARTABLE);
                    fail(error);
                    return own;
                }
            }
            JsonNode pin = run.pins().get(activation.nodeId);
            if (pin != null) {
                applyPinned(activation, spec, pin);
                snapshot = null;
                continue;
            }
            JsonNode input = mergeArrivals(activation);
            Step started = step(activation).running(1, input, runner.time().now());
            writes.add(new RunStore.Change.UpdateStep(started, STARTABLE));
            steps.put(activation.order, started);
            events.emitNowForNode(Event.STEP_STARTED, spec.eventNodeId(), activation.order, NullNode.getInstance());
            running.put(activation.order, activation);
            if (alone) {
                own = new Task(activation, spec, input, outputs, true);
            } else {
                if (snapshot == null) {
                    snapshot = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(outputs));
                }
                if (own != null) {
                    launch(own);
                }
                own = new Task(activation, spec, input, snapshot, false);
            }
            if (stopping()) {
                return own;
            }
        }
        return own;
    }

    /**
     * The activations that may start now: those no running node, and no other queued node strictly
     * upstream of them, could still deliver to. A node never runs twice at once in one run.
     */
    private List<Pending> readyActivations() {
        if (pending.isEmpty()) {
            return List.of();
        }
        List<Pending> ready = new ArrayList<>(pending.size());
        for (Pending candidate : pending.values()) {
            if (isBlocked(candidate)) {
                continue;
            }
            ready.add(candidate);
        }
        return ready;
    }

    private boolean isBlocked(Pending candidate) {
        String node = candidate.nodeId;
        for (Pending active : running.values()) {
            if (active.nodeId.equals(node) || graph.canReach(active.nodeId, node)) {
                return true;
            }
        }
        if (candidate.isResume()) {
            return false;
        }
        for (Pending other : pending.values()) {
            if (other != candidate
                    && !other.nodeId.equals(node)
                    && graph.canReach(other.nodeId, node)
                    && !graph.canReach(node, other.nodeId)) {
                return true;
            }
        }
        return false;
    }

    private Completion execute(
            Pending activation,
            NodeSpec spec,
            JsonNode input,
            Map<String, JsonNode> visibleOutputs,
            @Nullable JsonNode delivered,
            @Nullable JsonNode dispatchedPayload,
            Map<String, JsonNode> details) {
        StepContext context = new StepContext(
                runner,
                this,
                this.run.id(),
                this.run.user(),
                spec,
                activation.order,
                input,
                this.run.input(),
                variables,
                visibleOutputs,
                Optional.ofNullable(delivered != null ? delivered : activation.resumeValue),
                Optional.ofNullable(delivered != null ? dispatchedPayload : activation.interruptPayload),
                events,
                this::cancelRequested,
                runLocals,
                details);
        if (spec.queued() && delivered == null && !activation.isResume()) {
            ObjectNode work = Json.object();
            work.set("input", input);
            work.set("outputs", Json.mapper().valueToTree(visibleOutputs));
            Optional<NodeResult> handed = context.dispatch(dev.weft.core.spi.StepDispatcher.NODE_KIND, work);
            if (handed.isPresent()) {
                return new Handed(
                        activation,
                        input,
                        dev.weft.core.spi.StepDispatcher.NODE_KIND,
                        work,
                        context.details(),
                        visibleOutputs);
            }
        }
        RetryPolicy policy = spec.retryPolicy();
        int attempt = 1;
        while (true) {
            context.attempt(attempt);
            try {
                NodeResult result = spec.node().execute(context);
                if (result == null) {
                    throw new IllegalStateException("node returned no result");
                }
                return switch (result) {
                    case NodeResult.Output output ->
                        new Done(activation, input, output.value(), output.handle(), context.details());
                    case NodeResult.Interrupt interrupt ->
                        new Interrupted(activation, input, interrupt.payload(), context.details());
                    case NodeResult.Dispatched handed -> {
                        if (!context.dispatched(handed)) {
                            throw new IllegalStateException(
                                    "node returned a Dispatched result that NodeContext.dispatch did not give it");
                        }
                        yield new Handed(
                                activation, input, handed.kind(), handed.work(), context.details(), visibleOutputs);
                    }
                };
            } catch (RuntimeException | Error failure) {
                if (policy.shouldRetry(attempt, failure)) {
                    Duration delay = runner.retryDelay(policy, attempt);
                    ObjectNode data = Json.object();
                    data.put("attempt", attempt);
                    data.put("delayMs", delay.toMillis());
                    data.put("error", describe(failure));
                    events.emitNow(Event.STEP_RETRYING, spec.id(), activation.order, data);
                    try {
                        runner.time().sleep(delay);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return new Failed(
                                activation,
                                input,
                                new RunError(
                                        ErrorCode.E_CANCELLED,
                                        "node '" + spec.id() + "' was interrupted while waiting to retry"),
                                context.details());
                    }
                    attempt++;
                    Step retried = step(activation)
                            .running(attempt, input, runner.time().now());
                    writes.add(new RunStore.Change.UpdateStep(retried, IN_FLIGHT));
                    steps.put(activation.order, retried);
                    continue;
                }
                return new Failed(activation, input, errorOf(spec, failure), context.details());
            }
        }
    }

    private static String describe(Throwable failure) {
        if (failure instanceof WeftException weft) {
            return weft.code() + ": " + weft.getMessage();
        }
        return failure.getClass().getSimpleName() + (failure.getMessage() == null ? "" : ": " + failure.getMessage());
    }

    private static RunError errorOf(NodeSpec spec, Throwable failure) {
        if (failure instanceof WeftException weft) {
            String prefix = "node '" + spec.id() + "'";
            String message = weft.getMessage();
            return new RunError(weft.code(), message.startsWith(prefix) ? message : prefix + ": " + message);
        }
        return new RunError(ErrorCode.E_NODE_FAILED, "node '" + spec.id() + "' failed: " + describe(failure));
    }

    private void applyPinned(Pending activation, NodeSpec spec, JsonNode pin) {
        JsonNode input = mergeArrivals(activation);
        Step pinned = step(activation).pinnedWith(input, pin, runner.time().now());
        writes.add(new RunStore.Change.UpdateStep(pinned, STARTABLE));
        steps.put(activation.order, pinned);
        ObjectNode data = Json.object();
        data.put("pinned", true);
        events.emitForNode(Event.STEP_COMPLETED, spec.eventNodeId(), activation.order, data);
        route(activation, spec, pin, Optional.empty());
        lastCompleted = activation.order;
        checkpoint();
    }

    private void apply(Completion completion) {
        Pending activation = completion.activation();
        if (completion instanceof Handed handed) {
            park(handed);
            return;
        }
        running.remove(activation.order);
        NodeSpec spec = graph.nodes().get(activation.nodeId);
        switch (completion) {
            case Done done -> {
                String handle = done.handle().orElseGet(() -> spec.route(done.output()));
                if (!spec.handles().contains(handle)) {
                    RunError error = new RunError(
                            ErrorCode.E_NODE_FAILED,
                            "node '" + spec.id()
                                    + "' chose handle '" + handle + "', which it does not declare (its handles: "
                                    + String.join(", ", spec.handles()) + ")");
                    recordFinished(
                            activation,
                            StepStatus.FAILED,
                            done.input(),
                            done.output(),
                            Optional.of(error),
                            done.details(),
                            IN_FLIGHT);
                    fail(error);
                    break;
                }
                recordFinished(
                        activation,
                        StepStatus.COMPLETED,
                        done.input(),
                        done.output(),
                        Optional.empty(),
                        done.details(),
                        IN_FLIGHT);
                route(activation, spec, done.output(), Optional.of(handle));
            }
            case Interrupted interrupted -> {
                Step waitingStep = steps.get(activation.order).waiting(interrupted.details());
                writes.add(new RunStore.Change.UpdateStep(waitingStep, IN_FLIGHT));
                steps.put(activation.order, waitingStep);
                waiting.add(new Waiting(spec.id(), activation.order, interrupted.input(), interrupted.payload()));
                events.emit(Event.STEP_WAITING, spec.id(), activation.order, interrupted.payload());
            }
            case Handed handed -> throw new IllegalStateException("parked above");
            case Failed failed -> {
                recordFinished(
                        activation,
                        StepStatus.FAILED,
                        failed.input(),
                        NullNode.getInstance(),
                        Optional.of(failed.error()),
                        failed.details(),
                        IN_FLIGHT);
                fail(failed.error());
            }
        }
        lastCompleted = activation.order;
        checkpoint();
    }

    /** The step's work is at a worker: it stays in flight, and its outcome is applied when delivered. */
    private void park(Handed handed) {
        Pending activation = handed.activation();
        Step queued = step(activation).withDetails(handed.details());
        writes.add(new RunStore.Change.UpdateStep(queued, IN_FLIGHT));
        steps.put(activation.order, queued);
        Map<String, JsonNode> visible = handed.visibleOutputs() == outputs
                ? java.util.Collections.unmodifiableMap(new LinkedHashMap<>(outputs))
                : handed.visibleOutputs();
        Parked step = new Parked(activation, handed.input(), handed.kind(), handed.work(), handed.details(), visible);
        JsonNode already = early.remove(activation.order);
        if (already != null) {
            resumeDispatched(step, already);
        } else {
            parked.put(activation.order, step);
        }
    }

    private void route(Pending activation, NodeSpec spec, JsonNode output, Optional<String> chosen) {
        String handle = chosen.orElseGet(() -> spec.route(output));
        outputs.put(spec.name(), output);
        checkpointedOutputs = null;
        List<String> targets = graph.targets(spec.id(), handle);
        boolean continues = false;
        for (String target : targets) {
            if (!target.equals(Graph.END)) {
                deliver(spec.id(), target, output);
                continues = true;
            }
        }
        if (!continues) {
            ended.remove(spec.name());
            ended.put(spec.name(), output);
            checkpointedEnded = null;
            lastEnded = spec.name();
        }
    }

    private void deliver(String from, String target, JsonNode value) {
        Pending activation = pending.get(target);
        if (activation == null) {
            activation = new Pending(target, ++nextOrder);
            pending.put(target, activation);
            NodeSpec spec = graph.nodes().get(target);
            Step step = new Step(
                    run.id(),
                    activation.order,
                    target,
                    spec.name(),
                    spec.type(),
                    StepStatus.PENDING,
                    0,
                    false,
                    NullNode.getInstance(),
                    NullNode.getInstance(),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    Map.of());
            writes.add(new RunStore.Change.InsertStep(step));
            steps.put(activation.order, step);
        }
        activation.arrivals.add(new Arrival(from, value));
    }

    private JsonNode mergeArrivals(Pending activation) {
        List<Arrival> arrivals = activation.arrivals;
        if (arrivals.size() == 1) {
            return arrivals.get(0).value();
        }
        if (arrivals.isEmpty()) {
            return NullNode.getInstance();
        }
        List<String> order = graph.predecessors(activation.nodeId);
        List<Arrival> sorted = new ArrayList<>(arrivals);
        sorted.sort(java.util.Comparator.comparingInt(a -> {
            int index = order.indexOf(a.from());
            return index < 0 ? Integer.MAX_VALUE : index;
        }));
        boolean allObjects = true;
        int fields = 0;
        for (Arrival arrival : sorted) {
            allObjects &= arrival.value().isObject();
            fields += arrival.value().size();
        }
        ObjectNode merged = Json.object(allObjects ? fields : sorted.size());
        for (Arrival arrival : sorted) {
            if (allObjects) {
                merged.setAll((ObjectNode) arrival.value());
            } else {
                String name = graph.node(arrival.from()).map(NodeSpec::name).orElse(arrival.from());
                merged.set(name, arrival.value());
            }
        }
        return merged;
    }

    private Optional<String> eventNodeId(Pending activation) {
        NodeSpec spec = graph.nodes().get(activation.nodeId);
        return spec == null ? Optional.of(activation.nodeId) : spec.eventNodeId();
    }

    private Step step(Pending activation) {
        return steps.get(activation.order);
    }

    private void recordFinished(
            Pending activation,
            StepStatus status,
            JsonNode input,
            JsonNode output,
            Optional<RunError> error,
            Map<String, JsonNode> details,
            Set<StepStatus> expected) {
        Step current = step(activation);
        Step base = current.startedAt().isPresent()
                ? current
                : current.running(current.attempt(), input, runner.time().now());
        Instant now = runner.time().now();
        Step finished = base.finished(status, output, error, now, details);
        writes.add(new RunStore.Change.UpdateStep(
                finished, expected.contains(current.status()) ? expected : Set.of(current.status())));
        steps.put(activation.order, finished);
        if (status == StepStatus.COMPLETED) {
            ObjectNode data = Json.object(1);
            // Step#durationMillis, without its Optional, boxed Long and lambdas.
            Optional<Instant> started = base.startedAt();
            if (started.isPresent()) {
                data.put("ms", Duration.between(started.get(), now).toMillis());
            }
            events.emitForNode(Event.STEP_COMPLETED, eventNodeId(activation), activation.order, data);
        } else {
            ObjectNode data = Json.object();
            error.ifPresent(e -> {
                data.put("code", e.code().name());
                data.put("message", e.message());
            });
            events.emitForNode(Event.STEP_FAILED, eventNodeId(activation), activation.order, data);
        }
    }

    private void checkpoint() {
        if (runner.checkpointEveryStep()) {
            saveCheckpoint();
        }
    }

    private void saveCheckpoint() {
        int activations = running.size() + pending.size();
        Activation[] open = new Activation[activations];
        int opened = 0;
        List<Waiting> stillWaiting = waiting;
        for (Pending activation : concat(running.values(), pending.values())) {
            if (activation.isResume()) {
                // A resume that has not completed is still a wait: recovering the run waits again.
                if (stillWaiting == waiting) {
                    stillWaiting = new ArrayList<>(waiting);
                }
                stillWaiting.add(new Waiting(
                        activation.nodeId,
                        activation.order,
                        mergeArrivals(activation),
                        java.util.Objects.requireNonNull(activation.interruptPayload)));
            } else {
                open[opened++] = checkpointed(activation);
            }
        }
        // The checkpoint's constructor copies its collections, except those that are immutable copies
        // already, as these are: a checkpoint shares with the one before what has not changed since.
        List<Activation> openList =
                opened == 0 ? List.of() : List.of(opened == activations ? open : java.util.Arrays.copyOf(open, opened));
        if (checkpointedOutputs == null) {
            checkpointedOutputs = Map.copyOf(outputs);
        }
        if (checkpointedVisits == null) {
            checkpointedVisits = Map.copyOf(visits);
        }
        if (checkpointedEnded == null) {
            checkpointedEnded = Map.copyOf(ended);
        }
        writes.add(new RunStore.Change.SaveCheckpoint(new Checkpoint(
                run.id(),
                lastCompleted,
                nextOrder,
                runner.time().now(),
                checkpointedOutputs,
                checkpointedVisits,
                openList,
                stillWaiting,
                checkpointedEnded,
                lastEnded)));
    }

    /** The checkpoint's record of an open activation: the last one's, while no output has reached it since. */
    private static Activation checkpointed(Pending activation) {
        Activation recorded = activation.checkpointed;
        if (recorded == null || recorded.arrivals().size() != activation.arrivals.size()) {
            recorded = new Activation(activation.nodeId, activation.order, activation.arrivals);
            activation.checkpointed = recorded;
        }
        return recorded;
    }

    private static Iterable<Pending> concat(java.util.Collection<Pending> first, java.util.Collection<Pending> second) {
        if (first.isEmpty()) {
            return second;
        }
        if (second.isEmpty()) {
            return first;
        }
        List<Pending> all = new ArrayList<>(first.size() + second.size());
        all.addAll(first);
        all.addAll(second);
        return all;
    }

    private RunResult finish() {
        try {
            return finishRun();
        } catch (LeaseLostException lost) {
            // Another process recovered this run while this one was taken for dead: stop writing.
            return runner.result(run.id());
        } finally {
            runner.released(run.id());
            outstanding.clear();
            runner.undispatching(run.id(), this);
        }
    }

    private RunResult finishRun() {
        Instant now = runner.time().now();
        Map<String, JsonNode> interrupts = new LinkedHashMap<>();
        if (!cancelled && failure == null && !waiting.isEmpty()) {
            saveCheckpoint();
            for (Waiting w : waiting) {
                interrupts.put(w.nodeId(), w.payload());
            }
            Run waitingRun = run.withStatus(RunStatus.WAITING);
            ObjectNode data = Json.object();
            data.set("interrupts", Json.mapper().valueToTree(interrupts));
            if (commitEnd(waitingRun, Event.RUN_WAITING, data)) {
                return new RunResult(run, writtenSteps(), outputs, interrupts);
            }
            run = store.findRun(run.id()).orElse(run);
            return new RunResult(run, store.steps(run.id()), outputs, interrupts);
        }
        if (!cancelled && failure != null && failure.code() == ErrorCode.E_CANCELLED && cancelRequested()) {
            // A node failed because a run it started was cancelled with this one (a subgraph's
            // child, which stops when its parent is asked to): this run was cancelled, not failed.
            cancelled = true;
        }
        if (cancelled || failure != null) {
            skipOpenSteps();
        }
        saveCheckpoint();
        RunStatus status;
        Optional<RunError> error;
        String eventType;
        if (cancelled) {
            status = RunStatus.CANCELLED;
            error = Optional.of(Runner.cancelledError(run.id()));
            eventType = Event.RUN_CANCELLED;
        } else if (failure != null) {
            status = RunStatus.FAILED;
            error = Optional.of(failure);
            eventType = Event.RUN_FAILED;
        } else {
            status = RunStatus.COMPLETED;
            error = Optional.empty();
            eventType = Event.RUN_COMPLETED;
        }
        Run finished = run.finished(status, runOutput(), error, now);
        ObjectNode data = Json.object();
        error.ifPresent(e -> {
            data.put("code", e.code().name());
            data.put("message", e.message());
        });
        if (commitEnd(finished, eventType, data)) {
            return new RunResult(run, writtenSteps(), outputs, interrupts);
        }
        run = store.findRun(run.id()).orElse(finished);
        return new RunResult(run, store.steps(run.id()), outputs, interrupts);
    }

    /**
     * Commits the run's last writes together with its new status {@code ended} and the event that
     * tells of it, in one transaction, if the run is still {@code RUNNING} in the store.
     *
     * @return false if it was not (its status changed under it): nothing of the batch was written
     */
    private boolean commitEnd(Run ended, String eventType, ObjectNode data) {
        writes.add(new RunStore.Change.UpdateRun(ended, Set.of(RunStatus.RUNNING)));
        events.emit(eventType, null, 0, data);
        try {
            writes.flush();
        } catch (RunStateException changed) {
            return false;
        }
        run = ended;
        return true;
    }

    /**
     * The run's steps as this coordinator wrote them, in order: what the store now holds, since every
     * write was committed and this process still held the run (no read back needed).
     */
    private List<Step> writtenSteps() {
        List<Step> all = new ArrayList<>(steps.values());
        all.sort(java.util.Comparator.comparingInt(Step::order));
        return all;
    }

    private JsonNode runOutput() {
        if (ended.isEmpty()) {
            return NullNode.getInstance();
        }
        if (ended.size() == 1) {
            return ended.values().iterator().next();
        }
        ObjectNode all = Json.object();
        ended.forEach(all::set);
        return all;
    }

    private void skipOpenSteps() {
        Iterator<Pending> open = pending.values().iterator();
        while (open.hasNext()) {
            Pending activation = open.next();
            skip(activation.order, StepStatus.SKIPPED);
            open.remove();
        }
        for (Waiting w : waiting) {
            skip(w.stepOrder(), StepStatus.SKIPPED);
        }
        waiting.clear();
    }

    private void skip(int order, StepStatus status) {
        Step step = steps.get(order);
        if (step == null || step.status().isFinished()) {
            return;
        }
        Step skipped = step.finished(
                status, step.output(), Optional.empty(), runner.time().now(), step.details());
        writes.add(new RunStore.Change.UpdateStep(skipped, Set.of(step.status())));
        steps.put(order, skipped);
        events.emit(Event.STEP_SKIPPED, step.nodeId(), order, NullNode.getInstance());
    }
}
