package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.RunError;
import dev.weft.plan.internal.Instants;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What became of one plan step (or one child of an expanded step): the call it made, its result or
 * error, and the undo it queued. It is the output of the step's node, so it is checkpointed with the
 * run.
 *
 * @param children for a step expanded by {@code [*]} or fan-out, one outcome per child ({@code B-0},
 *     {@code B-1}…); the parent's {@code result} is then the array of their results
 */
public record StepOutcome(
        String stepId,
        Status status,
        String tool,
        JsonNode args,
        JsonNode result,
        Optional<RunError> error,
        Optional<String> reason,
        List<StepOutcome> children,
        Optional<UndoAction> undo,
        Optional<Instant> committedAt,
        int attempts,
        long durationMs) {

    /** Where a step ended. */
    public enum Status {
        SUCCEEDED,
        FAILED,
        /** Not run: rejected, its plan rejected, or a step it depends on did not succeed. */
        SKIPPED,
        /** Resolved in {@link PlanMode#PREVIEW}; not run. */
        PREVIEWED
    }

    public StepOutcome {
        Objects.requireNonNull(stepId, "stepId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(args, "args");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(reason, "reason");
        children = List.copyOf(children);
        Objects.requireNonNull(undo, "undo");
        Objects.requireNonNull(committedAt, "committedAt");
    }

    static StepOutcome failed(String stepId, String tool, JsonNode args, RunError error, int attempts, long ms) {
        return new StepOutcome(
                stepId,
                Status.FAILED,
                tool,
                args,
                NullNode.getInstance(),
                Optional.of(error),
                Optional.empty(),
                List.of(),
                Optional.empty(),
                Optional.empty(),
                attempts,
                ms);
    }

    static StepOutcome skipped(String stepId, String tool, JsonNode args, String reason) {
        return new StepOutcome(
                stepId,
                Status.SKIPPED,
                tool,
                args,
                NullNode.getInstance(),
                Optional.empty(),
                Optional.of(reason),
                List.of(),
                Optional.empty(),
                Optional.empty(),
                0,
                0);
    }

    /** The leaves: this outcome, or its children when it was expanded. */
    public List<StepOutcome> leaves() {
        if (children.isEmpty()) {
            return List.of(this);
        }
        List<StepOutcome> all = new ArrayList<>();
        children.forEach(child -> all.addAll(child.leaves()));
        return all;
    }

    public ObjectNode toJson() {
        // Kept as the step's output for the run's life: a map sized for the fields always written.
        ObjectNode node = dev.weft.plan.internal.Nodes.object(7);
        node.put("stepId", stepId);
        node.put("status", status.name());
        node.put("tool", tool);
        node.set("args", args);
        node.set("result", result);
        error.ifPresent(e -> {
            ObjectNode err = node.putObject("error");
            err.put("code", e.code().name());
            err.put("message", e.message());
        });
        reason.ifPresent(r -> node.put("reason", r));
        if (!children.isEmpty()) {
            ArrayNode array = node.putArray("children");
            children.forEach(child -> array.add(child.toJson()));
        }
        undo.ifPresent(u -> {
            ObjectNode undoNode = node.putObject("undo");
            undoNode.put("tool", u.toolName());
            undoNode.set("args", u.args());
        });
        committedAt.ifPresent(t -> node.put("committedAt", Instants.format(t)));
        node.put("attempts", attempts);
        node.put("durationMs", durationMs);
        return node;
    }

    public static StepOutcome fromJson(JsonNode node) {
        Optional<RunError> error = node.hasNonNull("error")
                ? Optional.of(new RunError(
                        ErrorCode.valueOf(node.get("error").get("code").asText()),
                        node.get("error").get("message").asText()))
                : Optional.empty();
        List<StepOutcome> children = new ArrayList<>();
        node.path("children").forEach(child -> children.add(fromJson(child)));
        Optional<UndoAction> undo = node.hasNonNull("undo")
                ? Optional.of(new UndoAction(node.get("undo").get("tool").asText(), (ObjectNode)
                        node.get("undo").get("args")))
                : Optional.empty();
        return new StepOutcome(
                node.get("stepId").asText(),
                Status.valueOf(node.get("status").asText()),
                node.path("tool").asText(""),
                node.path("args").isMissingNode() ? NullNode.getInstance() : node.get("args"),
                node.path("result").isMissingNode() ? NullNode.getInstance() : node.get("result"),
                error,
                node.hasNonNull("reason") ? Optional.of(node.get("reason").asText()) : Optional.empty(),
                children,
                undo,
                node.hasNonNull("committedAt")
                        ? Optional.of(Instant.parse(node.get("committedAt").asText()))
                        : Optional.empty(),
                node.path("attempts").asInt(0),
                node.path("durationMs").asLong(0));
    }
}
