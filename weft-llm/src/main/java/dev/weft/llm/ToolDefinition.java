package dev.weft.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A tool offered to a model: its name, what it does, and the JSON Schema of its arguments (an
 * object schema). Immutable.
 */
public record ToolDefinition(String name, String description, JsonNode parameters) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

    /** @throws IllegalArgumentException for a name providers reject, or parameters that are not an object schema */
    public ToolDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parameters, "parameters");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "tool name '" + name + "' must be 1-64 letters, digits, '_', '.' or '-'");
        }
        if (!parameters.isObject() || !"object".equals(parameters.path("type").asText())) {
            throw new IllegalArgumentException(
                    "the parameters of tool '" + name + "' must be an object schema {\"type\": \"object\", …}");
        }
        parameters = parameters.deepCopy();
    }
}
