package dev.weft.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.plan.ResolverRegistry;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolContext;
import dev.weft.plan.ToolRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Plans whose every step is a call of one tool that sleeps for the step's {@code {"ms": N}}
 * constraint (standing in for a model or an API), and the {@link PlanExecutor} that runs them
 * through Weft's real resolve → validate → execute → commit path. Thread-safe.
 */
final class SleepingPlans {
    static final String CAPABILITY = "bench";
    static final String ACTION = "wait";
    static final String TOOL = "bench.sleep";
    static final String MILLIS = "ms";

    /**
     * Where the sleep tool reports how long each call really slept: a loaded machine wakes sleepers
     * late, and a benchmark that knows by how much can tell the scheduler's delays from the sleeps'.
     * Called from many threads at once.
     */
    @FunctionalInterface
    interface SleepLog {
        SleepLog NONE = (runId, stepId, nanos) -> {};

        void slept(String runId, String stepId, long nanos);
    }

    private static final ObjectNode INPUT_SCHEMA = (ObjectNode) Json.parse("""
            {"type": "object", "properties": {"ms": {"type": "integer", "minimum": 0}},
             "required": ["ms"], "additionalProperties": false}""", "the sleep tool's input schema");
    private static final ObjectNode OUTPUT_SCHEMA = (ObjectNode) Json.parse("""
            {"type": "object", "properties": {"sleptMs": {"type": "integer"}}, "required": ["sleptMs"]}""", "the sleep tool's output schema");

    /** How the tool waits: on the machine's clock, or on a {@link SimulatedClock}. */
    @FunctionalInterface
    interface Sleep {
        Sleep REAL = millis -> Thread.sleep(Duration.ofMillis(millis));
        Sleep SIMULATED = SimulatedClock::sleepOnCurrent;

        void sleep(long millis) throws InterruptedException;
    }

    private final SleepLog log;
    private final Sleep sleep;
    private final Tool tool;

    SleepingPlans(SleepLog log) {
        this(log, Sleep.REAL);
    }

    SleepingPlans(SleepLog log, Sleep sleep) {
        this.log = Objects.requireNonNull(log, "log");
        this.sleep = Objects.requireNonNull(sleep, "sleep");
        this.tool = Tool.json(
                        TOOL,
                        "Sleeps for the given number of milliseconds, like a call to a slow API",
                        INPUT_SCHEMA,
                        OUTPUT_SCHEMA,
                        this::sleep)
                .idempotent(true)
                .build();
    }

    /** An executor whose only resolver hands each step's constraints to the sleep tool unchanged. */
    PlanExecutor executor() {
        return PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(new PassConstraints()))
                .tools(ToolRegistry.of(tool))
                .build();
    }

    /** Calls the sleep tool for {@code step} on this thread, as seed 000's resolver router would. */
    JsonNode invokeDirectly(String runId, PlanStep step) {
        return tool.invoke(step.constraints(), ToolContext.detached(runId, step.id()));
    }

    /** A plan of the DAG's steps, each sleeping its latency. */
    static Plan planOf(LatencyDag dag) {
        List<PlanStep> steps = dag.steps().stream()
                .map(step -> step(step.id(), step.latencyMillis(), step.dependsOn()))
                .toList();
        return new Plan("bench-dag-" + dag.index(), 1.0, steps);
    }

    static PlanStep step(String id, long millis, List<String> dependsOn) {
        ObjectNode constraints = Json.object();
        constraints.put(MILLIS, millis);
        return new PlanStep(id, CAPABILITY, ACTION, constraints, Json.object(), dependsOn);
    }

    private JsonNode sleep(ObjectNode args, ToolContext context) {
        long millis = args.path(MILLIS).asLong();
        long start = System.nanoTime();
        try {
            sleep.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WeftException(
                    ErrorCode.E_CANCELLED, "step '" + context.stepId() + "' was interrupted while sleeping");
        }
        log.slept(context.runId(), context.stepId(), System.nanoTime() - start);
        ObjectNode result = Json.object();
        result.put("sleptMs", millis);
        return result;
    }

    /** Passes a step's constraints to the sleep tool as its arguments: no model, no lookup. */
    private static final class PassConstraints implements Resolver {
        @Override
        public String name() {
            return "bench-pass-constraints";
        }

        @Override
        public String capability() {
            return CAPABILITY;
        }

        @Override
        public Set<String> actions() {
            return Set.of(ACTION);
        }

        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            return Resolution.execute(TOOL, step.constraints().deepCopy());
        }
    }
}
