package dev.weft.redis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Graph;
import dev.weft.core.Run;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.core.spi.StepDispatcher;
import dev.weft.plan.PlanExecutor;
import dev.weft.store.ProcessHousekeeping;
import io.opentelemetry.api.OpenTelemetry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import redis.clients.jedis.Response;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.params.XAutoClaimParams;
import redis.clients.jedis.params.XClaimParams;
import redis.clients.jedis.params.XPendingParams;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamEntry;
import redis.clients.jedis.resps.StreamPendingEntry;

/**
 * A worker: reads queued steps from the Redis stream through the consumer group, at most {@code
 * concurrency} at a time, runs each (a plan step's tool calls through its executor, a queued node
 * through its run's rebuilt graph), stores its outcome in the run store once (compare-and-set: a
 * late or second outcome never replaces the first), then acknowledges the entry and announces the
 * outcome. Before it runs an entry it looks for a stored outcome, so an entry delivered twice is run
 * once.
 *
 * <p>An entry a worker took and did not finish within the lease (the worker died) is claimed by
 * another ({@code XAUTOCLAIM}) and run again with the same idempotency key; one delivered more than
 * {@code maxTries} times goes to the dead-letter stream, and its step fails with {@code
 * E_DEAD_LETTER}. An entry that is not a step (malformed, or of a run the store does not have) is
 * dead-lettered at once with the reason. While Redis does not answer the worker waits for it; outcomes
 * it stored meanwhile are acknowledged when it is back. {@link #stop} stops it gracefully: no new
 * entries, those in hand finish within the grace, and what does not is handed back for another worker
 * at once. Thread-safe.
 */
public final class Worker implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Worker.class.getName());

    private final Redis redis;
    private final RunStore store;
    private final StreamNames names;
    private final StepWork work;
    private final int concurrency;
    private final Duration lease;
    private final int maxTries;
    private final String consumer;
    private final Consumer<String> log;
    private final boolean verbose;
    private final long markerSeconds;
    private final WorkerMetrics metrics;

    private final Semaphore slots;
    private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
    /** The locks of the steps this worker runs now, kept alive while it does. */
    private final Set<String> locks = ConcurrentHashMap.newKeySet();
    /** Entries whose outcome is stored but that Redis could not be told of (it was away): told when it is back. */
    private final Queue<Finish> unfinished = new ConcurrentLinkedQueue<>();

    private final AtomicLong done = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong deadLettered = new AtomicLong();
    private final AtomicLong claimed = new AtomicLong();
    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private volatile boolean redisUp = true;
    private volatile long queueWaiting;
    private volatile long queueInProgress;
    private volatile long lastAnswer = System.nanoTime();
    private final Thread reader;
    private final Thread keeper;
    private final Map<String, String> environment;
    private volatile ProcessHousekeeping.Part housekeeping = () -> {};

    /** An entry being run here: its thread, and whether it was handed back (then its outcome is not kept). */
    private record InFlight(Thread thread, AtomicBoolean handedBack) {}

    /**
     * The end of an entry whose outcome is stored: what {@link Scripts#FINISH} needs, with the
     * announcement it publishes ({@link Outcomes#announcement}).
     */
    private record Finish(String id, String runId, int order, String announcement) {}

    /** Sends the ends of entries that finish at once in one round trip (group commit). */
    private final Batcher<Finish, Object> finisher;

    private Worker(Builder builder) {
        this.redis = new Redis(builder.url, builder.concurrency + 8);
        this.store = builder.store;
        this.names = builder.names;
        this.concurrency = builder.concurrency;
        this.lease = builder.lease;
        this.maxTries = builder.maxTries;
        this.consumer = builder.consumer;
        this.work = new StepWork(builder.store, builder.graphs, builder.executors, builder.time, "worker " + consumer);
        this.log = builder.log;
        this.verbose = builder.verbose;
        this.markerSeconds = builder.markerLifetime.toSeconds();
        this.slots = new Semaphore(concurrency);
        this.metrics = new WorkerMetrics(builder.openTelemetry, this);
        this.reader = Thread.ofVirtual().name("weft-worker-reader").unstarted(this::readForever);
        this.keeper = Thread.ofVirtual().name("weft-worker-keeper").unstarted(this::keepForever);
        this.environment = builder.environment;
        this.finisher = new Batcher<>("weft-worker-finisher", 256, this::sendFinishes);
    }

    public static Builder builder(RedisUrl url, RunStore store) {
        return new Builder(url, store);
    }

    /** This worker's name in the consumer group. */
    public String consumer() {
        return consumer;
    }

    /** Where it reads, for a person: the URL without its password, and the stream. */
    public String where() {
        return redis.url() + " (stream " + names.stream() + ", group " + names.group() + ")";
    }

    /** What it is doing now. */
    public WorkerStatus status() {
        return new WorkerStatus(
                consumer,
                running.get(),
                redisUp,
                concurrency,
                inFlight.size(),
                done.get(),
                failed.get(),
                deadLettered.get(),
                claimed.get(),
                queueWaiting,
                queueInProgress);
    }

    /** Whether Redis and the store answer: what {@code /readyz} reports. */
    public Optional<String> unready() {
        if (!running.get()) {
            return Optional.of(stopped.get() ? "the worker has stopped" : "the worker has not started");
        }
        if (!redisUp) {
            return Optional.of("Redis at " + redis.url() + " is not answering");
        }
        try {
            store.isCancelRequested("weft-readiness-probe");
        } catch (RuntimeException e) {
            return Optional.of("the store is not answering: " + e.getMessage());
        }
        return Optional.empty();
    }

    /**
     * Starts reading; Redis need not answer yet (the worker waits for it). While it runs, the process
     * takes part in the housekeeping of the store ({@link ProcessHousekeeping}): where only workers run,
     * finished rows are pruned all the same.
     *
     * @throws dev.weft.core.WeftException {@code E_BAD_INPUT} for a housekeeping setting that is not a duration
     */
    public Worker start() {
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("the worker is already started");
        }
        housekeeping = ProcessHousekeeping.join(store, environment, "weft-worker-" + consumer, log);
        reader.start();
        keeper.start();
        return this;
    }

    private void ensureGroup() {
        redis.call(jedis -> {
            try {
                // From the stream's start: entries queued before any worker made the group are read too.
                jedis.xgroupCreate(names.stream(), names.group(), new StreamEntryID(0, 0), true);
            } catch (JedisDataException e) {
                if (e.getMessage() == null || !e.getMessage().startsWith("BUSYGROUP")) {
                    throw e;
                }
            }
            return null;
        });
    }

    /**
     * The reading loop: takes the free slots, claims abandoned entries into them every third of the
     * lease, reads new entries into the rest, and launches each at once (so every entry this worker
     * holds is being run, and touched). One thread claims and reads, so the two never compete for
     * slots.
     */
    private void readForever() {
        boolean grouped = false;
        long claimPeriod = TimeUnit.MILLISECONDS.toNanos(Math.max(100, lease.toMillis() / 3));
        long nextClaim = System.nanoTime() + claimPeriod;
        while (running.get()) {
            try {
                if (!slots.tryAcquire(200, TimeUnit.MILLISECONDS)) {
                    continue;
                }
            } catch (InterruptedException e) {
                return;
            }
            int taken = 1 + slots.drainPermits();
            int used = 0;
            try {
                if (!grouped) {
                    ensureGroup();
                    grouped = true;
                }
                if (System.nanoTime() >= nextClaim) {
                    used += claimAbandoned(taken);
                    nextClaim = System.nanoTime() + claimPeriod;
                }
                int room = taken - used;
                if (room > 0) {
                    int block = (int) Math.max(1, Math.min(1000, (nextClaim - System.nanoTime()) / 1_000_000));
                    List<Map.Entry<String, List<StreamEntry>>> read = redis.call(jedis -> jedis.xreadGroup(
                            names.group(),
                            consumer,
                            XReadGroupParams.xReadGroupParams().count(room).block(block),
                            Map.of(names.stream(), StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY)));
                    if (read != null) {
                        List<StreamEntry> entries = read.stream()
                                .flatMap(stream -> stream.getValue().stream())
                                .toList();
                        Set<String> locked = lockAll(entries);
                        for (StreamEntry entry : entries) {
                            boolean lockHeld = locked.contains(entry.getID().toString());
                            if (used < taken && launch(entry, false, lockHeld)) {
                                used++;
                            } else if (lockHeld) {
                                unlock(entry.getFields());
                            }
                        }
                    }
                }
                answered();
            } catch (JedisDataException e) {
                if (e.getMessage() != null && e.getMessage().startsWith("NOGROUP")) {
                    grouped = false;
                } else {
                    LOG.log(System.Logger.Level.WARNING, "reading the stream failed", e);
                    pause();
                }
            } catch (RuntimeException e) {
                notAnswering(e);
                grouped = false;
                pause();
            } finally {
                slots.release(taken - used);
            }
        }
    }

    private void answered() {
        lastAnswer = System.nanoTime();
        if (!redisUp) {
            redisUp = true;
            log.accept("Redis at " + redis.url() + " answers again");
        }
    }

    private void notAnswering(RuntimeException e) {
        if (redisUp && running.get()) {
            redisUp = false;
            log.accept((e instanceof WeftException ? e.getMessage() : "Redis at " + redis.url() + " failed: " + e)
                    + "; trying again every second");
        }
    }

    private void pause() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Takes the locks of the steps of entries read together, in one round trip: the ids of the entries
     * whose step's lock this worker now holds. An entry whose lock another holds (a second entry of
     * the same step), or that is not a step, takes it on its own thread, as before; so does every
     * entry if Redis failed to answer here.
     */
    private Set<String> lockAll(List<StreamEntry> entries) {
        List<StreamEntry> steps = entries.stream()
                .filter(entry ->
                        QueueEntry.read(entry.getID().toString(), entry.getFields()) instanceof QueueEntry.Read.Good)
                .toList();
        if (steps.isEmpty()) {
            return Set.of();
        }
        List<String> keys =
                steps.stream().map(entry -> lockKey(entry.getFields())).toList();
        List<String> answers;
        try {
            answers = redis.call(jedis -> {
                try (var pipeline = jedis.pipelined()) {
                    List<Response<String>> taken = keys.stream()
                            .map(key -> pipeline.set(
                                    key, consumer, SetParams.setParams().nx().px(lease.toMillis())))
                            .toList();
                    pipeline.sync();
                    return taken.stream().map(Response::get).toList();
                }
            });
        } catch (RuntimeException e) {
            return Set.of();
        }
        Set<String> locked = new java.util.HashSet<>();
        for (int i = 0; i < steps.size(); i++) {
            if ("OK".equals(answers.get(i))) {
                locks.add(keys.get(i));
                locked.add(steps.get(i).getID().toString());
            }
        }
        return locked;
    }

    private String lockKey(Map<String, String> fields) {
        return names.running(fields.get("run"), Integer.parseInt(fields.get("step")));
    }

    private void unlock(Map<String, String> fields) {
        release(lockKey(fields));
    }

    /**
     * Runs {@code entry} on a thread of its own, holding a slot; false if it is being run here
     * already. {@code lockHeld}: the reader took its step's lock already.
     */
    private boolean launch(StreamEntry entry, boolean wasClaimed, boolean lockHeld) {
        String id = entry.getID().toString();
        AtomicBoolean handedBack = new AtomicBoolean();
        Thread thread = Thread.ofVirtual().name("weft-worker-" + id).unstarted(() -> {
            try {
                process(id, entry.getFields(), wasClaimed, lockHeld, handedBack);
            } finally {
                inFlight.remove(id);
                slots.release();
            }
        });
        if (inFlight.putIfAbsent(id, new InFlight(thread, handedBack)) != null) {
            return false;
        }
        thread.start();
        return true;
    }

    private void process(
            String id, Map<String, String> fields, boolean wasClaimed, boolean lockHeld, AtomicBoolean handedBack) {
        long started = System.nanoTime();
        try {
            switch (QueueEntry.read(id, fields)) {
                case QueueEntry.Read.Bad bad ->
                    deadLetter(
                            id,
                            fields,
                            "not a step: " + bad.reason(),
                            bad.runId(),
                            bad.order(),
                            Optional.of(StepDispatcher.failed(
                                    ErrorCode.E_BAD_INPUT,
                                    "its queue entry " + id + " is malformed (" + bad.reason() + "); moved to "
                                            + names.deadLetters())));
                case QueueEntry.Read.Good good -> run(good.entry(), fields, wasClaimed, lockHeld, handedBack, started);
            }
        } catch (RuntimeException | Error e) {
            // Left unacknowledged: claimed again after the lease, and dead-lettered after the last try.
            failed.incrementAndGet();
            metrics.finished("error", started);
            log.accept("entry " + id + " failed on this worker: " + e + "; it will be tried again after the lease");
        }
    }

    private void run(
            QueueEntry entry,
            Map<String, String> fields,
            boolean wasClaimed,
            boolean lockHeld,
            AtomicBoolean handedBack,
            long started) {
        String step = "step " + entry.order() + " (" + entry.nodeId() + ") of run " + entry.runId();
        if (!lockHeld) {
            Optional<JsonNode> storedMeanwhile = lockOrStored(entry, handedBack);
            if (storedMeanwhile.isPresent()) {
                // Run by another entry of the same step meanwhile: its outcome is stored.
                finish(entry.id(), entry.runId(), entry.order(), storedMeanwhile);
                return;
            }
        }
        // Read once the lock is held, in one round trip: an outcome stored before then (a worker died
        // before it acknowledged the entry, or a second entry of the step ran first) is final.
        RunStore.QueuedStepState state;
        try {
            state = store.queuedStepState(entry.runId(), Outcomes.key(entry.runId(), entry.order()));
        } catch (RuntimeException | Error e) {
            unlock(entry);
            throw e;
        }
        if (state.stored().isPresent()) {
            finish(entry.id(), entry.runId(), entry.order(), state.stored());
            if (verbose) {
                log.accept(step + ": already done; acknowledged");
            }
            return;
        }
        if (state.run().isEmpty()) {
            deadLetter(
                    entry.id(),
                    fields,
                    "no run '" + entry.runId() + "' in the store",
                    Optional.of(entry.runId()),
                    Optional.of(entry.order()),
                    Optional.empty());
            return;
        }
        Run run = state.run().get();
        if (run.status().isFinished()) {
            finish(entry.id(), entry.runId(), entry.order(), Optional.empty());
            if (verbose) {
                log.accept(step + ": its run is " + run.status() + "; skipped");
            }
            return;
        }
        if (verbose) {
            log.accept(step + ": running" + (wasClaimed ? " (claimed from a worker that stopped)" : ""));
        }
        JsonNode outcome;
        try {
            outcome = state.cancelRequested()
                    ? StepDispatcher.failed(ErrorCode.E_CANCELLED, "the run was cancelled before a worker ran the step")
                    : execute(entry, run);
        } catch (RuntimeException | Error e) {
            unlock(entry);
            throw e;
        }
        if (handedBack.get()) {
            return;
        }
        JsonNode kept = Outcomes.save(store, entry.runId(), entry.order(), outcome);
        // Counted before it is announced: the process that hears the announcement may finish the run
        // at once, and whoever then asks this worker what it did must find the step counted.
        boolean ok = isSuccess(kept);
        (ok ? done : failed).incrementAndGet();
        metrics.finished(ok ? "completed" : "failed", started);
        finish(entry.id(), entry.runId(), entry.order(), Optional.of(kept));
        if (verbose) {
            log.accept(step + ": "
                    + (ok
                            ? "done"
                            : "failed: " + kept.path("error").path("message").asText()) + " in "
                    + (System.nanoTime() - started) / 1_000_000 + " ms");
        }
    }

    /**
     * Takes the step's lock, waiting while another worker holds it (a second entry of the same step):
     * empty once this worker holds it, the step's outcome if it was stored while it waited.
     */
    private Optional<JsonNode> lockOrStored(QueueEntry entry, AtomicBoolean handedBack) {
        String key = names.running(entry.runId(), entry.order());
        while (!handedBack.get()) {
            String taken = redis.call(
                    jedis -> jedis.set(key, consumer, SetParams.setParams().nx().px(lease.toMillis())));
            if ("OK".equals(taken)) {
                locks.add(key);
                return Optional.empty();
            }
            Optional<JsonNode> stored = Outcomes.stored(store, entry.runId(), entry.order());
            if (stored.isPresent()) {
                return stored;
            }
            try {
                Thread.sleep(Math.min(200, lease.toMillis() / 3));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while another worker ran the same step", e);
            }
        }
        throw new IllegalStateException("handed back while waiting for the step's lock");
    }

    /** Lets go of the step's lock after a failure, so that its next try need not wait out the lease. */
    private void unlock(QueueEntry entry) {
        release(names.running(entry.runId(), entry.order()));
    }

    private void release(String key) {
        locks.remove(key);
        try {
            redis.call(jedis -> jedis.del(key));
        } catch (RuntimeException e) {
            // It expires with the lease.
        }
    }

    /** Whether an outcome is a success: no error, and no failed call in a plan step's value. */
    private static boolean isSuccess(JsonNode outcome) {
        if (outcome.has("error")) {
            return false;
        }
        for (JsonNode call : outcome.path("value").path("calls")) {
            if (call.has("error")) {
                return false;
            }
        }
        return true;
    }

    private JsonNode execute(QueueEntry entry, Run run) {
        return work.run(run, entry.order(), entry.nodeId(), entry.kind(), entry.work());
    }

    /**
     * Acknowledges a done entry, marks its step done and announces it with its stored outcome ({@code
     * stored}, when the worker has it); later if Redis is away. Entries that finish together go in one
     * round trip.
     */
    private void finish(String id, String runId, int order, Optional<JsonNode> stored) {
        Finish finish = new Finish(id, runId, order, Outcomes.announcement(runId, order, stored));
        try {
            finisher.send(finish);
        } catch (RuntimeException e) {
            notAnswering(e);
            unfinished.add(finish);
        } finally {
            locks.remove(names.running(runId, order));
        }
    }

    private void runFinish(Finish finish) {
        if (sendFinishes(List.of(finish)).get(0) instanceof RuntimeException failure) {
            throw failure;
        }
    }

    /** One pipeline of {@link Scripts#FINISH}, one call per entry: the answer or failure of each. */
    private List<Object> sendFinishes(List<Finish> finishes) {
        return redis.scripts(
                Scripts.FINISH,
                finishes.stream()
                        .map(finish -> new Redis.ScriptCall(
                                List.of(
                                        names.stream(),
                                        names.marker(finish.runId(), finish.order()),
                                        names.running(finish.runId(), finish.order())),
                                List.of(
                                        names.group(),
                                        finish.id(),
                                        Long.toString(markerSeconds),
                                        names.outcomes(),
                                        finish.announcement())))
                        .toList());
    }

    private void deadLetter(
            String id,
            Map<String, String> fields,
            String reason,
            Optional<String> runId,
            Optional<Integer> order,
            Optional<JsonNode> outcome) {
        if (runId.isPresent() && order.isPresent() && outcome.isPresent()) {
            Outcomes.save(store, runId.get(), order.get(), outcome.get());
        }
        List<String> args = new ArrayList<>(List.of(
                names.group(),
                id,
                Long.toString(markerSeconds),
                names.outcomes(),
                runId.orElse("") + " " + order.map(String::valueOf).orElse("")));
        QueueEntry.deadLetter(id, fields, reason, consumer).forEach((name, value) -> {
            args.add(name);
            args.add(value);
        });
        boolean step = runId.isPresent() && order.isPresent();
        String marker = step ? names.marker(runId.get(), order.get()) : "";
        String lock = step ? names.running(runId.get(), order.get()) : "";
        redis.call(jedis -> Redis.script(
                jedis, Scripts.DEAD_LETTER, List.of(names.stream(), marker, names.deadLetters(), lock), args));
        if (step) {
            locks.remove(lock);
        }
        deadLettered.incrementAndGet();
        metrics.deadLettered();
        log.accept("entry " + id + " moved to " + names.deadLetters() + ": " + reason);
    }

    /** Touches, finishes leftovers and counts the queue, every third of the lease. */
    private void keepForever() {
        long period = Math.max(100, lease.toMillis() / 3);
        while (running.get()) {
            try {
                Thread.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
            try {
                touch();
                Finish leftover;
                while ((leftover = unfinished.peek()) != null) {
                    runFinish(leftover);
                    unfinished.poll();
                }
                count();
                answered();
            } catch (JedisDataException e) {
                LOG.log(System.Logger.Level.DEBUG, "keeping the worker's entries failed", e);
            } catch (RuntimeException e) {
                notAnswering(e);
            }
        }
    }

    /** Resets the idle time of the entries being run here, so no other worker takes them for abandoned. */
    private void touch() {
        List<StreamEntryID> ids = inFlight.entrySet().stream()
                .filter(e -> !e.getValue().handedBack().get())
                .map(e -> new StreamEntryID(e.getKey()))
                .toList();
        List<String> held = List.copyOf(locks);
        if (!held.isEmpty()) {
            redis.call(jedis -> {
                try (var pipeline = jedis.pipelined()) {
                    held.forEach(key -> pipeline.pexpire(key, lease.toMillis()));
                    pipeline.sync();
                }
                return null;
            });
        }
        if (!ids.isEmpty()) {
            redis.call(jedis -> jedis.xclaimJustId(
                    names.stream(),
                    names.group(),
                    consumer,
                    0,
                    XClaimParams.xClaimParams(),
                    ids.toArray(StreamEntryID[]::new)));
        }
    }

    /**
     * Takes over entries other workers took and did not finish within the lease, at most {@code room}
     * of them (slots the caller holds), and launches them; returns how many it launched.
     */
    private int claimAbandoned(int room) {
        int launched = 0;
        StreamEntryID cursor = new StreamEntryID(0, 0);
        while (running.get() && launched < room) {
            int count = room - launched;
            StreamEntryID from = cursor;
            Map.Entry<StreamEntryID, List<StreamEntry>> page = redis.call(jedis -> jedis.xautoclaim(
                    names.stream(),
                    names.group(),
                    consumer,
                    lease.toMillis(),
                    from,
                    XAutoClaimParams.xAutoClaimParams().count(count)));
            for (StreamEntry entry : page.getValue()) {
                if (entry.getFields() == null) {
                    continue;
                }
                claimed.incrementAndGet();
                long deliveries = deliveries(entry.getID());
                if (deliveries > maxTries) {
                    giveUp(entry, deliveries);
                } else if (launched < room && launch(entry, true, false)) {
                    launched++;
                    log.accept("claimed entry " + entry.getID() + " (step "
                            + entry.getFields().get("step")
                            + " of run " + entry.getFields().get("run") + ") from a worker that stopped; try "
                            + deliveries + " of " + maxTries);
                }
            }
            cursor = page.getKey();
            if (cursor == null
                    || cursor.equals(new StreamEntryID(0, 0))
                    || page.getValue().isEmpty()) {
                break;
            }
        }
        return launched;
    }

    private long deliveries(StreamEntryID id) {
        List<StreamPendingEntry> pending = redis.call(
                jedis -> jedis.xpending(names.stream(), names.group(), XPendingParams.xPendingParams(id, id, 1)));
        return pending.isEmpty() ? 1 : pending.get(0).getDeliveredTimes();
    }

    private void giveUp(StreamEntry entry, long deliveries) {
        String id = entry.getID().toString();
        Map<String, String> fields = entry.getFields();
        QueueEntry.Read read = QueueEntry.read(id, fields);
        Optional<String> runId = read instanceof QueueEntry.Read.Good good
                ? Optional.of(good.entry().runId())
                : ((QueueEntry.Read.Bad) read).runId();
        Optional<Integer> order = read instanceof QueueEntry.Read.Good good
                ? Optional.of(good.entry().order())
                : ((QueueEntry.Read.Bad) read).order();
        String node = fields.getOrDefault("node", "?");
        String reason = "taken by workers " + deliveries + " times and never finished (at most " + maxTries + ")";
        deadLetter(
                id,
                fields,
                reason,
                runId,
                order,
                Optional.of(StepDispatcher.failed(
                        ErrorCode.E_DEAD_LETTER,
                        "node '" + node + "': workers took its queue entry " + id + " " + deliveries
                                + " times and never finished it; it was moved to the dead-letter stream "
                                + names.deadLetters())));
    }

    private void count() {
        long length = redis.call(jedis -> jedis.xlen(names.stream()));
        long pending = redis.call(jedis -> {
            try {
                return jedis.xpending(names.stream(), names.group()).getTotal();
            } catch (JedisDataException e) {
                return 0L;
            }
        });
        queueInProgress = pending;
        queueWaiting = Math.max(0, length - pending);
    }

    /**
     * Stops gracefully: reads no more; waits up to {@code grace} for the entries in hand, and hands
     * the rest back (another worker claims them at once, and their outcome here is not kept).
     *
     * @return how many entries were handed back
     */
    public int stop(Duration grace) {
        if (!running.compareAndSet(true, false)) {
            return 0;
        }
        reader.interrupt();
        long deadline = System.nanoTime() + grace.toNanos();
        while (!inFlight.isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        List<String> left = List.copyOf(inFlight.keySet());
        int handed = 0;
        if (!left.isEmpty()) {
            left.forEach(id -> Optional.ofNullable(inFlight.get(id))
                    .ifPresent(f -> f.handedBack().set(true)));
            try {
                redis.call(jedis -> jedis.xclaimJustId(
                        names.stream(),
                        names.group(),
                        consumer,
                        0,
                        XClaimParams.xClaimParams().idle(lease.toMillis() * 2),
                        left.stream().map(StreamEntryID::new).toArray(StreamEntryID[]::new)));
                handed = left.size();
            } catch (RuntimeException e) {
                // Redis is away: the entries are claimed by others when their lease runs out.
            }
            left.forEach(id -> Optional.ofNullable(inFlight.get(id))
                    .ifPresent(f -> f.thread().interrupt()));
            List<String> held = List.copyOf(locks);
            if (!held.isEmpty()) {
                try {
                    // Let go of their steps at once, so that the worker that claims them need not wait.
                    redis.call(jedis -> jedis.del(held.toArray(String[]::new)));
                } catch (RuntimeException e) {
                    // They expire with the lease.
                }
            }
        }
        keeper.interrupt();
        try {
            Finish leftover;
            while ((leftover = unfinished.poll()) != null) {
                runFinish(leftover);
            }
        } catch (RuntimeException e) {
            // Left for whoever claims them: their outcome is stored.
        }
        stopped.set(true);
        finisher.close();
        housekeeping.close();
        redis.close();
        return handed;
    }

    @Override
    public void close() {
        stop(Duration.ofSeconds(30));
    }

    /** What a worker is doing, and what it has done since it started. */
    public record WorkerStatus(
            String consumer,
            boolean running,
            boolean redisUp,
            int concurrency,
            int inHand,
            long done,
            long failed,
            long deadLettered,
            long claimed,
            long queueWaiting,
            long queueInProgress) {}

    /** Builds a {@link Worker}; every setter rejects a bad value at once. */
    public static final class Builder {
        private final RedisUrl url;
        private final RunStore store;
        private StreamNames names = StreamNames.DEFAULT;
        private Function<Run, Optional<Graph>> graphs = run -> Optional.empty();
        private Function<String, Optional<PlanExecutor>> executors = name -> Optional.empty();
        private int concurrency = 16;
        private Duration lease = Duration.ofSeconds(30);
        private int maxTries = 3;
        private String consumer = defaultConsumer();
        private TimeSource time = TimeSource.system();
        private Consumer<String> log = line -> {};
        private boolean verbose;
        private Duration markerLifetime = Duration.ofDays(1);
        private OpenTelemetry openTelemetry = OpenTelemetry.noop();
        private Map<String, String> environment = System.getenv();

        private Builder(RedisUrl url, RunStore store) {
            this.url = Objects.requireNonNull(url, "url");
            this.store = Objects.requireNonNull(store, "store");
        }

        private static String defaultConsumer() {
            String host;
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                host = "host";
            }
            return host + "-" + ProcessHandle.current().pid() + "-"
                    + Long.toHexString(
                            java.util.concurrent.ThreadLocalRandom.current().nextLong() & 0xffffL);
        }

        public Builder names(StreamNames names) {
            this.names = Objects.requireNonNull(names, "names");
            return this;
        }

        /** How to rebuild a run's graph, for queued workflow nodes. */
        public Builder graphs(Function<Run, Optional<Graph>> graphs) {
            this.graphs = Objects.requireNonNull(graphs, "graphs");
            return this;
        }

        /** The plan executor of a name, for plan steps' tool calls (looked up once per name). */
        public Builder executors(Function<String, Optional<PlanExecutor>> executors) {
            this.executors = Objects.requireNonNull(executors, "executors");
            return this;
        }

        /** How many steps it runs at once (default 16). */
        public Builder concurrency(int concurrency) {
            if (concurrency < 1 || concurrency > 10_000) {
                throw new IllegalArgumentException("concurrency must be from 1 to 10000, was " + concurrency);
            }
            this.concurrency = concurrency;
            return this;
        }

        /**
         * How long an entry may go untouched before another worker takes its worker for dead (default
         * 30 s; a live worker touches its entries every third of it).
         */
        public Builder lease(Duration lease) {
            Objects.requireNonNull(lease, "lease");
            if (lease.compareTo(Duration.ofMillis(300)) < 0) {
                throw new IllegalArgumentException("lease must be at least 300 ms, was " + lease);
            }
            this.lease = lease;
            return this;
        }

        /** How many times an entry may be taken before it goes to the dead-letter stream (default 3). */
        public Builder maxTries(int maxTries) {
            if (maxTries < 1) {
                throw new IllegalArgumentException("max tries must be at least 1, was " + maxTries);
            }
            this.maxTries = maxTries;
            return this;
        }

        /** Its name in the consumer group (default: host, process id and a random suffix). */
        public Builder consumer(String consumer) {
            Objects.requireNonNull(consumer, "consumer");
            if (consumer.isBlank()) {
                throw new IllegalArgumentException("consumer name must not be blank");
            }
            this.consumer = consumer;
            return this;
        }

        public Builder time(TimeSource time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** Where it says what it does (claims, dead letters, Redis away and back; every step if verbose). */
        public Builder log(Consumer<String> log) {
            this.log = Objects.requireNonNull(log, "log");
            return this;
        }

        public Builder verbose(boolean verbose) {
            this.verbose = verbose;
            return this;
        }

        /** How long a done step's marker lives (default 1 day); must match the servers'. */
        public Builder markerLifetime(Duration lifetime) {
            Objects.requireNonNull(lifetime, "lifetime");
            if (lifetime.toSeconds() < 1) {
                throw new IllegalArgumentException("marker lifetime must be at least 1 s, was " + lifetime);
            }
            this.markerLifetime = lifetime;
            return this;
        }

        /** Where its metrics go (default: nowhere). */
        public Builder openTelemetry(OpenTelemetry openTelemetry) {
            this.openTelemetry = Objects.requireNonNull(openTelemetry, "openTelemetry");
            return this;
        }

        /**
         * The environment the process's housekeeping reads its settings from (default the process's):
         * {@code WEFT_HOUSEKEEPING_EVERY}, {@code WEFT_RETAIN_IDEMPOTENCY} and each module's retention.
         */
        public Builder environment(Map<String, String> environment) {
            this.environment = Map.copyOf(environment);
            return this;
        }

        public Worker build() {
            return new Worker(this);
        }
    }
}
