package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * How to run a plan: the mode, what resolvers see as the request ({@code input}: the user's message
 * and context), steps approved in advance, answers given in advance by step id, and optionally the
 * run's id and its user (the tenant every resolver and tool acts for). Immutable.
 */
public record PlanRequest(
        PlanMode mode,
        JsonNode input,
        Set<String> approvedSteps,
        ObjectNode answers,
        Optional<String> runId,
        Optional<String> user) {
    public PlanRequest {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(input, "input");
        approvedSteps = Set.copyOf(approvedSteps);
        Objects.requireNonNull(answers, "answers");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(user, "user");
    }

    public PlanRequest(PlanMode mode, JsonNode input, Set<String> approvedSteps, ObjectNode answers) {
        this(mode, input, approvedSteps, answers, Optional.empty(), Optional.empty());
    }

    public static PlanRequest auto(JsonNode input) {
        return new PlanRequest(PlanMode.AUTO, input, Set.of(), Json.object());
    }

    public static PlanRequest of(PlanMode mode) {
        return new PlanRequest(mode, NullNode.getInstance(), Set.of(), Json.object());
    }

    public PlanRequest approving(String... stepIds) {
        Set<String> approved = new LinkedHashSet<>(approvedSteps);
        approved.addAll(Set.of(stepIds));
        return new PlanRequest(mode, input, approved, answers, runId, user);
    }

    /** This request with the run's id chosen by the caller; a run with that id must not exist. */
    public PlanRequest withRunId(String runId) {
        return new PlanRequest(mode, input, approvedSteps, answers, Optional.of(runId), user);
    }

    /** This request made for {@code user}: the run is theirs, and resolvers and tools act for them. */
    public PlanRequest forUser(String user) {
        return new PlanRequest(mode, input, approvedSteps, answers, runId, Optional.of(user));
    }
}
