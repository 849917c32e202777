package dev.weft.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.weft.core.Json;
import dev.weft.llm.internal.JsonSchemas;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A model's call of a tool it was offered: the provider's call id, the tool's name, and its arguments. Immutable. */
public record ToolCall(String id, String name, JsonNode arguments) {
    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(arguments, "arguments");
        arguments = arguments.deepCopy();
    }

    /** The request as LangChain4j sends it back to the model with the result. */
    ToolExecutionRequest request() {
        return ToolExecutionRequest.builder()
                .id(id)
                .name(name)
                .arguments(Json.write(arguments))
                .build();
    }

    /**
     * The {@code index}th call of a reply, checked: the tool was offered, its arguments are JSON and
     * fit its schema.
     *
     * @throws ModelOutputInvalidException naming the bad path ({@code /toolCalls/0/arguments/title})
     */
    static ToolCall checked(
            String who, Map<String, JsonSchemas.Compiled> offered, int index, ToolExecutionRequest request) {
        String where = "/toolCalls/" + index;
        JsonSchemas.Compiled schema = offered.get(request.name());
        if (schema == null) {
            throw new ModelOutputInvalidException(
                    where + "/name",
                    who + ": the model called tool '" + request.name() + "', which was not offered (offered: "
                            + String.join(", ", offered.keySet()) + ")");
        }
        JsonNode arguments;
        try {
            String text = request.arguments() == null || request.arguments().isBlank() ? "{}" : request.arguments();
            arguments = Json.mapper().readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ModelOutputInvalidException(
                    where + "/arguments",
                    who + ": the arguments of tool '" + request.name() + "' are not JSON: " + Json.describe(e));
        }
        List<JsonSchemas.Violation> violations = schema.validate(arguments);
        if (!violations.isEmpty()) {
            JsonSchemas.Violation first = violations.get(0);
            throw new ModelOutputInvalidException(
                    where + "/arguments" + (first.pointer().equals("/") ? "" : first.pointer()),
                    who + ": the arguments of tool '" + request.name() + "' break its schema at " + first);
        }
        return new ToolCall(request.id() == null ? "call_" + (index + 1) : request.id(), request.name(), arguments);
    }
}
