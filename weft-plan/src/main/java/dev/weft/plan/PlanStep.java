package dev.weft.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/**
 * One step of a plan, as seed 000's planner writes it: which capability and action, what the user
 * asked for ({@code constraints}), what should change ({@code changes}), and which steps must finish
 * first.
 */
public record PlanStep(
        String id,
        String capability,
        String action,
        ObjectNode constraints,
        ObjectNode changes,
        List<String> dependsOn) {
    public PlanStep {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(capability, "capability");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(constraints, "constraints");
        Objects.requireNonNull(changes, "changes");
        dependsOn = List.copyOf(dependsOn);
    }
}
