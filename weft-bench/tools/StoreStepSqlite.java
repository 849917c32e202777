import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.weft.core.Event;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.spi.Checkpoint;
import dev.weft.core.spi.RunStore;
import dev.weft.core.spi.RunStore.Change;
import dev.weft.store.Stores;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The CPU of a synchronous durable step in Weft's real SQLite store, on the writing thread (SQLite runs
 * in it): {@code RunStore.apply} of a chain10 run's ten step batches as the runner writes them under
 * SYNC (the step started and finished, two events, the next step, the checkpoint), against the floor
 * (one small row a step, {@code BEGIN IMMEDIATE} … {@code COMMIT}) with the store's settings (WAL,
 * {@code synchronous=NORMAL}, foreign keys on). RUNS chain10 runs a round, ROUNDS rounds alternating
 * floor and Weft, the least of each. Uses only the store's public API, so it runs against any tree:
 *
 *   java -cp weft-core/target/classes:weft-store/target/classes:DEPS weft-bench/tools/StoreStepSqlite.java 300 6
 *
 * See docs/benchmarks.md (issue 40, fifth part).
 */
public final class StoreStepSqlite {
    static final Instant T = Instant.parse("2026-11-28T10:00:00Z");
    static final Set<StepStatus> STARTABLE = Set.of(StepStatus.PENDING, StepStatus.WAITING, StepStatus.RUNNING);

    public static void main(String[] args) throws Exception {
        int runs = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        Path dir = Files.createTempDirectory("weft-store-step");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<Double> weft = new ArrayList<>();
        List<Double> floor = new ArrayList<>();
        try (RunStore store = Stores.open("sqlite:" + dir.resolve("weft.db"));
                Connection bare = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("floor.db"))) {
            try (Statement s = bare.createStatement()) {
                s.execute("PRAGMA journal_mode = WAL");
                s.execute("PRAGMA synchronous = NORMAL");
                s.execute("PRAGMA foreign_keys = ON");
                s.execute("CREATE TABLE bare_floor (run_id TEXT NOT NULL, step INTEGER NOT NULL, state TEXT NOT NULL,"
                        + " PRIMARY KEY (run_id, step)) WITHOUT ROWID");
            }
            for (int round = 0; round < rounds + 1; round++) {
                // Round 0 warms both up and is not counted.
                long cpu = threads.getCurrentThreadCpuTime();
                floorSteps(bare, runs);
                double floorUs = (threads.getCurrentThreadCpuTime() - cpu) / 1000.0 / (runs * 10.0);
                long weftCpu = weftSteps(store, runs, threads);
                double weftUs = weftCpu / 1000.0 / (runs * 10.0);
                if (round > 0) {
                    floor.add(floorUs);
                    weft.add(weftUs);
                }
            }
        }
        double least = Collections.min(floor);
        System.out.printf(Locale.ROOT, "store_step_sqlite variant=floor cpu_us_per_step=%.1f over_floor=1.00 all=%s%n",
                least, rounded(floor));
        System.out.printf(Locale.ROOT, "store_step_sqlite variant=weft cpu_us_per_step=%.1f over_floor=%.2f all=%s%n",
                Collections.min(weft), Collections.min(weft) / least, rounded(weft));
        try (var files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) Files.delete(f);
        }
        Files.delete(dir);
    }

    static List<String> rounded(List<Double> values) {
        return values.stream().map(v -> String.format(Locale.ROOT, "%.1f", v)).toList();
    }

    static void floorSteps(Connection c, int runs) throws Exception {
        try (PreparedStatement begin = c.prepareStatement("BEGIN IMMEDIATE");
                PreparedStatement commit = c.prepareStatement("COMMIT");
                PreparedStatement insert = c.prepareStatement("INSERT INTO bare_floor (run_id, step, state) VALUES (?, ?, ?)")) {
            for (int r = 0; r < runs; r++) {
                String id = UUID.randomUUID().toString();
                for (int k = 1; k <= 10; k++) {
                    begin.execute();
                    insert.setString(1, id);
                    insert.setInt(2, k);
                    insert.setString(3, "{\"value\":" + k + "}");
                    insert.executeUpdate();
                    commit.execute();
                }
            }
        }
    }

    /** The CPU of the steps' {@code apply} calls alone (the runs' creation not counted). */
    static long weftSteps(RunStore store, int runs, ThreadMXBean threads) {
        long spent = 0;
        for (int r = 0; r < runs; r++) {
            String id = UUID.randomUUID().toString();
            RunStore.Lease lease = new RunStore.Lease("runner", T.plusSeconds(3600));
            store.createRun(run(id), lease, List.of(new Change.InsertStep(step(id, 1))));
            List<List<Change>> batches = batches(id);
            long cpu = threads.getCurrentThreadCpuTime();
            for (List<Change> batch : batches) {
                store.apply(id, "runner", batch);
            }
            spent += threads.getCurrentThreadCpuTime() - cpu;
        }
        return spent;
    }

    static Run run(String id) {
        return new Run(id, "chain10", Optional.empty(), RunStatus.RUNNING, IntNode.valueOf(0), Map.of(), Map.of(),
                NullNode.getInstance(), Optional.empty(), T, Optional.empty(), Json.object().put("id", "chain10"),
                Optional.empty());
    }

    static Step step(String runId, int order) {
        return new Step(runId, order, "step" + order, "step" + order, "node", StepStatus.PENDING, 0, false,
                NullNode.getInstance(), NullNode.getInstance(), Optional.empty(), Optional.empty(), Optional.empty(),
                Map.of());
    }

    /** A chain10 run's ten step batches, as the runner writes them under SYNC. */
    static List<List<Change>> batches(String runId) {
        List<List<Change>> batches = new ArrayList<>();
        Map<String, JsonNode> outputs = new LinkedHashMap<>();
        Map<String, Integer> visits = new HashMap<>();
        for (int k = 1; k <= 10; k++) {
            Step running = step(runId, k).running(1, IntNode.valueOf(k - 1), T);
            Step done = running.finished(StepStatus.COMPLETED, IntNode.valueOf(k), Optional.empty(), T, Map.of());
            outputs.put("step" + k, IntNode.valueOf(k));
            visits.put("step" + k, 1);
            List<Change> batch = new ArrayList<>();
            batch.add(new Change.UpdateStep(running, STARTABLE));
            batch.add(new Change.AppendEvent(new Event(runId, 3L * k, Event.STEP_STARTED, Optional.of("step" + k), k, T,
                    NullNode.getInstance())));
            batch.add(new Change.UpdateStep(done, Set.of(StepStatus.RUNNING)));
            batch.add(new Change.AppendEvent(new Event(runId, 3L * k + 1, Event.STEP_COMPLETED, Optional.of("step" + k), k,
                    T, Json.object().put("ms", 0))));
            if (k < 10) {
                batch.add(new Change.InsertStep(step(runId, k + 1)));
            }
            batch.add(new Change.SaveCheckpoint(new Checkpoint(runId, k, k + 1, T, Map.copyOf(outputs), Map.copyOf(visits),
                    k < 10
                            ? List.of(new Checkpoint.Activation("step" + (k + 1), k + 1,
                                    List.of(new Checkpoint.Arrival("step" + k, IntNode.valueOf(k)))))
                            : List.of(),
                    List.of(), Map.of(), "step" + k)));
            batches.add(batch);
        }
        return batches;
    }
}
