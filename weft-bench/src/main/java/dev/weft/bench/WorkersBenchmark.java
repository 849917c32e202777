package dev.weft.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanParser;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.StepOutcome;
import dev.weft.redis.RedisSteps;
import dev.weft.redis.RedisUrl;
import dev.weft.redis.StreamNames;
import dev.weft.redis.Worker;
import dev.weft.redis.testing.RedisServer;
import dev.weft.redis.testing.TestExecutors;
import dev.weft.redis.testing.WorkerMain;
import dev.weft.store.Stores;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XReadGroupParams;
import redis.clients.jedis.resps.StreamEntry;

/**
 * {@code weft-bench workers}: steps run by worker processes through Redis Streams, on the embedded
 * PostgreSQL and a Redis server ({@code redis-server}) the benchmark starts itself. Measures the
 * floor (bare {@code XADD}/{@code XREADGROUP}/{@code XACK} with the same client) and Weft's whole
 * cost per queued step; the time of 10,000 steps whose tools wait 50 ms inline in one process and with
 * 1, 2 and 4 worker processes; and a run in which a worker is killed. Prints a table, then one {@code
 * key=value} line per figure.
 */
final class WorkersBenchmark {
    private static final int STEPS_PER_RUN = 10;
    /**
     * Entries (steps, for Weft) each queue-cost figure runs unmeasured first, by default. Weft's path
     * is far more code than the floors': with 500 its JIT compilers still spent 1.1–1.7 ms a step of
     * the measured phase (half the JVM's CPU); with 4,000 the figures are nearer what a process that
     * has run a while spends.
     */
    private static final int WARM_UP = 4_000;

    private WorkersBenchmark() {}

    static void run(String[] args) {
        boolean quick = false;
        int concurrency = 32;
        Phases phases = Phases.ALL;
        int warmUp = WARM_UP;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--warm-up" -> {
                    if (i + 1 == args.length || !args[i + 1].matches("[0-9]{1,6}")) {
                        throw new UsageException("workers: --warm-up takes a number of entries from 0 to 999999");
                    }
                    warmUp = Integer.parseInt(args[++i]);
                }
                case "--only" -> {
                    if (i + 1 == args.length) {
                        throw new UsageException("workers: --only takes weft or queue");
                    }
                    phases = switch (args[++i]) {
                        case "weft" -> Phases.WEFT;
                        case "queue" -> Phases.QUEUE;
                        default ->
                            throw new UsageException("workers: --only takes weft or queue, was '" + args[i] + "'");
                    };
                }
                case "--concurrency" -> {
                    if (i + 1 == args.length || !args[i + 1].matches("[1-9][0-9]{0,3}")) {
                        throw new UsageException("workers: --concurrency takes a number from 1 to 9999");
                    }
                    concurrency = Integer.parseInt(args[++i]);
                }
                default ->
                    throw new UsageException("workers: unknown option '" + args[i]
                            + "' (--quick, --concurrency N, --only weft|queue, --warm-up N)");
            }
        }
        try {
            if (phases == Phases.ALL) {
                measure(quick, concurrency, warmUp);
            } else {
                measureQueue(quick, phases, warmUp);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (Exception e) {
            throw new IllegalStateException("the workers benchmark failed: " + e, e);
        }
    }

    private static void measure(boolean quick, int concurrency, int warmUp) throws Exception {
        int steps = quick ? 1_000 : 10_000;
        int floorEntries = quick ? 2_000 : 10_000;
        if (quick) {
            System.out.println("workers: --quick: " + steps + " steps per mode instead of 10000, " + floorEntries
                    + " entries for the floor; the figures are rougher");
        }
        System.out.println("workers: each queue-cost figure runs " + warmUp + " entries unmeasured first");
        try (RedisServer redis = RedisServer.start()) {
            Measured floorMeasured = floorMicros(redis.url(), floorEntries, warmUp);
            Measured floorWithStoreMeasured = floorWithStoreMicros(redis.url(), floorEntries, warmUp);
            Measured weftMeasured = weftMicros(redis.url(), floorEntries, warmUp);
            double floor = floorMeasured.wallMicros();
            double floorWithStore = floorWithStoreMeasured.wallMicros();
            double weft = weftMeasured.wallMicros();
            Map<String, Double> seconds = new java.util.LinkedHashMap<>();
            seconds.put("inline", inlineSeconds(steps));
            for (int workers : new int[] {1, 2, 4}) {
                seconds.put(Integer.toString(workers), workerSeconds(redis.url(), workers, concurrency, steps));
            }
            Killed killed = killed(redis.url(), quick ? 400 : 2_000, concurrency);

            System.out.println();
            System.out.printf("%-44s %12s%n", "queue cost per step", "µs");
            System.out.printf("%-44s %12.1f%n", "floor: bare XADD/XREADGROUP/XACK (Jedis)", floor);
            System.out.printf("%-44s %12.1f%n", "floor with the store's statements (JDBC)", floorWithStore);
            System.out.printf(
                    "%-44s %12.1f  (%.1f × the floor, %.1f × with the store)%n",
                    "Weft: a queued step, whole (PostgreSQL)", weft, weft / floor, weft / floorWithStore);
            System.out.println();
            System.out.printf("%-44s %10s %12s%n", steps + " steps of 50 ms", "seconds", "steps/s");
            for (Map.Entry<String, Double> mode : seconds.entrySet()) {
                String label = mode.getKey().equals("inline")
                        ? "inline, one process"
                        : mode.getKey() + " worker process" + (mode.getKey().equals("1") ? "" : "es") + " ×"
                                + concurrency;
                System.out.printf("%-44s %10.2f %12.0f%n", label, mode.getValue(), steps / mode.getValue());
            }
            System.out.printf(
                    "1 → 2 workers: %.2f×, 1 → 4 workers: %.2f×%n",
                    seconds.get("1") / seconds.get("2"), seconds.get("1") / seconds.get("4"));
            System.out.println();
            System.out.println("a worker killed mid-run: " + killed.steps + " steps, " + killed.completedOnce
                    + " completed once, " + killed.duplicated + " tool calls made again (their effect was not), "
                    + killed.lost + " lost");
            System.out.println();
            System.out.printf(
                    "workers floor_us_per_entry=%.1f weft_us_per_entry=%.1f ratio=%.2f%n", floor, weft, weft / floor);
            System.out.printf(
                    "workers floor_with_store_us_per_entry=%.1f weft_us_per_entry=%.1f ratio_with_store=%.2f%n",
                    floorWithStore, weft, weft / floorWithStore);
            CpuMeter.Spent weftCpu = weftMeasured.cpu();
            System.out.printf(
                    "workers cpu floor_us_per_entry=%.1f floor_with_store_us_per_entry=%.1f weft_us_per_entry=%.1f"
                            + " ratio=%.2f ratio_with_store=%.2f weft_jvm_us=%.1f weft_redis_us=%.1f weft_db_us=%.1f"
                            + " weft_jit_us=%.1f floor_jit_us=%.1f floor_with_store_jit_us=%.1f%n",
                    floorMeasured.cpuMicros(),
                    floorWithStoreMeasured.cpuMicros(),
                    weftMeasured.cpuMicros(),
                    weftMeasured.cpuMicros() / floorMeasured.cpuMicros(),
                    weftMeasured.cpuMicros() / floorWithStoreMeasured.cpuMicros(),
                    weftCpu.jvmMicros() / weftMeasured.entries(),
                    weftCpu.redisMicros() / weftMeasured.entries(),
                    weftCpu.databaseMicros() / weftMeasured.entries(),
                    weftCpu.jitMicros() / weftMeasured.entries(),
                    floorMeasured.cpu().jitMicros() / floorMeasured.entries(),
                    floorWithStoreMeasured.cpu().jitMicros() / floorWithStoreMeasured.entries());
            for (Map.Entry<String, Double> mode : seconds.entrySet()) {
                System.out.printf("workers mode=%s steps=%d seconds=%.2f%n", mode.getKey(), steps, mode.getValue());
            }
            System.out.printf(
                    "workers killed=1 steps=%d completed_once=%d duplicated=%d lost=%d%n",
                    killed.steps, killed.completedOnce, killed.duplicated, killed.lost);
        }
    }

    /** Which figures a run measures: all of them, the queue cost per step alone, or Weft's share of it alone. */
    private enum Phases {
        ALL,
        QUEUE,
        WEFT
    }

    /**
     * The queue cost per step alone ({@code --only queue}: the two floors and Weft's, without the
     * 50 ms steps and the killed worker), or Weft's phase alone ({@code --only weft}: the phase to
     * profile, with nothing else in the recording).
     */
    private static void measureQueue(boolean quick, Phases phases, int warmUp) throws Exception {
        int entries = quick ? 2_000 : 10_000;
        System.out.println("workers: --only " + phases.name().toLowerCase(java.util.Locale.ROOT) + ": " + entries
                + " entries" + (quick ? " (--quick)" : "") + ", each figure after " + warmUp + " unmeasured");
        try (RedisServer redis = RedisServer.start()) {
            Optional<Measured> floor = Optional.empty();
            Optional<Measured> floorWithStore = Optional.empty();
            if (phases == Phases.QUEUE) {
                floor = Optional.of(floorMicros(redis.url(), entries, warmUp));
                floorWithStore = Optional.of(floorWithStoreMicros(redis.url(), entries, warmUp));
            }
            Measured weft = weftMicros(redis.url(), entries, warmUp);
            CpuMeter.Spent weftCpu = weft.cpu();
            if (floor.isPresent() && floorWithStore.isPresent()) {
                Measured bare = floor.get();
                Measured withStore = floorWithStore.get();
                System.out.printf(
                        "workers floor_us_per_entry=%.1f weft_us_per_entry=%.1f ratio=%.2f%n",
                        bare.wallMicros(), weft.wallMicros(), weft.wallMicros() / bare.wallMicros());
                System.out.printf(
                        "workers floor_with_store_us_per_entry=%.1f weft_us_per_entry=%.1f ratio_with_store=%.2f%n",
                        withStore.wallMicros(), weft.wallMicros(), weft.wallMicros() / withStore.wallMicros());
                System.out.printf(
                        "workers cpu floor_us_per_entry=%.1f floor_with_store_us_per_entry=%.1f weft_us_per_entry=%.1f"
                                + " ratio=%.2f ratio_with_store=%.2f weft_jvm_us=%.1f weft_redis_us=%.1f"
                                + " weft_db_us=%.1f weft_jit_us=%.1f floor_jit_us=%.1f floor_with_store_jit_us=%.1f%n",
                        bare.cpuMicros(),
                        withStore.cpuMicros(),
                        weft.cpuMicros(),
                        weft.cpuMicros() / bare.cpuMicros(),
                        weft.cpuMicros() / withStore.cpuMicros(),
                        weftCpu.jvmMicros() / weft.entries(),
                        weftCpu.redisMicros() / weft.entries(),
                        weftCpu.databaseMicros() / weft.entries(),
                        weftCpu.jitMicros() / weft.entries(),
                        bare.cpu().jitMicros() / bare.entries(),
                        withStore.cpu().jitMicros() / withStore.entries());
            } else {
                System.out.printf("workers weft_us_per_entry=%.1f%n", weft.wallMicros());
                System.out.printf(
                        "workers cpu weft_us_per_entry=%.1f weft_jvm_us=%.1f weft_redis_us=%.1f weft_db_us=%.1f"
                                + " weft_jit_us=%.1f%n",
                        weft.cpuMicros(),
                        weftCpu.jvmMicros() / weft.entries(),
                        weftCpu.redisMicros() / weft.entries(),
                        weftCpu.databaseMicros() / weft.entries(),
                        weftCpu.jitMicros() / weft.entries());
            }
        }
    }

    /**
     * What a measured section cost, over {@code entries}: wall time, and the CPU time of the JVM, Redis
     * and the database together.
     */
    private record Measured(int entries, double wallMicros, CpuMeter.Spent cpu) {
        double cpuMicros() {
            return cpu.totalMicros() / entries;
        }
    }

    /** {@link #floorMicros(String, int)}, after {@code warmUp} entries that are not measured. */
    private static Measured floorMicros(String url, int entries, int warmUp) throws Exception {
        if (warmUp > 0) {
            floorMicros(url, warmUp);
        }
        return floorMicros(url, entries);
    }

    /** Bare Redis: a producer adds {@code entries} one XADD each, a consumer reads them in the group and acks each. */
    private static Measured floorMicros(String url, int entries) throws Exception {
        String stream = "floor:" + System.nanoTime();
        String db = DurableStores.postgresUrl("public");
        try (RedisClient client = RedisClient.create(URI.create(url))) {
            client.xgroupCreate(stream, "g", new StreamEntryID(0, 0), true);
            CpuMeter cpu = CpuMeter.start(url, db);
            long started = System.nanoTime();
            Thread producer = Thread.ofVirtual().start(() -> {
                for (int i = 0; i < entries; i++) {
                    client.xadd(stream, StreamEntryID.NEW_ENTRY, Map.of("run", "r", "step", Integer.toString(i)));
                }
            });
            int acked = 0;
            while (acked < entries) {
                List<Map.Entry<String, List<StreamEntry>>> read = client.xreadGroup(
                        "g",
                        "c",
                        XReadGroupParams.xReadGroupParams().count(100).block(1000),
                        Map.of(stream, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
                if (read == null) {
                    continue;
                }
                for (StreamEntry entry : read.get(0).getValue()) {
                    client.xack(stream, "g", entry.getID());
                    acked++;
                }
            }
            producer.join();
            long elapsed = System.nanoTime() - started;
            CpuMeter.Spent spent = cpu.spent();
            client.del(stream);
            return new Measured(entries, elapsed / 1000.0 / entries, spent);
        }
    }

    /** {@link #floorWithStoreMicros(String, int)}, after {@code warmUp} entries that are not measured. */
    private static Measured floorWithStoreMicros(String url, int entries, int warmUp) throws Exception {
        if (warmUp > 0) {
            floorWithStoreMicros(url, warmUp);
        }
        return floorWithStoreMicros(url, entries);
    }

    /**
     * The floor that can be measured for a step done once: bare Redis as in {@link #floorMicros},
     * plus the bare PostgreSQL statements exactly-once needs, each auto-committed, no Weft. The
     * producer commits the step's row before it adds the entry (the commit before a step starts,
     * which in Weft also holds the previous step's completion); the consumer, per entry, reads
     * whether an outcome is stored (an entry delivered again is not run again), stores the outcome
     * with {@code INSERT … ON CONFLICT DO NOTHING} (the compare-and-set that makes it once), then
     * acknowledges. Three statements an entry, made one after another as the Redis calls are.
     */
    private static Measured floorWithStoreMicros(String url, int entries) throws Exception {
        String stream = "floor-store:" + System.nanoTime();
        String db = DurableStores.postgresUrl("bench_floor_" + SCHEMAS.incrementAndGet());
        try (RedisClient client = RedisClient.create(URI.create(url));
                Connection producerDb = DriverManager.getConnection(db);
                Connection consumerDb = DriverManager.getConnection(db)) {
            try (Statement ddl = producerDb.createStatement()) {
                String schema = db.substring(db.indexOf("currentSchema=") + "currentSchema=".length());
                ddl.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
                ddl.execute("SET search_path TO " + schema);
                ddl.execute("CREATE TABLE steps (run TEXT, step INT, status TEXT, PRIMARY KEY (run, step))");
                ddl.execute("CREATE TABLE outcomes (key TEXT PRIMARY KEY, result TEXT NOT NULL, created_at BIGINT)");
            }
            client.xgroupCreate(stream, "g", new StreamEntryID(0, 0), true);
            PreparedStatement startStep =
                    producerDb.prepareStatement("INSERT INTO steps (run, step, status) VALUES (?, ?, 'RUNNING')");
            PreparedStatement readOutcome = consumerDb.prepareStatement("SELECT result FROM outcomes WHERE key = ?");
            PreparedStatement storeOutcome = consumerDb.prepareStatement(
                    "INSERT INTO outcomes (key, result, created_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING");
            CpuMeter cpu = CpuMeter.start(url, db);
            long started = System.nanoTime();
            Thread producer = Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; i < entries; i++) {
                        startStep.setString(1, "r");
                        startStep.setInt(2, i);
                        startStep.executeUpdate();
                        client.xadd(stream, StreamEntryID.NEW_ENTRY, Map.of("run", "r", "step", Integer.toString(i)));
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            int acked = 0;
            while (acked < entries) {
                List<Map.Entry<String, List<StreamEntry>>> read = client.xreadGroup(
                        "g",
                        "c",
                        XReadGroupParams.xReadGroupParams().count(100).block(1000),
                        Map.of(stream, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
                if (read == null) {
                    continue;
                }
                for (StreamEntry entry : read.get(0).getValue()) {
                    String key = "r/" + entry.getFields().get("step");
                    readOutcome.setString(1, key);
                    try (ResultSet row = readOutcome.executeQuery()) {
                        if (row.next()) {
                            throw new IllegalStateException("an outcome for " + key + " is stored already");
                        }
                    }
                    storeOutcome.setString(1, key);
                    storeOutcome.setString(2, "{\"value\":null}");
                    storeOutcome.setLong(3, System.nanoTime());
                    storeOutcome.executeUpdate();
                    client.xack(stream, "g", entry.getID());
                    acked++;
                }
            }
            producer.join();
            long elapsed = System.nanoTime() - started;
            CpuMeter.Spent spent = cpu.spent();
            client.del(stream);
            return new Measured(entries, elapsed / 1000.0 / entries, spent);
        }
    }

    private static ObjectNode plan(int steps, long ms, Optional<Path> log) {
        ObjectNode plan = Json.object();
        plan.put("intentType", "bench");
        plan.put("confidence", 1);
        ArrayNode array = plan.putArray("plan");
        for (int i = 1; i <= steps; i++) {
            ObjectNode step = array.addObject();
            step.put("id", "s" + i);
            step.put("capability", "test");
            step.put("action", "sleep");
            ObjectNode constraints = step.putObject("constraints").put("ms", ms);
            log.ifPresent(l -> constraints.put("log", l.toString()));
        }
        return plan;
    }

    /** Starts {@code steps / STEPS_PER_RUN} runs at once and waits for them; the seconds it took. */
    private static double runAll(Runner runner, int steps, long ms, Optional<Path> log) throws Exception {
        PlanExecutor executor = TestExecutors.executor();
        var plan = PlanParser.fromJson(plan(STEPS_PER_RUN, ms, log));
        long started = System.nanoTime();
        List<Runner.RunHandle> handles = new ArrayList<>();
        for (int i = 0; i < steps / STEPS_PER_RUN; i++) {
            handles.add(executor.start(runner, plan, PlanRequest.auto(Json.object())));
        }
        for (Runner.RunHandle handle : handles) {
            RunResult result = handle.result().get(30, TimeUnit.MINUTES);
            if (result.status() != RunStatus.COMPLETED) {
                throw new IllegalStateException("run " + result.runId() + " ended " + result.status());
            }
        }
        return (System.nanoTime() - started) / 1e9;
    }

    private static final AtomicLong SCHEMAS = new AtomicLong();

    private static String freshPostgres() {
        return DurableStores.postgresUrl("bench_workers_" + SCHEMAS.incrementAndGet());
    }

    /**
     * Weft's whole cost per queued step: no-op steps through RedisSteps and an in-process worker, after
     * {@code warmUp} steps that are not measured.
     */
    private static Measured weftMicros(String url, int entries, int warmUp) throws Exception {
        String db = freshPostgres();
        try (RunStore store = Stores.open(Optional.of(db), Map.of())) {
            StreamNames names = new StreamNames("bench" + System.nanoTime());
            try (RedisSteps queue = RedisSteps.builder(RedisUrl.parse(url), store)
                            .names(names)
                            .build();
                    Worker worker = Worker.builder(RedisUrl.parse(url), store)
                            .names(names)
                            .concurrency(64)
                            .executors(name -> Optional.of(TestExecutors.executor()))
                            .build()
                            .start()) {
                Runner runner = Runner.builder().store(store).dispatcher(queue).build();
                if (warmUp >= STEPS_PER_RUN) {
                    runAll(runner, warmUp, 0, Optional.empty());
                }
                CpuMeter cpu = CpuMeter.start(url, db);
                double micros = runAll(runner, entries, 0, Optional.empty()) * 1e6 / entries;
                CpuMeter.Spent spent = cpu.spent();
                int queued = entries + (warmUp >= STEPS_PER_RUN ? warmUp / STEPS_PER_RUN * STEPS_PER_RUN : 0);
                if (worker.status().done() < queued) {
                    throw new IllegalStateException(
                            "the worker ran " + worker.status().done() + " steps of " + queued);
                }
                return new Measured(entries, micros, spent);
            }
        }
    }

    private static double inlineSeconds(int steps) throws Exception {
        try (RunStore store = Stores.open(Optional.of(freshPostgres()), Map.of())) {
            Runner runner = Runner.builder().store(store).build();
            runAll(runner, Math.min(steps, 500), 50, Optional.empty());
            return runAll(runner, steps, 50, Optional.empty());
        }
    }

    private static double workerSeconds(String url, int count, int concurrency, int steps) throws Exception {
        String db = freshPostgres();
        List<Process> workers = new ArrayList<>();
        try (RunStore store = Stores.open(Optional.of(db), Map.of());
                RedisSteps queue =
                        RedisSteps.builder(RedisUrl.parse(url), store).build()) {
            for (int i = 0; i < count; i++) {
                workers.add(startWorker(url, db, concurrency, new ArrayList<>()));
            }
            Runner runner = Runner.builder().store(store).dispatcher(queue).build();
            runAll(runner, Math.min(steps, 200), 50, Optional.empty());
            return runAll(runner, steps, 50, Optional.empty());
        } finally {
            workers.forEach(WorkersBenchmark::stop);
        }
    }

    private record Killed(int steps, int completedOnce, int duplicated, int lost) {}

    /** Two workers; one is killed with SIGKILL a second in; every step's completion and effect counted. */
    private static Killed killed(String url, int steps, int concurrency) throws Exception {
        String db = freshPostgres();
        Path dir = Files.createTempDirectory("weft-bench-killed");
        Path log = dir.resolve("effects.log");
        List<Process> workers = new ArrayList<>();
        try (RunStore store = Stores.open(Optional.of(db), Map.of());
                RedisSteps queue =
                        RedisSteps.builder(RedisUrl.parse(url), store).build()) {
            for (int i = 0; i < 2; i++) {
                workers.add(startWorker(url, db, concurrency, new ArrayList<>()));
            }
            Runner runner = Runner.builder().store(store).dispatcher(queue).build();
            PlanExecutor executor = TestExecutors.executor();
            var plan = PlanParser.fromJson(plan(STEPS_PER_RUN, 50, Optional.of(log)));
            List<Runner.RunHandle> handles = new ArrayList<>();
            for (int i = 0; i < steps / STEPS_PER_RUN; i++) {
                handles.add(executor.start(runner, plan, PlanRequest.auto(Json.object())));
            }
            Thread.sleep(1000);
            workers.get(0).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            int completedOnce = 0;
            for (Runner.RunHandle handle : handles) {
                RunResult result = handle.result().get(10, TimeUnit.MINUTES);
                for (StepOutcome outcome : PlanExecutor.outcomes(result).values()) {
                    long committed = store.events(result.runId()).stream()
                            .filter(e -> e.type().equals("tool.succeeded")
                                    && e.data().path("stepId").asText().equals(outcome.stepId()))
                            .count();
                    if (outcome.status() == StepOutcome.Status.SUCCEEDED && committed == 1) {
                        completedOnce++;
                    }
                }
            }
            Map<String, Integer> calls = new HashMap<>();
            if (Files.exists(Path.of(log + ".calls"))) {
                for (String key : Files.readAllLines(Path.of(log + ".calls"))) {
                    calls.merge(key, 1, Integer::sum);
                }
            }
            int duplicated = calls.values().stream().mapToInt(n -> n - 1).sum();
            return new Killed(steps, completedOnce, duplicated, steps - completedOnce);
        } finally {
            workers.forEach(WorkersBenchmark::stop);
        }
    }

    private static Process startWorker(String url, String db, int concurrency, List<String> output) throws Exception {
        Process process = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-Xmx512m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        WorkerMain.class.getName(),
                        url,
                        db,
                        Integer.toString(concurrency),
                        "5000",
                        "5")
                .redirectErrorStream(true)
                .start();
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first = lines.readLine();
        if (first == null || !first.startsWith("ready ")) {
            throw new IllegalStateException("a worker did not start: " + first);
        }
        Thread.ofVirtual().start(() -> {
            try {
                lines.lines().forEach(output::add);
            } catch (java.io.UncheckedIOException e) {
                // the worker was stopped
            }
        });
        return process;
    }

    private static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
