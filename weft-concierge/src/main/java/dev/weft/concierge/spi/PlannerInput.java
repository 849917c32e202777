package dev.weft.concierge.spi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/**
 * What {@code plan_goal} works from: the message and its language, the conversation's state as loaded,
 * what the shop remembers of the customer, and the recent conversation (oldest first).
 */
public record PlannerInput(
        String text, String language, ObjectNode state, List<MemoryFact> memory, List<String> recent) {
    public PlannerInput {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(language, "language");
        state = Objects.requireNonNull(state, "state").deepCopy();
        memory = List.copyOf(memory);
        recent = List.copyOf(recent);
    }
}
