package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static dev.weft.plan.Fixtures.passThrough;
import static dev.weft.plan.Fixtures.plan;
import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.OutcomeUnknownException;
import dev.weft.core.RetryPolicy;
import dev.weft.core.RunJson;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.plan.Fixtures.FakeTime;
import dev.weft.plan.Fixtures.Id;
import dev.weft.plan.Fixtures.Title;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A call whose outcome is unknown ({@code E_OUTCOME_UNKNOWN}) is never made again on its own: a
 * high-risk step waits for a person, any other step fails. Before issue #35 the step failed with the
 * tool's code and nothing asked anyone, or a transient error was retried blind.
 */
final class OutcomeUnknownTest {
    private final Runner runner = Runner.builder().time(new FakeTime()).build();
    /** Each call, with whether a person approved making it again. */
    private final List<String> calls = new CopyOnWriteArrayList<>();

    private Tool sending(Risk risk) {
        return Tool.typed("email.send", "Sends an email", Title.class, Id.class, (in, ctx) -> {
                    calls.add(in.title() + (ctx.repeatApproved() ? " (again)" : ""));
                    if (!ctx.repeatApproved()) {
                        throw new OutcomeUnknownException("the SMTP server took the mail and never answered");
                    }
                    return new Id("m-1");
                })
                .risk(risk)
                .build();
    }

    private PlanExecutor executor(Risk risk) {
        return PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(passThrough("email", "email.send")))
                .tools(ToolRegistry.of(sending(risk)))
                .retry(RetryPolicy.attempts(3)
                        .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(1), 2)
                        .withJitter(0))
                .build();
    }

    private static Plan sendPlan() {
        return plan(
                "{\"intentType\": \"test\", \"confidence\": 1, \"plan\": [{\"id\": \"A\", \"capability\":"
                        + " \"email\", \"action\": \"create\", \"constraints\": {\"title\": \"Hi Dana\"}, \"dependsOn\": []}]}");
    }

    @Test
    void aHighRiskCallWhoseOutcomeIsUnknownWaitsForAPersonWithTheCode() {
        PlanExecutor executor = executor(Risk.HIGH);

        RunResult waiting = executor.resume(
                runner,
                executor.run(runner, sendPlan(), PlanRequest.auto(json("null"))).runId(),
                PlanDecision.approve("A"));

        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        assertThat(calls).containsExactly("Hi Dana");
        var interrupt = waiting.interrupts().get("step:A");
        assertThat(interrupt.path("code").asText()).isEqualTo("E_OUTCOME_UNKNOWN");
        assertThat(interrupt.path("question").asText()).isEqualTo("may have been sent — send again?");
        var shown = RunJson.of(runner.result(waiting.runId()));
        assertThat(shown.path("steps").findValuesAsText("code")).contains("E_OUTCOME_UNKNOWN");
        Event asked = runner.store().events(waiting.runId()).stream()
                .filter(e -> e.type().equals(PlanEvents.APPROVAL_AWAITING))
                .reduce((first, second) -> second)
                .orElseThrow();
        assertThat(asked.data().path("code").asText()).isEqualTo("E_OUTCOME_UNKNOWN");
    }

    @Test
    void approvingAnUnknownOutcomeMakesTheCallOnceMoreAsARepeat() {
        PlanExecutor executor = executor(Risk.HIGH);
        String runId =
                executor.run(runner, sendPlan(), PlanRequest.auto(json("null"))).runId();
        executor.resume(runner, runId, PlanDecision.approve("A"));

        RunResult done = executor.resume(runner, runId, PlanDecision.approve("A"));

        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(calls).containsExactly("Hi Dana", "Hi Dana (again)");
        assertThat(PlanExecutor.outcomes(done).get("A").status()).isEqualTo(StepOutcome.Status.SUCCEEDED);
    }

    @Test
    void rejectingAnUnknownOutcomeGivesUpWithoutAnotherCall() {
        PlanExecutor executor = executor(Risk.HIGH);
        String runId =
                executor.run(runner, sendPlan(), PlanRequest.auto(json("null"))).runId();
        executor.resume(runner, runId, PlanDecision.approve("A"));

        RunResult done = executor.resume(runner, runId, PlanDecision.reject("A"));

        assertThat(calls).containsExactly("Hi Dana");
        StepOutcome outcome = PlanExecutor.outcomes(done).get("A");
        assertThat(outcome.status()).isEqualTo(StepOutcome.Status.SKIPPED);
        assertThat(outcome.reason()).hasValueSatisfying(r -> assertThat(r).contains("may have taken effect"));
    }

    @Test
    void aLowRiskCallWhoseOutcomeIsUnknownFailsWithTheCodeAndIsNotRetried() {
        RunResult done = executor(Risk.LOW).run(runner, sendPlan(), PlanRequest.auto(json("null")));

        assertThat(calls).containsExactly("Hi Dana");
        StepOutcome outcome = PlanExecutor.outcomes(done).get("A");
        assertThat(outcome.status()).isEqualTo(StepOutcome.Status.FAILED);
        assertThat(outcome.error().orElseThrow().code()).isEqualTo(ErrorCode.E_OUTCOME_UNKNOWN);
    }
}
