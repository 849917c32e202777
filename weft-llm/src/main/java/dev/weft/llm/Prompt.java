package dev.weft.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.util.Objects;

/**
 * A rendered prompt: the fixed system part, sent first, and the per-request user part, sent last,
 * so that provider prompt caches hit. Immutable.
 */
public record Prompt(String system, String user) {
    public Prompt {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(user, "user");
    }

    /** {@code {"system": …, "user": …}}: the prompt node's output and what its step records. */
    public ObjectNode toJson() {
        ObjectNode json = Json.object();
        json.put("system", system);
        json.put("user", user);
        return json;
    }

    /**
     * Reads {@code {"system", "user"}} (either may be missing, not both).
     *
     * @throws WeftException {@code E_BAD_INPUT} naming {@code what} when it is not such an object
     */
    public static Prompt fromJson(JsonNode json, String what) {
        if (json.isTextual()) {
            return new Prompt("", json.asText());
        }
        JsonNode system = json.path("system");
        JsonNode user = json.path("user");
        if (!json.isObject() || (!system.isTextual() && !user.isTextual())) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    what + " must be a prompt {\"system\": TEXT, \"user\": TEXT} (as the prompt node gives), was "
                            + Json.write(json));
        }
        return new Prompt(system.asText(""), user.asText(""));
    }
}
