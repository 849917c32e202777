package dev.weft.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.plan.Risk;
import dev.weft.plan.Tool;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;

/**
 * Turns an MCP server's tool into a plan {@link Tool}: named {@code <server>.<tool>}, with the tool's
 * input schema (so arguments are validated before any call), its output schema when it declares one
 * (the result is then its structured content) or else {@code {"text", "content"}}, high-risk when it
 * says it is destructive, idempotent when it says it only reads or is idempotent — so a step calls
 * one that is neither once per run and step, however often the step is retried or recovered, and a
 * call of one cut by a lost connection, or not answered in time, is not made again ({@code
 * E_OUTCOME_UNKNOWN}: a high-risk step waits for a person, any other fails).
 */
public final class McpToolAdapter {
    /** The output schema of a tool that declares none: its text, and its content blocks as MCP gives them. */
    private static final ObjectNode TEXT_OUTPUT = (ObjectNode) Json.parse(
            "{\"type\": \"object\", \"properties\": {\"text\": {\"type\": \"string\"}, \"content\": {\"type\":"
                    + " \"array\"}}, \"required\": [\"text\", \"content\"]}",
            "the text output schema");

    private McpToolAdapter() {}

    /** The plan tool name of {@code server}'s tool {@code tool}: characters a plan tool cannot hold become '_'. */
    public static String toolName(String server, String tool) {
        return server + "." + tool.replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    /** {@code tool} of the server {@code connection} reaches, as a plan tool. */
    public static Tool adapt(McpConnection connection, McpSchema.Tool tool) {
        String name = toolName(connection.config().name(), tool.name());
        ObjectNode input = tool.inputSchema() == null
                ? (ObjectNode) Json.parse("{\"type\": \"object\"}", "schema")
                : Json.mapper().valueToTree(tool.inputSchema());
        boolean structured = tool.outputSchema() != null;
        ObjectNode output = structured ? Json.mapper().valueToTree(tool.outputSchema()) : TEXT_OUTPUT.deepCopy();
        McpSchema.ToolAnnotations hints = tool.annotations();
        boolean readOnly = hints != null && Boolean.TRUE.equals(hints.readOnlyHint());
        boolean destructive = hints != null && Boolean.TRUE.equals(hints.destructiveHint()) && !readOnly;
        boolean idempotent = readOnly || (hints != null && Boolean.TRUE.equals(hints.idempotentHint()));
        String description = (tool.description() == null ? tool.name() : tool.description()) + " (MCP server '"
                + connection.config().name() + "')";
        return Tool.json(name, description, input, output, (args, context) -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> arguments = Json.mapper().convertValue(args, Map.class);
                    McpSchema.CallToolResult result = connection.call(tool.name(), arguments, idempotent);
                    return resultOf(name, structured, result);
                })
                .risk(destructive ? Risk.HIGH : Risk.LOW)
                .idempotent(idempotent)
                // Longer than the connection's own: the connection tells a call that may have run from one that did
                // not.
                .timeout(connection.timeout().plusSeconds(30))
                .build();
    }

    /**
     * A call's result as the step records it.
     *
     * @throws WeftException {@code E_TOOL_FAILED} with the server's text when it marked the result an error
     */
    static JsonNode resultOf(String name, boolean structured, McpSchema.CallToolResult result) {
        ArrayNode content = Json.mapper().createArrayNode();
        StringBuilder text = new StringBuilder();
        for (McpSchema.Content block : result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
            ObjectNode node = Json.mapper().valueToTree(block);
            node.put("type", block.type());
            content.add(node);
            if (block instanceof McpSchema.TextContent textBlock) {
                text.append(text.isEmpty() ? "" : "\n").append(textBlock.text());
            }
        }
        if (Boolean.TRUE.equals(result.isError())) {
            throw new WeftException(
                    ErrorCode.E_TOOL_FAILED,
                    "MCP tool '" + name + "' failed: " + (text.isEmpty() ? content.toString() : text));
        }
        if (structured && result.structuredContent() != null) {
            return Json.mapper().valueToTree(result.structuredContent());
        }
        ObjectNode out = Json.object();
        out.put("text", text.toString());
        out.set("content", content);
        return out;
    }
}
