package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.StepScope;
import dev.weft.core.TimeSource;
import java.util.Objects;
import java.util.Optional;

/**
 * A plan step's view of the step scope it runs in (its node's, or a detached one): the run, its user,
 * time and cancellation as the scope has them, and events tagged with the plan step's id. The base of
 * what resolvers and tools are given.
 */
abstract sealed class StepView implements StepScope permits ResolveContext, ToolContext {
    final StepScope scope;
    final String stepId;

    StepView(StepScope scope, String stepId) {
        this.scope = Objects.requireNonNull(scope, "scope");
        this.stepId = Objects.requireNonNull(stepId, "stepId");
    }

    @Override
    public final String runId() {
        return scope.runId();
    }

    @Override
    public final Optional<String> user() {
        return scope.user();
    }

    /** The plan step this is the view of (a child such as {@code B-0} for a call of an expanded step). */
    public final String stepId() {
        return stepId;
    }

    /** Appends an event to the run's log; an object without a {@code stepId} gets this step's. */
    @Override
    public final void emit(String type, JsonNode data) {
        if (data instanceof ObjectNode object && !object.has("stepId")) {
            ObjectNode tagged = object.deepCopy();
            tagged.put("stepId", stepId);
            scope.emit(type, tagged);
        } else {
            scope.emit(type, data);
        }
    }

    @Override
    public final TimeSource time() {
        return scope.time();
    }

    @Override
    public final boolean cancellationRequested() {
        return scope.cancellationRequested();
    }
}
