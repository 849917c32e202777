package dev.weft.store;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The cost of one {@link RunStore#apply} with the batch a runner writes after a typical step (the step
 * done, the next inserted, two events, a checkpoint with ten small outputs), on SQLite and on the
 * embedded PostgreSQL. Run by hand, not by the build:
 *
 * <pre>java -cp target/test-classes:target/classes:$(cat cp.txt) dev.weft.store.ApplyBenchmark [steps]</pre>
 */
final class ApplyBenchmark {
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private ApplyBenchmark() {}

    public static void main(String[] args) throws Exception {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        Path directory = Files.createTempDirectory("weft-bench");
        System.out.printf("%-12s %10s %12s%n", "store", "applies", "µs/apply");
        measure("sqlite", "sqlite:" + directory.resolve("weft.db"), steps);
        measure("postgresql", EmbeddedPostgres.shared().freshUrl(), steps / 4);
    }

    private static void measure(String name, String url, int steps) {
        long open = System.nanoTime();
        try (RunStore store = Stores.open(url)) {
            long opened = System.nanoTime() - open;
            // Warm up on runs of their own, then measure on a fresh one.
            for (int round = 0; round < 3; round++) {
                long micros = run(store, steps);
                if (round == 2) {
                    System.out.printf(
                            "%-12s %10d %12.1f   (opening took %d ms)%n",
                            name, steps, micros / (double) steps, opened / 1_000_000);
                }
            }
        }
    }

    /** Runs one run of {@code steps} steps; returns the microseconds its applies took. */
    private static long run(RunStore store, int steps) {
        String runId = UUID.randomUUID().toString();
        store.createRun(new Run(
                runId,
                "bench",
                Optional.empty(),
                RunStatus.RUNNING,
                Json.object().put("q", "hi"),
                Map.of(),
                Map.of(),
                NullNode.getInstance(),
                Optional.empty(),
                T0,
                Optional.empty(),
                NullNode.getInstance(),
                Optional.empty()));
        store.insertStep(step(runId, 1).running(1, Json.object(), T0));
        Map<String, JsonNode> outputs = new LinkedHashMap<>();
        long start = System.nanoTime();
        for (int order = 1; order <= steps; order++) {
            JsonNode output = Json.object().put("answer", order).put("text", "a small output of step " + order);
            outputs.put("node-" + (order % 10), output);
            Step done = step(runId, order)
                    .running(1, Json.object().put("in", order), T0)
                    .finished(StepStatus.COMPLETED, output, Optional.empty(), T0, Map.of());
            store.apply(
                    runId,
                    "bench",
                    List.of(
                            new Change.UpdateStep(done, Set.of(StepStatus.PENDING, StepStatus.RUNNING)),
                            new Change.InsertStep(step(runId, order + 1)),
                            new Change.AppendEvent(new Event(
                                    runId,
                                    2L * order - 1,
                                    Event.STEP_COMPLETED,
                                    Optional.of("node"),
                                    order,
                                    T0,
                                    Json.object())),
                            new Change.AppendEvent(new Event(
                                    runId,
                                    2L * order,
                                    Event.STEP_STARTED,
                                    Optional.of("node"),
                                    order + 1,
                                    T0,
                                    Json.object())),
                            new Change.SaveCheckpoint(new Checkpoint(
                                    runId,
                                    order,
                                    order + 1,
                                    T0,
                                    outputs,
                                    Map.of("node", order),
                                    List.of(new Checkpoint.Activation(
                                            "node", order + 1, List.of(new Checkpoint.Arrival("node", output)))),
                                    List.of(),
                                    Map.of(),
                                    ""))));
        }
        return (System.nanoTime() - start) / 1_000;
    }

    private static Step step(String runId, int order) {
        return new Step(
                runId,
                order,
                "node",
                "node",
                "transform",
                StepStatus.PENDING,
                1,
                false,
                NullNode.getInstance(),
                NullNode.getInstance(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Map.of());
    }
}
