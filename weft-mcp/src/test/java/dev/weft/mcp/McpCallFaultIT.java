package dev.weft.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanDecision;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanParser;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.ResolverRegistry;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolContext;
import dev.weft.store.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP calls cut by a server that dies mid-call and is started again (issue #35), or that the server does
 * not answer in time: a real MCP server process on the official SDK, killed while it runs a tool or
 * slower than the connection waits, and its effects counted in its log. A call of a tool that is
 * neither read-only nor idempotent may have run either way: {@code E_OUTCOME_UNKNOWN}, never made again
 * (a destructive step waits for a person); a read-only or idempotent one is sent again, or is a plain
 * {@code E_TOOL_TIMEOUT}. On
 * main before #35 the connection sent the same {@code tools/call} again to the restarted server
 * whatever the tool did, and a call in flight when a stdio server died waited out its timeout
 * ({@code E_TOOL_TIMEOUT}) instead of failing at once: the tests marked so below failed there.
 */
final class McpCallFaultIT {
    @TempDir
    Path dir;

    private Path log;
    /** Where the calls wait while the test cuts them: a thread each. */
    private final java.util.concurrent.ExecutorService calls =
            java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();

    private RunStore store;
    private McpTools tools;
    /** The same server through connections that wait two seconds for an answer. */
    private McpTools impatient;

    @BeforeEach
    void open() throws IOException {
        log = dir.resolve("effects.log");
        Files.createFile(log);
        store = Stores.open("sqlite:" + dir.resolve("weft.db"));
        McpRegistry registry = McpRegistry.open(store);
        registry.add(
                new McpServerConfig("effects", new McpServerConfig.Transport.Stdio(EffectsServer.command(log))),
                Instant.now());
        tools = McpTools.of(registry);
        impatient = McpTools.of(registry).timeout(Duration.ofSeconds(2));
    }

    @AfterEach
    void close() {
        calls.shutdownNow();
        tools.close();
        impatient.close();
        store.close();
    }

    private List<String> effects() throws IOException {
        return Files.readAllLines(log);
    }

    /** Waits until the server has started {@code line}'s call: its effect is in the log. */
    private void awaitEffect(String line) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!effects().contains(line)) {
            assertThat(System.nanoTime())
                    .as("the server never started '" + line + "'")
                    .isLessThan(deadline);
            Thread.onSpinWait();
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }

    private CompletableFuture<JsonNode> callSlowly(String toolName, int amount) {
        Tool tool = tools.tool("effects", toolName);
        ObjectNode args = Json.object().put("amount", amount).put("slowMs", 30_000);
        return CompletableFuture.supplyAsync(() -> tool.invoke(args, ToolContext.detached("run-1", "A")), calls);
    }

    /** Failed on main: no E_OUTCOME_UNKNOWN (the cut call was sent again, or timed out). */
    @Test
    void aCallOfAToolThatIsNeitherReadOnlyNorIdempotentCutMidCallIsNotSentAgain() throws Exception {
        CompletableFuture<JsonNode> call = callSlowly("charge", 5);
        awaitEffect("charge 5");

        EffectsServer.kill();

        assertThatThrownBy(() -> call.get(60, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(WeftException.class)
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_OUTCOME_UNKNOWN))
                .hasMessageContaining("may have run");
        assertThat(effects()).containsExactly("charge 5");
    }

    @Test
    void aCallOfAReadOnlyToolCutMidCallIsSentAgainToTheRestartedServer() throws Exception {
        Tool balance = tools.tool("effects", "balance");
        ObjectNode args = Json.object().put("amount", 1).put("slowMs", 1_500);
        CompletableFuture<JsonNode> call =
                CompletableFuture.supplyAsync(() -> balance.invoke(args, ToolContext.detached("run-1", "B")), calls);
        awaitEffect("balance 1");

        EffectsServer.kill();

        assertThat(call.get(60, TimeUnit.SECONDS).path("text").asText()).isEqualTo("balance 1 done");
        assertThat(effects()).containsExactly("balance 1", "balance 1");
        assertThat(tools.connection("effects").connections()).isEqualTo(2);
    }

    /** A plan of one step that refunds 7, run as far as the approval it waits for. */
    private RunResult refundAwaitingApproval(PlanExecutor executor, Runner runner) {
        RunResult waiting = executor.run(
                runner, PlanParser.parse("""
                        {"intentType": "operation", "confidence": 1, "plan": [
                          {"id": "A", "capability": "mcp", "action": "effects.refund",
                           "constraints": {"amount": 7, "slowMs": 30000}, "changes": {}, "dependsOn": []}
                        ]}"""), PlanRequest.auto(Json.object()).forUser("dana"));
        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        return waiting;
    }

    private static PlanExecutor executor(McpTools through) {
        return PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(McpTools.resolver()))
                .tools(through.registry())
                .build();
    }

    /** After the refund's step waits with E_OUTCOME_UNKNOWN: rejecting it gives up, and nothing is refunded twice. */
    private void rejectingGivesUp(PlanExecutor executor, Runner runner, RunResult cut, String runId)
            throws IOException {
        assertThat(cut.status()).isEqualTo(RunStatus.WAITING);
        assertThat(cut.interrupts().get("step:A").path("code").asText()).isEqualTo("E_OUTCOME_UNKNOWN");
        assertThat(effects()).containsExactly("refund 7");

        RunResult gaveUp = executor.resume(runner, runId, PlanDecision.reject("A"));

        assertThat(gaveUp.status()).isNotEqualTo(RunStatus.WAITING);
        assertThat(effects()).containsExactly("refund 7");
    }

    /** Failed on main: nobody was asked; the refund was sent again or the step failed on a timeout. */
    @Test
    void aHighRiskStepCutMidCallWaitsForAPersonWithTheCode() throws Exception {
        PlanExecutor executor = executor(tools);
        Runner runner = Runner.builder().store(store).build();
        RunResult waiting = refundAwaitingApproval(executor, runner);

        CompletableFuture<RunResult> approved = CompletableFuture.supplyAsync(
                () -> executor.resume(runner, waiting.runId(), PlanDecision.approve("A")), calls);
        awaitEffect("refund 7");
        EffectsServer.kill();

        rejectingGivesUp(executor, runner, approved.get(60, TimeUnit.SECONDS), waiting.runId());
    }

    /** Calls {@code toolName} through the impatient connection, with a call that outlasts its timeout by far. */
    private void callTooSlowly(String toolName, int amount) {
        Tool tool = impatient.tool("effects", toolName);
        tool.invoke(Json.object().put("amount", amount).put("slowMs", 30_000), ToolContext.detached("run-1", "A"));
    }

    private static ErrorCode code(Throwable e) {
        return ((WeftException) e).code();
    }

    /** Was E_TOOL_TIMEOUT, which invites a retry of a charge that may have been made. */
    @Test
    void aCallOfAToolThatIsNeitherReadOnlyNorIdempotentNotAnsweredInTimeIsOutcomeUnknownAndNotMadeAgain()
            throws IOException {
        assertThatThrownBy(() -> callTooSlowly("charge", 5))
                .isInstanceOf(WeftException.class)
                .satisfies(e -> assertThat(code(e)).isEqualTo(ErrorCode.E_OUTCOME_UNKNOWN))
                .hasMessageContaining("may have run", "did not answer within 2 s");
        assertThat(effects()).containsExactly("charge 5");
    }

    @Test
    void aCallOfAReadOnlyToolNotAnsweredInTimeIsAToolTimeout() throws IOException {
        assertThatThrownBy(() -> callTooSlowly("balance", 1))
                .isInstanceOf(WeftException.class)
                .satisfies(e -> assertThat(code(e)).isEqualTo(ErrorCode.E_TOOL_TIMEOUT));
        assertThat(effects()).containsExactly("balance 1");
    }

    @Test
    void aCallOfAnIdempotentToolNotAnsweredInTimeIsAToolTimeout() {
        assertThatThrownBy(() -> callTooSlowly("set-limit", 3))
                .isInstanceOf(WeftException.class)
                .satisfies(e -> assertThat(code(e)).isEqualTo(ErrorCode.E_TOOL_TIMEOUT));
    }

    /** Was a failed step on E_TOOL_TIMEOUT: nobody was asked whether the refund went. */
    @Test
    void aDestructiveStepNotAnsweredInTimeWaitsForAPersonAndIsNotCalledAgainUnlessApproved() throws IOException {
        PlanExecutor executor = executor(impatient);
        Runner runner = Runner.builder().store(store).build();
        RunResult waiting = refundAwaitingApproval(executor, runner);

        RunResult timedOut = executor.resume(runner, waiting.runId(), PlanDecision.approve("A"));

        rejectingGivesUp(executor, runner, timedOut, waiting.runId());
    }
}
