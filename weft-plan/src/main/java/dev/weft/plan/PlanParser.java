package dev.weft.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads seed 000's plan JSON, checking every field: a plan that is malformed, empty, has duplicate
 * step ids, a step that depends on itself or on a step that is not in the plan is {@code
 * E_PLAN_INVALID}, with a message naming the step. Stateless.
 */
public final class PlanParser {
    private static final Set<String> ROOT_FIELDS = Set.of("intentType", "confidence", "plan");
    private static final Set<String> STEP_FIELDS =
            Set.of("id", "capability", "action", "constraints", "changes", "dependsOn");

    private PlanParser() {}

    public static Plan parse(String json) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new PlanInvalidException("plan is not valid JSON: " + Json.describe(e));
        }
        if (root == null) {
            throw new PlanInvalidException("plan is empty");
        }
        return fromJson(root);
    }

    public static Plan fromJson(JsonNode root) {
        if (!root.isObject()) {
            throw new PlanInvalidException("a plan must be a JSON object with a 'plan' array");
        }
        root.fieldNames().forEachRemaining(name -> {
            if (!ROOT_FIELDS.contains(name)) {
                throw new PlanInvalidException(
                        "unknown plan field '" + name + "' (known: confidence, intentType, plan)");
            }
        });
        String intent = root.path("intentType").isMissingNode()
                        || root.get("intentType").isNull()
                ? "unknown"
                : text(root.get("intentType"), "intentType");
        double confidence = 1.0;
        JsonNode confidenceNode = root.get("confidence");
        if (confidenceNode != null && !confidenceNode.isNull()) {
            if (!confidenceNode.isNumber()) {
                throw new PlanInvalidException("confidence must be a number, was " + confidenceNode);
            }
            confidence = confidenceNode.asDouble();
        }
        JsonNode array = root.get("plan");
        if (array == null || !array.isArray()) {
            throw new PlanInvalidException(array == null ? "plan: missing field" : "plan must be an array of steps");
        }
        if (array.isEmpty()) {
            throw new PlanInvalidException("plan has no steps");
        }
        List<PlanStep> steps = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < array.size(); i++) {
            JsonNode node = array.get(i);
            String where = "plan[" + i + "]";
            if (!node.isObject()) {
                throw new PlanInvalidException(where + " must be an object");
            }
            String id = text(node.get("id"), where + ".id");
            String step = "step '" + id + "'";
            node.fieldNames().forEachRemaining(name -> {
                if (!STEP_FIELDS.contains(name)) {
                    throw new PlanInvalidException(step + ": unknown field '" + name + "'");
                }
            });
            if (!ids.add(id)) {
                throw new PlanInvalidException(step + " appears more than once in the plan");
            }
            String capability = text(node.get("capability"), step + ": capability");
            String action = text(node.get("action"), step + ": action");
            ObjectNode constraints = object(node.get("constraints"), step + ": constraints");
            ObjectNode changes = object(node.get("changes"), step + ": changes");
            List<String> dependsOn = new ArrayList<>();
            JsonNode deps = node.get("dependsOn");
            if (deps != null && !deps.isNull()) {
                if (!deps.isArray()) {
                    throw new PlanInvalidException(step + ": dependsOn must be an array of step ids");
                }
                for (JsonNode dep : deps) {
                    String depId = text(dep, step + ": dependsOn entry");
                    if (!dependsOn.contains(depId)) {
                        dependsOn.add(depId);
                    }
                }
            }
            steps.add(new PlanStep(id, capability, action, constraints, changes, dependsOn));
        }
        for (PlanStep step : steps) {
            for (String dep : step.dependsOn()) {
                if (dep.equals(step.id())) {
                    throw new PlanInvalidException("step '" + step.id() + "' depends on itself");
                }
                if (!ids.contains(dep)) {
                    throw new PlanInvalidException(
                            "step '" + step.id() + "' depends on step '" + dep + "', which is not in the plan");
                }
            }
        }
        return new Plan(intent, confidence, steps);
    }

    private static String text(JsonNode node, String what) {
        if (node == null || node.isNull()) {
            throw new PlanInvalidException(what + ": missing");
        }
        if (!node.isTextual() || node.asText().isBlank()) {
            throw new PlanInvalidException(what + " must be a non-empty string, was " + node);
        }
        return node.asText();
    }

    private static ObjectNode object(JsonNode node, String what) {
        if (node == null || node.isNull()) {
            return Json.object();
        }
        if (!node.isObject()) {
            throw new PlanInvalidException(what + " must be an object, was " + node);
        }
        return (ObjectNode) node;
    }
}
