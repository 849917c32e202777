package dev.weft.bench;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.store.InMemoryRunStore;
import dev.weft.plan.ExecutionGroups;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.PlanStep;
import dev.weft.plan.PlanSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Both schedulers on a {@link SimulatedClock}: each DAG runs alone on a clock of its own, its tools
 * sleeping their latencies in virtual milliseconds. Weft's run is the real {@link PlanExecutor} on a
 * runner whose executor is the clock; the group barrier runs each group's steps as the clock's tasks
 * and waits for all of them. The makespan is the virtual time at the end, so it shows each
 * scheduler's decisions exactly: when each step started relative to the steps it waits for.
 */
final class SimulatedScheduling {
    private final PlanExecutor executor =
            new SleepingPlans(SleepingPlans.SleepLog.NONE, SleepingPlans.Sleep.SIMULATED).executor();
    private final PlanRequest request = PlanRequest.auto(NullNode.getInstance());

    /** Weft's makespan of {@code subject} in virtual milliseconds. */
    long dataflowMillis(SchedulerBenchmark.Case subject) {
        SimulatedClock clock = new SimulatedClock();
        try {
            Runner runner = Runner.builder()
                    .store(InMemoryRunStore.latestCheckpointOnly())
                    .executor(clock)
                    .build();
            RunResult result =
                    executor.start(runner, subject.plan(), request).result().join();
            int steps = subject.dag().steps().size();
            PlanSummary summary = PlanExecutor.summary(result).orElse(null);
            if (result.status() != RunStatus.COMPLETED || summary == null || summary.successfulSteps() != steps) {
                throw new IllegalStateException(
                        "Weft's simulated run of DAG " + subject.dag().index() + " did not complete all " + steps
                                + " steps: " + result.status() + " " + result.error());
            }
            return clock.now();
        } finally {
            clock.shutdown();
        }
    }

    /**
     * Seed 000's group barrier's makespan of {@code subject} in virtual milliseconds: each group's
     * steps start together, and the next group starts when the last of them ends. Each group is
     * started by a task of the clock (the first by one of its own, the others by the step that ended
     * their group), as the clock requires.
     */
    static long groupsMillis(SchedulerBenchmark.Case subject) {
        SimulatedClock clock = new SimulatedClock();
        try {
            CompletableFuture<Void> done = new CompletableFuture<>();
            clock.execute(() -> startGroup(subject, clock, 0, done));
            done.join();
            return clock.now();
        } finally {
            clock.shutdown();
        }
    }

    private static void startGroup(
            SchedulerBenchmark.Case subject, SimulatedClock clock, int index, CompletableFuture<Void> done) {
        List<ExecutionGroups.Group> groups = subject.groups().groups();
        if (index == groups.size()) {
            done.complete(null);
            return;
        }
        List<CompletableFuture<Void>> steps = new ArrayList<>();
        for (String id : groups.get(index).steps()) {
            PlanStep step = subject.plan().step(id).orElseThrow();
            long millis = step.constraints().path(SleepingPlans.MILLIS).asLong();
            steps.add(CompletableFuture.runAsync(() -> sleep(millis), clock));
        }
        CompletableFuture.allOf(steps.toArray(CompletableFuture[]::new))
                .thenRunAsync(() -> startGroup(subject, clock, index + 1, done), clock)
                .exceptionally(failure -> {
                    done.completeExceptionally(failure);
                    return null;
                });
    }

    /** Sleeps on the calling task's clock; an interrupt becomes an unchecked failure. */
    static void sleep(long millis) {
        try {
            SimulatedClock.sleepOnCurrent(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted in a simulated sleep", e);
        }
    }
}
