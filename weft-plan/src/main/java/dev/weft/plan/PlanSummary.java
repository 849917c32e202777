package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
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
        List<JsonNode> stored = new ArrayList<>(outcomes.size());
        outcomes.forEach(outcome -> stored.add(outcome.toJson()));
        return fromJson(summarize(stored));
    }

    /**
     * The summary, as JSON, of steps' outcomes as their nodes stored them ({@link
     * StepOutcome#toJson}): the join reads them in place rather than parsing each one.
     */
    static ObjectNode summarize(List<JsonNode> outcomes) {
        Tally tally = new Tally();
        outcomes.forEach(tally::count);
        ObjectNode node = Json.object();
        node.put("totalSteps", tally.total);
        node.put("successfulSteps", tally.ok);
        node.put("failedSteps", tally.failed);
        node.put("skippedSteps", tally.skipped);
        node.put("partialFailure", tally.failed > 0 && tally.ok > 0);
        node.set("errors", tally.errors);
        node.set("results", tally.results);
        ArrayNode stepArray = node.putArray("steps");
        outcomes.forEach(stepArray::add);
        return node;
    }

    /** Counts executions: an expanded step counts once per child. */
    private static final class Tally {
        int total;
        int ok;
        int failed;
        int skipped;
        final ArrayNode errors = Json.mapper().createArrayNode();
        final ObjectNode results = Json.object();

        void count(JsonNode outcome) {
            JsonNode children = outcome.path("children");
            if (!children.isEmpty()) {
                children.forEach(this::count);
                return;
            }
            total++;
            String stepId = outcome.get("stepId").asText();
            switch (StepOutcome.Status.valueOf(outcome.get("status").asText())) {
                case SUCCEEDED -> {
                    ok++;
                    results.set(stepId, valueOf(outcome, "result"));
                }
                case PREVIEWED -> {
                    ok++;
                    results.set(stepId, valueOf(outcome, "args"));
                }
                case FAILED -> {
                    failed++;
                    JsonNode error = outcome.path("error");
                    if (error.isObject()) {
                        ObjectNode e = errors.addObject();
                        e.put("stepId", stepId);
                        e.set("code", error.get("code"));
                        e.set("message", error.get("message"));
                    }
                }
                case SKIPPED -> skipped++;
            }
        }

        private static JsonNode valueOf(JsonNode outcome, String field) {
            JsonNode value = outcome.get(field);
            return value == null ? NullNode.getInstance() : value;
        }
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

    /** Reads a summary as {@link #toJson} (or the join) wrote it. */
    public static PlanSummary fromJson(JsonNode node) {
        List<StepError> errors = new ArrayList<>();
        node.path("errors")
                .forEach(e -> errors.add(new StepError(
                        e.path("stepId").asText(),
                        e.path("code").asText(),
                        e.path("message").asText())));
        Map<String, JsonNode> results = new LinkedHashMap<>();
        node.path("results").properties().forEach(e -> results.put(e.getKey(), e.getValue()));
        List<StepOutcome> steps = new ArrayList<>();
        node.path("steps").forEach(step -> steps.add(StepOutcome.fromJson(step)));
        return new PlanSummary(
                node.path("totalSteps").asInt(),
                node.path("successfulSteps").asInt(),
                node.path("failedSteps").asInt(),
                node.path("skippedSteps").asInt(),
                node.path("partialFailure").asBoolean(),
                errors,
                results,
                steps);
    }
}
