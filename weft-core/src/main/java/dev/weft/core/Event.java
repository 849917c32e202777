package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An append-only record of something that happened in a run. {@code sequence} orders a run's events
 * from 1; {@code stepOrder} is 0 for events that belong to the run rather than a step.
 */
public record Event(
        String runId, long sequence, String type, Optional<String> nodeId, int stepOrder, Instant time, JsonNode data) {

    public static final String RUN_STARTED = "run.started";
    public static final String RUN_RESUMED = "run.resumed";
    public static final String RUN_RECOVERED = "run.recovered";
    public static final String RUN_WAITING = "run.waiting";
    public static final String RUN_COMPLETED = "run.completed";
    public static final String RUN_FAILED = "run.failed";
    public static final String RUN_CANCELLED = "run.cancelled";
    public static final String STEP_STARTED = "step.started";
    public static final String STEP_RETRYING = "step.retrying";
    public static final String STEP_COMPLETED = "step.completed";
    public static final String STEP_FAILED = "step.failed";
    public static final String STEP_SKIPPED = "step.skipped";
    public static final String STEP_WAITING = "step.waiting";
    /**
     * A model's answer (a tool call, an action) outside the step it was asked for, refused before
     * anything ran ({@code E_STEP_MISMATCH}): {@code stepId} or the node, what was answered, the reason.
     */
    public static final String STEP_REFUSED = "step.refused";
    /** A step's work was handed to a worker ({@code data.kind}, {@code data.queue}). */
    public static final String STEP_QUEUED = "step.queued";
    /** A step's work could not be handed to a worker and runs in the driving process ({@code data.reason}). */
    public static final String STEP_INLINE = "step.inline";
    /**
     * A step queued for a worker was taken back from a queue that stopped answering and run in the
     * driving process ({@code data.reason}).
     */
    public static final String STEP_TAKEN_BACK = "step.taken_back";

    public Event {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(data, "data");
    }
}
