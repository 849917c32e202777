package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.Objects;
import java.util.Optional;

/** What a node's step produced: an output that routes on, or an interrupt that pauses the run. */
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
