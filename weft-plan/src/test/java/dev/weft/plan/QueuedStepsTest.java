package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static dev.weft.plan.Fixtures.plan;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Run;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.WorkerStep;
import dev.weft.core.spi.StepDispatcher;
import dev.weft.core.spi.StepDispatcher.Dispatch;
import dev.weft.core.spi.StepDispatcher.DispatchedStep;
import dev.weft.plan.Fixtures.Created;
import dev.weft.plan.Fixtures.Title;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A plan step's tool calls handed to a worker by a runner with a step dispatcher, and their outcome applied. */
final class QueuedStepsTest {
    private final BlockingQueue<DispatchedStep> queue = new LinkedBlockingQueue<>();
    private final Runner runner = Runner.builder()
            .dispatcher(step -> {
                queue.add(step);
                return new Dispatch.Queued("test queue");
            })
            .build();
    private final List<String> calledOn = new CopyOnWriteArrayList<>();
    private final AtomicInteger sends = new AtomicInteger();
    /** Whether the test is playing the worker: calls made meanwhile are the worker's. */
    private final java.util.concurrent.atomic.AtomicBoolean working = new java.util.concurrent.atomic.AtomicBoolean();

    private PlanExecutor executor(boolean named, boolean idempotent) {
        Tool create = Tool.typed("create", "creates", Title.class, Created.class, (in, ctx) -> {
                    calledOn.add((working.get() ? "worker " : "runner ") + ctx.idempotencyKey());
                    return new Created("t-" + sends.incrementAndGet(), in.title());
                })
                .idempotent(idempotent)
                .build();
        PlanExecutor.Builder builder = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(Fixtures.passThrough("tasks", "create")))
                .tools(ToolRegistry.of(create));
        if (named) {
            builder.name("test-tasks");
        }
        return builder.build();
    }

    private static final Plan TWO_STEPS = plan("""
            {"intentType": "tasks", "confidence": 1, "plan": [
              {"id": "A", "capability": "tasks", "action": "create", "constraints": {"title": "first"}},
              {"id": "B", "capability": "tasks", "action": "create", "constraints": {"title": "$A.title"},
               "dependsOn": ["A"]}]}
            """);

    /** Plays a worker: makes the queued calls in a scope of its own and delivers the outcome. */
    private boolean work(PlanExecutor executor, DispatchedStep step) {
        Run run = runner.store().findRun(step.runId()).orElseThrow();
        WorkerStep scope = WorkerStep.of(runner.store(), run, step.stepOrder(), step.nodeId(), TimeSource.system());
        working.set(true);
        JsonNode value;
        try {
            value = executor.runQueued(step.work(), scope);
        } finally {
            working.set(false);
        }
        return runner.deliver(step.runId(), step.stepOrder(), scope.ran(value));
    }

    private DispatchedStep take() throws InterruptedException {
        DispatchedStep step = queue.poll(10, TimeUnit.SECONDS);
        assertThat(step).as("a step was queued").isNotNull();
        return step;
    }

    @Test
    void eachStepsToolCallIsMadeByTheWorkerAndTheRunGoesOnWithItsResult() throws Exception {
        PlanExecutor executor = executor(true, true);
        Runner.RunHandle handle = executor.start(runner, TWO_STEPS, PlanRequest.auto(json("{}")));

        DispatchedStep first = take();
        assertThat(first.kind()).isEqualTo(PlanExecutor.QUEUED_KIND);
        assertThat(first.work().path("calls").get(0).path("args")).isEqualTo(json("{\"title\": \"first\"}"));
        work(executor, first);
        DispatchedStep second = take();
        assertThat(second.work().path("calls").get(0).path("args")).isEqualTo(json("{\"title\": \"first\"}"));
        work(executor, second);
        RunResult result = handle.result().get(10, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(PlanExecutor.outcomes(result).get("B").result())
                .isEqualTo(json("{\"id\": \"t-2\", \"title\": \"first\"}"));
        assertThat(calledOn).allMatch(call -> call.startsWith("worker "));
        List<String> types = runner.store().events(result.runId()).stream()
                .filter(e -> e.nodeId().orElse("").equals("step:A"))
                .map(Event::type)
                .toList();
        assertThat(types)
                .containsSubsequence(
                        "step.started",
                        "step.queued",
                        "tool.called",
                        "tool.succeeded",
                        "step.executed",
                        "step.completed");
    }

    @Test
    void aToolThatIsNotIdempotentIsNotCalledAgainByASecondWorkerForTheSameStep() throws Exception {
        PlanExecutor executor = executor(true, false);
        Plan one = plan("""
                {"intentType": "tasks", "confidence": 1, "plan": [
                  {"id": "A", "capability": "tasks", "action": "create", "constraints": {"title": "once"}}]}
                """);
        Runner.RunHandle handle = executor.start(runner, one, PlanRequest.auto(json("{}")));
        DispatchedStep step = take();
        Run run = runner.store().findRun(step.runId()).orElseThrow();

        // The first worker made the call and died before delivering; the entry went to a second.
        WorkerStep dying = WorkerStep.of(runner.store(), run, step.stepOrder(), step.nodeId(), TimeSource.system());
        executor.runQueued(step.work(), dying);
        work(executor, step);
        RunResult result = handle.result().get(10, TimeUnit.SECONDS);

        assertThat(sends).hasValue(1);
        StepOutcome outcome = PlanExecutor.outcomes(result).get("A");
        assertThat(outcome.result()).isEqualTo(json("{\"id\": \"t-1\", \"title\": \"once\"}"));
        assertThat(runner.store().events(result.runId()).stream()
                        .filter(e -> e.type().equals(PlanEvents.TOOL_SUCCEEDED))
                        .map(e -> e.data().path("replayed").asBoolean()))
                .containsExactly(true);
    }

    @Test
    void aStepWhoseEntryCouldNotBeRunFailsWithTheQueuesErrorAndTheRestOfThePlanRunsOn() throws Exception {
        PlanExecutor executor = executor(true, true);
        Plan two = plan("""
                {"intentType": "tasks", "confidence": 1, "plan": [
                  {"id": "A", "capability": "tasks", "action": "create", "constraints": {"title": "poison"}},
                  {"id": "B", "capability": "tasks", "action": "create", "constraints": {"title": "fine"}}]}
                """);
        Runner.RunHandle handle = executor.start(runner, two, PlanRequest.auto(json("{}")));
        DispatchedStep a = take();
        DispatchedStep b = take();
        DispatchedStep poison = a.work()
                        .path("calls")
                        .get(0)
                        .path("args")
                        .path("title")
                        .asText()
                        .equals("poison")
                ? a
                : b;
        DispatchedStep fine = poison == a ? b : a;

        runner.deliver(
                poison.runId(),
                poison.stepOrder(),
                StepDispatcher.failed(ErrorCode.E_DEAD_LETTER, "tried 3 times; moved to the dead-letter stream"));
        work(executor, fine);
        RunResult result = handle.result().get(10, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        StepOutcome failed = PlanExecutor.outcomes(result).get("A");
        assertThat(failed.status()).isEqualTo(StepOutcome.Status.FAILED);
        assertThat(failed.error().orElseThrow().code()).isEqualTo(ErrorCode.E_DEAD_LETTER);
        assertThat(failed.error().orElseThrow().message())
                .isEqualTo("step 'A': tried 3 times; moved to the dead-letter stream");
        assertThat(PlanExecutor.outcomes(result).get("B").status()).isEqualTo(StepOutcome.Status.SUCCEEDED);
    }

    @Test
    void theCallsOfAnExpandedStepGoToTheWorkerAsOneEntry() throws Exception {
        Plan expanded = plan("""
                {"intentType": "tasks", "confidence": 1, "plan": [
                  {"id": "A", "capability": "tasks", "action": "list", "constraints": {"title": "list"}},
                  {"id": "B", "capability": "tasks", "action": "create", "constraints": {"title": "$A.titles[*]"},
                   "dependsOn": ["A"]}]}
                """);
        Tool lister = Tool.json(
                        "create",
                        "lists",
                        Fixtures.object("{\"type\": \"object\", \"properties\": {\"title\": {\"type\": \"string\"}}}"),
                        Fixtures.object("{\"type\": \"object\"}"),
                        (args, ctx) -> {
                            calledOn.add((working.get() ? "worker " : "runner ") + ctx.idempotencyKey());
                            return args.path("title").asText().equals("list")
                                    ? json("{\"titles\": [\"x\", \"y\", \"z\"]}")
                                    : json("{\"made\": \"" + args.path("title").asText() + "\"}");
                        })
                .build();
        PlanExecutor listing = PlanExecutor.builder()
                .name("test-lists")
                .resolvers(ResolverRegistry.of(Fixtures.passThrough("tasks", "create")))
                .tools(ToolRegistry.of(lister))
                .build();
        Runner.RunHandle handle = listing.start(runner, expanded, PlanRequest.auto(json("{}")));
        work(listing, take());
        DispatchedStep children = take();
        assertThat(children.work().path("calls")).hasSize(3);
        work(listing, children);
        RunResult result = handle.result().get(10, TimeUnit.SECONDS);

        StepOutcome b = PlanExecutor.outcomes(result).get("B");
        assertThat(b.status()).isEqualTo(StepOutcome.Status.SUCCEEDED);
        assertThat(b.children()).extracting(StepOutcome::stepId).containsExactly("B-0", "B-1", "B-2");
        assertThat(calledOn).hasSize(4).allMatch(call -> call.startsWith("worker "));
    }

    @Test
    void anExecutorWithoutANameMakesItsCallsHereEvenWithADispatcher() {
        PlanExecutor executor = executor(false, true);

        RunResult result = executor.run(runner, TWO_STEPS, PlanRequest.auto(json("{}")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(queue).isEmpty();
        assertThat(calledOn).noneMatch(call -> call.startsWith("worker "));
    }

    @Test
    void withoutADispatcherANamedExecutorMakesItsCallsHere() {
        RunResult result = executor(true, true).run(Runner.create(), TWO_STEPS, PlanRequest.auto(json("{}")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(Set.copyOf(calledOn)).hasSize(2);
    }
}
