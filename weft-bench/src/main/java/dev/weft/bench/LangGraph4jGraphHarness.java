package dev.weft.bench;

import static org.bsc.langgraph4j.action.AsyncEdgeAction.edge_async;
import static org.bsc.langgraph4j.action.AsyncNodeAction.node_async;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.bsc.langgraph4j.CompileConfig;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.GraphStateException;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.StateGraph;
import org.bsc.langgraph4j.action.AsyncEdgeAction;
import org.bsc.langgraph4j.action.AsyncNodeAction;
import org.bsc.langgraph4j.checkpoint.BaseCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.FileSystemSaver;
import org.bsc.langgraph4j.checkpoint.MemorySaver;
import org.bsc.langgraph4j.serializer.std.ObjectStreamStateSerializer;
import org.bsc.langgraph4j.state.AgentState;
import org.jspecify.annotations.Nullable;

/** Runs a {@link GraphShape} on LangGraph4j's {@link CompiledGraph}. Used by one thread. */
final class LangGraph4jGraphHarness implements GraphHarness {
    static final String COUNT = "count";
    private static final String AGAIN = "again";
    private static final String DONE = "done";
    private static final Map<String, Object> FROM_ZERO = Map.of(COUNT, 0);
    // LangGraph4j's default limit of 25 iterations (START and END count as well) would stop loop100
    // after 22 steps.
    private static final int RECURSION_LIMIT = 1_000;
    private static final AsyncNodeAction<AgentState> INCREMENT = node_async(state -> Map.of(COUNT, count(state) + 1));

    private final GraphShape shape;
    // Makes the saver of each compilation; none without checkpoints.
    private final @Nullable Supplier<BaseCheckpointSaver> savers;
    // The folder of the file saver, emptied between batches and deleted on close; none otherwise.
    private final @Nullable Path folder;
    private CompiledGraph<AgentState> graph;
    private long runs;

    private LangGraph4jGraphHarness(
            GraphShape shape, @Nullable Supplier<BaseCheckpointSaver> savers, @Nullable Path folder) {
        this.shape = shape;
        this.savers = savers;
        this.folder = folder;
        this.graph = compile(shape, savers == null ? null : savers.get());
    }

    static LangGraph4jGraphHarness withoutCheckpoints(GraphShape shape) {
        return new LangGraph4jGraphHarness(shape, null, null);
    }

    /** A checkpoint after every node, in a {@link MemorySaver}. */
    static LangGraph4jGraphHarness checkpointingInMemory(GraphShape shape) {
        return new LangGraph4jGraphHarness(shape, MemorySaver::new, null);
    }

    /**
     * A checkpoint after every node, in LangGraph4j's {@link FileSystemSaver} (one file per run in a
     * temporary folder): the one saver that outlives the JVM in LangGraph4j's core. Its JDBC savers
     * (PostgreSQL, MySQL, Oracle) are separate artifacts, and it has none for SQLite.
     */
    static LangGraph4jGraphHarness checkpointingToFiles(GraphShape shape) {
        try {
            Path folder = Files.createTempDirectory("weft-bench-lg4j");
            return new LangGraph4jGraphHarness(
                    shape,
                    () -> new FileSystemSaver(folder, new ObjectStreamStateSerializer<>(AgentState::new)),
                    folder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The LangGraph4j graph of {@code shape}, compiled: each node adds one to the state's counter.
     * With {@code checkpointing}, it saves to a new {@link MemorySaver}.
     */
    static CompiledGraph<AgentState> compile(GraphShape shape, boolean checkpointing) {
        return compile(shape, checkpointing ? new MemorySaver() : null);
    }

    /** The LangGraph4j graph of {@code shape}, compiled, saving to {@code saver} if there is one. */
    static CompiledGraph<AgentState> compile(GraphShape shape, @Nullable BaseCheckpointSaver saver) {
        CompileConfig.Builder config = CompileConfig.builder().recursionLimit(RECURSION_LIMIT);
        if (saver != null) {
            config.checkpointSaver(saver);
        }
        try {
            StateGraph<AgentState> graph = switch (shape) {
                case CHAIN10 -> chain(shape);
                case LOOP100 -> loop(shape);
            };
            return graph.compile(config.build());
        } catch (GraphStateException e) {
            throw new IllegalStateException("LangGraph4j rejected the " + shape.label() + " graph", e);
        }
    }

    private static StateGraph<AgentState> chain(GraphShape shape) throws GraphStateException {
        StateGraph<AgentState> graph = new StateGraph<>(AgentState::new);
        String previous = StateGraph.START;
        for (int i = 1; i <= shape.stepsPerRun(); i++) {
            String node = "step" + i;
            graph.addNode(node, INCREMENT).addEdge(previous, node);
            previous = node;
        }
        return graph.addEdge(previous, StateGraph.END);
    }

    /** One node and a conditional edge back to it: one node execution per iteration. */
    private static StateGraph<AgentState> loop(GraphShape shape) throws GraphStateException {
        int iterations = shape.stepsPerRun();
        AsyncEdgeAction<AgentState> untilDone = edge_async(state -> count(state) < iterations ? AGAIN : DONE);
        return new StateGraph<>(AgentState::new)
                .addNode("work", INCREMENT)
                .addEdge(StateGraph.START, "work")
                .addConditionalEdges("work", untilDone, Map.of(AGAIN, "work", DONE, StateGraph.END));
    }

    private static int count(AgentState state) {
        return state.<Integer>value(COUNT).orElse(0);
    }

    /** The run's configuration: with a checkpointer, each run needs a thread of its own. */
    RunnableConfig nextRunConfig() {
        runs++;
        return savers != null ? RunnableConfig.builder().threadId("run-" + runs).build() : RunnableConfig.empty();
    }

    @Override
    public int runOnce() {
        AgentState end = graph.invoke(FROM_ZERO, nextRunConfig())
                .orElseThrow(
                        () -> new IllegalStateException("LangGraph4j run of " + shape.label() + " returned no state"));
        return count(end);
    }

    @Override
    public void forgetRuns() {
        // The saver is part of the compiled graph, so a fresh saver means compiling again (untimed).
        if (savers != null) {
            deleteFiles(false);
            graph = compile(shape, savers.get());
        }
    }

    /** The files the file saver has written so far (and not forgotten): one per run. */
    long files() {
        if (folder == null) {
            return 0;
        }
        try (Stream<Path> files = Files.list(folder)) {
            return files.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        deleteFiles(true);
    }

    private void deleteFiles(boolean andFolder) {
        if (folder == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                if (andFolder || !path.equals(folder)) {
                    Files.deleteIfExists(path);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not empty " + folder, e);
        }
    }
}
