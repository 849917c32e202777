package dev.weft.mcp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.mcp.internal.JacksonMcpJson;
import dev.weft.mcp.internal.SchemaValidator;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Weft as an MCP server, on the official SDK: {@link AssistantTools} offered over any of its
 * transports — stdio ({@code weft mcp}) or Streamable HTTP ({@code POST /mcp} of {@code weft serve}).
 * Each call acts for the user its transport context names ({@link #USER}); a high-risk call asks the
 * client to confirm through MCP elicitation when the client declared it can.
 */
public final class McpServers {
    /** The key of the user a request acts for in its {@link McpTransportContext}. */
    public static final String USER = "weft.user";

    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(10);

    private McpServers() {}

    /** A server over stdio (or any single-client transport) acting for {@code user}. */
    public static McpSyncServer serve(McpServerTransportProvider transport, AssistantTools tools, String user) {
        return configured(McpServer.sync(transport), tools, context -> Optional.of(user));
    }

    /** A server over Streamable HTTP, acting for the user each request's context names ({@link #USER}). */
    public static McpSyncServer serve(McpStreamableServerTransportProvider transport, AssistantTools tools) {
        return configured(McpServer.sync(transport), tools, McpServers::userOf);
    }

    private static McpSyncServer configured(
            McpServer.SyncSpecification<?> spec,
            AssistantTools tools,
            Function<McpTransportContext, Optional<String>> userOf) {
        return spec.serverInfo(info())
                .jsonMapper(JacksonMcpJson.instance())
                .jsonSchemaValidator(SchemaValidator.instance())
                // Weft's step pipeline validates arguments, so a bad call is a recorded run with its code.
                .validateToolInputs(false)
                .requestTimeout(REQUEST_TIMEOUT)
                .capabilities(capabilities())
                .instructions(INSTRUCTIONS)
                .tools(specifications(tools, userOf))
                .build();
    }

    private static final String INSTRUCTIONS = "Weft's assistants and runs. Tools named <assistant>_<tool> act on the"
            + " user's own data; <assistant>_chat talks to an assistant in words; runs_* list, show and continue the"
            + " user's runs. A high-risk call waits until the user confirms it.";

    private static McpSchema.Implementation info() {
        String version = McpServers.class.getPackage().getImplementationVersion();
        return McpSchema.Implementation.builder("weft", version == null ? "development" : version)
                .build();
    }

    private static McpSchema.ServerCapabilities capabilities() {
        return McpSchema.ServerCapabilities.builder().tools(false).build();
    }

    private static Optional<String> userOf(McpTransportContext context) {
        Object user = context.get(USER);
        return user instanceof String s && !s.isBlank() ? Optional.of(s) : Optional.empty();
    }

    static List<McpServerFeatures.SyncToolSpecification> specifications(
            AssistantTools tools, Function<McpTransportContext, Optional<String>> userOf) {
        List<McpServerFeatures.SyncToolSpecification> specifications = new ArrayList<>();
        for (AssistantTools.Offered offered : tools.list()) {
            McpSchema.Tool.Builder tool = McpSchema.Tool.builder(offered.name(), map(offered.inputSchema()))
                    .description(offered.description())
                    .annotations(new McpSchema.ToolAnnotations(
                            null,
                            offered.readOnly(),
                            offered.risk() == dev.weft.plan.Risk.HIGH,
                            offered.readOnly() ? Boolean.TRUE : null,
                            Boolean.FALSE,
                            null));
            offered.outputSchema().ifPresent(schema -> tool.outputSchema(map(schema)));
            specifications.add(McpServerFeatures.SyncToolSpecification.builder()
                    .tool(tool.build())
                    .callHandler((exchange, request) -> call(tools, userOf, exchange, request))
                    .build());
        }
        return specifications;
    }

    private static McpSchema.CallToolResult call(
            AssistantTools tools,
            Function<McpTransportContext, Optional<String>> userOf,
            McpSyncServerExchange exchange,
            McpSchema.CallToolRequest request) {
        Optional<String> user = userOf.apply(exchange.transportContext());
        if (user.isEmpty()) {
            return McpSchema.CallToolResult.builder()
                    .isError(true)
                    .addTextContent("E_UNAUTHORIZED: this MCP session acts for no user")
                    .build();
        }
        ObjectNode args =
                request.arguments() == null ? Json.object() : Json.mapper().valueToTree(request.arguments());
        AssistantTools.Outcome outcome = tools.call(user.get(), request.name(), args, confirmer(exchange));
        return switch (outcome) {
            case AssistantTools.Outcome.Done done -> {
                McpSchema.CallToolResult.Builder result =
                        McpSchema.CallToolResult.builder().addTextContent(Json.write(done.result()));
                if (done.result().isObject()) {
                    result.structuredContent(Json.mapper().convertValue(done.result(), Map.class));
                }
                done.runId().ifPresent(runId -> result.meta(Map.of("weft/runId", runId)));
                yield result.isError(false).build();
            }
            case AssistantTools.Outcome.Failed failed -> {
                McpSchema.CallToolResult.Builder result = McpSchema.CallToolResult.builder()
                        .isError(true)
                        .addTextContent(failed.code().name() + ": " + failed.message());
                failed.runId().ifPresent(runId -> result.meta(Map.of("weft/runId", runId)));
                yield result.build();
            }
        };
    }

    /** Asks the client's user through elicitation when the client declared it; else cannot ask. */
    private static AssistantTools.Confirmer confirmer(McpSyncServerExchange exchange) {
        McpSchema.ClientCapabilities capabilities = exchange.getClientCapabilities();
        if (capabilities == null || capabilities.elicitation() == null) {
            return AssistantTools.Confirmer.NONE;
        }
        return question -> {
            ObjectNode schema = Json.object();
            schema.put("type", "object");
            ObjectNode confirm = schema.putObject("properties").putObject("confirm");
            confirm.put("type", "boolean");
            confirm.put("title", "Go ahead?");
            confirm.put("description", "Yes does it; no leaves everything as it is.");
            schema.putArray("required").add("confirm");
            McpSchema.ElicitResult answer;
            try {
                answer = exchange.createElicitation(McpSchema.ElicitFormRequest.builder(question, map(schema))
                        .build());
            } catch (RuntimeException e) {
                // The client could not ask after all (it failed or timed out): the run waits, and the
                // call says how to approve it, as for a client that cannot ask.
                return Optional.empty();
            }
            return Optional.of(answer.action() == McpSchema.ElicitResult.Action.ACCEPT
                    && answer.content() != null
                    && Boolean.TRUE.equals(answer.content().get("confirm")));
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(ObjectNode node) {
        return Json.mapper().convertValue(node, Map.class);
    }
}
