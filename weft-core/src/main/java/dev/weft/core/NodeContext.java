package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;

/**
 * What a node sees while it runs one step: its input, the run's variable context (run input,
 * variables, earlier outputs by node name), and ways to report what it does. One context serves
 * one step on one thread.
 */
public interface NodeContext extends StepScope {
    @Override
    String runId();

    /** The run's user (its tenant), when it was started for one ({@code RunRequest.Builder#user}). */
    @Override
    Optional<String> user();

    String nodeId();

    /** The node's name: the key its output is stored under in {@link #outputs()}. */
    String nodeName();

    /** This step's position in the run, from 1. */
    int stepOrder();

    /** 1 for the first attempt, 2 for the first retry, … */
    @Override
    int attempt();

    /**
     * The node's input: the output of the node that led here; at a join, the merge of the outputs
     * that arrived (see {@link Graph} for the merge rule); the run input for an entry node.
     */
    JsonNode input();

    /** The input the run was started with. */
    JsonNode runInput();

    /** The graph's variables with the run's overrides applied. */
    Map<String, JsonNode> variables();

    /** The latest output of every node that has completed in this run, by node name. */
    Map<String, JsonNode> outputs();

    /** When the run is being resumed after this node interrupted it: the value it was resumed with. */
    Optional<JsonNode> resumeValue();

    /** When the run is being resumed after this node interrupted it: the payload it interrupted with. */
    Optional<JsonNode> interruptPayload();

    /** Whether someone asked the run to stop; a long node may check it and finish early. */
    @Override
    boolean cancellationRequested();

    /** Appends an event to the run's log, tagged with this step. */
    @Override
    void emit(String type, JsonNode data);

    /**
     * Records extra facts about this step (a resolved prompt, token counts) that are kept on the step
     * record under {@code key}.
     */
    @Override
    void record(String key, JsonNode value);

    /**
     * Makes a call with side effects at most once for this step, even when the step runs again
     * after a retry or a crash: the result is stored under the step's idempotency key plus {@code
     * key}, and a later call with the same key returns the stored result without calling. (A call
     * that completed but whose result was not stored before a crash is made again: tools should
     * honour the key themselves too.)
     */
    @Override
    JsonNode once(String key, java.util.function.Supplier<JsonNode> call);

    /** The key that identifies this step's work across retries and recovery: {@code runId/stepOrder}. */
    @Override
    default String idempotencyKey() {
        return runId() + "/" + stepOrder();
    }

    /**
     * A value the nodes of this run share while this process drives it (a semaphore, a cache),
     * made by {@code initial} the first time any of them asks for {@code key}. It is not stored: a
     * run resumed or recovered starts without it.
     *
     * @throws ClassCastException if {@code key} already holds a value of another type
     */
    <T> T runLocal(String key, Class<T> type, java.util.function.Supplier<? extends T> initial);

    /** The time source of the runner: use it rather than the system clock, so tests control time. */
    @Override
    TimeSource time();

    /**
     * Hands the rest of this step's work to a worker process through the runner's {@link
     * dev.weft.core.spi.StepDispatcher}: {@code work} is what a worker needs to do it, {@code kind}
     * tells the worker how. Returns the result the node returns: the step then waits for the
     * worker, holding no thread, and the node runs again with the worker's outcome as {@link
     * #resumeValue()} (see {@link NodeResult.Dispatched}). Empty when the work is to be done here:
     * the runner has no dispatcher, or it cannot reach its queue now (the run's log says so, with a
     * {@code step.inline} event).
     */
    default java.util.Optional<NodeResult> dispatch(String kind, JsonNode work) {
        return java.util.Optional.empty();
    }
}
