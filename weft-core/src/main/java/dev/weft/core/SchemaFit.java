package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether every value valid against one JSON Schema (a node's output) is valid against another (the
 * next node's input), judged on the parts of JSON Schema that say so plainly: {@code type} ({@code
 * integer} fits {@code number}), {@code required}, {@code properties}, {@code additionalProperties:
 * false}, {@code items}, {@code enum} and {@code const}. What it does not understand ({@code $ref},
 * {@code anyOf}, {@code oneOf}, {@code allOf}, formats, patterns, bounds) it accepts, and so does it
 * where the output schema says too little to know (an object without declared properties, a string
 * without an enum): it never rejects a graph whose values could fit. Stateless.
 */
final class SchemaFit {
    private SchemaFit() {}

    /** Why values of {@code source} may break {@code target}; empty when they fit. {@code where} names the value. */
    static List<String> problems(JsonNode source, JsonNode target, String where) {
        List<String> problems = new ArrayList<>();
        check(source, target, where, problems);
        return problems;
    }

    private static void check(JsonNode source, JsonNode target, String where, List<String> problems) {
        if (!understood(source) || !understood(target)) {
            return;
        }
        Set<String> sourceTypes = types(source);
        Set<String> targetTypes = types(target);
        if (!sourceTypes.isEmpty() && !targetTypes.isEmpty()) {
            for (String type : sourceTypes) {
                if (!accepts(targetTypes, type)) {
                    problems.add(where + " may be " + article(type) + " " + type + ", where "
                            + String.join(" or ", targetTypes) + " is required");
                    return;
                }
            }
        }
        checkValues(source, target, where, problems);
        boolean objects = (sourceTypes.isEmpty() || sourceTypes.contains("object"))
                && (targetTypes.isEmpty() || targetTypes.contains("object"));
        if (objects) {
            checkObject(source, target, where, problems);
        }
        boolean arrays = (sourceTypes.isEmpty() || sourceTypes.contains("array"))
                && (targetTypes.isEmpty() || targetTypes.contains("array"));
        if (arrays && source.path("items").isObject() && target.path("items").isObject()) {
            check(source.get("items"), target.get("items"), where + "[*]", problems);
        }
    }

    private static void checkObject(JsonNode source, JsonNode target, String where, List<String> problems) {
        boolean described = source.has("properties") || source.has("required");
        if (!described) {
            return;
        }
        Set<String> sourceRequired = strings(source.path("required"));
        for (String name : strings(target.path("required"))) {
            if (!sourceRequired.contains(name)) {
                problems.add(where + (source.path("properties").has(name) ? " may lack" : " has no") + " property '"
                        + name + "', which is required");
            }
        }
        JsonNode targetProperties = target.path("properties");
        boolean closed = target.path("additionalProperties").isBoolean()
                && !target.get("additionalProperties").asBoolean();
        source.path("properties").properties().forEach(entry -> {
            String name = entry.getKey();
            if (targetProperties.has(name)) {
                check(entry.getValue(), targetProperties.get(name), where + "." + name, problems);
            } else if (closed) {
                problems.add(where + " may have property '" + name + "', which is not allowed");
            }
        });
    }

    /** {@code enum} and {@code const}: the values the source may take must all be allowed. */
    private static void checkValues(JsonNode source, JsonNode target, String where, List<String> problems) {
        Set<JsonNode> allowed = values(target);
        Set<JsonNode> possible = values(source);
        if (allowed == null || possible == null) {
            return;
        }
        for (JsonNode value : possible) {
            if (!allowed.contains(value)) {
                problems.add(where + " may be " + value + ", which is not one of " + allowed);
                return;
            }
        }
    }

    /** The values {@code schema} allows by {@code enum} or {@code const}, or null when it does not list them. */
    private static @org.jspecify.annotations.Nullable Set<JsonNode> values(JsonNode schema) {
        if (schema.has("const")) {
            return Set.of(schema.get("const"));
        }
        if (schema.path("enum").isArray()) {
            Set<JsonNode> values = new LinkedHashSet<>();
            schema.get("enum").forEach(values::add);
            return values;
        }
        return null;
    }

    private static boolean understood(JsonNode schema) {
        return schema.isObject()
                && !schema.has("$ref")
                && !schema.has("anyOf")
                && !schema.has("oneOf")
                && !schema.has("allOf")
                && !schema.has("not");
    }

    private static Set<String> types(JsonNode schema) {
        JsonNode type = schema.path("type");
        Set<String> types = new LinkedHashSet<>();
        if (type.isTextual()) {
            types.add(type.asText());
        } else if (type.isArray()) {
            type.forEach(t -> types.add(t.asText()));
        }
        return types;
    }

    private static boolean accepts(Set<String> targetTypes, String type) {
        return targetTypes.contains(type) || (type.equals("integer") && targetTypes.contains("number"));
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> strings = new LinkedHashSet<>();
        array.forEach(item -> strings.add(item.asText()));
        return strings;
    }

    private static String article(String type) {
        return type.startsWith("a") || type.startsWith("i") || type.startsWith("o") ? "an" : "a";
    }

    /** The JSON type names a schema's {@code type} may use. */
    static final Set<String> TYPE_NAMES = Set.of("object", "array", "string", "number", "integer", "boolean", "null");
}
