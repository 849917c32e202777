package dev.weft.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanParser;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.ResolverRegistry;
import dev.weft.plan.StepOutcome;
import dev.weft.store.Stores;
import dev.weft.workflow.NodeTypes;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowParser;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Weft as an MCP client of a server nobody here wrote: {@code @modelcontextprotocol/server-everything}
 * from npm, over stdio and Streamable HTTP, used as tools in a plan and a workflow, killed and
 * restarted under a live connection.
 */
final class McpClientIT {
    @TempDir
    Path dir;

    RunStore store;
    McpRegistry registry;
    McpTools tools;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("weft.db"));
        registry = McpRegistry.open(store);
        registry.add(
                new McpServerConfig("everything", new McpServerConfig.Transport.Stdio(EverythingServer.stdioCommand())),
                Instant.now());
        tools = McpTools.of(registry);
    }

    @AfterEach
    void close() {
        tools.close();
        store.close();
    }

    @Test
    void aPlanCallsTheServersToolsAsPlanToolsOneStepReadingTheOther() {
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(McpTools.resolver()))
                .tools(tools.registry())
                .build();
        RunResult result = executor.run(
                Runner.builder().store(store).build(),
                PlanParser.parse("""
                        {"intentType": "operation", "confidence": 1, "plan": [
                          {"id": "A", "capability": "mcp", "action": "everything.get-sum",
                           "constraints": {"a": 2, "b": 40}, "changes": {}, "dependsOn": []},
                          {"id": "B", "capability": "mcp", "action": "everything.echo",
                           "constraints": {"message": "$A.text"}, "changes": {}, "dependsOn": ["A"]},
                          {"id": "C", "capability": "mcp", "action": "everything.get-structured-content",
                           "constraints": {"location": "Chicago"}, "changes": {}, "dependsOn": []},
                          {"id": "D", "capability": "mcp", "action": "everything.get-sum",
                           "constraints": {"a": "two"}, "changes": {}, "dependsOn": []}
                        ]}"""),
                PlanRequest.auto(Json.object()).forUser("dana"));

        Map<String, StepOutcome> outcomes = PlanExecutor.outcomes(result);
        assertThat(outcomes.get("A").result().path("text").asText()).contains("42");
        assertThat(outcomes.get("B").result().path("text").asText())
                .startsWith("Echo: ")
                .contains("42");
        assertThat(outcomes.get("C").result().path("temperature").asInt()).isEqualTo(36);
        assertThat(outcomes.get("D").status()).isEqualTo(StepOutcome.Status.FAILED);
        assertThat(outcomes.get("D").error().orElseThrow().code()).isEqualTo(ErrorCode.E_ARGS_INVALID);
        assertThat(result.runId()).isNotBlank();
        assertThat(store.events(result.runId()))
                .anySatisfy(
                        event -> assertThat(event.data().path("tool").asText()).isEqualTo("everything.echo"));
    }

    @Test
    void theToolsCarryTheServersSchemasAndHints() {
        var echo = tools.tool("everything", "echo");
        assertThat(echo.inputSchema().path("required").toString()).contains("message");
        assertThat(echo.idempotent()).isTrue();
        assertThat(echo.risk()).isEqualTo(dev.weft.plan.Risk.LOW);
        assertThat(tools.tool("everything", "get-structured-content")
                        .outputSchema()
                        .path("properties")
                        .has("humidity"))
                .isTrue();
        assertThatThrownBy(() -> tools.tool("everything", "no-such-tool"))
                .hasMessageContaining("has no tool 'no-such-tool'")
                .hasMessageContaining("everything.echo");
        assertThatThrownBy(() -> tools.tool("nowhere", "echo")).hasMessageContaining("no MCP server 'nowhere'");
    }

    @Test
    void aWorkflowNodeOfTypeMcpCallsAToolWithArgumentsFromItsInput() {
        NodeTypes types = NodeTypes.standard().with(McpNodeType.create(tools));
        Workflow workflow = Workflow.compile(WorkflowParser.parse("""
                        {"id": "echoes", "nodes": [
                          {"id": "in", "type": "trigger"},
                          {"id": "sum", "type": "mcp",
                           "config": {"server": "everything", "tool": "get-sum",
                                      "arguments": {"a": "input.count", "b": 1}}},
                          {"id": "say", "type": "mcp",
                           "config": {"server": "everything", "tool": "echo",
                                      "arguments": {"message": "input.subject + ': ' + nodes.sum.text"}}}
                        ],
                        "connections": [{"source": "in", "target": "sum"}, {"source": "sum", "target": "say"}]}""", "echoes.json"), types);
        RunResult result = Runner.builder()
                .store(store)
                .build()
                .run(workflow.graph(), RunRequest.of(Json.parse("{\"subject\": \"server down\", \"count\": 4}", "in")));
        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        JsonNode said = result.outputs().get("say");
        assertThat(said.path("text").asText()).startsWith("Echo: server down: ").contains("5");

        assertThatThrownBy(() -> Workflow.compile(WorkflowParser.parse("""
                                {"id": "bad", "nodes": [
                                  {"id": "in", "type": "trigger"},
                                  {"id": "x", "type": "mcp", "config": {"server": "nowhere", "tool": "echo"}}
                                ], "connections": [{"source": "in", "target": "x"}]}""", "bad.json"), types))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("config.server 'nowhere' is not a registered MCP server");
    }

    @Test
    void aStdioServerThatDiedIsStartedAgainOnTheNextCall() {
        McpConnection connection = tools.connection("everything");
        assertThat(tools.tool("everything", "echo")).isNotNull();
        assertThat(McpToolAdapter.resultOf("echo", false, connection.call("echo", Map.of("message", "one"), true))
                        .path("text")
                        .asText())
                .isEqualTo("Echo: one");
        ProcessHandle.current()
                .descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("server-everything"))
                .forEach(ProcessHandle::destroyForcibly);

        assertThat(McpToolAdapter.resultOf("echo", false, connection.call("echo", Map.of("message", "two"), true))
                        .path("text")
                        .asText())
                .isEqualTo("Echo: two");
        assertThat(connection.connections()).isEqualTo(2);
    }

    @Test
    void aSessionTheHttpServerForgotIsInitializedAgainNotFatal() {
        int port = EverythingServer.freePort();
        Process server = EverythingServer.http(port);
        try (McpConnection connection = McpConnection.to(new McpServerConfig(
                "remote", new McpServerConfig.Transport.Http(URI.create("http://127.0.0.1:" + port + "/mcp"))))) {
            assertThat(McpToolAdapter.resultOf(
                                    "echo", false, connection.call("echo", Map.of("message", "before"), true))
                            .path("text")
                            .asText())
                    .isEqualTo("Echo: before");
            EverythingServer.stop(server);
            server = EverythingServer.http(port);

            var after = connection.call("echo", Map.of("message", "after"), true);
            assertThat(McpToolAdapter.resultOf("echo", false, after)
                            .path("text")
                            .asText())
                    .isEqualTo("Echo: after");
        } finally {
            EverythingServer.stop(server);
        }
    }
}
