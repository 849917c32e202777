package dev.weft.bench;

import dev.weft.plan.ExecutionGroups;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanStep;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Seed 000's scheduling, as a yardstick for Weft's dataflow scheduler: the plan is cut into execution
 * groups ({@code buildExecutionGroups}: repeatedly, every step whose dependencies have all completed),
 * and each group runs to its end before the next starts ({@code executeGroup}: a group of several
 * steps in parallel, each on a virtual thread, then wait for all of them as {@code Promise.allSettled}
 * does; a group of one on the calling thread). The groups come from {@link ExecutionGroups} of
 * weft-plan, so both schedulers read a plan's dependencies the same way. Thread-safe: each {@link
 * #run} is independent.
 */
final class GroupBarrierScheduler {
    /** When one step ran, in the clock's nanoseconds, and in which group. */
    record StepSpan(String stepId, int group, long startNanos, long endNanos) {}

    /** One run: from before the grouping to the end of the last group, and every step's span. */
    record Execution(long startNanos, long endNanos, List<StepSpan> spans) {
        Execution {
            spans = List.copyOf(spans);
        }

        long makespanNanos() {
            return endNanos - startNanos;
        }

        Map<String, StepSpan> byStep() {
            return spans.stream().collect(Collectors.toMap(StepSpan::stepId, Function.identity()));
        }
    }

    private final Consumer<PlanStep> work;
    private final LongSupplier clock;

    /**
     * @param work what running one step means; it blocks for as long as the step takes
     * @param clock the nanosecond clock spans are read from
     */
    GroupBarrierScheduler(Consumer<PlanStep> work, LongSupplier clock) {
        this.work = Objects.requireNonNull(work, "work");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Runs every step of {@code plan}, group after group, on the calling thread and virtual threads. */
    Execution run(Plan plan) throws InterruptedException {
        long start = clock.getAsLong();
        List<ExecutionGroups.Group> groups = ExecutionGroups.of(plan, false).groups();
        ConcurrentLinkedQueue<StepSpan> spans = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<RuntimeException> failures = new ConcurrentLinkedQueue<>();
        for (ExecutionGroups.Group group : groups) {
            List<PlanStep> steps = group.steps().stream()
                    .map(id -> plan.step(id).orElseThrow())
                    .toList();
            if (!group.parallelizable()) {
                for (PlanStep step : steps) {
                    runStep(step, group.index(), spans, failures);
                }
                continue;
            }
            List<Thread> threads = new ArrayList<>(steps.size());
            for (PlanStep step : steps) {
                threads.add(Thread.ofVirtual()
                        .name("group-" + group.index() + "-" + step.id())
                        .start(() -> runStep(step, group.index(), spans, failures)));
            }
            for (Thread thread : threads) {
                thread.join();
            }
        }
        long end = clock.getAsLong();
        if (!failures.isEmpty()) {
            // The seed settles every step and goes on; a benchmark must not time a run whose steps failed.
            IllegalStateException failed =
                    new IllegalStateException(failures.size() + " step(s) of plan '" + plan.intentType() + "' failed");
            failures.forEach(failed::addSuppressed);
            throw failed;
        }
        return new Execution(start, end, new ArrayList<>(spans));
    }

    private void runStep(
            PlanStep step,
            int group,
            ConcurrentLinkedQueue<StepSpan> spans,
            ConcurrentLinkedQueue<RuntimeException> failures) {
        long started = clock.getAsLong();
        try {
            work.accept(step);
        } catch (RuntimeException e) {
            failures.add(e);
        }
        spans.add(new StepSpan(step.id(), group, started, clock.getAsLong()));
    }
}
