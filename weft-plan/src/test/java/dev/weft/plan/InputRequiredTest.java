package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static dev.weft.plan.Fixtures.passThrough;
import static dev.weft.plan.Fixtures.plan;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.plan.Fixtures.FakeTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A tool that asks the user something once it has started ({@link InputRequiredException}, as {@code
 * a2a.send} does when a remote agent asks back) pauses its step with the question; the answer goes to
 * the tool's next call, and what it did before asking is not done again.
 */
final class InputRequiredTest {
    private final Runner runner = Runner.builder().time(new FakeTime()).build();
    /** What the tool did, in order. */
    private final List<String> done = new CopyOnWriteArrayList<>();

    private PlanExecutor executor(Risk risk) {
        Tool asking = Tool.json(
                        "agent.ask",
                        "Asks an agent",
                        Fixtures.object("{\"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\"},"
                                + " \"reply\": {\"type\": \"string\"}}, \"required\": [\"text\"],"
                                + " \"additionalProperties\": false}"),
                        Fixtures.object("{\"type\": \"object\"}"),
                        (args, ctx) -> {
                            ctx.once("sent", () -> {
                                done.add("sent " + args.path("text").asText());
                                return Json.object();
                            });
                            if (!args.has("reply")) {
                                throw new InputRequiredException("Which Dana: Dana Levi or Dana Cohen?");
                            }
                            done.add("answered " + args.path("reply").asText());
                            return Json.object().put("id", "t-1");
                        })
                .risk(risk)
                .build();
        return PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(passThrough("agent", "agent.ask")))
                .tools(ToolRegistry.of(asking))
                .build();
    }

    private static Plan askPlan() {
        return plan("{\"intentType\": \"test\", \"confidence\": 1, \"plan\": [{\"id\": \"A\", \"capability\":"
                + " \"agent\", \"action\": \"send\", \"constraints\": {\"text\": \"call Dana\"}, \"dependsOn\": []}]}");
    }

    private static PlanDecision answer(String reply) {
        ObjectNode answer = Json.object();
        answer.put("reply", reply);
        return PlanDecision.answer("A", answer);
    }

    @Test
    void aToolThatAsksMakesItsStepWaitWithTheQuestionAndTheAnswerGoesToItsNextCall() {
        PlanExecutor executor = executor(Risk.LOW);

        RunResult asked = executor.run(runner, askPlan(), PlanRequest.auto(json("null")));

        assertThat(asked.status()).as("%s", asked.outputs()).isEqualTo(RunStatus.WAITING);
        var question = asked.interrupts().get("step:A");
        assertThat(question.path("type").asText()).isEqualTo("clarify");
        assertThat(question.path("code").asText()).isEqualTo("E_INPUT_REQUIRED");
        assertThat(question.path("question").asText()).isEqualTo("Which Dana: Dana Levi or Dana Cohen?");
        assertThat(runner.store().events(asked.runId()))
                .anySatisfy(e -> assertThat(e.type()).isEqualTo(PlanEvents.CLARIFY_AWAITING));

        RunResult answered = executor.resume(runner, asked.runId(), answer("Dana Levi"));

        assertThat(answered.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(PlanExecutor.outcomes(answered).get("A").result().path("id").asText())
                .isEqualTo("t-1");
        assertThat(done).containsExactly("sent call Dana", "answered Dana Levi");
    }

    @Test
    void aHighRiskToolsQuestionIsAskedAfterItsApprovalAndItsAnswerNeedsNoSecond() {
        PlanExecutor executor = executor(Risk.HIGH);

        RunResult approval = executor.run(runner, askPlan(), PlanRequest.auto(json("null")));
        assertThat(approval.interrupts().get("step:A").path("type").asText()).isEqualTo("approval");
        assertThat(done).isEmpty();
        RunResult asked = executor.resume(runner, approval.runId(), PlanDecision.approve("A"));
        assertThat(asked.interrupts().get("step:A").path("code").asText()).isEqualTo("E_INPUT_REQUIRED");

        RunResult answered = executor.resume(runner, asked.runId(), answer("Dana Cohen"));

        assertThat(answered.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(done).containsExactly("sent call Dana", "answered Dana Cohen");
    }
}
