package dev.weft.memo.internal.planning;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.language.NumberWords;
import dev.weft.time.Grain;
import dev.weft.time.Span;
import dev.weft.time.TimeExpression;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time a request is about, and the forms Memo's resolvers read it in: which of the times found
 * in a request counts (a day and a clock said apart are one time: "tomorrow … at 6pm"), the due date
 * of a task, the window of a query (a part of the day is the whole of it: "this evening"), an
 * event's start and end (its length when said: "a 90-minute review"), a reminder's recurrence.
 */
public final class Times {
    private static final int FLAGS = Words.FLAGS;
    private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
    private static final DateTimeFormatter HH_MM = DateTimeFormatter.ofPattern("HH:mm");

    /** The time chosen for a request, and every stretch of its text that said it. */
    public record Chosen(TimeExpression time, List<Span> spans) {
        public Chosen {
            spans = List.copyOf(spans);
        }
    }

    /** A clock time said without a day: "4pm", "at 16:30", "noon", "ב-16:00", "לאחת עשרה". */
    static final Pattern CLOCK_ONLY = Pattern.compile(
            "(?:at\\s+|to\\s+|@\\s*|by\\s+)?\\d{1,2}(?:[:.]\\d{2})?\\s*(?:am|pm|a\\.m\\.|p\\.m\\.|o'?clock)?"
                    + "|(?:at\\s+|to\\s+)?(?:noon|midday|midnight)"
                    + "|(?:at\\s+|to\\s+)?(?:half|quarter)\\s+(?:past|to)\\s+\\S+"
                    + "|(?:ב|ל)?-?\\s*\\d{1,2}(?::\\d{2})?(?:\\s+(?:בבוקר|בערב|בצהריים|אחה\"צ|בלילה))?|(?:ב|ל)?צהריים",
            FLAGS);
    /** Meals, which weft-time reads as times of day but requests name as events: "move lunch with Noa". */
    private static final Pattern MEAL = Pattern.compile(
            "^(?:the\\s+|my\\s+)?(?:lunch|dinner|breakfast|brunch|supper)$|^(?:ארוחת\\s+)?ה?(?:צהריים|ערב|בוקר)$",
            FLAGS);
    /** A time of day said by its part: "this evening", "tonight", "in the morning", "הערב", "אחה"צ". */
    private static final Pattern PART_OF_DAY = Pattern.compile(
            "\\b(?<morning>morning)\\b|\\b(?<afternoon>afternoon)\\b|\\b(?<evening>evening)\\b|\\b(?<night>tonight|night)\\b"
                    + "|(?<morning2>בוקר)|(?<afternoon2>אחה\"צ|אחר הצהריים|צהריים)|(?<evening2>ערב)|(?<night2>לילה)",
            FLAGS);

    /** A time counted from now: "in 20 minutes", "בעוד שעה", "עוד 5 דקות". */
    private static final Pattern RELATIVE =
            Pattern.compile("^(?:in|within|after)\\b|^(?:בעוד|עוד|תוך|אחרי)(?:\\s|$)", FLAGS);

    private static final Pattern SPACES = Pattern.compile("\\s{2,}");

    private Times() {}

    /**
     * A clock said as a bare number at the end of a change ("move the dentist to 4", "תעביר את הפגישה
     * ל-11"), which weft-time leaves unread as it could be a count: {@code H:MM} for {@link #nearest},
     * and where it starts.
     */
    public record BareClock(int hour, int minute, int start) {}

    private static final Pattern BARE_CLOCK = Pattern.compile(
            "\\s+(?:to|at|for|until|till|around|ל-?|ב-?|לשעה\\s+|בשעה\\s+)\\s*(?<h>\\d{1,2})(?:[:.](?<m>[0-5]\\d))?"
                    + "\\s*(?:o'?clock|instead|במקום)?\\s*[.!]*$",
            FLAGS);

    /** The bare clock at the end of {@code text}, if it says one (an hour up to 23). */
    public static Optional<BareClock> bareClock(String text) {
        Matcher m = BARE_CLOCK.matcher(text);
        if (!m.find()) {
            return Optional.empty();
        }
        int hour = Integer.parseInt(m.group("h"));
        if (hour > 23) {
            return Optional.empty();
        }
        return Optional.of(new BareClock(hour, m.group("m") == null ? 0 : Integer.parseInt(m.group("m")), m.start()));
    }

    /**
     * Of the two readings of an hour said without am or pm ({@code hour} and {@code hour + 12}), the one
     * nearer {@code was}, the time the thing had; without one, the afternoon for 1 to 6 (nobody sets
     * 3 a.m. without saying so). An hour after 12 is as said.
     */
    public static int nearest(int hour, Optional<ZonedDateTime> was) {
        if (hour > 12) {
            return hour;
        }
        int morning = hour % 12;
        int afternoon = morning + 12;
        if (was.isEmpty()) {
            return hour >= 1 && hour <= 6 ? afternoon : hour;
        }
        int then = was.get().getHour() * 60 + was.get().getMinute();
        return Math.abs(morning * 60 - then) <= Math.abs(afternoon * 60 - then) ? morning : afternoon;
    }

    /**
     * The time a request is about: its expression, once the meals that name events are passed over
     * when the request says another time; a day and a clock said apart ("tomorrow to call mom at 6pm")
     * made one; else the first that says more than a lone word.
     */
    public static Optional<Chosen> choose(List<TimeExpression> found, ZonedDateTime now, String language) {
        List<TimeExpression> times = new ArrayList<>(found);
        if (times.size() > 1) {
            times.removeIf(t -> MEAL.matcher(t.text().trim()).matches());
        }
        if (times.isEmpty()) {
            return Optional.empty();
        }
        if (times.size() >= 2) {
            Optional<TimeExpression.Instant> day = times.stream()
                    .filter(t -> t instanceof TimeExpression.Instant i && i.grain() == Grain.DAY)
                    .map(TimeExpression.Instant.class::cast)
                    .findFirst();
            Optional<TimeExpression.Instant> clock = times.stream()
                    .filter(t ->
                            t instanceof TimeExpression.Instant i && i.grain().compareTo(Grain.HOUR) <= 0)
                    .map(TimeExpression.Instant.class::cast)
                    .findFirst();
            if (day.isPresent() && clock.isPresent()) {
                // Said together, the two read by weft-time's conventions ("tomorrow at 9" is 09:00).
                TimeExpression.Instant at =
                        reread(day.get(), clock.get(), now, language).orElseGet(() -> daytime(clock.get(), now));
                ZonedDateTime both = day.get()
                        .value()
                        .toLocalDate()
                        .atTime(at.value().toLocalTime())
                        .atZone(day.get().value().getZone());
                TimeExpression.Instant joined = new TimeExpression.Instant(
                        day.get().text() + " " + clock.get().text(),
                        day.get().span(),
                        both,
                        clock.get().grain());
                return Optional.of(
                        new Chosen(joined, List.of(day.get().span(), clock.get().span())));
            }
        }
        TimeExpression chosen = times.get(0);
        for (TimeExpression t : times) {
            String said = t.text().trim();
            if (said.contains(" ") || said.contains("-") || times.size() == 1) {
                chosen = t;
                break;
            }
        }
        if (chosen instanceof TimeExpression.Instant i) {
            chosen = daytime(i, now);
        }
        return Optional.of(new Chosen(chosen, List.of(chosen.span())));
    }

    private static final dev.weft.time.TimeParser TIME = dev.weft.time.TimeParser.create();

    /** How long {@code text} says something lasts ("for 10 minutes", "עשרים דקות"), by weft-time. */
    static Optional<Duration> lasting(String text, String language) {
        return TIME.length(
                text, language.equals("he") ? dev.weft.time.Language.HEBREW : dev.weft.time.Language.ENGLISH);
    }

    /** A day and a clock said apart, read as if said together: the clock on that day. */
    private static Optional<TimeExpression.Instant> reread(
            TimeExpression.Instant day, TimeExpression.Instant clock, ZonedDateTime now, String language) {
        try {
            return TIME.parse(
                            day.text().trim() + " " + clock.text().trim(),
                            now,
                            language.equals("he") ? dev.weft.time.Language.HEBREW : dev.weft.time.Language.ENGLISH)
                    .filter(t -> t instanceof TimeExpression.Instant i
                            && i.grain().compareTo(Grain.HOUR) <= 0
                            && i.value().toLocalDate().equals(day.value().toLocalDate()))
                    .map(t -> daytime((TimeExpression.Instant) t, now));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** {@code text} without the stretches that said its time. */
    public static String without(String text, List<Span> spans) {
        List<Span> sorted = new ArrayList<>(spans);
        sorted.sort((a, b) -> Integer.compare(b.start(), a.start()));
        StringBuilder out = new StringBuilder(text);
        for (Span span : sorted) {
            int start = Math.max(0, Math.min(span.start(), out.length()));
            int end = Math.max(start, Math.min(span.end(), out.length()));
            out.replace(start, end, " ");
        }
        return SPACES.matcher(out).replaceAll(" ").trim();
    }

    /** A clock hour said alone: "at 3", "ב-3", "3:30" — no am/pm, no part of the day, no leading zero. */
    private static final Pattern BARE_HOUR = Pattern.compile("^(?:at\\s+|@\\s*|ב-?\\s*)?[1-6](?::[0-5]\\d)?$", FLAGS);

    /**
     * Memo's reading of an hour said alone: weft-time takes the next such hour ("at 3" said at 16:00
     * is 03:00), but nobody asks an assistant for 3 a.m. without saying so, so an hour from 1 to 6 said
     * alone that falls in the small hours is read in the afternoon (15:00 the same day).
     */
    static TimeExpression.Instant daytime(TimeExpression.Instant at, ZonedDateTime now) {
        if (at.value().getHour() >= 1
                && at.value().getHour() <= 6
                && BARE_HOUR.matcher(at.text().trim()).matches()) {
            ZonedDateTime afternoon = at.value().plusHours(12);
            if (afternoon.minusDays(1).isAfter(now)) {
                afternoon = afternoon.minusDays(1);
            }
            return new TimeExpression.Instant(at.text(), at.span(), afternoon, at.grain());
        }
        return at;
    }

    /** A clock said without am, pm or a part of the day: "at 7", "6:30", "בשש וחצי". */
    private static final Pattern PLAIN_CLOCK = Pattern.compile(
            "^(?:at\\s+|for\\s+|@\\s*|ב-?\\s*|ל-?\\s*)?(?:\\d{1,2}(?::[0-5]\\d)?|\\p{IsHebrew}+(?:\\s+(?:וחצי|ורבע|ועשרה))?)$",
            FLAGS);

    /**
     * An alarm's reading of a clock said alone: a wake-up is in the morning, so "at 7" or "6:30" is
     * the next 7:00 or 6:30 in the morning, not this evening's, as a reminder's would be.
     */
    public static TimeExpression morning(TimeExpression t, ZonedDateTime now) {
        if (!(t instanceof TimeExpression.Instant i)
                || i.value().getHour() < 12
                || i.value().getHour() > 20) {
            return t;
        }
        String clock = i.text()
                .trim()
                .replaceFirst("(?iU)^(?:tomorrow|today|מחר|היום)\\s+", "")
                .replaceFirst("(?iU)\\s+(?:tomorrow|today|מחר|היום)$", "");
        if (!PLAIN_CLOCK.matcher(clock).matches()) {
            return t;
        }
        ZonedDateTime am = i.value().minusHours(12);
        if (!am.isAfter(now)) {
            am = am.plusDays(1);
        }
        return new TimeExpression.Instant(i.text(), i.span(), am, i.grain());
    }

    /** Whether {@code t} is a clock time said without a day ("to 4pm"): a move keeps the event's day. */
    static boolean clockOnly(TimeExpression t) {
        return t instanceof TimeExpression.Instant i
                && CLOCK_ONLY.matcher(i.text().trim()).matches();
    }

    static String hhmm(ZonedDateTime at) {
        return at.toLocalTime().format(HH_MM);
    }

    /** The due date a time names: an instant as it is, a day at the start of it (an all-day date). */
    static Optional<String> dueOf(TimeExpression t, ZonedDateTime now) {
        return switch (t) {
            case TimeExpression.Instant i -> {
                if (i.grain().compareTo(Grain.DAY) >= 0) {
                    yield Optional.of(i.value().toLocalDate().toString());
                }
                // "in 1 minute" said at 10:42:50 is due at 10:43:50, a minute on; a clock time is on its minute.
                ZonedDateTime at = RELATIVE.matcher(i.text().trim()).find()
                        ? i.value().truncatedTo(ChronoUnit.SECONDS)
                        : i.value().truncatedTo(ChronoUnit.MINUTES);
                // Seed 002's forward-looking rule: a time of day already past today is tomorrow's.
                if (at.isBefore(now.minusMinutes(1)) && at.toLocalDate().equals(now.toLocalDate())) {
                    at = at.plusDays(1);
                }
                yield Optional.of(at.format(ISO));
            }
            case TimeExpression.Interval i ->
                Optional.of(i.from().truncatedTo(ChronoUnit.MINUTES).format(ISO));
            case TimeExpression.Recurrence r -> Optional.of(r.first().format(ISO));
        };
    }

    /** A task filter's window for a time: today, tomorrow, this_week, or upcoming. */
    static String windowName(TimeExpression t, ZonedDateTime now) {
        ZonedDateTime from = switch (t) {
            case TimeExpression.Instant i -> i.value();
            case TimeExpression.Interval i -> i.from();
            case TimeExpression.Recurrence r -> r.first();
        };
        long days = ChronoUnit.DAYS.between(now.toLocalDate(), from.toLocalDate());
        if (t instanceof TimeExpression.Instant i && i.grain().compareTo(Grain.WEEK) >= 0
                || t instanceof TimeExpression.Interval) {
            return "this_week";
        }
        return days == 0 ? "today" : days == 1 ? "tomorrow" : days < 0 ? "overdue" : "upcoming";
    }

    /**
     * The whole of the time a query names, into {@code fromField} and {@code toField}: a day from its
     * start to its end, a part of a day all of it ("this evening": 17:00 to midnight), an hour an
     * hour, an interval as it is.
     */
    static void window(TimeExpression t, ObjectNode constraints, String fromField, String toField) {
        ZonedDateTime from;
        ZonedDateTime to;
        switch (t) {
            case TimeExpression.Interval i -> {
                from = i.from();
                to = i.grain().compareTo(Grain.DAY) >= 0
                        ? i.to().plus(1, unit(i.grain())).minusSeconds(1)
                        : i.to();
            }
            case TimeExpression.Instant i -> {
                Optional<int[]> part = partOfDay(i);
                if (part.isPresent()) {
                    ZonedDateTime day =
                            i.value().toLocalDate().atStartOfDay(i.value().getZone());
                    from = day.plusHours(part.get()[0]);
                    to = day.plusHours(part.get()[1]).minusSeconds(1);
                } else {
                    from = i.value();
                    to = i.grain().compareTo(Grain.HOUR) >= 0
                            ? i.value().plus(1, unit(i.grain())).minusSeconds(1)
                            : i.value().plusHours(1);
                }
            }
            case TimeExpression.Recurrence r -> {
                from = r.first();
                to = r.first().plusDays(1).minusSeconds(1);
            }
        }
        constraints.put(fromField, from.format(ISO));
        constraints.put(toField, to.format(ISO));
    }

    /** The hours a part of the day said without a clock covers: evening 17–24, morning 6–12, … */
    private static Optional<int[]> partOfDay(TimeExpression.Instant i) {
        String said = i.text();
        if (said.matches(".*\\d.*")) {
            return Optional.empty();
        }
        Matcher m = PART_OF_DAY.matcher(said);
        if (!m.find()) {
            return Optional.empty();
        }
        if (m.group("morning") != null || m.group("morning2") != null) {
            return Optional.of(new int[] {6, 12});
        }
        if (m.group("afternoon") != null || m.group("afternoon2") != null) {
            return Optional.of(new int[] {12, 18});
        }
        if (m.group("evening") != null || m.group("evening2") != null) {
            return Optional.of(new int[] {17, 24});
        }
        return Optional.of(new int[] {18, 24});
    }

    /**
     * An event's time into {@code into}: an interval as it is (whole days as dates, for an all-day
     * event: "from the 3rd to the 6th"), a time of day for {@code length} (an hour when not said), a
     * day as an all-day date.
     */
    static void eventTime(TimeExpression t, Optional<Duration> length, ObjectNode into, ZonedDateTime now) {
        switch (t) {
            case TimeExpression.Interval i -> {
                if (i.grain().compareTo(Grain.DAY) >= 0) {
                    into.put("start", i.from().toLocalDate().toString());
                    into.put("end", i.to().toLocalDate().toString());
                    into.put("allDay", true);
                } else {
                    into.put("start", i.from().format(ISO));
                    into.put("end", i.to().format(ISO));
                }
            }
            case TimeExpression.Instant i -> {
                if (i.grain().compareTo(Grain.DAY) >= 0) {
                    into.put("start", i.value().toLocalDate().toString());
                    into.put("allDay", true);
                } else {
                    ZonedDateTime at = i.value();
                    if (at.isBefore(now.minusMinutes(1)) && at.toLocalDate().equals(now.toLocalDate())) {
                        at = at.plusDays(1);
                    }
                    into.put("start", at.format(ISO));
                    into.put("end", at.plus(length.orElse(Duration.ofHours(1))).format(ISO));
                }
            }
            case TimeExpression.Recurrence r -> {
                into.put("start", r.first().format(ISO));
                into.put("rrule", r.toRrule());
                length.ifPresent(d -> into.put("end", r.first().plus(d).format(ISO)));
            }
        }
    }

    /**
     * Seed 002's {@code reminderRecurrence}: nudges for minutes and hours, else daily, weekly, monthly (on
     * a day of the month, or the n-th of some weekdays: {@code week} and {@code days}).
     */
    static ObjectNode recurrence(TimeExpression.Recurrence r) {
        ObjectNode out = Json.object();
        switch (r.frequency()) {
            case MINUTELY, HOURLY -> {
                out.put("type", "nudge");
                out.put(
                        "interval",
                        r.interval()
                                + (r.frequency() == TimeExpression.Recurrence.Frequency.MINUTELY
                                        ? " minutes"
                                        : " hours"));
            }
            case DAILY -> out.put("type", "daily");
            case WEEKLY -> {
                out.put("type", "weekly");
                ArrayNode days = out.putArray("days");
                r.days().forEach(d -> days.add(d == DayOfWeek.SUNDAY ? 0 : d.getValue()));
            }
            case MONTHLY -> {
                out.put("type", "monthly");
                if (r.weekdayOrdinal().isPresent() && !r.days().isEmpty()) {
                    // "the last Friday of every month" (BYDAY=-1FR): the weekday, not the first one's date.
                    out.put("week", r.weekdayOrdinal().getAsInt());
                    ArrayNode days = out.putArray("days");
                    r.days().forEach(d -> days.add(d == DayOfWeek.SUNDAY ? 0 : d.getValue()));
                } else {
                    r.dayOfMonth().ifPresent(d -> out.put("dayOfMonth", d));
                }
            }
            case YEARLY -> out.put("type", "monthly");
        }
        if (!r.times().isEmpty()) {
            out.put("time", r.times().get(0).format(HH_MM));
        } else if (!out.has("time")
                && r.frequency() != TimeExpression.Recurrence.Frequency.MINUTELY
                && r.frequency() != TimeExpression.Recurrence.Frequency.HOURLY) {
            // A day said without a time ("every month on the 1st") reminds in the morning, not at midnight.
            LocalTime at = r.first().toLocalTime();
            out.put("time", (at.equals(LocalTime.MIDNIGHT) ? LocalTime.of(9, 0) : at).format(HH_MM));
        }
        if (r.interval() > 1 && !out.has("interval")) {
            out.put("interval", String.valueOf(r.interval()));
        }
        r.until().ifPresent(u -> out.put("until", u.format(ISO)));
        return out;
    }

    private static ChronoUnit unit(Grain grain) {
        return switch (grain) {
            case SECOND -> ChronoUnit.SECONDS;
            case MINUTE -> ChronoUnit.MINUTES;
            case HOUR -> ChronoUnit.HOURS;
            case DAY -> ChronoUnit.DAYS;
            case WEEK -> ChronoUnit.WEEKS;
            case MONTH, QUARTER -> ChronoUnit.MONTHS;
            case YEAR -> ChronoUnit.YEARS;
        };
    }

    /** How long something said lasts, and where it said so. */
    record Length(Duration duration, Span span) {}

    private static final Pattern LENGTH = Pattern.compile(
            "(?:\\bfor\\s+)?(?:\\ban?\\s+|\\bone\\s+)?(?<hhalf>an? hour and a half|one and a half hours?|1\\.5 hours?)(?:[- ]long)?"
                    + "|(?:\\bfor\\s+)?\\b(?<half>half an hour|a half hour|half-hour)(?:[- ]long)?"
                    + "|(?:\\bfor\\s+)?\\b(?:an?\\s+)?(?<n>\\d{1,3}|an?|one|two|three|four|five|six|eight|ten|twenty|thirty|forty-five|forty five|ninety)"
                    + "[- ]?(?<unit>minutes?|mins?|hours?|hrs?)(?:[- ]long)?\\b"
                    + "|(?<hehhalf>(?:של\\s+|ל)?שעה וחצי)|(?<hehalf>(?:של\\s+|ל)?חצי שעה)|(?<hequarter>(?:של\\s+|ל)?רבע שעה)"
                    + "|(?<hetwo>(?:של\\s+|ל)?שעתיים)|(?:של\\s+|ל-?)(?<hen>\\d{1,3})\\s*(?<heunit>דקות|דק'|שעות)"
                    + "|(?<heone>(?:של\\s+|ל)שעה)(?![\\p{L}])",
            FLAGS);

    /**
     * How long an event lasts when the request says it ("a 90-minute review", "for two hours",
     * "פגישה של שעה וחצי"). Only where a length stands apart from a time ("in 20 minutes" is a time,
     * found by weft-time, not a length).
     */
    static Optional<Length> length(String text, List<TimeExpression> times) {
        Matcher m = LENGTH.matcher(text);
        while (m.find()) {
            int start = m.start();
            int end = m.end();
            boolean inTime = times.stream()
                    .anyMatch(t -> t.span().start() < end && start < t.span().end());
            if (inTime || text.substring(0, start).matches("(?isU).*\\b(?:in|within|after|בעוד)\\s*$")) {
                continue;
            }
            Optional<Duration> d = duration(m);
            if (d.isPresent()) {
                return Optional.of(new Length(d.get(), new Span(start, end)));
            }
        }
        return Optional.empty();
    }

    private static Optional<Duration> duration(Matcher m) {
        if (m.group("hhalf") != null || m.group("hehhalf") != null) {
            return Optional.of(Duration.ofMinutes(90));
        }
        if (m.group("half") != null || m.group("hehalf") != null) {
            return Optional.of(Duration.ofMinutes(30));
        }
        if (m.group("hequarter") != null) {
            return Optional.of(Duration.ofMinutes(15));
        }
        if (m.group("hetwo") != null) {
            return Optional.of(Duration.ofHours(2));
        }
        if (m.group("heone") != null) {
            return Optional.of(Duration.ofHours(1));
        }
        if (m.group("hen") != null) {
            long n = Long.parseLong(m.group("hen"));
            return Optional.of(m.group("heunit").startsWith("ש") ? Duration.ofHours(n) : Duration.ofMinutes(n));
        }
        if (m.group("n") != null) {
            String said = m.group("n").toLowerCase(java.util.Locale.ROOT);
            long n = said.equals("a") || said.equals("an")
                    ? 1
                    : NumberWords.parse(said).orElse(0);
            boolean hours = m.group("unit").toLowerCase(java.util.Locale.ROOT).startsWith("h");
            if (n <= 0 || (hours ? n > 24 : n > 600)) {
                return Optional.empty();
            }
            return Optional.of(hours ? Duration.ofHours(n) : Duration.ofMinutes(n));
        }
        return Optional.empty();
    }
}
