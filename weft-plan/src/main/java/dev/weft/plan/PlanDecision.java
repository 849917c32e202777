package dev.weft.plan;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a person decided about a waiting plan run: whether the plan is approved (for {@link
 * PlanMode#APPROVAL}), which high-risk steps are approved or rejected, and answers to questions by
 * step id. It is the value the run is resumed with.
 */
public record PlanDecision(
        Optional<Boolean> planApproved, List<String> approve, List<String> reject, ObjectNode answers) {
    public PlanDecision {
        Objects.requireNonNull(planApproved, "planApproved");
        approve = List.copyOf(approve);
        reject = List.copyOf(reject);
        Objects.requireNonNull(answers, "answers");
    }

    public static PlanDecision approve(String... stepIds) {
        return new PlanDecision(Optional.empty(), List.of(stepIds), List.of(), Json.object());
    }

    public static PlanDecision reject(String... stepIds) {
        return new PlanDecision(Optional.empty(), List.of(), List.of(stepIds), Json.object());
    }

    public static PlanDecision approvePlan(boolean approved) {
        return new PlanDecision(Optional.of(approved), List.of(), List.of(), Json.object());
    }

    /** Answers the question of step {@code stepId}; merged over the step's arguments when it is resolved again. */
    public static PlanDecision answer(String stepId, ObjectNode answer) {
        ObjectNode answers = Json.object();
        answers.set(stepId, answer);
        return new PlanDecision(Optional.empty(), List.of(), List.of(), answers);
    }

    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        planApproved.ifPresent(a -> node.put("approved", a));
        ArrayNode a = node.putArray("approve");
        approve.forEach(a::add);
        ArrayNode r = node.putArray("reject");
        reject.forEach(r::add);
        node.set("answers", answers);
        return node;
    }
}
