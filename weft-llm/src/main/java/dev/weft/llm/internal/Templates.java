package dev.weft.llm.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.samskivert.mustache.Mustache;
import com.samskivert.mustache.MustacheException;
import com.samskivert.mustache.Template;
import dev.weft.core.Json;
import dev.weft.core.NodeContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Mustache templates ({@code {{path}}}, sections, no HTML escaping) over a run's variable context.
 * Objects and arrays render as JSON. A variable that is missing fails; one that is null renders
 * empty. Thread-safe.
 */
public final class Templates {
    private static final Mustache.Compiler COMPILER = Mustache.compiler()
            .escapeHTML(false)
            .nullValue("")
            .withFormatter(
                    value -> value instanceof Map || value instanceof List ? Json.write(value) : String.valueOf(value));

    private Templates() {}

    /**
     * Compiles {@code text}.
     *
     * @throws IllegalArgumentException naming the line when it does not compile
     */
    public static Template compile(String text) {
        try {
            return COMPILER.compile(text);
        } catch (MustacheException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * Renders {@code template}.
     *
     * @throws IllegalArgumentException naming the variable when one is missing
     */
    public static String render(Template template, Map<String, Object> context) {
        try {
            return template.execute(context);
        } catch (MustacheException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /**
     * What a template sees during a step: {@code input} (the run input, as CEL sees it), {@code vars}
     * (the variables), {@code nodes} (earlier outputs by node name) and {@code previous} (the step's
     * own input: what the node before it produced).
     */
    public static Map<String, Object> context(NodeContext context) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("input", plain(context.runInput()));
        Map<String, Object> vars = new LinkedHashMap<>();
        context.variables().forEach((name, value) -> vars.put(name, plain(value)));
        root.put("vars", vars);
        Map<String, Object> nodes = new LinkedHashMap<>();
        context.outputs().forEach((name, value) -> nodes.put(name, plain(value)));
        root.put("nodes", nodes);
        root.put("previous", plain(context.input()));
        return root;
    }

    /** A JSON value as maps, lists, strings, numbers and booleans ({@code null} for JSON null). */
    public static Object plain(JsonNode value) {
        Object converted = Json.mapper().convertValue(value, Object.class);
        return converted == null ? "" : converted;
    }
}
