package dev.weft.bench;

import dev.weft.plan.ExecutionGroups;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.ToLongFunction;

/**
 * A DAG of steps that each take a fixed time, for measuring schedulers: its critical path is the
 * fastest any scheduler can finish it. Steps depend only on earlier steps, so it is acyclic by
 * construction. Immutable.
 */
record LatencyDag(int index, List<LatencyDag.Step> steps) {
    static final int MIN_STEPS = 5;
    static final int MAX_STEPS = 30;
    /** The median step latency; a random DAG's critical path is then tens of ms to about a second. */
    static final double MEDIAN_LATENCY_MILLIS = 20;
    /** The sigma of the latency's logarithm: most steps take 5–80 ms, a few several hundred. */
    static final double LATENCY_SIGMA = 0.8;
    /** At most this many dependencies per step, so DAGs are wide rather than chains. */
    static final int MAX_DEPENDENCIES = 3;

    /** One step: how long it takes, and the earlier steps it waits for. */
    record Step(String id, long latencyMillis, List<String> dependsOn) {
        Step {
            Objects.requireNonNull(id, "id");
            if (latencyMillis < 1) {
                throw new IllegalArgumentException("latency must be at least 1 ms, was " + latencyMillis);
            }
            dependsOn = List.copyOf(dependsOn);
        }
    }

    LatencyDag {
        steps = List.copyOf(steps);
    }

    /** {@code count} DAGs drawn from {@code seed}; the same seed gives the same DAGs. */
    static List<LatencyDag> random(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<LatencyDag> dags = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            dags.add(random(i, random));
        }
        return dags;
    }

    /**
     * A DAG of {@value #MIN_STEPS}–{@value #MAX_STEPS} steps (uniformly), each depending on 0 to
     * {@value #MAX_DEPENDENCIES} distinct earlier steps chosen uniformly, with log-normal latencies
     * rounded to whole milliseconds.
     */
    static LatencyDag random(int index, SplittableRandom random) {
        int size = random.nextInt(MIN_STEPS, MAX_STEPS + 1);
        List<Step> steps = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            int dependencyCount = random.nextInt(0, Math.min(i, MAX_DEPENDENCIES) + 1);
            List<String> dependsOn = new ArrayList<>(dependencyCount);
            while (dependsOn.size() < dependencyCount) {
                String dependency = stepId(random.nextInt(i));
                if (!dependsOn.contains(dependency)) {
                    dependsOn.add(dependency);
                }
            }
            double latency = MEDIAN_LATENCY_MILLIS * Math.exp(LATENCY_SIGMA * random.nextGaussian());
            steps.add(new Step(stepId(i), Math.max(1, Math.round(latency)), dependsOn));
        }
        return new LatencyDag(index, steps);
    }

    static String stepId(int position) {
        return "s" + position;
    }

    /** The longest sum of latencies along a dependency path: no scheduler can finish sooner. */
    long criticalPathMillis() {
        return longestPath(Step::latencyMillis);
    }

    /**
     * The longest sum of {@code duration} along a dependency path: the critical path for steps that
     * took {@code duration} (their nominal latency, or what they really took).
     */
    long longestPath(ToLongFunction<Step> duration) {
        Map<String, Long> finish = new HashMap<>();
        long longest = 0;
        for (Step step : steps) {
            long start = 0;
            for (String dependency : step.dependsOn()) {
                Long dependencyFinish = finish.get(dependency);
                if (dependencyFinish == null) {
                    throw new IllegalStateException(
                            "step '" + step.id() + "' depends on '" + dependency + "', which is not an earlier step");
                }
                start = Math.max(start, dependencyFinish);
            }
            long end = start + duration.applyAsLong(step);
            finish.put(step.id(), end);
            longest = Math.max(longest, end);
        }
        return longest;
    }

    /**
     * What a group barrier costs with no overhead at all: the sum over {@code groups} of their
     * slowest step, for steps that took {@code duration}.
     */
    long groupBarrier(ExecutionGroups groups, ToLongFunction<Step> duration) {
        Map<String, Step> byId = new HashMap<>();
        steps.forEach(step -> byId.put(step.id(), step));
        long total = 0;
        for (ExecutionGroups.Group group : groups.groups()) {
            total += group.steps().stream()
                    .mapToLong(id -> duration.applyAsLong(byId.get(id)))
                    .max()
                    .orElse(0);
        }
        return total;
    }
}
