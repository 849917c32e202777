package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.spi.Checkpoint;
import dev.weft.core.spi.RunStore;
import dev.weft.core.store.InMemoryRunStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Runs compiled graphs: starts runs, resumes waiting ones and cancels them, recording every step,
 * event and checkpoint in its {@link RunStore}. Thread-safe; one runner serves many concurrent runs.
 * Steps that can run in parallel run on virtual threads; a run with one step ready at a time runs it
 * on the run's own thread.
 */
public final class Runner {
    private final RunStore store;
    private final TimeSource time;
    private final RandomGenerator random;
    private final ExecutorService executor;
    private final List<RunListener> listeners;
    private final Supplier<String> ids;
    private final boolean checkpointEveryStep;
    private final Durability durability;
    private final java.time.Duration commitDelay;
    private final LeaseOwner leaseOwner;
    private final String owner;
    private final ProcessProbe processes;
    private final java.time.Duration leaseDuration;
    private final Optional<dev.weft.core.spi.StepDispatcher> dispatcher;
    /** This runner's runs with steps handed to workers whose outcome has not been delivered yet. */
    private final Map<String, RunCoordinator> dispatching = new java.util.concurrent.ConcurrentHashMap<>();

    private final java.util.Set<String> active = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** This runner's runs that are not in the store yet: their writer creates them (see WriteBuffer). */
    private final Map<String, WriteBuffer> uncreated = new java.util.concurrent.ConcurrentHashMap<>();

    private final java.util.concurrent.atomic.AtomicBoolean renewing = new java.util.concurrent.atomic.AtomicBoolean();
    /**
     * The thread renewing this runner's leases while it holds runs; it ends {@link #RENEWER_LINGER}
     * after the last is released.
     */
    private volatile @org.jspecify.annotations.Nullable Thread renewer;
    /** When this runner last took a run to drive, in {@link System#nanoTime} terms. */
    private volatile long lastHeld;
    /** Graphs by id, so runs can be resumed by id alone; bounded, as plans compile a graph per run. */
    private final Map<String, Graph> graphs =
            java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<String, Graph>(64, 0.75f, true) {
                private static final long serialVersionUID = 1L;

                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Graph> eldest) {
                    return size() > MAX_REMEMBERED_GRAPHS;
                }
            });

    private static final int MAX_REMEMBERED_GRAPHS = 1024;
    /** The commit delay under {@link Durability#ASYNC} unless one is set. */
    private static final java.time.Duration DEFAULT_COMMIT_DELAY = java.time.Duration.ofMillis(1);
    /** The longest commit delay: longer would leave a cancellation unnoticed for too long. */
    static final long MAX_COMMIT_DELAY_SECONDS = 60;
    /** How long the lease renewer stays on after the runner's last run, for the next one to find it. */
    static final java.time.Duration RENEWER_LINGER = java.time.Duration.ofMillis(100);

    private Runner(Builder builder) {
        this.store = builder.store;
        this.time = builder.time;
        this.random = builder.random;
        this.executor = builder.executor;
        this.listeners = List.copyOf(builder.listeners);
        this.ids = builder.ids;
        this.checkpointEveryStep = builder.checkpointEveryStep;
        this.durability = builder.durability;
        this.commitDelay = builder.commitDelay;
        this.leaseDuration = builder.leaseDuration;
        this.leaseOwner = builder.leaseOwner == null ? LeaseOwner.ofThisProcess() : builder.leaseOwner;
        this.owner = leaseOwner.format();
        this.processes = builder.processes;
        this.dispatcher = Optional.ofNullable(builder.dispatcher);
        // Last, once the runner is whole: the dispatcher may deliver to it from now on.
        dispatcher.ifPresent(d -> d.bind(this));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A runner with an in-memory store, the system clock and virtual threads. */
    public static Runner create() {
        return builder().build();
    }

    public RunStore store() {
        return store;
    }

    /** Makes {@code graph} known, so that runs of it can be resumed by id. Starting a run registers it too. */
    public Runner register(Graph graph) {
        graphs.put(graph.id(), graph);
        return this;
    }

    /**
     * Runs {@code graph} on the calling thread until it completes, fails, is cancelled or waits on an
     * interrupt.
     */
    public RunResult run(Graph graph, RunRequest request) {
        return newRun(graph, request, Optional.empty()).drive();
    }

    /** Starts a run on a virtual thread and returns at once. */
    public RunHandle start(Graph graph, RunRequest request) {
        RunCoordinator coordinator = newRun(graph, request, Optional.empty());
        return new RunHandle(coordinator.runId(), coordinator.driveAsync());
    }

    /**
     * Continues a {@code WAITING} run from its checkpoint: every node it waits on runs again with
     * {@code value} as its {@link NodeContext#resumeValue()}.
     *
     * @throws NotFoundException if there is no such run, or its graph is not registered here
     * @throws RunStateException if the run is not waiting
     */
    public RunResult resume(String runId, JsonNode value) {
        return prepareResume(runId, value).drive();
    }

    /**
     * Continues a {@code WAITING} run of {@code graph} (for callers that rebuild their graphs, such as
     * plans, rather than register them).
     *
     * @throws RunStateException if the run is not waiting, or is a run of another graph
     */
    public RunResult resume(Graph graph, String runId, JsonNode value) {
        Objects.requireNonNull(graph, "graph");
        Run run = store.findRun(runId).orElseThrow(() -> new NotFoundException("no run '" + runId + "'"));
        if (!run.graphId().equals(graph.id())) {
            throw new RunStateException(
                    "run '" + runId + "' is a run of graph '" + run.graphId() + "', not '" + graph.id() + "'");
        }
        return prepareResume(graph, run, value).drive();
    }

    /** {@link #resume} on a virtual thread. */
    public RunHandle resumeAsync(String runId, JsonNode value) {
        return new RunHandle(runId, prepareResume(runId, value).driveAsync());
    }

    /**
     * Cancels a run. A running run stops before its next node (the node in flight finishes); a waiting
     * run is cancelled at once.
     *
     * @return the run as it now stands (a running one may still be finishing its node)
     * @throws NotFoundException if there is no such run
     * @throws RunStateException if the run has already finished
     */
    public Run cancel(String runId) {
        WriteBuffer creating = uncreated.get(runId);
        if (creating != null) {
            // One of this runner's runs, not yet in the store: it is, once this commits.
            creating.flush();
        }
        Run run = store.findRun(runId).orElseThrow(() -> new NotFoundException("no run '" + runId + "'"));
        if (run.status().isFinished()) {
            throw new RunStateException("run '" + runId + "' is already " + run.status() + "; nothing to cancel");
        }
        store.requestCancel(runId);
        RunCoordinator waitingForWorkers = dispatching.get(runId);
        if (waitingForWorkers != null) {
            // Nothing in this process runs those steps: the run need not wait for them to stop.
            waitingForWorkers.abandonDispatched("the run was cancelled while the step was queued for a worker");
        }
        if (creating != null) {
            // Its writer may not commit again for up to its delay; it would learn of this only then.
            creating.cancelRequested();
        }
        if (run.status() == RunStatus.WAITING) {
            Run cancelled =
                    run.finished(RunStatus.CANCELLED, run.output(), Optional.of(cancelledError(runId)), time.now());
            if (store.updateRun(cancelled, Set.of(RunStatus.WAITING))) {
                for (Step step : store.steps(runId)) {
                    if (!step.status().isFinished()) {
                        store.updateStep(
                                step.finished(
                                        StepStatus.SKIPPED,
                                        step.output(),
                                        Optional.empty(),
                                        time.now(),
                                        step.details()),
                                Set.of(step.status()));
                    }
                }
                new EventSink(this, runId, lastSequence(runId), null).emit(Event.RUN_CANCELLED, null, 0, Json.object());
                return cancelled;
            }
        }
        return store.findRun(runId).orElse(run);
    }

    /**
     * Delivers the outcome of a step whose work was handed to a worker ({@link NodeResult.Dispatched}):
     * if this runner drives the run and the step still waits for it, the run goes on with it on
     * another thread, and this returns true. A second delivery for the same step, or one for a run
     * this runner does not drive (it finished, or another process took it over), is ignored, and this
     * returns false. The outcome's shape is described by {@link dev.weft.core.spi.StepDispatcher};
     * whoever delivers should deliver the outcome stored first (compare-and-set), so that every
     * process agrees on it.
     */
    public boolean deliver(String runId, int stepOrder, JsonNode outcome) {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(outcome, "outcome");
        RunCoordinator coordinator = dispatching.get(runId);
        return coordinator != null && coordinator.deliver(stepOrder, outcome);
    }

    /** The step dispatcher steps' work is handed to, if this runner has one. */
    public Optional<dev.weft.core.spi.StepDispatcher> dispatcher() {
        return dispatcher;
    }

    /** Remembers that {@code coordinator}'s run waits for an outcome from a worker. */
    void dispatching(String runId, RunCoordinator coordinator) {
        dispatching.put(runId, coordinator);
    }

    /** Forgets {@code coordinator}'s run: it waits for no worker any more. */
    void undispatching(String runId, RunCoordinator coordinator) {
        dispatching.remove(runId, coordinator);
    }

    /** The run as it now stands in the store, with its steps and outputs. */
    public RunResult result(String runId) {
        Run run = store.findRun(runId).orElseThrow(() -> new NotFoundException("no run '" + runId + "'"));
        Optional<Checkpoint> checkpoint = store.latestCheckpoint(runId);
        Map<String, JsonNode> outputs = checkpoint.map(Checkpoint::outputs).orElse(Map.of());
        Map<String, JsonNode> interrupts = new java.util.LinkedHashMap<>();
        if (run.status() == RunStatus.WAITING) {
            checkpoint.ifPresent(cp -> cp.waiting().forEach(w -> interrupts.put(w.nodeId(), w.payload())));
        }
        return new RunResult(run, store.steps(runId), outputs, interrupts);
    }

    RunCoordinator newRun(Graph graph, RunRequest request, Optional<String> parentRunId) {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(request, "request");
        for (String pinned : request.pins().keySet()) {
            if (graph.node(pinned).isEmpty()) {
                throw new GraphInvalidException(
                        "pinned node '" + pinned + "' is not a node of graph '" + graph.id() + "'");
            }
        }
        register(graph);
        String runId = request.runId().orElseGet(ids);
        return RunCoordinator.start(this, graph, request, runId, parentRunId);
    }

    private RunCoordinator prepareResume(String runId, JsonNode value) {
        Run run = store.findRun(runId).orElseThrow(() -> new NotFoundException("no run '" + runId + "'"));
        Graph graph = graphs.get(run.graphId());
        if (graph == null && run.status() == RunStatus.WAITING) {
            throw new NotFoundException(
                    "graph '" + run.graphId() + "' of run '" + runId + "' is not registered with this runner");
        }
        return prepareResume(graph, run, value);
    }

    private RunCoordinator prepareResume(@org.jspecify.annotations.Nullable Graph graph, Run run, JsonNode value) {
        Objects.requireNonNull(value, "value");
        String runId = run.id();
        if (run.status() != RunStatus.WAITING) {
            throw new RunStateException(
                    "run '" + runId + "' is " + run.status() + "; only a WAITING run can be resumed");
        }
        Checkpoint checkpoint = store.latestCheckpoint(runId)
                .orElseThrow(() -> new RunStateException("run '" + runId + "' has no checkpoint to resume from"));
        claim(runId);
        if (!store.updateRun(run.withStatus(RunStatus.RUNNING), Set.of(RunStatus.WAITING))) {
            throw new RunStateException(
                    "run '" + runId + "' is no longer WAITING; it was resumed or cancelled" + " meanwhile");
        }
        return RunCoordinator.resume(
                this, Objects.requireNonNull(graph), run.withStatus(RunStatus.RUNNING), checkpoint, value);
    }

    /**
     * Continues a run whose process died (it is {@code RUNNING} and its lease expired) from its latest
     * checkpoint: steps that were in flight run again, with the same idempotency keys.
     *
     * @throws NotFoundException if there is no such run
     * @throws RunStateException if the run is not running, or another live process holds it
     */
    public RunResult recover(Graph graph, String runId) {
        Objects.requireNonNull(graph, "graph");
        Run run = store.findRun(runId).orElseThrow(() -> new NotFoundException("no run '" + runId + "'"));
        if (run.status() != RunStatus.RUNNING) {
            throw new RunStateException("run '" + runId + "' is " + run.status() + "; only a RUNNING run whose"
                    + " process died can be recovered");
        }
        claim(runId);
        Checkpoint checkpoint = store.latestCheckpoint(runId)
                .orElseThrow(() -> new RunStateException("run '" + runId + "' has no checkpoint to recover from"));
        register(graph);
        return RunCoordinator.recover(this, graph, run, checkpoint).drive();
    }

    /**
     * Runs left {@code RUNNING} by a process that died: their lease expired, or its holder was a
     * process of this host that is no longer running.
     */
    public List<Run> recoverable() {
        java.time.Instant now = time.now();
        List<Run> runs = new ArrayList<>(store.recoverable(now));
        java.util.Set<String> found = new java.util.HashSet<>();
        runs.forEach(run -> found.add(run.id()));
        for (Run run : store.listRuns(Optional.of(RunStatus.RUNNING))) {
            if (!found.contains(run.id())
                    && store.lease(run.id()).map(l -> deadHereOwner(l.owner())).orElse(false)) {
                runs.add(run);
            }
        }
        runs.sort(java.util.Comparator.comparing(Run::createdAt).thenComparing(Run::id));
        return runs;
    }

    /** Whether {@code owner} was a runner of a process on this host that is no longer running. */
    private boolean deadHereOwner(String owner) {
        Optional<LeaseOwner> holder = LeaseOwner.parse(owner);
        return holder.isPresent()
                && holder.get().host().equals(leaseOwner.host())
                && !(holder.get().pid() == leaseOwner.pid()
                        && holder.get().processStart().equals(leaseOwner.processStart()))
                && !processes.isRunning(holder.get().pid(), holder.get().processStart());
    }

    /**
     * Starts a new run of {@code graph} from the checkpoint written after step {@code afterStep} of run
     * {@code runId}: the steps finished by then are copied, the rest runs again.
     *
     * @throws NotFoundException if there is no such run or checkpoint
     */
    public RunResult fork(Graph graph, String runId, int afterStep) {
        Objects.requireNonNull(graph, "graph");
        Run source = store.findRun(runId).orElseThrow(() -> new NotFoundException("no run '" + runId + "'"));
        Checkpoint checkpoint = null;
        for (Checkpoint candidate : store.checkpoints(runId)) {
            if (candidate.afterStep() == afterStep) {
                checkpoint = candidate;
            }
        }
        if (checkpoint == null) {
            throw new NotFoundException("run '" + runId + "' has no checkpoint after step " + afterStep);
        }
        register(graph);
        return RunCoordinator.fork(this, graph, source, checkpoint, ids.get()).drive();
    }

    /** Takes the lease of a run this runner is about to drive, and keeps it renewed while it does. */
    void claim(String runId) {
        java.time.Instant now = time.now();
        RunStore.Lease mine = new RunStore.Lease(owner, now.plus(leaseDuration));
        if (!store.claim(runId, mine, now)) {
            Optional<RunStore.Lease> held = store.lease(runId);
            // A holder that was a process of this host and is gone cannot renew: take the run at once,
            // rather than make the person wait for the lease to run out.
            boolean dead = held.isPresent() && deadHereOwner(held.get().owner());
            if (!dead) {
                throw new RunStateException("run '" + runId + "' is being run by "
                        + held.map(l -> holder(l, now)).orElse("another process"));
            }
            if (!store.takeOver(runId, held.get().owner(), mine)) {
                throw new RunStateException("run '" + runId + "' was taken over by another process as this one tried");
            }
        }
        holding(runId);
    }

    /** Who holds {@code lease}, and when the run can be taken over, for a person. */
    private String holder(RunStore.Lease lease, java.time.Instant now) {
        long seconds =
                Math.max(1, (java.time.Duration.between(now, lease.until()).toMillis() + 999) / 1000);
        Optional<LeaseOwner> holder = LeaseOwner.parse(lease.owner());
        if (holder.isEmpty()) {
            return "another process; if it died, its lease expires in " + seconds + " s";
        }
        if (holder.get().host().equals(leaseOwner.host())) {
            return holder.get() + ", which is still running"
                    + holder.get()
                            .processStart()
                            .map(s -> " (started " + s + ")")
                            .orElse("")
                    + "; stop it, or wait " + seconds + " s for its lease to expire";
        }
        return "a process on host " + holder.get().host() + " (process "
                + holder.get().pid() + "); if that process died, the run can be taken over when its lease expires in "
                + seconds + " s";
    }

    /** Creates a new run already claimed by this runner (one transaction in a durable store). */
    void createClaimed(Run run) {
        store.createRun(run, newLease(run.createdAt()));
        holding(run.id());
    }

    /** A lease for this runner from {@code now}. */
    RunStore.Lease newLease(java.time.Instant now) {
        return new RunStore.Lease(owner, now.plus(leaseDuration));
    }

    /** Keeps the lease of {@code runId}, which this runner has claimed, renewed until {@link #released}. */
    void holding(String runId) {
        active.add(runId);
        lastHeld = System.nanoTime();
        if (renewing.compareAndSet(false, true)) {
            renewer = Thread.ofVirtual().name("weft-lease-renewer").start(this::renewLeases);
        }
    }

    String owner() {
        return owner;
    }

    /** The thread renewing this runner's leases, if it has one now. */
    @org.jspecify.annotations.Nullable
    Thread renewer() {
        Thread current = renewer;
        return current != null && current.isAlive() ? current : null;
    }

    /** Remembers that {@code runId}'s creation waits for its writer, until {@link #created} or {@link #released}. */
    void creating(String runId, WriteBuffer writes) {
        uncreated.put(runId, writes);
    }

    void created(String runId) {
        uncreated.remove(runId);
    }

    void released(String runId) {
        uncreated.remove(runId);
        active.remove(runId);
    }

    /**
     * Renews this runner's leases while it drives runs. The thread ends once the runner has held no
     * run for {@link #RENEWER_LINGER} (and is started again by the next claim), so an idle runner
     * soon holds no thread and can be collected; a runner that takes one short run after another
     * keeps the one thread, where starting and stopping it for each run would cost every run a few
     * wake-ups of other threads.
     */
    private void renewLeases() {
        long period = leaseDuration.toNanos() / 3;
        long next = System.nanoTime() + period;
        while (true) {
            long now = System.nanoTime();
            if (active.isEmpty() && now - lastHeld >= RENEWER_LINGER.toNanos()) {
                renewing.set(false);
                // A claim that raced with this check restarts the renewer itself.
                if (active.isEmpty() || !renewing.compareAndSet(false, true)) {
                    return;
                }
            }
            long wait = next - now;
            if (wait > 0) {
                // Looks again within the linger, so an idle runner lets go of its thread (and with
                // it of itself and its store) soon rather than at the next renewal.
                java.util.concurrent.locks.LockSupport.parkNanos(this, Math.min(wait, RENEWER_LINGER.toNanos()));
                continue;
            }
            try {
                store.renew(owner, time.now().plus(leaseDuration));
            } catch (RuntimeException e) {
                // A store that is briefly unreachable: the next round tries again.
            }
            next = System.nanoTime() + period;
        }
    }

    long lastSequence(String runId) {
        List<Event> events = store.events(runId);
        return events.isEmpty() ? 0 : events.get(events.size() - 1).sequence();
    }

    static RunError cancelledError(String runId) {
        return new RunError(ErrorCode.E_CANCELLED, "run '" + runId + "' was cancelled");
    }

    /** The time source this runner reads the time from and waits with. */
    public TimeSource time() {
        return time;
    }

    ExecutorService executor() {
        return executor;
    }

    List<RunListener> listeners() {
        return listeners;
    }

    boolean checkpointEveryStep() {
        return checkpointEveryStep;
    }

    /** When runs' writes are committed relative to their progress. */
    public Durability durability() {
        return durability;
    }

    /** Under {@link Durability#ASYNC}, how long the background writer waits before it commits. */
    public java.time.Duration commitDelay() {
        return commitDelay;
    }

    /** The wait before retrying after failed attempt {@code attempt}, with jitter from the injected source. */
    java.time.Duration retryDelay(RetryPolicy policy, int attempt) {
        synchronized (random) {
            return policy.delayAfter(attempt, random);
        }
    }

    /** A started run: its id, and its result once it stops (completes, fails, is cancelled or waits). */
    public record RunHandle(String runId, CompletableFuture<RunResult> result) {}

    /** Builds a {@link Runner}; every setter rejects a bad value at once. */
    public static final class Builder {
        private RunStore store = InMemoryRunStore.create();
        private TimeSource time = TimeSource.system();
        private RandomGenerator random = RandomGenerator.of("L64X128MixRandom");
        private ExecutorService executor;
        private final List<RunListener> listeners = new ArrayList<>();
        private Supplier<String> ids = RunIds::next;
        private boolean checkpointEveryStep = true;
        private Durability durability = Durability.SYNC;
        private java.time.Duration commitDelay = DEFAULT_COMMIT_DELAY;
        private java.time.Duration leaseDuration = java.time.Duration.ofSeconds(30);
        private @org.jspecify.annotations.Nullable LeaseOwner leaseOwner;
        private ProcessProbe processes = ProcessProbe.system();
        private dev.weft.core.spi.@org.jspecify.annotations.Nullable StepDispatcher dispatcher;

        /**
         * Where steps' work is handed to worker processes: the work nodes dispatch ({@link
         * NodeContext#dispatch}) and the nodes marked {@link NodeSpec.Builder#queued queued}. Without
         * one (the default) every step runs in this process.
         */
        public Builder dispatcher(dev.weft.core.spi.StepDispatcher dispatcher) {
            this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
            return this;
        }

        /** How to tell whether a process of this host still runs; the operating system's view by default. */
        public Builder processProbe(ProcessProbe processes) {
            this.processes = Objects.requireNonNull(processes, "processes");
            return this;
        }

        /** Who this runner is as a lease holder; this process, with a new runner id, by default. For tests. */
        Builder leaseOwner(LeaseOwner leaseOwner) {
            this.leaseOwner = Objects.requireNonNull(leaseOwner, "leaseOwner");
            return this;
        }

        private Builder() {}

        /**
         * How long a run stays claimed by this runner's process without renewal (renewed every third
         * of it). A run whose lease expired is taken to belong to a dead process and may be recovered.
         */
        public Builder leaseDuration(java.time.Duration leaseDuration) {
            Objects.requireNonNull(leaseDuration, "leaseDuration");
            if (leaseDuration.compareTo(java.time.Duration.ofMillis(300)) < 0) {
                throw new IllegalArgumentException("lease duration must be at least 300 ms, was " + leaseDuration);
            }
            this.leaseDuration = leaseDuration;
            return this;
        }

        public Builder store(RunStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        public Builder time(TimeSource time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** The source of retry jitter. */
        public Builder random(RandomGenerator random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /**
         * Where parallel steps and asynchronous runs' background writers run; virtual threads by
         * default. Its {@code execute} must hand the task to another thread and return, not run it
         * itself (as a {@link java.util.concurrent.ThreadPoolExecutor.CallerRunsPolicy} would): the
         * writers are started from one timer thread that all runners share.
         */
        public Builder executor(ExecutorService executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        public Builder listener(RunListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** Where new run ids come from; by default time-ordered UUIDs ({@link RunIds#next}). */
        public Builder idGenerator(Supplier<String> ids) {
            this.ids = Objects.requireNonNull(ids, "ids");
            return this;
        }

        /**
         * Whether a checkpoint is written after every step (the default). Without it, checkpoints are
         * written only when a run stops, so a crashed run cannot be recovered mid-way.
         */
        public Builder checkpointEveryStep(boolean checkpointEveryStep) {
            this.checkpointEveryStep = checkpointEveryStep;
            return this;
        }

        /**
         * When runs' writes are committed: before each node ({@link Durability#SYNC}, the default), or
         * by a background writer while the run goes on ({@link Durability#ASYNC}: faster on a durable
         * store, at the price of re-running more after a crash).
         */
        public Builder durability(Durability durability) {
            this.durability = Objects.requireNonNull(durability, "durability");
            return this;
        }

        /**
         * Under {@link Durability#ASYNC}, how long the background writer waits, once a run has writes
         * to commit, before it starts its first transaction (1 ms by default; zero starts it at once).
         * Writes made meanwhile join the same transaction, and a run that stops within the delay
         * commits all its writes itself, together with its end: fewer transactions for fast runs, at
         * the price of noticing a cancellation, and of a crash losing writes, up to the delay later.
         * It has no effect under {@link Durability#SYNC}.
         *
         * @throws IllegalArgumentException if negative or over {@value #MAX_COMMIT_DELAY_SECONDS} s
         */
        public Builder commitDelay(java.time.Duration commitDelay) {
            Objects.requireNonNull(commitDelay, "commitDelay");
            if (commitDelay.isNegative()
                    || commitDelay.compareTo(java.time.Duration.ofSeconds(MAX_COMMIT_DELAY_SECONDS)) > 0) {
                throw new IllegalArgumentException(
                        "commit delay must be between 0 and " + MAX_COMMIT_DELAY_SECONDS + " s, was " + commitDelay);
            }
            this.commitDelay = commitDelay;
            return this;
        }

        public Runner build() {
            if (executor == null) {
                executor = Executors.newVirtualThreadPerTaskExecutor();
            }
            return new Runner(this);
        }
    }
}
