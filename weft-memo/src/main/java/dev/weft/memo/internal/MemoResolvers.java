package dev.weft.memo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.memo.MemoTools;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Task;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.plan.ResolverRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Memo's offline resolvers (seed 002): tasks and lists turned into {@code taskOperations} and {@code
 * listOperations} calls, the user's words looked up among their own tasks and lists (several matches
 * → a numbered question in their language; none → {@code E_NOT_FOUND}), and the conversational and
 * help answers. Thread-safe.
 */
public final class MemoResolvers {
    public static final String RESPOND = "respond";

    private final MemoData data;

    public MemoResolvers(MemoData data) {
        this.data = data;
    }

    public ResolverRegistry registry() {
        return ResolverRegistry.of(new TaskResolver(), new ListResolver(), new GeneralResolver(), new MetaResolver());
    }

    static String language(ResolveContext context) {
        return context.input().path("language").asText("en");
    }

    /** The chosen option of a question the user answered: {@code {"choice": 2}} or a number in {@code text}. */
    static Optional<Integer> choice(ObjectNode answers) {
        if (answers.path("choice").canConvertToInt()) {
            return Optional.of(answers.get("choice").asInt());
        }
        String text = answers.path("text").asText("").trim();
        return text.matches("\\d{1,2}") ? Optional.of(Integer.parseInt(text)) : Optional.empty();
    }

    /** One of {@code found} for the user's words: the only one, the one they chose, or a question. */
    static <T> Object pick(
            List<T> found, ResolveContext context, String what, java.util.function.Function<T, String> label) {
        String language = language(context);
        if (found.isEmpty()) {
            throw new NotFoundException(Texts.of(language, "I couldn't find " + what, "לא מצאתי " + what));
        }
        Optional<Integer> chosen = choice(context.answers());
        if (found.size() == 1) {
            return found.get(0);
        }
        if (chosen.isPresent() && chosen.get() >= 1 && chosen.get() <= found.size()) {
            return found.get(chosen.get() - 1);
        }
        if (context.answers().path("text").isTextual()) {
            List<T> narrowed = EntityLookup.best(context.answers().get("text").asText(), found, label);
            if (narrowed.size() == 1) {
                return narrowed.get(0);
            }
        }
        List<String> options = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            options.add((i + 1) + ". " + label.apply(found.get(i)));
        }
        return Resolution.clarify(
                Texts.of(language, "Which one did you mean?", "למה התכוונת?"), options.toArray(String[]::new));
    }

    private static ObjectNode args(String operation) {
        ObjectNode args = Json.object();
        args.put("operation", operation);
        return args;
    }

    private static void copy(JsonNode from, ObjectNode to, String... fields) {
        for (String field : fields) {
            if (from.has(field) && !from.get(field).isNull()) {
                to.set(field, from.get(field).deepCopy());
            }
        }
    }

    /** seed 002's DatabaseTaskResolver. */
    final class TaskResolver implements Resolver {
        @Override
        public String name() {
            return "DatabaseTaskResolver";
        }

        @Override
        public String capability() {
            return "database";
        }

        @Override
        public Set<String> actions() {
            return Set.of(
                    "create_task",
                    "create_tasks",
                    "find_task",
                    "update_task",
                    "delete_task",
                    "delete_tasks",
                    "complete_task",
                    "complete_tasks");
        }

        @Override
        public Optional<String> tool(PlanStep step) {
            return Optional.of(MemoTools.TASKS);
        }

        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            JsonNode c = step.constraints();
            switch (step.action()) {
                case "create_task" -> {
                    ObjectNode args = args("create");
                    copy(c, args, "text", "category", "dueDate", "reminder", "reminderRecurrence");
                    if (args.path("text").asText("").isBlank()
                            && !context.answers().path("text").isTextual()) {
                        // Nothing to remind of: ask, and the answer becomes the text.
                        return Resolution.clarify(Texts.of(
                                language(context),
                                c.path("isReminder").asBoolean()
                                        ? "What should I remind you about?"
                                        : "What is the task?",
                                c.path("isReminder").asBoolean() ? "על מה להזכיר לך?" : "מה המשימה?"));
                    }
                    return Resolution.execute(MemoTools.TASKS, args);
                }
                case "create_tasks" -> {
                    ObjectNode args = args("createMultiple");
                    args.set("tasks", c.path("tasks").deepCopy());
                    return Resolution.execute(MemoTools.TASKS, args);
                }
                case "find_task" -> {
                    ObjectNode args = args("getAll");
                    ObjectNode filters = args.putObject("filters");
                    copy(c, filters, "window", "type", "category");
                    filters.put("completed", false);
                    return Resolution.execute(MemoTools.TASKS, args);
                }
                case "delete_tasks" -> {
                    ObjectNode args = args("deleteAll");
                    ObjectNode where = args.putObject("where");
                    where.put("window", c.path("window").asText("all"));
                    copy(c, where, "type");
                    return Resolution.execute(MemoTools.TASKS, args);
                }
                case "complete_tasks" -> {
                    ObjectNode args = args("completeAll");
                    ObjectNode where = args.putObject("where");
                    where.put("window", c.path("window").asText("all"));
                    return Resolution.execute(MemoTools.TASKS, args);
                }
                default -> {
                    return withTask(step, context, c);
                }
            }
        }

        private Resolution withTask(PlanStep step, ResolveContext context, JsonNode c) {
            String user = context.user().orElseThrow();
            String query = c.path("query").asText("");
            List<Task> tasks = data.tasks().all(user).stream()
                    .filter(t -> !step.action().equals("complete_task") || !t.completed())
                    .toList();
            String language = language(context);
            Object picked = pick(
                    EntityLookup.best(query, tasks, Task::text),
                    context,
                    Texts.of(language, "a task matching \"" + query + "\"", "משימה שמתאימה ל\"" + query + "\""),
                    Task::text);
            if (picked instanceof Resolution question) {
                return question;
            }
            Task task = (Task) picked;
            ObjectNode args = args(
                    switch (step.action()) {
                        case "update_task" -> "update";
                        case "delete_task" -> "delete";
                        default -> "complete";
                    });
            args.put("taskId", task.id());
            if (step.action().equals("update_task")) {
                copy(c, args, "dueDate", "text", "reminder", "reminderRecurrence");
            }
            return Resolution.execute(MemoTools.TASKS, args);
        }
    }

    /** seed 002's DatabaseListResolver. */
    final class ListResolver implements Resolver {
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
                if (!context.answers().path("text").isTextual()) {
                    return Resolution.clarify(Texts.of(
                            language, "What should I add to \"" + name + "\"?", "מה להוסיף ל\"" + name + "\"?"));
                }
                items.add(context.answers().get("text").asText());
            }
            List<ObjectNode> lists = data.lists().all(context.user().orElseThrow());
            if (step.action().equals("find_list") && name.isEmpty()) {
                return Resolution.execute(MemoTools.LISTS, args("getAll"));
            }
            List<ObjectNode> found =
                    EntityLookup.best(name, lists, l -> l.get("name").asText());
            if (found.isEmpty() && step.action().equals("add_item")) {
                // Adding to a list the user does not have yet: it is made with the items.
                ObjectNode args = args("create");
                args.put("listName", name.isEmpty() ? Texts.of(language, "list", "רשימה") : name);
                args.set("items", items);
                args.put("isChecklist", true);
                return Resolution.execute(MemoTools.LISTS, args);
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
                            EntityLookup.best(item, onList, i -> i.path("text").asText()),
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

    /** seed 002's GeneralResolver, offline: a short, honest answer in the user's language. */
    final class GeneralResolver implements Resolver {
        @Override
        public String name() {
            return "GeneralResolver";
        }

        @Override
        public String capability() {
            return "general";
        }

        @Override
        public Set<String> actions() {
            return Set.of("respond");
        }

        @Override
        public Optional<String> tool(PlanStep step) {
            return Optional.of(RESPOND);
        }

        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            ObjectNode args = Json.object();
            args.put(
                    "text",
                    Replies.conversation(step.constraints().path("message").asText(""), language(context)));
            return Resolution.execute(RESPOND, args);
        }
    }

    /** seed 002's MetaResolver: templates, no model. */
    final class MetaResolver implements Resolver {
        @Override
        public String name() {
            return "MetaResolver";
        }

        @Override
        public String capability() {
            return "meta";
        }

        @Override
        public Set<String> actions() {
            return Set.of("help", "describe_capabilities");
        }

        @Override
        public Optional<String> tool(PlanStep step) {
            return Optional.of(RESPOND);
        }

        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            ObjectNode args = Json.object();
            args.put("text", Replies.help(language(context)));
            return Resolution.execute(RESPOND, args);
        }
    }

    static ArrayNode array(List<String> values) {
        ArrayNode array = Json.mapper().createArrayNode();
        values.forEach(array::add);
        return array;
    }
}
