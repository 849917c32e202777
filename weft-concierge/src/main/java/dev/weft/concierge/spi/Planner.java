package dev.weft.concierge.spi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.StepScope;

/**
 * Picks or continues the goal of a message ({@code plan_goal}) and reads what the message says of the
 * request: {@code {"goal": "support.cancel", "slots": {"orderId": "W1002", "email": …}}} (the slots of
 * {@code state.schema.json}'s {@code request}, those the message gives), and {@code "confirm": "yes" |
 * "no"} when the message answers yes or no. Thread-safe.
 */
public interface Planner {
    /** {@code offline}, or the model's label. */
    String name();

    ObjectNode plan(StepScope step, PlannerInput input);
}
