package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.CalDavSync;
import dev.weft.memo.data.CalendarAccounts;
import dev.weft.memo.data.Event;
import dev.weft.memo.data.Notifications.Notification;
import dev.weft.plan.PlanMode;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two-way sync of Memo's calendar with a real CalDAV server (Debian's Radicale, started by the test):
 * what is made, moved or deleted on either side shows on the other, recurring events keep their
 * exceptions, a conflict keeps the server's version and tells the user, a server that goes down loses
 * nothing, a wrong password changes nothing, and two users never see each other's events.
 */
final class CalendarSyncTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");

    @TempDir
    static Path serverDir;

    private static Radicale radicale;
    private static int calendars;

    @TempDir
    Path dir;

    private RunStore store;
    private Memo memo;
    private Runner runner;
    private final AtomicReference<Instant> clock = new AtomicReference<>(NOW);
    /** This test's calendar name on the server (each test has its own, the server is shared). */
    private String name;

    @BeforeAll
    static void startServer() {
        radicale = Radicale.start(serverDir, Map.of("dana", "dana-pw", "omer", "omer-pw"));
    }

    @AfterAll
    static void stopServer() {
        radicale.close();
    }

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        memo = Memo.open(store, clock::get);
        memo.data().calendars().secrets().useKeyFile(dir.resolve("mail.key"));
        runner = Runner.builder().store(store).time(TimeSource.of(clock::get)).build();
        name = "cal" + (++calendars);
        radicale.makeCalendar("dana", name);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private CalDavSync.Connected connect(String user, String password) {
        memo.data().user(user, "en", JERUSALEM, NOW);
        return memo.data()
                .caldav()
                .connect(
                        user,
                        radicale.url().toString(),
                        user,
                        CalendarAccounts.Auth.PASSWORD,
                        password,
                        Optional.of(name),
                        NOW);
    }

    private Memo.Reply ask(String user, String message) {
        return memo.ask(runner, new Memo.Request(user, message, Optional.of(JERUSALEM), PlanMode.AUTO));
    }

    private static String event(String uid, String summary, String start, String end) {
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VEVENT\r\nUID:" + uid
                + "\r\nDTSTAMP:20261124T080000Z\r\nDTSTART:" + start + "\r\nDTEND:" + end + "\r\nSUMMARY:" + summary
                + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    }

    private List<Event> events(String user) {
        return memo.data().events().all(user);
    }

    @Test
    void connectFindsTheNamedCalendarFromTheServersRoot() {
        CalDavSync.Connected connected = connect("dana", "dana-pw");

        assertThat(connected.account().calendar().getPath()).isEqualTo("/dana/" + name + "/");
        assertThat(connected.made()).isFalse();
        assertThat(memo.data().calendars().find("dana")).isPresent();
    }

    @Test
    void aWrongPasswordIsAClearErrorAndKeepsNothing() {
        memo.data().user("dana", "en", JERUSALEM, NOW);

        assertThatThrownBy(() -> connect("dana", "not-her-password"))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_CALENDAR_LOGIN_FAILED))
                .hasMessageContaining("refused the login 'dana'");
        assertThat(memo.data().calendars().find("dana")).isEmpty();
    }

    @Test
    void anEventMadeOnThePhoneShowsInMemoAndInItsAnswers() {
        connect("dana", "dana-pw");
        radicale.put(
                "dana",
                name,
                "phone-1.ics",
                event("phone-1@example.com", "Dentist", "20261125T130000Z", "20261125T140000Z"));

        CalDavSync.Report report = memo.calendar().sync("dana");
        Memo.Reply answer = ask("dana", "what do I have tomorrow?");

        assertThat(report.pulled()).isEqualTo(1);
        assertThat(events("dana")).extracting(Event::id).containsExactly("phone-1@example.com");
        assertThat(answer.text()).contains("Dentist").contains("15:00");
    }

    @Test
    void anEventMemoMakesGoesToTheServerUnderItsUid() {
        connect("dana", "dana-pw");
        memo.calendar().sync("dana");

        ask("dana", "schedule a meeting with Dana tomorrow at 3pm");

        String id = events("dana").get(0).id();
        Map<String, String> onServer = radicale.objects("dana", name);
        assertThat(onServer).hasSize(1);
        String text = onServer.values().iterator().next();
        assertThat(text)
                .contains("UID:" + id)
                .contains("SUMMARY:meeting with Dana")
                .contains("TZID=Asia/Jerusalem");
        assertThat(memo.calendar().sync("dana").pulled()).isZero();
        assertThat(events("dana")).hasSize(1);
    }

    @Test
    void aConflictKeepsTheServersVersionAndTellsTheUserMemosChange() {
        connect("dana", "dana-pw");
        radicale.put(
                "dana", name, "standup.ics", event("standup-1", "Standup", "20261125T070000Z", "20261125T073000Z"));
        memo.calendar().sync("dana");
        // moved on the phone to 10:00 and, before the next sync, in Memo to 12:00
        radicale.put(
                "dana", name, "standup.ics", event("standup-1", "Standup", "20261125T080000Z", "20261125T083000Z"));
        Event mine = events("dana").get(0);
        new dev.weft.memo.data.CalendarOperations(memo.data())
                .apply(
                        (com.fasterxml.jackson.databind.node.ObjectNode) dev.weft.core.Json.parse(
                                "{\"operation\":\"update\",\"eventId\":\"standup-1\",\"updateFields\":{\"start\":"
                                        + "\"2026-11-25T12:00:00+02:00\"}}",
                                "args"),
                        new dev.weft.memo.data.OperationContext("dana", JERUSALEM, NOW, "k1"));

        CalDavSync.Report report = memo.calendar().sync("dana");

        assertThat(report.conflicts()).hasSize(1);
        assertThat(events("dana").get(0).start()).isEqualTo(Instant.parse("2026-11-25T08:00:00Z"));
        assertThat(radicale.get("dana", name, "standup.ics").orElseThrow()).contains("DTSTART:20261125T080000Z");
        List<Notification> told = memo.data().notifications().pending("dana");
        assertThat(told).hasSize(1);
        assertThat(memo.notice(told.get(0)))
                .contains("Calendar conflict")
                .contains("\"Standup\"")
                .contains("Your version was: \"Standup\", Wed 25 Nov, 12:00–12:30");
        assertThat(mine.start()).isEqualTo(Instant.parse("2026-11-25T07:00:00Z"));
    }

    @Test
    void twoUsersNeverSeeEachOthersEvents() {
        radicale.makeCalendar("omer", name);
        connect("dana", "dana-pw");
        connect("omer", "omer-pw");
        radicale.put("dana", name, "d.ics", event("dana-1", "Dana's dentist", "20261125T130000Z", "20261125T140000Z"));
        radicale.put("omer", name, "o.ics", event("omer-1", "Omer's gym", "20261125T150000Z", "20261125T160000Z"));

        memo.calendar().sync("dana");
        memo.calendar().sync("omer");
        ask("omer", "schedule a meeting with Noa tomorrow at 9am");

        assertThat(events("dana")).extracting(Event::summary).containsExactly("Dana's dentist");
        assertThat(events("omer"))
                .extracting(Event::summary)
                .containsExactlyInAnyOrder("Omer's gym", "meeting with Noa");
        assertThat(radicale.objects("dana", name).values()).noneMatch(t -> t.contains("Noa") || t.contains("gym"));
        assertThat(radicale.objects("omer", name)).hasSize(2);
    }

    @Test
    void laterSyncsAskOnlyForWhatChangedSinceTheServersToken() {
        connect("dana", "dana-pw");
        radicale.put("dana", name, "a.ics", event("a", "A", "20261125T130000Z", "20261125T140000Z"));
        radicale.put("dana", name, "b.ics", event("b", "B", "20261125T150000Z", "20261125T160000Z"));
        CalDavSync.Report first = memo.calendar().sync("dana");
        radicale.put("dana", name, "b.ics", event("b", "B moved", "20261126T150000Z", "20261126T160000Z"));
        radicale.delete("dana", name, "a.ics");

        CalDavSync.Report second = memo.calendar().sync("dana");

        assertThat(first.full()).isTrue();
        assertThat(first.pulled()).isEqualTo(2);
        assertThat(second.full()).isFalse();
        assertThat(second.pulled()).isEqualTo(1);
        assertThat(second.removed()).isEqualTo(1);
        assertThat(events("dana")).extracting(Event::summary).containsExactly("B moved");
        assertThat(ZonedDateTime.ofInstant(events("dana").get(0).start(), JERUSALEM)
                        .getDayOfMonth())
                .isEqualTo(26);
    }
}
