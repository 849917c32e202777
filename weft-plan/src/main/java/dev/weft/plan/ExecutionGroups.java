package dev.weft.plan;

import dev.weft.core.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A plan's dependencies as they will run: dependency cycles broken the way seed 000 §7.5 does (the
 * first step of the cycle in plan order runs first), and the execution groups of seed 000's {@code
 * buildExecutionGroups}, kept for display — the scheduler itself is dataflow and never waits for a
 * whole group. Immutable.
 */
public final class ExecutionGroups {
    /** One level of the plan: steps whose dependencies are all in earlier groups. */
    public record Group(int index, List<String> steps, boolean parallelizable) {
        public Group {
            steps = List.copyOf(steps);
        }
    }

    /** A cycle that was broken: its path (first step repeated at the end) and the step that runs first. */
    public record BrokenCycle(List<String> path, String runsFirst) {
        public BrokenCycle {
            path = List.copyOf(path);
        }
    }

    private final Map<String, List<String>> dependencies;
    private final List<Group> groups;
    private final List<BrokenCycle> brokenCycles;

    private ExecutionGroups(
            Map<String, List<String>> dependencies, List<Group> groups, List<BrokenCycle> brokenCycles) {
        this.dependencies = dependencies;
        this.groups = groups;
        this.brokenCycles = brokenCycles;
    }

    /**
     * Orders {@code plan}'s steps, breaking cycles.
     *
     * @param rejectCycles when true, a cycle is an {@code E_PLAN_CYCLE} error naming its path
     */
    public static ExecutionGroups of(Plan plan, boolean rejectCycles) {
        List<String> order = plan.steps().stream().map(PlanStep::id).toList();
        Map<String, List<String>> deps = new LinkedHashMap<>();
        for (PlanStep step : plan.steps()) {
            deps.put(step.id(), new ArrayList<>(step.dependsOn()));
        }
        List<BrokenCycle> broken = new ArrayList<>();
        List<Group> groups = new ArrayList<>();
        Set<String> completed = new LinkedHashSet<>();
        List<String> remaining = new ArrayList<>(order);
        while (!remaining.isEmpty()) {
            List<String> ready = remaining.stream()
                    .filter(id -> completed.containsAll(deps.get(id)))
                    .toList();
            if (ready.isEmpty()) {
                List<String> cycle = findCycle(remaining, deps, completed);
                String first =
                        remaining.stream().filter(cycle::contains).findFirst().orElseThrow();
                if (rejectCycles) {
                    throw new PlanInvalidException(
                            ErrorCode.E_PLAN_CYCLE,
                            "the plan's steps depend on each other in a cycle: " + String.join(" -> ", cycle));
                }
                // The first step of the cycle in plan order no longer waits for the rest of it.
                deps.get(first).removeIf(cycle::contains);
                broken.add(new BrokenCycle(cycle, first));
                continue;
            }
            groups.add(new Group(groups.size(), ready, ready.size() > 1));
            completed.addAll(ready);
            remaining.removeAll(ready);
        }
        Map<String, List<String>> frozen = new LinkedHashMap<>();
        deps.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
        return new ExecutionGroups(
                java.util.Collections.unmodifiableMap(frozen), List.copyOf(groups), List.copyOf(broken));
    }

    /** A cycle among {@code remaining}: follows unmet dependencies from the first remaining step. */
    private static List<String> findCycle(List<String> remaining, Map<String, List<String>> deps, Set<String> done) {
        for (String start : remaining) {
            List<String> path = new ArrayList<>();
            String current = start;
            while (current != null && !path.contains(current)) {
                path.add(current);
                current = deps.get(current).stream()
                        .filter(d -> !done.contains(d))
                        .findFirst()
                        .orElse(null);
            }
            if (current != null) {
                List<String> cycle = new ArrayList<>(path.subList(path.indexOf(current), path.size()));
                // Present the cycle from its first step in plan order, as the dependency chain reads.
                int firstIndex =
                        cycle.stream().mapToInt(remaining::indexOf).min().orElse(0);
                String first = remaining.get(firstIndex);
                int rotate = cycle.indexOf(first);
                List<String> rotated = new ArrayList<>(cycle.subList(rotate, cycle.size()));
                rotated.addAll(cycle.subList(0, rotate));
                rotated.add(first);
                return rotated;
            }
        }
        throw new IllegalStateException("no step is ready, yet no cycle was found");
    }

    /** Each step's dependencies after cycles were broken. */
    public Map<String, List<String>> dependencies() {
        return dependencies;
    }

    public List<Group> groups() {
        return groups;
    }

    public List<BrokenCycle> brokenCycles() {
        return brokenCycles;
    }
}
