package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;
import java.util.Optional;

/**
 * What a node's step produced: an output that routes on, an interrupt that pauses the run, or work
 * handed to a worker whose outcome completes the step later.
 */
public sealed interface NodeResult {

    /** The step completed with {@code value}; {@code handle}, when present, picks the outgoing edges. */
    record Output(JsonNode value, Optional<String> handle) implements NodeResult {
        public Output {
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(handle, "handle");
        }
    }

    /**
     * The run pauses as {@code WAITING} with {@code payload} (a question, what needs approving). When
     * it is resumed, the node runs again with {@link NodeContext#resumeValue()} set.
     */
    record Interrupt(JsonNode payload) implements NodeResult {
        public Interrupt {
            Objects.requireNonNull(payload, "payload");
        }
    }

    /**
     * The step's work was handed to a worker process; only {@link NodeContext#dispatch} makes one. The
     * step stays in flight, holding no thread, while the run goes on with its other nodes; when the
     * worker's outcome is delivered ({@link Runner#deliver}), the node runs again with the outcome as
     * {@link NodeContext#resumeValue()} and {@code {"type": "queued", "kind": …, "work": …}} as {@link
     * NodeContext#interruptPayload()}.
     */
    record Dispatched(String kind, JsonNode work) implements NodeResult {
        public Dispatched {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(work, "work");
        }
    }

    /** An output routed by the node's router (the {@code output} handle unless it declares another). */
    static NodeResult output(JsonNode value) {
        return new Output(value, Optional.empty());
    }

    /** An output that takes the given handle. */
    static NodeResult output(JsonNode value, String handle) {
        return new Output(value, Optional.of(handle));
    }

    /** An output converted from any Jackson-serialisable value (records, maps, lists, strings…). */
    static NodeResult of(Object value) {
        return output(value instanceof JsonNode json ? json : Json.mapper().valueToTree(value));
    }

    static NodeResult empty() {
        return output(NullNode.getInstance());
    }

    static NodeResult interrupt(JsonNode payload) {
        return new Interrupt(payload);
    }
}
