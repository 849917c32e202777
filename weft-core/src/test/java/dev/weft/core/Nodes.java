package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;

/** Small nodes for tests. */
final class Nodes {
    private Nodes() {}

    static JsonNode json(String text) {
        return Json.parse(text, "test JSON");
    }

    /** Outputs a constant. */
    static Node constant(String json) {
        JsonNode value = json(json);
        return context -> NodeResult.output(value);
    }

    /** Outputs its input. */
    static Node echo() {
        return context -> NodeResult.output(context.input());
    }

    /** Outputs its own name as text. */
    static Node named() {
        return context -> NodeResult.output(TextNode.valueOf(context.nodeName()));
    }
}
