package dev.weft.memo.data;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An event in one user's calendar (seed 002's calendarOperations): once, or recurring by an RFC 5545
 * rule. Immutable.
 *
 * @param start the start of the event, or of its first occurrence when it recurs
 * @param end the end, exclusive: for an all-day event the start of the day after its last day
 * @param zone the zone its days, its all-day dates and its recurrence are read in (its user's zone when it
 *     was made), so a weekly 09:00 stays 09:00 across a change of daylight-saving time
 * @param recurrence an RRULE value ({@code FREQ=WEEKLY;BYDAY=MO}), when the event recurs
 * @param exdates the days, in {@code zone}, on which a recurring event does not take place
 */
public record Event(
        String id,
        String summary,
        Instant start,
        Instant end,
        boolean allDay,
        ZoneId zone,
        Optional<String> description,
        Optional<String> location,
        List<String> attendees,
        Optional<Integer> reminderMinutesBefore,
        Optional<String> recurrence,
        List<LocalDate> exdates,
        Instant createdAt,
        Instant updatedAt) {
    public Event {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(summary, "summary");
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(location, "location");
        attendees = List.copyOf(attendees);
        Objects.requireNonNull(reminderMinutesBefore, "reminderMinutesBefore");
        Objects.requireNonNull(recurrence, "recurrence");
        exdates = List.copyOf(exdates);
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        if (!end.isAfter(start)) {
            throw new IllegalArgumentException("event '" + id + "' must end after it starts");
        }
    }

    public boolean recurs() {
        return recurrence.isPresent();
    }

    /** The last day a recurring event may take place on, when its rule has an {@code UNTIL}. */
    public Optional<LocalDate> until() {
        return recurrence.flatMap(rule -> Recurrences.until(rule, zone));
    }

    /**
     * The occurrences of this event that overlap {@code [from, to)}, soonest first, at most {@code
     * limit}: the event itself when it does not recur.
     */
    public List<Occurrence> occurrences(Instant from, Instant to, int limit) {
        if (recurrence.isEmpty()) {
            return start.isBefore(to) && end.isAfter(from) ? List.of(new Occurrence(this, start, end)) : List.of();
        }
        return Recurrences.expand(this, from, to, limit);
    }

    /** The event as tools show it, its times in {@code shownIn} (an all-day event's dates stay its own). */
    public ObjectNode toJson(ZoneId shownIn) {
        ObjectNode node = Json.object();
        node.put("id", id);
        node.put("summary", summary);
        putTimes(node, start, end, shownIn);
        node.put("allDay", allDay);
        node.put("timeZone", zone.getId());
        description.ifPresent(d -> node.put("description", d));
        location.ifPresent(l -> node.put("location", l));
        ArrayNode people = node.putArray("attendees");
        attendees.forEach(people::add);
        reminderMinutesBefore.ifPresent(m -> node.put("reminderMinutesBefore", m));
        recurrence.ifPresent(r -> node.put("recurrence", r));
        if (!exdates.isEmpty()) {
            ArrayNode skipped = node.putArray("exdates");
            exdates.forEach(d -> skipped.add(d.toString()));
        }
        until().ifPresent(u -> node.put("until", u.toString()));
        node.put("createdAt", createdAt.toString());
        node.put("updatedAt", updatedAt.toString());
        return node;
    }

    private void putTimes(ObjectNode node, Instant from, Instant to, ZoneId shownIn) {
        if (allDay) {
            node.put("start", from.atZone(zone).toLocalDate().toString());
            node.put("end", to.atZone(zone).toLocalDate().minusDays(1).toString());
        } else {
            node.put("start", from.atZone(shownIn).toOffsetDateTime().toString());
            node.put("end", to.atZone(shownIn).toOffsetDateTime().toString());
        }
    }

    /**
     * One occurrence of an event: the event itself, or one instance of a recurring one.
     *
     * @param end exclusive, as the event's
     */
    public record Occurrence(Event event, Instant start, Instant end) {
        public Occurrence {
            Objects.requireNonNull(event, "event");
            Objects.requireNonNull(start, "start");
            Objects.requireNonNull(end, "end");
        }

        public boolean overlaps(Occurrence other) {
            return start.isBefore(other.end) && other.start.isBefore(end);
        }

        /**
         * The event's JSON with this occurrence's times, and {@code eventId} (the event's id, to get,
         * change or delete it) and {@code recurring}.
         */
        public ObjectNode toJson(ZoneId shownIn) {
            ObjectNode node = event.toJson(shownIn);
            event.putTimes(node, start, end, shownIn);
            node.put("eventId", event.id());
            node.put("recurring", event.recurs());
            return node;
        }
    }
}
