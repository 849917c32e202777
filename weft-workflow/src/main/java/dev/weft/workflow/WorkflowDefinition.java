package dev.weft.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A workflow as stored: what seed 003 keeps in its tables (nodes, connections with handles, global
 * variables), as one JSON document. Immutable; read one with {@link WorkflowParser}.
 */
public record WorkflowDefinition(
        String id,
        Map<String, JsonNode> variables,
        List<NodeDefinition> nodes,
        List<ConnectionDefinition> connections) {

    public WorkflowDefinition {
        Objects.requireNonNull(id, "id");
        variables = Map.copyOf(variables);
        nodes = List.copyOf(nodes);
        connections = List.copyOf(connections);
    }

    /**
     * One node: its id, its type (a name in the {@link NodeTypes} the workflow is compiled with), its
     * display name (the id when not given; the key of its output for later expressions) and its
     * type's configuration.
     */
    public record NodeDefinition(String id, String type, String name, ObjectNode config) {
        public NodeDefinition {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(config, "config");
        }
    }

    /** A connection, taken when {@code source} routes by {@code sourceHandle} ({@code output} by default). */
    public record ConnectionDefinition(String source, String target, String sourceHandle) {
        public ConnectionDefinition {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(sourceHandle, "sourceHandle");
        }
    }
}
