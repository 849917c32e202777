package dev.weft.memo.internal;

import static dev.weft.memo.internal.MemoResolvers.args;
import static dev.weft.memo.internal.MemoResolvers.copy;
import static dev.weft.memo.internal.MemoResolvers.hhmm;
import static dev.weft.memo.internal.MemoResolvers.iso;
import static dev.weft.memo.internal.MemoResolvers.language;
import static dev.weft.memo.internal.MemoResolvers.noResolver;
import static dev.weft.memo.internal.MemoResolvers.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.MemoTools;
import dev.weft.memo.data.Event;
import dev.weft.memo.internal.planning.Times;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.time.TimeExpression;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Seed 002's CalendarMutateResolver: creating, changing and deleting the user's events, an event
 * found by its words among the user's own (several: a numbered question). Thread-safe.
 */
final class CalendarMutateResolver implements Resolver {
    private final MemoResolvers resolvers;

    CalendarMutateResolver(MemoResolvers resolvers) {
        this.resolvers = resolvers;
    }

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
                "create_event", "create_recurring", "update_event", "delete_event", "delete_events", "end_recurring");
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
                if (!args.has("start")) {
                    // "put a meeting in my calendar": when? The answer is read as a time.
                    Optional<TimeExpression> when = resolvers.timeAnswer(context);
                    if (when.isEmpty()) {
                        return Resolution.clarify(Texts.of(
                                language(context),
                                "When is \"" + text(args, "summary").orElse("it") + "\"?",
                                "מתי \"" + text(args, "summary").orElse("זה") + "\"?"));
                    }
                    times(when.get(), c.path("durationMinutes").asLong(60), resolvers.zone(context), args);
                }
                if (text(args, "start").map(EventLookup::isDate).orElse(false) && !args.has("allDay")) {
                    args.put("allDay", true);
                }
                return named(args, context);
            }
            case "create_recurring" -> {
                return named(recurring(c, context), context);
            }
            case "update_event" -> {
                Object picked = resolvers.event(step, context, false);
                if (picked instanceof Resolution question) {
                    return question;
                }
                EventLookup.Found found = (EventLookup.Found) picked;
                ZoneId zone = resolvers.zone(context);
                ObjectNode changes = step.changes().deepCopy();
                if (changes.isEmpty()) {
                    // "reschedule the dentist": to when? The answer is read as a time.
                    Optional<TimeExpression> when = resolvers.timeAnswer(context);
                    if (when.isEmpty()) {
                        return Resolution.clarify(Texts.of(
                                language(context),
                                "When should \"" + found.event().summary() + "\" move to?",
                                "לאן להזיז את \"" + found.event().summary() + "\"?"));
                    }
                    times(when.get(), -1, zone, changes);
                }
                ObjectNode fields = updateFields(found, changes, zone);
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
                Object picked = resolvers.event(step, context, series);
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
            if (MemoResolvers.reply(context).isEmpty()) {
                return Resolution.clarify(
                        Texts.of(language(context), "What should I call the event?", "איך לקרוא לאירוע?"));
            }
            args.put("summary", MemoResolvers.reply(context).get());
        }
        return Resolution.execute(MemoTools.CALENDAR, args);
    }

    /**
     * {@code createRecurring}'s arguments: the time of day and first day from {@code start} (and
     * {@code end}), and {@code days} when given, else the {@code rrule} without the time of day the
     * start already says.
     */
    private ObjectNode recurring(JsonNode c, ResolveContext context) {
        ZoneId zone = resolvers.zone(context);
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
        Optional<String> startTime = text(changes, "startTime")
                .or(() -> text(changes, "clock").map(clock -> {
                    // An hour said bare ("to 4"): the one of 04:00 and 16:00 nearer the event's own start.
                    String[] hm = clock.split(":");
                    int hour = Times.nearest(
                            Integer.parseInt(hm[0]),
                            Optional.of(found.shown().start().atZone(zone)));
                    return String.format("%02d:%s", hour, hm[1]);
                }));
        Optional<Duration> lasts = changes.has("durationMinutes")
                ? Optional.of(Duration.ofMinutes(changes.get("durationMinutes").asLong()))
                : Optional.empty();
        Optional<String> end = text(changes, "end");
        Optional<String> endTime = text(changes, "endTime");
        if (start.isEmpty() && startTime.isEmpty() && end.isEmpty() && endTime.isEmpty() && lasts.isEmpty()) {
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
        Duration length = lasts.orElse(event.allDay() ? Duration.ofHours(1) : Duration.between(oldStart, oldEnd));
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
                .map(t -> t.format(java.time.format.DateTimeFormatter.ofPattern("HH:mm")))
                .orElseThrow(() -> EventLookup.invalid("'" + time + "' is not a time of day (HH:mm)"));
    }

    /**
     * The times of an answer into {@code into}: a day as an all-day date, a stretch as it is, a time
     * of day for {@code minutes} (or, below zero, as long as the event already is: a start only).
     */
    private static void times(TimeExpression when, long minutes, ZoneId zone, ObjectNode into) {
        switch (when) {
            case TimeExpression.Instant i -> {
                if (i.grain().compareTo(dev.weft.time.Grain.DAY) >= 0) {
                    into.put("start", i.value().toLocalDate().toString());
                } else {
                    ZonedDateTime at = i.value().withZoneSameInstant(zone);
                    into.put("start", iso(at));
                    if (minutes >= 0) {
                        into.put("end", iso(at.plusMinutes(minutes)));
                    }
                }
            }
            case TimeExpression.Interval i -> {
                into.put("start", iso(i.from().withZoneSameInstant(zone)));
                into.put("end", iso(i.to().withZoneSameInstant(zone)));
            }
            case TimeExpression.Recurrence r -> into.put("start", iso(r.first().withZoneSameInstant(zone)));
        }
    }
}
