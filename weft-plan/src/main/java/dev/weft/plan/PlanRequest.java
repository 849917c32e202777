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
 * and context), steps approved in advance, answers given in advance by step id, optionally the run's
 * id and its user (the tenant every resolver and tool acts for), and the steps held for a person: each
 * waits for approval before its call, whatever its tool's risk (a change the user's words did not ask
 * for). Immutable.
 */
public record PlanRequest(
        PlanMode mode,
        JsonNode input,
        Set<String> approvedSteps,
        ObjectNode answers,
        Optional<String> runId,
        Optional<String> user,
        Set<String> heldSteps) {
    public PlanRequest {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(input, "input");
        approvedSteps = Set.copyOf(approvedSteps);
        Objects.requireNonNull(answers, "answers");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(user, "user");
        heldSteps = Set.copyOf(heldSteps);
    }

    public PlanRequest(
            PlanMode mode,
            JsonNode input,
            Set<String> approvedSteps,
            ObjectNode answers,
            Optional<String> runId,
            Optional<String> user) {
        this(mode, input, approvedSteps, answers, runId, user, Set.of());
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
        return new PlanRequest(mode, input, approved, answers, runId, user, heldSteps);
    }

    /** This request with the run's id chosen by the caller; a run with that id must not exist. */
    public PlanRequest withRunId(String runId) {
        return new PlanRequest(mode, input, approvedSteps, answers, Optional.of(runId), user, heldSteps);
    }

    /** This request made for {@code user}: the run is theirs, and resolvers and tools act for them. */
    public PlanRequest forUser(String user) {
        return new PlanRequest(mode, input, approvedSteps, answers, runId, Optional.of(user), heldSteps);
    }

    /** This request with {@code stepIds} held: each waits for a person's approval before its call. */
    public PlanRequest holding(Set<String> stepIds) {
        Set<String> held = new LinkedHashSet<>(heldSteps);
        held.addAll(stepIds);
        return new PlanRequest(mode, input, approvedSteps, answers, runId, user, held);
    }
}
