package dev.weft.memo.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Seed 002's {@code listOperations}, each in one transaction over one user's lists. {@code itemIndex}
 * counts from 1, as people do ("tick item 2"). Results hold the lists touched ({@code list}, {@code
 * lists}) and what an undo needs ({@code previous}, {@code deleted}). Thread-safe.
 */
public final class ListOperations {
    public static final List<String> OPERATIONS = List.of(
            "create",
            "createMultiple",
            "get",
            "getAll",
            "update",
            "updateMultiple",
            "delete",
            "deleteMultiple",
            "addItem",
            "toggleItem",
            "deleteItem",
            "restore");

    public static final Set<String> BULK_DELETES = Set.of("deleteMultiple");

    private final Lists lists;

    public ListOperations(MemoData data) {
        this.lists = data.lists();
    }

    /**
     * Performs {@code args.operation} for {@code context}'s user.
     *
     * @throws NotFoundException ({@code E_NOT_FOUND}) for a list id the user does not have, or an item
     *     index past the list's end
     * @throws dev.weft.core.WeftException {@code E_ARGS_INVALID} for arguments the operation cannot use
     */
    public ObjectNode apply(ObjectNode args, OperationContext context) {
        String operation = args.path("operation").asText("");
        String user = context.user();
        return switch (operation) {
            case "get" ->
                lists.db().read("get a list", c -> {
                    ObjectNode out = Json.object();
                    out.set("list", require(c, user, text(args, "listId")));
                    return out;
                });
            case "getAll" ->
                lists.db().read("list lists", c -> {
                    List<ObjectNode> found = new ArrayList<>();
                    for (ObjectNode list : Lists.all(c, user)) {
                        if (matches(list, args.path("filters"))) {
                            found.add(list);
                        }
                    }
                    return result("lists", found);
                });
            default -> lists.db().write(operation + " lists", c -> write(c, operation, args, context));
        };
    }

    private ObjectNode write(Connection c, String operation, ObjectNode args, OperationContext context)
            throws SQLException {
        String user = context.user();
        switch (operation) {
            case "create" -> {
                ObjectNode out = Json.object();
                out.set("list", Lists.insert(c, user, newList(args, context, 0)));
                return out;
            }
            case "createMultiple" -> {
                JsonNode many = args.path("lists");
                if (!many.isArray() || many.isEmpty()) {
                    throw TaskOperations.invalid("createMultiple needs 'lists', a non-empty array of lists");
                }
                List<ObjectNode> made = new ArrayList<>();
                for (int i = 0; i < many.size(); i++) {
                    made.add(Lists.insert(c, user, newList(many.get(i), context, i)));
                }
                return result("lists", made);
            }
            case "update" -> {
                ObjectNode old = require(c, user, text(args, "listId"));
                ObjectNode changed = patched(old, args, context);
                Lists.update(c, user, changed);
                return changed(changed, old);
            }
            case "updateMultiple" -> {
                JsonNode updates = args.path("updates");
                if (!updates.isArray() || updates.isEmpty()) {
                    throw TaskOperations.invalid("updateMultiple needs 'updates', a non-empty array of {listId, …}");
                }
                List<ObjectNode> before = new ArrayList<>();
                List<ObjectNode> after = new ArrayList<>();
                for (JsonNode update : updates) {
                    ObjectNode old = require(c, user, text(update, "listId"));
                    ObjectNode changed = patched(old, update, context);
                    Lists.update(c, user, changed);
                    before.add(old);
                    after.add(changed);
                }
                ObjectNode out = result("lists", after);
                out.set("previous", array(before));
                return out;
            }
            case "delete" -> {
                ObjectNode old = require(c, user, text(args, "listId"));
                Lists.delete(c, user, old.get("id").asText());
                return deleted(List.of(old));
            }
            case "deleteMultiple" -> {
                JsonNode ids = args.path("listIds");
                if (!ids.isArray() || ids.isEmpty()) {
                    throw TaskOperations.invalid("deleteMultiple needs 'listIds', a non-empty array of ids");
                }
                List<ObjectNode> gone = new ArrayList<>();
                for (JsonNode id : ids) {
                    gone.add(require(c, user, id.asText()));
                }
                for (ObjectNode list : gone) {
                    Lists.delete(c, user, list.get("id").asText());
                }
                return deleted(gone);
            }
            case "addItem" -> {
                ObjectNode old = require(c, user, text(args, "listId"));
                ObjectNode changed = old.deepCopy();
                List<String> texts = new ArrayList<>();
                args.path("items").forEach(i -> texts.add(i.asText()));
                if (texts.isEmpty()) {
                    texts.add(text(args, "itemText"));
                }
                for (String text : texts) {
                    ObjectNode item = ((ArrayNode) changed.get("items")).addObject();
                    item.put("text", text);
                    item.put("checked", false);
                }
                changed.put("updatedAt", context.now().toString());
                Lists.update(c, user, changed);
                return changed(changed, old);
            }
            case "toggleItem", "deleteItem" -> {
                ObjectNode old = require(c, user, text(args, "listId"));
                ObjectNode changed = old.deepCopy();
                ArrayNode items = (ArrayNode) changed.get("items");
                int index = args.path("itemIndex").asInt(0);
                if (index < 1 || index > items.size()) {
                    throw new NotFoundException("list '" + old.get("name").asText() + "' has no item " + index
                            + " (it has " + items.size() + ")");
                }
                if (operation.equals("toggleItem")) {
                    ObjectNode item = (ObjectNode) items.get(index - 1);
                    item.put("checked", !item.path("checked").asBoolean());
                } else {
                    items.remove(index - 1);
                }
                changed.put("updatedAt", context.now().toString());
                Lists.update(c, user, changed);
                return changed(changed, old);
            }
            case "restore" -> {
                List<ObjectNode> restored = new ArrayList<>();
                for (JsonNode list : args.path("lists")) {
                    if (!list.isObject() || !list.path("id").isTextual()) {
                        throw TaskOperations.invalid("a list to restore needs its 'id'");
                    }
                    ObjectNode copy = (ObjectNode) list.deepCopy();
                    Lists.delete(c, user, copy.get("id").asText());
                    Lists.insert(c, user, copy);
                    restored.add(copy);
                }
                return result("lists", restored);
            }
            default ->
                throw TaskOperations.invalid(
                        "unknown list operation '" + operation + "'; one of " + String.join(", ", OPERATIONS));
        }
    }

    private static ObjectNode newList(JsonNode args, OperationContext context, int index) {
        String name = args.path("listName").asText("").trim();
        if (name.isEmpty()) {
            throw TaskOperations.invalid("a list needs 'listName'");
        }
        ObjectNode list = Json.object();
        list.put("id", context.newId("l-", index));
        list.put("name", name);
        list.put("isChecklist", args.path("isChecklist").asBoolean(args.has("items")));
        if (args.path("content").isTextual()) {
            list.put("content", args.get("content").asText());
        }
        ArrayNode items = list.putArray("items");
        for (JsonNode text : args.path("items")) {
            ObjectNode item = items.addObject();
            item.put("text", text.isObject() ? text.path("text").asText() : text.asText());
            item.put("checked", text.path("checked").asBoolean(false));
        }
        list.put("createdAt", context.now().toString());
        list.put("updatedAt", context.now().toString());
        return list;
    }

    private static ObjectNode patched(ObjectNode old, JsonNode patch, OperationContext context) {
        ObjectNode changed = old.deepCopy();
        if (patch.path("listName").isTextual()
                && !patch.get("listName").asText().isBlank()) {
            changed.put("name", patch.get("listName").asText().trim());
        }
        if (patch.path("isChecklist").isBoolean()) {
            changed.put("isChecklist", patch.get("isChecklist").asBoolean());
        }
        if (patch.path("content").isTextual()) {
            changed.put("content", patch.get("content").asText());
        }
        if (patch.path("items").isArray()) {
            ArrayNode items = changed.putArray("items");
            for (JsonNode text : patch.get("items")) {
                ObjectNode item = items.addObject();
                item.put("text", text.isObject() ? text.path("text").asText() : text.asText());
                item.put("checked", text.path("checked").asBoolean(false));
            }
        }
        changed.put("updatedAt", context.now().toString());
        return changed;
    }

    private static boolean matches(ObjectNode list, JsonNode filters) {
        if (filters.path("isChecklist").isBoolean()
                && list.path("isChecklist").asBoolean()
                        != filters.get("isChecklist").asBoolean()) {
            return false;
        }
        if (filters.path("listName").isTextual()
                && !contains(list.get("name").asText(), filters.get("listName").asText())) {
            return false;
        }
        return !filters.path("content").isTextual()
                || contains(
                        list.path("content").asText(""), filters.get("content").asText());
    }

    private static boolean contains(String text, String part) {
        return text.toLowerCase(Locale.ROOT).contains(part.toLowerCase(Locale.ROOT));
    }

    private static ObjectNode require(Connection c, String user, String id) throws SQLException {
        return Lists.find(c, user, id).orElseThrow(() -> new NotFoundException("no list '" + id + "'"));
    }

    private static ObjectNode changed(ObjectNode list, ObjectNode old) {
        ObjectNode out = Json.object();
        out.set("list", list);
        out.set("previous", array(List.of(old)));
        return out;
    }

    private static ObjectNode deleted(List<ObjectNode> gone) {
        ObjectNode out = Json.object();
        out.set("deleted", array(gone));
        out.put("count", gone.size());
        return out;
    }

    private static ObjectNode result(String field, List<ObjectNode> lists) {
        ObjectNode out = Json.object();
        out.set(field, array(lists));
        out.put("count", lists.size());
        return out;
    }

    private static ArrayNode array(List<ObjectNode> lists) {
        ArrayNode array = Json.mapper().createArrayNode();
        lists.forEach(array::add);
        return array;
    }

    private static String text(JsonNode args, String field) {
        JsonNode value = args.path(field);
        if (!value.isTextual() || value.asText().isBlank()) {
            throw TaskOperations.invalid("'" + field + "' is required for this operation");
        }
        return value.asText();
    }
}
