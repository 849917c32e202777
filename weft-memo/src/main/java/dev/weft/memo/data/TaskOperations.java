package dev.weft.memo.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.WeftException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Seed 002's {@code taskOperations}, each in one transaction over one user's tasks. Results hold the
 * tasks touched ({@code task}, {@code tasks}), and what an undo needs: the tasks as they were before
 * ({@code previous}) or the tasks removed ({@code deleted}). Completing a reminder deletes it (seed
 * 002's V1 rule); completing a plain task marks it done. Thread-safe.
 */
public final class TaskOperations {
    /** Every operation, as seed 002 names them, and {@code restore} (an undo's). */
    public static final List<String> OPERATIONS = List.of(
            "create",
            "createMultiple",
            "get",
            "getAll",
            "update",
            "updateMultiple",
            "delete",
            "deleteMultiple",
            "deleteAll",
            "updateAll",
            "complete",
            "completeAll",
            "addSubtask",
            "restore");

    /** The operations that remove or change many tasks at once, which a person approves first. */
    public static final Set<String> BULK_DELETES = Set.of("deleteMultiple", "deleteAll");

    private final Tasks tasks;

    public TaskOperations(MemoData data) {
        this.tasks = data.tasks();
    }

    /**
     * The tasks a call with {@code args} would change or delete, read without changing anything: what a
     * question before the call names ("This will delete your 3 reminders: …"). Empty for a call that
     * only adds or reads, or names tasks the user does not have.
     */
    public List<Task> touched(ObjectNode args, OperationContext context) {
        String user = context.user();
        return tasks.db().read("tasks a call would change", c -> {
            List<Task> found = new ArrayList<>();
            switch (args.path("operation").asText("")) {
                case "delete", "complete", "update" ->
                    Tasks.find(c, user, args.path("taskId").asText("")).ifPresent(found::add);
                case "deleteMultiple" -> {
                    for (JsonNode id : args.path("taskIds")) {
                        Tasks.find(c, user, id.asText()).ifPresent(found::add);
                    }
                }
                case "deleteAll", "updateAll" -> found.addAll(matchingWhere(c, args.path("where"), context));
                case "completeAll" -> {
                    JsonNode where = args.has("where") ? args.get("where") : args.path("filters");
                    matchingWhere(c, where, context).stream()
                            .filter(t -> !t.completed())
                            .forEach(found::add);
                }
                default -> {}
            }
            return found;
        });
    }

    /**
     * Performs {@code args.operation} for {@code context}'s user.
     *
     * @throws NotFoundException ({@code E_NOT_FOUND}) for a task id the user does not have
     * @throws WeftException {@code E_ARGS_INVALID} for arguments the operation cannot use
     */
    public ObjectNode apply(ObjectNode args, OperationContext context) {
        String operation = args.path("operation").asText("");
        String user = context.user();
        return switch (operation) {
            case "get" ->
                tasks.db().read("get a task", c -> {
                    ObjectNode out = Json.object();
                    out.set("task", require(c, user, text(args, "taskId")).toJson());
                    return out;
                });
            case "getAll" ->
                tasks.db().read("list tasks", c -> {
                    JsonNode filters = args.path("filters");
                    Optional<DueWindow> span = DueWindow.of(filters, context);
                    ArrayNode listed = Json.mapper().createArrayNode();
                    for (Task t : Tasks.all(c, user)) {
                        if (!matchesFilters(t, filters, context)) {
                            continue;
                        }
                        if (span.isEmpty()) {
                            listed.add(t.toJson());
                        } else {
                            ReminderTimes.dueBetween(
                                            t,
                                            context.zone(),
                                            span.get().from(),
                                            span.get().to())
                                    .ifPresent(at -> listed.add(t.toJsonDueAt(at, context.zone())));
                        }
                    }
                    ObjectNode out = Json.object();
                    out.set("tasks", listed);
                    out.put("count", listed.size());
                    return out;
                });
            default -> tasks.db().write(operation + " tasks", c -> write(c, operation, args, context));
        };
    }

    private ObjectNode write(Connection c, String operation, ObjectNode args, OperationContext context)
            throws SQLException {
        String user = context.user();
        switch (operation) {
            case "create" -> {
                Task task = Tasks.insert(c, user, newTask(args, context, 0, Optional.empty()));
                ObjectNode out = Json.object();
                out.set("task", task.toJson());
                return out;
            }
            case "createMultiple" -> {
                JsonNode list = args.path("tasks");
                if (!list.isArray() || list.isEmpty()) {
                    throw invalid("createMultiple needs 'tasks', a non-empty array of tasks");
                }
                List<Task> made = new ArrayList<>();
                for (int i = 0; i < list.size(); i++) {
                    if (!list.get(i).isObject()) {
                        throw invalid("tasks[" + i + "] must be an object with 'text'");
                    }
                    made.add(Tasks.insert(c, user, newTask((ObjectNode) list.get(i), context, i, Optional.empty())));
                }
                return tasksResult(made, "tasks");
            }
            case "addSubtask" -> {
                Task parent = require(c, user, text(args, "taskId"));
                Task task = Tasks.insert(c, user, newTask(args, context, 0, Optional.of(parent.id())));
                ObjectNode out = Json.object();
                out.set("task", task.toJson());
                return out;
            }
            case "update" -> {
                Task old = require(c, user, text(args, "taskId"));
                Task changed = patched(old, args, context);
                Tasks.update(c, user, changed);
                ObjectNode out = Json.object();
                out.set("task", changed.toJson());
                out.set("previous", array(List.of(old)));
                return out;
            }
            case "updateMultiple" -> {
                JsonNode updates = args.path("updates");
                if (!updates.isArray() || updates.isEmpty()) {
                    throw invalid("updateMultiple needs 'updates', a non-empty array of {taskId, …fields}");
                }
                List<Task> before = new ArrayList<>();
                List<Task> after = new ArrayList<>();
                for (JsonNode update : updates) {
                    Task old = require(c, user, text(update, "taskId"));
                    Task changed = patched(old, update, context);
                    Tasks.update(c, user, changed);
                    before.add(old);
                    after.add(changed);
                }
                ObjectNode out = tasksResult(after, "tasks");
                out.set("previous", array(before));
                return out;
            }
            case "updateAll" -> {
                JsonNode patch = args.path("patch");
                if (!patch.isObject() || patch.isEmpty()) {
                    throw invalid("updateAll needs 'patch', the fields to change");
                }
                List<Task> before = matchingWhere(c, args.path("where"), context);
                List<Task> after = new ArrayList<>();
                for (Task old : before) {
                    Task changed = patched(old, patch, context);
                    Tasks.update(c, user, changed);
                    after.add(changed);
                }
                ObjectNode out = tasksResult(after, "tasks");
                out.set("previous", array(before));
                return out;
            }
            case "delete" -> {
                return deleted(c, user, List.of(require(c, user, text(args, "taskId"))));
            }
            case "deleteMultiple" -> {
                JsonNode ids = args.path("taskIds");
                if (!ids.isArray() || ids.isEmpty()) {
                    throw invalid("deleteMultiple needs 'taskIds', a non-empty array of ids");
                }
                List<Task> gone = new ArrayList<>();
                for (JsonNode id : ids) {
                    gone.add(require(c, user, id.asText()));
                }
                return deleted(c, user, gone);
            }
            case "deleteAll" -> {
                return deleted(c, user, matchingWhere(c, args.path("where"), context));
            }
            case "complete" -> {
                return completed(c, context, List.of(require(c, user, text(args, "taskId"))));
            }
            case "completeAll" -> {
                JsonNode where = args.has("where") ? args.get("where") : args.path("filters");
                List<Task> open = new ArrayList<>();
                for (Task t : matchingWhere(c, where, context)) {
                    if (!t.completed()) {
                        open.add(t);
                    }
                }
                return completed(c, context, open);
            }
            case "restore" -> {
                JsonNode list = args.path("tasks");
                if (!list.isArray()) {
                    throw invalid("restore needs 'tasks', the tasks as they were");
                }
                List<Task> restored = new ArrayList<>();
                for (JsonNode node : list) {
                    Task task = fromJson(node, context);
                    Tasks.upsert(c, user, task);
                    restored.add(task);
                }
                return tasksResult(restored, "tasks");
            }
            default ->
                throw invalid("unknown task operation '" + operation + "'; one of " + String.join(", ", OPERATIONS));
        }
    }

    private static ObjectNode deleted(Connection c, String user, List<Task> chosen) throws SQLException {
        Map<String, Task> gone = new LinkedHashMap<>();
        List<Task> all = Tasks.all(c, user);
        for (Task task : chosen) {
            gone.put(task.id(), task);
            for (Task sub : all) {
                if (sub.parentId().equals(Optional.of(task.id()))) {
                    gone.put(sub.id(), sub);
                }
            }
        }
        Tasks.delete(c, user, gone.keySet());
        ObjectNode out = Json.object();
        out.set("deleted", array(List.copyOf(gone.values())));
        out.put("count", chosen.size());
        return out;
    }

    /** Completes {@code chosen}: a reminder is deleted, a plain task marked done. */
    private static ObjectNode completed(Connection c, OperationContext context, List<Task> chosen) throws SQLException {
        List<Task> done = new ArrayList<>();
        List<Task> removed = new ArrayList<>();
        for (Task task : chosen) {
            if (task.isReminder()) {
                removed.add(task);
            } else {
                Task marked = task.with(
                        task.text(),
                        task.category(),
                        task.dueDate(),
                        task.dueAt(),
                        task.reminder(),
                        task.reminderRecurrence(),
                        task.reminderDetails(),
                        true,
                        context.now());
                Tasks.update(c, context.user(), marked);
                done.add(marked);
            }
        }
        Tasks.delete(c, context.user(), removed.stream().map(Task::id).toList());
        ObjectNode out = tasksResult(done, "tasks");
        out.set("deleted", array(removed));
        out.set("previous", array(chosen));
        return out;
    }

    private static Task require(Connection c, String user, String id) throws SQLException {
        return Tasks.find(c, user, id).orElseThrow(() -> new NotFoundException("no task '" + id + "'"));
    }

    private static Task newTask(ObjectNode args, OperationContext context, int index, Optional<String> parent) {
        String text = args.path("text").asText("").trim();
        if (text.isEmpty()) {
            throw invalid("a task needs 'text'");
        }
        Optional<DueDates.Due> due =
                optionalText(args, "dueDate").map(d -> DueDates.parse("dueDate", d, context.zone()));
        return new Task(
                context.newId("t-", index),
                parent,
                text,
                optionalText(args, "category"),
                due.map(DueDates.Due::text),
                due.map(DueDates.Due::at),
                optionalText(args, "reminder"),
                optionalObject(args, "reminderRecurrence"),
                optionalObject(args, "reminderDetails"),
                false,
                context.now(),
                context.now());
    }

    /** {@code old} with the fields {@code patch} gives; a JSON null clears an optional field. */
    private static Task patched(Task old, JsonNode patch, OperationContext context) {
        String text = patch.has("text") ? patch.get("text").asText().trim() : old.text();
        if (text.isEmpty()) {
            throw invalid("a task's 'text' cannot be empty");
        }
        Optional<String> dueDate = old.dueDate();
        Optional<Instant> dueAt = old.dueAt();
        if (patch.has("dueDate")) {
            if (patch.get("dueDate").isNull()) {
                dueDate = Optional.empty();
                dueAt = Optional.empty();
            } else {
                DueDates.Due due =
                        DueDates.parse("dueDate", patch.get("dueDate").asText(), context.zone());
                dueDate = Optional.of(due.text());
                dueAt = Optional.of(due.at());
            }
        }
        return old.with(
                text,
                patch.has("category") ? optionalText(patch, "category") : old.category(),
                dueDate,
                dueAt,
                patch.has("reminder") ? optionalText(patch, "reminder") : old.reminder(),
                patch.has("reminderRecurrence")
                        ? optionalObject(patch, "reminderRecurrence")
                        : old.reminderRecurrence(),
                patch.has("reminderDetails") ? optionalObject(patch, "reminderDetails") : old.reminderDetails(),
                patch.has("completed") ? patch.get("completed").asBoolean() : old.completed(),
                context.now());
    }

    private static Task fromJson(JsonNode node, OperationContext context) {
        if (!node.isObject() || !node.path("id").isTextual()) {
            throw invalid("a task to restore needs its 'id'");
        }
        Optional<DueDates.Due> due =
                optionalText(node, "dueDate").map(d -> DueDates.parse("dueDate", d, context.zone()));
        return new Task(
                node.get("id").asText(),
                optionalText(node, "parentId"),
                node.path("text").asText(),
                optionalText(node, "category"),
                due.map(DueDates.Due::text),
                due.map(DueDates.Due::at),
                optionalText(node, "reminder"),
                optionalObject(node, "reminderRecurrence"),
                optionalObject(node, "reminderDetails"),
                node.path("completed").asBoolean(false),
                instant(node, "createdAt", context.now()),
                context.now());
    }

    /** The user's tasks a bulk operation's {@code where} picks: a window, a type, a recurrence type. */
    private static List<Task> matchingWhere(Connection c, JsonNode where, OperationContext context)
            throws SQLException {
        List<Task> found = new ArrayList<>();
        for (Task task : Tasks.all(c, context.user())) {
            if (matchesWhere(task, where, context)) {
                found.add(task);
            }
        }
        return found;
    }

    static boolean matchesWhere(Task task, JsonNode where, OperationContext context) {
        String window = where.path("window").asText("all");
        if (!window.equals("all") && !inWindow(task, window, context)) {
            return false;
        }
        if (where.has("type") && !isOfType(task, where.get("type").asText())) {
            return false;
        }
        for (JsonNode kept : where.path("exceptText")) {
            // What the request keeps out ("…but keep the one about the bank") is never touched.
            if (!dev.weft.language.EntityMatch.best(kept.asText(), List.of(task), Task::text)
                    .isEmpty()) {
                return false;
            }
        }
        if (where.has("reminderRecurrence")) {
            String type = where.get("reminderRecurrence").isObject()
                    ? where.get("reminderRecurrence").path("type").asText()
                    : where.get("reminderRecurrence").asText();
            return task.reminderRecurrence()
                    .map(r -> r.path("type").asText().equals(type))
                    .orElse(false);
        }
        return true;
    }

    static boolean matchesFilters(Task task, JsonNode filters, OperationContext context) {
        if (filters.has("completed")
                && task.completed() != filters.get("completed").asBoolean()) {
            return false;
        }
        if (filters.has("category")
                && !task.category()
                        .map(c -> c.equalsIgnoreCase(filters.get("category").asText()))
                        .orElse(false)) {
            return false;
        }
        String window = filters.path("window").asText("");
        if (!window.isEmpty() && !DueWindow.TIMED_WINDOWS.contains(window) && !inWindow(task, window, context)) {
            return false;
        }
        // A window a time falls in (today, this week, from one date to another) is read by DueWindow.
        return !filters.has("type") || isOfType(task, filters.get("type").asText());
    }

    /**
     * The stretch of time a listing's filters ask about, from (inclusive) to (exclusive): its {@code
     * window} ({@code today}, {@code tomorrow}, {@code this_week}, {@code upcoming}) narrowed by
     * {@code dueDateFrom}/{@code dueDateTo} (a date alone counts whole). A task is listed when it falls
     * due in it, a recurring reminder when any of its times does.
     */
    record DueWindow(Instant from, Instant to) {
        static final Set<String> TIMED_WINDOWS = Set.of("today", "tomorrow", "this_week", "upcoming");

        static Optional<DueWindow> of(JsonNode filters, OperationContext context) {
            String window = filters.path("window").asText("");
            boolean timed = TIMED_WINDOWS.contains(window);
            if (!timed && !filters.has("dueDateFrom") && !filters.has("dueDateTo")) {
                return Optional.empty();
            }
            ZonedDateTime today =
                    context.now().atZone(context.zone()).toLocalDate().atStartOfDay(context.zone());
            Instant from = switch (window) {
                case "today", "this_week" -> today.toInstant();
                case "tomorrow" -> today.plusDays(1).toInstant();
                case "upcoming" -> context.now();
                default -> Instant.EPOCH;
            };
            Instant to = switch (window) {
                case "today" -> today.plusDays(1).toInstant();
                case "tomorrow" -> today.plusDays(2).toInstant();
                case "this_week" -> today.plusDays(7).toInstant();
                default -> UNBOUNDED;
            };
            if (filters.has("dueDateFrom")) {
                Instant asked = DueDates.parse(
                                "filters.dueDateFrom",
                                filters.get("dueDateFrom").asText(),
                                context.zone())
                        .at();
                from = asked.isAfter(from) ? asked : from;
            }
            if (filters.has("dueDateTo")) {
                DueDates.Due asked = DueDates.parse(
                        "filters.dueDateTo", filters.get("dueDateTo").asText(), context.zone());
                Instant end = asked.allDay()
                        ? LocalDate.parse(asked.text())
                                .plusDays(1)
                                .atStartOfDay(context.zone())
                                .toInstant()
                        : asked.at().plusMillis(1);
                to = end.isBefore(to) ? end : to;
            }
            return Optional.of(new DueWindow(from, to));
        }
    }

    /** Beyond any due date a person sets: the open end of "upcoming" and of a listing from a date on. */
    private static final Instant UNBOUNDED = Instant.parse("9999-12-31T00:00:00Z");

    /**
     * Whether {@code task} falls in {@code window}, in the user's zone: {@code today}, {@code tomorrow},
     * {@code this_week} (today and the six days after it), {@code overdue} (due before now and not
     * done), {@code upcoming} (due from now on).
     */
    static boolean inWindow(Task task, String window, OperationContext context) {
        if (task.dueAt().isEmpty()) {
            return false;
        }
        Instant due = task.dueAt().get();
        ZonedDateTime today = context.now().atZone(context.zone()).toLocalDate().atStartOfDay(context.zone());
        return switch (window) {
            case "today" ->
                !due.isBefore(today.toInstant())
                        && due.isBefore(today.plusDays(1).toInstant());
            case "tomorrow" ->
                !due.isBefore(today.plusDays(1).toInstant())
                        && due.isBefore(today.plusDays(2).toInstant());
            case "this_week" ->
                !due.isBefore(today.toInstant())
                        && due.isBefore(today.plusDays(7).toInstant());
            case "overdue" -> due.isBefore(context.now()) && !task.completed();
            case "upcoming" -> !due.isBefore(context.now());
            case "all" -> true;
            default ->
                throw invalid("unknown window '" + window + "'; one of today, tomorrow, this_week, overdue, upcoming");
        };
    }

    private static boolean isOfType(Task task, String type) {
        return switch (type) {
            case "recurring" -> task.reminderRecurrence().isPresent();
            case "unplanned" -> task.dueAt().isEmpty() && !task.isReminder();
            case "reminder" -> task.isReminder();
            default -> throw invalid("unknown task type '" + type + "'; one of recurring, unplanned, reminder");
        };
    }

    private static ObjectNode tasksResult(List<Task> found, String field) {
        ObjectNode out = Json.object();
        out.set(field, array(found));
        out.put("count", found.size());
        return out;
    }

    private static ArrayNode array(List<Task> tasks) {
        ArrayNode array = Json.mapper().createArrayNode();
        tasks.forEach(t -> array.add(t.toJson()));
        return array;
    }

    private static String text(JsonNode args, String field) {
        JsonNode value = args.path(field);
        if (!value.isTextual() || value.asText().isBlank()) {
            throw invalid("'" + field + "' is required for this operation");
        }
        return value.asText();
    }

    private static Optional<String> optionalText(JsonNode args, String field) {
        JsonNode value = args.path(field);
        return value.isTextual() && !value.asText().isBlank() ? Optional.of(value.asText()) : Optional.empty();
    }

    private static Optional<JsonNode> optionalObject(JsonNode args, String field) {
        JsonNode value = args.path(field);
        return value.isObject() && !value.isEmpty() ? Optional.of(value.deepCopy()) : Optional.empty();
    }

    private static Instant instant(JsonNode node, String field, Instant otherwise) {
        try {
            return node.path(field).isTextual() ? Instant.parse(node.get(field).asText()) : otherwise;
        } catch (java.time.format.DateTimeParseException e) {
            return otherwise;
        }
    }

    static WeftException invalid(String message) {
        return new WeftException(ErrorCode.E_ARGS_INVALID, message);
    }
}
