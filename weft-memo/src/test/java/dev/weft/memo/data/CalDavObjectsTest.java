package dev.weft.memo.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Calendar objects as other servers and clients write them, read into Memo's events and written back
 * (no server: {@link dev.weft.memo.CalendarSyncIT} syncs with a real one), and multistatus answers in
 * the shapes servers give them.
 */
final class CalDavObjectsTest {
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    /** Outlook writes its own zone names, described by the VTIMEZONE it sends along. */
    private static final String OUTLOOK =
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Microsoft Corporation//Outlook//EN\r\n"
                    + "BEGIN:VTIMEZONE\r\nTZID:Customized Time Zone\r\nBEGIN:STANDARD\r\nDTSTART:16011104T020000\r\n"
                    + "RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nEND:STANDARD\r\n"
                    + "BEGIN:DAYLIGHT\r\nDTSTART:16010311T020000\r\nRRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3\r\n"
                    + "TZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n"
                    + "BEGIN:VEVENT\r\nUID:040000008200E00074C5B7101A82E008\r\nDTSTAMP:20261124T080000Z\r\n"
                    + "DTSTART;TZID=Customized Time Zone:20261125T090000\r\nDTEND;TZID=Customized Time Zone:20261125T100000\r\n"
                    + "SUMMARY:Budget review\r\nORGANIZER;CN=Noa:mailto:noa@example.com\r\nX-MICROSOFT-CDO-BUSYSTATUS:BUSY\r\n"
                    + "END:VEVENT\r\nEND:VCALENDAR\r\n";

    @Test
    void aZoneJavaDoesNotKnowIsReadThroughItsVtimezone() {
        List<CalDavObjects.Piece> pieces = CalDavObjects.read(OUTLOOK, JERUSALEM, NOW);

        assertThat(pieces).singleElement().satisfies(p -> {
            assertThat(p.event().id()).isEqualTo("040000008200E00074C5B7101A82E008");
            assertThat(p.event().start()).isEqualTo(Instant.parse("2026-11-25T14:00:00Z"));
            assertThat(p.event().end()).isEqualTo(Instant.parse("2026-11-25T15:00:00Z"));
            assertThat(p.event().zone()).isEqualTo(JERUSALEM);
        });
    }

    @Test
    void aChangeWrittenBackKeepsWhatMemoDoesNotModelAndRaisesTheSequence() {
        Event before = CalDavObjects.read(OUTLOOK, JERUSALEM, NOW).get(0).event();
        Event renamed = new Event(
                before.id(),
                "Budget review (moved room)",
                before.start(),
                before.end(),
                false,
                before.zone(),
                Optional.empty(),
                Optional.of("Room 4"),
                before.attendees(),
                before.reminderMinutesBefore(),
                Optional.empty(),
                List.of(),
                before.createdAt(),
                NOW);

        String written = CalDavObjects.patched(OUTLOOK, JERUSALEM, NOW, renamed, Map.of());

        assertThat(written)
                .contains("SUMMARY:Budget review (moved room)")
                .contains("LOCATION:Room 4")
                .contains("ORGANIZER;CN=Noa:mailto:noa@example.com")
                .contains("X-MICROSOFT-CDO-BUSYSTATUS:BUSY")
                .contains("DTSTART;TZID=Customized Time Zone:20261125T090000")
                .contains("SEQUENCE:1");
        assertThat(CalDavObjects.read(written, JERUSALEM, NOW).get(0).event().summary())
                .isEqualTo("Budget review (moved room)");
    }

    @Test
    void aCancelledOccurrenceIsAnExceptionAndAMovedOneAnEventOfItsOwn() {
        String series = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\r\n"
                + "BEGIN:VEVENT\r\nUID:weekly@google.com\r\nDTSTAMP:20261124T080000Z\r\n"
                + "DTSTART;VALUE=DATE:20261201\r\nDTEND;VALUE=DATE:20261202\r\nRRULE:FREQ=WEEKLY;COUNT=4\r\n"
                + "SUMMARY:Gym day\r\nEND:VEVENT\r\n"
                + "BEGIN:VEVENT\r\nUID:weekly@google.com\r\nDTSTAMP:20261124T080000Z\r\nRECURRENCE-ID;VALUE=DATE:20261208\r\n"
                + "DTSTART;VALUE=DATE:20261208\r\nDTEND;VALUE=DATE:20261209\r\nSTATUS:CANCELLED\r\nSUMMARY:Gym day\r\n"
                + "END:VEVENT\r\n"
                + "BEGIN:VEVENT\r\nUID:weekly@google.com\r\nDTSTAMP:20261124T080000Z\r\nRECURRENCE-ID;VALUE=DATE:20261215\r\n"
                + "DTSTART;VALUE=DATE:20261216\r\nDTEND;VALUE=DATE:20261217\r\nSUMMARY:Gym day (Wednesday)\r\n"
                + "END:VEVENT\r\nEND:VCALENDAR\r\n";

        List<CalDavObjects.Piece> pieces = CalDavObjects.read(series, JERUSALEM, NOW);

        assertThat(pieces).hasSize(2);
        assertThat(pieces.get(0).event().exdates())
                .containsExactly(LocalDate.parse("2026-12-08"), LocalDate.parse("2026-12-15"));
        assertThat(pieces.get(1).event().id()).isEqualTo("weekly@google.com#20261215");
        assertThat(pieces.get(1).recurrenceId()).contains("20261215");
        assertThat(pieces.get(1).event().toJson(JERUSALEM).path("start").asText())
                .isEqualTo("2026-12-16");
    }

    @Test
    void textThatIsNotACalendarGivesNoEvent() {
        assertThat(CalDavObjects.read("<html>not found</html>", JERUSALEM, NOW)).isEmpty();
        assertThat(CalDavObjects.read(
                        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:t\r\nEND:VTODO\r\n" + "END:VCALENDAR\r\n",
                        JERUSALEM,
                        NOW))
                .isEmpty();
    }

    @Test
    void multistatusAnswersAreReadWhateverTheirPrefixesHrefsAndCdata() {
        // iCloud-style: its own prefixes, absolute URLs, the text in CDATA; a member gone (sync-collection)
        String answer = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><multistatus xmlns=\"DAV:\">"
                + "<response><href>https://p42-caldav.icloud.com/123/calendars/home/a%20b.ics</href><propstat><prop>"
                + "<getetag>\"e1\"</getetag><cal:calendar-data xmlns:cal=\"urn:ietf:params:xml:ns:caldav\">"
                + "<![CDATA[BEGIN:VCALENDAR\r\nEND:VCALENDAR]]></cal:calendar-data></prop>"
                + "<status>HTTP/1.1 200 OK</status></propstat></response>"
                + "<response><href>/123/calendars/home/gone.ics</href><status>HTTP/1.1 404 Not Found</status></response>"
                + "<sync-token>https://example.com/sync/7</sync-token></multistatus>";

        CalDavClient.Multistatus parsed = CalDavClient.parse(
                URI.create("https://p42-caldav.icloud.com/123/calendars/home/"),
                answer.getBytes(StandardCharsets.UTF_8));

        assertThat(parsed.syncToken()).contains("https://example.com/sync/7");
        assertThat(parsed.responses()).hasSize(2);
        assertThat(parsed.responses().get(0).href()).isEqualTo("/123/calendars/home/a b.ics");
        assertThat(parsed.responses().get(0).text(CalDavClient.DAV, "getetag")).contains("\"e1\"");
        // XML reads every line end as LF, in CDATA too; iCalendar's parser takes either
        assertThat(CalDavClient.calendarData(parsed.responses().get(0))).contains("BEGIN:VCALENDAR\nEND:VCALENDAR");
        assertThat(parsed.responses().get(1).status()).isEqualTo(404);
        assertThat(CalDavClient.at(URI.create("https://p42-caldav.icloud.com/x/"), "/123/calendars/home/a b.ics"))
                .hasToString("https://p42-caldav.icloud.com/123/calendars/home/a%20b.ics");
    }

    @Test
    void anAnswerWithADoctypeIsRefused() {
        String hostile = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>"
                + "<multistatus xmlns=\"DAV:\"><response><href>&e;</href></response></multistatus>";

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CalDavClient.parse(
                        URI.create("https://example.com/"), hostile.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOfSatisfying(
                        dev.weft.core.WeftException.class,
                        e -> assertThat(e.code()).isEqualTo(dev.weft.core.ErrorCode.E_CALENDAR_UNAVAILABLE));
    }
}
