package dev.weft.memo.data;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.Temporal;
import java.time.temporal.TemporalAmount;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import net.fortuna.ical4j.data.CalendarBuilder;
import net.fortuna.ical4j.data.CalendarOutputter;
import net.fortuna.ical4j.data.ParserException;
import net.fortuna.ical4j.model.Calendar;
import net.fortuna.ical4j.model.Component;
import net.fortuna.ical4j.model.DateList;
import net.fortuna.ical4j.model.Parameter;
import net.fortuna.ical4j.model.ParameterList;
import net.fortuna.ical4j.model.Property;
import net.fortuna.ical4j.model.TimeZone;
import net.fortuna.ical4j.model.TimeZoneRegistry;
import net.fortuna.ical4j.model.TimeZoneRegistryFactory;
import net.fortuna.ical4j.model.component.VAlarm;
import net.fortuna.ical4j.model.component.VEvent;
import net.fortuna.ical4j.model.parameter.Cn;
import net.fortuna.ical4j.model.parameter.TzId;
import net.fortuna.ical4j.model.parameter.Value;
import net.fortuna.ical4j.model.property.Attendee;
import net.fortuna.ical4j.model.property.Created;
import net.fortuna.ical4j.model.property.DateListProperty;
import net.fortuna.ical4j.model.property.DateProperty;
import net.fortuna.ical4j.model.property.Description;
import net.fortuna.ical4j.model.property.DtEnd;
import net.fortuna.ical4j.model.property.DtStamp;
import net.fortuna.ical4j.model.property.DtStart;
import net.fortuna.ical4j.model.property.ExDate;
import net.fortuna.ical4j.model.property.LastModified;
import net.fortuna.ical4j.model.property.Location;
import net.fortuna.ical4j.model.property.ProdId;
import net.fortuna.ical4j.model.property.RRule;
import net.fortuna.ical4j.model.property.Summary;
import net.fortuna.ical4j.model.property.Trigger;
import net.fortuna.ical4j.model.property.Uid;
import net.fortuna.ical4j.model.property.immutable.ImmutableAction;
import net.fortuna.ical4j.model.property.immutable.ImmutableCalScale;
import net.fortuna.ical4j.model.property.immutable.ImmutableVersion;

/**
 * A user's calendar as iCalendar text (RFC 5545), through ical4j, and back: each event a VEVENT whose
 * UID is its id, with its zone (TZID and a VTIMEZONE) or its dates (VALUE=DATE), its RRULE and EXDATEs,
 * its attendees, and its reminder as a VALARM. Thread-safe.
 */
public final class ICalendars {
    static final String PRODUCT = "-//Weft//Memo//EN";
    /** The address of an attendee known by name only: the name goes in CN. */
    private static final URI NAMED = URI.create("urn:x-weft:attendee");

    private static final Pattern EMAIL = Pattern.compile("[^\\s@<>]+@[^\\s@<>]+");
    private static final Duration DEFAULT_LENGTH = Duration.ofHours(1);

    private final MemoData data;

    public ICalendars(MemoData data) {
        this.data = data;
    }

    /** Every event of {@code user} as an iCalendar text. */
    public String export(String user) {
        List<Event> events = data.events().all(user);
        Calendar calendar = new Calendar();
        calendar.add(new ProdId(PRODUCT));
        calendar.add(ImmutableVersion.VERSION_2_0);
        calendar.add(ImmutableCalScale.GREGORIAN);
        TimeZoneRegistry registry = TimeZoneRegistryFactory.getInstance().createRegistry();
        Set<ZoneId> described = new LinkedHashSet<>();
        for (Event event : events) {
            if (!event.allDay() && !described.contains(event.zone())) {
                TimeZone zone = registry.getTimeZone(event.zone().getId());
                if (zone != null) {
                    calendar.add(zone.getVTimeZone());
                    described.add(event.zone());
                }
            }
        }
        for (Event event : events) {
            calendar.add(vevent(event, described.contains(event.zone())));
        }
        StringWriter text = new StringWriter();
        try {
            new CalendarOutputter(false).output(calendar, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    /**
     * Adds the VEVENTs of {@code text} to {@code user}'s calendar, each under its UID; one whose UID the
     * user already has is left out, as are changed occurrences of a series (a RECURRENCE-ID) and events
     * repeating more often than daily. Times in a zone Java does not know, and floating ones, are read in
     * the user's zone; an event without an end lasts an hour (a day when all-day). {@code user} must
     * exist.
     *
     * @return how many events were added
     * @throws WeftException {@code E_BAD_INPUT} for text that is not iCalendar
     */
    public int importEvents(String user, String text, Instant now) {
        Calendar calendar;
        try {
            calendar = new CalendarBuilder().build(new StringReader(text));
        } catch (IOException | ParserException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the text is not an iCalendar: " + e.getMessage());
        }
        ZoneId zone = data.findUser(user).map(User::zone).orElse(ZoneOffset.UTC);
        List<Event> found = new ArrayList<>();
        for (VEvent vevent : calendar.<VEvent>getComponents(Component.VEVENT)) {
            if (vevent.getProperty(Property.RECURRENCE_ID).isEmpty()) {
                event(vevent, zone, now.truncatedTo(ChronoUnit.SECONDS)).ifPresent(found::add);
            }
        }
        return data.events().db().write("import events for " + user, c -> {
            int added = 0;
            for (Event event : found) {
                if (Events.find(c, user, event.id()).isEmpty()) {
                    Events.insert(c, user, event);
                    added++;
                }
            }
            return added;
        });
    }

    static VEvent vevent(Event event, boolean zoned) {
        VEvent vevent = new VEvent(false);
        vevent.add(new Uid(event.id()));
        vevent.add(new DtStamp(event.updatedAt()));
        vevent.add(new Created(event.createdAt()));
        vevent.add(new LastModified(event.updatedAt()));
        ZoneId zone = event.zone();
        if (event.allDay()) {
            vevent.add(new DtStart<>(event.start().atZone(zone).toLocalDate()));
            vevent.add(new DtEnd<>(event.end().atZone(zone).toLocalDate()));
        } else if (zoned) {
            vevent.add(new DtStart<>(event.start().atZone(zone)));
            vevent.add(new DtEnd<>(event.end().atZone(zone)));
        } else {
            vevent.add(new DtStart<>(event.start()));
            vevent.add(new DtEnd<>(event.end()));
        }
        vevent.add(new Summary(event.summary()));
        event.location().ifPresent(l -> vevent.add(new Location(l)));
        event.description().ifPresent(d -> vevent.add(new Description(d)));
        for (String attendee : event.attendees()) {
            vevent.add(
                    EMAIL.matcher(attendee).matches()
                            ? new Attendee(URI.create("mailto:" + attendee))
                            : new Attendee(new ParameterList(List.of(new Cn(attendee))), NAMED));
        }
        event.recurrence().ifPresent(rule -> vevent.add(new RRule<>(rule)));
        if (!event.exdates().isEmpty()) {
            vevent.add(exdates(event, zoned));
        }
        event.reminderMinutesBefore().ifPresent(minutes -> {
            VAlarm alarm = new VAlarm(Duration.ofMinutes(-minutes));
            alarm.add(ImmutableAction.DISPLAY);
            alarm.add(new Description(event.summary()));
            vevent.add(alarm);
        });
        return vevent;
    }

    /** The exception days, as the times the skipped occurrences would have started. */
    static ExDate<?> exdates(Event event, boolean zoned) {
        ZonedDateTime first = event.start().atZone(event.zone());
        if (event.allDay()) {
            return new ExDate<>(new ParameterList(List.of(Value.DATE)), new DateList<>(event.exdates()));
        }
        List<ZonedDateTime> times = event.exdates().stream()
                .map(day -> day.atTime(first.toLocalTime()).atZone(event.zone()))
                .toList();
        if (zoned) {
            return new ExDate<>(new ParameterList(List.of(new TzId(event.zone().getId()))), new DateList<>(times));
        }
        return new ExDate<>(
                new DateList<>(times.stream().map(ZonedDateTime::toInstant).toList()));
    }

    /** The event a VEVENT describes, when Memo can keep it. */
    static Optional<Event> event(VEvent vevent, ZoneId userZone, Instant now) {
        Optional<DtStart<Temporal>> dtStart = vevent.getProperty(Property.DTSTART);
        if (dtStart.isEmpty()) {
            return Optional.empty();
        }
        ZoneId zone = zoneOf(dtStart.get(), userZone);
        Temporal startValue = dtStart.get().getDate();
        Optional<DtEnd<Temporal>> dtEnd = vevent.getProperty(Property.DTEND);
        Optional<TemporalAmount> duration = vevent.<net.fortuna.ical4j.model.property.Duration>getProperty(
                        Property.DURATION)
                .map(net.fortuna.ical4j.model.property.Duration::getDuration);
        boolean allDay = startValue instanceof LocalDate;
        Instant start;
        Instant end;
        if (startValue instanceof LocalDate first) {
            LocalDate last = dtEnd.map(e -> e.getDate())
                    .filter(LocalDate.class::isInstance)
                    .map(LocalDate.class::cast)
                    .or(() -> duration.map(first::plus))
                    .orElse(first.plusDays(1));
            start = first.atStartOfDay(zone).toInstant();
            end = (last.isAfter(first) ? last : first.plusDays(1))
                    .atStartOfDay(zone)
                    .toInstant();
        } else {
            start = instant(startValue, zone);
            end = dtEnd.map(e -> instant(e.getDate(), zone))
                    .or(() -> duration.map(d -> start.atZone(zone).plus(d).toInstant()))
                    .filter(e -> e.isAfter(start))
                    .orElse(start.plus(DEFAULT_LENGTH));
        }
        Optional<String> recurrence;
        try {
            recurrence = vevent.<RRule<?>>getProperty(Property.RRULE)
                    .map(RRule::getValue)
                    .map(Recurrences::checked);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        List<LocalDate> exdates = new ArrayList<>();
        for (Property property : vevent.getProperties(Property.EXDATE)) {
            if (property instanceof DateListProperty<?> list) {
                list.getDates().forEach(d -> exdates.add(dayOf(d, zone)));
            }
        }
        String summary = text(vevent, Property.SUMMARY).orElse("(no title)");
        Instant created = dateOf(vevent, Property.CREATED).orElse(now);
        return Optional.of(new Event(
                id(vevent, summary, start),
                summary,
                start,
                end,
                allDay,
                zone,
                text(vevent, Property.DESCRIPTION),
                text(vevent, Property.LOCATION),
                attendees(vevent),
                reminder(vevent),
                recurrence,
                exdates.stream().distinct().sorted().toList(),
                created,
                dateOf(vevent, Property.LAST_MODIFIED).orElse(created)));
    }

    /** The zone of a DTSTART's TZID when Java knows it, else the user's. */
    private static ZoneId zoneOf(DtStart<Temporal> start, ZoneId userZone) {
        Optional<Parameter> tzid = start.getParameter(Parameter.TZID);
        if (tzid.isPresent()) {
            try {
                return ZoneId.of(tzid.get().getValue());
            } catch (DateTimeException e) {
                return userZone;
            }
        }
        return userZone;
    }

    private static Instant instant(Temporal value, ZoneId zone) {
        return switch (value) {
            case Instant at -> at;
            case ZonedDateTime at -> at.toInstant();
            case OffsetDateTime at -> at.toInstant();
            case LocalDateTime at -> at.atZone(zone).toInstant();
            case LocalDate day -> day.atStartOfDay(zone).toInstant();
            default -> Instant.from(value);
        };
    }

    static LocalDate dayOf(Temporal value, ZoneId zone) {
        return value instanceof LocalDate day
                ? day
                : instant(value, zone).atZone(zone).toLocalDate();
    }

    /** The event's UID, when it can serve as an id; else one made from what the event is. */
    static String id(VEvent vevent, String summary, Instant start) {
        Optional<String> uid = text(vevent, Property.UID);
        if (uid.isPresent() && uid.get().length() <= 200 && uid.get().chars().noneMatch(Character::isISOControl)) {
            return uid.get();
        }
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest((summary + "#" + start).getBytes(StandardCharsets.UTF_8));
            return "ev-" + HexFormat.of().formatHex(digest, 0, 6);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static List<String> attendees(VEvent vevent) {
        List<String> people = new ArrayList<>();
        for (Property attendee : vevent.getProperties(Property.ATTENDEE)) {
            String address = attendee.getValue();
            Optional<Parameter> name = attendee.getParameter(Parameter.CN);
            if (address.toLowerCase(Locale.ROOT).startsWith("mailto:")
                    && EMAIL.matcher(address.substring("mailto:".length())).matches()) {
                people.add(address.substring("mailto:".length()));
            } else if (name.isPresent() && !name.get().getValue().isBlank()) {
                people.add(name.get().getValue());
            } else if (!address.isBlank()) {
                people.add(address);
            }
        }
        return people;
    }

    /** Minutes before the start of the first alarm set relative to it. */
    private static Optional<Integer> reminder(VEvent vevent) {
        for (VAlarm alarm : vevent.getAlarms()) {
            Optional<Trigger> trigger = alarm.getProperty(Property.TRIGGER);
            if (trigger.isPresent() && trigger.get().getDuration() != null) {
                TemporalAmount before = trigger.get().getDuration();
                long minutes = before instanceof Period days
                        ? -days.getDays() * 24L * 60
                        : -Duration.from(before).toMinutes();
                return Optional.of((int) Math.max(0, minutes));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> text(VEvent vevent, String name) {
        return vevent.getProperty(name).map(Property::getValue).filter(v -> !v.isBlank());
    }

    private static Optional<Instant> dateOf(VEvent vevent, String name) {
        return vevent.<DateProperty<Instant>>getProperty(name).map(DateProperty::getDate);
    }
}
