package dev.weft.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.weft.core.*;
import dev.weft.core.spi.Changes;
import dev.weft.core.spi.Checkpoint;
import dev.weft.core.spi.RunStore.Change;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.*;

/**
 * The CPU of the client's part of a durable PostgreSQL step's write, alone: {@code Changes.coalesce}
 * and {@code PostgresBatch.write} of a chain10 run's ten step batches, N times a round, six rounds, the
 * thread's CPU of the last three; first a hash of the batches' values (the journal's strings parsed,
 * so that the order a checkpoint's maps iterate in does not count). Package-private classes: compile it
 * against a tree's classes, do not run it as a source file. See docs/benchmarks.md (issue 40, fourth part).
 *
 *   javac -d /tmp/bc -cp weft-core/target/classes:weft-store/target/classes:DEPS weft-bench/tools/BatchCpu.java
 *   java -cp /tmp/bc:weft-core/target/classes:weft-store/target/classes:DEPS dev.weft.store.BatchCpu 10000
 */
public final class BatchCpu {
    static final Instant T = Instant.parse("2026-11-28T10:00:00Z");
    static Step step(String runId, int order) {
        return new Step(runId, order, "step" + order, "step" + order, "node", StepStatus.PENDING, 0, false,
                NullNode.getInstance(), NullNode.getInstance(), Optional.empty(), Optional.empty(), Optional.empty(), Map.of());
    }
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        Payloads payloads = new Payloads(256 * 1024);
        String runId = "0194f1c2-7a3b-7c4d-8e5f-0123456789ab";
        Set<StepStatus> startable = Set.of(StepStatus.PENDING, StepStatus.WAITING, StepStatus.RUNNING);
        // The batches of a chain10 run's ten steps, as the runner writes them under SYNC.
        List<List<Change>> batches = new ArrayList<>();
        Map<String, JsonNode> outputs = new LinkedHashMap<>();
        Map<String, Integer> visits = new HashMap<>();
        for (int k = 1; k <= 10; k++) {
            Step running = step(runId, k).running(1, IntNode.valueOf(k - 1), T);
            Step done = running.finished(StepStatus.COMPLETED, IntNode.valueOf(k), Optional.empty(), T, Map.of());
            outputs.put("step" + k, IntNode.valueOf(k));
            visits.put("step" + k, 1);
            List<Change> batch = new ArrayList<>();
            batch.add(new Change.UpdateStep(running, startable));
            batch.add(new Change.AppendEvent(new Event(runId, 3L * k, Event.STEP_STARTED, Optional.of("step" + k), k, T, NullNode.getInstance())));
            batch.add(new Change.UpdateStep(done, Set.of(StepStatus.RUNNING)));
            batch.add(new Change.AppendEvent(new Event(runId, 3L * k + 1, Event.STEP_COMPLETED, Optional.of("step" + k), k, T, Json.object().put("ms", 0))));
            if (k < 10) batch.add(new Change.InsertStep(step(runId, k + 1)));
            batch.add(new Change.SaveCheckpoint(new Checkpoint(runId, k, k + 1, T, outputs, visits,
                    k < 10 ? List.of(new Checkpoint.Activation("step" + (k + 1), k + 1, List.of(new Checkpoint.Arrival("step" + k, IntNode.valueOf(k))))) : List.of(),
                    List.of(), Map.of(), "step" + k)));
            batches.add(batch);
        }
        StringBuilder all = new StringBuilder();
        for (List<Change> batch : batches) all.append(PostgresBatch.write(runId, Changes.coalesce(batch), payloads.pending())).append('\n');
        // The text as values: the journal's strings parsed, objects compared without their keys' order
        // (a checkpoint's maps iterate in an order that differs from one JVM to the next).
        long canonical = 0;
        try {
            for (String line : all.toString().split("\n")) {
                com.fasterxml.jackson.databind.JsonNode array = Json.mapper().readTree(line);
                for (com.fasterxml.jackson.databind.JsonNode change : array) {
                    var object = (com.fasterxml.jackson.databind.node.ObjectNode) change;
                    for (String key : List.of("events", "checkpoints")) {
                        if (object.has(key)) object.set(key, Json.mapper().readTree(object.get(key).textValue()));
                    }
                }
                canonical = canonical * 31 + array.hashCode();
            }
        } catch (Exception e) { throw new RuntimeException(e); }
        System.out.println("canonical_hash=" + Long.toHexString(canonical) + " chars=" + all.length());
        var threads = ManagementFactory.getThreadMXBean();
        long sink = 0;
        for (int round = 0; round < 6; round++) {
            long cpu = threads.getCurrentThreadCpuTime();
            for (int i = 0; i < n; i++) {
                for (List<Change> batch : batches) {
                    sink += PostgresBatch.write(runId, Changes.coalesce(batch), payloads.pending()).length();
                }
            }
            double us = (threads.getCurrentThreadCpuTime() - cpu) / 1000.0 / (n * 10.0);
            if (round >= 3) System.out.printf("batch_write_cpu_us_per_step=%.2f round=%d chars=%d%n", us, round, sink / ((round + 1L) * n * 10));
        }
    }
}
