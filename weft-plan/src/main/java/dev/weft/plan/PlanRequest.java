package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * How to run a plan: the mode, what resolvers see as the request ({@code input}: the user's message
 * and context), steps approved in advance, and answers given in advance by step id. Immutable.
 */
public record PlanRequest(PlanMode mode, JsonNode input, Set<String> approvedSteps, ObjectNode answers) {
    public PlanRequest {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(input, "input");
        approvedSteps = Set.copyOf(approvedSteps);
        Objects.requireNonNull(answers, "answers");
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
        return new PlanRequest(mode, input, approved, answers);
    }
}
