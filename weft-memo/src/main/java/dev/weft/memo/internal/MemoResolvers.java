package dev.weft.memo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.WeftException;
import dev.weft.memo.MemoTools;
import dev.weft.memo.data.Event;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Task;
import dev.weft.memo.data.User;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.plan.ResolverRegistry;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Memo's offline resolvers (seed 002): tasks, lists and the calendar turned into {@code
 * taskOperations}, {@code listOperations} and {@code calendarOperations} calls, the user's words
 * looked up among their own tasks, lists and events (several matches → a numbered question in their
 * language; none → {@code E_NOT_FOUND}), and the conversational and help answers. Thread-safe.
 */
public final class MemoResolvers {
    public static final String RESPOND = "respond";

    private static final DateTimeFormatter HH_MM = DateTimeFormatter.ofPattern("HH:mm");

    private final MemoData data;

    public MemoResolvers(MemoData data) {
        this.data = data;
    }

    public ResolverRegistry registry() {
        return ResolverRegistry.of(resolvers().toArray(Resolver[]::new));
    }

    /** The actions of each capability Memo's resolvers handle, for a planner to keep to. */
    public java.util.Map<String, Set<String>> actions() {
        java.util.Map<String, Set<String>> actions = new java.util.TreeMap<>();
        for (Resolver resolver : resolvers()) {
            actions.computeIfAbsent(resolver.capability(), c -> new java.util.TreeSet<>())
                    .addAll(resolver.actions());
        }
        return actions;
    }

    /** Each of Memo's offline resolvers. */
    public List<Resolver> resolvers() {
        return List.of(
                new TaskResolver(),
                new ListResolver(),
                new CalendarFindResolver(),
                new CalendarMutateResolver(),
                new GmailResolver(this, () -> new dev.weft.memo.data.MailOperations(data)),
                new SecondBrainResolver(data, this),
                new GeneralResolver(),
                new MetaResolver());
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

    static ObjectNode args(String operation) {
        ObjectNode args = Json.object();
        args.put("operation", operation);
        return args;
    }

    static void copy(JsonNode from, ObjectNode to, String... fields) {
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

    /** The user's zone, as the run's input gives it, else as they keep it. */
    ZoneId zone(ResolveContext context) {
        try {
            String zone = context.input().path("zone").asText("");
            if (!zone.isEmpty()) {
                return ZoneId.of(zone);
            }
        } catch (DateTimeException e) {
            // A run started by another caller with a zone Java does not know: the user's own is next.
        }
        return context.user().flatMap(data::findUser).map(User::zone).orElse(ZoneOffset.UTC);
    }

    /** The time of the user's message (the run's input), else the run's clock, in {@code zone}. */
    static ZonedDateTime now(ResolveContext context, ZoneId zone) {
        try {
            String now = context.input().path("now").asText("");
            if (!now.isEmpty()) {
                return OffsetDateTime.parse(now).atZoneSameInstant(zone);
            }
        } catch (DateTimeException e) {
            // Not a time Memo wrote: the run's clock says when.
        }
        return context.time().now().atZone(zone);
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank()
                ? Optional.of(value.asText().trim())
                : Optional.empty();
    }

    private static String iso(ZonedDateTime at) {
        return at.toOffsetDateTime().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
    }

    private static String hhmm(ZonedDateTime at) {
        return at.toLocalTime().format(HH_MM);
    }

    /**
     * The user's event the step's words ({@code summary}) name within its window ({@code timeMin},
     * {@code timeMax}): the only one, the one the user chose, or a numbered question showing each with
     * its day and time. Never an id the user typed (seed 002).
     *
     * @throws NotFoundException when none of the user's events matches
     */
    private Object event(PlanStep step, ResolveContext context, boolean recurringOnly) {
        JsonNode c = step.constraints();
        String language = language(context);
        ZoneId zone = zone(context);
        String words = c.path("summary").asText("").trim();
        Optional<Instant> from = text(c, "timeMin").map(t -> EventLookup.instant("timeMin", t, zone));
        Optional<Instant> to = text(c, "timeMax").map(t -> EventLookup.windowEnd("timeMax", t, zone));
        List<Event> events = data.events().all(context.user().orElseThrow()).stream()
                .filter(e -> !recurringOnly || e.recurs())
                .toList();
        Instant today = now(context, zone).toLocalDate().atStartOfDay(zone).toInstant();
        String what = words.isEmpty()
                ? Texts.of(language, "an event then", "אירוע בזמן הזה")
                : recurringOnly
                        ? Texts.of(
                                language,
                                "a repeating event matching \"" + words + "\"",
                                "אירוע חוזר שמתאים ל\"" + words + "\"")
                        : Texts.of(language, "an event matching \"" + words + "\"", "אירוע שמתאים ל\"" + words + "\"");
        return pick(EventLookup.find(words, events, from, to, today), context, what, f -> label(language, f, zone));
    }

    /** How a found event is offered in a question: its summary, and its day and time (or how it repeats). */
    private static String label(String language, EventLookup.Found found, ZoneId zone) {
        JsonNode shown = found.shown().toJson(zone);
        return found.event().summary() + " — "
                + (found.event().recurs()
                        ? CalendarReplies.repeats(language, shown, zone)
                        : CalendarReplies.eventTime(language, shown, zone));
    }

    /** seed 002's CalendarFindResolver: listing, finding and checking the user's calendar. */
    final class CalendarFindResolver implements Resolver {
        @Override
        public String name() {
            return "CalendarFindResolver";
        }

        @Override
        public String capability() {
            return "calendar";
        }

        @Override
        public Set<String> actions() {
            return Set.of("list_events", "find_event", "check_conflicts", "get_recurring");
        }

        @Override
        public Optional<String> tool(PlanStep step) {
            return Optional.of(MemoTools.CALENDAR);
        }

        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            JsonNode c = step.constraints();
            switch (step.action()) {
                case "list_events" -> {
                    ObjectNode args = args("getEvents");
                    copy(c, args, "timeMin", "timeMax", "excludeSummaries", "excludeDays");
                    if (!args.has("timeMin") && !args.has("timeMax")) {
                        // Seed 002's default window: today and the six days after it, in the user's zone.
                        ZoneId zone = zone(context);
                        ZonedDateTime today = now(context, zone).toLocalDate().atStartOfDay(zone);
                        args.put("timeMin", iso(today));
                        args.put("timeMax", iso(today.plusDays(7)));
                    }
                    return Resolution.execute(MemoTools.CALENDAR, args);
                }
                case "check_conflicts" -> {
                    ObjectNode args = args("checkConflicts");
                    text(c, "timeMin").or(() -> text(c, "start")).ifPresent(t -> args.put("timeMin", t));
                    text(c, "timeMax").or(() -> text(c, "end")).ifPresent(t -> args.put("timeMax", t));
                    if (!args.has("timeMin") || !args.has("timeMax")) {
                        throw EventLookup.invalid("check_conflicts needs 'timeMin' and 'timeMax'");
                    }
                    return Resolution.execute(MemoTools.CALENDAR, args);
                }
                case "find_event", "get_recurring" -> {
                    boolean series = step.action().equals("get_recurring");
                    Object picked = event(step, context, series);
                    if (picked instanceof Resolution question) {
                        return question;
                    }
                    ObjectNode args = args(series ? "getRecurringInstances" : "get");
                    args.put("eventId", ((EventLookup.Found) picked).event().id());
                    return Resolution.execute(MemoTools.CALENDAR, args);
                }
                default -> throw noResolver(step);
            }
        }
    }

    /** seed 002's CalendarMutateResolver: creating, changing and deleting the user's events. */
    final class CalendarMutateResolver implements Resolver {
        @Override
        public String name() {
            return "CalendarMutateResolver";
        }

        @Override
        public String capability() {
            return "calendar";
        }

        @Override
        public Set<String> actions() {
            return Set.of(
                    "create_event",
                    "create_recurring",
                    "update_event",
                    "delete_event",
                    "delete_events",
                    "end_recurring");
        }

        @Override
        public Optional<String> tool(PlanStep step) {
            return Optional.of(MemoTools.CALENDAR);
        }

        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            JsonNode c = step.constraints();
            switch (step.action()) {
                case "create_event" -> {
                    ObjectNode args = args("create");
                    copy(
                            c,
                            args,
                            "summary",
                            "start",
                            "end",
                            "allDay",
                            "location",
                            "attendees",
                            "description",
                            "reminderMinutesBefore");
                    if (text(args, "start").map(EventLookup::isDate).orElse(false) && !args.has("allDay")) {
                        args.put("allDay", true);
                    }
                    return named(args, context);
                }
                case "create_recurring" -> {
                    return named(recurring(c, context), context);
                }
                case "update_event" -> {
                    Object picked = event(step, context, false);
                    if (picked instanceof Resolution question) {
                        return question;
                    }
                    EventLookup.Found found = (EventLookup.Found) picked;
                    ZoneId zone = zone(context);
                    ObjectNode fields = updateFields(found, step.changes(), zone);
                    if (fields.isEmpty()) {
                        throw EventLookup.invalid("update_event has no changes (start, end, summary, location…) for \""
                                + found.event().summary() + "\"");
                    }
                    ObjectNode args = args("update");
                    args.put("eventId", found.event().id());
                    ObjectNode criteria = args.putObject("searchCriteria");
                    criteria.put("summary", found.event().summary());
                    copy(c, criteria, "timeMin", "timeMax");
                    if (!found.event().allDay()) {
                        criteria.put("startTime", hhmm(found.shown().start().atZone(zone)));
                    }
                    args.set("updateFields", fields);
                    return Resolution.execute(MemoTools.CALENDAR, args);
                }
                case "delete_event", "end_recurring" -> {
                    boolean series = step.action().equals("end_recurring");
                    Optional<String> until = text(c, "until");
                    if (series && until.isEmpty()) {
                        throw EventLookup.invalid("end_recurring needs 'until', the last day of the series");
                    }
                    Object picked = event(step, context, series);
                    if (picked instanceof Resolution question) {
                        return question;
                    }
                    ObjectNode args = args(series ? "truncateRecurring" : "delete");
                    args.put("eventId", ((EventLookup.Found) picked).event().id());
                    until.ifPresent(u -> args.put("until", u));
                    return Resolution.execute(MemoTools.CALENDAR, args);
                }
                case "delete_events" -> {
                    // Checked here, before the call waits for a person to approve it.
                    if (text(c, "timeMin").isEmpty() || text(c, "timeMax").isEmpty()) {
                        throw EventLookup.invalid("delete_events needs 'timeMin' and 'timeMax', the range to clear");
                    }
                    ObjectNode args = args("delete");
                    copy(c, args, "timeMin", "timeMax", "excludeSummaries", "excludeDays");
                    return Resolution.execute(MemoTools.CALENDAR, args);
                }
                default -> throw noResolver(step);
            }
        }

        /** The call, once the event has a name: the step's, or the user's answer to "what is it?". */
        private Resolution named(ObjectNode args, ResolveContext context) {
            if (text(args, "summary").isEmpty()) {
                if (!context.answers().path("text").isTextual()) {
                    return Resolution.clarify(
                            Texts.of(language(context), "What should I call the event?", "איך לקרוא לאירוע?"));
                }
                args.put("summary", context.answers().get("text").asText());
            }
            return Resolution.execute(MemoTools.CALENDAR, args);
        }

        /**
         * {@code createRecurring}'s arguments: the time of day and first day from {@code start} (and
         * {@code end}), and {@code days} when given, else the {@code rrule} without the time of day the
         * start already says.
         */
        private ObjectNode recurring(JsonNode c, ResolveContext context) {
            ZoneId zone = zone(context);
            ObjectNode args = args("createRecurring");
            copy(
                    c,
                    args,
                    "summary",
                    "startTime",
                    "endTime",
                    "startDate",
                    "until",
                    "exceptions",
                    "allDay",
                    "location",
                    "attendees",
                    "description",
                    "reminderMinutesBefore");
            Optional<String> start = text(c, "start");
            if (start.isPresent() && EventLookup.isDate(start.get())) {
                putIfAbsent(args, "startDate", start.get());
                if (!args.has("startTime") && !args.has("allDay")) {
                    args.put("allDay", true);
                }
            } else if (start.isPresent()) {
                ZonedDateTime first = EventLookup.zoned("start", start.get(), zone);
                putIfAbsent(args, "startDate", first.toLocalDate().toString());
                putIfAbsent(args, "startTime", hhmm(first));
            }
            text(c, "end")
                    .filter(e -> !EventLookup.isDate(e))
                    .ifPresent(e -> putIfAbsent(args, "endTime", hhmm(EventLookup.zoned("end", e, zone))));
            if (c.path("days").isArray() && !c.get("days").isEmpty()) {
                ArrayNode days = args.putArray("days");
                c.get("days").forEach(d -> days.add(d.asText()));
            } else {
                text(c, "rrule").ifPresent(rule -> args.put("rrule", withoutTimeOfDay(rule)));
            }
            return args;
        }
    }

    private static void putIfAbsent(ObjectNode args, String field, String value) {
        if (!args.has(field)) {
            args.put(field, value);
        }
    }

    /**
     * {@code rule} without a single {@code BYHOUR}, {@code BYMINUTE} or {@code BYSECOND}: the event's
     * start says its time of day, and a rule that says it too would pin every occurrence to the old time
     * once the event is moved.
     */
    static String withoutTimeOfDay(String rule) {
        List<String> parts = new ArrayList<>();
        for (String part : rule.trim().split(";")) {
            if (!part.matches("(?i)BY(?:HOUR|MINUTE|SECOND)=\\d+")) {
                parts.add(part);
            }
        }
        return String.join(";", parts);
    }

    /**
     * The new values for {@code found}: summary, location, description, attendees and reminder as the
     * step changes them, and its new times. A new start without an end keeps the event's length; a
     * change that is only a time ("16:00", or {@code startTime}) keeps its day, one that is only a day
     * (YYYY-MM-DD) keeps its time of day. A recurring event's times are its time of day ({@code
     * startTime}/{@code endTime}), for every occurrence.
     */
    static ObjectNode updateFields(EventLookup.Found found, JsonNode changes, ZoneId zone) {
        ObjectNode fields = Json.object();
        copy(changes, fields, "summary", "location", "description", "attendees", "reminderMinutesBefore");
        Optional<String> start = text(changes, "start");
        Optional<String> startTime = text(changes, "startTime");
        Optional<String> end = text(changes, "end");
        Optional<String> endTime = text(changes, "endTime");
        if (start.isEmpty() && startTime.isEmpty() && end.isEmpty() && endTime.isEmpty()) {
            return fields;
        }
        Event event = found.event();
        ZonedDateTime oldStart = found.shown().start().atZone(zone);
        ZonedDateTime oldEnd = found.shown().end().atZone(zone);
        if (event.recurs()) {
            if (start.filter(EventLookup::isDate).isPresent() && startTime.isEmpty()) {
                throw EventLookup.invalid("\"" + event.summary() + "\" repeats: its time of day can change, but not"
                        + " its day; end it and make a new one");
            }
            if (event.allDay()) {
                throw EventLookup.invalid("\"" + event.summary() + "\" repeats all day: it has no time to change");
            }
            startTime
                    .or(() -> start.map(s -> hhmm(moved(oldStart, s, "start", zone))))
                    .ifPresent(t -> fields.put("startTime", clock(t)));
            endTime.or(() -> end.map(e -> hhmm(moved(oldEnd, e, "end", zone))))
                    .ifPresent(t -> fields.put("endTime", clock(t)));
            return fields;
        }
        boolean timed = !event.allDay()
                || startTime.isPresent()
                || endTime.isPresent()
                || start.filter(s -> !EventLookup.isDate(s)).isPresent()
                || end.filter(e -> !EventLookup.isDate(e)).isPresent();
        if (!timed) {
            // An all-day event moved to other days: the tool keeps how many days it lasts.
            start.ifPresent(s -> fields.put("start", s));
            end.ifPresent(e -> fields.put("end", e));
            return fields;
        }
        Duration length = event.allDay() ? Duration.ofHours(1) : Duration.between(oldStart, oldEnd);
        ZonedDateTime newStart = oldStart;
        if (start.isPresent()) {
            newStart = moved(newStart, start.get(), "start", zone);
        }
        if (startTime.isPresent()) {
            newStart = moved(newStart, startTime.get(), "startTime", zone);
        }
        ZonedDateTime newEnd = newStart.plus(length);
        if (end.isPresent()) {
            // An end that is only a time is on the new start's day (or the day after it).
            newEnd = moved(EventLookup.timeOfDay(end.get()).isPresent() ? newStart : newEnd, end.get(), "end", zone);
        }
        if (endTime.isPresent()) {
            newEnd = moved(end.isPresent() ? newEnd : newStart, endTime.get(), "endTime", zone);
        }
        if (!newEnd.isAfter(newStart)
                && (endTime.isPresent() || end.flatMap(EventLookup::timeOfDay).isPresent())) {
            newEnd = newEnd.plusDays(1);
        }
        if (event.allDay()) {
            fields.put("allDay", false);
        }
        fields.put("start", iso(newStart));
        fields.put("end", iso(newEnd));
        return fields;
    }

    /** {@code old} moved as {@code change} says: to a time of day (same day), a day (same time), or a date-time. */
    private static ZonedDateTime moved(ZonedDateTime old, String change, String field, ZoneId zone) {
        Optional<LocalTime> time = EventLookup.timeOfDay(change);
        if (time.isPresent()) {
            return old.toLocalDate().atTime(time.get()).atZone(zone);
        }
        if (EventLookup.isDate(change)) {
            return LocalDate.parse(change.trim()).atTime(old.toLocalTime()).atZone(zone);
        }
        return EventLookup.zoned(field, change, zone);
    }

    /** A time of day as {@code HH:mm}. */
    private static String clock(String time) {
        return EventLookup.timeOfDay(time)
                .map(t -> t.format(HH_MM))
                .orElseThrow(() -> EventLookup.invalid("'" + time + "' is not a time of day (HH:mm)"));
    }

    private static WeftException noResolver(PlanStep step) {
        return new WeftException(
                ErrorCode.E_NO_RESOLVER, "the calendar has no action '" + step.action() + "' (step " + step.id() + ")");
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
