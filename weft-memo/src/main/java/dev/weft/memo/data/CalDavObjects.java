package dev.weft.memo.data;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import net.fortuna.ical4j.data.CalendarBuilder;
import net.fortuna.ical4j.data.CalendarOutputter;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.TimeZone;
import net.fortuna.ical4j.model.TimeZoneRegistryFactory;
import net.fortuna.ical4j.model.component.VAlarm;
import net.fortuna.ical4j.model.component.VEvent;
import net.fortuna.ical4j.model.component.VTimeZone;
import net.fortuna.ical4j.model.property.DateListProperty;
import net.fortuna.ical4j.model.property.DateProperty;
import net.fortuna.ical4j.model.property.DtStamp;
import net.fortuna.ical4j.model.property.LastModified;
import net.fortuna.ical4j.model.property.ProdId;
import net.fortuna.ical4j.model.property.Sequence;
import net.fortuna.ical4j.model.property.immutable.ImmutableCalScale;
import net.fortuna.ical4j.model.property.immutable.ImmutableVersion;

/**
 * CalDAV calendar objects (one {@code .ics} resource: an event, and the occurrences of its series
 * changed on the server) as Memo's events, and back. An occurrence changed on the server (a VEVENT with
 * a RECURRENCE-ID) becomes an event of its own, {@code UID#RECURRENCE-ID}, its original day an
 * exception of the series, so Memo lists each occurrence where it really is. A change made in Memo is
 * written over the object's own text, property by changed property, so what Memo does not model
 * (organizer, categories, other clients' properties) is kept. Stateless.
 */
final class CalDavObjects {
    private CalDavObjects() {}

    /**
     * One Memo event an object gives.
     *
     * @param recurrenceId the RECURRENCE-ID of the occurrence it is, when it is one
     */
    record Piece(Event event, Optional<String> recurrenceId) {
        Piece {
            Objects.requireNonNull(event, "event");
            Objects.requireNonNull(recurrenceId, "recurrenceId");
        }
    }

    /**
     * The events of an object's text: its series (or single event) first, then its changed occurrences;
     * none when Memo cannot keep it (no VEVENT, not iCalendar, a rule repeating more often than daily).
     * Floating times, and zones Java does not know, are read in {@code userZone}.
     */
    static List<Piece> read(String ics, ZoneId userZone, Instant now) {
        Optional<Calendar> calendar = parse(ics);
        if (calendar.isEmpty()) {
            return List.of();
        }
        List<VEvent> series = new ArrayList<>();
        List<VEvent> changed = new ArrayList<>();
        for (VEvent vevent : calendar.get().<VEvent>getComponents(Component.VEVENT)) {
            (vevent.getProperty(Property.RECURRENCE_ID).isPresent() ? changed : series).add(vevent);
        }
        List<Piece> pieces = new ArrayList<>();
        Optional<Event> master = series.isEmpty() ? Optional.empty() : ICalendars.event(series.get(0), userZone, now);
        Set<LocalDate> skipped = new LinkedHashSet<>();
        for (VEvent vevent : changed) {
            String rid = recurrenceId(vevent);
            ZoneId zone = master.map(Event::zone).orElse(userZone);
            ridDay(vevent, zone).ifPresent(skipped::add);
            if (isCancelled(vevent)) {
                continue;
            }
            ICalendars.event(vevent, userZone, now)
                    .map(e -> withId(e, occurrenceId(e.id(), rid), Optional.empty(), List.of()))
                    .ifPresent(e -> pieces.add(new Piece(e, Optional.of(rid))));
        }
        if (master.isPresent()) {
            Event m = master.get();
            List<LocalDate> exdates = new ArrayList<>(m.exdates());
            if (m.recurs()) {
                skipped.stream().filter(d -> !exdates.contains(d)).forEach(exdates::add);
            }
            pieces.add(
                    0,
                    new Piece(
                            withId(
                                    m,
                                    m.id(),
                                    m.recurrence(),
                                    exdates.stream().sorted().toList()),
                            Optional.empty()));
        }
        return pieces;
    }

    /** A new object holding {@code event} alone, with the VTIMEZONE of its zone. */
    static String write(Event event) {
        Calendar calendar = new Calendar();
        calendar.add(new ProdId(ICalendars.PRODUCT));
        calendar.add(ImmutableVersion.VERSION_2_0);
        calendar.add(ImmutableCalScale.GREGORIAN);
        boolean zoned = !event.allDay() && addTimeZone(calendar, event.zone());
        VEvent vevent = ICalendars.vevent(event, zoned);
        vevent.add(new Sequence(0));
        calendar.add(vevent);
        return text(calendar);
    }

    /**
     * The object {@code ics} with Memo's changes written in: the properties of {@code series} that differ
     * from what the object gave, and of each changed occurrence (by RECURRENCE-ID) likewise; an
     * occurrence Memo deleted ({@code occurrences} maps it to empty) is removed and becomes an EXDATE.
     * Each component changed gets a higher SEQUENCE and {@code now} as its DTSTAMP and LAST-MODIFIED.
     */
    static String patched(
            String ics, ZoneId userZone, Instant now, Event series, Map<String, Optional<Event>> occurrences) {
        Calendar calendar = parse(ics).orElseThrow(() -> new IllegalStateException("a kept object does not parse"));
        Map<String, Piece> before = new LinkedHashMap<>();
        Piece seriesBefore = null;
        for (Piece piece : read(ics, userZone, now)) {
            if (piece.recurrenceId().isPresent()) {
                before.put(piece.recurrenceId().get(), piece);
            } else {
                seriesBefore = piece;
            }
        }
        Set<LocalDate> kept = new LinkedHashSet<>();
        for (VEvent vevent : new ArrayList<>(calendar.<VEvent>getComponents(Component.VEVENT))) {
            if (vevent.getProperty(Property.RECURRENCE_ID).isEmpty()) {
                continue;
            }
            String rid = recurrenceId(vevent);
            Optional<Event> now0 = occurrences.getOrDefault(rid, Optional.empty());
            Piece was = before.get(rid);
            if (was == null) {
                // a cancelled occurrence: Memo has nothing of it to change
                ridDay(vevent, series.zone()).ifPresent(kept::add);
                continue;
            }
            if (now0.isEmpty()) {
                calendar.remove(vevent);
                continue;
            }
            ridDay(vevent, series.zone()).ifPresent(kept::add);
            if (write(calendar, vevent, was.event(), now0.get(), false)) {
                touch(vevent, now);
            }
        }
        VEvent master = calendar.<VEvent>getComponents(Component.VEVENT).stream()
                .filter(v -> v.getProperty(Property.RECURRENCE_ID).isEmpty())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("a kept object has no series to change"));
        boolean changed = seriesBefore != null && write(calendar, master, seriesBefore.event(), series, true);
        if (series.recurs()) {
            List<LocalDate> wanted = series.exdates().stream()
                    .filter(d -> !kept.contains(d))
                    .sorted()
                    .toList();
            List<LocalDate> had = new ArrayList<>();
            for (Property exdate : master.getProperties(Property.EXDATE)) {
                if (exdate instanceof DateListProperty<?> list) {
                    list.getDates().forEach(d -> had.add(ICalendars.dayOf(d, series.zone())));
                }
            }
            if (!new LinkedHashSet<>(had).equals(new LinkedHashSet<>(wanted))) {
                master.removeAll(Property.EXDATE);
                if (!wanted.isEmpty()) {
                    master.add(ICalendars.exdates(
                            withId(series, series.id(), series.recurrence(), wanted),
                            !series.allDay() && addTimeZone(calendar, series.zone())));
                }
                changed = true;
            }
        }
        if (changed) {
            touch(master, now);
        }
        return text(calendar);
    }

    /**
     * Writes into {@code vevent} the properties of {@code after} that differ from {@code before}; whether
     * any did.
     */
    private static boolean write(Calendar calendar, VEvent vevent, Event before, Event after, boolean series) {
        VEvent fresh = ICalendars.vevent(after, !after.allDay() && addTimeZone(calendar, after.zone()));
        boolean changed = false;
        if (!before.summary().equals(after.summary())) {
            changed |= copy(fresh, vevent, Property.SUMMARY);
        }
        if (!before.start().equals(after.start())
                || !before.end().equals(after.end())
                || before.allDay() != after.allDay()
                || !before.zone().equals(after.zone())) {
            vevent.removeAll(Property.DURATION);
            changed |= copy(fresh, vevent, Property.DTSTART);
            changed |= copy(fresh, vevent, Property.DTEND);
        }
        if (!before.description().equals(after.description())) {
            changed |= copy(fresh, vevent, Property.DESCRIPTION);
        }
        if (!before.location().equals(after.location())) {
            changed |= copy(fresh, vevent, Property.LOCATION);
        }
        if (!before.attendees().equals(after.attendees())) {
            changed |= copy(fresh, vevent, Property.ATTENDEE);
        }
        if (series && !before.recurrence().equals(after.recurrence())) {
            changed |= copy(fresh, vevent, Property.RRULE);
        }
        if (!before.reminderMinutesBefore().equals(after.reminderMinutesBefore())) {
            for (VAlarm alarm : new ArrayList<>(vevent.getAlarms())) {
                vevent.remove(alarm);
            }
            fresh.getAlarms().forEach(vevent::add);
            changed = true;
        }
        return changed;
    }

    /** Puts {@code from}'s properties called {@code name} in place of {@code to}'s. */
    private static boolean copy(VEvent from, VEvent to, String name) {
        to.removeAll(name);
        for (Property property : from.getProperties(name)) {
            to.add(property);
        }
        return true;
    }

    private static void touch(VEvent vevent, Instant now) {
        int sequence = vevent.<Sequence>getProperty(Property.SEQUENCE)
                .map(Sequence::getSequenceNo)
                .orElse(0);
        vevent.replace(new Sequence(sequence + 1));
        vevent.replace(new DtStamp(now));
        vevent.replace(new LastModified(now));
    }

    /** Adds the VTIMEZONE of {@code zone} unless it is there; whether the calendar describes it. */
    private static boolean addTimeZone(Calendar calendar, ZoneId zone) {
        for (VTimeZone described : calendar.<VTimeZone>getComponents(Component.VTIMEZONE)) {
            if (described
                    .getProperty(Property.TZID)
                    .map(Property::getValue)
                    .filter(zone.getId()::equals)
                    .isPresent()) {
                return true;
            }
        }
        TimeZone timeZone =
                TimeZoneRegistryFactory.getInstance().createRegistry().getTimeZone(zone.getId());
        if (timeZone == null) {
            return false;
        }
        List<Component> components = new ArrayList<>(calendar.getComponents());
        calendar.getComponents().forEach(calendar::remove);
        calendar.add(timeZone.getVTimeZone());
        components.forEach(c -> calendar.add((net.fortuna.ical4j.model.component.CalendarComponent) c));
        return true;
    }

    private static boolean isCancelled(VEvent vevent) {
        return vevent.getProperty(Property.STATUS)
                .map(Property::getValue)
                .filter("CANCELLED"::equalsIgnoreCase)
                .isPresent();
    }

    private static String recurrenceId(VEvent vevent) {
        return vevent.getProperty(Property.RECURRENCE_ID)
                .map(Property::getValue)
                .orElseThrow();
    }

    private static Optional<LocalDate> ridDay(VEvent vevent, ZoneId zone) {
        return vevent.<DateProperty<Temporal>>getProperty(Property.RECURRENCE_ID)
                .map(DateProperty::getDate)
                .map(d -> ICalendars.dayOf(d, zone));
    }

    /** The id of an occurrence changed on the server: its series' id and its RECURRENCE-ID. */
    static String occurrenceId(String seriesId, String recurrenceId) {
        String id = seriesId + "#" + recurrenceId;
        return id.length() <= 200 ? id : "ev-" + digest(id).substring(0, 12);
    }

    private static Event withId(Event e, String id, Optional<String> recurrence, List<LocalDate> exdates) {
        return copy(e, id, recurrence, exdates, e.createdAt());
    }

    /** {@code e} under {@code id}, with another rule, exception days and time of making. */
    static Event copy(Event e, String id, Optional<String> recurrence, List<LocalDate> exdates, Instant createdAt) {
        return new Event(
                id,
                e.summary(),
                e.start(),
                e.end(),
                e.allDay(),
                e.zone(),
                e.description(),
                e.location(),
                e.attendees(),
                e.reminderMinutesBefore(),
                recurrence,
                exdates,
                createdAt,
                e.updatedAt());
    }

    /** What an event is, as far as syncing goes: everything but when it was made and changed. */
    static String fingerprint(Event e) {
        String canonical = String.join(
                "\u001f",
                e.id(),
                e.summary(),
                Long.toString(e.start().toEpochMilli()),
                Long.toString(e.end().toEpochMilli()),
                Boolean.toString(e.allDay()),
                e.zone().getId(),
                e.description().orElse("\u0000"),
                e.location().orElse("\u0000"),
                String.join("\u001e", e.attendees()),
                e.reminderMinutesBefore().map(String::valueOf).orElse("-"),
                e.recurrence().orElse("-"),
                e.exdates().stream()
                        .map(LocalDate::toString)
                        .reduce((a, b) -> a + "," + b)
                        .orElse(""));
        return digest(canonical);
    }

    private static String digest(String text) {
        try {
            return HexFormat.of()
                    .formatHex(java.security.MessageDigest.getInstance("SHA-256")
                            .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /**
     * One builder per thread: making one per object costs more than parsing a small object (measured by
     * {@code weft-bench caldav}); its registry forgets the zones of the object before.
     */
    private static final ThreadLocal<CalendarBuilder> BUILDER = ThreadLocal.withInitial(CalendarBuilder::new);

    private static Optional<Calendar> parse(String ics) {
        CalendarBuilder builder = BUILDER.get();
        try {
            builder.getRegistry().clear();
            return Optional.of(builder.build(new StringReader(ics)));
        } catch (IOException | ParserException | RuntimeException e) {
            BUILDER.remove();
            return Optional.empty();
        }
    }

    private static String text(Calendar calendar) {
        StringWriter out = new StringWriter();
        try {
            new CalendarOutputter(false).output(calendar, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }
}
