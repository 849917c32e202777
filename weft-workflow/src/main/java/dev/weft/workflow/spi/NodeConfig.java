package dev.weft.workflow.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Node;
import dev.weft.core.NodeSpec;
import dev.weft.workflow.WorkflowDefinition.NodeDefinition;
import java.util.Optional;
import java.util.function.Function;

/**
 * A node's definition with typed access to its configuration: each accessor fails with {@code
 * E_GRAPH_INVALID} naming the node and the field. Used by one thread while compiling.
 */
public final class NodeConfig {
    private final NodeDefinition definition;
    private final Function<NodeConfig.Source, Expression> compiler;

    /** What an expression is compiled from: its text, and the node and field it belongs to. */
    public record Source(String nodeId, String field, String text) {}

    public NodeConfig(NodeDefinition definition, Function<Source, Expression> compiler) {
        this.definition = definition;
        this.compiler = compiler;
    }

    public NodeDefinition definition() {
        return definition;
    }

    public String nodeId() {
        return definition.id();
    }

    public ObjectNode raw() {
        return definition.config();
    }

    /** A builder for the node's spec with its id, name and type set. */
    public NodeSpec.Builder spec(Node node) {
        return NodeSpec.builder(definition.id(), node).name(definition.name()).type(definition.type());
    }

    public GraphInvalidException problem(String field, String rule) {
        return new GraphInvalidException("node '" + nodeId() + "': config." + field + " " + rule);
    }

    public Optional<JsonNode> optional(String field) {
        JsonNode value = raw().get(field);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value);
    }

    public JsonNode required(String field) {
        return optional(field).orElseThrow(() -> problem(field, "is missing"));
    }

    public String requiredString(String field) {
        JsonNode value = required(field);
        if (!value.isTextual() || value.asText().isBlank()) {
            throw problem(field, "must be a non-empty string");
        }
        return value.asText();
    }

    public Optional<String> optionalString(String field) {
        return optional(field).map(value -> {
            if (!value.isTextual()) {
                throw problem(field, "must be a string");
            }
            return value.asText();
        });
    }

    public Optional<Long> optionalLong(String field, long min) {
        return optional(field).map(value -> {
            if (!value.isIntegralNumber() || !value.canConvertToLong()) {
                throw problem(field, "must be a whole number");
            }
            if (value.asLong() < min) {
                throw problem(field, "must be at least " + min + ", was " + value.asLong());
            }
            return value.asLong();
        });
    }

    public long requiredLong(String field, long min) {
        required(field);
        return optionalLong(field, min).orElseThrow();
    }

    public Optional<Double> optionalDouble(String field, double min, double max) {
        return optional(field).map(value -> {
            if (!value.isNumber()) {
                throw problem(field, "must be a number");
            }
            double d = value.asDouble();
            if (d < min || d > max) {
                throw problem(field, "must be between " + min + " and " + max + ", was " + d);
            }
            return d;
        });
    }

    /** Compiles the CEL expression held in {@code field} (a string). */
    public Expression expression(String field) {
        return compile(field, requiredString(field));
    }

    /** Compiles CEL text found at {@code field} (a path such as {@code output.label}). */
    public Expression compile(String field, String text) {
        return compiler.apply(new Source(nodeId(), field, text));
    }
}
