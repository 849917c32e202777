package dev.weft.plan.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finding {@code $<stepId>.path} placeholders in a step's arguments, and checking a placeholder's path
 * against the output schema of the step it reads. Only ids that name a step of the plan (or a child
 * of one, {@code B-0}) are placeholders: {@code $50} in a task's title is text. Stateless.
 */
public final class PlaceholderRefs {
    private static final Pattern PLACEHOLDER = Pattern.compile(
            "\\$([A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*)((?:\\.[A-Za-z_][A-Za-z0-9_]*|\\[\\d+\\]|\\[\\*\\])*)");
    private static final Pattern SEGMENT = Pattern.compile("\\.([A-Za-z_][A-Za-z0-9_]*)|\\[(\\d+|\\*)\\]");

    private PlaceholderRefs() {}

    /**
     * One placeholder: the text as written, the plan step it reads ({@code B} for {@code $B-0.x}), the
     * id as written, and the path after it.
     */
    public record Ref(String text, String step, String id, String path) {}

    /** Every placeholder in {@code args} that names a step of {@code stepIds}, in document order. */
    public static List<Ref> find(JsonNode args, Set<String> stepIds) {
        List<Ref> refs = new ArrayList<>();
        collect(args, stepIds, refs);
        return refs;
    }

    private static void collect(JsonNode node, Set<String> stepIds, List<Ref> refs) {
        if (node.isTextual()) {
            String text = node.textValue();
            if (text.indexOf('$') < 0) {
                return;
            }
            Matcher m = PLACEHOLDER.matcher(text);
            while (m.find()) {
                Optional<String> step = stepOf(m.group(1), stepIds);
                step.ifPresent(s -> refs.add(new Ref(m.group(), s, m.group(1), m.group(2))));
            }
        } else if (node.isContainerNode()) {
            node.forEach(child -> collect(child, stepIds, refs));
        }
    }

    /** The plan step an id belongs to: itself, or {@code B} for a child {@code B-0-1}; empty when none. */
    public static Optional<String> stepOf(String id, Set<String> stepIds) {
        String candidate = id;
        while (!stepIds.contains(candidate)) {
            int dash = candidate.lastIndexOf('-');
            if (dash < 0) {
                return Optional.empty();
            }
            candidate = candidate.substring(0, dash);
        }
        return Optional.of(candidate);
    }

    /**
     * Why {@code path} cannot exist in a value valid against {@code schema}, or empty when it can (or
     * the schema does not say: a path into anything the check does not understand, such as {@code
     * $ref}, {@code anyOf} or an object without declared properties, is accepted). A child id's own
     * path ({@code $B-0.x}) reads one item of the step's results, which the caller strips.
     */
    public static Optional<String> problem(JsonNode schema, String path) {
        JsonNode current = schema;
        String walked = "";
        Matcher m = SEGMENT.matcher(path);
        int at = 0;
        while (m.find()) {
            if (m.start() != at || !understood(current)) {
                return Optional.empty();
            }
            at = m.end();
            if (m.group(1) != null) {
                String name = m.group(1);
                if (declaresType(current) && !hasType(current, "object")) {
                    return Optional.of("'" + (walked.isEmpty() ? "the result" : walked) + "' is not an object");
                }
                JsonNode property = current.path("properties").path(name);
                if (property.isMissingNode()) {
                    if (current.path("additionalProperties").isBoolean()
                            && !current.get("additionalProperties").asBoolean()) {
                        return Optional.of("the tool's output schema has no property '" + walked
                                + (walked.isEmpty() ? "" : ".") + name + "'");
                    }
                    return Optional.empty();
                }
                walked = walked + (walked.isEmpty() ? "" : ".") + name;
                current = property;
            } else {
                if (declaresType(current) && !hasType(current, "array")) {
                    return Optional.of("'" + (walked.isEmpty() ? "the result" : walked) + "' is not an array, so ["
                            + m.group(2) + "] cannot apply to it");
                }
                walked = walked + "[" + m.group(2) + "]";
                JsonNode items = current.path("items");
                if (!items.isObject()) {
                    return Optional.empty();
                }
                current = items;
            }
        }
        return Optional.empty();
    }

    /** Whether the check can say anything about a value valid against {@code schema}. */
    private static boolean understood(JsonNode schema) {
        return schema.isObject()
                && !schema.has("$ref")
                && !schema.has("anyOf")
                && !schema.has("oneOf")
                && !schema.has("allOf");
    }

    private static boolean declaresType(JsonNode schema) {
        return schema.has("type");
    }

    private static boolean hasType(JsonNode schema, String type) {
        JsonNode declared = schema.get("type");
        if (declared.isTextual()) {
            return declared.asText().equals(type);
        }
        for (JsonNode t : declared) {
            if (t.asText().equals(type)) {
                return true;
            }
        }
        return false;
    }
}
