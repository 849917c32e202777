package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanDecision;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanParser;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.ResolverRegistry;
import dev.weft.plan.Risk;
import dev.weft.plan.StepOutcome;
import dev.weft.plan.ToolRegistry;
import dev.weft.store.Stores;
import dev.weft.workflow.A2aAgent;
import dev.weft.workflow.A2aSendTool;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plan step asks a remote A2A agent ({@code a2a.send}): the remote is Memo, served as an agent by a real
 * Weft server on an ephemeral port, reached over HTTP with omer's key; the plan runs in another store, as
 * another process's would.
 */
final class A2aPlanToolTest {
    @TempDir
    Path dir;

    private final Map<String, String> settings = new ConcurrentHashMap<>();
    private ServerFixture remote;
    private RunStore local;
    private Runner runner;

    @BeforeEach
    void start() {
        remote = new ServerFixture(dir.resolve("remote"));
        local = Stores.open("sqlite:" + dir.resolve("local.db"));
        runner = Runner.builder().store(local).build();
        settings.put("MEMO_A2A_TOKEN", remote.omer);
    }

    @AfterEach
    void stop() {
        local.close();
        remote.close();
    }

    private PlanExecutor executor(A2aAgent... agents) {
        return PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(A2aSendTool.resolver()))
                .tools(ToolRegistry.of(A2aSendTool.create(
                        List.of(agents), name -> Optional.ofNullable(settings.get(name)), Duration.ofSeconds(30))))
                .build();
    }

    private A2aAgent memo() {
        return A2aAgent.of("memo", remote.base.resolve("a2a/memo").toString(), "MEMO_A2A_TOKEN");
    }

    private RunResult ask(PlanExecutor executor, String constraints) {
        return executor.run(
                runner,
                PlanParser.parse("""
                        {"intentType": "operation", "confidence": 1, "plan": [
                          {"id": "A", "capability": "a2a", "action": "send",
                           "constraints": %s, "changes": {}, "dependsOn": []}]}""".formatted(constraints)),
                PlanRequest.auto(Json.object()).forUser("dana"));
    }

    private String omersReminders() {
        return remote.get("api/memo/reminders", remote.omer).body().toString();
    }

    @Test
    void aStepAsksAHighRiskAgentOnlyOnceAPersonSaysYesAndGetsItsAnswer() {
        PlanExecutor executor = executor(memo());

        RunResult waiting =
                ask(executor, "{\"agent\": \"memo\", \"text\": \"remind me tomorrow at 9 to call the bank\"}");

        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        assertThat(waiting.interrupts().get("step:A").path("type").asText()).isEqualTo("approval");
        assertThat(omersReminders()).as("nothing is sent before the yes").doesNotContain("call the bank");

        RunResult done = executor.resume(runner, waiting.runId(), PlanDecision.approve("A"), "dana");

        assertThat(done.status()).as("%s", done.outputs()).isEqualTo(RunStatus.COMPLETED);
        JsonNode answer = PlanExecutor.outcomes(done).get("A").result();
        assertThat(answer.path("agent").asText()).isEqualTo("memo");
        assertThat(answer.path("state").asText()).isEqualTo("completed");
        assertThat(answer.path("text").asText()).startsWith("I'll remind you: \"call the bank\"");
        assertThat(answer.path("taskId").asText()).isNotBlank();
        // The agent acted as its key's user, omer.
        assertThat(omersReminders()).contains("call the bank");
        assertThat(remote.get("api/memo/reminders", remote.dana).body().toString())
                .doesNotContain("call the bank");
    }

    @Test
    void aRemoteTaskThatAsksBackMakesTheStepWaitAndTheAnswerGoesOnTheSameTask() {
        PlanExecutor executor = executor(memo());
        RunResult reminded =
                ask(executor, "{\"agent\": \"memo\", \"text\": \"remind me on Friday at 10 to water the plants\"}");
        assertThat(executor.resume(runner, reminded.runId(), PlanDecision.approve("A"), "dana")
                        .status())
                .isEqualTo(RunStatus.COMPLETED);

        RunResult approval = ask(executor, "{\"agent\": \"memo\", \"text\": \"delete all my reminders\"}");
        RunResult asked = executor.resume(runner, approval.runId(), PlanDecision.approve("A"), "dana");

        assertThat(asked.status()).isEqualTo(RunStatus.WAITING);
        JsonNode question = asked.interrupts().get("step:A");
        assertThat(question.path("type").asText()).isEqualTo("clarify");
        assertThat(question.path("code").asText()).isEqualTo(ErrorCode.E_INPUT_REQUIRED.name());
        assertThat(question.path("question").asText()).startsWith("memo asks: ").contains("Shall I go ahead?");
        assertThat(omersReminders()).as("the agent waits too").contains("water the plants");

        ObjectNode yes = Json.object();
        yes.put("reply", "yes");
        RunResult answered = executor.resume(runner, asked.runId(), PlanDecision.answer("A", yes), "dana");

        // The answer was the user's say on sending it: no second approval is asked.
        assertThat(answered.status()).as("%s", answered.outputs()).isEqualTo(RunStatus.COMPLETED);
        JsonNode answer = PlanExecutor.outcomes(answered).get("A").result();
        assertThat(answer.path("state").asText()).isEqualTo("completed");
        assertThat(answer.path("text").asText()).startsWith("Deleted 1");
        assertThat(omersReminders()).doesNotContain("water the plants");
        // One task, its first message sent once: asked, asked back, answered, done.
        JsonNode task = remote.post(
                        "a2a/memo",
                        remote.omer,
                        "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tasks/get\", \"params\": {\"id\": \""
                                + answer.path("taskId").asText() + "\"}}")
                .body();
        assertThat(task.path("result").path("history")).as("%s", task).hasSize(4);
    }

    @Test
    void argumentsTheToolDoesNotTakeFailTheStepBeforeAnythingIsSent() {
        PlanExecutor executor = executor(memo().risk(Risk.LOW));

        StepOutcome unknownAgent = PlanExecutor.outcomes(
                        ask(executor, "{\"agent\": \"nobody\", \"text\": \"remind me tomorrow to call the bank\"}"))
                .get("A");
        StepOutcome noText =
                PlanExecutor.outcomes(ask(executor, "{\"agent\": \"memo\"}")).get("A");

        assertThat(unknownAgent.status()).isEqualTo(StepOutcome.Status.FAILED);
        assertThat(unknownAgent.error().orElseThrow().code()).isEqualTo(ErrorCode.E_ARGS_INVALID);
        assertThat(unknownAgent.error().orElseThrow().message()).contains("/agent");
        assertThat(noText.error().orElseThrow().code()).isEqualTo(ErrorCode.E_ARGS_INVALID);
        assertThat(noText.error().orElseThrow().message()).contains("text");
        assertThat(omersReminders()).doesNotContain("call the bank");
    }

    @Test
    void aKeyTheAgentRefusesFailsTheStepWithAgentRefused() {
        settings.put("MEMO_A2A_TOKEN", "weft_not-a-key");

        StepOutcome refused = PlanExecutor.outcomes(ask(
                        executor(memo().risk(Risk.LOW)),
                        "{\"agent\": \"memo\", \"text\": \"remind me tomorrow at 9 to call the bank\"}"))
                .get("A");

        assertThat(refused.status()).isEqualTo(StepOutcome.Status.FAILED);
        assertThat(refused.error().orElseThrow().code()).isEqualTo(ErrorCode.E_AGENT_REFUSED);
        assertThat(refused.error().orElseThrow().message()).contains("401");
        assertThat(omersReminders()).doesNotContain("call the bank");
    }

    @Test
    void anAgentNobodyAnswersAtFailsTheStepSayingWhere() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        A2aAgent gone = A2aAgent.of("gone", "http://127.0.0.1:" + closed + "/a2a/memo", "MEMO_A2A_TOKEN")
                .risk(Risk.LOW);

        StepOutcome failed = PlanExecutor.outcomes(ask(executor(gone), "{\"agent\": \"gone\", \"text\": \"hello\"}"))
                .get("A");

        assertThat(failed.status()).isEqualTo(StepOutcome.Status.FAILED);
        assertThat(failed.error().orElseThrow().code()).isEqualTo(ErrorCode.E_TOOL_FAILED);
        assertThat(failed.error().orElseThrow().message()).contains("127.0.0.1:" + closed, "cannot be read");
    }
}
