package dev.weft.memo.data;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * When a task's reminder fires (seed 002's {@code reminder} and {@code reminderRecurrence}), in the
 * user's zone:
 *
 * <ul>
 *   <li>a one-off reminder fires once, {@code reminder} (e.g. {@code "0 minutes"}, {@code "1 hour"})
 *       before its due date;
 *   <li>{@code daily}, {@code weekly} (days 0-6 from Sunday, or day names) and {@code monthly}
 *       ({@code dayOfMonth}, the month's last day where it is shorter; or, with a {@code week}, the n-th
 *       of its {@code days}: {@code week} 1-5, or −1 for the last, as RFC 5545's {@code BYDAY=-1FR})
 *       fire at {@code time} ({@code HH:mm}; else the due date's time, else 09:00), every {@code
 *       interval} days, weeks or months (counted from the due date, else from when it was made; months from the first one it
 *       fires in);
 *   <li>a {@code nudge} fires every {@code interval} (e.g. {@code "15 minutes"}) from its due date,
 *       or from when it was made, until it is done;
 * </ul>
 *
 * and none after {@code until} (a day includes all of it). Stateless.
 */
public final class ReminderTimes {
    private static final Pattern AMOUNT =
            Pattern.compile("(\\d{1,6})\\s*(m|min|mins|minutes?|h|hrs?|hours?|d|days?|w|weeks?)?\\b.*");
    private static final LocalTime DEFAULT_TIME = LocalTime.of(9, 0);

    private ReminderTimes() {}

    /**
     * The first time {@code task} fires: for a one-off reminder, its time (in the past too, so that one
     * missed fires late); for a recurring one, its first time at or after {@code now}. Empty for a task
     * that is done, is no reminder, or has no time to fire at.
     */
    public static Optional<Instant> first(Task task, ZoneId zone, Instant now) {
        if (task.completed() || !task.isReminder()) {
            return Optional.empty();
        }
        Optional<JsonNode> recurrence = task.reminderRecurrence();
        if (recurrence.isEmpty()) {
            Optional<Duration> before = task.reminder().flatMap(ReminderTimes::amount);
            return task.dueAt().map(due -> due.minus(before.orElse(Duration.ZERO)));
        }
        return atOrAfter(task, recurrence.get(), zone, now.minusMillis(1));
    }

    /** The time {@code task} fires after {@code after} (a one-off reminder fires only once: empty). */
    public static Optional<Instant> next(Task task, ZoneId zone, Instant after) {
        if (task.completed() || task.reminderRecurrence().isEmpty()) {
            return Optional.empty();
        }
        return atOrAfter(task, task.reminderRecurrence().get(), zone, after);
    }

    /**
     * When {@code task} falls due at or after {@code from} and before {@code to}: a recurring reminder
     * at its first time in that window (each of its times counts, not only the next one, so a daily
     * reminder is due on every day asked about and a weekly one on its day), any other task at its due
     * date. Empty when nothing of it falls there.
     */
    public static Optional<Instant> dueBetween(Task task, ZoneId zone, Instant from, Instant to) {
        Optional<JsonNode> recurrence = task.reminderRecurrence();
        boolean repeatsByCalendar = recurrence.isPresent()
                && !recurrence.get().path("type").asText("").equalsIgnoreCase("nudge");
        Optional<Instant> at =
                repeatsByCalendar ? atOrAfter(task, recurrence.get(), zone, from.minusMillis(1)) : task.dueAt();
        return at.filter(t -> !t.isBefore(from) && t.isBefore(to));
    }

    /** The first time of {@code recurrence} strictly after {@code after}, before its end. */
    private static Optional<Instant> atOrAfter(Task task, JsonNode recurrence, ZoneId zone, Instant after) {
        String type = recurrence.path("type").asText("daily").toLowerCase(Locale.ROOT);
        Optional<Instant> next = switch (type) {
            case "nudge" -> nudge(task, recurrence, after);
            case "weekly" -> weekly(task, recurrence, zone, after);
            case "monthly" -> monthly(task, recurrence, zone, after);
            default -> daily(task, recurrence, zone, after);
        };
        Optional<Instant> until = until(recurrence, zone);
        return next.filter(at -> until.isEmpty() || !at.isAfter(until.get()));
    }

    private static Optional<Instant> nudge(Task task, JsonNode recurrence, Instant after) {
        Duration every = amount(recurrence.path("interval").asText("")).orElse(Duration.ofMinutes(15));
        if (every.isZero()) {
            return Optional.empty();
        }
        Instant start = task.dueAt().orElse(task.createdAt().plus(every));
        if (start.isAfter(after)) {
            return Optional.of(start);
        }
        long steps = Duration.between(start, after).toMillis() / every.toMillis() + 1;
        return Optional.of(start.plusMillis(steps * every.toMillis()));
    }

    private static Optional<Instant> daily(Task task, JsonNode recurrence, ZoneId zone, Instant after) {
        int interval = Math.max(1, recurrence.path("interval").asInt(1));
        LocalTime time = timeOf(task, recurrence, zone);
        LocalDate anchor = anchor(task, zone);
        LocalDate day = after.atZone(zone).toLocalDate();
        if (day.isBefore(anchor)) {
            day = anchor;
        }
        long offset = Math.floorMod(ChronoUnit.DAYS.between(anchor, day), interval);
        if (offset != 0) {
            day = day.plusDays(interval - offset);
        }
        for (int i = 0; i < 3; i++) {
            Instant at = ZonedDateTime.of(day, time, zone).toInstant();
            if (at.isAfter(after)) {
                return Optional.of(at);
            }
            day = day.plusDays(interval);
        }
        return Optional.empty();
    }

    private static Optional<Instant> weekly(Task task, JsonNode recurrence, ZoneId zone, Instant after) {
        int interval = Math.max(1, recurrence.path("interval").asInt(1));
        Set<DayOfWeek> days = days(recurrence.path("days"));
        LocalTime time = timeOf(task, recurrence, zone);
        LocalDate anchor = anchor(task, zone);
        if (days.isEmpty()) {
            days = EnumSet.of(anchor.getDayOfWeek());
        }
        LocalDate anchorWeek = anchor.with(TemporalAdjusters.previousOrSame(DayOfWeek.SUNDAY));
        LocalDate day = after.atZone(zone).toLocalDate();
        if (day.isBefore(anchor)) {
            day = anchor;
        }
        for (int i = 0; i < 7 * interval + 8; i++, day = day.plusDays(1)) {
            LocalDate week = day.with(TemporalAdjusters.previousOrSame(DayOfWeek.SUNDAY));
            if (!days.contains(day.getDayOfWeek()) || ChronoUnit.WEEKS.between(anchorWeek, week) % interval != 0) {
                continue;
            }
            Instant at = ZonedDateTime.of(day, time, zone).toInstant();
            if (at.isAfter(after)) {
                return Optional.of(at);
            }
        }
        return Optional.empty();
    }

    private static Optional<Instant> monthly(Task task, JsonNode recurrence, ZoneId zone, Instant after) {
        LocalTime time = timeOf(task, recurrence, zone);
        LocalDate anchor = anchor(task, zone);
        Optional<MonthDays> days = monthDays(recurrence, anchor);
        if (days.isEmpty()) {
            return Optional.empty();
        }
        int interval = Math.max(1, recurrence.path("interval").asInt(1));
        // "Every 2 months on the 1st", said on the 28th, counts from the next 1st, as its first time does.
        LocalDate anchorMonth = anchor.withDayOfMonth(1);
        for (int i = 0; i < 13 && days.get().in(anchorMonth).stream().allMatch(d -> d.isBefore(anchor)); i++) {
            anchorMonth = anchorMonth.plusMonths(1);
        }
        LocalDate month = after.atZone(zone).toLocalDate().withDayOfMonth(1);
        // A fifth Monday is missing from months on end; any day a month has comes within a year.
        for (int i = 0; i < 13 * interval; i++, month = month.plusMonths(1)) {
            if (Math.floorMod(ChronoUnit.MONTHS.between(anchorMonth, month), interval) != 0) {
                continue;
            }
            for (LocalDate day : days.get().in(month)) {
                Instant at = ZonedDateTime.of(day, time, zone).toInstant();
                if (at.isAfter(after) && !day.isBefore(anchor)) {
                    return Optional.of(at);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The days of a month a monthly reminder fires on: the n-th (−1 the last) of its {@code days} when it
     * says a {@code week}, else its {@code dayOfMonth} (reminders stored before {@code week} existed).
     */
    private static Optional<MonthDays> monthDays(JsonNode recurrence, LocalDate anchor) {
        if (recurrence.has("week")) {
            int week = recurrence.path("week").asInt(0);
            Set<DayOfWeek> days = days(recurrence.path("days"));
            if (days.isEmpty()) {
                days = EnumSet.of(anchor.getDayOfWeek());
            }
            return week == -1 || (week >= 1 && week <= 5)
                    ? Optional.of(new MonthDays.NthWeekdays(week, days))
                    : Optional.empty();
        }
        int dayOfMonth = recurrence.path("dayOfMonth").asInt(anchor.getDayOfMonth());
        return dayOfMonth >= 1 && dayOfMonth <= 31
                ? Optional.of(new MonthDays.DayOfMonth(dayOfMonth))
                : Optional.empty();
    }

    /** Which days of a month a monthly reminder falls on. */
    private sealed interface MonthDays {
        /** The days in {@code month} (its first day), earliest first; none where the month has no such day. */
        List<LocalDate> in(LocalDate month);

        /** The {@code day}-th of the month, the month's last day where it is shorter. */
        record DayOfMonth(int day) implements MonthDays {
            @Override
            public List<LocalDate> in(LocalDate month) {
                return List.of(month.withDayOfMonth(Math.min(day, month.lengthOfMonth())));
            }
        }

        /** The {@code week}-th (1-5, or −1 for the last) of each of {@code days}; a fifth one is not in every month. */
        record NthWeekdays(int week, Set<DayOfWeek> days) implements MonthDays {
            @Override
            public List<LocalDate> in(LocalDate month) {
                List<LocalDate> out = new ArrayList<>();
                for (DayOfWeek day : days) {
                    LocalDate at = month.with(
                            week == -1
                                    ? TemporalAdjusters.lastInMonth(day)
                                    : TemporalAdjusters.dayOfWeekInMonth(week, day));
                    if (at.getMonth() == month.getMonth()) {
                        out.add(at);
                    }
                }
                out.sort(null);
                return out;
            }
        }
    }

    /** The day a recurrence starts: its due date's, else the day it was made. */
    private static LocalDate anchor(Task task, ZoneId zone) {
        return task.dueAt().orElse(task.createdAt()).atZone(zone).toLocalDate();
    }

    private static LocalTime timeOf(Task task, JsonNode recurrence, ZoneId zone) {
        String text = recurrence.path("time").asText("");
        if (!text.isBlank()) {
            try {
                return LocalTime.parse(text.length() == 4 ? "0" + text : text);
            } catch (DateTimeParseException e) {
                // an unreadable time falls back to the due date's
            }
        }
        return task.dueAt()
                .filter(d -> task.dueDate().map(s -> s.length() > 10).orElse(false))
                .map(d -> d.atZone(zone).toLocalTime().truncatedTo(ChronoUnit.MINUTES))
                .orElse(DEFAULT_TIME);
    }

    /** A recurrence's {@code days}: numbers 0-6 from Sunday (7 is Sunday too), or day names ("MO", "Monday"). */
    public static Set<DayOfWeek> days(JsonNode days) {
        Set<DayOfWeek> out = EnumSet.noneOf(DayOfWeek.class);
        for (JsonNode day : days) {
            if (day.isInt()) {
                int n = day.asInt();
                if (n >= 0 && n <= 7) {
                    out.add(n == 0 || n == 7 ? DayOfWeek.SUNDAY : DayOfWeek.of(n));
                }
            } else {
                String name = day.asText("").trim().toUpperCase(Locale.ROOT);
                for (DayOfWeek d : DayOfWeek.values()) {
                    if (!name.isEmpty() && d.name().startsWith(name.length() >= 3 ? name.substring(0, 3) : name)) {
                        out.add(d);
                    }
                }
            }
        }
        return out;
    }

    private static Optional<Instant> until(JsonNode recurrence, ZoneId zone) {
        String text = recurrence.path("until").asText("").trim();
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            if (text.length() == 10) {
                return Optional.of(LocalDate.parse(text)
                        .plusDays(1)
                        .atStartOfDay(zone)
                        .toInstant()
                        .minusMillis(1));
            }
            return Optional.of(DueDates.parse("until", text, zone).at());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** "15 minutes", "1 hour", "2 days", "30": an amount of time (minutes where no unit is said). */
    static Optional<Duration> amount(String text) {
        Matcher m = AMOUNT.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            return Optional.empty();
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "m" : m.group(2);
        return Optional.of(
                switch (unit.charAt(0)) {
                    case 'h' -> Duration.ofHours(n);
                    case 'd' -> Duration.ofDays(n);
                    case 'w' -> Duration.ofDays(7 * n);
                    default -> Duration.ofMinutes(n);
                });
    }
}
