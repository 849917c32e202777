package dev.weft.redis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunListener;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.core.spi.StepDispatcher;
import dev.weft.plan.PlanExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The step queue as a process that drives runs uses it (a server, the {@code weft} command): hands
 * runs' steps to the Redis stream that {@link Worker}s read, and delivers each step's outcome, once a
 * worker has stored it, to the runner that waits for it. Give it to a runner as its {@link
 * StepDispatcher} (and its {@link #events()} as a listener, to tell other servers of new events).
 *
 * <p>Outcomes come back on a Redis channel the workers announce them on; since a message on a channel
 * can be missed (Redis restarted, the subscription was down), a sweeper also looks in the store, now
 * and then, for the outcomes of the steps this process still waits for, fails those of runs someone
 * cancelled meanwhile, and queues again those whose entry Redis lost. When Redis does not answer, the
 * dispatcher says so at once (the step runs in this process, and the run's log says why) and tries
 * Redis again a moment later.
 *
 * <p>Steps queued before Redis stopped answering are taken back once it has not answered for the
 * take-back time ({@link Builder#takeBack}): each runs in this process as a worker would run it, and
 * its outcome is stored with the same compare-and-set a worker uses, so whichever of this process and
 * a worker (Redis come back with the old entry) stores first decides, and the other's outcome is
 * dropped. Thread-safe; {@link #close} stops its threads.
 */
public final class RedisSteps implements StepDispatcher, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RedisSteps.class.getName());

    private final Redis redis;
    private final RunStore store;
    private final StreamNames names;
    private final Duration sweepInterval;
    private final Duration lostAfter;
    private final Duration retryAfter;
    private final long markerSeconds;
    private final Duration takeBack;
    private final StepWork work;
    private final List<Runner> runners = new CopyOnWriteArrayList<>();
    private final List<Consumer<String>> eventWatchers = new CopyOnWriteArrayList<>();
    /** The steps this process handed to workers and waits for, by run and step order. */
    private final Map<String, Map<Integer, Tracked>> tracked = new ConcurrentHashMap<>();
    /** Runs with events committed since the publisher last told of them. */
    private final Set<String> dirty = ConcurrentHashMap.newKeySet();

    private final AtomicBoolean closed = new AtomicBoolean();
    /** While Redis is taken to be down: until when (System.nanoTime), and why. */
    private volatile long downUntil;

    private volatile String downReason = "";
    private volatile boolean down;
    /** Since when (System.nanoTime) Redis has not answered, while it does not; any answer clears it. */
    private volatile long awaySince;

    private volatile boolean away;
    /** The steps ("run/order") being run here after they were taken back, so each is run here once. */
    private final Set<String> takingBack = ConcurrentHashMap.newKeySet();

    private final Thread subscriber;
    private final Thread sweeper;
    private final Thread publisher;
    private volatile Optional<Jedis> subscription = Optional.empty();
    /**
     * Since when (System.nanoTime) the subscription to the outcomes channel has been up without a
     * break; {@link Long#MAX_VALUE} while it is down. A step tracked after that heard its announcement
     * if one was made, so the sweep need not ask the store for its outcome every time.
     */
    private volatile long subscribedSince = Long.MAX_VALUE;

    /** How long Redis may not answer before queued steps are taken back, unless told otherwise. */
    public static final Duration DEFAULT_TAKE_BACK = Duration.ofSeconds(30);

    private record Tracked(DispatchedStep step, long since) {}

    /** Queues the steps dispatched at once (a run's parallel steps, many runs') in one round trip. */
    private final Batcher<Redis.ScriptCall, Object> enqueuer;

    private RedisSteps(Builder builder) {
        this.redis = new Redis(builder.url, builder.connections);
        this.store = builder.store;
        this.names = builder.names;
        this.sweepInterval = builder.sweepInterval;
        this.lostAfter = builder.lostAfter;
        this.retryAfter = builder.retryAfter;
        this.markerSeconds = builder.markerLifetime.toSeconds();
        this.takeBack = builder.takeBack;
        this.work = new StepWork(builder.store, builder.graphs, builder.executors, builder.time, "this process");
        this.subscriber = Thread.ofVirtual().name("weft-redis-subscriber").unstarted(this::subscribe);
        this.sweeper = Thread.ofVirtual().name("weft-redis-sweeper").unstarted(this::sweepForever);
        this.publisher = Thread.ofVirtual().name("weft-redis-events").unstarted(this::publishForever);
        this.enqueuer = new Batcher<>("weft-redis-enqueuer", 256, calls -> redis.scripts(Scripts.ENQUEUE, calls));
    }

    public static Builder builder(RedisUrl url, RunStore store) {
        return new Builder(url, store);
    }

    /** Where steps go, for a person: the URL without its password, and the stream. */
    public String where() {
        return redis.url() + " (stream " + names.stream() + ")";
    }

    @Override
    public void bind(Runner runner) {
        runners.add(Objects.requireNonNull(runner, "runner"));
    }

    @Override
    public Dispatch dispatch(DispatchedStep step) {
        if (closed.get()) {
            return new Dispatch.Unavailable("the connection to Redis is closed");
        }
        if (down && System.nanoTime() < downUntil) {
            return new Dispatch.Unavailable(downReason + "; steps run in this process until it answers");
        }
        String answer;
        // Tracked before it is queued: a worker can finish it before the answer comes back, and its
        // announcement must find the step waited for.
        track(step);
        try {
            answer = (String) enqueuer.send(new Redis.ScriptCall(
                    List.of(names.stream(), names.marker(step.runId(), step.stepOrder())),
                    appendLifetime(QueueEntry.fields(step, System.currentTimeMillis()))));
        } catch (RedisUnavailableException | JedisException e) {
            untrack(step.runId(), step.stepOrder());
            wentDown(e.getMessage());
            return new Dispatch.Unavailable(downReason + "; steps run in this process until it answers");
        }
        cameBack();
        if (answer.equals("done")) {
            // Done by a worker before this process (which recovered the run) asked again.
            Thread.ofVirtual().start(() -> deliverStored(step.runId(), step.stepOrder()));
            return new Dispatch.Queued(names.stream() + ", already done by a worker");
        }
        if (answer.startsWith("queued:")) {
            return new Dispatch.Queued(names.stream() + " entry " + answer.substring(7) + " (queued before)");
        }
        return new Dispatch.Queued(names.stream() + " entry " + answer.substring(4));
    }

    private List<String> appendLifetime(List<String> fields) {
        List<String> args = new java.util.ArrayList<>(fields);
        args.add(Long.toString(markerSeconds));
        return args;
    }

    /** Whether Redis answered the last time this process asked it something. */
    public boolean redisUp() {
        return !down;
    }

    /** How many steps this process has at workers and waits for. */
    public int waiting() {
        return tracked.values().stream().mapToInt(Map::size).sum();
    }

    private void wentDown(String reason) {
        notAnswering();
        downReason = reason;
        downUntil = System.nanoTime() + retryAfter.toNanos();
        if (!down) {
            down = true;
            LOG.log(System.Logger.Level.WARNING, reason + "; new steps run in this process until it answers");
        }
    }

    private void cameBack() {
        away = false;
        if (down) {
            down = false;
            LOG.log(System.Logger.Level.INFO, "Redis at " + redis.url() + " answers again; steps go to workers");
        }
    }

    private void track(DispatchedStep step) {
        tracked.computeIfAbsent(step.runId(), id -> new ConcurrentHashMap<>())
                .put(step.stepOrder(), new Tracked(step, System.nanoTime()));
    }

    private void untrack(String runId, int order) {
        tracked.computeIfPresent(runId, (id, steps) -> {
            steps.remove(order);
            return steps.isEmpty() ? null : steps;
        });
    }

    /** Delivers the stored outcome of a step this process waits for, if there is one. */
    private void deliverStored(String runId, int order) {
        Map<Integer, Tracked> steps = tracked.get(runId);
        if (steps == null || !steps.containsKey(order)) {
            return;
        }
        Optional<JsonNode> outcome;
        try {
            outcome = Outcomes.stored(store, runId, order);
        } catch (RuntimeException e) {
            // The store is briefly unreachable: the sweeper looks again.
            return;
        }
        outcome.ifPresent(o -> deliver(runId, order, o));
    }

    private void deliverIfTracked(String runId, int order, JsonNode outcome) {
        Map<Integer, Tracked> steps = tracked.get(runId);
        if (steps != null && steps.containsKey(order)) {
            deliver(runId, order, outcome);
        }
    }

    private void deliver(String runId, int order, JsonNode outcome) {
        untrack(runId, order);
        for (Runner runner : runners) {
            if (runner.deliver(runId, order, outcome)) {
                return;
            }
        }
    }

    /**
     * A listener for the runner: tells other processes (through Redis) of each run with newly
     * committed events, so that their streams of it show them at once.
     */
    public RunListener events() {
        return this::committed;
    }

    private void committed(Event event) {
        if (dirty.add(event.runId())) {
            LockSupport.unpark(publisher);
        }
    }

    /** Calls {@code watcher} with the id of each run another process (or this one) committed events of. */
    public RedisSteps onRunEvents(Consumer<String> watcher) {
        eventWatchers.add(Objects.requireNonNull(watcher, "watcher"));
        return this;
    }

    private void publishForever() {
        while (!closed.get()) {
            if (dirty.isEmpty()) {
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
                continue;
            }
            List<String> runs = List.copyOf(dirty);
            dirty.removeAll(runs);
            if (down && System.nanoTime() < downUntil) {
                continue;
            }
            try {
                redis.call(jedis -> {
                    try (var pipeline = jedis.pipelined()) {
                        runs.forEach(run -> pipeline.publish(names.events(), run));
                        pipeline.sync();
                    }
                    return null;
                });
            } catch (RuntimeException e) {
                // Other servers' streams look at the store now and then anyway.
            }
        }
    }

    private void subscribe() {
        boolean missed = false;
        while (!closed.get()) {
            try (Jedis jedis = redis.dedicated()) {
                subscription = Optional.of(jedis);
                if (missed) {
                    // Outcomes announced while the subscription was down were missed: look for them.
                    Thread.ofVirtual().start(() -> sweep(true));
                }
                jedis.subscribe(
                        new JedisPubSub() {
                            @Override
                            public void onSubscribe(String channel, int subscribedChannels) {
                                if (channel.equals(names.outcomes())) {
                                    subscribedSince = System.nanoTime();
                                }
                            }

                            @Override
                            public void onMessage(String channel, String message) {
                                heard(channel, message);
                            }
                        },
                        names.outcomes(),
                        names.events());
            } catch (RuntimeException e) {
                missed = true;
                notAnswering();
            } finally {
                subscribedSince = Long.MAX_VALUE;
                subscription = Optional.empty();
            }
            if (!closed.get()) {
                sleep(retryAfter);
            }
        }
    }

    private void heard(String channel, String message) {
        if (channel.equals(names.events())) {
            for (Consumer<String> watcher : eventWatchers) {
                try {
                    watcher.accept(message);
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "a run event watcher failed", e);
                }
            }
            return;
        }
        Optional<Outcomes.Announced> heard = Outcomes.announced(message);
        if (heard.isEmpty()) {
            return;
        }
        String runId = heard.get().runId();
        int order = heard.get().order();
        Map<Integer, Tracked> steps = tracked.get(runId);
        if (steps != null && steps.containsKey(order)) {
            // The announcement carries the stored outcome (the one the worker's compare-and-set kept),
            // so the store need not be asked; one too large to carry is read from the store.
            Optional<JsonNode> stored = heard.get().stored();
            Thread.ofVirtual()
                    .start(() -> stored.ifPresentOrElse(
                            outcome -> deliverIfTracked(runId, order, outcome), () -> deliverStored(runId, order)));
        }
    }

    private void sweepForever() {
        while (!closed.get()) {
            sleep(sweepInterval);
            try {
                sweep(false);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "sweeping queued steps failed; trying again", e);
            }
        }
    }

    /**
     * Looks after the steps this process has waited for longer than a sweep ({@code all}: every one):
     * delivers the outcomes stored meanwhile, fails the steps of runs that were cancelled, and queues
     * again those whose entry Redis lost.
     */
    void sweep(boolean all) {
        long now = System.nanoTime();
        boolean takingBackNow = !tracked.isEmpty() && awayLongerThanTakeBack();
        for (Map.Entry<String, Map<Integer, Tracked>> run : tracked.entrySet()) {
            String runId = run.getKey();
            Boolean cancelled = null;
            for (Tracked step : List.copyOf(run.getValue().values())) {
                long age = now - step.since();
                if (!all && age < sweepInterval.toNanos()) {
                    continue;
                }
                int order = step.step().stepOrder();
                // A step tracked while the subscription has been up heard its announcement if there
                // was one: its outcome is looked for in the store only once it is old enough to be lost
                // (then, as a safety net, at each sweep). One query per waiting step and sweep cost
                // more than the steps' own round trips when thousands wait.
                boolean announcementHeard = !all && step.since() >= subscribedSince;
                if (!announcementHeard || age > lostAfter.toNanos()) {
                    Optional<JsonNode> outcome = Outcomes.stored(store, runId, order);
                    if (outcome.isPresent()) {
                        deliver(runId, order, outcome.get());
                        continue;
                    }
                }
                if (cancelled == null) {
                    cancelled = store.isCancelRequested(runId);
                }
                if (cancelled) {
                    JsonNode stopped = Outcomes.save(
                            store,
                            runId,
                            order,
                            StepDispatcher.failed(
                                    ErrorCode.E_CANCELLED,
                                    "the run was cancelled while the step was queued for a worker"));
                    deliver(runId, order, stopped);
                    continue;
                }
                if (takingBackNow) {
                    takeBack(step.step());
                    continue;
                }
                if (age > lostAfter.toNanos() && !(down && System.nanoTime() < downUntil)) {
                    requeueIfLost(step.step());
                }
            }
        }
    }

    /** Notes that Redis did not answer: from the first time it did not, until it answers again. */
    private void notAnswering() {
        if (!away) {
            awaySince = System.nanoTime();
            away = true;
        }
    }

    /** Asks Redis whether it answers; true if it has not answered for the take-back time. */
    private boolean awayLongerThanTakeBack() {
        try {
            redis.call(jedis -> jedis.ping());
            away = false;
            return false;
        } catch (RuntimeException e) {
            notAnswering();
            return System.nanoTime() - awaySince >= takeBack.toNanos();
        }
    }

    /**
     * Runs here a step queued for workers while Redis does not answer, once per process: its outcome is
     * stored unless one is (a worker's, stored first, wins), then delivered.
     */
    private void takeBack(DispatchedStep step) {
        String key = step.runId() + "/" + step.stepOrder();
        if (!takingBack.add(key)) {
            return;
        }
        Thread.ofVirtual().name("weft-redis-takeback").start(() -> {
            try {
                runHere(step);
            } catch (RuntimeException e) {
                // The store did not answer either: the next sweep takes the step back again.
                LOG.log(System.Logger.Level.WARNING, "running a taken-back step here failed; trying again", e);
            } finally {
                takingBack.remove(key);
            }
        });
    }

    private void runHere(DispatchedStep step) {
        String runId = step.runId();
        int order = step.stepOrder();
        Optional<JsonNode> stored = Outcomes.stored(store, runId, order);
        if (stored.isPresent()) {
            deliver(runId, order, stored.get());
            return;
        }
        Optional<Run> run = store.findRun(runId);
        if (run.isEmpty() || run.get().status().isFinished()) {
            untrack(runId, order);
            return;
        }
        String reason = "Redis at " + redis.url() + " has not answered for " + takeBack.toMillis()
                + " ms; the step was taken back from the queue and run in this process";
        LOG.log(System.Logger.Level.WARNING, "step " + order + " of run " + runId + ": " + reason);
        JsonNode outcome = store.isCancelRequested(runId)
                ? StepDispatcher.failed(
                        ErrorCode.E_CANCELLED, "the run was cancelled while the step was queued for a worker")
                : work.run(run.get(), order, step.nodeId(), step.kind(), step.work());
        ObjectNode noted = outcome.deepCopy();
        ArrayNode events = Json.mapper().createArrayNode();
        ObjectNode takenBack = events.addObject();
        takenBack.put("type", Event.STEP_TAKEN_BACK);
        takenBack.putObject("data").put("reason", reason);
        noted.path("events").forEach(events::add);
        noted.set("events", events);
        // Compare-and-set: a worker that ran the step's entry and stored its outcome first wins.
        deliver(runId, order, Outcomes.save(store, runId, order, noted));
    }

    /** Queues a step again if Redis no longer knows it (it restarted without its data). */
    private void requeueIfLost(DispatchedStep step) {
        boolean known;
        try {
            known = redis.call(jedis -> jedis.exists(names.marker(step.runId(), step.stepOrder())));
        } catch (RuntimeException e) {
            return;
        }
        if (!known) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "step " + step.stepOrder() + " of run " + step.runId() + " was lost by Redis; queueing it again");
            Dispatch again = dispatch(step);
            if (again instanceof Dispatch.Unavailable) {
                track(step);
            }
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Starts the subscription, the sweeper and the publisher (the builder does). */
    private RedisSteps start() {
        subscriber.start();
        sweeper.start();
        publisher.start();
        return this;
    }

    /** Stops the threads and closes the connections; steps still at workers are left for their outcome. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        subscription.ifPresent(jedis -> {
            try {
                jedis.disconnect();
            } catch (RuntimeException e) {
                // already gone
            }
        });
        subscriber.interrupt();
        sweeper.interrupt();
        LockSupport.unpark(publisher);
        enqueuer.close();
        redis.close();
    }

    /** Builds a {@link RedisSteps}; every setter rejects a bad value at once. */
    public static final class Builder {
        private final RedisUrl url;
        private final RunStore store;
        private StreamNames names = StreamNames.DEFAULT;
        private Duration sweepInterval = Duration.ofSeconds(1);
        private Duration lostAfter = Duration.ofSeconds(10);
        private Duration retryAfter = Duration.ofSeconds(1);
        private Duration markerLifetime = Duration.ofDays(1);
        private int connections = 64;
        private Duration takeBack = DEFAULT_TAKE_BACK;
        private Function<Run, Optional<Graph>> graphs = run -> Optional.empty();
        private Function<String, Optional<PlanExecutor>> executors = name -> Optional.empty();
        private TimeSource time = TimeSource.system();

        private Builder(RedisUrl url, RunStore store) {
            this.url = Objects.requireNonNull(url, "url");
            this.store = Objects.requireNonNull(store, "store");
        }

        /** The keys and channels to use (default: under {@code weft}); workers must use the same. */
        public Builder names(StreamNames names) {
            this.names = Objects.requireNonNull(names, "names");
            return this;
        }

        /** How often to look in the store for outcomes missed on the channel (default 1 s). */
        public Builder sweepInterval(Duration interval) {
            this.sweepInterval = positive(interval, "sweep interval");
            return this;
        }

        /** After how long a step whose entry Redis no longer knows is queued again (default 10 s). */
        public Builder lostAfter(Duration lostAfter) {
            this.lostAfter = positive(lostAfter, "lost-after");
            return this;
        }

        /** How long to run steps here after Redis failed to answer, before asking it again (default 1 s). */
        public Builder retryAfter(Duration retryAfter) {
            this.retryAfter = positive(retryAfter, "retry-after");
            return this;
        }

        /** How long a step's marker outlives its outcome, against queueing a recovered step again (default 1 day). */
        public Builder markerLifetime(Duration lifetime) {
            this.markerLifetime = positive(lifetime, "marker lifetime");
            if (lifetime.toSeconds() < 1) {
                throw new IllegalArgumentException("marker lifetime must be at least 1 s, was " + lifetime);
            }
            return this;
        }

        /**
         * How long Redis may not answer before the steps queued for workers are taken back and run in
         * this process (default 30 s: {@code WEFT_REDIS_TAKEBACK}).
         */
        public Builder takeBack(Duration takeBack) {
            this.takeBack = positive(takeBack, "take-back");
            return this;
        }

        /** How to rebuild a run's graph, for queued workflow nodes taken back (as a worker's). */
        public Builder graphs(Function<Run, Optional<Graph>> graphs) {
            this.graphs = Objects.requireNonNull(graphs, "graphs");
            return this;
        }

        /** The plan executor of a name, for plan steps taken back (as a worker's). */
        public Builder executors(Function<String, Optional<PlanExecutor>> executors) {
            this.executors = Objects.requireNonNull(executors, "executors");
            return this;
        }

        /** The time the steps taken back see. */
        public Builder time(TimeSource time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** The most connections to Redis at once (default 64). */
        public Builder connections(int connections) {
            if (connections < 2) {
                throw new IllegalArgumentException("connections must be at least 2, was " + connections);
            }
            this.connections = connections;
            return this;
        }

        private static Duration positive(Duration duration, String what) {
            Objects.requireNonNull(duration, what);
            if (duration.isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(what + " must be positive, was " + duration);
            }
            return duration;
        }

        /** Connects (lazily: a Redis that does not answer yet is tried again at each step) and starts. */
        public RedisSteps build() {
            return new RedisSteps(this).start();
        }
    }
}
