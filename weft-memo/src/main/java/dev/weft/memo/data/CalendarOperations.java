package dev.weft.memo.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.WeftException;
import dev.weft.memo.data.Event.Occurrence;
import java.sql.Connection;
import java.sql.SQLException;
import java.text.Normalizer;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Seed 002's {@code calendarOperations}, each in one transaction over one user's calendar. Results
 * hold the events touched ({@code event}, {@code events}, {@code instances}), the existing events a new
 * one overlaps ({@code conflicts}; a create is never refused for them), and what an undo needs: the
 * events as they were before ({@code previous}) or the ones removed ({@code deleted}). Times are shown
 * in the user's zone; a recurring event is listed as its occurrences in the window asked about, and a
 * listing ({@code getEvents}) also holds the user's open tasks and reminders due in its window
 * ({@code due}). Thread-safe.
 */
public final class CalendarOperations {
    /** Every operation, as seed 002 names them, and {@code deleteMultiple} and {@code restore} (undo's). */
    public static final List<String> OPERATIONS = List.of(
            "get",
            "getEvents",
            "checkConflicts",
            "getRecurringInstances",
            "create",
            "createMultiple",
            "createRecurring",
            "createMultipleRecurring",
            "update",
            "delete",
            "deleteMultiple",
            "deleteBySummary",
            "truncateRecurring",
            "restore");

    /** The operations that only read. */
    public static final java.util.Set<String> READS =
            java.util.Set.of("get", "getEvents", "checkConflicts", "getRecurringInstances");

    /** The most occurrences one listing returns. */
    static final int MAX_OCCURRENCES = 500;

    /** How many instances {@code getRecurringInstances} returns unless asked for fewer or more. */
    static final int DEFAULT_INSTANCES = 100;

    private static final int MAX_INSTANCES = 1000;
    private static final Duration DEFAULT_LISTING = Duration.ofDays(7);
    private static final Duration INSTANCES_AHEAD = Duration.ofDays(90);
    private static final Duration DEFAULT_LENGTH = Duration.ofHours(1);
    /** How far ahead a new recurring event's occurrences are checked for conflicts. */
    private static final Duration CONFLICTS_AHEAD = Duration.ofDays(90);
    /** How far ahead an update's search looks at a recurring event's occurrences. */
    private static final Duration SEARCH_AHEAD = Duration.ofDays(366);

    private final Events events;

    public CalendarOperations(MemoData data) {
        this.events = data.events();
    }

    /**
     * Whether {@code args} may delete many events at once, so that a person approves the call first: a
     * delete over a range (no {@code eventId}), {@code deleteBySummary}, and {@code deleteMultiple}.
     */
    public static boolean deletesMany(JsonNode args) {
        return switch (args.path("operation").asText("")) {
            case "delete" -> !args.hasNonNull("eventId");
            case "deleteBySummary", "deleteMultiple" -> true;
            default -> false;
        };
    }

    /**
     * The events a delete with {@code args} would remove (all of a series, or some of its days), read
     * without changing anything: what a question before the call names. Empty for any other call, or
     * for arguments the delete itself would refuse.
     */
    public List<Event> touched(ObjectNode args, OperationContext context) {
        String user = context.user();
        return events.db().read("events a call would delete", c -> {
            List<Event> found = new ArrayList<>();
            switch (args.path("operation").asText("")) {
                case "delete" -> {
                    if (args.hasNonNull("eventId")) {
                        Events.find(c, user, args.path("eventId").asText()).ifPresent(found::add);
                    } else if (args.hasNonNull("timeMin") && args.hasNonNull("timeMax")) {
                        Instant from = windowStart("timeMin", text(args, "timeMin"), context);
                        Instant to = windowEnd("timeMax", text(args, "timeMax"), context);
                        Predicate<Occurrence> excluded = excluded(args, context);
                        for (Event event : Events.between(c, user, from, to)) {
                            if (event.occurrences(from, to, MAX_INSTANCES).stream()
                                    .anyMatch(excluded.negate())) {
                                found.add(event);
                            }
                        }
                    }
                }
                case "deleteMultiple" -> {
                    for (JsonNode id : args.path("eventIds")) {
                        Events.find(c, user, id.asText()).ifPresent(found::add);
                    }
                }
                case "deleteBySummary" -> {
                    for (Event event : Events.all(c, user)) {
                        if (matches(event.summary(), args.path("summary").asText(""))) {
                            found.add(event);
                        }
                    }
                }
                default -> {}
            }
            return found;
        });
    }

    /**
     * Performs {@code args.operation} for {@code context}'s user.
     *
     * @throws NotFoundException ({@code E_NOT_FOUND}) for an event id the user does not have, or a search
     *     that finds none of their events
     * @throws WeftException {@code E_ARGS_INVALID} for arguments the operation cannot use, or a search
     *     that finds several events
     */
    public ObjectNode apply(ObjectNode args, OperationContext context) {
        String operation = args.path("operation").asText("");
        return switch (operation) {
            case "get", "getEvents", "checkConflicts", "getRecurringInstances" ->
                events.db().read(operation + " events", c -> read(c, operation, args, context));
            default -> events.db().write(operation + " events", c -> write(c, operation, args, context));
        };
    }

    private static ObjectNode read(Connection c, String operation, ObjectNode args, OperationContext context)
            throws SQLException {
        String user = context.user();
        switch (operation) {
            case "get" -> {
                ObjectNode out = Json.object();
                out.set("event", require(c, user, text(args, "eventId")).toJson(context.zone()));
                return out;
            }
            case "getEvents" -> {
                Instant from = optionalText(args, "timeMin")
                        .map(t -> windowStart("timeMin", t, context))
                        .orElseGet(() -> startOfToday(context));
                Instant to = optionalText(args, "timeMax")
                        .map(t -> windowEnd("timeMax", t, context))
                        .orElseGet(() -> from.plus(DEFAULT_LISTING));
                requireOrder(from, to);
                Predicate<Occurrence> wanted = excluded(args, context).negate();
                Optional<String> summary = optionalText(args, "summary");
                List<Occurrence> found = new ArrayList<>();
                for (Occurrence o : occurrences(c, user, from, to)) {
                    if (wanted.test(o)
                            && summary.map(s -> matches(o.event().summary(), s)).orElse(true)) {
                        found.add(o);
                    }
                }
                ObjectNode out = occurrencesResult("events", found, context);
                // "What do I have tomorrow?" asks for the day, not only its events: what falls due then
                // (open tasks and reminders) is read in the same transaction and said beside them.
                ArrayNode due = out.putArray("due");
                for (Task task : Tasks.all(c, user)) {
                    if (!task.completed()) {
                        ReminderTimes.dueBetween(task, context.zone(), from, to)
                                .ifPresent(at -> due.add(task.toJsonDueAt(at, context.zone())));
                    }
                }
                return out;
            }
            case "checkConflicts" -> {
                Instant from = windowStart("timeMin", text(args, "timeMin"), context);
                Instant to = windowEnd("timeMax", text(args, "timeMax"), context);
                requireOrder(from, to);
                return occurrencesResult("conflicts", occurrences(c, user, from, to), context);
            }
            case "getRecurringInstances" -> {
                Event event = require(c, user, text(args, "eventId"));
                if (!event.recurs()) {
                    throw invalid("event '" + event.id() + "' does not recur; use get");
                }
                Instant from = optionalText(args, "timeMin")
                        .map(t -> windowStart("timeMin", t, context))
                        .orElse(context.now());
                Instant to = optionalText(args, "timeMax")
                        .map(t -> windowEnd("timeMax", t, context))
                        .orElseGet(() -> from.plus(INSTANCES_AHEAD));
                requireOrder(from, to);
                int limit = args.path("maxResults").asInt(DEFAULT_INSTANCES);
                if (limit < 1 || limit > MAX_INSTANCES) {
                    throw invalid("maxResults must be 1-" + MAX_INSTANCES + ", was " + limit);
                }
                ObjectNode out = occurrencesResult("instances", event.occurrences(from, to, limit), context);
                out.set("event", event.toJson(context.zone()));
                return out;
            }
            default -> throw new IllegalStateException("not a read: " + operation);
        }
    }

    private static ObjectNode write(Connection c, String operation, ObjectNode args, OperationContext context)
            throws SQLException {
        String user = context.user();
        switch (operation) {
            case "create" -> {
                Event event = Events.insert(c, user, newEvent(args, context, 0));
                ObjectNode out = Json.object();
                out.set("event", event.toJson(context.zone()));
                out.set("conflicts", conflicts(c, context, List.of(event)));
                return out;
            }
            case "createRecurring" -> {
                Event event = Events.insert(c, user, newRecurringEvent(args, context, 0));
                ObjectNode out = Json.object();
                out.set("event", event.toJson(context.zone()));
                out.set("conflicts", conflicts(c, context, List.of(event)));
                return out;
            }
            case "createMultiple", "createMultipleRecurring" -> {
                JsonNode list = args.path("events");
                if (!list.isArray() || list.isEmpty()) {
                    throw invalid(operation + " needs 'events', a non-empty array of events");
                }
                List<Event> made = new ArrayList<>();
                for (int i = 0; i < list.size(); i++) {
                    JsonNode item = list.get(i);
                    if (!item.isObject()) {
                        throw invalid("events[" + i + "] must be an object with 'summary'");
                    }
                    Event event = operation.equals("createMultiple")
                            ? newEvent(item, context, i)
                            : newRecurringEvent(item, context, i);
                    made.add(Events.insert(c, user, event));
                }
                ObjectNode out = eventsResult("events", made, context);
                out.set("conflicts", conflicts(c, context, made));
                return out;
            }
            case "update" -> {
                JsonNode fields = args.path("updateFields");
                if (!fields.isObject() || fields.isEmpty()) {
                    throw invalid("update needs 'updateFields', the new values");
                }
                Event old = args.hasNonNull("eventId")
                        ? require(c, user, text(args, "eventId"))
                        : search(c, args.path("searchCriteria"), context);
                Event changed = patched(old, fields, context);
                Events.upsert(c, user, changed);
                ObjectNode out = Json.object();
                out.set("event", changed.toJson(context.zone()));
                out.set("previous", array(List.of(old), context));
                return out;
            }
            case "delete" -> {
                if (args.hasNonNull("eventId")) {
                    return deleted(c, user, List.of(require(c, user, text(args, "eventId"))), context);
                }
                if (!args.hasNonNull("timeMin") || !args.hasNonNull("timeMax")) {
                    throw invalid("delete needs 'eventId', or 'timeMin' and 'timeMax' for the events in a range");
                }
                return deletedInRange(c, args, context);
            }
            case "deleteMultiple" -> {
                JsonNode ids = args.path("eventIds");
                if (!ids.isArray() || ids.isEmpty()) {
                    throw invalid("deleteMultiple needs 'eventIds', a non-empty array of ids");
                }
                List<Event> gone = new ArrayList<>();
                for (JsonNode id : ids) {
                    gone.add(require(c, user, id.asText()));
                }
                return deleted(c, user, gone, context);
            }
            case "deleteBySummary" -> {
                String summary = text(args, "summary");
                List<Event> gone = new ArrayList<>();
                for (Event event : Events.all(c, user)) {
                    if (matches(event.summary(), summary)) {
                        gone.add(event);
                    }
                }
                if (gone.isEmpty()) {
                    throw new NotFoundException("no event whose summary contains '" + summary + "'");
                }
                return deleted(c, user, gone, context);
            }
            case "truncateRecurring" -> {
                Event old = require(c, user, text(args, "eventId"));
                if (!old.recurs()) {
                    throw invalid("event '" + old.id() + "' does not recur; there is no series to end");
                }
                LocalDate until = date("until", text(args, "until"), old.zone());
                LocalDate first = old.start().atZone(old.zone()).toLocalDate();
                if (until.isBefore(first)) {
                    throw invalid("until " + until + " is before the series starts (" + first + "); delete it instead");
                }
                Event changed = withRule(
                        old,
                        Recurrences.until(old.recurrence().orElseThrow(), until, old.allDay(), old.zone()),
                        old.exdates(),
                        context);
                Events.upsert(c, user, changed);
                ObjectNode out = Json.object();
                out.set("event", changed.toJson(context.zone()));
                out.set("previous", array(List.of(old), context));
                return out;
            }
            case "restore" -> {
                JsonNode list = args.path("events");
                if (!list.isArray()) {
                    throw invalid("restore needs 'events', the events as they were");
                }
                List<Event> restored = new ArrayList<>();
                for (JsonNode node : list) {
                    Event event = fromJson(node, context);
                    Events.upsert(c, user, event);
                    restored.add(event);
                }
                return eventsResult("events", restored, context);
            }
            default ->
                throw invalid(
                        "unknown calendar operation '" + operation + "'; one of " + String.join(", ", OPERATIONS));
        }
    }

    private static ObjectNode deleted(Connection c, String user, List<Event> chosen, OperationContext context)
            throws SQLException {
        Map<String, Event> gone = new LinkedHashMap<>();
        chosen.forEach(e -> gone.put(e.id(), e));
        Events.delete(c, user, gone.keySet());
        ObjectNode out = Json.object();
        out.set("deleted", array(List.copyOf(gone.values()), context));
        out.put("count", gone.size());
        return out;
    }

    /**
     * Deletes what takes place in {@code [timeMin, timeMax)} but the excluded summaries and days: an
     * event once is deleted; a recurring event loses the occurrences in the range (they become exception
     * days), or is deleted whole when they are all it has.
     */
    private static ObjectNode deletedInRange(Connection c, ObjectNode args, OperationContext context)
            throws SQLException {
        String user = context.user();
        Instant from = windowStart("timeMin", text(args, "timeMin"), context);
        Instant to = windowEnd("timeMax", text(args, "timeMax"), context);
        requireOrder(from, to);
        Predicate<Occurrence> excluded = excluded(args, context);
        ArrayNode deleted = Json.mapper().createArrayNode();
        List<Event> previous = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        int count = 0;
        for (Event event : Events.between(c, user, from, to)) {
            List<Occurrence> chosen = event.occurrences(from, to, MAX_INSTANCES).stream()
                    .filter(excluded.negate())
                    .toList();
            if (chosen.isEmpty()) {
                continue;
            }
            count += chosen.size();
            if (!event.recurs() || isWholeSeries(event, chosen)) {
                ids.add(event.id());
                deleted.add(event.toJson(context.zone()));
                continue;
            }
            Set<LocalDate> skipped = new LinkedHashSet<>(event.exdates());
            for (Occurrence o : chosen) {
                skipped.add(o.start().atZone(event.zone()).toLocalDate());
                deleted.add(o.toJson(context.zone()));
            }
            Events.upsert(
                    c,
                    user,
                    withRule(
                            event,
                            event.recurrence().orElseThrow(),
                            skipped.stream().sorted().toList(),
                            context));
            previous.add(event);
        }
        Events.delete(c, user, ids);
        ObjectNode out = Json.object();
        out.set("deleted", deleted);
        out.set("previous", array(previous, context));
        out.put("count", count);
        return out;
    }

    /** Whether {@code chosen} is every occurrence {@code event} has (only an ending series can be). */
    private static boolean isWholeSeries(Event event, List<Occurrence> chosen) {
        if (!Recurrences.ends(event.recurrence().orElseThrow())) {
            return false;
        }
        List<Occurrence> all =
                event.occurrences(event.start(), event.start().plus(Duration.ofDays(36_600)), MAX_INSTANCES + 1);
        return all.size() == chosen.size();
    }

    /**
     * The existing timed events that overlap what {@code made} takes (its first months for a recurring
     * one), as occurrences, once each. All-day events take no time.
     */
    private static ArrayNode conflicts(Connection c, OperationContext context, List<Event> made) throws SQLException {
        Set<String> madeIds = new LinkedHashSet<>();
        List<Occurrence> taken = new ArrayList<>();
        for (Event event : made) {
            madeIds.add(event.id());
            if (!event.allDay()) {
                taken.addAll(event.occurrences(event.start(), event.start().plus(CONFLICTS_AHEAD), DEFAULT_INSTANCES));
            }
        }
        ArrayNode conflicts = Json.mapper().createArrayNode();
        if (taken.isEmpty()) {
            return conflicts;
        }
        Instant from = taken.stream()
                .map(Occurrence::start)
                .min(Comparator.naturalOrder())
                .orElseThrow();
        Instant to = taken.stream()
                .map(Occurrence::end)
                .max(Comparator.naturalOrder())
                .orElseThrow();
        for (Occurrence other : occurrences(c, context.user(), from, to)) {
            if (!madeIds.contains(other.event().id())
                    && !other.event().allDay()
                    && taken.stream().anyMatch(other::overlaps)) {
                conflicts.add(other.toJson(context.zone()));
            }
        }
        return conflicts;
    }

    /** The occurrences of the user's events in {@code [from, to)}, soonest first, at most {@link #MAX_OCCURRENCES}. */
    private static List<Occurrence> occurrences(Connection c, String user, Instant from, Instant to)
            throws SQLException {
        List<Occurrence> found = new ArrayList<>();
        for (Event event : Events.between(c, user, from, to)) {
            found.addAll(event.occurrences(from, to, MAX_OCCURRENCES));
        }
        found.sort(Comparator.comparing(Occurrence::start)
                .thenComparing(o -> o.event().id()));
        return found.size() > MAX_OCCURRENCES ? found.subList(0, MAX_OCCURRENCES) : found;
    }

    /**
     * The one event of the user that {@code criteria} (the old values) describe: its summary contains
     * {@code summary}, and an occurrence of it falls in {@code timeMin}-{@code timeMax}, on {@code
     * dayOfWeek}, at {@code startTime}, as far as they are given. Of several, one whose summary is the
     * very words wins.
     */
    private static Event search(Connection c, JsonNode criteria, OperationContext context) throws SQLException {
        if (!criteria.isObject() || criteria.isEmpty()) {
            throw invalid("update needs 'eventId' or 'searchCriteria' (summary, timeMin, timeMax, dayOfWeek,"
                    + " startTime) to find the event");
        }
        Optional<String> summary = optionalText(criteria, "summary");
        boolean windowed = criteria.hasNonNull("timeMin") || criteria.hasNonNull("timeMax");
        Instant from = optionalText(criteria, "timeMin")
                .map(t -> windowStart("searchCriteria.timeMin", t, context))
                .orElseGet(() -> windowed ? Instant.EPOCH : context.now().minus(Duration.ofDays(7)));
        Instant to = optionalText(criteria, "timeMax")
                .map(t -> windowEnd("searchCriteria.timeMax", t, context))
                .orElseGet(() -> (criteria.hasNonNull("timeMin") ? from : context.now()).plus(SEARCH_AHEAD));
        requireOrder(from, to);
        Optional<Predicate<LocalDate>> day =
                optionalText(criteria, "dayOfWeek").map(d -> day("searchCriteria.dayOfWeek", d));
        Optional<LocalTime> at = optionalText(criteria, "startTime").map(t -> time("searchCriteria.startTime", t));
        List<Event> found = new ArrayList<>();
        for (Event event : Events.all(c, context.user())) {
            if (summary.isPresent() && !matches(event.summary(), summary.get())) {
                continue;
            }
            boolean timed = windowed || day.isPresent() || at.isPresent();
            List<Occurrence> candidates = timed && (event.recurs() || windowed)
                    ? event.occurrences(from, to, MAX_INSTANCES)
                    : List.of(new Occurrence(event, event.start(), event.end()));
            boolean fits = candidates.stream().anyMatch(o -> {
                ZonedDateTime start = o.start().atZone(event.allDay() ? event.zone() : context.zone());
                return day.map(d -> d.test(start.toLocalDate())).orElse(true)
                        && at.map(t -> !event.allDay()
                                        && start.toLocalTime()
                                                .truncatedTo(ChronoUnit.MINUTES)
                                                .equals(t))
                                .orElse(true);
            });
            if (fits) {
                found.add(event);
            }
        }
        if (found.size() > 1 && summary.isPresent()) {
            List<Event> exact = found.stream()
                    .filter(e -> fold(e.summary()).equals(fold(summary.get())))
                    .toList();
            if (exact.size() == 1) {
                return exact.get(0);
            }
        }
        if (found.isEmpty()) {
            throw new NotFoundException("no event matches " + Json.write(criteria));
        }
        if (found.size() > 1) {
            StringBuilder names = new StringBuilder();
            for (Event e : found) {
                names.append(names.isEmpty() ? "" : ", ")
                        .append('\'')
                        .append(e.summary())
                        .append("' (")
                        .append(e.toJson(context.zone()).get("start").asText())
                        .append(')');
            }
            throw invalid(found.size() + " events match " + Json.write(criteria) + ": " + names
                    + "; give the eventId, or narrow the search (timeMin, timeMax, dayOfWeek, startTime)");
        }
        return found.get(0);
    }

    /** An event once, from {@code create}'s arguments. */
    private static Event newEvent(JsonNode args, OperationContext context, int index) {
        String summary = text(args, "summary");
        String startText = text(args, "start");
        ZoneId zone = context.zone();
        DueDates.Due start = DueDates.parse("start", startText, zone);
        Optional<String> endText = optionalText(args, "end");
        if (start.allDay() || args.path("allDay").asBoolean(false)) {
            LocalDate first = date("start", startText, zone);
            LocalDate last = endText.map(e -> date("end", e, zone)).orElse(first);
            if (last.isBefore(first)) {
                throw invalid("end " + last + " is before start " + first);
            }
            return build(
                    context, index, summary, first.atStartOfDay(zone).toInstant(), allDayEnd(last, zone), true, args);
        }
        Instant from = seconds(start.at());
        Instant to;
        if (endText.isPresent()) {
            DueDates.Due end = DueDates.parse("end", endText.get(), zone);
            if (end.allDay()) {
                throw invalid("end '" + endText.get() + "' is a date, and start a time; give end a time too");
            }
            to = seconds(end.at());
        } else {
            to = from.plus(DEFAULT_LENGTH);
        }
        if (!to.isAfter(from)) {
            throw invalid("end '" + endText.orElse("") + "' must be after start '" + startText + "'");
        }
        return build(context, index, summary, from, to, false, args);
    }

    private static Event build(
            OperationContext context,
            int index,
            String summary,
            Instant start,
            Instant end,
            boolean allDay,
            JsonNode args) {
        Instant now = seconds(context.now());
        return new Event(
                context.newId("ev-", index),
                summary,
                start,
                end,
                allDay,
                context.zone(),
                optionalText(args, "description"),
                optionalText(args, "location"),
                attendees(args),
                reminder(args),
                Optional.empty(),
                List.of(),
                now,
                now);
    }

    /**
     * A recurring event from {@code createRecurring}'s arguments: {@code startTime}/{@code endTime}
     * ("HH:mm", or the times of {@code start}/{@code end}), {@code days} (day names for weekly, days of
     * the month for monthly) or {@code rrule}, from {@code startDate} (today in the user's zone unless
     * given) to {@code until}, without the {@code exceptions}.
     */
    private static Event newRecurringEvent(JsonNode args, OperationContext context, int index) {
        String summary = text(args, "summary");
        ZoneId zone = context.zone();
        boolean allDay = args.path("allDay").asBoolean(false);
        Optional<String> startText = optionalText(args, "startDate").or(() -> optionalText(args, "start"));
        LocalDate from = startText
                .map(s -> date("startDate", s, zone))
                .orElseGet(() -> context.now().atZone(zone).toLocalDate());
        String rule = rule(args);
        Optional<String> untilText = optionalText(args, "until");
        if (untilText.isPresent()) {
            LocalDate until = date("until", untilText.get(), zone);
            if (until.isBefore(from)) {
                throw invalid("until " + until + " is before the series starts (" + from + ")");
            }
            rule = Recurrences.until(rule, until, allDay, zone);
        }
        List<LocalDate> exceptions = new ArrayList<>();
        for (String field : List.of("exceptions", "exdates")) {
            JsonNode list = args.path(field);
            if (!list.isMissingNode() && !list.isNull() && !list.isArray()) {
                throw invalid("'" + field + "' must be an array of dates (2026-12-01)");
            }
            for (JsonNode day : list) {
                exceptions.add(date(field, day.asText(), zone));
            }
        }
        List<LocalDate> exdates = exceptions.stream().distinct().sorted().toList();
        String finalRule = rule;
        if (allDay) {
            LocalDate first = Recurrences.first(rule, from).orElseThrow(() -> noDate(finalRule, from));
            return withRule(
                    build(
                            context,
                            index,
                            summary,
                            first.atStartOfDay(zone).toInstant(),
                            allDayEnd(first, zone),
                            true,
                            args),
                    rule,
                    exdates,
                    context);
        }
        LocalTime startTime = optionalText(args, "startTime")
                .map(t -> time("startTime", t))
                .or(() -> startText
                        .filter(s -> !DueDates.parse("start", s, zone).allDay())
                        .map(s -> DueDates.parse("start", s, zone)
                                .at()
                                .atZone(zone)
                                .toLocalTime()))
                .orElseThrow(() -> invalid("createRecurring needs 'startTime' (HH:mm), or allDay: true"));
        ZonedDateTime first =
                Recurrences.first(rule, from.atTime(startTime).atZone(zone)).orElseThrow(() -> noDate(finalRule, from));
        Optional<LocalTime> endTime = optionalText(args, "endTime")
                .map(t -> time("endTime", t))
                .or(() -> optionalText(args, "end")
                        .filter(s -> !DueDates.parse("end", s, zone).allDay())
                        .map(s ->
                                DueDates.parse("end", s, zone).at().atZone(zone).toLocalTime()));
        Duration length = endTime.map(e -> lengthBetween(startTime, e)).orElse(DEFAULT_LENGTH);
        return withRule(
                build(
                        context,
                        index,
                        summary,
                        first.toInstant(),
                        first.toInstant().plus(length),
                        false,
                        args),
                rule,
                exdates,
                context);
    }

    /** The rule {@code rrule} or {@code days} give. */
    private static String rule(JsonNode args) {
        Optional<String> rrule = optionalText(args, "rrule");
        if (rrule.isPresent()) {
            try {
                return Recurrences.checked(rrule.get());
            } catch (IllegalArgumentException e) {
                throw invalid(e.getMessage());
            }
        }
        JsonNode days = args.path("days");
        if (!days.isArray() || days.isEmpty()) {
            throw invalid("createRecurring needs 'days' (day names such as [\"Monday\"] for weekly, days of the"
                    + " month such as [\"1\", \"15\"] for monthly) or 'rrule'");
        }
        List<DayOfWeek> weekly = new ArrayList<>();
        List<Integer> monthly = new ArrayList<>();
        for (JsonNode day : days) {
            String text = day.asText().trim();
            Optional<DayOfWeek> name = Recurrences.dayOfWeek(text);
            if (name.isPresent()) {
                weekly.add(name.get());
            } else if (text.matches("\\d{1,2}") && Integer.parseInt(text) >= 1 && Integer.parseInt(text) <= 31) {
                monthly.add(Integer.parseInt(text));
            } else {
                throw invalid("days: '" + text + "' is neither a day name (Monday) nor a day of the month (1-31)");
            }
        }
        if (!weekly.isEmpty() && !monthly.isEmpty()) {
            throw invalid("days mixes day names and days of the month; give one kind (weekly or monthly)");
        }
        return weekly.isEmpty() ? Recurrences.monthly(monthly) : Recurrences.weekly(weekly);
    }

    private static WeftException noDate(String rule, LocalDate from) {
        return invalid("the rule " + rule + " gives no date from " + from + " on");
    }

    private static Event withRule(Event event, String rule, List<LocalDate> exdates, OperationContext context) {
        return new Event(
                event.id(),
                event.summary(),
                event.start(),
                event.end(),
                event.allDay(),
                event.zone(),
                event.description(),
                event.location(),
                event.attendees(),
                event.reminderMinutesBefore(),
                Optional.of(rule),
                exdates,
                event.createdAt(),
                seconds(context.now()));
    }

    /**
     * {@code old} with {@code fields}: summary, description, location, attendees, reminderMinutesBefore
     * (null clears the optional ones), and new times. For a recurring event, {@code start}/{@code end}
     * (or {@code startTime}/{@code endTime}) set the time of day of every occurrence; for an event once
     * they move it (a date alone keeps its time of day), keeping its length unless {@code end} is given.
     */
    private static Event patched(Event old, JsonNode fields, OperationContext context) {
        String summary =
                fields.has("summary") ? fields.path("summary").asText("").trim() : old.summary();
        if (summary.isEmpty()) {
            throw invalid("an event's 'summary' cannot be empty");
        }
        ZoneId zone = context.zone();
        Optional<String> startText = optionalText(fields, "start");
        Optional<String> endText = optionalText(fields, "end");
        boolean allDay = fields.has("allDay") ? fields.get("allDay").asBoolean() : old.allDay();
        Instant start = old.start();
        Instant end = old.end();
        if (old.recurs()) {
            if (allDay != old.allDay()) {
                throw invalid("a recurring event cannot become all-day or timed; delete it and create it anew");
            }
            Optional<LocalTime> startTime = optionalText(fields, "startTime")
                    .map(t -> time("startTime", t))
                    .or(() -> startText.map(s -> timeOf("start", s, old.zone())));
            Optional<LocalTime> endTime = optionalText(fields, "endTime")
                    .map(t -> time("endTime", t))
                    .or(() -> endText.map(s -> timeOf("end", s, old.zone())));
            if (!old.allDay() && (startTime.isPresent() || endTime.isPresent())) {
                ZonedDateTime first = old.start().atZone(old.zone());
                LocalTime from = startTime.orElse(first.toLocalTime());
                Duration length =
                        endTime.map(e -> lengthBetween(from, e)).orElse(Duration.between(old.start(), old.end()));
                start = first.toLocalDate().atTime(from).atZone(old.zone()).toInstant();
                end = start.plus(length);
            }
        } else if (allDay) {
            ZoneId days = old.zone();
            LocalDate first = startText
                    .map(s -> date("start", s, days))
                    .orElse(old.start().atZone(days).toLocalDate());
            long span = old.allDay()
                    ? ChronoUnit.DAYS.between(
                            old.start().atZone(days).toLocalDate(),
                            old.end().atZone(days).toLocalDate())
                    : 1;
            LocalDate last = endText.map(e -> date("end", e, days)).orElse(first.plusDays(span - 1));
            if (last.isBefore(first)) {
                throw invalid("end " + last + " is before start " + first);
            }
            start = first.atStartOfDay(days).toInstant();
            end = allDayEnd(last, days);
        } else {
            if (old.allDay() && startText.isEmpty()) {
                throw invalid("to make an all-day event timed, give 'start' a time");
            }
            Duration length = old.allDay() ? DEFAULT_LENGTH : Duration.between(old.start(), old.end());
            if (startText.isPresent()) {
                DueDates.Due due = DueDates.parse("start", startText.get(), zone);
                if (due.allDay()) {
                    if (old.allDay()) {
                        throw invalid("to make an all-day event timed, give 'start' a time");
                    }
                    LocalTime at = old.start().atZone(zone).toLocalTime();
                    start = LocalDate.parse(due.text()).atTime(at).atZone(zone).toInstant();
                } else {
                    start = seconds(due.at());
                }
            }
            end = start.plus(length);
            if (endText.isPresent()) {
                DueDates.Due due = DueDates.parse("end", endText.get(), zone);
                if (due.allDay()) {
                    throw invalid("end '" + endText.get() + "' is a date; give it a time");
                }
                end = seconds(due.at());
            }
            if (!end.isAfter(start)) {
                throw invalid("end must be after start");
            }
        }
        return new Event(
                old.id(),
                summary,
                start,
                end,
                allDay,
                old.zone(),
                fields.has("description") ? optionalText(fields, "description") : old.description(),
                fields.has("location") ? optionalText(fields, "location") : old.location(),
                fields.has("attendees") ? attendees(fields) : old.attendees(),
                fields.has("reminderMinutesBefore") ? reminder(fields) : old.reminderMinutesBefore(),
                old.recurrence(),
                old.exdates(),
                old.createdAt(),
                seconds(context.now()));
    }

    /** An event as an earlier result showed it, to put back as it was (an undo's). */
    static Event fromJson(JsonNode node, OperationContext context) {
        if (!node.isObject() || !node.path("id").isTextual()) {
            throw invalid("an event to restore needs its 'id'");
        }
        ZoneId zone;
        try {
            zone = optionalText(node, "timeZone").map(ZoneId::of).orElse(context.zone());
        } catch (java.time.DateTimeException e) {
            throw invalid("timeZone '" + node.path("timeZone").asText() + "' is not a time zone");
        }
        boolean allDay = node.path("allDay").asBoolean(false);
        Instant start;
        Instant end;
        if (allDay) {
            start = date("start", text(node, "start"), zone).atStartOfDay(zone).toInstant();
            end = allDayEnd(date("end", text(node, "end"), zone), zone);
        } else {
            start = DueDates.parse("start", text(node, "start"), zone).at();
            end = DueDates.parse("end", text(node, "end"), zone).at();
        }
        if (!end.isAfter(start)) {
            throw invalid("event '" + node.get("id").asText() + "' must end after it starts");
        }
        Optional<String> recurrence;
        try {
            recurrence = optionalText(node, "recurrence").map(Recurrences::checked);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
        List<LocalDate> exdates = new ArrayList<>();
        for (JsonNode day : node.path("exdates")) {
            exdates.add(date("exdates", day.asText(), zone));
        }
        return new Event(
                node.get("id").asText(),
                text(node, "summary"),
                start,
                end,
                allDay,
                zone,
                optionalText(node, "description"),
                optionalText(node, "location"),
                attendees(node),
                reminder(node),
                recurrence,
                exdates,
                instant(node, "createdAt", seconds(context.now())),
                instant(node, "updatedAt", seconds(context.now())));
    }

    /** Whether an occurrence is left out by {@code excludeSummaries} (words of its summary) or {@code excludeDays}. */
    private static Predicate<Occurrence> excluded(JsonNode args, OperationContext context) {
        List<String> summaries = new ArrayList<>();
        args.path("excludeSummaries").forEach(s -> summaries.add(s.asText()));
        List<Predicate<LocalDate>> days = new ArrayList<>();
        args.path("excludeDays").forEach(d -> days.add(day("excludeDays", d.asText())));
        return o -> {
            if (summaries.stream()
                    .anyMatch(s -> !s.isBlank() && matches(o.event().summary(), s))) {
                return true;
            }
            LocalDate day = o.start()
                    .atZone(o.event().allDay() ? o.event().zone() : context.zone())
                    .toLocalDate();
            return days.stream().anyMatch(d -> d.test(day));
        };
    }

    /** A day given by its name ("Friday", "שישי": every such day) or its date (2026-11-27). */
    static Predicate<LocalDate> day(String field, String text) {
        Optional<DayOfWeek> name = Recurrences.dayOfWeek(text);
        if (name.isPresent()) {
            return d -> d.getDayOfWeek() == name.get();
        }
        try {
            LocalDate date = LocalDate.parse(
                    text.trim().substring(0, Math.min(10, text.trim().length())));
            return date::equals;
        } catch (DateTimeParseException e) {
            throw invalid(field + " '" + text + "' is neither a day name (Friday) nor a date (2026-11-27)");
        }
    }

    /** Whether {@code summary} contains {@code words}, ignoring case, accents and Hebrew final letters. */
    static boolean matches(String summary, String words) {
        return fold(summary).contains(fold(words));
    }

    private static String fold(String text) {
        String folded = Normalizer.normalize(text.toLowerCase(Locale.ROOT), Normalizer.Form.NFD)
                .replaceAll("\\p{M}+", "")
                .replace('ך', 'כ')
                .replace('ם', 'מ')
                .replace('ן', 'נ')
                .replace('ף', 'פ')
                .replace('ץ', 'צ');
        return folded.replaceAll("\\s+", " ").trim();
    }

    private static Instant windowStart(String field, String text, OperationContext context) {
        return DueDates.parse(field, text, context.zone()).at();
    }

    /** The end of a window, exclusive: a date alone counts whole. */
    private static Instant windowEnd(String field, String text, OperationContext context) {
        DueDates.Due due = DueDates.parse(field, text, context.zone());
        return due.allDay() ? allDayEnd(LocalDate.parse(due.text()), context.zone()) : due.at();
    }

    private static void requireOrder(Instant from, Instant to) {
        if (!to.isAfter(from)) {
            throw invalid("timeMax (" + to + ") must be after timeMin (" + from + ")");
        }
    }

    private static Instant startOfToday(OperationContext context) {
        return context.now()
                .atZone(context.zone())
                .toLocalDate()
                .atStartOfDay(context.zone())
                .toInstant();
    }

    private static Instant allDayEnd(LocalDate last, ZoneId zone) {
        return last.plusDays(1).atStartOfDay(zone).toInstant();
    }

    /** The day {@code text} names: a date, or the day of a date-time in {@code zone}. */
    private static LocalDate date(String field, String text, ZoneId zone) {
        DueDates.Due due = DueDates.parse(field, text, zone);
        return due.allDay()
                ? LocalDate.parse(due.text())
                : due.at().atZone(zone).toLocalDate();
    }

    private static LocalTime time(String field, String text) {
        try {
            String trimmed = text.trim();
            return LocalTime.parse(trimmed.length() == 4 && trimmed.charAt(1) == ':' ? "0" + trimmed : trimmed);
        } catch (DateTimeParseException e) {
            throw invalid(field + " '" + text + "' is not a time of day (HH:mm, such as 09:30)");
        }
    }

    /** The time of day of a date-time. */
    private static LocalTime timeOf(String field, String text, ZoneId zone) {
        DueDates.Due due = DueDates.parse(field, text, zone);
        if (due.allDay()) {
            throw invalid(field + " '" + text + "' has no time of day");
        }
        return due.at().atZone(zone).toLocalTime();
    }

    /** From {@code start} to {@code end} on a clock; an end before the start is the next day. */
    private static Duration lengthBetween(LocalTime start, LocalTime end) {
        if (end.equals(start)) {
            throw invalid("endTime " + end + " is the same as startTime; an event must take some time");
        }
        Duration length = Duration.between(start, end);
        return length.isNegative() ? length.plusDays(1) : length;
    }

    private static Instant seconds(Instant at) {
        return at.truncatedTo(ChronoUnit.SECONDS);
    }

    private static List<String> attendees(JsonNode args) {
        JsonNode value = args.path("attendees");
        if (value.isTextual()) {
            return value.asText().isBlank() ? List.of() : List.of(value.asText().trim());
        }
        if (!value.isMissingNode() && !value.isNull() && !value.isArray()) {
            throw invalid("'attendees' must be an array of names or email addresses");
        }
        List<String> people = new ArrayList<>();
        value.forEach(a -> {
            if (!a.asText().isBlank()) {
                people.add(a.asText().trim());
            }
        });
        return people;
    }

    private static Optional<Integer> reminder(JsonNode args) {
        JsonNode value = args.path("reminderMinutesBefore");
        if (value.isMissingNode() || value.isNull()) {
            return Optional.empty();
        }
        if (!value.canConvertToInt() || value.asInt() < 0) {
            throw invalid("reminderMinutesBefore must be a number of minutes, 0 or more, was " + value);
        }
        return Optional.of(value.asInt());
    }

    private static ObjectNode occurrencesResult(String field, List<Occurrence> found, OperationContext context) {
        ObjectNode out = Json.object();
        ArrayNode array = out.putArray(field);
        found.forEach(o -> array.add(o.toJson(context.zone())));
        out.put("count", found.size());
        return out;
    }

    private static ObjectNode eventsResult(String field, List<Event> found, OperationContext context) {
        ObjectNode out = Json.object();
        out.set(field, array(found, context));
        out.put("count", found.size());
        return out;
    }

    private static ArrayNode array(List<Event> events, OperationContext context) {
        ArrayNode array = Json.mapper().createArrayNode();
        events.forEach(e -> array.add(e.toJson(context.zone())));
        return array;
    }

    private static Event require(Connection c, String user, String id) throws SQLException {
        return Events.find(c, user, id).orElseThrow(() -> new NotFoundException("no event '" + id + "'"));
    }

    private static String text(JsonNode args, String field) {
        JsonNode value = args.path(field);
        if (!value.isTextual() || value.asText().isBlank()) {
            throw invalid("'" + field + "' is required for this operation");
        }
        return value.asText().trim();
    }

    private static Optional<String> optionalText(JsonNode args, String field) {
        JsonNode value = args.path(field);
        return value.isTextual() && !value.asText().isBlank()
                ? Optional.of(value.asText().trim())
                : Optional.empty();
    }

    private static Instant instant(JsonNode node, String field, Instant otherwise) {
        try {
            return node.path(field).isTextual() ? Instant.parse(node.get(field).asText()) : otherwise;
        } catch (DateTimeParseException e) {
            return otherwise;
        }
    }

    static WeftException invalid(String message) {
        return new WeftException(ErrorCode.E_ARGS_INVALID, message);
    }
}
