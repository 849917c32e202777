package dev.weft.plan;

import java.util.Objects;

/**
 * What a tool call knows about where it comes from. {@code idempotencyKey} is the same every time the
 * same step of the same run is executed (retries, recovery), so a tool can refuse to act twice.
 */
public record ToolContext(String runId, String stepId, String idempotencyKey, int attempt) {
    public ToolContext {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(stepId, "stepId");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    }
}
