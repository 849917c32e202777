package dev.weft.concierge.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.util.Objects;
import java.util.Optional;

/**
 * What one requested tool did: its result, or why it did not ({@code error}: {@code {"code", "message",
 * "reason", "details"}} — a refusal of the shop's policy, bad arguments, or a change the customer did not
 * confirm).
 */
public record ToolResult(String name, ObjectNode args, boolean ok, JsonNode result, Optional<ObjectNode> error) {
    public ToolResult {
        Objects.requireNonNull(name, "name");
        args = Objects.requireNonNull(args, "args").deepCopy();
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(error, "error");
    }

    /** The reason word of a refusal ({@code not_pending}, {@code not_verified}, …), or empty. */
    public String reason() {
        return error.map(e -> e.path("reason").asText("")).orElse("");
    }

    public ObjectNode toJson() {
        ObjectNode json = Json.object();
        json.put("name", name);
        json.set("args", args);
        json.put("ok", ok);
        json.set("result", result);
        error.ifPresent(e -> json.set("error", e));
        return json;
    }

    public static ToolResult fromJson(JsonNode json) {
        JsonNode error = json.path("error");
        return new ToolResult(
                json.path("name").asText(),
                json.path("args").isObject() ? (ObjectNode) json.get("args") : Json.object(),
                json.path("ok").asBoolean(false),
                json.has("result") ? json.get("result") : Json.mapper().nullNode(),
                error.isObject() ? Optional.of((ObjectNode) error) : Optional.empty());
    }
}
