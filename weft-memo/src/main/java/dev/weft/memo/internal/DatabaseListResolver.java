package dev.weft.memo.internal;

import static dev.weft.memo.internal.MemoResolvers.args;
import static dev.weft.memo.internal.MemoResolvers.copy;
import static dev.weft.memo.internal.MemoResolvers.language;
import static dev.weft.memo.internal.MemoResolvers.pick;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.language.EntityMatch;
import dev.weft.memo.MemoTools;
import dev.weft.memo.data.MemoData;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Seed 002's DatabaseListResolver: lists and their items into {@code listOperations} calls, a list
 * found by its name among the user's own. Thread-safe.
 */
final class DatabaseListResolver implements Resolver {
    private final MemoData data;

    DatabaseListResolver(MemoData data) {
        this.data = data;
    }

    @Override
    public String name() {
        return "DatabaseListResolver";
    }

    @Override
    public String capability() {
        return "database";
    }

    @Override
    public Set<String> actions() {
        return Set.of(
                "create_list", "find_list", "update_list", "delete_list", "add_item", "toggle_item", "delete_item");
    }

    @Override
    public Optional<String> tool(PlanStep step) {
        return Optional.of(MemoTools.LISTS);
    }

    @Override
    public Resolution resolve(PlanStep step, ResolveContext context) {
        JsonNode c = step.constraints();
        String language = language(context);
        String name = c.path("listName").asText("");
        if (step.action().equals("create_list")) {
            ObjectNode args = args("create");
            args.put("listName", name.isEmpty() ? Texts.of(language, "list", "רשימה") : name);
            copy(c, args, "items", "isChecklist", "content");
            return Resolution.execute(MemoTools.LISTS, args);
        }
        ArrayNode items = c.path("items").isArray()
                ? c.get("items").deepCopy()
                : Json.mapper().createArrayNode();
        if (step.action().equals("add_item") && items.isEmpty()) {
            if (MemoResolvers.reply(context).isEmpty()) {
                return Resolution.clarify(
                        Texts.of(language, "What should I add to \"" + name + "\"?", "מה להוסיף ל\"" + name + "\"?"));
            }
            items.add(MemoResolvers.reply(context).get());
        }
        List<ObjectNode> lists = data.lists().all(context.user().orElseThrow());
        if (step.action().equals("find_list") && name.isEmpty()) {
            return Resolution.execute(MemoTools.LISTS, args("getAll"));
        }
        List<ObjectNode> found =
                EntityMatch.best(name, lists, l -> l.get("name").asText());
        if (found.isEmpty() && step.action().equals("add_item")) {
            // Adding to a list the user does not have yet: it is made with the items.
            ObjectNode args = args("create");
            args.put("listName", name.isEmpty() ? Texts.of(language, "list", "רשימה") : name);
            args.set("items", items);
            args.put("isChecklist", true);
            return Resolution.execute(MemoTools.LISTS, args);
        }
        if (name.isBlank()) {
            throw new dev.weft.core.NotFoundException(Texts.of(
                    language,
                    "I'm not sure which list you mean. Say its name, e.g. \"clear the shopping list\"",
                    "לא ברור לי איזו רשימה. אפשר לומר את השם שלה, למשל \"תנקה את רשימת הקניות\""));
        }
        Object picked = pick(
                found,
                context,
                Texts.of(language, "a list called \"" + name + "\"", "רשימה בשם \"" + name + "\""),
                l -> l.get("name").asText());
        if (picked instanceof Resolution question) {
            return question;
        }
        ObjectNode list = (ObjectNode) picked;
        String id = list.get("id").asText();
        switch (step.action()) {
            case "add_item" -> {
                ObjectNode args = args("addItem");
                args.put("listId", id);
                args.set("items", items);
                return Resolution.execute(MemoTools.LISTS, args);
            }
            case "toggle_item", "delete_item" -> {
                List<JsonNode> onList = new ArrayList<>();
                list.get("items").forEach(onList::add);
                String item = c.path("item").asText("");
                Object chosen = pick(
                        EntityMatch.best(item, onList, i -> i.path("text").asText()),
                        context,
                        Texts.of(language, "\"" + item + "\" on the list", "את \"" + item + "\" ברשימה"),
                        i -> i.path("text").asText());
                if (chosen instanceof Resolution question) {
                    return question;
                }
                ObjectNode args = args(step.action().equals("toggle_item") ? "toggleItem" : "deleteItem");
                args.put("listId", id);
                args.put("itemIndex", onList.indexOf((JsonNode) chosen) + 1);
                return Resolution.execute(MemoTools.LISTS, args);
            }
            case "delete_list" -> {
                ObjectNode args = args("delete");
                args.put("listId", id);
                return Resolution.execute(MemoTools.LISTS, args);
            }
            default -> {
                ObjectNode args = args("get");
                args.put("listId", id);
                return Resolution.execute(MemoTools.LISTS, args);
            }
        }
    }
}
