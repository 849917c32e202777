package dev.weft.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MCP calls the server does not answer in time: a real MCP server process on the official SDK whose
 * tools start (a line in its log) and then take longer than the connection waits. A tool that is neither
 * read-only nor idempotent may have done its work, so its call is {@code E_OUTCOME_UNKNOWN} and is not
 * made again (a destructive step waits for a person); a read-only or idempotent one is a plain {@code
 * E_TOOL_TIMEOUT}. Before, every one of them was {@code E_TOOL_TIMEOUT}, which a caller may retry.
 */
final class McpCallTimeoutIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    private Path log;
    private RunStore store;
    private McpTools tools;

    @BeforeEach
    void open() throws IOException {
        log = dir.resolve("effects.log");
        Files.createFile(log);
        store = Stores.open("sqlite:" + dir.resolve("weft.db"));
        McpRegistry registry = McpRegistry.open(store);
        registry.add(
                new McpServerConfig("effects", new McpServerConfig.Transport.Stdio(EffectsServer.command(log))),
                Instant.now());
        tools = McpTools.of(registry).timeout(TIMEOUT);
    }

    @AfterEach
    void close() {
        tools.close();
        store.close();
    }

    private List<String> effects() throws IOException {
        return Files.readAllLines(log);
    }

    /** Calls {@code toolName} with a call that outlasts the connection's timeout by far. */
    private void callTooSlowly(String toolName, int amount) {
        Tool tool = tools.tool("effects", toolName);
        ObjectNode args = Json.object().put("amount", amount).put("slowMs", 30_000);
        tool.invoke(args, ToolContext.detached("run-1", "A"));
    }

    private static ErrorCode code(Throwable e) {
        return ((WeftException) e).code();
    }

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

    @Test
    void aDestructiveStepNotAnsweredInTimeWaitsForAPersonAndIsNotCalledAgainUnlessApproved() throws IOException {
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(McpTools.resolver()))
                .tools(tools.registry())
                .build();
        Runner runner = Runner.builder().store(store).build();
        RunResult waiting = executor.run(
                runner, PlanParser.parse("""
                        {"intentType": "operation", "confidence": 1, "plan": [
                          {"id": "A", "capability": "mcp", "action": "effects.refund",
                           "constraints": {"amount": 7, "slowMs": 30000}, "changes": {}, "dependsOn": []}
                        ]}"""), PlanRequest.auto(Json.object()).forUser("dana"));
        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);

        RunResult timedOut = executor.resume(runner, waiting.runId(), PlanDecision.approve("A"));

        assertThat(timedOut.status()).isEqualTo(RunStatus.WAITING);
        assertThat(timedOut.interrupts().get("step:A").path("code").asText()).isEqualTo("E_OUTCOME_UNKNOWN");
        assertThat(effects()).containsExactly("refund 7");

        RunResult gaveUp = executor.resume(runner, waiting.runId(), PlanDecision.reject("A"));

        assertThat(gaveUp.status()).isNotEqualTo(RunStatus.WAITING);
        assertThat(effects()).containsExactly("refund 7");
    }
}
