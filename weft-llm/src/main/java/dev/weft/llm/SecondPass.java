package dev.weft.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;

/**
 * What a model said in seed 004's second pass: its answer, valid against the schema it was asked for, or
 * the tools it asked for again — which were not called, and which the caller must refuse (the second pass
 * answers from the first pass's results; it must not request tools).
 */
public sealed interface SecondPass {
    /** The model answered. */
    record Answer(JsonNode value) implements SecondPass {
        public Answer {
            Objects.requireNonNull(value, "value");
        }
    }

    /** The model asked for these tools, by name, instead of answering. */
    record ToolsRequested(List<String> tools) implements SecondPass {
        public ToolsRequested {
            tools = List.copyOf(tools);
            if (tools.isEmpty()) {
                throw new IllegalArgumentException("a second pass that requests tools names at least one");
            }
        }
    }
}
