package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A planner's output (seed 000): the intent it recognised, how sure it is, and the steps. Read one
 * with {@link PlanParser}; {@link #toJson()} writes the same format back.
 */
public record Plan(String intentType, double confidence, List<PlanStep> steps) {
    public Plan {
        Objects.requireNonNull(intentType, "intentType");
        steps = List.copyOf(steps);
    }

    public Optional<PlanStep> step(String id) {
        return steps.stream().filter(s -> s.id().equals(id)).findFirst();
    }

    public ObjectNode toJson() {
        ObjectNode root = Json.object();
        root.put("intentType", intentType);
        root.put("confidence", confidence);
        ArrayNode plan = root.putArray("plan");
        for (PlanStep step : steps) {
            ObjectNode node = plan.addObject();
            node.put("id", step.id());
            node.put("capability", step.capability());
            node.put("action", step.action());
            node.set("constraints", step.constraints());
            node.set("changes", step.changes());
            ArrayNode deps = node.putArray("dependsOn");
            step.dependsOn().forEach(deps::add);
        }
        return root;
    }

    public static Plan fromJson(JsonNode json) {
        return PlanParser.fromJson(json);
    }
}
