package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One execution of a graph, as stored: what it was started with, where it is, and how it ended.
 *
 * @param pins node outputs taken from an earlier run instead of executing those nodes
 * @param output the run's result: the output of the node whose path ended last, or, when several
 *     paths ended, an object of their outputs by node name; {@code null} JSON until it completes
 * @param source what the graph was built from (a workflow definition, a plan), so that another
 *     process can rebuild it to resume the run; {@code null} JSON for graphs built in code
 */
public record Run(
        String id,
        String graphId,
        Optional<String> parentRunId,
        RunStatus status,
        JsonNode input,
        Map<String, JsonNode> variables,
        Map<String, JsonNode> pins,
        JsonNode output,
        Optional<RunError> error,
        Instant createdAt,
        Optional<Instant> endedAt,
        JsonNode source) {

    public Run {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(graphId, "graphId");
        Objects.requireNonNull(parentRunId, "parentRunId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(input, "input");
        variables = Map.copyOf(variables);
        pins = Map.copyOf(pins);
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(endedAt, "endedAt");
        Objects.requireNonNull(source, "source");
    }

    public Run withStatus(RunStatus status) {
        return new Run(
                id, graphId, parentRunId, status, input, variables, pins, output, error, createdAt, endedAt, source);
    }

    public Run finished(RunStatus status, JsonNode output, Optional<RunError> error, Instant endedAt) {
        return new Run(
                id,
                graphId,
                parentRunId,
                status,
                input,
                variables,
                pins,
                output,
                error,
                createdAt,
                Optional.of(endedAt),
                source);
    }
}
