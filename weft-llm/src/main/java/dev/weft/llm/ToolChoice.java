package dev.weft.llm;

import java.util.List;
import java.util.Objects;

/** What a model offered tools did: answered in text, or called tools (seed 004's first pass). */
public sealed interface ToolChoice {
    /** The model answered without calling a tool. */
    record Answer(String text) implements ToolChoice {
        public Answer {
            Objects.requireNonNull(text, "text");
        }
    }

    /** The model called these tools, each checked against the schema it was offered with. */
    record Calls(List<ToolCall> calls) implements ToolChoice {
        public Calls {
            calls = List.copyOf(calls);
            if (calls.isEmpty()) {
                throw new IllegalArgumentException("a tool choice of calls needs at least one call");
            }
        }
    }
}
