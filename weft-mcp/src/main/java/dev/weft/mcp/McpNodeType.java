package dev.weft.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NodeContext;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
import dev.weft.core.OutcomeUnknownException;
import dev.weft.core.WeftException;
import dev.weft.plan.Risk;
import dev.weft.plan.Tool;
import dev.weft.workflow.spi.Expression;
import dev.weft.workflow.spi.NodeConfig;
import dev.weft.workflow.spi.NodeType;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The workflow node type {@code mcp}: {@code "config": {"server": NAME, "tool": TOOL, "arguments":
 * {…}}} calls tool {@code TOOL} of the registered MCP server {@code NAME}. {@code arguments} is shaped
 * like {@code transform}'s {@code output} (string values are CEL expressions over {@code input}, {@code
 * vars} and {@code nodes}; other values are literals); without it the node's input is the arguments.
 * They are checked against the tool's input schema before the call ({@code E_ARGS_INVALID}); a tool
 * that says it is destructive waits for approval (the run is {@code WAITING}; resumed with {@code
 * {"approved": true}} it calls, with anything else it fails with {@code E_APPROVAL_REQUIRED}); a tool
 * that is not idempotent is called once per run and node, however often the step is retried or
 * recovered. The output is the tool's structured content, or {@code {"text", "content"}}. The server
 * must be registered when the workflow compiles; the tool is looked up when the node runs. Thread-safe.
 */
public final class McpNodeType implements NodeType {
    private static final Set<String> FIELDS = Set.of("server", "tool", "arguments");

    private final McpTools tools;

    private McpNodeType(McpTools tools) {
        this.tools = tools;
    }

    /** An {@code mcp} type over the servers of {@code tools}. */
    public static McpNodeType create(McpTools tools) {
        return new McpNodeType(Objects.requireNonNull(tools, "tools"));
    }

    @Override
    public String name() {
        return "mcp";
    }

    @Override
    public Set<String> configFields() {
        return FIELDS;
    }

    @Override
    public NodeSpec.Builder create(NodeConfig config) {
        String server = config.requiredString("server");
        String tool = config.requiredString("tool");
        try {
            tools.connection(server);
        } catch (WeftException e) {
            throw config.problem(
                    "server",
                    "'" + server + "' is not a registered MCP server (add it with 'weft mcp add " + server
                            + " --command … | --url …'; 'weft mcp list' shows those there are)");
        }
        JsonNode shape = config.optional("arguments").orElse(null);
        if (shape != null && !shape.isObject()) {
            throw config.problem("arguments", "must be an object whose string values are CEL expressions");
        }
        JsonNode arguments = shape == null ? null : compile(config, "arguments", shape);
        return config.spec(context -> call(context, server, tool, arguments));
    }

    private NodeResult call(NodeContext context, String server, String name, JsonNode arguments) {
        Tool tool = tools.tool(server, name);
        JsonNode args = arguments == null ? context.input() : evaluate(arguments, context);
        if (!args.isObject()) {
            throw new WeftException(
                    ErrorCode.E_ARGS_INVALID,
                    "node '" + context.nodeId() + "': the arguments of MCP tool '" + tool.name()
                            + "' must be an object, were " + args);
        }
        tool.requireValidInput(context.nodeId(), args);
        // Resumed from "may have been sent — send again?": the person's answer decides.
        boolean repeat = context.interruptPayload()
                .map(p -> p.path("code").asText().equals(ErrorCode.E_OUTCOME_UNKNOWN.name()))
                .orElse(false);
        if (repeat) {
            if (!context.resumeValue().orElse(Json.object()).path("approved").asBoolean(false)) {
                throw new OutcomeUnknownException(
                        "MCP tool '" + tool.name() + "' may have run; not called again (rejected)");
            }
        } else if (tool.risk(args) == Risk.HIGH) {
            if (context.resumeValue().isEmpty()) {
                ObjectNode payload = Json.object();
                payload.put("type", "approval");
                payload.put("node", context.nodeId());
                payload.put("tool", tool.name());
                payload.set("args", args);
                payload.put("message", "MCP tool '" + tool.name() + "' is high-risk: approve to call it");
                return NodeResult.interrupt(payload);
            }
            if (!context.resumeValue().get().path("approved").asBoolean(false)) {
                throw new WeftException(
                        ErrorCode.E_APPROVAL_REQUIRED,
                        "MCP tool '" + tool.name() + "' was not approved; nothing was called");
            }
        }
        ObjectNode callArgs = (ObjectNode) args;
        JsonNode result;
        try {
            result = tool.idempotent()
                    ? invoke(tool, callArgs, context)
                    : context.once("mcp:" + tool.name(), () -> invoke(tool, callArgs, context));
        } catch (OutcomeUnknownException e) {
            if (tool.risk(args) != Risk.HIGH) {
                throw e;
            }
            // A high-risk call that may have run waits for a person; it is never made again on its own.
            ObjectNode error = Json.object();
            error.put("code", ErrorCode.E_OUTCOME_UNKNOWN.name());
            error.put("message", e.getMessage());
            context.record("error", error);
            ObjectNode payload = Json.object();
            payload.put("type", "approval");
            payload.put("code", ErrorCode.E_OUTCOME_UNKNOWN.name());
            payload.put("question", "may have been sent — send again?");
            payload.put("message", e.getMessage());
            payload.put("node", context.nodeId());
            payload.put("tool", tool.name());
            payload.set("args", args);
            return NodeResult.interrupt(payload);
        }
        tool.requireValidOutput(result);
        return NodeResult.output(result);
    }

    private static JsonNode invoke(Tool tool, ObjectNode args, NodeContext context) {
        return tool.invoke(
                args,
                dev.weft.plan.ToolContext.detached(context.runId(), context.user(), context.nodeId(), context.time()));
    }

    /** The shape with each string replaced by its compiled expression's place ({@link Compiled}). */
    private static JsonNode compile(NodeConfig config, String path, JsonNode shape) {
        if (shape.isTextual()) {
            return Json.mapper().getNodeFactory().pojoNode(new Compiled(config.compile(path, shape.asText())));
        }
        if (shape.isObject()) {
            ObjectNode out = Json.object();
            for (Map.Entry<String, JsonNode> field : shape.properties()) {
                out.set(field.getKey(), compile(config, path + "." + field.getKey(), field.getValue()));
            }
            return out;
        }
        if (shape.isArray()) {
            ArrayNode out = Json.mapper().createArrayNode();
            for (int i = 0; i < shape.size(); i++) {
                out.add(compile(config, path + "[" + i + "]", shape.get(i)));
            }
            return out;
        }
        return shape.deepCopy();
    }

    private static JsonNode evaluate(JsonNode shape, NodeContext context) {
        if (shape.isPojo() && ((com.fasterxml.jackson.databind.node.POJONode) shape).getPojo() instanceof Compiled c) {
            return c.expression().evaluate(context);
        }
        if (shape.isObject()) {
            ObjectNode out = Json.object();
            shape.properties().forEach(field -> out.set(field.getKey(), evaluate(field.getValue(), context)));
            return out;
        }
        if (shape.isArray()) {
            ArrayNode out = Json.mapper().createArrayNode();
            shape.forEach(item -> out.add(evaluate(item, context)));
            return out;
        }
        return shape;
    }

    /** A compiled CEL expression held in place of its text. */
    private record Compiled(Expression expression) {}
}
