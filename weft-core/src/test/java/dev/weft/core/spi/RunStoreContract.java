package dev.weft.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunError;
import dev.weft.core.RunStateException;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.WeftException;
import dev.weft.core.spi.Checkpoint.Activation;
import dev.weft.core.spi.Checkpoint.Arrival;
import dev.weft.core.spi.Checkpoint.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link RunStore} must do. Each implementation's test extends this and says how to make
 * a fresh, empty store.
 */
public abstract class RunStoreContract {
    protected static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    protected RunStore store;

    /** A new, empty store. */
    protected abstract RunStore newStore();

    @BeforeEach
    void openStore() {
        store = newStore();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    /** Asserts that {@code call} throws a {@link WeftException} with {@code code}, for more about it. */
    protected static AbstractThrowableAssert<?, ? extends Throwable> assertFailsWith(
            ErrorCode code, ThrowingCallable call) {
        return assertThatThrownBy(call)
                .isInstanceOf(WeftException.class)
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(code));
    }

    protected static JsonNode json(String text) {
        return Json.parse(text, "test JSON");
    }

    protected static Run runOf(String id, String user, RunStatus status, Instant createdAt) {
        Run run = run(id, status, createdAt);
        return new Run(
                run.id(),
                run.graphId(),
                run.parentRunId(),
                run.status(),
                run.input(),
                run.variables(),
                run.pins(),
                run.output(),
                run.error(),
                run.createdAt(),
                run.endedAt(),
                run.source(),
                Optional.of(user));
    }

    @Test
    void aLeaseIsReadBackAndTakenOverOnlyFromTheHolderNamed() {
        store.createRun(run("r-held", RunStatus.RUNNING, T0), new RunStore.Lease("dead-owner", T0.plusSeconds(30)));
        store.createRun(run("r-done", RunStatus.COMPLETED, T0));

        assertThat(store.lease("r-held")).contains(new RunStore.Lease("dead-owner", T0.plusSeconds(30)));
        assertThat(store.lease("r-done")).isEmpty();
        assertThat(store.takeOver("r-held", "someone-else", new RunStore.Lease("me", T0.plusSeconds(60))))
                .isFalse();
        assertThat(store.takeOver("r-held", "dead-owner", new RunStore.Lease("me", T0.plusSeconds(60))))
                .isTrue();
        assertThat(store.takeOver("r-held", "dead-owner", new RunStore.Lease("you", T0.plusSeconds(60))))
                .isFalse();
        assertThat(store.lease("r-held")).contains(new RunStore.Lease("me", T0.plusSeconds(60)));
    }

    @Test
    void aRunKeepsItsUserAndAUsersRunsAreListedWithoutAnyoneElses() {
        store.createRun(runOf("r-dana-1", "dana", RunStatus.RUNNING, T0));
        store.createRun(runOf("r-dana-2", "dana", RunStatus.WAITING, T0.plusSeconds(1)));
        store.createRun(runOf("r-omer", "omer", RunStatus.WAITING, T0.plusSeconds(2)));
        store.createRun(run("r-nobody", RunStatus.WAITING, T0.plusSeconds(3)));

        assertThat(store.findRun("r-dana-1").orElseThrow().user()).contains("dana");
        assertThat(store.findRun("r-nobody").orElseThrow().user()).isEmpty();
        assertThat(store.listRuns(Optional.empty(), Optional.of("dana")))
                .extracting(Run::id)
                .containsExactly("r-dana-2", "r-dana-1");
        assertThat(store.listRuns(Optional.of(RunStatus.WAITING), Optional.of("dana")))
                .extracting(Run::id)
                .containsExactly("r-dana-2");
        assertThat(store.listRuns(Optional.empty(), Optional.of("nobody-here"))).isEmpty();
        assertThat(store.listRuns(Optional.of(RunStatus.WAITING)))
                .extracting(Run::id)
                .containsExactly("r-nobody", "r-omer", "r-dana-2");
        Run ended = store.findRun("r-dana-2")
                .orElseThrow()
                .finished(RunStatus.COMPLETED, json("1"), Optional.empty(), T0.plusSeconds(9));
        assertThat(store.updateRun(ended, java.util.Set.of(RunStatus.WAITING))).isTrue();
        assertThat(store.findRun("r-dana-2").orElseThrow().user()).contains("dana");
    }

    protected static Run run(String id, RunStatus status, Instant createdAt) {
        return new Run(
                id,
                "graph-1",
                Optional.empty(),
                status,
                json("{\"q\": \"hi\", \"n\": 1.5}"),
                Map.of("v", json("3")),
                Map.of("pinned", json("{\"x\": true}")),
                NullNode.getInstance(),
                Optional.empty(),
                createdAt,
                Optional.empty(),
                json("{\"id\": \"wf\"}"),
                Optional.empty());
    }

    protected static Step step(String runId, int order, StepStatus status) {
        return new Step(
                runId,
                order,
                "node-" + order,
                "name-" + order,
                "transform",
                status,
                1,
                false,
                json("{\"in\": " + order + "}"),
                NullNode.getInstance(),
                Optional.empty(),
                Optional.of(T0),
                Optional.empty(),
                Map.of());
    }

    private static String id() {
        return UUID.randomUUID().toString();
    }

    @Test
    void storesAndFindsARunWithEveryField() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);

        assertThat(store.findRun(run.id())).contains(run);
        assertThat(store.findRun("missing")).isEmpty();
    }

    @Test
    void refusesASecondRunWithTheSameId() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);

        assertThatThrownBy(() -> store.createRun(run)).isInstanceOf(RuntimeException.class);
    }

    @Test
    void updatesARunOnlyFromAnExpectedStatus() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Run done = run.finished(RunStatus.COMPLETED, json("{\"ok\": 1}"), Optional.empty(), T0.plusSeconds(1));

        assertThat(store.updateRun(done, Set.of(RunStatus.RUNNING))).isTrue();
        assertThat(store.updateRun(run.withStatus(RunStatus.RUNNING), Set.of(RunStatus.RUNNING, RunStatus.WAITING)))
                .isFalse();
        assertThat(store.findRun(run.id())).contains(done);
    }

    @Test
    void keepsARunsError() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Run failed = run.finished(
                RunStatus.FAILED,
                NullNode.getInstance(),
                Optional.of(new RunError(ErrorCode.E_VISIT_LIMIT, "too many")),
                T0.plusSeconds(2));

        store.updateRun(failed, Set.of(RunStatus.RUNNING));

        assertThat(store.findRun(run.id()).orElseThrow().error())
                .contains(new RunError(ErrorCode.E_VISIT_LIMIT, "too many"));
    }

    @Test
    void listsAPageOfAUsersRunsInAStatusWithTheirTotalAndNoOneElses() {
        for (int i = 0; i < 7; i++) {
            store.createRun(runOf(
                    "r-dana-" + i, "dana", i % 2 == 0 ? RunStatus.WAITING : RunStatus.COMPLETED, T0.plusSeconds(i)));
            store.createRun(runOf("r-omer-" + i, "omer", RunStatus.WAITING, T0.plusSeconds(i)));
        }
        RunStore.RunQuery danas = new RunStore.RunQuery(Optional.empty(), Optional.of("dana"), 0, 3);
        RunStore.RunQuery waiting = new RunStore.RunQuery(Optional.of(RunStatus.WAITING), Optional.of("dana"), 0, 3);

        RunStore.RunPage first = store.listRuns(danas);
        RunStore.RunPage second = store.listRuns(danas.page(3, 3));
        RunStore.RunPage last = store.listRuns(danas.page(6, 3));
        RunStore.RunPage past = store.listRuns(danas.page(20, 3));
        RunStore.RunPage waitingFirst = store.listRuns(waiting);
        RunStore.RunPage waitingLast = store.listRuns(waiting.page(3, 3));
        RunStore.RunPage everyone = store.listRuns(new RunStore.RunQuery(Optional.empty(), Optional.empty(), 1, 2));

        assertThat(first.runs()).extracting(Run::id).containsExactly("r-dana-6", "r-dana-5", "r-dana-4");
        assertThat(second.runs()).extracting(Run::id).containsExactly("r-dana-3", "r-dana-2", "r-dana-1");
        assertThat(last.runs()).extracting(Run::id).containsExactly("r-dana-0");
        assertThat(past.runs()).isEmpty();
        assertThat(List.of(first.total(), second.total(), last.total(), past.total()))
                .containsOnly(7L);
        assertThat(waitingFirst.runs()).extracting(Run::id).containsExactly("r-dana-6", "r-dana-4", "r-dana-2");
        assertThat(waitingLast.runs()).extracting(Run::id).containsExactly("r-dana-0");
        assertThat(waitingFirst.total()).isEqualTo(4);
        assertThat(waitingLast.total()).isEqualTo(4);
        assertThat(everyone.runs()).extracting(Run::id).containsExactly("r-omer-6", "r-dana-5");
        assertThat(everyone.total()).isEqualTo(14);
        assertThat(store.listRuns(new RunStore.RunQuery(Optional.empty(), Optional.of("nobody"), 0, 5)))
                .isEqualTo(new RunStore.RunPage(List.of(), 0));
    }

    @Test
    void aRunQueryRefusesANegativeOffsetAndANonPositiveLimit() {
        assertThatThrownBy(() -> new RunStore.RunQuery(Optional.empty(), Optional.empty(), -1, 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("offset must not be negative, was -1");
        assertThatThrownBy(() -> new RunStore.RunQuery(Optional.empty(), Optional.empty(), 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("limit must be positive, was 0");
    }

    @Test
    void listsRunsNewestFirstAndByStatus() {
        Run older = run(id(), RunStatus.COMPLETED, T0);
        Run newer = run(id(), RunStatus.RUNNING, T0.plusSeconds(5));
        store.createRun(older);
        store.createRun(newer);

        assertThat(store.listRuns(Optional.empty())).extracting(Run::id).containsExactly(newer.id(), older.id());
        assertThat(store.listRuns(Optional.of(RunStatus.RUNNING)))
                .extracting(Run::id)
                .containsExactly(newer.id());
    }

    @Test
    void stepStatusChangesAreCompareAndSet() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Step pending = step(run.id(), 1, StepStatus.PENDING);
        store.insertStep(pending);
        Step done = pending.finished(
                StepStatus.COMPLETED,
                json("{\"out\": [1, 2]}"),
                Optional.empty(),
                T0.plusMillis(5),
                Map.of("tokens", json("{\"input\": 3}")));

        assertThat(store.updateStep(done, Set.of(StepStatus.PENDING, StepStatus.RUNNING)))
                .isTrue();
        // A late, duplicated delivery can never move a finished step back.
        assertThat(store.updateStep(pending.with(StepStatus.RUNNING), Set.of(StepStatus.PENDING, StepStatus.RUNNING)))
                .isFalse();
        assertThat(store.steps(run.id())).containsExactly(done);
    }

    @Test
    void returnsStepsInOrder() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        store.insertStep(step(run.id(), 2, StepStatus.PENDING));
        store.insertStep(step(run.id(), 1, StepStatus.COMPLETED));
        store.insertStep(step(run.id(), 10, StepStatus.PENDING));

        assertThat(store.steps(run.id())).extracting(Step::order).containsExactly(1, 2, 10);
    }

    @Test
    void appendsEventsInSequence() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Event first = new Event(run.id(), 1, Event.RUN_STARTED, Optional.empty(), 0, T0, json("{}"));
        Event second = new Event(run.id(), 2, Event.STEP_STARTED, Optional.of("a"), 1, T0.plusMillis(1), json("null"));
        store.appendEvent(second);
        store.appendEvent(first);

        assertThat(store.events(run.id())).containsExactly(first, second);
    }

    @Test
    void keepsEveryCheckpointAndGivesTheLatest() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Checkpoint first = new Checkpoint(
                run.id(),
                0,
                1,
                T0,
                Map.of(),
                Map.of(),
                List.of(new Activation("a", 1, List.of(new Arrival("START", json("{\"q\": 1}"))))),
                List.of(),
                Map.of(),
                "");
        Checkpoint second = new Checkpoint(
                run.id(),
                1,
                2,
                T0.plusSeconds(1),
                Map.of("a", json("[1, \"x\"]")),
                Map.of("a", 1),
                List.of(),
                List.of(new Waiting("b", 2, json("1"), json("{\"ask\": \"?\"}"))),
                Map.of("a", json("[1, \"x\"]")),
                "a");
        store.saveCheckpoint(first);
        store.saveCheckpoint(second);

        assertThat(store.latestCheckpoint(run.id())).contains(second);
        assertThat(store.checkpoints(run.id())).containsExactly(first, second);
    }

    /**
     * Checkpoints of run {@code runId}, in order, that between them add, change and remove outputs,
     * visits and ended paths (an output going from {@code big} to a small value and back, one that
     * is JSON null), change the pending and waiting nodes, and end with one the same as the one
     * before. {@code big} and {@code otherBig} are values a durable store keeps apart.
     */
    protected static List<Checkpoint> checkpointsChangingEveryPart(String runId, JsonNode big, JsonNode otherBig) {
        JsonNode small = json("{\"n\": 1}");
        JsonNode changed = json("{\"n\": 2}");
        Activation toB = new Activation("b", 2, List.of(new Arrival("a", small), new Arrival("START", big)));
        Waiting atC = new Waiting("c", 3, small, json("{\"ask\": \"?\"}"));
        Checkpoint first = new Checkpoint(
                runId,
                1,
                2,
                T0,
                Map.of("a", small, "b", big, "none", NullNode.getInstance()),
                Map.of("a", 1, "b", 1),
                List.of(toB),
                List.of(),
                Map.of(),
                "");
        Checkpoint second = new Checkpoint(
                runId,
                2,
                3,
                T0.plusSeconds(1),
                Map.of("a", changed, "b", big, "none", NullNode.getInstance(), "c", otherBig),
                Map.of("a", 2, "b", 1),
                List.of(),
                List.of(atC),
                Map.of("a", changed, "c", otherBig),
                "a");
        Checkpoint third = new Checkpoint(
                runId,
                3,
                4,
                T0.plusSeconds(2),
                Map.of("a", otherBig, "b", small),
                Map.of("a", 2),
                List.of(),
                List.of(atC),
                Map.of(),
                "a");
        Checkpoint same = new Checkpoint(
                runId,
                3,
                4,
                T0.plusSeconds(3),
                third.outputs(),
                third.visits(),
                third.pending(),
                third.waiting(),
                third.ended(),
                third.lastEnded());
        return List.of(first, second, third, same);
    }

    @Test
    void keepsEveryCheckpointOfOneBatchExactly() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        List<Checkpoint> checkpoints =
                checkpointsChangingEveryPart(run.id(), json("{\"big\": [1, 2, 3]}"), json("\"other\""));

        store.apply(
                run.id(),
                "runner",
                checkpoints.stream()
                        .<RunStore.Change>map(RunStore.Change.SaveCheckpoint::new)
                        .toList());

        assertThat(store.checkpoints(run.id())).containsExactlyElementsOf(checkpoints);
        assertThat(store.latestCheckpoint(run.id())).contains(checkpoints.getLast());
    }

    @Test
    void appliesABatchAndReportsCancellation() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Step pending = step(run.id(), 1, StepStatus.PENDING);
        Step done = pending.finished(StepStatus.COMPLETED, json("7"), Optional.empty(), T0, Map.of());
        Event event = new Event(run.id(), 1, Event.STEP_COMPLETED, Optional.of("node-1"), 1, T0, json("{}"));
        Checkpoint checkpoint = new Checkpoint(
                run.id(), 1, 1, T0, Map.of("n", json("7")), Map.of(), List.of(), List.of(), Map.of(), "");

        store.claim(run.id(), new RunStore.Lease("me", T0.plusSeconds(30)), T0);
        boolean cancelled = store.apply(
                run.id(),
                "me",
                List.<RunStore.Change>of(
                        new RunStore.Change.InsertStep(pending),
                        new RunStore.Change.UpdateStep(done, Set.of(StepStatus.PENDING)),
                        new RunStore.Change.AppendEvent(event),
                        new RunStore.Change.SaveCheckpoint(checkpoint)));

        assertThat(cancelled).isFalse();
        assertThat(store.steps(run.id())).containsExactly(done);
        assertThat(store.events(run.id())).containsExactly(event);
        assertThat(store.latestCheckpoint(run.id())).contains(checkpoint);
        assertThat(store.requestCancel(run.id())).isTrue();
        assertThat(store.apply(run.id(), "me", List.of())).isTrue();
        assertThat(store.isCancelRequested(run.id())).isTrue();
    }

    @Test
    void appliesARunsEndWithItsLastWrites() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run, new RunStore.Lease("me", T0.plusSeconds(30)));
        Step done = step(run.id(), 1, StepStatus.COMPLETED);
        Run ended = run.finished(RunStatus.COMPLETED, json("{\"answer\": 42}"), Optional.empty(), T0.plusSeconds(1));
        Event event = new Event(run.id(), 1, Event.RUN_COMPLETED, Optional.empty(), 0, T0, json("{}"));

        store.apply(
                run.id(),
                "me",
                List.of(
                        new RunStore.Change.UpdateRun(ended, Set.of(RunStatus.RUNNING)),
                        new RunStore.Change.InsertStep(done),
                        new RunStore.Change.AppendEvent(event)));

        assertThat(store.findRun(run.id())).contains(ended);
        assertThat(store.steps(run.id())).containsExactly(done);
        assertThat(store.events(run.id())).containsExactly(event);
    }

    @Test
    void aRunsEndFromAnUnexpectedStatusFailsTheWholeBatch() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run, new RunStore.Lease("me", T0.plusSeconds(30)));
        Run cancelled = run.finished(RunStatus.CANCELLED, NullNode.getInstance(), Optional.empty(), T0);
        store.updateRun(cancelled, Set.of(RunStatus.RUNNING));
        Run completed = run.finished(RunStatus.COMPLETED, json("1"), Optional.empty(), T0.plusSeconds(1));

        assertThatThrownBy(() -> store.apply(
                        run.id(),
                        "me",
                        List.of(
                                new RunStore.Change.InsertStep(step(run.id(), 1, StepStatus.COMPLETED)),
                                new RunStore.Change.AppendEvent(new Event(
                                        run.id(), 1, Event.RUN_COMPLETED, Optional.empty(), 0, T0, json("{}"))),
                                new RunStore.Change.UpdateRun(completed, Set.of(RunStatus.RUNNING)))))
                .isInstanceOf(dev.weft.core.RunStateException.class)
                .hasMessageContaining(run.id());
        assertThat(store.findRun(run.id())).contains(cancelled);
        assertThat(store.steps(run.id())).isEmpty();
        assertThat(store.events(run.id())).isEmpty();
    }

    @Test
    void createsARunWithItsFirstWritesOrNotAtAll() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        Event started = new Event(run.id(), 1, Event.RUN_STARTED, Optional.empty(), 0, T0, json("{}"));
        Checkpoint first = new Checkpoint(run.id(), 0, 1, T0, Map.of(), Map.of(), List.of(), List.of(), Map.of(), "");
        Step pending = step(run.id(), 1, StepStatus.PENDING);

        store.createRun(
                run,
                new RunStore.Lease("me", T0.plusSeconds(30)),
                List.of(
                        new RunStore.Change.AppendEvent(started),
                        new RunStore.Change.InsertStep(pending),
                        new RunStore.Change.SaveCheckpoint(first)));

        assertThat(store.findRun(run.id())).contains(run);
        assertThat(store.events(run.id())).containsExactly(started);
        assertThat(store.steps(run.id())).containsExactly(pending);
        assertThat(store.latestCheckpoint(run.id())).contains(first);
        Event again = new Event(run.id(), 2, Event.RUN_STARTED, Optional.empty(), 0, T0, json("{}"));
        assertThatThrownBy(() -> store.createRun(
                        run,
                        new RunStore.Lease("other", T0.plusSeconds(30)),
                        List.of(new RunStore.Change.AppendEvent(again))))
                .isInstanceOf(RuntimeException.class);
        assertThat(store.events(run.id())).containsExactly(started);
        assertThat(store.claim(run.id(), new RunStore.Lease("other", T0.plusSeconds(60)), T0.plusSeconds(10)))
                .isFalse();
    }

    @Test
    void writingToAnUnknownRunIsNotFound() {
        assertThatThrownBy(() -> store.apply("missing", "runner", List.of()))
                .isInstanceOf(dev.weft.core.NotFoundException.class)
                .hasMessageContaining("'missing'");
        assertThatThrownBy(() -> store.insertStep(step("missing", 1, StepStatus.PENDING)))
                .isInstanceOf(dev.weft.core.NotFoundException.class);
        assertThat(store.findRun("missing")).isEmpty();
    }

    @Test
    void creatingARunWhoseIdExistsIsBadInputAndChangesNothing() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Run again = run(run.id(), RunStatus.RUNNING, T0.plusSeconds(5));

        assertFailsWith(ErrorCode.E_BAD_INPUT, () -> store.createRun(again))
                .hasMessage("a run with id '" + run.id() + "' already exists");
        assertThat(store.findRun(run.id())).contains(run);
    }

    @Test
    void insertingAStepTwiceOutsideABatchIsBadInput() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Step pending = step(run.id(), 1, StepStatus.PENDING);
        store.insertStep(pending);

        assertFailsWith(ErrorCode.E_BAD_INPUT, () -> store.insertStep(step(run.id(), 1, StepStatus.RUNNING)))
                .hasMessageContaining("already exists");
        assertThat(store.steps(run.id())).containsExactly(pending);
    }

    @Test
    void aRunCreatedWithItsEndIsStoredAsItEnded() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        Step done = step(run.id(), 1, StepStatus.PENDING)
                .finished(StepStatus.COMPLETED, json("42"), Optional.empty(), T0.plusSeconds(1), Map.of());
        Run ended = run.finished(RunStatus.COMPLETED, json("42"), Optional.empty(), T0.plusSeconds(2));
        Event completed =
                new Event(run.id(), 2, Event.RUN_COMPLETED, Optional.empty(), 0, T0.plusSeconds(2), json("{}"));

        // What a short run's one transaction holds when its writer creates it (Durability.ASYNC).
        store.createRun(
                run,
                new RunStore.Lease("me", T0.plusSeconds(30)),
                List.of(
                        new RunStore.Change.InsertStep(step(run.id(), 1, StepStatus.PENDING)),
                        new RunStore.Change.UpdateStep(done, Set.of(StepStatus.PENDING)),
                        new RunStore.Change.AppendEvent(completed),
                        new RunStore.Change.UpdateRun(ended, Set.of(RunStatus.RUNNING))));

        assertThat(store.findRun(run.id())).contains(ended);
        assertThat(store.steps(run.id())).containsExactly(done);
        assertThat(store.events(run.id())).containsExactly(completed);
        assertThat(store.recoverable(T0.plusSeconds(60))).isEmpty();
        assertThat(store.listRuns(Optional.of(RunStatus.COMPLETED)))
                .extracting(Run::id)
                .containsExactly(run.id());
        assertThat(store.listRuns(Optional.of(RunStatus.RUNNING))).isEmpty();
    }

    @Test
    void aRunCreatedWithAnEndThatExpectsAnotherStatusIsNotCreated() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        Run ended = run.finished(RunStatus.COMPLETED, json("42"), Optional.empty(), T0.plusSeconds(2));

        assertThatThrownBy(() -> store.createRun(
                        run,
                        new RunStore.Lease("me", T0.plusSeconds(30)),
                        List.of(
                                new RunStore.Change.InsertStep(step(run.id(), 1, StepStatus.PENDING)),
                                new RunStore.Change.UpdateRun(ended, Set.of(RunStatus.WAITING)))))
                .isInstanceOf(RunStateException.class);
        assertThat(store.findRun(run.id())).isEmpty();
    }

    @Test
    void aRunCreatedWithALeaseIsClaimedByItsOwner() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run, new RunStore.Lease("me", T0.plusSeconds(30)));

        assertThat(store.claim(run.id(), new RunStore.Lease("other", T0.plusSeconds(60)), T0.plusSeconds(10)))
                .isFalse();
        assertThat(store.recoverable(T0.plusSeconds(10))).isEmpty();
        assertThat(store.recoverable(T0.plusSeconds(31))).extracting(Run::id).containsExactly(run.id());
        assertThatThrownBy(() -> store.createRun(run, new RunStore.Lease("other", T0.plusSeconds(60))))
                .isInstanceOf(RuntimeException.class);
        assertThat(store.claim(run.id(), new RunStore.Lease("me", T0.plusSeconds(90)), T0.plusSeconds(10)))
                .isTrue();
    }

    @Test
    void aLateWriterThatLostItsLeaseChangesNothing() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        store.claim(run.id(), new RunStore.Lease("dead", T0.plusSeconds(30)), T0);
        store.claim(run.id(), new RunStore.Lease("survivor", T0.plusSeconds(120)), T0.plusSeconds(60));

        assertThatThrownBy(() -> store.apply(
                        run.id(),
                        "dead",
                        List.of(new RunStore.Change.InsertStep(step(run.id(), 1, StepStatus.PENDING)))))
                .isInstanceOf(dev.weft.core.LeaseLostException.class);
        assertThat(store.steps(run.id())).isEmpty();
        store.apply(
                run.id(), "survivor", List.of(new RunStore.Change.InsertStep(step(run.id(), 1, StepStatus.PENDING))));
        assertThat(store.steps(run.id())).hasSize(1);
    }

    @Test
    void anInsertOfAStepThatExistsIsSkippedInABatch() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Step first = step(run.id(), 1, StepStatus.COMPLETED);
        store.insertStep(first);

        store.apply(run.id(), "me", List.of(new RunStore.Change.InsertStep(step(run.id(), 1, StepStatus.PENDING))));

        assertThat(store.steps(run.id())).containsExactly(first);
    }

    @Test
    void anInsertAndAnUpdateOfAStepThatExistsUpdateItOnlyFromAnExpectedStatus() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Step running = step(run.id(), 1, StepStatus.RUNNING);
        Step finished = step(run.id(), 2, StepStatus.COMPLETED);
        store.insertStep(running);
        store.insertStep(finished);
        Step done = running.finished(StepStatus.COMPLETED, json("1"), Optional.empty(), T0, Map.of());
        Step late = finished.finished(StepStatus.FAILED, json("2"), Optional.empty(), T0, Map.of());

        store.apply(
                run.id(),
                "me",
                List.of(
                        new RunStore.Change.InsertStep(step(run.id(), 1, StepStatus.PENDING)),
                        new RunStore.Change.InsertStep(step(run.id(), 2, StepStatus.PENDING)),
                        new RunStore.Change.UpdateStep(done, Set.of(StepStatus.PENDING, StepStatus.RUNNING)),
                        new RunStore.Change.UpdateStep(late, Set.of(StepStatus.PENDING, StepStatus.RUNNING))));

        assertThat(store.steps(run.id())).containsExactly(done, finished);
    }

    @Test
    void aWaitingRunMayBeClaimedByWhoeverResumesIt() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        store.claim(run.id(), new RunStore.Lease("first", T0.plusSeconds(30)), T0);
        store.updateRun(run.withStatus(RunStatus.WAITING), Set.of(RunStatus.RUNNING));

        assertThat(store.claim(run.id(), new RunStore.Lease("second", T0.plusSeconds(40)), T0.plusSeconds(1)))
                .isTrue();
    }

    @Test
    void refusesToCancelAFinishedOrUnknownRun() {
        Run run = run(id(), RunStatus.COMPLETED, T0);
        store.createRun(run);

        assertThat(store.requestCancel(run.id())).isFalse();
        assertThat(store.requestCancel("missing")).isFalse();
        assertThat(store.isCancelRequested(run.id())).isFalse();
    }

    @Test
    void aLeaseHoldsUntilItExpires() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        RunStore.Lease mine = new RunStore.Lease("me", T0.plusSeconds(30));

        assertThat(store.claim(run.id(), mine, T0)).isTrue();
        assertThat(store.claim(run.id(), new RunStore.Lease("other", T0.plusSeconds(60)), T0.plusSeconds(10)))
                .isFalse();
        assertThat(store.recoverable(T0.plusSeconds(10))).isEmpty();
        store.renew("me", T0.plusSeconds(90));
        assertThat(store.recoverable(T0.plusSeconds(60))).isEmpty();
        assertThat(store.recoverable(T0.plusSeconds(91))).extracting(Run::id).containsExactly(run.id());
        assertThat(store.claim(run.id(), new RunStore.Lease("other", T0.plusSeconds(200)), T0.plusSeconds(91)))
                .isTrue();
    }

    @Test
    void keepsTheFirstResultOfAnIdempotentCall() {
        assertThat(store.idempotentResult("run/1/call")).isEmpty();
        assertThat(store.saveIdempotentResult("run/1/call", json("{\"id\": 1}")))
                .isEqualTo(json("{\"id\": 1}"));
        assertThat(store.saveIdempotentResult("run/1/call", json("{\"id\": 2}")))
                .isEqualTo(json("{\"id\": 1}"));
        assertThat(store.idempotentResult("run/1/call")).contains(json("{\"id\": 1}"));
    }

    @Test
    void readsAQueuedStepsRunCancellationAndStoredOutcomeTogether() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        String key = "weft.queued:" + run.id() + "/1";

        assertThat(store.queuedStepState(run.id(), key))
                .isEqualTo(new RunStore.QueuedStepState(Optional.of(run), false, Optional.empty()));

        store.requestCancel(run.id());
        store.saveIdempotentResult(key, json("{\"value\": 1}"));
        assertThat(store.queuedStepState(run.id(), key))
                .isEqualTo(new RunStore.QueuedStepState(
                        store.findRun(run.id()), true, Optional.of(json("{\"value\": 1}"))));
        assertThat(store.queuedStepState("no-such-run", key))
                .isEqualTo(new RunStore.QueuedStepState(Optional.empty(), false, Optional.of(json("{\"value\": 1}"))));
        assertThat(store.queuedStepState("no-such-run", "no-such-key"))
                .isEqualTo(new RunStore.QueuedStepState(Optional.empty(), false, Optional.empty()));
    }

    @Test
    void prunesFinishedRunsThatEndedBeforeTheCutoff() {
        Run old = run(id(), RunStatus.RUNNING, T0);
        Run recent = run(id(), RunStatus.RUNNING, T0);
        Run running = run(id(), RunStatus.RUNNING, T0);
        for (Run run : List.of(old, recent, running)) {
            store.createRun(run);
            store.insertStep(step(run.id(), 1, StepStatus.PENDING));
        }
        store.updateRun(
                old.finished(RunStatus.COMPLETED, json("1"), Optional.empty(), T0.plus(1, ChronoUnit.DAYS)),
                Set.of(RunStatus.RUNNING));
        store.updateRun(
                recent.finished(RunStatus.FAILED, json("1"), Optional.empty(), T0.plus(10, ChronoUnit.DAYS)),
                Set.of(RunStatus.RUNNING));

        assertThat(store.pruneRuns(T0.plus(Duration.ofDays(5)))).isEqualTo(1);

        assertThat(store.findRun(old.id())).isEmpty();
        assertThat(store.findRun(recent.id())).isPresent();
        assertThat(store.findRun(running.id())).isPresent();
    }

    @Test
    void keepsLargeOutputsIntact() {
        Run run = run(id(), RunStatus.RUNNING, T0);
        store.createRun(run);
        StringBuilder big = new StringBuilder();
        while (big.length() < 2 * 1024 * 1024) {
            big.append("weft-");
        }
        JsonNode large = Json.mapper().createObjectNode().put("text", big.toString());
        Step step = step(run.id(), 1, StepStatus.PENDING);
        store.insertStep(step);
        Step done = step.finished(StepStatus.COMPLETED, large, Optional.empty(), T0, Map.of());
        store.updateStep(done, Set.of(StepStatus.PENDING));
        store.saveCheckpoint(new Checkpoint(
                run.id(), 1, 1, T0, Map.of("big", large), Map.of(), List.of(), List.of(), Map.of("big", large), "big"));

        assertThat(store.steps(run.id()).get(0).output()).isEqualTo(large);
        assertThat(store.latestCheckpoint(run.id()).orElseThrow().outputs().get("big"))
                .isEqualTo(large);
    }
}
