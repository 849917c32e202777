package dev.weft.memo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.llm.Embedder;
import dev.weft.memo.data.CalendarOperations;
import dev.weft.memo.data.ListOperations;
import dev.weft.memo.data.MailOperations;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.MemoryOperations;
import dev.weft.memo.data.OperationContext;
import dev.weft.memo.data.TaskOperations;
import dev.weft.plan.Risk;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolContext;
import dev.weft.plan.ToolRegistry;
import dev.weft.plan.UndoAction;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Memo's tools over its own tables and the user's mailbox, as seed 002 names them: {@code
 * taskOperations}, {@code listOperations}, {@code calendarOperations}, {@code gmailOperations} and
 * {@code memoryOperations}. Each call acts for the run's user only (a call with
 * no user is refused with {@code E_FORBIDDEN}); bulk deletes are high-risk and wait for a person; every
 * change queues its undo (create ↔ delete, update ↔ the values before, delete ↔ restore). Thread-safe.
 */
public final class MemoTools {
    public static final String TASKS = "taskOperations";
    public static final String LISTS = "listOperations";
    public static final String CALENDAR = "calendarOperations";
    /** Seed 002's name for the email tool; it speaks IMAP and SMTP to any provider. */
    public static final String MAIL = "gmailOperations";
    /** Seed 002's second brain: memories found by their words and their meaning. */
    public static final String MEMORY = "memoryOperations";

    /**
     * The embedding model {@code WEFT_EMBEDDING_MODEL} names (the offline one by default), made once
     * it is first needed; a setting that cannot be used is reported at each use, and memories are
     * then kept and found by their words.
     */
    public static final Supplier<Embedder> ENVIRONMENT_EMBEDDER = new Supplier<>() {
        private volatile @org.jspecify.annotations.Nullable Embedder made;

        @Override
        public Embedder get() {
            Embedder embedder = made;
            if (embedder == null) {
                embedder = Embedder.fromEnvironment(System.getenv());
                made = embedder;
            }
            return embedder;
        }
    };

    private final MemoData data;
    private final TaskOperations tasks;
    private final ListOperations lists;
    private final Reminders reminders;
    private final CalendarOperations calendar;
    private final MailOperations mail;
    private final MemoryOperations memory;
    private final CalendarSync calendarSync;

    /** The tools over {@code data}; a change to a task brings its place in {@code reminders} up to date. */
    public MemoTools(MemoData data, Reminders reminders) {
        this(data, reminders, new MailOperations(data), ENVIRONMENT_EMBEDDER);
    }

    /** The same, with memories' vectors from {@code embedder} (asked for on first use). */
    public MemoTools(MemoData data, Reminders reminders, Supplier<Embedder> embedder) {
        this(data, reminders, new MailOperations(data), embedder);
    }

    /** The tools over {@code data}, the mail tool with {@code mail} (a test's server settings). */
    MemoTools(MemoData data, Reminders reminders, MailOperations mail) {
        this(data, reminders, mail, ENVIRONMENT_EMBEDDER);
    }

    private MemoTools(MemoData data, Reminders reminders, MailOperations mail, Supplier<Embedder> embedder) {
        this.data = data;
        this.reminders = reminders;
        this.tasks = new TaskOperations(data);
        this.lists = new ListOperations(data);
        this.calendar = new CalendarOperations(data);
        this.mail = mail;
        this.memory = new MemoryOperations(data, embedder);
        this.calendarSync = new CalendarSync(data, reminders, java.time.Instant::now);
    }

    /** Every tool of Memo's own data. */
    public ToolRegistry registry() {
        return ToolRegistry.of(taskTool(), listTool(), calendarTool(), mailTool(), memoryTool());
    }

    Tool memoryTool() {
        return Tool.json(
                        MEMORY,
                        "The user's second brain (seed 002's memoryOperations): store a thought, idea or fact;"
                                + " search memories by words and meaning; update, delete, summarize a project's or a"
                                + " tag's memories; get the context for a question.",
                        schema("memoryOperations.input.json"),
                        schema("memoryOperations.output.json"),
                        (args, context) -> memory.apply(args, operationContext(context)))
                .undo((args, result) -> memoryUndo(args, result))
                .build();
    }

    /** Storing ↔ deleting; an update or a delete ↔ restoring the memory as it was. */
    private static Optional<UndoAction> memoryUndo(JsonNode args, JsonNode result) {
        ObjectNode undo = Json.object();
        if (operation(args).equals("store")) {
            undo.put("operation", "delete");
            undo.put("memoryId", result.path("memory").path("id").asText());
            return Optional.of(new UndoAction(MEMORY, undo));
        }
        ArrayNode before = Json.mapper().createArrayNode();
        result.path("previous").forEach(before::add);
        result.path("deleted").forEach(before::add);
        if (before.isEmpty()) {
            return Optional.empty();
        }
        undo.put("operation", "restore");
        undo.set("memories", before);
        return Optional.of(new UndoAction(MEMORY, undo));
    }

    Tool mailTool() {
        return Tool.json(
                        MAIL,
                        "Email on the user's own IMAP/SMTP account (seed 002's gmailOperations): search, read,"
                                + " compose, send, reply, forward, label, archive, delete, read and star flags, drafts."
                                + " An email's id is its Message-ID.",
                        schema("gmailOperations.input.json"),
                        schema("gmailOperations.output.json"),
                        (args, context) -> mail.apply(args, operationContext(context)))
                .risk(args -> MailOperations.HIGH_RISK.contains(operation(args)) ? Risk.HIGH : Risk.LOW)
                .build();
    }

    Tool taskTool() {
        return Tool.json(
                        TASKS,
                        "Tasks and reminders: create, find, update, complete and delete them (seed 002's"
                                + " taskOperations). Completing a reminder deletes it.",
                        schema("taskOperations.input.json"),
                        schema("taskOperations.output.json"),
                        (args, context) -> {
                            OperationContext operation = operationContext(context);
                            ObjectNode result = tasks.apply(args, operation);
                            reminders.sync(operation.user(), touched(result, "task", "tasks"), operation.now());
                            return result;
                        })
                .risk(args -> TaskOperations.BULK_DELETES.contains(operation(args)) ? Risk.HIGH : Risk.LOW)
                .undo((args, result) -> undo(TASKS, "tasks", "taskId", "deleteMultiple", "taskIds", args, result))
                .build();
    }

    Tool listTool() {
        return Tool.json(
                        LISTS,
                        "Lists and notes: checklists with items, or notes with content (seed 002's listOperations).",
                        schema("listOperations.input.json"),
                        schema("listOperations.output.json"),
                        (args, context) -> lists.apply(args, operationContext(context)))
                .risk(args -> ListOperations.BULK_DELETES.contains(operation(args)) ? Risk.HIGH : Risk.LOW)
                .undo((args, result) -> undo(LISTS, "lists", "listId", "deleteMultiple", "listIds", args, result))
                .build();
    }

    /** The ids of the rows (tasks, events) a call made, changed or removed. */
    private static Set<String> touched(JsonNode result, String one, String many) {
        Set<String> ids = new java.util.LinkedHashSet<>();
        if (result.path(one).has("id")) {
            ids.add(result.path(one).path("id").asText());
        }
        for (String field : List.of(many, "previous", "deleted")) {
            result.path(field).forEach(task -> ids.add(task.path("id").asText()));
        }
        return ids;
    }

    Tool calendarTool() {
        return Tool.json(
                        CALENDAR,
                        "The calendar: find, create (once or recurring), update and delete events (seed 002's"
                                + " calendarOperations). Times are ISO-8601 with an offset, or YYYY-MM-DD for all-day"
                                + " events.",
                        schema("calendarOperations.input.json"),
                        schema("calendarOperations.output.json"),
                        (args, context) -> {
                            OperationContext operation = operationContext(context);
                            ObjectNode result = calendar.apply(args, operation);
                            reminders.syncEvents(operation.user(), touched(result, "event", "events"), operation.now());
                            if (!CalendarOperations.READS.contains(operation(args))) {
                                // a connected calendar gets the change now (undo's calls too)
                                calendarSync.afterChange(operation.user(), operation.now());
                            }
                            return result;
                        })
                .risk(args -> CalendarOperations.deletesMany(args) ? Risk.HIGH : Risk.LOW)
                .undo((args, result) -> undo(CALENDAR, "events", "eventId", "deleteMultiple", "eventIds", args, result))
                .build();
    }

    private static String operation(JsonNode args) {
        return args.path("operation").asText("");
    }

    /** The operations whose result holds the one row they made, and those whose result holds several. */
    private static final Set<String> CREATES_ONE = Set.of("create", "addSubtask", "createRecurring");

    private static final Set<String> CREATES_MANY = Set.of("createMultiple", "createMultipleRecurring");

    /**
     * The undo of a committed call: what it created is deleted, what it changed or deleted is restored
     * as it was.
     */
    private static Optional<UndoAction> undo(
            String tool,
            String plural,
            String idField,
            String deleteMany,
            String idsField,
            JsonNode args,
            JsonNode result) {
        String operation = operation(args);
        String singular = plural.substring(0, plural.length() - 1);
        ObjectNode undo = Json.object();
        if (CREATES_ONE.contains(operation)) {
            undo.put("operation", "delete");
            undo.put(idField, result.path(singular).path("id").asText());
            return Optional.of(new UndoAction(tool, undo));
        }
        if (CREATES_MANY.contains(operation)) {
            undo.put("operation", deleteMany);
            ArrayNode ids = undo.putArray(idsField);
            result.path(plural).forEach(item -> ids.add(item.path("id").asText()));
            return Optional.of(new UndoAction(tool, undo));
        }
        ArrayNode before = Json.mapper().createArrayNode();
        result.path("previous").forEach(before::add);
        result.path("deleted").forEach(item -> {
            if (!contains(before, item.path("id").asText())) {
                before.add(item);
            }
        });
        if (before.isEmpty()) {
            return Optional.empty();
        }
        undo.put("operation", "restore");
        undo.set(plural, before);
        return Optional.of(new UndoAction(tool, undo));
    }

    private static boolean contains(ArrayNode items, String id) {
        for (JsonNode item : items) {
            if (item.path("id").asText().equals(id)) {
                return true;
            }
        }
        return false;
    }

    /** The user a call acts for, their zone, the run's time, and the call's idempotency key. */
    private OperationContext operationContext(ToolContext context) {
        String user = context.user()
                .orElseThrow(() -> new WeftException(
                        ErrorCode.E_FORBIDDEN,
                        "Memo's tools act for a user, and run '" + context.runId() + "' has none"));
        // A user first met through a tool call (MCP, a channel) gets a row, as one first met in a message does.
        ZoneId zone;
        try {
            zone = data.findUser(user)
                    .orElseGet(() ->
                            data.user(user, "en", ZoneOffset.UTC, context.time().now()))
                    .zone();
        } catch (IllegalArgumentException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, e.getMessage());
        }
        return new OperationContext(
                user, zone, context.time().now(), context.idempotencyKey(), context.repeatApproved());
    }

    private static final Map<String, ObjectNode> SCHEMAS = new java.util.concurrent.ConcurrentHashMap<>();

    /** A schema shipped beside this class, with its {@code $defs} written in place so every check can read it. */
    static ObjectNode schema(String name) {
        return SCHEMAS.computeIfAbsent(name, MemoTools::load).deepCopy();
    }

    private static ObjectNode load(String name) {
        try (InputStream in = MemoTools.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the schema " + name + " is missing from the jar");
            }
            ObjectNode schema = (ObjectNode) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), name);
            JsonNode defs = schema.remove("$defs");
            return defs == null ? schema : (ObjectNode) inline(schema, defs, Set.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode inline(JsonNode node, JsonNode defs, Set<String> seen) {
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (ref != null && ref.asText().startsWith("#/$defs/")) {
                String def = ref.asText().substring("#/$defs/".length());
                return seen.contains(def) ? Json.object() : inline(defs.get(def), defs, Set.of(def));
            }
            ObjectNode copy = Json.object();
            node.properties().forEach(e -> copy.set(e.getKey(), inline(e.getValue(), defs, seen)));
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = Json.mapper().createArrayNode();
            node.forEach(item -> copy.add(inline(item, defs, seen)));
            return copy;
        }
        return node;
    }
}
