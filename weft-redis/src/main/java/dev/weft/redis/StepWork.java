package dev.weft.redis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Graph;
import dev.weft.core.Run;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.WorkerStep;
import dev.weft.core.spi.RunStore;
import dev.weft.core.spi.StepDispatcher;
import dev.weft.plan.PlanExecutor;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Runs one queued step's work and makes its outcome: a plan step's tool calls through the plan
 * executor named in the work, a queued workflow node through its run's rebuilt graph. A worker runs
 * the entries it reads with it, and a server the steps it takes back from a Redis that stopped
 * answering, so the same step does the same thing wherever it runs. Thread-safe.
 */
final class StepWork {
    private final RunStore store;
    private final Function<Run, Optional<Graph>> graphs;
    private final Function<String, Optional<PlanExecutor>> executors;
    private final Map<String, Optional<PlanExecutor>> executorCache = new ConcurrentHashMap<>();
    private final TimeSource time;
    /** Who runs it, for the messages of work it cannot run ("worker host-1", "this server"). */
    private final String who;

    StepWork(
            RunStore store,
            Function<Run, Optional<Graph>> graphs,
            Function<String, Optional<PlanExecutor>> executors,
            TimeSource time,
            String who) {
        this.store = store;
        this.graphs = graphs;
        this.executors = executors;
        this.time = time;
        this.who = who;
    }

    /** The outcome of the work {@code kind} of step {@code order} ({@code nodeId}) of {@code run}. */
    JsonNode run(Run run, int order, String nodeId, String kind, JsonNode work) {
        try {
            if (kind.equals(PlanExecutor.QUEUED_KIND)) {
                String name = work.path("executor").asText();
                Optional<PlanExecutor> executor = executorCache.computeIfAbsent(name, executors);
                if (executor.isEmpty()) {
                    return StepDispatcher.failed(
                            ErrorCode.E_NOT_FOUND,
                            who + " has no plan executor named '" + name
                                    + "' (the module that makes it is not on its class path)");
                }
                WorkerStep scope = WorkerStep.of(store, run, order, nodeId, time);
                return scope.ran(executor.get().runQueued(work, scope));
            }
            if (kind.equals(StepDispatcher.NODE_KIND)) {
                Optional<Graph> graph = graphs.apply(run);
                if (graph.isEmpty()) {
                    return StepDispatcher.failed(
                            ErrorCode.E_GRAPH_INVALID, who + " cannot rebuild the graph of run '" + run.id() + "'");
                }
                return WorkerStep.runNode(graph.get(), run, order, nodeId, work, store, time);
            }
            return StepDispatcher.failed(ErrorCode.E_BAD_INPUT, who + " does not know work of kind '" + kind + "'");
        } catch (WeftException e) {
            return StepDispatcher.failed(e.code(), e.getMessage());
        }
    }
}
