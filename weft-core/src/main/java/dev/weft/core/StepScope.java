package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What work done inside one step may use, whatever kind of work it is (a node, a plan step's resolver
 * or tool, a model call): whose run it is, the run's time source, the step's idempotency key, events,
 * facts recorded on the step, and a durable memo of calls with side effects. A scope serves one step
 * on one thread at a time.
 */
public interface StepScope {
    String runId();

    /** The run's user (its tenant), when it was started for one. */
    default Optional<String> user() {
        return Optional.empty();
    }

    /** 1 for the first attempt, 2 for the first retry, … */
    int attempt();

    /** The key that identifies this step's work across retries and recovery. */
    String idempotencyKey();

    /** Appends an event to the run's log, tagged with this step. */
    void emit(String type, JsonNode data);

    /**
     * Records a fact about this step (a resolved prompt, token counts, the model) that is kept on the
     * step record under {@code key}; a later value for the same key replaces the earlier one.
     */
    void record(String key, JsonNode value);

    /**
     * Makes a call with side effects at most once for this step, even when the step runs again
     * after a retry or a crash: the result is stored under {@link #idempotencyKey()} plus {@code
     * key}, and a later call with the same key returns the stored result without calling. A call that
     * completed but whose result was not stored before a crash is made again: the callee should honour
     * the idempotency key itself too.
     */
    JsonNode once(String key, Supplier<JsonNode> call);

    /** The runtime's time source: use it rather than the system clock, so tests control time. */
    TimeSource time();

    /** Whether someone asked the run to stop; long work may check it and finish early. */
    boolean cancellationRequested();
}
