package dev.weft.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** JSON text and time values as the stores keep them in their columns. */
final class JsonText {
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    /** Deeper values are written by Jackson, whose nesting limit then applies as before. */
    private static final int MAX_DEPTH = 200;

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private JsonText() {}

    /**
     * The JSON text of {@code node}. Objects, arrays, strings, integers, booleans and null (nearly
     * every value a step holds) are written here, as Jackson writes them, without a generator and
     * serializer lookup per value; anything else (fractions, big numbers, binary, POJOs) goes to
     * Jackson.
     */
    static String write(JsonNode node) {
        switch (node.getNodeType()) {
            case NULL -> {
                return "null";
            }
            case BOOLEAN -> {
                return node.booleanValue() ? "true" : "false";
            }
            case NUMBER -> {
                if (node.isInt() || node.isLong()) {
                    return Long.toString(node.longValue());
                }
            }
            case OBJECT -> {
                if (node.isEmpty()) {
                    return "{}";
                }
            }
            default -> {}
        }
        StringBuilder text = new StringBuilder(64);
        return append(text, node, 0) ? text.toString() : writeWithJackson(node);
    }

    static String writeMap(Map<String, JsonNode> map) {
        if (map.isEmpty()) {
            return "{}";
        }
        StringBuilder text = new StringBuilder(64).append('{');
        for (Map.Entry<String, JsonNode> entry : map.entrySet()) {
            if (text.length() > 1) {
                text.append(',');
            }
            appendString(text, entry.getKey());
            text.append(':');
            if (!append(text, entry.getValue(), 1)) {
                ObjectNode object = Json.object();
                map.forEach(object::set);
                return writeWithJackson(object);
            }
        }
        return text.append('}').toString();
    }

    private static String writeWithJackson(JsonNode node) {
        try {
            return Json.mapper().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Appends {@code node}'s text; false (leaving {@code text} partly written) for a kind left to Jackson. */
    private static boolean append(StringBuilder text, JsonNode node, int depth) {
        if (depth > MAX_DEPTH) {
            return false;
        }
        switch (node.getNodeType()) {
            case OBJECT -> {
                text.append('{');
                boolean first = true;
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    if (!first) {
                        text.append(',');
                    }
                    first = false;
                    appendString(text, field.getKey());
                    text.append(':');
                    if (!append(text, field.getValue(), depth + 1)) {
                        return false;
                    }
                }
                text.append('}');
            }
            case ARRAY -> {
                text.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        text.append(',');
                    }
                    if (!append(text, node.get(i), depth + 1)) {
                        return false;
                    }
                }
                text.append(']');
            }
            case STRING -> appendString(text, node.textValue());
            case NUMBER -> {
                if (!(node.isInt() || node.isLong())) {
                    return false;
                }
                text.append(node.longValue());
            }
            case BOOLEAN -> text.append(node.booleanValue());
            case NULL -> text.append("null");
            default -> {
                return false;
            }
        }
        return true;
    }

    /** Appends {@code value} as a JSON string, escaped as Jackson escapes it. */
    static void appendString(StringBuilder text, String value) {
        text.append('"');
        int start = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            text.append(value, start, i);
            start = i + 1;
            switch (c) {
                case '"' -> text.append("\\\"");
                case '\\' -> text.append("\\\\");
                case '\n' -> text.append("\\n");
                case '\r' -> text.append("\\r");
                case '\t' -> text.append("\\t");
                case '\b' -> text.append("\\b");
                case '\f' -> text.append("\\f");
                default -> text.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        text.append(value, start, value.length()).append('"');
    }

    /**
     * The value {@code text} holds. The texts a step's columns hold most often ({@code null}, {@code
     * {}}, a small integer) are recognised without Jackson's parser.
     */
    static JsonNode read(String text, String what) {
        JsonNode simple = simple(text);
        if (simple != null) {
            return simple;
        }
        try {
            return Json.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new WeftException(
                    ErrorCode.E_STORE_UNAVAILABLE, "the stored " + what + " is not valid JSON: " + Json.describe(e));
        }
    }

    private static @Nullable JsonNode simple(String text) {
        switch (text) {
            case "null" -> {
                return NullNode.getInstance();
            }
            case "{}" -> {
                return Json.object();
            }
            case "true" -> {
                return BooleanNode.TRUE;
            }
            case "false" -> {
                return BooleanNode.FALSE;
            }
            default -> {}
        }
        // An int as Jackson reads one: optional minus, no leading zero, at most 9 digits (so no overflow).
        int length = text.length();
        int start = length > 0 && text.charAt(0) == '-' ? 1 : 0;
        if (length == start || length - start > 9 || (text.charAt(start) == '0' && length - start > 1)) {
            return null;
        }
        int value = 0;
        for (int i = start; i < length; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            value = value * 10 + (c - '0');
        }
        return IntNode.valueOf(start == 1 ? -value : value);
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
