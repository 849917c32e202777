package dev.weft.memo.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A calendar written as iCalendar and read back, over real SQLite. */
final class ICalendarsTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");

    @TempDir
    Path dir;

    private RunStore store;
    private MemoData data;
    private CalendarOperations calendar;
    private ICalendars icalendars;
    private final AtomicInteger calls = new AtomicInteger();

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        data = MemoData.open(store);
        data.user("dana", "en", JERUSALEM, NOW);
        data.user("omer", "he", JERUSALEM, NOW);
        calendar = new CalendarOperations(data);
        icalendars = new ICalendars(data);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private void call(String user, String args) {
        calendar.apply(
                (ObjectNode) Json.parse(args, "args"),
                new OperationContext(user, JERUSALEM, NOW, "run-" + calls.incrementAndGet() + "/A"));
    }

    private List<ObjectNode> eventsOf(String user) {
        return data.events().all(user).stream().map(e -> e.toJson(JERUSALEM)).toList();
    }

    @Test
    void aCalendarExportedAndImportedByAnotherUserHasTheSameEvents() {
        call(
                "dana",
                "{\"operation\": \"create\", \"summary\": \"Dentist; bring form, card\", \"start\":"
                        + " \"2026-11-26T15:00+02:00\", \"end\": \"2026-11-26T15:45+02:00\", \"location\": \"Herzl 1,"
                        + " Haifa\", \"description\": \"second floor\\nroom 4\", \"attendees\": [\"dan@example.com\","
                        + " \"Noa Levi\"], \"reminderMinutesBefore\": 15}");
        call(
                "dana",
                "{\"operation\": \"create\", \"summary\": \"Holiday\", \"start\": \"2026-12-24\", \"end\":"
                        + " \"2026-12-26\", \"allDay\": true}");
        call(
                "dana",
                "{\"operation\": \"createRecurring\", \"summary\": \"Standup\", \"days\": [\"Monday\", \"Wednesday\"],"
                        + " \"startTime\": \"09:00\", \"endTime\": \"09:30\", \"startDate\": \"2026-10-19\", \"until\":"
                        + " \"2027-03-31\", \"exceptions\": [\"2026-10-26\", \"2026-12-02\"]}");
        call(
                "dana",
                "{\"operation\": \"createRecurring\", \"summary\": \"Birthday\", \"rrule\": \"FREQ=YEARLY\", \"allDay\":"
                        + " true, \"startDate\": \"2027-02-03\", \"exceptions\": [\"2028-02-03\"]}");

        String text = icalendars.export("dana");

        assertThat(text)
                .contains("BEGIN:VCALENDAR", "BEGIN:VTIMEZONE", "TZID:Asia/Jerusalem")
                .contains("DTSTART;TZID=Asia/Jerusalem:20261126T150000", "DTEND;TZID=Asia/Jerusalem:20261126T154500")
                .contains("DTSTART;VALUE=DATE:20261224", "DTEND;VALUE=DATE:20261227")
                .contains("RRULE:FREQ=WEEKLY;UNTIL=20270331T205959Z;BYDAY=MO,WE")
                .contains("EXDATE;TZID=Asia/Jerusalem:20261026T090000,20261202T090000")
                .contains("EXDATE;VALUE=DATE:20280203")
                .contains("ATTENDEE:mailto:dan@example.com", "CN=Noa Levi")
                .contains("SUMMARY:Dentist\\; bring form\\, card", "LOCATION:Herzl 1\\, Haifa")
                .contains("BEGIN:VALARM", "TRIGGER:-PT15M");

        assertThat(icalendars.importEvents("omer", text, NOW.plusSeconds(3600))).isEqualTo(4);

        assertThat(eventsOf("omer")).isEqualTo(eventsOf("dana"));
        assertThat(icalendars.importEvents("omer", text, NOW))
                .as("UIDs already there are skipped")
                .isZero();
        assertThat(data.events().all("omer")).hasSize(4);
    }

    @Test
    void anotherCalendarsEventsAreReadInTheirOwnZoneOrInUtc() {
        String text = String.join(
                "\r\n",
                "BEGIN:VCALENDAR",
                "VERSION:2.0",
                "PRODID:-//Example//Other//EN",
                "BEGIN:VEVENT",
                "UID:abc123@example.com",
                "DTSTAMP:20261101T000000Z",
                "DTSTART:20261130T070000Z",
                "DURATION:PT90M",
                "SUMMARY:Flight",
                "END:VEVENT",
                "BEGIN:VEVENT",
                "UID:abc123@example.com",
                "RECURRENCE-ID:20261130T070000Z",
                "DTSTAMP:20261101T000000Z",
                "DTSTART:20261130T080000Z",
                "SUMMARY:Flight (moved)",
                "END:VEVENT",
                "BEGIN:VEVENT",
                "UID:every-minute",
                "DTSTAMP:20261101T000000Z",
                "DTSTART:20261130T080000Z",
                "RRULE:FREQ=MINUTELY",
                "SUMMARY:Too often",
                "END:VEVENT",
                "END:VCALENDAR",
                "");

        assertThat(icalendars.importEvents("dana", text, NOW)).isEqualTo(1);

        Event flight = data.events().find("dana", "abc123@example.com").orElseThrow();
        assertThat(flight.toJson(JERUSALEM).get("start").asText()).isEqualTo("2026-11-30T09:00+02:00");
        assertThat(flight.toJson(JERUSALEM).get("end").asText()).isEqualTo("2026-11-30T10:30+02:00");
        assertThat(flight.zone()).isEqualTo(JERUSALEM);
        assertThat(flight.createdAt()).isEqualTo(NOW);
    }

    @Test
    void textThatIsNotICalendarIsRefused() {
        assertThatThrownBy(() -> icalendars.importEvents("dana", "hello, calendar", NOW))
                .isInstanceOf(WeftException.class)
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_BAD_INPUT));
        assertThat(data.events().all("dana")).isEmpty();
    }
}
