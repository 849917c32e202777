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
 * @param user whose run it is (its tenant): an assistant scopes every query of the run by it; empty
 *     for a run started for nobody in particular (a workflow from the command line)
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
        JsonNode source,
        Optional<String> user) {

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
        Objects.requireNonNull(user, "user");
    }

    /**
     * Checks that {@code actor} may act on this run: a run of a user belongs to that user alone; a run
     * of nobody in particular is anyone's.
     *
     * @throws ForbiddenException ({@code E_FORBIDDEN}) if the run is another user's
     */
    public Run requireUser(String actor) {
        Objects.requireNonNull(actor, "actor");
        if (user.isPresent() && !user.get().equals(actor)) {
            throw new ForbiddenException("run '" + id + "' is not a run of user '" + actor + "'");
        }
        return this;
    }

    public Run withStatus(RunStatus status) {
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
                endedAt,
                source,
                user);
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
                source,
                user);
    }
}
