package dev.weft.memo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What Memo says about the calendar, in the user's language: what a calendar step did, an event's day
 * and time or how it repeats, and what a bulk delete waiting for approval would remove. Templates
 * only, no model. Stateless.
 */
public final class CalendarReplies {
    private static final DateTimeFormatter EN_TIME = DateTimeFormatter.ofPattern("EEE d MMM, HH:mm", Locale.ENGLISH);
    private static final DateTimeFormatter EN_DAY = DateTimeFormatter.ofPattern("EEE d MMM", Locale.ENGLISH);
    private static final DateTimeFormatter EN_DATE = DateTimeFormatter.ofPattern("d MMM", Locale.ENGLISH);
    private static final DateTimeFormatter HE_TIME = DateTimeFormatter.ofPattern("d.M 'בשעה' HH:mm");
    private static final DateTimeFormatter HE_DAY = DateTimeFormatter.ofPattern("d.M");
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm");
    private static final Map<String, DayOfWeek> BYDAY = Map.of(
            "MO", DayOfWeek.MONDAY,
            "TU", DayOfWeek.TUESDAY,
            "WE", DayOfWeek.WEDNESDAY,
            "TH", DayOfWeek.THURSDAY,
            "FR", DayOfWeek.FRIDAY,
            "SA", DayOfWeek.SATURDAY,
            "SU", DayOfWeek.SUNDAY);
    private static final Map<DayOfWeek, String> HE_DAYS = Map.of(
            DayOfWeek.SUNDAY, "ראשון",
            DayOfWeek.MONDAY, "שני",
            DayOfWeek.TUESDAY, "שלישי",
            DayOfWeek.WEDNESDAY, "רביעי",
            DayOfWeek.THURSDAY, "חמישי",
            DayOfWeek.FRIDAY, "שישי",
            DayOfWeek.SATURDAY, "שבת");
    /** The most instances a reply about a repeating event lists. */
    private static final int INSTANCES_SHOWN = 10;

    private CalendarReplies() {}

    /** What the calendar step {@code action} did, from its result. */
    static String done(String language, String action, JsonNode result, ZoneId zone) {
        return switch (action) {
            case "create_event", "create_recurring" -> {
                JsonNode event = result.path("event");
                yield Texts.of(language, "Scheduled ", "קבעתי ") + quoted(event) + " — " + when(language, event, zone)
                        + "." + overlaps(language, result.path("conflicts"));
            }
            case "update_event" -> updated(language, result, zone);
            case "delete_event" -> {
                JsonNode event = result.path("deleted").path(0);
                yield Texts.of(language, "Deleted ", "מחקתי את ") + quoted(event) + " (" + when(language, event, zone)
                        + ").";
            }
            case "delete_events" -> {
                int count = result.path("count").asInt(result.path("deleted").size());
                if (count == 0) {
                    yield Texts.of(language, "There was nothing to delete then.", "לא היה מה למחוק בזמן הזה.");
                }
                if (count == 1) {
                    yield Texts.of(language, "Deleted 1 event: ", "מחקתי אירוע אחד: ")
                            + quoted(result.path("deleted").path(0)) + ".";
                }
                yield Texts.of(language, "Deleted " + count + " events.", "מחקתי " + count + " אירועים.");
            }
            case "end_recurring" -> {
                JsonNode event = result.path("event");
                String until = day(language, event.path("until").asText(""));
                yield Texts.of(
                        language,
                        quoted(event) + " now ends on " + until + ".",
                        quoted(event) + " יסתיים ב-" + until + ".");
            }
            case "find_event" -> described(language, result.path("event"), zone);
            case "get_recurring" -> {
                StringBuilder text = new StringBuilder(described(language, result.path("event"), zone));
                JsonNode instances = result.path("instances");
                if (!instances.isEmpty()) {
                    text.append("\n").append(Texts.of(language, "Next:", "הפעמים הבאות:"));
                    for (int i = 0; i < Math.min(INSTANCES_SHOWN, instances.size()); i++) {
                        text.append("\n- ").append(eventTime(language, instances.get(i), zone));
                    }
                }
                yield text.toString();
            }
            case "list_events" -> whatIsOn(language, result.path("events"), result.path("due"), zone);
            case "check_conflicts" -> {
                JsonNode conflicts = result.path("conflicts");
                if (conflicts.isEmpty()) {
                    yield Texts.of(language, "You're free then.", "הזמן הזה פנוי ביומן שלך.");
                }
                yield listed(Texts.of(language, "That time is taken:", "הזמן הזה תפוס:"), language, conflicts, zone);
            }
            default -> Texts.of(language, "Done.", "בוצע.");
        };
    }

    /** What a calendar call waiting for approval would do, for "This will … Shall I go ahead?". */
    static String pending(String language, JsonNode args, ZoneId zone) {
        String operation = args.path("operation").asText();
        return switch (operation) {
            case "delete" -> {
                List<String> kept = new ArrayList<>();
                args.path("excludeSummaries").forEach(s -> kept.add("\"" + s.asText() + "\""));
                String except =
                        kept.isEmpty() ? "" : Texts.of(language, " except ", " חוץ מ") + String.join(", ", kept);
                yield Texts.of(language, "delete every event ", "למחוק את כל האירועים ")
                        + span(
                                language,
                                args.path("timeMin").asText(""),
                                args.path("timeMax").asText(""),
                                zone)
                        + except;
            }
            case "deleteBySummary" ->
                Texts.of(
                        language,
                        "delete every event called \"" + args.path("summary").asText() + "\"",
                        "למחוק את כל האירועים בשם \"" + args.path("summary").asText() + "\"");
            case "deleteMultiple" -> {
                int count = args.path("eventIds").size();
                yield Texts.of(language, "delete " + count + " events", "למחוק " + count + " אירועים");
            }
            case "update" -> {
                String summary = args.path("searchCriteria")
                        .path("summary")
                        .asText(args.path("summary").asText(""));
                yield Texts.of(language, "change the event", "לשנות את האירוע")
                        + (summary.isEmpty() ? "" : " \"" + summary + "\"");
            }
            default -> "calendarOperations " + operation;
        };
    }

    /** When an event takes place: how it repeats, or its day and time. */
    public static String when(String language, JsonNode event, ZoneId zone) {
        return event.path("recurrence").isTextual() ? repeats(language, event, zone) : eventTime(language, event, zone);
    }

    /** An event's (or an occurrence's) day and time: "Wed 25 Nov, 15:00–16:00", "25.11 בשעה 15:00–16:00". */
    static String eventTime(String language, JsonNode event, ZoneId zone) {
        String start = event.path("start").asText("");
        String end = event.path("end").asText(start);
        try {
            if (event.path("allDay").asBoolean(false)) {
                LocalDate first = LocalDate.parse(start);
                LocalDate last = LocalDate.parse(end);
                if (!last.isAfter(first)) {
                    return Texts.of(language, first.format(EN_DAY) + " (all day)", first.format(HE_DAY) + " (כל היום)");
                }
                return Texts.of(
                        language,
                        first.format(EN_DAY) + " – " + last.format(EN_DAY),
                        first.format(HE_DAY) + "–" + last.format(HE_DAY));
            }
            ZonedDateTime from = OffsetDateTime.parse(start).atZoneSameInstant(zone);
            ZonedDateTime to = OffsetDateTime.parse(end).atZoneSameInstant(zone);
            DateTimeFormatter full = language.equals("he") ? HE_TIME : EN_TIME;
            if (from.toLocalDate().equals(to.toLocalDate())) {
                return from.format(full) + "–" + to.format(CLOCK);
            }
            return from.format(full) + " – " + to.format(full);
        } catch (DateTimeException e) {
            return start;
        }
    }

    /** How an event repeats, from its RRULE: "every Tuesday at 10:00", "כל יום שלישי בשעה 10:00". */
    static String repeats(String language, JsonNode event, ZoneId zone) {
        Map<String, String> rule = new HashMap<>();
        for (String part : event.path("recurrence").asText("").split(";")) {
            int equals = part.indexOf('=');
            if (equals > 0) {
                rule.put(part.substring(0, equals).toUpperCase(Locale.ROOT), part.substring(equals + 1));
            }
        }
        boolean allDay = event.path("allDay").asBoolean(false);
        LocalDate firstDay;
        LocalTime time;
        try {
            if (allDay) {
                firstDay = LocalDate.parse(event.path("start").asText());
                time = LocalTime.MIDNIGHT;
            } else {
                ZonedDateTime start =
                        OffsetDateTime.parse(event.path("start").asText()).atZoneSameInstant(zone);
                firstDay = start.toLocalDate();
                time = start.toLocalTime();
            }
        } catch (DateTimeException e) {
            return Texts.of(language, "repeating", "חוזר");
        }
        int interval = parseInt(rule.getOrDefault("INTERVAL", "1"), 1);
        String how = switch (rule.getOrDefault("FREQ", "")) {
            case "DAILY" ->
                interval == 1
                        ? Texts.of(language, "every day", "כל יום")
                        : Texts.of(language, "every " + interval + " days", "כל " + interval + " ימים");
            case "WEEKLY" -> {
                List<DayOfWeek> days = new ArrayList<>();
                for (String day : rule.getOrDefault("BYDAY", "").split(",")) {
                    DayOfWeek named = BYDAY.get(day.replaceAll("^[+-]?\\d*", "").toUpperCase(Locale.ROOT));
                    if (named != null) {
                        days.add(named);
                    }
                }
                if (days.isEmpty()) {
                    days.add(firstDay.getDayOfWeek());
                }
                yield everyWeek(language, days, interval);
            }
            case "MONTHLY" -> {
                List<Integer> days = new ArrayList<>();
                for (String day : rule.getOrDefault("BYMONTHDAY", "").split(",")) {
                    int n = parseInt(day, 0);
                    if (n != 0) {
                        days.add(n);
                    }
                }
                if (days.isEmpty() && rule.containsKey("BYDAY")) {
                    Set<Integer> weeks = new LinkedHashSet<>();
                    List<DayOfWeek> weekdays = new ArrayList<>();
                    String[] byDay = rule.get("BYDAY").split(",");
                    for (String day : byDay) {
                        String ordinal = day.replaceAll("[A-Za-z]+$", "");
                        DayOfWeek named =
                                BYDAY.get(day.substring(ordinal.length()).toUpperCase(Locale.ROOT));
                        if (named != null && !ordinal.isEmpty()) {
                            weeks.add(parseInt(ordinal.replace("+", ""), 0));
                            weekdays.add(named);
                        }
                    }
                    if (weeks.size() == 1 && !weeks.contains(0) && weekdays.size() == byDay.length) {
                        yield everyMonthOn(language, weeks.iterator().next(), weekdays, interval);
                    }
                    yield interval == 1
                            ? Texts.of(language, "every month", "כל חודש")
                            : Texts.of(language, "every " + interval + " months", "כל " + interval + " חודשים");
                }
                if (days.isEmpty()) {
                    days.add(firstDay.getDayOfMonth());
                }
                yield everyMonthOn(language, days, interval);
            }
            case "YEARLY" ->
                Texts.of(language, "every year on " + firstDay.format(EN_DATE), "כל שנה ב-" + firstDay.format(HE_DAY));
            default -> Texts.of(language, "repeating", "חוזר");
        };
        String at = allDay ? "" : Texts.of(language, " at ", " בשעה ") + time.format(CLOCK);
        String until = event.path("until").asText("");
        return how + at + (until.isEmpty() ? "" : Texts.of(language, ", until ", ", עד ") + day(language, until));
    }

    private static String updated(String language, JsonNode result, ZoneId zone) {
        JsonNode event = result.path("event");
        JsonNode before = result.path("previous").path(0);
        String when = when(language, event, zone);
        boolean moved =
                !event.path("start").asText().equals(before.path("start").asText())
                        || !event.path("end").asText().equals(before.path("end").asText());
        boolean renamed = before.has("summary")
                && !before.path("summary").asText().equals(event.path("summary").asText());
        if (moved) {
            return Texts.of(language, "Moved ", "הזזתי את ") + quoted(event) + Texts.of(language, " to ", " ל-") + when
                    + ".";
        }
        if (renamed) {
            return Texts.of(
                    language,
                    "Renamed " + quoted(before) + " to " + quoted(event) + " — " + when + ".",
                    "שיניתי את השם של " + quoted(before) + " ל" + quoted(event) + " — " + when + ".");
        }
        return Texts.of(language, "Updated ", "עדכנתי את ") + quoted(event) + " — " + when + ".";
    }

    /** One event in full: its name, when, where and with whom. */
    private static String described(String language, JsonNode event, ZoneId zone) {
        StringBuilder text = new StringBuilder(quoted(event)).append(" — ").append(when(language, event, zone));
        if (event.path("location").isTextual()) {
            text.append(
                    Texts.of(language, ", at ", ", ב") + event.get("location").asText());
        }
        List<String> people = new ArrayList<>();
        event.path("attendees").forEach(a -> people.add(a.asText()));
        if (!people.isEmpty()) {
            text.append(Texts.of(language, ", with ", ", עם ")).append(String.join(", ", people));
        }
        return text.append(".").toString();
    }

    /**
     * A listing of the calendar as a person asking "what do I have tomorrow?" expects it: the events,
     * then the tasks and reminders due in the same window, and a plain "nothing" only when there is
     * neither.
     */
    private static String whatIsOn(String language, JsonNode events, JsonNode due, ZoneId zone) {
        if (events.isEmpty() && due.isEmpty()) {
            return Texts.of(
                    language,
                    "Nothing on your calendar, and no tasks or reminders due then.",
                    "אין לך כלום ביומן, ואין משימות או תזכורות בזמן הזה.");
        }
        StringBuilder text = new StringBuilder();
        if (events.isEmpty()) {
            text.append(Texts.of(
                    language,
                    "Nothing on your calendar then, but you have ",
                    "אין לך כלום ביומן בזמן הזה, אבל יש לך "));
        } else {
            text.append(listed(
                    Texts.of(
                            language,
                            "You have " + events.size() + (events.size() == 1 ? " event:" : " events:"),
                            events.size() == 1 ? "יש לך אירוע אחד:" : "יש לך " + events.size() + " אירועים:"),
                    language,
                    events,
                    zone));
            if (due.isEmpty()) {
                return text.toString();
            }
            text.append("\n").append(Texts.of(language, "And ", "וגם "));
        }
        text.append(dueCount(language, due)).append(":");
        return Replies.numbered(text, language, due, zone);
    }

    /** "1 reminder", "2 tasks", "3 tasks and reminders" (and in Hebrew) for what falls due. */
    private static String dueCount(String language, JsonNode due) {
        int reminders = 0;
        for (JsonNode task : due) {
            if (task.has("reminder") || task.has("reminderRecurrence")) {
                reminders++;
            }
        }
        int count = due.size();
        if (reminders == count) {
            return Texts.of(
                    language,
                    count == 1 ? "1 reminder" : count + " reminders",
                    count == 1 ? "תזכורת אחת" : count + " תזכורות");
        }
        if (reminders == 0) {
            return Texts.of(
                    language,
                    count == 1 ? "1 task due" : count + " tasks due",
                    count == 1 ? "משימה אחת" : count + " משימות");
        }
        return Texts.of(language, count + " tasks and reminders", count + " משימות ותזכורות");
    }

    private static String listed(String head, String language, JsonNode events, ZoneId zone) {
        StringBuilder text = new StringBuilder(head);
        int i = 1;
        for (JsonNode event : events) {
            text.append("\n")
                    .append(i++)
                    .append(". ")
                    .append(event.path("summary").asText())
                    .append(" (")
                    .append(eventTime(language, event, zone))
                    .append(")");
        }
        return text.toString();
    }

    /** " It overlaps "…"." for the events a new one overlaps, each named once. */
    private static String overlaps(String language, JsonNode conflicts) {
        Set<String> names = new LinkedHashSet<>();
        conflicts.forEach(c -> names.add(quoted(c)));
        if (names.isEmpty()) {
            return "";
        }
        List<String> all = List.copyOf(names);
        return Texts.of(
                language,
                " It overlaps " + joined(all, " and ") + ".",
                " זה חופף ל" + joinedHe(all.stream().toList()) + ".");
    }

    /** "from Wed 25 Nov to Fri 27 Nov", "on Wed 25 Nov", or with times when the range is not whole days. */
    private static String span(String language, String timeMin, String timeMax, ZoneId zone) {
        try {
            ZonedDateTime from = EventLookup.zoned("timeMin", timeMin, zone);
            boolean wholeFrom =
                    EventLookup.isDate(timeMin) || from.toLocalTime().equals(LocalTime.MIDNIGHT);
            LocalDate lastDay;
            boolean wholeTo;
            if (EventLookup.isDate(timeMax)) {
                lastDay = LocalDate.parse(timeMax.trim());
                wholeTo = true;
            } else {
                ZonedDateTime to = EventLookup.zoned("timeMax", timeMax, zone);
                wholeTo = to.toLocalTime().equals(LocalTime.MIDNIGHT)
                        || !to.toLocalTime().isBefore(LocalTime.of(23, 59));
                lastDay = to.toLocalTime().equals(LocalTime.MIDNIGHT)
                        ? to.toLocalDate().minusDays(1)
                        : to.toLocalDate();
                if (!(wholeFrom && wholeTo)) {
                    return Texts.of(
                            language,
                            "from " + from.format(EN_TIME) + " to " + to.format(EN_TIME),
                            "מ-" + from.format(HE_TIME) + " עד " + to.format(HE_TIME));
                }
            }
            LocalDate firstDay = from.toLocalDate();
            if (!lastDay.isAfter(firstDay)) {
                return Texts.of(language, "on " + firstDay.format(EN_DAY), "ב-" + firstDay.format(HE_DAY));
            }
            return Texts.of(
                    language,
                    "from " + firstDay.format(EN_DAY) + " to " + lastDay.format(EN_DAY),
                    "מ-" + firstDay.format(HE_DAY) + " עד " + lastDay.format(HE_DAY));
        } catch (RuntimeException e) {
            return timeMin + " – " + timeMax;
        }
    }

    private static String day(String language, String date) {
        try {
            LocalDate day = LocalDate.parse(date);
            return language.equals("he") ? day.format(HE_DAY) : day.format(EN_DAY);
        } catch (DateTimeException e) {
            return date;
        }
    }

    private static String quoted(JsonNode event) {
        return "\"" + event.path("summary").asText() + "\"";
    }

    /** "every Sunday", "every 2 weeks on Monday and Thursday"; "כל יום ראשון", "כל 2 שבועות ביום שני וחמישי". */
    static String everyWeek(String language, List<DayOfWeek> days, int interval) {
        String en = joined(days.stream().map(CalendarReplies::englishDay).toList(), " and ");
        String he = joinedHe(days.stream().map(HE_DAYS::get).toList());
        return interval <= 1
                ? Texts.of(language, "every " + en, "כל יום " + he)
                : Texts.of(language, "every " + interval + " weeks on " + en, "כל " + interval + " שבועות ביום " + he);
    }

    /** "on the 10th of every month", "on the 1st and 15th of every 2 months"; "ב-10 בכל חודש". */
    static String everyMonthOn(String language, List<Integer> days, int interval) {
        String en = joined(days.stream().map(CalendarReplies::ordinal).toList(), " and ");
        String he = joinedHe(days.stream().map(d -> "ב-" + d).toList());
        return interval <= 1
                ? Texts.of(language, "on the " + en + " of every month", he + " בכל חודש")
                : Texts.of(
                        language,
                        "on the " + en + " of every " + interval + " months",
                        he + " בכל " + interval + " חודשים");
    }

    /**
     * The n-th ({@code week} 1-5, −1 the last) of {@code days} in a month: "on the last Friday of every
     * month", "on the first Monday and Wednesday of every month"; "ביום שישי האחרון של כל חודש".
     */
    static String everyMonthOn(String language, int week, List<DayOfWeek> days, int interval) {
        String en = joined(days.stream().map(CalendarReplies::englishDay).toList(), " and ");
        String he = joinedHe(days.stream().map(HE_DAYS::get).toList());
        String enWeek = switch (week) {
            case -1 -> "last";
            case 1 -> "first";
            case 2 -> "second";
            case 3 -> "third";
            case 4 -> "fourth";
            default -> "fifth";
        };
        String heWeek = switch (week) {
            case -1 -> "האחרון";
            case 1 -> "הראשון";
            case 2 -> "השני";
            case 3 -> "השלישי";
            case 4 -> "הרביעי";
            default -> "החמישי";
        };
        return interval <= 1
                ? Texts.of(
                        language,
                        "on the " + enWeek + " " + en + " of every month",
                        "ביום " + he + " " + heWeek + " של כל חודש")
                : Texts.of(
                        language,
                        "on the " + enWeek + " " + en + " of every " + interval + " months",
                        "ביום " + he + " " + heWeek + " של כל " + interval + " חודשים");
    }

    private static String englishDay(DayOfWeek day) {
        return day.getDisplayName(TextStyle.FULL, Locale.ENGLISH);
    }

    /** "a", "a and b", "a, b and c". */
    private static String joined(List<String> items, String and) {
        if (items.size() <= 1) {
            return String.join("", items);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + and + items.get(items.size() - 1);
    }

    /** "א", "א וב", "א, ב וג" (the last joined by the letter ו). */
    private static String joinedHe(List<String> items) {
        if (items.size() <= 1) {
            return String.join("", items);
        }
        return String.join(", ", items.subList(0, items.size() - 1)) + " ו" + items.get(items.size() - 1);
    }

    private static String ordinal(int day) {
        String suffix = day % 100 >= 11 && day % 100 <= 13
                ? "th"
                : switch (day % 10) {
                    case 1 -> "st";
                    case 2 -> "nd";
                    case 3 -> "rd";
                    default -> "th";
                };
        return day + suffix;
    }

    private static int parseInt(String text, int otherwise) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
