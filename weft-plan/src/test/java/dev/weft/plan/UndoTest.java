package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static dev.weft.plan.Fixtures.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.RetryPolicy;
import dev.weft.core.RunResult;
import dev.weft.core.RunStateException;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TransientException;
import dev.weft.plan.Fixtures.Calls;
import dev.weft.plan.Fixtures.Created;
import dev.weft.plan.Fixtures.Deleted;
import dev.weft.plan.Fixtures.FakeTime;
import dev.weft.plan.Fixtures.Id;
import dev.weft.plan.Fixtures.Title;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Undo is a plan run of its own: validated, retried, timed, logged, once, and retryable when it fails. */
final class UndoTest {
    private final Calls calls = new Calls();
    private final FakeTime time = new FakeTime();
    private final Runner runner = Runner.builder().time(time).build();
    /** How many calls of the undo tool fail before it works; negative: fail transiently that many times. */
    private final AtomicInteger failures = new AtomicInteger();

    private final Tool createTask = Tool.typed(
                    "task.create", "Creates a task", Title.class, Created.class, (in, ctx) -> {
                        calls.add("task.create:" + in.title());
                        return new Created("t-" + in.title(), in.title());
                    })
            .undo((args, result) -> Optional.of(new UndoAction(
                    "task.delete",
                    result.get("title").asText().equals("bad")
                            ? object("{\"id\": 42}")
                            : object("{\"id\": " + result.get("id") + "}"))))
            .build();
    private final Tool deleteTask = Tool.typed("task.delete", "Deletes a task", Id.class, Deleted.class, (in, ctx) -> {
                int left = failures.get();
                if (left > 0 && failures.compareAndSet(left, left - 1)) {
                    throw new IllegalStateException("the task store refused");
                }
                if (left < 0 && failures.compareAndSet(left, left + 1)) {
                    throw new TransientException(ErrorCode.E_TOOL_FAILED, "busy, try again");
                }
                calls.add("task.delete:" + in.id());
                return new Deleted(in.id(), true);
            })
            .risk(Risk.HIGH)
            .build();

    private final PlanExecutor executor = PlanExecutor.builder()
            .resolvers(ResolverRegistry.of(Fixtures.passThrough("database", "task.create")))
            .tools(ToolRegistry.of(createTask, deleteTask))
            .retry(RetryPolicy.attempts(3)
                    .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1), 2)
                    .withJitter(0))
            .build();

    private RunResult created(String... titles) {
        List<String> steps = new ArrayList<>();
        String before = null;
        for (int i = 0; i < titles.length; i++) {
            String id = String.valueOf((char) ('A' + i));
            steps.add("{\"id\": \"" + id + "\", \"capability\": \"database\", \"action\": \"create\","
                    + " \"constraints\": {\"title\": \"" + titles[i] + "\"}, \"dependsOn\": "
                    + (before == null ? "[]" : "[\"" + before + "\"]") + "}");
            before = id;
        }
        RunResult result = executor.run(
                runner,
                Fixtures.plan(
                        "{\"intentType\": \"tasks\", \"confidence\": 1, \"plan\": [" + String.join(",", steps) + "]}"),
                PlanRequest.auto(json("null")));
        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        return result;
    }

    @Test
    void undoIsARunOfItsOwnWhoseEventsTheStoreNumbers() {
        RunResult done = created("first", "second");

        PlanExecutor.UndoReport report = executor.undo(runner, done.runId());

        assertThat(report.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(report.complete()).isTrue();
        String undoRun = report.undoRunId().orElseThrow();
        assertThat(undoRun).isEqualTo(done.runId() + "-undo-1");
        List<Event> events = runner.store().events(undoRun);
        assertThat(events).extracting(Event::type).contains(PlanEvents.TOOL_CALLED, PlanEvents.TOOL_SUCCEEDED);
        assertThat(events).extracting(Event::sequence).doesNotHaveDuplicates().isSorted();
        assertThat(events)
                .allMatch(e -> e.time().isAfter(java.time.Instant.parse("2026-11-21T09:59:00Z"))
                        && e.time().isBefore(java.time.Instant.parse("2026-11-21T10:01:00Z")));
        assertThat(runner.result(undoRun)
                        .run()
                        .input()
                        .path("input")
                        .path("undoOf")
                        .asText())
                .isEqualTo(done.runId());
        assertThat(calls.snapshot()).endsWith("task.delete:t-second", "task.delete:t-first");
    }

    @Test
    void twoCallersUndoingAtOnceUndoOnce() throws Exception {
        RunResult done = created("first", "second");
        CyclicBarrier start = new CyclicBarrier(2);
        List<Object> outcomes = java.util.Collections.synchronizedList(new ArrayList<>());
        CountDownLatch finished = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            Thread.ofVirtual().start(() -> {
                try {
                    start.await(5, TimeUnit.SECONDS);
                    outcomes.add(executor.undo(runner, done.runId()));
                } catch (Exception e) {
                    outcomes.add(e);
                } finally {
                    finished.countDown();
                }
            });
        }
        assertThat(finished.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(outcomes)
                .filteredOn(o -> o instanceof PlanExecutor.UndoReport)
                .hasSize(1);
        assertThat(outcomes)
                .filteredOn(o -> o instanceof RunStateException)
                .hasSize(1)
                .first()
                .extracting(o -> ((RunStateException) o).getMessage())
                .asString()
                .containsAnyOf("being undone", "already undone");
        assertThat(calls.snapshot())
                .filteredOn(c -> c.startsWith("task.delete"))
                .hasSize(2);
    }

    @Test
    void aFailedUndoCanBeTriedAgainAndCallsOnlyWhatWasNotUndone() {
        RunResult done = created("first", "second");
        failures.set(1);

        PlanExecutor.UndoReport failed = executor.undo(runner, done.runId());

        assertThat(failed.complete()).isFalse();
        assertThat(failed.calls()).extracting(PlanExecutor.UndoCall::succeeded).containsExactly(false, false);
        assertThat(failed.calls().get(0).error().orElseThrow().message()).contains("refused");
        assertThat(calls.snapshot()).noneMatch(c -> c.startsWith("task.delete"));

        PlanExecutor.UndoReport retried = executor.undo(runner, done.runId());

        assertThat(retried.complete()).isTrue();
        assertThat(retried.undoRunId()).contains(done.runId() + "-undo-2");
        assertThat(calls.snapshot()).endsWith("task.delete:t-second", "task.delete:t-first");
        assertThatThrownBy(() -> executor.undo(runner, done.runId()))
                .isInstanceOf(RunStateException.class)
                .hasMessageContaining("already undone")
                .hasMessageContaining("-undo-2");
    }

    @Test
    void anUndoAfterAPartialFailureCallsOnlyTheRest() {
        RunResult done = created("first", "second");
        // The newest (second) is undone, then the first fails: the retry undoes the first alone.
        Tool flaky = deleteTask;
        AtomicInteger seen = new AtomicInteger();
        failures.set(0);
        PlanExecutor partial = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(Fixtures.passThrough("database", "task.create")))
                .tools(ToolRegistry.of(
                        createTask,
                        Tool.typed("task.delete", "Deletes a task", Id.class, Deleted.class, (in, ctx) -> {
                                    if (seen.incrementAndGet() == 2) {
                                        throw new IllegalStateException("the task store refused");
                                    }
                                    return flaky.invoke(object("{\"id\": \"" + in.id() + "\"}"), ctx)
                                                    .get("deleted")
                                                    .asBoolean()
                                            ? new Deleted(in.id(), true)
                                            : new Deleted(in.id(), false);
                                })
                                .build()))
                .build();

        PlanExecutor.UndoReport first = partial.undo(runner, done.runId());
        PlanExecutor.UndoReport second = partial.undo(runner, done.runId());

        assertThat(first.calls()).extracting(PlanExecutor.UndoCall::succeeded).containsExactly(true, false);
        assertThat(second.calls()).extracting(PlanExecutor.UndoCall::stepId).containsExactly("A");
        assertThat(calls.snapshot())
                .filteredOn(c -> c.startsWith("task.delete"))
                .containsExactly("task.delete:t-second", "task.delete:t-first");
    }

    @Test
    void anUndoCallIsRetriedWhenItFailsTransiently() {
        RunResult done = created("only");
        failures.set(-1);

        PlanExecutor.UndoReport report = executor.undo(runner, done.runId());

        assertThat(report.complete()).isTrue();
        assertThat(time.sleeps).containsExactly(Duration.ofMillis(100));
        assertThat(runner.store().events(report.undoRunId().orElseThrow()))
                .extracting(Event::type)
                .contains(PlanEvents.TOOL_RETRYING);
    }

    @Test
    void anUndoCallWithArgumentsThatBreakItsToolsSchemaIsNotMade() {
        RunResult done = created("bad");

        PlanExecutor.UndoReport report = executor.undo(runner, done.runId());

        assertThat(report.complete()).isFalse();
        assertThat(report.calls().get(0).error().orElseThrow().code()).isEqualTo(ErrorCode.E_ARGS_INVALID);
        assertThat(report.calls().get(0).error().orElseThrow().message()).contains("/id");
        assertThat(calls.snapshot()).noneMatch(c -> c.startsWith("task.delete"));
    }

    @Test
    void aRunWithNothingToUndoMakesNoUndoRun() {
        Tool plain = Tool.typed("plain", "no undo", Title.class, Title.class, (in, ctx) -> in)
                .build();
        PlanExecutor noUndo = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(Fixtures.passThrough("x", "plain")))
                .tools(ToolRegistry.of(plain))
                .build();
        RunResult done = noUndo.run(
                runner,
                Fixtures.plan("{\"intentType\": \"t\", \"confidence\": 1, \"plan\": [{\"id\": \"A\", \"capability\":"
                        + " \"x\", \"action\": \"create\", \"constraints\": {\"title\": \"t\"}}]}"),
                PlanRequest.auto(json("null")));

        PlanExecutor.UndoReport report = noUndo.undo(runner, done.runId());

        assertThat(report.undoRunId()).isEmpty();
        assertThat(report.calls()).isEmpty();
        assertThat(runner.store().findRun(PlanExecutor.undoRunId(done.runId(), 1)))
                .isEmpty();
    }
}
