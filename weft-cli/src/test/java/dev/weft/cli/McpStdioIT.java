package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.Run;
import dev.weft.core.spi.RunStore;
import dev.weft.mcp.internal.JacksonMcpJson;
import dev.weft.store.Stores;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft mcp} from the packaged jar, driven over stdio by the MCP SDK's own client, as a desktop client would. */
final class McpStdioIT {
    @TempDir
    Path dir;

    private McpSyncClient client(
            Optional<java.util.function.Function<McpSchema.ElicitFormRequest, McpSchema.ElicitResult>> elicitation)
            throws Exception {
        Path jar = Path.of("target", "weft.jar").toAbsolutePath();
        assertThat(jar).exists();
        Path home = Files.createDirectories(dir.resolve("home"));
        ServerParameters server = ServerParameters.builder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString())
                .args(
                        "--enable-native-access=ALL-UNNAMED",
                        "-jar",
                        jar.toString(),
                        "mcp",
                        "--user",
                        "dana",
                        "--db",
                        "sqlite:" + dir.resolve("weft.db"))
                .env(Map.of("WEFT_HOME", home.toString(), "PATH", System.getenv("PATH")))
                .build();
        McpClient.SyncSpec spec = McpClient.sync(new StdioClientTransport(server, JacksonMcpJson.instance()))
                .requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60));
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
    void servesTheAssistantsToolsForTheUserItWasStartedFor() throws Exception {
        try (McpSyncClient client = client(Optional.empty())) {
            assertThat(client.listTools().tools())
                    .extracting(McpSchema.Tool::name)
                    .contains("memo_taskOperations", "memo_chat", "runs_list", "runs_approve");

            McpSchema.CallToolResult created =
                    call(client, "memo_taskOperations", Map.of("operation", "create", "text", "renew the passport"));
            assertThat(created.isError()).as(text(created)).isFalse();
            McpSchema.CallToolResult reply = call(client, "memo_chat", Map.of("message", "what are my tasks?"));
            assertThat(text(reply)).contains("renew the passport");

            McpSchema.CallToolResult refused = call(client, "memo_taskOperations", Map.of("operation", "deleteAll"));
            assertThat(text(refused)).startsWith("E_APPROVAL_REQUIRED").contains("runs_approve");
            assertThat(text(call(client, "memo_taskOperations", Map.of("operation", "getAll"))))
                    .contains("renew the passport");
        }
        try (RunStore store = Stores.open("sqlite:" + dir.resolve("weft.db"))) {
            List<Run> runs = store.listRuns(Optional.empty(), Optional.of("dana"));
            assertThat(runs)
                    .anySatisfy(run -> assertThat(
                                    run.input().path("input").path("tool").asText())
                            .isEqualTo("memo_taskOperations"));
            assertThat(store.listRuns(Optional.empty(), Optional.of("omer"))).isEmpty();
        }
    }

    @Test
    void aHighRiskCallIsConfirmedThroughTheClientsElicitation() throws Exception {
        try (McpSyncClient client = client(Optional.of(request ->
                new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("confirm", true))))) {
            call(client, "memo_taskOperations", Map.of("operation", "create", "text", "book the flight"));
            McpSchema.CallToolResult done = call(client, "memo_taskOperations", Map.of("operation", "deleteAll"));
            assertThat(done.isError()).as(text(done)).isFalse();
            assertThat(text(call(client, "memo_taskOperations", Map.of("operation", "getAll"))))
                    .doesNotContain("book the flight");
        }
    }
}
