package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Objects;

/**
 * What a resolver sees: the run, the plan's input (the user's message and context), the results of
 * the steps this one depends on (they have executed), and the user's answers for this step.
 *
 * @param dependencyResults results by step id, including expanded children such as {@code B-0}
 * @param answers what the user answered to this step's question; an empty object if nothing
 */
public record ResolveContext(
        String runId, JsonNode input, Map<String, JsonNode> dependencyResults, ObjectNode answers) {
    public ResolveContext {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(input, "input");
        dependencyResults = Map.copyOf(dependencyResults);
        Objects.requireNonNull(answers, "answers");
    }
}
