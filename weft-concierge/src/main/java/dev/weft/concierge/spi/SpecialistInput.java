package dev.weft.concierge.spi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.Goal;
import java.util.List;
import java.util.Objects;

/**
 * What a specialist works from: the goal, the customer's language and message, the conversation's state
 * (with what this message added), what the shop remembers of the customer, the planner's reading of the
 * message, and the recent conversation (oldest first, "customer: …" / "concierge: …").
 */
public record SpecialistInput(
        Goal goal,
        String language,
        String text,
        ObjectNode state,
        List<MemoryFact> memory,
        ObjectNode plan,
        List<String> recent) {
    public SpecialistInput {
        Objects.requireNonNull(goal, "goal");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(text, "text");
        state = Objects.requireNonNull(state, "state").deepCopy();
        memory = List.copyOf(memory);
        plan = Objects.requireNonNull(plan, "plan").deepCopy();
        recent = List.copyOf(recent);
    }
}
