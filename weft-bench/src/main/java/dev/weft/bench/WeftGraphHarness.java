package dev.weft.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import dev.weft.core.Durability;
import dev.weft.core.Graph;
import dev.weft.core.Node;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.store.InMemoryRunStore;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Runs a {@link GraphShape} on Weft's {@link Runner}. Used by one thread. */
final class WeftGraphHarness implements GraphHarness {
    private static final String AGAIN = "again";
    private static final String DONE = "done";
    private static final RunRequest FROM_ZERO = RunRequest.of(IntNode.valueOf(0));
    private static final Node INCREMENT =
            context -> NodeResult.output(IntNode.valueOf(context.input().asInt() + 1));

    private final Graph graph;
    private final boolean checkpointEveryStep;
    // A durable store, kept across batches and emptied between them; none for the in-memory ones.
    private final dev.weft.core.spi.@org.jspecify.annotations.Nullable RunStore durable;
    private final Durability durability;
    // Shared by every runner this harness builds, so that renewing the store does not leave an
    // executor behind each time; the graphs never run two steps at once, so it stays idle.
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private Runner runner;

    private WeftGraphHarness(
            GraphShape shape,
            boolean checkpointEveryStep,
            dev.weft.core.spi.@org.jspecify.annotations.Nullable RunStore durable,
            Durability durability) {
        this.graph = graph(shape);
        this.checkpointEveryStep = checkpointEveryStep;
        this.durable = durable;
        this.durability = durability;
        this.runner = newRunner();
    }

    private WeftGraphHarness(GraphShape shape, boolean checkpointEveryStep) {
        this(shape, checkpointEveryStep, null, Durability.SYNC);
    }

    /**
     * A durable checkpoint after every step, written to {@code store} (SQLite, PostgreSQL): committed
     * before the next step starts ({@link Durability#SYNC}), or by the run's background writer while
     * it goes on ({@link Durability#ASYNC}); either way the run's result comes after its last commit.
     */
    static WeftGraphHarness checkpointingDurably(
            GraphShape shape, dev.weft.core.spi.RunStore store, Durability durability) {
        return new WeftGraphHarness(shape, true, store, durability);
    }

    /** Checkpoints only when a run stops (Weft records every step and event all the same). */
    static WeftGraphHarness withoutCheckpoints(GraphShape shape) {
        return new WeftGraphHarness(shape, false);
    }

    /** A checkpoint after every step, in the in-memory store. */
    static WeftGraphHarness checkpointingInMemory(GraphShape shape) {
        return new WeftGraphHarness(shape, true);
    }

    /** The Weft graph of {@code shape}: each node adds one to the number it receives. */
    static Graph graph(GraphShape shape) {
        return switch (shape) {
            case CHAIN10 -> chain(shape);
            case LOOP100 -> loop(shape);
        };
    }

    private static Graph chain(GraphShape shape) {
        Graph.Builder builder = Graph.builder(shape.label());
        String previous = Graph.START;
        for (int i = 1; i <= shape.stepsPerRun(); i++) {
            String node = "step" + i;
            builder.node(node, INCREMENT).edge(previous, node);
            previous = node;
        }
        return builder.edge(previous, Graph.END).compile();
    }

    /**
     * One node whose router sends its output back to itself until it reaches the iteration count:
     * the counterpart of a LangGraph4j node with a conditional edge, one node execution per
     * iteration. Its visit limit is exactly the iteration count.
     */
    private static Graph loop(GraphShape shape) {
        int iterations = shape.stepsPerRun();
        NodeSpec work = NodeSpec.builder("work", INCREMENT)
                .handles(AGAIN, DONE)
                .router(output -> output.asInt() < iterations ? AGAIN : DONE)
                .maxVisits(iterations)
                .build();
        return Graph.builder(shape.label())
                .node(work)
                .edge(Graph.START, "work")
                .edge("work", AGAIN, "work")
                .edge("work", DONE, Graph.END)
                .compile();
    }

    /** Runs the graph once and returns the whole result, for tests that look at its steps. */
    RunResult runToResult() {
        RunResult result = runner.run(graph, FROM_ZERO);
        if (result.status() != RunStatus.COMPLETED) {
            throw new IllegalStateException("weft run of " + graph.id() + " ended " + result.status()
                    + result.error()
                            .map(e -> ": " + e.code() + " " + e.message())
                            .orElse(""));
        }
        return result;
    }

    @Override
    public int runOnce() {
        JsonNode count = runToResult().output();
        return count.asInt();
    }

    @Override
    public void forgetRuns() {
        if (durable != null) {
            durable.pruneRuns(java.time.Instant.now().plusSeconds(3600));
        }
        runner = newRunner();
    }

    private Runner newRunner() {
        if (durable != null) {
            return Runner.builder()
                    .store(durable)
                    .durability(durability)
                    .executor(executor)
                    .build();
        }
        // Latest checkpoint only: the runs are never resumed, so older checkpoints would only be
        // garbage; a fresh store per batch keeps the steps and events of finished runs from piling up.
        return Runner.builder()
                .store(InMemoryRunStore.latestCheckpointOnly())
                .checkpointEveryStep(checkpointEveryStep)
                .executor(executor)
                .build();
    }

    @Override
    public void close() {
        executor.close();
        if (durable != null) {
            durable.close();
        }
    }
}
