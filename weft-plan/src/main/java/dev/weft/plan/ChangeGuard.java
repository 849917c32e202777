package dev.weft.plan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Holds a plan to what its message asks, after planning and whichever planner made it (issue 37's
 * safety invariants): a message that only asks to read yields no step that changes anything (each is
 * replaced by the read of the same things where there is one, else dropped), a request the assistant
 * does not do yields no such step at all ({@link Guarded#outOfScope}), and a change whose words
 * the message does not contain is held for a person ({@link PlanRequest#holding}). Immutable and
 * thread-safe.
 */
public final class ChangeGuard {
    private final RequestActs acts;
    private final Predicate<PlanStep> changes;
    private final Function<PlanStep, Optional<PlanStep>> readInstead;

    private ChangeGuard(
            RequestActs acts, Predicate<PlanStep> changes, Function<PlanStep, Optional<PlanStep>> readInstead) {
        this.acts = Objects.requireNonNull(acts, "acts");
        this.changes = Objects.requireNonNull(changes, "changes");
        this.readInstead = Objects.requireNonNull(readInstead, "readInstead");
    }

    /**
     * A guard reading messages with {@code acts}, where {@code changes} says which steps change what the
     * user has and {@code readInstead} gives the read of the same things for a change a question was
     * planned as (empty: the step is dropped).
     */
    public static ChangeGuard of(
            RequestActs acts, Predicate<PlanStep> changes, Function<PlanStep, Optional<PlanStep>> readInstead) {
        return new ChangeGuard(acts, changes, readInstead);
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

    /** {@code plan} held to {@code message} (in {@code language}). */
    public Guarded guard(Plan plan, String message, String language) {
        Optional<String> outOfScope = acts.outsideScope(message, language);
        boolean onlyRead = outOfScope.isEmpty() && acts.asksOnlyToRead(message, language);
        List<PlanStep> kept = new ArrayList<>();
        List<PlanStep> withdrawn = new ArrayList<>();
        Set<String> dropped = new HashSet<>();
        Set<String> held = new LinkedHashSet<>();
        for (PlanStep step : plan.steps()) {
            if (!changes.test(step)) {
                kept.add(step);
            } else if (outOfScope.isPresent()) {
                withdrawn.add(step);
                dropped.add(step.id());
            } else if (onlyRead) {
                withdrawn.add(step);
                Optional<PlanStep> read = readInstead.apply(step);
                if (read.isPresent()) {
                    kept.add(read.get());
                } else {
                    dropped.add(step.id());
                }
            } else {
                kept.add(step);
                if (!acts.asksFor(message, language, step)) {
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
}
