package dev.weft.memo.internal;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.language.EntityMatch;
import dev.weft.memo.data.Event;
import dev.weft.memo.data.Event.Occurrence;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finding a user's event by the words they used (seed 002's QueryResolver for the calendar): among
 * the events with an occurrence in the window the step names, or, without one, among those not over
 * yet and then the past ones; each candidate is shown by the occurrence that found it. Also reads the
 * times plan steps carry. Stateless.
 */
final class EventLookup {
    /** How far ahead an event with no window is looked for (a recurring one has occurrences forever). */
    private static final Duration AHEAD = Duration.ofDays(3660);

    /** Words that name no event in particular ("delete the event tomorrow"). */
    private static final Set<String> GENERIC = Set.of("event", "events", "אירוע", "אירועים");

    private EventLookup() {}

    /** An event the user's words found, and the occurrence it is shown by. */
    record Found(Event event, Occurrence shown) {}

    /**
     * The events of {@code events} that {@code words} name best, soonest first: in {@code [from, to)}
     * when a window is given, else the ones not over at {@code today}, and the past ones only when none
     * of those match. No words (or only "event") match every event in the window.
     */
    static List<Found> find(
            String words, List<Event> events, Optional<Instant> from, Optional<Instant> to, Instant today) {
        boolean any = EntityMatch.words(words).stream().allMatch(GENERIC::contains);
        if (from.isPresent() || to.isPresent()) {
            Instant start = from.orElse(Instant.EPOCH);
            Instant end = to.orElseGet(() -> start.plus(AHEAD));
            List<Found> inWindow = shown(events, start, end);
            return any
                    ? inWindow
                    : EntityMatch.best(words, inWindow, f -> f.event().summary());
        }
        if (any) {
            return List.of();
        }
        List<Found> upcoming = shown(events, today, today.plus(AHEAD));
        List<Found> found = EntityMatch.best(words, upcoming, f -> f.event().summary());
        if (!found.isEmpty()) {
            return found;
        }
        List<Found> past = events.stream()
                .filter(e -> upcoming.stream().noneMatch(f -> f.event().id().equals(e.id())))
                .map(e -> new Found(e, new Occurrence(e, e.start(), e.end())))
                .sorted(Comparator.comparing((Found f) -> f.shown().start()).reversed())
                .toList();
        return EntityMatch.best(words, past, f -> f.event().summary());
    }

    /** Each event with an occurrence in {@code [from, to)}, shown by its first one there, soonest first. */
    private static List<Found> shown(List<Event> events, Instant from, Instant to) {
        List<Found> found = new ArrayList<>();
        for (Event event : events) {
            List<Occurrence> first = event.occurrences(from, to, 1);
            if (!first.isEmpty()) {
                found.add(new Found(event, first.get(0)));
            }
        }
        found.sort(Comparator.comparing((Found f) -> f.shown().start())
                .thenComparing(f -> f.event().id()));
        return found;
    }

    /** A time a step names: ISO-8601 with an offset, a local date-time in {@code zone}, or a day (its start). */
    static Instant instant(String field, String text, ZoneId zone) {
        String trimmed = text.trim();
        try {
            if (trimmed.length() == 10) {
                return LocalDate.parse(trimmed).atStartOfDay(zone).toInstant();
            }
            try {
                return OffsetDateTime.parse(trimmed).toInstant();
            } catch (DateTimeParseException noOffset) {
                return LocalDateTime.parse(trimmed).atZone(zone).toInstant();
            }
        } catch (DateTimeParseException e) {
            throw invalid(field + " '" + text + "' is not an ISO-8601 date (2026-11-25T09:00:00+02:00, or 2026-11-25)");
        }
    }

    /** The end of a window a step names, exclusive: a day alone counts whole. */
    static Instant windowEnd(String field, String text, ZoneId zone) {
        String trimmed = text.trim();
        return isDate(trimmed)
                ? LocalDate.parse(trimmed).plusDays(1).atStartOfDay(zone).toInstant()
                : instant(field, trimmed, zone);
    }

    static boolean isDate(String text) {
        return text.trim().matches("\\d{4}-\\d{2}-\\d{2}");
    }

    /** A time of day alone: {@code 16:00}, {@code 9:30}. */
    static Optional<LocalTime> timeOfDay(String text) {
        String trimmed = text.trim();
        if (!trimmed.matches("\\d{1,2}:\\d{2}(?::\\d{2})?")) {
            return Optional.empty();
        }
        try {
            return Optional.of(LocalTime.parse(trimmed.length() % 3 == 1 ? "0" + trimmed : trimmed));
        } catch (DateTimeParseException e) {
            throw invalid("'" + text + "' is not a time of day (HH:mm, such as 16:00)");
        }
    }

    /** A date-time a step names, in {@code zone}. */
    static ZonedDateTime zoned(String field, String text, ZoneId zone) {
        return instant(field, text, zone).atZone(zone);
    }

    static WeftException invalid(String message) {
        return new WeftException(ErrorCode.E_ARGS_INVALID, message);
    }
}
