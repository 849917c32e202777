package dev.weft.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Graph;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.workflow.WorkflowDefinition.ConnectionDefinition;
import dev.weft.workflow.WorkflowDefinition.NodeDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads workflow JSON into a {@link WorkflowDefinition}, rejecting with {@code E_GRAPH_INVALID} and
 * a message naming the field anything that is missing, of the wrong type or unknown. Stateless.
 */
public final class WorkflowParser {
    private static final Set<String> WORKFLOW_FIELDS =
            Set.of("id", "name", "description", "variables", "nodes", "connections");
    private static final Set<String> NODE_FIELDS =
            Set.of("id", "type", "name", "config", "position", "description", "queued");
    private static final Set<String> CONNECTION_FIELDS =
            Set.of("source", "target", "sourceHandle", "targetHandle", "id", "label");

    private WorkflowParser() {}

    public static WorkflowDefinition read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new GraphInvalidException(file + ": no such file");
        } catch (IOException e) {
            throw new GraphInvalidException(file + ": cannot be read: " + e.getMessage());
        }
        return parse(text, file.getFileName().toString());
    }

    /** Parses workflow JSON; {@code source} names it in error messages. */
    public static WorkflowDefinition parse(String json, String source) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new GraphInvalidException(source + ": malformed JSON: " + Json.describe(e));
        }
        if (root == null || !root.isObject()) {
            throw new GraphInvalidException(source + ": a workflow must be a JSON object");
        }
        return fromJson(root, source);
    }

    public static WorkflowDefinition fromJson(JsonNode root, String source) {
        List<String> problems = new ArrayList<>();
        unknownFields(root, WORKFLOW_FIELDS, "", problems);
        String id = text(root, "id", "", problems);

        Map<String, JsonNode> variables = new LinkedHashMap<>();
        JsonNode vars = root.get("variables");
        if (vars != null && !vars.isNull()) {
            if (!vars.isObject()) {
                problems.add("variables: must be an object");
            } else {
                vars.properties().forEach(e -> variables.put(e.getKey(), e.getValue()));
            }
        }

        List<NodeDefinition> nodes = new ArrayList<>();
        JsonNode nodeArray = root.get("nodes");
        if (nodeArray == null || !nodeArray.isArray()) {
            problems.add("nodes: " + (nodeArray == null ? "missing field" : "must be an array"));
        } else {
            for (int i = 0; i < nodeArray.size(); i++) {
                JsonNode node = nodeArray.get(i);
                String where = "nodes[" + i + "]";
                if (!node.isObject()) {
                    problems.add(where + ": must be an object");
                    continue;
                }
                int before = problems.size();
                unknownFields(node, NODE_FIELDS, where + ".", problems);
                String nodeId = text(node, "id", where + ".", problems);
                String label = nodeId == null ? where : "node '" + nodeId + "'";
                String type = text(node, "type", label + ": ", problems);
                JsonNode nameNode = node.get("name");
                String name = nodeId;
                if (nameNode != null && !nameNode.isNull()) {
                    if (!nameNode.isTextual() || nameNode.asText().isBlank()) {
                        problems.add(label + ": name must be a non-empty string");
                    } else {
                        name = nameNode.asText();
                    }
                }
                JsonNode config = node.get("config");
                ObjectNode configObject = Json.object();
                if (config != null && !config.isNull()) {
                    if (!config.isObject()) {
                        problems.add(label + ": config must be an object");
                    } else {
                        configObject = (ObjectNode) config;
                    }
                }
                JsonNode queued = node.get("queued");
                if (queued != null && !queued.isNull()) {
                    if (!queued.isBoolean()) {
                        problems.add(label + ": queued must be true or false");
                    } else if (configObject.has("queued")
                            && !configObject.get("queued").equals(queued)) {
                        problems.add(label + ": queued is " + queued + " but config.queued is "
                                + configObject.get("queued") + "; say it once");
                    } else if (queued.asBoolean()) {
                        // Kept in the configuration, where the compiler reads it and a stored definition keeps it.
                        configObject = configObject.deepCopy().put("queued", true);
                    }
                }
                if (problems.size() == before && nodeId != null && type != null && name != null) {
                    nodes.add(new NodeDefinition(nodeId, type, name, configObject));
                }
            }
        }

        List<ConnectionDefinition> connections = new ArrayList<>();
        JsonNode connectionArray = root.get("connections");
        if (connectionArray != null && !connectionArray.isNull() && !connectionArray.isArray()) {
            problems.add("connections: must be an array");
        } else if (connectionArray != null && connectionArray.isArray()) {
            for (int i = 0; i < connectionArray.size(); i++) {
                JsonNode connection = connectionArray.get(i);
                String where = "connections[" + i + "]";
                if (!connection.isObject()) {
                    problems.add(where + ": must be an object");
                    continue;
                }
                int before = problems.size();
                unknownFields(connection, CONNECTION_FIELDS, where + ".", problems);
                String from = text(connection, "source", where + ".", problems);
                String to = text(connection, "target", where + ".", problems);
                String handle = Graph.OUTPUT;
                JsonNode handleNode = connection.get("sourceHandle");
                if (handleNode != null && !handleNode.isNull()) {
                    if (!handleNode.isTextual() || handleNode.asText().isBlank()) {
                        problems.add(where + ".sourceHandle: must be a non-empty string");
                    } else {
                        handle = handleNode.asText();
                    }
                }
                if (problems.size() == before && from != null && to != null) {
                    connections.add(new ConnectionDefinition(from, to, handle));
                }
            }
        }
        if (!problems.isEmpty()) {
            List<String> named = problems.stream().map(p -> source + ": " + p).toList();
            throw new GraphInvalidException(named);
        }
        return new WorkflowDefinition(id, variables, nodes, connections);
    }

    private static @Nullable String text(JsonNode node, String field, String where, List<String> problems) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            problems.add(where + field + ": missing field");
            return null;
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            problems.add(where + field + ": must be a non-empty string");
            return null;
        }
        return value.asText();
    }

    private static void unknownFields(JsonNode node, Set<String> known, String where, List<String> problems) {
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!known.contains(name)) {
                problems.add(where + name + ": unknown field (known: "
                        + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }
}
