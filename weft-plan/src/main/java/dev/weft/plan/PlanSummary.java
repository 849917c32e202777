package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The join's summary of a plan (seed 000 §6.3): how many steps ran, succeeded, failed or were
 * skipped, whether the failure was partial, every error, and every result. Counts are of executions:
 * an expanded step counts once per child.
 */
public record PlanSummary(
        int totalSteps,
        int successfulSteps,
        int failedSteps,
        int skippedSteps,
        boolean partialFailure,
        List<StepError> errors,
        Map<String, JsonNode> results,
        List<StepOutcome> steps) {

    /** One failed execution. */
    public record StepError(String stepId, String code, String message) {}

    public PlanSummary {
        errors = List.copyOf(errors);
        results = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(results));
        steps = List.copyOf(steps);
    }

    public static PlanSummary of(List<StepOutcome> outcomes) {
        int total = 0;
        int ok = 0;
        int failed = 0;
        int skipped = 0;
        List<StepError> errors = new ArrayList<>();
        Map<String, JsonNode> results = new LinkedHashMap<>();
        for (StepOutcome outcome : outcomes) {
            for (StepOutcome leaf : outcome.leaves()) {
                total++;
                switch (leaf.status()) {
                    case SUCCEEDED, PREVIEWED -> {
                        ok++;
                        results.put(
                                leaf.stepId(),
                                leaf.status() == StepOutcome.Status.PREVIEWED ? leaf.args() : leaf.result());
                    }
                    case FAILED -> {
                        failed++;
                        leaf.error()
                                .ifPresent(e -> errors.add(
                                        new StepError(leaf.stepId(), e.code().name(), e.message())));
                    }
                    case SKIPPED -> skipped++;
                }
            }
        }
        return new PlanSummary(total, ok, failed, skipped, failed > 0 && ok > 0, errors, results, outcomes);
    }

    /** The summary as a node's output, and as {@code weft plan run --json} prints it. */
    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("totalSteps", totalSteps);
        node.put("successfulSteps", successfulSteps);
        node.put("failedSteps", failedSteps);
        node.put("skippedSteps", skippedSteps);
        node.put("partialFailure", partialFailure);
        ArrayNode errorArray = node.putArray("errors");
        for (StepError error : errors) {
            ObjectNode e = errorArray.addObject();
            e.put("stepId", error.stepId());
            e.put("code", error.code());
            e.put("message", error.message());
        }
        ObjectNode resultNode = node.putObject("results");
        results.forEach(resultNode::set);
        ArrayNode stepArray = node.putArray("steps");
        steps.forEach(step -> stepArray.add(step.toJson()));
        return node;
    }

    public static PlanSummary fromJson(JsonNode node) {
        List<StepOutcome> outcomes = new ArrayList<>();
        node.path("steps").forEach(step -> outcomes.add(StepOutcome.fromJson(step)));
        return of(outcomes);
    }
}
