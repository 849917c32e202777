package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One execution of one node inside a run, as stored. A node visited three times in a loop has three
 * steps; a retried step keeps its row and counts its {@code attempt}.
 *
 * @param order the step's position in the run, from 1; with the run id, it identifies the step
 * @param pinned whether the output was taken from an earlier run rather than computed
 * @param details what the node recorded about its work (a resolved prompt, token counts)
 */
public record Step(
        String runId,
        int order,
        String nodeId,
        String name,
        String type,
        StepStatus status,
        int attempt,
        boolean pinned,
        JsonNode input,
        JsonNode output,
        Optional<RunError> error,
        Optional<Instant> startedAt,
        Optional<Instant> endedAt,
        Map<String, JsonNode> details) {

    public Step {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(endedAt, "endedAt");
        details = Map.copyOf(details);
    }

    /** The idempotency key of the step's work: {@code runId/order}. */
    public String key() {
        return runId + "/" + order;
    }

    public Step with(StepStatus status) {
        return new Step(
                runId, order, nodeId, name, type, status, attempt, pinned, input, output, error, startedAt, endedAt,
                details);
    }

    public Step running(int attempt, JsonNode input, Instant startedAt) {
        return new Step(
                runId,
                order,
                nodeId,
                name,
                type,
                StepStatus.RUNNING,
                attempt,
                pinned,
                input,
                output,
                error,
                this.startedAt.isPresent() ? this.startedAt : Optional.of(startedAt),
                endedAt,
                details);
    }

    public Step finished(
            StepStatus status,
            JsonNode output,
            Optional<RunError> error,
            Instant endedAt,
            Map<String, JsonNode> details) {
        return new Step(
                runId,
                order,
                nodeId,
                name,
                type,
                status,
                attempt,
                pinned,
                input,
                output,
                error,
                startedAt,
                Optional.of(endedAt),
                details);
    }

    /** The step as it stands while it waits on an interrupt: started, not ended. */
    public Step waiting(Map<String, JsonNode> details) {
        return new Step(
                runId,
                order,
                nodeId,
                name,
                type,
                StepStatus.WAITING,
                attempt,
                pinned,
                input,
                output,
                error,
                startedAt,
                Optional.empty(),
                details);
    }

    /** The step with other {@code details}, as it stands otherwise. */
    public Step withDetails(Map<String, JsonNode> details) {
        return new Step(
                runId, order, nodeId, name, type, status, attempt, pinned, input, output, error, startedAt, endedAt,
                details);
    }

    public Step pinnedWith(JsonNode input, JsonNode output, Instant at) {
        return new Step(
                runId,
                order,
                nodeId,
                name,
                type,
                StepStatus.COMPLETED,
                attempt,
                true,
                input,
                output,
                Optional.empty(),
                Optional.of(at),
                Optional.of(at),
                details);
    }

    /** How long the step took, in milliseconds, once it has ended. */
    public Optional<Long> durationMillis() {
        return startedAt.flatMap(
                s -> endedAt.map(e -> java.time.Duration.between(s, e).toMillis()));
    }
}
