package dev.weft.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.weft.core.Durability;
import dev.weft.core.Graph;
import dev.weft.core.Node;
import dev.weft.core.NodeResult;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code weft-bench payload [--runs N] [--steps S] [--mib M]}: what a big output costs a durable run.
 * A chain of S nodes whose first returns a text of M MiB (over the stores' 1 MiB payload limit, so it
 * is kept apart) and whose others return a small number, run N times on SQLite and on PostgreSQL under
 * each {@link Durability}; beside it, the same chain with a small first output. Every checkpoint holds
 * every output so far, the big one too. Prints milliseconds per run, and per configuration the big
 * chain over the small one. Each configuration first runs a quarter of N untimed. Results go to
 * stdout, progress to stderr.
 */
public final class PayloadBenchmark {
    private static final String USAGE = "usage: weft-bench payload [--runs N] [--steps S] [--mib M]"
            + "   (defaults 20, 20, 2; N >= 1, S >= 2, M >= 2)";

    private static final Map<String, NumericOptions.Option> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("runs", new NumericOptions.Option(20, 1));
        OPTIONS.put("steps", new NumericOptions.Option(20, 2));
        // The stores keep values over 1 MiB apart: 2 MiB is the least that surely is.
        OPTIONS.put("mib", new NumericOptions.Option(2, 2));
    }

    private PayloadBenchmark() {}

    /** One measurement: milliseconds per run of one configuration. */
    record Measurement(String store, Durability durability, boolean big, int steps, double msPerRun) {
        String line(long mib) {
            return "engine=weft store=" + store + " durability="
                    + durability.name().toLowerCase()
                    + " first_output=" + (big ? mib + "MiB" : "small") + " steps=" + steps
                    + String.format(" ms_per_run=%.2f", msPerRun);
        }
    }

    public static void run(String[] args) {
        NumericOptions options = NumericOptions.parse(args, OPTIONS, USAGE);
        int runs = options.intValue("runs");
        int steps = options.intValue("steps");
        long mib = options.value("mib");
        Map<String, Supplier<RunStore>> stores = new LinkedHashMap<>();
        stores.put("sqlite", DurableStores::sqlite);
        stores.put("postgres", DurableStores::postgres);
        for (Map.Entry<String, Supplier<RunStore>> store : stores.entrySet()) {
            try (RunStore opened = store.getValue().get()) {
                for (Durability durability : List.of(Durability.SYNC, Durability.ASYNC)) {
                    Measurement small = measure(store.getKey(), opened, durability, steps, 0, runs);
                    Measurement big = measure(store.getKey(), opened, durability, steps, mib, runs);
                    System.out.println(small.line(mib));
                    System.out.println(big.line(mib));
                    System.out.printf(
                            "ratio store=%s durability=%s big_over_small=%.2f%n",
                            store.getKey(), durability.name().toLowerCase(), big.msPerRun() / small.msPerRun());
                }
            }
        }
    }

    /** Runs the chain {@code runs} times (after a quarter of that untimed) on {@code store}. */
    static Measurement measure(String name, RunStore store, Durability durability, int steps, long mib, int runs) {
        Graph graph = chain(steps, mib);
        Runner runner = Runner.builder().store(store).durability(durability).build();
        System.err.printf(
                "weft-bench payload: store=%s durability=%s first_output=%s...%n",
                name, durability.name().toLowerCase(), mib == 0 ? "small" : mib + "MiB");
        for (int i = 0; i < Math.max(1, runs / 4); i++) {
            runOnce(runner, graph);
        }
        long start = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            runOnce(runner, graph);
        }
        double msPerRun = (System.nanoTime() - start) / 1e6 / runs;
        // The next configuration starts from an empty store, not from this one's payloads.
        store.pruneRuns(Instant.now().plusSeconds(3600));
        return new Measurement(name, durability, mib > 0, steps, msPerRun);
    }

    /** {@code steps} nodes in a row; the first returns a text of {@code mib} MiB (a number if 0). */
    static Graph chain(int steps, long mib) {
        JsonNode first = mib == 0 ? IntNode.valueOf(1) : TextNode.valueOf("w".repeat(Math.toIntExact(mib << 20)));
        Node small =
                context -> NodeResult.output(IntNode.valueOf(context.input().asInt() + 1));
        Graph.Builder builder = Graph.builder("payload" + steps).node("step1", context -> NodeResult.output(first));
        builder.edge(Graph.START, "step1");
        String previous = "step1";
        for (int i = 2; i <= steps; i++) {
            String node = "step" + i;
            builder.node(node, small).edge(previous, node);
            previous = node;
        }
        return builder.edge(previous, Graph.END).compile();
    }

    private static void runOnce(Runner runner, Graph graph) {
        RunResult result = runner.run(graph, RunRequest.of(IntNode.valueOf(0)));
        if (result.status() != RunStatus.COMPLETED) {
            throw new IllegalStateException("a run of " + graph.id() + " ended " + result.status()
                    + result.error()
                            .map(e -> ": " + e.code() + " " + e.message())
                            .orElse(""));
        }
    }
}
