package dev.weft.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
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

    /** The definition as workflow JSON, as {@link WorkflowParser} reads it: kept with a run to rebuild its graph. */
    public ObjectNode toJson() {
        ObjectNode root = Json.object();
        root.put("id", id);
        ObjectNode vars = root.putObject("variables");
        variables.forEach(vars::set);
        ArrayNode nodeArray = root.putArray("nodes");
        for (NodeDefinition node : nodes) {
            ObjectNode n = nodeArray.addObject();
            n.put("id", node.id());
            n.put("type", node.type());
            n.put("name", node.name());
            n.set("config", node.config());
        }
        ArrayNode connectionArray = root.putArray("connections");
        for (ConnectionDefinition connection : connections) {
            ObjectNode c = connectionArray.addObject();
            c.put("source", connection.source());
            c.put("target", connection.target());
            c.put("sourceHandle", connection.sourceHandle());
        }
        return root;
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
