package dev.weft.mailflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Graph;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A workflow template as seed 003 stores it: {@code workflow_nodes}, {@code workflow_tools}, {@code
 * workflow_connections} (source and target node, source and target handle) and global variables. As
 * JSON (what {@code template export} prints and {@code import} reads): {@code {"id", "name",
 * "variables", "nodes": [{id, type, name, config}], "tools": [{id, type, name, config}],
 * "connections": [{source, target, sourceHandle, targetHandle}]}}. Immutable.
 */
public record Template(
        String id,
        String name,
        Map<String, JsonNode> variables,
        List<Item> nodes,
        List<Item> tools,
        List<Connection> connections) {

    public Template {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        variables = Map.copyOf(variables);
        nodes = List.copyOf(nodes);
        tools = List.copyOf(tools);
        connections = List.copyOf(connections);
    }

    /** A node or a tool: its id (unique in the template), its type, its name (the key of its output) and its configuration. */
    public record Item(String id, String type, String name, ObjectNode config) {
        public Item {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(config, "config");
        }
    }

    /** A connection: taken when {@code source} routes by {@code sourceHandle}; {@code targetHandle} is kept as seed 003 keeps it. */
    public record Connection(String source, String target, String sourceHandle, String targetHandle) {
        public Connection {
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(sourceHandle, "sourceHandle");
            Objects.requireNonNull(targetHandle, "targetHandle");
        }
    }

    /** The same template under another id (a venue's own copy). */
    public Template withId(String newId) {
        return new Template(newId, name, variables, nodes, tools, connections);
    }

    public ObjectNode toJson() {
        ObjectNode root = Json.object();
        root.put("id", id);
        root.put("name", name);
        ObjectNode vars = root.putObject("variables");
        variables.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> vars.set(e.getKey(), e.getValue()));
        items(root.putArray("nodes"), nodes);
        items(root.putArray("tools"), tools);
        ArrayNode links = root.putArray("connections");
        for (Connection c : connections) {
            links.addObject()
                    .put("source", c.source())
                    .put("target", c.target())
                    .put("sourceHandle", c.sourceHandle())
                    .put("targetHandle", c.targetHandle());
        }
        return root;
    }

    private static void items(ArrayNode array, List<Item> items) {
        for (Item item : items) {
            array.addObject()
                    .put("id", item.id())
                    .put("type", item.type())
                    .put("name", item.name())
                    .set("config", item.config());
        }
    }

    private static final Set<String> ROOT_FIELDS =
            Set.of("id", "name", "description", "variables", "nodes", "tools", "connections");
    private static final Set<String> ITEM_FIELDS = Set.of("id", "type", "name", "config", "position", "description");
    private static final Set<String> CONNECTION_FIELDS =
            Set.of("source", "target", "sourceHandle", "targetHandle", "id");

    /**
     * Reads template JSON; {@code source} names it in errors.
     *
     * @throws GraphInvalidException listing every field that is missing, of the wrong type or unknown
     */
    public static Template parse(String json, String source) {
        JsonNode root;
        try {
            root = Json.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new GraphInvalidException(source + ": malformed JSON: " + Json.describe(e));
        }
        return fromJson(root, source);
    }

    public static Template fromJson(JsonNode root, String source) {
        if (root == null || !root.isObject()) {
            throw new GraphInvalidException(source + ": a template must be a JSON object");
        }
        List<String> problems = new ArrayList<>();
        unknown(root, ROOT_FIELDS, "", problems);
        String id = text(root, "id", "", problems);
        String name = root.path("name").isTextual() ? root.path("name").asText() : (id == null ? "" : id);
        Map<String, JsonNode> variables = new LinkedHashMap<>();
        JsonNode vars = root.get("variables");
        if (vars != null && !vars.isNull()) {
            if (!vars.isObject()) {
                problems.add("variables: must be an object");
            } else {
                vars.properties().forEach(e -> variables.put(e.getKey(), e.getValue()));
            }
        }
        List<Item> nodes = items(root, "nodes", true, problems);
        List<Item> tools = items(root, "tools", false, problems);
        List<Connection> connections = new ArrayList<>();
        JsonNode links = root.get("connections");
        if (links != null && !links.isNull()) {
            if (!links.isArray()) {
                problems.add("connections: must be an array");
            } else {
                for (int i = 0; i < links.size(); i++) {
                    JsonNode link = links.get(i);
                    String where = "connections[" + i + "]";
                    if (!link.isObject()) {
                        problems.add(where + ": must be an object");
                        continue;
                    }
                    int before = problems.size();
                    unknown(link, CONNECTION_FIELDS, where + ".", problems);
                    String from = text(link, "source", where + ".", problems);
                    String to = text(link, "target", where + ".", problems);
                    String handle = optionalText(link, "sourceHandle", Graph.OUTPUT, where, problems);
                    String targetHandle = optionalText(link, "targetHandle", "input", where, problems);
                    if (problems.size() == before) {
                        connections.add(new Connection(from, to, handle, targetHandle));
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new GraphInvalidException(
                    problems.stream().map(p -> source + ": " + p).toList());
        }
        return new Template(id, name, variables, nodes, tools, connections);
    }

    private static List<Item> items(JsonNode root, String field, boolean required, List<String> problems) {
        List<Item> items = new ArrayList<>();
        JsonNode array = root.get(field);
        if (array == null || array.isNull()) {
            if (required) {
                problems.add(field + ": missing field");
            }
            return items;
        }
        if (!array.isArray()) {
            problems.add(field + ": must be an array");
            return items;
        }
        for (int i = 0; i < array.size(); i++) {
            JsonNode item = array.get(i);
            String where = field + "[" + i + "]";
            if (!item.isObject()) {
                problems.add(where + ": must be an object");
                continue;
            }
            int before = problems.size();
            unknown(item, ITEM_FIELDS, where + ".", problems);
            String itemId = text(item, "id", where + ".", problems);
            String type = text(item, "type", where + ".", problems);
            String itemName = optionalText(item, "name", itemId == null ? "" : itemId, where, problems);
            JsonNode config = item.get("config");
            ObjectNode configObject = Json.object();
            if (config != null && !config.isNull()) {
                if (!config.isObject()) {
                    problems.add(where + ".config: must be an object");
                } else {
                    configObject = (ObjectNode) config;
                }
            }
            if (problems.size() == before) {
                items.add(new Item(itemId, type, itemName, configObject));
            }
        }
        return items;
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

    private static String optionalText(
            JsonNode node, String field, String otherwise, String where, List<String> problems) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return otherwise;
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            problems.add(where + "." + field + ": must be a non-empty string");
            return otherwise;
        }
        return value.asText();
    }

    private static void unknown(JsonNode node, Set<String> known, String where, List<String> problems) {
        for (String name : (Iterable<String>) node::fieldNames) {
            if (!known.contains(name)) {
                problems.add(where + name + ": unknown field (known: "
                        + String.join(", ", known.stream().sorted().toList()) + ")");
            }
        }
    }
}
