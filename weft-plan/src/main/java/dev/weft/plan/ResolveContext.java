package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.StepScope;
import dev.weft.core.TimeSource;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a resolver sees: the run and its user, the plan's input (the user's message and context), the
 * results of the steps this one depends on (they have executed), the user's answers for this step,
 * and what any work inside a step may use ({@link StepScope}): the run's time source, events, facts
 * recorded on the step (a model-calling resolver's prompt, model and tokens), a durable {@link #once}
 * and the idempotency key. A resolver that calls a model passes this context to {@code weft-llm}'s
 * step calls, so the call is retried under Weft's policy and its facts land on this step. Used by one
 * resolution on one thread.
 */
public final class ResolveContext extends StepView {
    private final JsonNode input;
    private final Map<String, JsonNode> dependencyResults;
    private final ObjectNode answers;

    ResolveContext(
            StepScope scope,
            String stepId,
            JsonNode input,
            Map<String, JsonNode> dependencyResults,
            ObjectNode answers) {
        super(scope, stepId);
        this.input = Objects.requireNonNull(input, "input");
        this.dependencyResults = Map.copyOf(dependencyResults);
        this.answers = Objects.requireNonNull(answers, "answers");
    }

    /**
     * A context for resolving a step outside any run (a resolver's unit test): events and facts go
     * nowhere, {@link #once} lasts as long as the context.
     */
    public static ResolveContext detached(
            String runId,
            Optional<String> user,
            TimeSource time,
            String stepId,
            JsonNode input,
            Map<String, JsonNode> dependencyResults,
            ObjectNode answers) {
        return new ResolveContext(
                new DetachedScope(runId, user, runId + "/" + stepId + "/resolve", 1, time),
                stepId,
                input,
                dependencyResults,
                answers);
    }

    /** The plan's input: the user's message and whatever context the caller gave. */
    public JsonNode input() {
        return input;
    }

    /** Results of the steps this one depends on, by step id, including expanded children such as {@code B-0}. */
    public Map<String, JsonNode> dependencyResults() {
        return dependencyResults;
    }

    /** What the user answered to this step's question; an empty object if nothing. */
    public ObjectNode answers() {
        return answers;
    }

    /** {@code runId/stepId/resolve}: the same every time this step of this run is resolved. */
    @Override
    public String idempotencyKey() {
        return scope.runId() + "/" + stepId + "/resolve";
    }

    @Override
    public int attempt() {
        return scope.attempt();
    }

    @Override
    public void record(String key, JsonNode value) {
        scope.record(key, value);
    }

    /** {@link StepScope#once}, keyed by this step's resolution as well as {@code key}. */
    @Override
    public JsonNode once(String key, Supplier<JsonNode> call) {
        return scope.once(stepId + "/resolve/" + key, call);
    }
}
