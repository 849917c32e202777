package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POST /mcp} called by the MCP SDK's own client, as any MCP client would. */
final class McpHttpTest {
    @TempDir
    Path dir;

    ServerFixture fixture;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(dir);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private McpSyncClient client(String key) {
        return client(key, Optional.empty());
    }

    private McpSyncClient client(
            String key, Optional<Function<McpSchema.ElicitFormRequest, McpSchema.ElicitResult>> elicitation) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(fixture.base.toString())
                .endpoint("/mcp")
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + key))
                .build();
        McpClient.SyncSpec spec = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30));
        elicitation.ifPresent(spec::elicitation);
        McpSyncClient client = spec.build();
        client.initialize();
        return client;
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(
                McpSchema.CallToolRequest.builder(tool).arguments(args).build());
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    @Test
    void listsEveryAssistantsToolsWithTheirSchemasAndTheRunsTools() {
        try (McpSyncClient client = client(fixture.dana)) {
            List<McpSchema.Tool> tools = client.listTools().tools();
            assertThat(tools)
                    .extracting(McpSchema.Tool::name)
                    .contains(
                            "memo_taskOperations",
                            "memo_calendarOperations",
                            "memo_listOperations",
                            "memo_gmailOperations",
                            "memo_memoryOperations",
                            "memo_chat",
                            "runs_list",
                            "runs_show",
                            "runs_approve",
                            "runs_reject",
                            "runs_answer")
                    .doesNotContain("memo_respond");
            McpSchema.Tool tasks = tools.stream()
                    .filter(t -> t.name().equals("memo_taskOperations"))
                    .findFirst()
                    .orElseThrow();
            assertThat(tasks.inputSchema().get("required")).asString().contains("operation");
            assertThat(tasks.annotations().destructiveHint()).isTrue();
        }
    }

    @Test
    void aToolCallActsForTheKeysUserAndIsRecordedAsTheirRun() {
        try (McpSyncClient dana = client(fixture.dana);
                McpSyncClient omer = client(fixture.omer)) {
            McpSchema.CallToolResult created =
                    call(dana, "memo_taskOperations", Map.of("operation", "create", "text", "call the plumber"));
            assertThat(created.isError()).as(text(created)).isFalse();
            assertThat(created.structuredContent()).isInstanceOf(Map.class);
            assertThat(text(created)).contains("call the plumber");
            String runId = (String) created.meta().get("weft/runId");
            assertThat(fixture.store.findRun(runId).orElseThrow().user()).contains("dana");

            McpSchema.CallToolResult runs = call(dana, "runs_list", Map.of());
            assertThat(text(runs)).contains(runId).contains("memo_taskOperations");

            McpSchema.CallToolResult omersTasks = call(omer, "memo_taskOperations", Map.of("operation", "getAll"));
            assertThat(text(omersTasks)).doesNotContain("plumber");
            McpSchema.CallToolResult peek = call(omer, "runs_show", Map.of("runId", runId));
            assertThat(peek.isError()).isTrue();
            assertThat(text(peek)).startsWith("E_NOT_FOUND");
        }
    }

    @Test
    void badArgumentsAreRefusedWithTheirCodeAndChangeNothing() {
        try (McpSyncClient client = client(fixture.dana)) {
            McpSchema.CallToolResult bad = call(client, "memo_taskOperations", Map.of("operation", "explode"));
            assertThat(bad.isError()).isTrue();
            assertThat(text(bad)).startsWith("E_ARGS_INVALID").contains("/operation");
            assertThatThrownBy(() -> call(client, "memo_nothing", Map.of()))
                    .isInstanceOf(McpError.class)
                    .hasMessageContaining("Unknown tool");
            McpSchema.CallToolResult all = call(client, "memo_taskOperations", Map.of("operation", "getAll"));
            assertThat(text(all)).doesNotContain("\"text\"");
        }
    }

    @Test
    void aHighRiskCallWithoutElicitationWaitsAndSaysHowToApproveIt() {
        try (McpSyncClient client = client(fixture.dana)) {
            call(client, "memo_taskOperations", Map.of("operation", "create", "text", "water the plants"));
            McpSchema.CallToolResult refused = call(client, "memo_taskOperations", Map.of("operation", "deleteAll"));
            assertThat(refused.isError()).isTrue();
            assertThat(text(refused)).startsWith("E_APPROVAL_REQUIRED").contains("runs_approve");
            assertThat(text(call(client, "memo_taskOperations", Map.of("operation", "getAll"))))
                    .contains("water the plants");

            String runId = (String) refused.meta().get("weft/runId");
            McpSchema.CallToolResult approved = call(client, "runs_approve", Map.of("runId", runId));
            assertThat(approved.isError()).isFalse();
            assertThat(text(approved)).contains("COMPLETED");
            assertThat(text(call(client, "memo_taskOperations", Map.of("operation", "getAll"))))
                    .doesNotContain("water the plants");
        }
    }

    @Test
    void aHighRiskCallAsksTheClientsUserAndRunsOnlyOnYes() {
        AtomicReference<String> asked = new AtomicReference<>();
        AtomicReference<Boolean> say = new AtomicReference<>(false);
        try (McpSyncClient client = client(fixture.dana, Optional.of(request -> {
            asked.set(request.message());
            return new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("confirm", say.get()));
        }))) {
            call(client, "memo_taskOperations", Map.of("operation", "create", "text", "feed the cat"));

            McpSchema.CallToolResult declined = call(client, "memo_taskOperations", Map.of("operation", "deleteAll"));
            assertThat(asked.get()).contains("memo_taskOperations").contains("deleteAll");
            assertThat(declined.isError()).isTrue();
            assertThat(text(declined)).contains("declined");
            assertThat(text(call(client, "memo_taskOperations", Map.of("operation", "getAll"))))
                    .contains("feed the cat");

            say.set(true);
            McpSchema.CallToolResult done = call(client, "memo_taskOperations", Map.of("operation", "deleteAll"));
            assertThat(done.isError()).isFalse();
            assertThat(text(call(client, "memo_taskOperations", Map.of("operation", "getAll"))))
                    .doesNotContain("feed the cat");
        }
    }

    @Test
    void anMcpCallsWaitingRunIsApprovedThroughTheRunsApiLikeAnyRun() {
        try (McpSyncClient client = client(fixture.dana)) {
            call(client, "memo_taskOperations", Map.of("operation", "create", "text", "pay the rent"));
            McpSchema.CallToolResult refused = call(client, "memo_taskOperations", Map.of("operation", "deleteAll"));
            String runId = (String) refused.meta().get("weft/runId");
            assertThat(fixture.get("api/runs/" + runId, fixture.dana)
                            .body()
                            .path("status")
                            .asText())
                    .isEqualTo("WAITING");
            assertThat(fixture.post("api/runs/" + runId + "/approve", fixture.omer, "{}")
                            .status())
                    .isEqualTo(404);
            ServerFixture.Answer approved = fixture.post("api/runs/" + runId + "/approve", fixture.dana, "{}");
            assertThat(approved.status()).as(approved.body().toString()).isEqualTo(200);
            assertThat(approved.body().path("status").asText()).isEqualTo("COMPLETED");
            assertThat(text(call(client, "memo_taskOperations", Map.of("operation", "getAll"))))
                    .doesNotContain("pay the rent");
        }
    }

    @Test
    void theChatToolTalksToTheAssistantInWords() {
        try (McpSyncClient client = client(fixture.dana)) {
            McpSchema.CallToolResult reply = call(
                    client, "memo_chat", Map.of("message", "צור רשימת קניות עם חלב וביצים", "zone", "Asia/Jerusalem"));
            assertThat(reply.isError()).isFalse();
            @SuppressWarnings("unchecked")
            Map<String, Object> content = (Map<String, Object>) reply.structuredContent();
            assertThat(content.get("language")).isEqualTo("he");
            assertThat((String) content.get("reply")).contains("חלב");
        }
    }

    @Test
    void withoutAKeyTheEndpointAnswers401AndAnotherUsersSessionIsNotFound() {
        ServerFixture.Answer anonymous = fixture.post(
                "mcp", Optional.empty(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
        assertThat(anonymous.status()).isEqualTo(401);

        HttpRequest initialize = fixture.request("mcp", Optional.of(fixture.dana))
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json")
                .POST(
                        HttpRequest.BodyPublishers.ofString(
                                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                                        + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"))
                .build();
        var answer = fixture.raw(initialize);
        assertThat(answer.statusCode()).isEqualTo(200);
        String session = answer.headers().firstValue("Mcp-Session-Id").orElseThrow();

        HttpRequest list = fixture.request("mcp", Optional.of(fixture.omer))
                .header("Accept", "application/json, text/event-stream")
                .header("Content-Type", "application/json")
                .header("Mcp-Session-Id", session)
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}"))
                .build();
        assertThat(fixture.raw(list).statusCode()).isEqualTo(404);
    }
}
