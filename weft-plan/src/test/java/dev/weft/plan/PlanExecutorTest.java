package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static dev.weft.plan.Fixtures.object;
import static dev.weft.plan.Fixtures.passThrough;
import static dev.weft.plan.Fixtures.plan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.NodeResult;
import dev.weft.core.RetryPolicy;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStateException;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TransientException;
import dev.weft.core.WeftException;
import dev.weft.plan.Fixtures.Calls;
import dev.weft.plan.Fixtures.Created;
import dev.weft.plan.Fixtures.Deleted;
import dev.weft.plan.Fixtures.FakeTime;
import dev.weft.plan.Fixtures.Id;
import dev.weft.plan.Fixtures.Title;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

final class PlanExecutorTest {
    private final Calls calls = new Calls();
    private final FakeTime time = new FakeTime();
    private final Runner runner = Runner.builder().time(time).build();

    private final Tool createTask = Tool.typed(
                    "task.create", "Creates a task", Title.class, Created.class, (in, ctx) -> {
                        calls.add("task.create:" + in.title());
                        return new Created("t-" + in.title(), in.title());
                    })
            .undo((args, result) ->
                    Optional.of(new UndoAction("task.delete", object("{\"id\": " + result.get("id") + "}"))))
            .build();
    private final Tool deleteTask = Tool.typed("task.delete", "Deletes a task", Id.class, Deleted.class, (in, ctx) -> {
                calls.add("task.delete:" + in.id());
                return new Deleted(in.id(), true);
            })
            .idempotent(true)
            .build();
    private final Tool fetchEmails = Tool.json(
                    "email.fetch",
                    "Fetches recent emails",
                    object("{\"type\": \"object\"}"),
                    object("{\"type\": \"object\", \"required\": [\"emails\"]}"),
                    (args, ctx) -> {
                        calls.add("email.fetch");
                        return json("{\"emails\": [{\"id\": \"e1\", \"subject\": \"Invoice\"},"
                                + " {\"id\": \"e2\", \"subject\": \"Lunch\"}]}");
                    })
            .build();
    private final Tool sendEmail = Tool.typed("email.send", "Sends an email", Title.class, Id.class, (in, ctx) -> {
                calls.add("email.send:" + in.title());
                return new Id("m-1");
            })
            .risk(Risk.HIGH)
            .build();

    private PlanExecutor.Builder executor() {
        return PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(
                        passThrough("database", "task.create"), passThrough("email", "email.fetch")))
                .tools(ToolRegistry.of(createTask, deleteTask, fetchEmails, sendEmail))
                .retry(RetryPolicy.attempts(3)
                        .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1), 2)
                        .withJitter(0));
    }

    private static PlanSummary summary(RunResult result) {
        return PlanExecutor.summary(result).orElseThrow(() -> new AssertionError("no summary: " + result.run()));
    }

    private static String step(String id, String capability, String constraints, String... deps) {
        return "{\"id\": \"" + id + "\", \"capability\": \"" + capability + "\", \"action\": \"create\","
                + " \"constraints\": " + constraints + ", \"dependsOn\": " + Json.write(List.of(deps)) + "}";
    }

    private static Plan planOf(String... steps) {
        return plan("{\"intentType\": \"test\", \"confidence\": 1, \"plan\": [" + String.join(",", steps) + "]}");
    }

    /** Runs the steps as a plan, in AUTO mode, with the default test executor. */
    private RunResult runAuto(String... steps) {
        return executor().build().run(runner, planOf(steps), PlanRequest.auto(json("null")));
    }

    private List<String> eventTypes(RunResult result) {
        return runner.store().events(result.runId()).stream().map(Event::type).toList();
    }

    // --- seed 000's four use cases

    @Test
    void runsASingleStep() {
        RunResult result = executor()
                .build()
                .run(
                        runner,
                        planOf(step("A", "database", "{\"title\": \"Buy milk\"}")),
                        PlanRequest.auto(json("\"buy milk\"")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        PlanSummary summary = summary(result);
        assertThat(summary.totalSteps()).isEqualTo(1);
        assertThat(summary.successfulSteps()).isEqualTo(1);
        assertThat(summary.partialFailure()).isFalse();
        assertThat(summary.results().get("A")).isEqualTo(json("{\"id\": \"t-Buy milk\", \"title\": \"Buy milk\"}"));
        assertThat(calls.snapshot()).containsExactly("task.create:Buy milk");
    }

    @Test
    void runsIndependentStepsAtTheSameTime() {
        CountDownLatch both = new CountDownLatch(2);
        Tool meet = Tool.typed("meet", "waits for the other", Title.class, Title.class, (in, ctx) -> {
                    both.countDown();
                    try {
                        if (!both.await(10, TimeUnit.SECONDS)) {
                            throw new IllegalStateException("the other step never started");
                        }
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    return in;
                })
                .build();
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(passThrough("x", "meet")))
                .tools(ToolRegistry.of(meet))
                .build();

        RunResult result = executor.run(
                runner,
                planOf(step("A", "x", "{\"title\": \"a\"}"), step("B", "x", "{\"title\": \"b\"}")),
                PlanRequest.auto(json("null")));

        assertThat(summary(result).successfulSteps()).isEqualTo(2);
    }

    @Test
    void resolvesADependentStepAfterItsDependencyExecutedAndShowsItTheResults() {
        AtomicInteger resolvedWith = new AtomicInteger(-1);
        Resolver tasks = Fixtures.resolver("database", (step, context) -> {
            resolvedWith.set(context.dependencyResults().get("A").path("emails").size());
            return Resolution.execute("task.create", object("{\"title\": \"Reply to $A.emails[0].subject\"}"));
        });
        PlanExecutor executor = executor()
                .resolvers(ResolverRegistry.of(tasks, passThrough("email", "email.fetch")))
                .build();

        RunResult result = executor.run(
                runner,
                planOf(step("A", "email", "{}"), step("B", "database", "{}", "A")),
                PlanRequest.auto(json("null")));

        assertThat(resolvedWith).hasValue(2);
        assertThat(calls.snapshot()).containsExactly("email.fetch", "task.create:Reply to Invoice");
        assertThat(summary(result).results().get("B").get("title").asText()).isEqualTo("Reply to Invoice");
    }

    @Test
    void startsAStepAsSoonAsItsOwnDependenciesFinishNotItsWholeGroup() {
        // A and B start together; C needs only A. B may finish only after C has run: with seed 000's
        // group barrier C would wait for B, and B would time out.
        CountDownLatch cRan = new CountDownLatch(1);
        Tool slowB = Tool.typed("slow", "waits for C", Title.class, Title.class, (in, ctx) -> {
                    try {
                        if (!cRan.await(10, TimeUnit.SECONDS)) {
                            throw new IllegalStateException("C did not start before B finished");
                        }
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    calls.add("slow:" + in.title());
                    return in;
                })
                .build();
        Tool markC = Tool.typed("mark", "marks C", Title.class, Title.class, (in, ctx) -> {
                    calls.add("mark:" + in.title());
                    cRan.countDown();
                    return in;
                })
                .build();
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(
                        passThrough("database", "task.create"),
                        passThrough("slow", "slow"),
                        passThrough("mark", "mark")))
                .tools(ToolRegistry.of(createTask, slowB, markC))
                .build();
        Plan mixed = planOf(
                step("A", "database", "{\"title\": \"a\"}"),
                step("B", "slow", "{\"title\": \"b\"}"),
                step("C", "mark", "{\"title\": \"$A.title then c\"}", "A"),
                step("D", "database", "{\"title\": \"$B.title and $C.title\"}", "B", "C"));

        RunResult result = executor.run(runner, mixed, PlanRequest.auto(json("null")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        List<String> log = calls.snapshot();
        assertThat(log.indexOf("mark:a then c")).isLessThan(log.indexOf("slow:b"));
        assertThat(log.get(log.size() - 1)).isEqualTo("task.create:b and a then c");
        assertThat(summary(result).successfulSteps()).isEqualTo(4);
    }

    // --- the step pipeline

    @Test
    void expandsAnArrayPlaceholderIntoChildSteps() {
        RunResult result = runAuto(
                step("A", "email", "{}"),
                step("B", "database", "{\"title\": \"Follow up: $A.emails[*].subject\"}", "A"));

        assertThat(calls.snapshot()).contains("task.create:Follow up: Invoice", "task.create:Follow up: Lunch");
        StepOutcome b = PlanExecutor.outcomes(result).get("B");
        assertThat(b.children()).extracting(StepOutcome::stepId).containsExactly("B-0", "B-1");
        assertThat(b.result()).hasSize(2);
        assertThat(summary(result).totalSteps()).isEqualTo(3);
    }

    @Test
    void fansOutImplicitlyOverTheChildrenOfAnExpandedStep() {
        RunResult result = runAuto(
                step("A", "email", "{}"),
                step("B", "database", "{\"title\": \"$A.emails[*].subject\"}", "A"),
                step("C", "database", "{\"title\": \"done: $B.title\"}", "B"));

        StepOutcome c = PlanExecutor.outcomes(result).get("C");
        assertThat(c.children()).extracting(StepOutcome::stepId).containsExactly("C-0", "C-1");
        assertThat(calls.snapshot()).contains("task.create:done: Invoice", "task.create:done: Lunch");
    }

    @Test
    void mergesTheUsersAnswersOverTheResolvedArguments() {
        ObjectNode answers = object("{\"A\": {\"title\": \"Call mom\"}}");
        RunResult result = executor()
                .build()
                .run(
                        runner,
                        planOf(step("A", "database", "{\"title\": \"call\"}")),
                        new PlanRequest(PlanMode.AUTO, json("null"), java.util.Set.of(), answers));

        assertThat(calls.snapshot()).containsExactly("task.create:Call mom");
        assertThat(summary(result).successfulSteps()).isEqualTo(1);
    }

    @Test
    void aPlaceholderIntoAStepItDoesNotDependOnIsRejectedBeforeTheRun() {
        assertThatThrownBy(() -> runAuto(
                        step("A", "database", "{\"title\": \"a\"}"),
                        step("B", "database", "{\"title\": \"$A.title\"}")))
                .isInstanceOf(PlanInvalidException.class)
                .hasMessage("step 'B': placeholder $A.title reads step 'A', which it does not depend on (add 'A' to"
                        + " its dependsOn)");
        assertThat(calls.snapshot()).isEmpty();
    }

    @Test
    void aResolvedPlaceholderIntoAStepItDoesNotDependOnIsUnresolved() {
        PlanExecutor executor = executor()
                .resolvers(ResolverRegistry.of(Fixtures.resolver(
                        "database",
                        (s, context) -> Resolution.execute(
                                "task.create",
                                object(s.id().equals("B") ? "{\"title\": \"$A.title\"}" : "{\"title\": \"a\"}")))))
                .build();
        RunResult result = executor.run(
                runner,
                planOf(step("A", "database", "{}"), step("B", "database", "{}")),
                PlanRequest.auto(json("null")));

        StepOutcome b = PlanExecutor.outcomes(result).get("B");
        assertThat(b.status()).isEqualTo(StepOutcome.Status.FAILED);
        assertThat(b.error().orElseThrow().code()).isEqualTo(ErrorCode.E_ARGS_UNRESOLVED);
        assertThat(b.error().orElseThrow().message())
                .isEqualTo("step 'B': $A.title refers to step 'A', which it does not depend on");
        assertThat(summary(result).partialFailure()).isTrue();
    }

    @Test
    void placeholdersIntoMissingStepsOrPathsAreUnresolved() {
        RunResult result = runAuto(
                step("A", "email", "{}"),
                step("B", "database", "{\"title\": \"$A.emails[5].subject\"}", "A"),
                step("C", "database", "{\"title\": \"$Z.title\"}", "A"),
                step("D", "database", "{\"title\": \"fine\"}", "A"));

        Map<String, StepOutcome> outcomes = PlanExecutor.outcomes(result);
        assertThat(outcomes.get("B").error().orElseThrow().message())
                .isEqualTo("step 'B': $A.emails[5].subject: the result of step 'A' has no '.emails[5].subject'");
        assertThat(outcomes.get("C").status())
                .as("$Z names no step: it is text")
                .isEqualTo(StepOutcome.Status.SUCCEEDED);
        assertThat(outcomes.get("C").result().get("title").asText()).isEqualTo("$Z.title");
        assertThat(outcomes.get("D").status()).isEqualTo(StepOutcome.Status.SUCCEEDED);
    }

    @Test
    void invalidArgumentsFailWithTheJsonPointerOfTheBadField() {
        RunResult result = runAuto(
                step("A", "database", "{\"title\": 5}"),
                step("B", "database", "{}"),
                step("C", "database", "{\"title\": \"ok\", \"colour\": \"red\"}"),
                step("D", "database", "{\"title\": \"good\"}"));

        Map<String, StepOutcome> outcomes = PlanExecutor.outcomes(result);
        assertThat(outcomes.get("A").error().orElseThrow().code()).isEqualTo(ErrorCode.E_ARGS_INVALID);
        assertThat(outcomes.get("A").error().orElseThrow().message()).contains("invalid at /title: ");
        assertThat(outcomes.get("B").error().orElseThrow().message()).contains("invalid at /title: ");
        assertThat(outcomes.get("C").error().orElseThrow().message()).contains("invalid at /colour: ");
        assertThat(outcomes.get("D").status()).isEqualTo(StepOutcome.Status.SUCCEEDED);
        assertThat(calls.snapshot()).containsExactly("task.create:good");
    }

    @Test
    void emitsSeed001EventsAroundEachCall() {
        RunResult result = runAuto(step("A", "database", "{\"title\": \"Buy | milk\"}"));

        List<Event> events = runner.store().events(result.runId());
        List<String> types = events.stream().map(Event::type).toList();
        assertThat(types)
                .containsSubsequence(
                        PlanEvents.PLAN_GROUPS,
                        PlanEvents.ASSISTANT_DELTA,
                        PlanEvents.TOOL_CALLED,
                        PlanEvents.TOOL_SUCCEEDED,
                        PlanEvents.UNDO_ENQUEUED,
                        PlanEvents.STEP_EXECUTED);
        Event delta = events.stream()
                .filter(e -> e.type().equals(PlanEvents.ASSISTANT_DELTA))
                .findFirst()
                .orElseThrow();
        assertThat(delta.data().get("text").asText())
                .contains("| Parameter | Value |")
                .contains("| title | Buy \\| milk |");
        Event succeeded = events.stream()
                .filter(e -> e.type().equals(PlanEvents.TOOL_SUCCEEDED))
                .findFirst()
                .orElseThrow();
        assertThat(succeeded.data().has("ms")).isTrue();
        assertThat(succeeded.data().get("stepId").asText()).isEqualTo("A");
    }

    @Test
    void everyCallCarriesTheIdempotencyKeyOfItsRunAndStep() {
        List<String> keys = new java.util.concurrent.CopyOnWriteArrayList<>();
        Tool keyed = Tool.typed("keyed", "records its key", Title.class, Title.class, (in, ctx) -> {
                    keys.add(ctx.idempotencyKey());
                    return in;
                })
                .build();
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(passThrough("k", "keyed")))
                .tools(ToolRegistry.of(keyed))
                .build();

        RunResult result = executor.run(
                runner, planOf(step("step-01", "k", "{\"title\": \"x\"}")), PlanRequest.auto(json("null")));

        assertThat(keys).containsExactly(result.runId() + "/step-01");
    }

    // --- approvals, questions, undo

    @Test
    void aHighRiskToolPausesTheRunUntilItsStepIsApproved() {
        PlanExecutor executor = executor()
                .resolvers(
                        ResolverRegistry.of(passThrough("email", "email.send"), passThrough("database", "task.create")))
                .build();
        Plan plan = planOf(
                step("A", "email", "{\"title\": \"Hi Dana\"}"), step("B", "database", "{\"title\": \"log\"}", "A"));

        RunResult waiting = executor.run(runner, plan, PlanRequest.auto(json("null")));

        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        assertThat(calls.snapshot()).isEmpty();
        Event awaiting = runner.store().events(waiting.runId()).stream()
                .filter(e -> e.type().equals(PlanEvents.APPROVAL_AWAITING))
                .findFirst()
                .orElseThrow();
        assertThat(awaiting.data().get("steps").get(0))
                .isEqualTo(json("{\"stepId\": \"A\", \"tool\": \"email.send\", \"args\": {\"title\": \"Hi Dana\"}}"));

        RunResult done = executor.resume(runner, waiting.runId(), PlanDecision.approve("A"));

        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(calls.snapshot()).containsExactly("email.send:Hi Dana", "task.create:log");
    }

    @Test
    void aRejectedStepIsSkippedAndSoAreItsDependents() {
        PlanExecutor executor = executor()
                .resolvers(
                        ResolverRegistry.of(passThrough("email", "email.send"), passThrough("database", "task.create")))
                .build();
        Plan plan = planOf(
                step("A", "email", "{\"title\": \"Hi\"}"),
                step("B", "database", "{\"title\": \"after\"}", "A"),
                step("C", "database", "{\"title\": \"unrelated\"}"));

        RunResult waiting = executor.run(runner, plan, PlanRequest.auto(json("null")));
        RunResult done = executor.resume(runner, waiting.runId(), PlanDecision.reject("A"));

        Map<String, StepOutcome> outcomes = PlanExecutor.outcomes(done);
        assertThat(outcomes.get("A").status()).isEqualTo(StepOutcome.Status.SKIPPED);
        assertThat(outcomes.get("A").reason()).contains("rejected");
        assertThat(outcomes.get("B").status()).isEqualTo(StepOutcome.Status.SKIPPED);
        assertThat(outcomes.get("C").status()).isEqualTo(StepOutcome.Status.SUCCEEDED);
        assertThat(calls.snapshot()).containsExactly("task.create:unrelated");
        assertThat(summary(done).skippedSteps()).isEqualTo(2);
    }

    @Test
    void aStepApprovedInAdvanceDoesNotWait() {
        PlanExecutor executor = executor()
                .resolvers(ResolverRegistry.of(passThrough("email", "email.send")))
                .build();

        RunResult result = executor.run(
                runner,
                planOf(step("A", "email", "{\"title\": \"Hi\"}")),
                PlanRequest.auto(json("null")).approving("A"));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(calls.snapshot()).containsExactly("email.send:Hi");
    }

    @Test
    void aClarifyingQuestionPausesTheStepAndTheAnswerResolvesItAgain() {
        Resolver reminders = Fixtures.resolver(
                "database",
                (step, context) -> context.answers().has("title")
                        ? Resolution.execute("task.create", context.answers().deepCopy())
                        : Resolution.clarify("What should the reminder say?", "Call mom", "Pay rent"));
        PlanExecutor executor =
                executor().resolvers(ResolverRegistry.of(reminders)).build();

        RunResult waiting = executor.run(runner, planOf(step("A", "database", "{}")), PlanRequest.auto(json("null")));

        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        JsonNode question = waiting.interrupts().get("step:A");
        assertThat(question.get("question").asText()).isEqualTo("What should the reminder say?");
        assertThat(question.get("options")).hasSize(2);
        assertThat(eventTypes(waiting)).contains(PlanEvents.CLARIFY_AWAITING);

        RunResult done =
                executor.resume(runner, waiting.runId(), PlanDecision.answer("A", object("{\"title\": \"Pay rent\"}")));

        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(calls.snapshot()).containsExactly("task.create:Pay rent");
    }

    @Test
    void undoRunsTheQueuedUndoActionsNewestFirstAndOnlyOnce() {
        PlanExecutor executor = executor().build();
        RunResult result = executor.run(
                runner,
                planOf(
                        step("A", "database", "{\"title\": \"first\"}"),
                        step("B", "database", "{\"title\": \"second\"}", "A")),
                PlanRequest.auto(json("null")));

        PlanExecutor.UndoReport undone = executor.undo(runner, result.runId());

        assertThat(undone.calls()).extracting(PlanExecutor.UndoCall::stepId).containsExactly("B", "A");
        assertThat(undone.calls()).allMatch(PlanExecutor.UndoCall::succeeded);
        assertThat(undone.undoRunId()).contains(PlanExecutor.undoRunId(result.runId(), 1));
        assertThat(calls.snapshot()).endsWith("task.delete:t-second", "task.delete:t-first");
        assertThatThrownBy(() -> executor.undo(runner, result.runId()))
                .isInstanceOf(RunStateException.class)
                .hasMessageContaining("already undone");
    }

    // --- failures

    @Test
    void aPartialFailureKeepsTheSuccessfulHalf() {
        Tool broken = Tool.typed("broken", "always fails", Title.class, Title.class, (in, ctx) -> {
                    throw new IllegalStateException("calendar is down");
                })
                .build();
        PlanExecutor executor = executor()
                .resolvers(
                        ResolverRegistry.of(passThrough("calendar", "broken"), passThrough("database", "task.create")))
                .tools(ToolRegistry.of(createTask, broken))
                .build();

        RunResult result = executor.run(
                runner,
                planOf(
                        step("A", "calendar", "{\"title\": \"x\"}"),
                        step("B", "database", "{\"title\": \"kept\"}"),
                        step("C", "database", "{\"title\": \"$A.title\"}", "A")),
                PlanRequest.auto(json("null")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        PlanSummary summary = summary(result);
        assertThat(summary.partialFailure()).isTrue();
        assertThat(summary.successfulSteps()).isEqualTo(1);
        assertThat(summary.failedSteps()).isEqualTo(1);
        assertThat(summary.skippedSteps()).isEqualTo(1);
        assertThat(summary.errors())
                .containsExactly(new PlanSummary.StepError(
                        "A",
                        "E_TOOL_FAILED",
                        "step 'A': tool 'broken' failed: IllegalStateException: calendar is down"));
        assertThat(summary.results()).containsKey("B");
    }

    @Test
    void whenEveryStepFailsTheRunFailsWithEveryError() {
        PlanExecutor executor = executor().resolvers(ResolverRegistry.of()).build();

        RunResult result = executor.run(
                runner, planOf(step("A", "weather", "{}"), step("B", "news", "{}")), PlanRequest.auto(json("null")));

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_NO_RESOLVER);
        assertThat(result.error().orElseThrow().message())
                .contains("A: E_NO_RESOLVER: step 'A': no resolver for capability 'weather' (action 'create')")
                .contains("B: E_NO_RESOLVER");
    }

    @Test
    void aStepWithoutAResolverFailsAloneAndTheRestRuns() {
        RunResult result = runAuto(step("A", "weather", "{}"), step("B", "database", "{\"title\": \"b\"}"));

        assertThat(PlanExecutor.outcomes(result).get("A").error().orElseThrow().code())
                .isEqualTo(ErrorCode.E_NO_RESOLVER);
        assertThat(PlanExecutor.outcomes(result).get("B").status()).isEqualTo(StepOutcome.Status.SUCCEEDED);
    }

    @Test
    void fallsBackToAnyResolverOfTheCapability() {
        RunResult result = executor()
                .build()
                .run(
                        runner,
                        plan("{\"plan\": [{\"id\": \"A\", \"capability\": \"database\", \"action\": \"archive\","
                                + " \"constraints\": {\"title\": \"x\"}}]}"),
                        PlanRequest.auto(json("null")));

        assertThat(summary(result).successfulSteps()).isEqualTo(1);
    }

    @Test
    void aResolverThatNamesAnUnknownToolFailsTheStep() {
        RunResult result = executor()
                .resolvers(ResolverRegistry.of(
                        passThrough("database", "task.teleport"), passThrough("email", "email.fetch")))
                .build()
                .run(
                        runner,
                        planOf(step("A", "database", "{}"), step("B", "email", "{}")),
                        PlanRequest.auto(json("null")));

        assertThat(PlanExecutor.outcomes(result).get("A").error().orElseThrow().message())
                .isEqualTo("step 'A': no tool named 'task.teleport'");
    }

    @Test
    void retriesATransientToolFailureWithBackoff() {
        AtomicInteger attempts = new AtomicInteger();
        Tool flaky = Tool.typed("flaky", "fails twice", Title.class, Title.class, (in, ctx) -> {
                    if (attempts.incrementAndGet() < 3) {
                        throw new TransientException(ErrorCode.E_TOOL_FAILED, "503 from the calendar");
                    }
                    return in;
                })
                .build();
        PlanExecutor executor = executor()
                .resolvers(ResolverRegistry.of(passThrough("x", "flaky")))
                .tools(ToolRegistry.of(flaky))
                .build();

        RunResult result =
                executor.run(runner, planOf(step("A", "x", "{\"title\": \"t\"}")), PlanRequest.auto(json("null")));

        assertThat(summary(result).successfulSteps()).isEqualTo(1);
        assertThat(PlanExecutor.outcomes(result).get("A").attempts()).isEqualTo(3);
        assertThat(time.sleeps).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
        assertThat(eventTypes(result).stream().filter(PlanEvents.TOOL_RETRYING::equals))
                .hasSize(2);
    }

    @Test
    void aToolThatOverrunsItsTimeoutFailsWithToolTimeout() {
        CountDownLatch never = new CountDownLatch(1);
        Tool hanging = Tool.typed("hang", "never answers", Title.class, Title.class, (in, ctx) -> {
                    try {
                        never.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return in;
                })
                .timeout(Duration.ofMillis(50))
                .build();
        PlanExecutor executor = executor()
                .resolvers(ResolverRegistry.of(passThrough("x", "hang"), passThrough("database", "task.create")))
                .tools(ToolRegistry.of(hanging, createTask))
                .retry(RetryPolicy.attempts(2).withJitter(0))
                .build();
        try {
            RunResult result = executor.run(
                    runner,
                    planOf(step("A", "x", "{\"title\": \"t\"}"), step("B", "database", "{\"title\": \"b\"}")),
                    PlanRequest.auto(json("null")));

            StepOutcome a = PlanExecutor.outcomes(result).get("A");
            assertThat(a.error().orElseThrow().code()).isEqualTo(ErrorCode.E_TOOL_TIMEOUT);
            assertThat(a.error().orElseThrow().message())
                    .isEqualTo("step 'A': tool 'hang' did not answer within 50 ms");
            assertThat(a.attempts()).isEqualTo(2);
            assertThat(PlanExecutor.outcomes(result).get("B").status()).isEqualTo(StepOutcome.Status.SUCCEEDED);
        } finally {
            never.countDown();
        }
    }

    @Test
    void aToolWhoseOutputBreaksItsOwnSchemaFails() {
        Tool liar = Tool.json(
                        "liar",
                        "returns the wrong shape",
                        object("{\"type\": \"object\"}"),
                        object(
                                "{\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"string\"}}, \"required\": [\"id\"]}"),
                        (args, ctx) -> json("{\"id\": 42}"))
                .build();
        PlanExecutor executor = executor()
                .resolvers(ResolverRegistry.of(passThrough("x", "liar"), passThrough("database", "task.create")))
                .tools(ToolRegistry.of(liar, createTask))
                .build();

        RunResult result = executor.run(
                runner,
                planOf(step("A", "x", "{}"), step("B", "database", "{\"title\": \"b\"}")),
                PlanRequest.auto(json("null")));

        StepOutcome a = PlanExecutor.outcomes(result).get("A");
        assertThat(a.error().orElseThrow().code()).isEqualTo(ErrorCode.E_TOOL_FAILED);
        assertThat(a.error().orElseThrow().message()).contains("returned output that breaks its own schema at /id");
        assertThat(summary(result).results()).containsKey("B");
    }

    @Test
    void aToolThatThrowsACodedErrorKeepsItsCodeAndIsNotRetried() {
        AtomicInteger attempts = new AtomicInteger();
        Tool forbidden = Tool.typed("forbidden", "refuses", Title.class, Title.class, (in, ctx) -> {
                    attempts.incrementAndGet();
                    throw new WeftException(ErrorCode.E_FORBIDDEN, "not your calendar");
                })
                .build();
        PlanExecutor executor = executor()
                .resolvers(ResolverRegistry.of(passThrough("x", "forbidden"), passThrough("database", "task.create")))
                .tools(ToolRegistry.of(forbidden, createTask))
                .build();

        RunResult result = executor.run(
                runner,
                planOf(step("A", "x", "{\"title\": \"t\"}"), step("B", "database", "{\"title\": \"b\"}")),
                PlanRequest.auto(json("null")));

        assertThat(PlanExecutor.outcomes(result).get("A").error().orElseThrow())
                .isEqualTo(new dev.weft.core.RunError(ErrorCode.E_FORBIDDEN, "step 'A': not your calendar"));
        assertThat(attempts).hasValue(1);
    }

    // --- cycles, modes, limits, composition

    @Test
    void breaksADependencyCycleAndReportsItsPath() {
        RunResult result = runAuto(
                step("A", "database", "{\"title\": \"a\"}", "B"), step("B", "database", "{\"title\": \"b\"}", "A"));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(calls.snapshot()).containsExactly("task.create:a", "task.create:b");
        Event broken = runner.store().events(result.runId()).stream()
                .filter(e -> e.type().equals(PlanEvents.PLAN_CYCLE_BROKEN))
                .findFirst()
                .orElseThrow();
        assertThat(broken.data()).isEqualTo(json("{\"path\": [\"A\", \"B\", \"A\"], \"runsFirst\": \"A\"}"));
    }

    @Test
    void rejectsADependencyCycleWhenConfiguredTo() {
        PlanExecutor executor = executor().rejectCycles(true).build();
        Plan cyclic = planOf(step("A", "database", "{}", "B"), step("B", "database", "{}", "A"));

        assertThatThrownBy(() -> executor.run(runner, cyclic, PlanRequest.auto(json("null"))))
                .isInstanceOf(PlanInvalidException.class)
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_PLAN_CYCLE);
        assertThat(runner.store().listRuns(Optional.empty())).isEmpty();
    }

    @Test
    void previewResolvesEveryStepAndRunsNoTool() {
        RunResult result = executor()
                .build()
                .run(
                        runner,
                        planOf(
                                step("A", "email", "{}"),
                                step("B", "database", "{\"title\": \"$A.emails[0].subject\"}", "A")),
                        PlanRequest.of(PlanMode.PREVIEW));

        assertThat(calls.snapshot()).isEmpty();
        Map<String, StepOutcome> outcomes = PlanExecutor.outcomes(result);
        assertThat(outcomes.get("B").status()).isEqualTo(StepOutcome.Status.PREVIEWED);
        assertThat(outcomes.get("B").tool()).isEqualTo("task.create");
        assertThat(outcomes.get("B").args()).isEqualTo(json("{\"title\": \"$A.emails[0].subject\"}"));
    }

    @Test
    void approvalModeWaitsForThePlanToBeApproved() {
        PlanExecutor executor = executor().build();
        Plan plan = planOf(step("A", "database", "{\"title\": \"a\"}"));

        RunResult waiting = executor.run(runner, plan, PlanRequest.of(PlanMode.APPROVAL));
        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        assertThat(waiting.interrupts().get("plan").get("type").asText()).isEqualTo("plan_approval");
        assertThat(calls.snapshot()).isEmpty();
        RunResult done = executor.resume(runner, waiting.runId(), PlanDecision.approvePlan(true));
        assertThat(calls.snapshot()).containsExactly("task.create:a");
        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);

        RunResult rejected = executor.resume(
                runner,
                executor.run(runner, plan, PlanRequest.of(PlanMode.APPROVAL)).runId(),
                PlanDecision.approvePlan(false));
        assertThat(PlanExecutor.outcomes(rejected).get("A").status()).isEqualTo(StepOutcome.Status.SKIPPED);
        assertThat(calls.snapshot()).containsExactly("task.create:a");
    }

    @Test
    void capsConcurrentStepsPerRun() {
        AtomicInteger current = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        Tool counted = Tool.typed("counted", "tracks concurrency", Title.class, Title.class, (in, ctx) -> {
                    peak.accumulateAndGet(current.incrementAndGet(), Math::max);
                    try {
                        Thread.sleep(20);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    current.decrementAndGet();
                    return in;
                })
                .build();
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(passThrough("x", "counted")))
                .tools(ToolRegistry.of(counted))
                .maxConcurrentSteps(1)
                .build();

        RunResult result = executor.run(
                runner,
                planOf(
                        step("A", "x", "{\"title\": \"a\"}"),
                        step("B", "x", "{\"title\": \"b\"}"),
                        step("C", "x", "{\"title\": \"c\"}")),
                PlanRequest.auto(json("null")));

        assertThat(summary(result).successfulSteps()).isEqualTo(3);
        assertThat(peak).hasValue(1);
    }

    @Test
    void theCapIsPerRunEvenWhenRunsShareTheSamePlansGraph() throws Exception {
        // Each run may run one step at a time; two runs of one plan (one cached graph) must still
        // run side by side: every call waits until a call of the other run has started too.
        java.util.concurrent.CyclicBarrier bothRuns = new java.util.concurrent.CyclicBarrier(2);
        Tool meet = Tool.typed("meet", "waits for the other run", Title.class, Title.class, (in, ctx) -> {
                    try {
                        bothRuns.await(10, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException("the other run's step never started alongside", e);
                    }
                    return in;
                })
                .build();
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(passThrough("x", "meet")))
                .tools(ToolRegistry.of(meet))
                .maxConcurrentSteps(1)
                .build();
        Plan plan = planOf(step("A", "x", "{\"title\": \"a\"}"), step("B", "x", "{\"title\": \"b\"}"));

        Runner.RunHandle first = executor.start(runner, plan, PlanRequest.auto(json("null")));
        Runner.RunHandle second = executor.start(runner, plan, PlanRequest.auto(json("null")));

        assertThat(executor.graph(plan)).isSameAs(executor.graph(plan));
        assertThat(summary(first.result().get(20, TimeUnit.SECONDS)).successfulSteps())
                .isEqualTo(2);
        assertThat(summary(second.result().get(20, TimeUnit.SECONDS)).successfulSteps())
                .isEqualTo(2);
    }

    @Test
    void aPlanRunsAsANodeOfALargerGraph() {
        PlanExecutor executor = executor().build();
        Graph.Builder pipeline = Graph.builder("assistant")
                .node(
                        "planner",
                        context -> NodeResult.output(planOf(step("A", "database", "{\"title\": \"from the planner\"}"))
                                .toJson()));
        executor.addTo(pipeline, "execute")
                .node(
                        "respond",
                        context -> NodeResult.output(Json.mapper()
                                .valueToTree("done: "
                                        + context.input().get("successfulSteps").asInt() + " step(s)")))
                .edge(Graph.START, "planner")
                .edge("planner", "execute")
                .edge("execute", "respond");

        RunResult result = runner.run(pipeline.compile(), RunRequest.of(json("\"remind me\"")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.output().asText()).isEqualTo("done: 1 step(s)");
        assertThat(calls.snapshot()).containsExactly("task.create:from the planner");
    }
}
