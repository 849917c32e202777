package dev.weft.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolContext;
import dev.weft.plan.ToolRegistry;
import java.util.List;

/**
 * One tool type: a plan {@link Tool} offered to a model as a {@link ToolDefinition} (its input JSON
 * Schema as the parameters), and a model's {@link ToolCall} executed as that tool, with the
 * pipeline's checks ({@link ToolRegistry#call}): its arguments validated ({@code E_ARGS_INVALID}),
 * a high-risk tool refused without a person's approval ({@code E_APPROVAL_REQUIRED}), a tool that is
 * not idempotent called once per context. Stateless.
 */
public final class PlanTools {
    private PlanTools() {}

    /** {@code tool} as a model is offered it. */
    public static ToolDefinition definition(Tool tool) {
        ObjectNode parameters = tool.inputSchema().deepCopy();
        // The draft marker says nothing to a model, and some providers refuse keys they do not know.
        parameters.remove("$schema");
        if (!parameters.has("type")) {
            parameters.put("type", "object");
        }
        return new ToolDefinition(tool.name(), tool.description(), parameters);
    }

    /** Every tool of {@code tools}, in registration order. */
    public static List<ToolDefinition> definitions(ToolRegistry tools) {
        return tools.all().stream().map(PlanTools::definition).toList();
    }

    /**
     * Executes the model's {@code call} as the tool of its name.
     *
     * @throws dev.weft.core.NotFoundException ({@code E_NOT_FOUND}) for a tool {@code tools} does not have
     * @throws WeftException {@code E_ARGS_INVALID} for arguments that are not an object or break the
     *     tool's schema, {@code E_APPROVAL_REQUIRED} for a high-risk tool {@code context} does not
     *     approve, or what the tool threw
     */
    public static JsonNode execute(ToolRegistry tools, ToolCall call, ToolContext context) {
        if (!(call.arguments() instanceof ObjectNode arguments)) {
            throw new WeftException(
                    ErrorCode.E_ARGS_INVALID,
                    "the arguments of tool '" + call.name() + "' must be a JSON object, were " + call.arguments());
        }
        return tools.call(call.name(), arguments, context);
    }
}
