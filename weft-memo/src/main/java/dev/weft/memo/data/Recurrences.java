package dev.weft.memo.data;

import dev.weft.memo.data.Event.Occurrence;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import net.fortuna.ical4j.model.Recur;
import net.fortuna.ical4j.transform.recurrence.Frequency;

/**
 * RFC 5545 recurrence rules, through ical4j: checking them, writing the ones Memo makes (weekly by day
 * names, monthly by days of the month), ending them, and expanding them into occurrences in the event's
 * zone, skipping its exception days. Stateless.
 */
final class Recurrences {
    /** How far ahead the first occurrence of a rule is looked for. */
    private static final int FIRST_WITHIN_YEARS = 5;

    private static final DateTimeFormatter DATE = DateTimeFormatter.BASIC_ISO_DATE;
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final Set<Frequency> FREQUENCIES =
            Set.of(Frequency.DAILY, Frequency.WEEKLY, Frequency.MONTHLY, Frequency.YEARLY);

    private static final Map<String, DayOfWeek> DAY_NAMES = Map.ofEntries(
            Map.entry("sunday", DayOfWeek.SUNDAY),
            Map.entry("sun", DayOfWeek.SUNDAY),
            Map.entry("monday", DayOfWeek.MONDAY),
            Map.entry("mon", DayOfWeek.MONDAY),
            Map.entry("tuesday", DayOfWeek.TUESDAY),
            Map.entry("tue", DayOfWeek.TUESDAY),
            Map.entry("tues", DayOfWeek.TUESDAY),
            Map.entry("wednesday", DayOfWeek.WEDNESDAY),
            Map.entry("wed", DayOfWeek.WEDNESDAY),
            Map.entry("thursday", DayOfWeek.THURSDAY),
            Map.entry("thu", DayOfWeek.THURSDAY),
            Map.entry("thurs", DayOfWeek.THURSDAY),
            Map.entry("friday", DayOfWeek.FRIDAY),
            Map.entry("fri", DayOfWeek.FRIDAY),
            Map.entry("saturday", DayOfWeek.SATURDAY),
            Map.entry("sat", DayOfWeek.SATURDAY),
            Map.entry("ראשון", DayOfWeek.SUNDAY),
            Map.entry("שני", DayOfWeek.MONDAY),
            Map.entry("שלישי", DayOfWeek.TUESDAY),
            Map.entry("רביעי", DayOfWeek.WEDNESDAY),
            Map.entry("חמישי", DayOfWeek.THURSDAY),
            Map.entry("שישי", DayOfWeek.FRIDAY),
            Map.entry("שבת", DayOfWeek.SATURDAY));

    private Recurrences() {}

    /** The day {@code name} names: English ("Monday", "mon") or Hebrew ("שני", "יום שני"), any case. */
    static Optional<DayOfWeek> dayOfWeek(String name) {
        String key = name.trim().toLowerCase(Locale.ROOT);
        if (key.startsWith("יום ")) {
            key = key.substring("יום ".length()).trim();
        }
        return Optional.ofNullable(DAY_NAMES.get(key));
    }

    /** {@code FREQ=WEEKLY;BYDAY=MO,WE}. */
    static String weekly(List<DayOfWeek> days) {
        StringJoiner byDay = new StringJoiner(",", "FREQ=WEEKLY;BYDAY=", "");
        days.stream().distinct().sorted().forEach(d -> byDay.add(d.name().substring(0, 2)));
        return byDay.toString();
    }

    /** {@code FREQ=MONTHLY;BYMONTHDAY=1,15}. */
    static String monthly(List<Integer> daysOfMonth) {
        StringJoiner byMonthDay = new StringJoiner(",", "FREQ=MONTHLY;BYMONTHDAY=", "");
        daysOfMonth.stream().distinct().sorted().forEach(d -> byMonthDay.add(Integer.toString(d)));
        return byMonthDay.toString();
    }

    /**
     * {@code rule} checked and written the way ical4j writes it, without an {@code RRULE:} prefix.
     *
     * @throws IllegalArgumentException naming the fault: a rule ical4j cannot read, or one that repeats
     *     more often than daily
     */
    static String checked(String rule) {
        String text = rule.trim();
        if (text.regionMatches(true, 0, "RRULE:", 0, "RRULE:".length())) {
            text = text.substring("RRULE:".length());
        }
        Recur<ZonedDateTime> recur;
        try {
            recur = new Recur<>(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new IllegalArgumentException("'" + rule + "' is not an RFC 5545 recurrence rule: " + e.getMessage());
        }
        if (!FREQUENCIES.contains(recur.getFrequency())) {
            throw new IllegalArgumentException(
                    "'" + rule + "' repeats " + recur.getFrequency() + "; a calendar event repeats at most daily");
        }
        return recur.toString();
    }

    /**
     * {@code rule} ending on {@code until} (its last occurrence on or before that day), any {@code COUNT}
     * or {@code UNTIL} replaced: a date for an all-day event, else the end of that day in {@code zone} in
     * UTC, as RFC 5545 asks when the start has a zone.
     */
    static String until(String rule, LocalDate until, boolean allDay, ZoneId zone) {
        StringJoiner parts = new StringJoiner(";");
        for (String part : rule.split(";")) {
            if (!part.startsWith("UNTIL=") && !part.startsWith("COUNT=")) {
                parts.add(part);
            }
        }
        parts.add("UNTIL="
                + (allDay
                        ? DATE.format(until)
                        : UTC.format(until.plusDays(1)
                                .atStartOfDay(zone)
                                .minusSeconds(1)
                                .withZoneSameInstant(ZoneOffset.UTC))));
        return checked(parts.toString());
    }

    /** The day a rule's {@code UNTIL} falls on in {@code zone}, when it has one. */
    static Optional<LocalDate> until(String rule, ZoneId zone) {
        for (String part : rule.split(";")) {
            if (part.startsWith("UNTIL=")) {
                String value = part.substring("UNTIL=".length());
                try {
                    if (value.length() == 8) {
                        return Optional.of(LocalDate.parse(value, DATE));
                    }
                    if (value.endsWith("Z")) {
                        return Optional.of(LocalDateTime.parse(value, UTC)
                                .atOffset(ZoneOffset.UTC)
                                .atZoneSameInstant(zone)
                                .toLocalDate());
                    }
                    return Optional.of(LocalDate.parse(value.substring(0, 8), DATE));
                } catch (DateTimeParseException | StringIndexOutOfBoundsException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /** Whether {@code rule} ends, by a count or a last day. */
    static boolean ends(String rule) {
        return rule.contains("UNTIL=") || rule.contains("COUNT=");
    }

    /** The first time on or after {@code from} that {@code rule} gives, when it gives one within a few years. */
    static Optional<ZonedDateTime> first(String rule, ZonedDateTime from) {
        Recur<ZonedDateTime> recur = new Recur<>(rule);
        List<ZonedDateTime> dates = recur.getDates(from, from, from.plusYears(FIRST_WITHIN_YEARS), 1);
        return dates.isEmpty() ? Optional.empty() : Optional.of(dates.get(0));
    }

    /** {@link #first(String, ZonedDateTime)} for an all-day event. */
    static Optional<LocalDate> first(String rule, LocalDate from) {
        Recur<LocalDate> recur = new Recur<>(rule);
        List<LocalDate> dates = recur.getDates(from, from, from.plusYears(FIRST_WITHIN_YEARS), 1);
        return dates.isEmpty() ? Optional.empty() : Optional.of(dates.get(0));
    }

    /**
     * The occurrences of recurring {@code event} that overlap {@code [from, to)}, soonest first, at most
     * {@code limit}. The rule is read from the event's start in its zone (which always counts, as RFC
     * 5545 has it); an occurrence on one of its exception days is left out.
     */
    static List<Occurrence> expand(Event event, Instant from, Instant to, int limit) {
        String rule = event.recurrence().orElseThrow();
        ZoneId zone = event.zone();
        Set<LocalDate> skipped = new HashSet<>(event.exdates());
        List<Occurrence> found = new ArrayList<>();
        if (event.allDay()) {
            LocalDate seed = event.start().atZone(zone).toLocalDate();
            long days = ChronoUnit.DAYS.between(seed, event.end().atZone(zone).toLocalDate());
            LocalDate first = from.atZone(zone).toLocalDate().minusDays(days);
            LocalDate last = to.atZone(zone).toLocalDate();
            Recur<LocalDate> recur = new Recur<>(rule);
            List<LocalDate> dates = new ArrayList<>(recur.getDates(seed, first, last, limit + 1));
            if (!dates.contains(seed) && !seed.isBefore(first) && !seed.isAfter(last)) {
                dates.add(0, seed);
            }
            for (LocalDate day : dates) {
                Instant start = day.atStartOfDay(zone).toInstant();
                Instant end = day.plusDays(days).atStartOfDay(zone).toInstant();
                if (!skipped.contains(day) && start.isBefore(to) && end.isAfter(from) && found.size() < limit) {
                    found.add(new Occurrence(event, start, end));
                }
            }
            return found;
        }
        ZonedDateTime seed = event.start().atZone(zone);
        Duration length = Duration.between(event.start(), event.end());
        ZonedDateTime first = from.minus(length).atZone(zone);
        ZonedDateTime last = to.atZone(zone);
        Recur<ZonedDateTime> recur = new Recur<>(rule);
        List<ZonedDateTime> dates = new ArrayList<>(recur.getDates(seed, first, last, limit + 1));
        if (!dates.contains(seed) && !seed.isBefore(first) && !seed.isAfter(last)) {
            dates.add(0, seed);
        }
        for (ZonedDateTime at : dates) {
            Instant start = at.toInstant();
            Instant end = start.plus(length);
            if (!skipped.contains(at.toLocalDate())
                    && start.isBefore(to)
                    && end.isAfter(from)
                    && found.size() < limit) {
                found.add(new Occurrence(event, start, end));
            }
        }
        return found;
    }
}
