package dev.weft.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** JSON text and time values as the stores keep them in their columns. */
final class JsonText {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private JsonText() {}

    static String write(JsonNode node) {
        try {
            return Json.mapper().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    static String writeMap(Map<String, JsonNode> map) {
        if (map.isEmpty()) {
            return "{}";
        }
        ObjectNode object = Json.object();
        map.forEach(object::set);
        return write(object);
    }

    static JsonNode read(String text, String what) {
        try {
            return Json.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new WeftException(
                    ErrorCode.E_STORE_UNAVAILABLE, "the stored " + what + " is not valid JSON: " + Json.describe(e));
        }
    }

    static Map<String, JsonNode> readMap(String text, String what) {
        if (text.equals("{}")) {
            return Map.of();
        }
        JsonNode node = read(text, what);
        Map<String, JsonNode> map = new LinkedHashMap<>();
        node.properties().forEach(field -> map.put(field.getKey(), field.getValue()));
        return map;
    }

    /**
     * Nanoseconds since the epoch: exact for every instant between the years 1677 and 2262, and ordered
     * as the instants are, so SQL can compare them.
     */
    static long nanos(Instant instant) {
        try {
            return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), NANOS_PER_SECOND), instant.getNano());
        } catch (ArithmeticException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "time " + instant + " cannot be stored: it is outside the years 1677 to 2262");
        }
    }

    static Instant instant(long nanos) {
        return Instant.ofEpochSecond(Math.floorDiv(nanos, NANOS_PER_SECOND), Math.floorMod(nanos, NANOS_PER_SECOND));
    }
}
