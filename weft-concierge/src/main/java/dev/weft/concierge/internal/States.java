package dev.weft.concierge.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.weft.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A conversation's state: a new one, its JSON Schema ({@code state.schema.json}) and validation against
 * it, and how updates merge into it. Stateless and thread-safe.
 */
public final class States {
    private static final ObjectNode SCHEMA = load();
    private static final JsonSchema VALIDATOR = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
            .getSchema(
                    SCHEMA,
                    SchemaValidatorsConfig.builder()
                            .pathType(PathType.JSON_POINTER)
                            .build());

    private States() {}

    private static ObjectNode load() {
        try (InputStream in = States.class.getResourceAsStream("/dev/weft/concierge/state.schema.json")) {
            if (in == null) {
                throw new IllegalStateException("dev/weft/concierge/state.schema.json is missing from the class path");
            }
            return (ObjectNode) Json.mapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The state's JSON Schema. */
    public static ObjectNode schema() {
        return SCHEMA.deepCopy();
    }

    /** The state of a conversation that has just begun. */
    public static ObjectNode fresh(String session, String language) {
        ObjectNode state = Json.object();
        state.put("session", session);
        state.put("language", language);
        state.put("turns", 0);
        state.putNull("goal");
        state.putObject("customer").put("verified", false);
        state.putObject("request");
        state.put("awaiting", "nothing");
        state.putArray("history");
        return state;
    }

    /** Every way {@code state} breaks its schema ({@code /customer/id: does not match the regex …}); empty when it fits. */
    public static List<String> violations(JsonNode state) {
        return VALIDATOR.validate(state).stream()
                .sorted(Comparator.comparing(
                        (ValidationMessage m) -> m.getInstanceLocation().toString()))
                .map(m -> {
                    String where = m.getInstanceLocation().toString();
                    String text = m.getMessage();
                    int colon = text.indexOf(": ");
                    if ((text.startsWith("/") || text.startsWith("$")) && colon >= 0) {
                        text = text.substring(colon + 2);
                    }
                    return (where.isEmpty() ? "/" : where) + ": " + text;
                })
                .toList();
    }

    /**
     * {@code base} with {@code updates} merged in: an object merges into an object, {@code null} removes
     * the field, anything else replaces it.
     */
    public static ObjectNode merge(ObjectNode base, JsonNode updates) {
        ObjectNode merged = base.deepCopy();
        if (!updates.isObject()) {
            return merged;
        }
        for (Map.Entry<String, JsonNode> field : updates.properties()) {
            JsonNode value = field.getValue();
            JsonNode current = merged.get(field.getKey());
            if (value.isNull() && !"goal".equals(field.getKey())) {
                merged.remove(field.getKey());
            } else if (value.isObject() && current != null && current.isObject()) {
                merged.set(field.getKey(), merge((ObjectNode) current, value));
            } else {
                merged.set(field.getKey(), value.deepCopy());
            }
        }
        return merged;
    }
}
