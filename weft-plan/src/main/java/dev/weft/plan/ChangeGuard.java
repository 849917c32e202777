package dev.weft.plan;

import dev.weft.language.RequestActs;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Holds a plan to what its message asks, after planning and whichever planner made it (issue 37's
 * safety invariants), reading the message with the language layer's {@link RequestActs}: a message
 * that only asks to read yields no step that changes anything (each is replaced by the read of the same
 * things where there is one, else dropped); a request the assistant does not do yields no such step at
 * all ({@link Guarded#outOfScope}); a delete the message does not name is never planned (it becomes
 * the read of the same things: "turn my morning alarm on" shows the alarm, it never deletes it); and
 * any other change whose words the message does not contain is held for a person ({@link
 * PlanRequest#holding}). Immutable and thread-safe.
 */
public final class ChangeGuard {
    /** What a step does to what the user has. */
    public enum Effect {
        /** Reads, answers or talks: changes nothing. */
        NONE,
        /** Adds something new (undone easily, and what most messages ask). */
        CREATE,
        /** Changes something that is there. */
        UPDATE,
        /** Deletes, cancels or archives something that is there. */
        DELETE,
        /** Sends something in the user's name. */
        SEND
    }

    private final Function<PlanStep, Effect> effects;
    private final Set<String> notDone;
    private final Function<PlanStep, Optional<PlanStep>> readInstead;

    private ChangeGuard(
            Function<PlanStep, Effect> effects,
            Set<String> notDone,
            Function<PlanStep, Optional<PlanStep>> readInstead) {
        this.effects = Objects.requireNonNull(effects, "effects");
        this.notDone = Set.copyOf(notDone);
        this.readInstead = Objects.requireNonNull(readInstead, "readInstead");
        Set<String> unknown = new LinkedHashSet<>(this.notDone);
        unknown.removeAll(RequestActs.topics());
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(
                    "the language layer has no words for the topics " + unknown + "; it knows " + RequestActs.topics());
        }
    }

    /**
     * A guard where {@code effects} says what each step does to what the user has, {@code notDone} names
     * the topics of {@link RequestActs#outsideScope} the assistant does not do ({@code payments},
     * {@code transport}), and {@code readInstead} gives the read of the same things for a change a
     * question was planned as (empty: the step is dropped).
     *
     * @throws IllegalArgumentException for a topic the language layer has no words for
     */
    public static ChangeGuard of(
            Function<PlanStep, Effect> effects,
            Set<String> notDone,
            Function<PlanStep, Optional<PlanStep>> readInstead) {
        return new ChangeGuard(effects, notDone, readInstead);
    }

    /**
     * What the guard made of a plan: the plan to run, the steps to hold for a person, and, for the
     * record, the changes it took out (each with its replacement, if any).
     */
    public record Guarded(Plan plan, Set<String> held, List<PlanStep> withdrawn, Optional<String> outOfScope) {
        public Guarded {
            Objects.requireNonNull(plan, "plan");
            Objects.requireNonNull(outOfScope, "outOfScope");
            held = Set.copyOf(held);
            withdrawn = List.copyOf(withdrawn);
        }

        /** Whether the guard changed nothing. */
        public boolean untouched() {
            return held.isEmpty() && withdrawn.isEmpty() && outOfScope.isEmpty();
        }
    }

    /** {@code plan} held to {@code message}. */
    public Guarded guard(Plan plan, String message) {
        Optional<String> outOfScope = RequestActs.outsideScope(message, notDone);
        boolean onlyRead = outOfScope.isEmpty() && RequestActs.asksOnlyToRead(message);
        List<PlanStep> kept = new ArrayList<>();
        List<PlanStep> withdrawn = new ArrayList<>();
        Set<String> dropped = new HashSet<>();
        Set<String> held = new LinkedHashSet<>();
        for (PlanStep step : plan.steps()) {
            Effect effect = effects.apply(step);
            if (effect == Effect.NONE) {
                kept.add(step);
            } else if (outOfScope.isPresent()) {
                withdrawn.add(step);
                dropped.add(step.id());
            } else if (onlyRead
                    || (effect == Effect.DELETE && !RequestActs.asksFor(RequestActs.Change.DELETE, message))) {
                withdrawn.add(step);
                Optional<PlanStep> read = readInstead.apply(step);
                if (read.isPresent()) {
                    kept.add(read.get());
                } else {
                    dropped.add(step.id());
                }
            } else {
                kept.add(step);
                if (!asksFor(effect, message)) {
                    held.add(step.id());
                }
            }
        }
        if (withdrawn.isEmpty() && held.isEmpty()) {
            return new Guarded(plan, Set.of(), List.of(), outOfScope);
        }
        List<PlanStep> steps = new ArrayList<>();
        for (PlanStep step : kept) {
            List<String> dependsOn =
                    step.dependsOn().stream().filter(d -> !dropped.contains(d)).toList();
            steps.add(
                    dependsOn.size() == step.dependsOn().size()
                            ? step
                            : new PlanStep(
                                    step.id(),
                                    step.capability(),
                                    step.action(),
                                    step.constraints(),
                                    step.changes(),
                                    dependsOn));
        }
        return new Guarded(new Plan(plan.intentType(), plan.confidence(), steps), held, withdrawn, outOfScope);
    }

    /** Whether the words of {@code message} ask for a change of this kind (an update may be said as a delete of its old part: "cancel the 5pm, make it 6"). */
    private static boolean asksFor(Effect effect, String message) {
        return switch (effect) {
            case NONE, CREATE -> true;
            case DELETE -> RequestActs.asksFor(RequestActs.Change.DELETE, message);
            case UPDATE ->
                RequestActs.asksFor(RequestActs.Change.UPDATE, message)
                        || RequestActs.asksFor(RequestActs.Change.DELETE, message);
            case SEND -> RequestActs.asksFor(RequestActs.Change.SEND, message);
        };
    }
}
