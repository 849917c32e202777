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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two-way sync of Memo's calendar with a real CalDAV server (Debian's Radicale, started by the test):
 * what is made, moved or deleted on either side shows on the other, recurring events keep their
 * exceptions, a conflict keeps the server's version and tells the user, a server that goes down loses
 * nothing, a wrong password changes nothing, and two users never see each other's events.
 */
final class CalendarSyncIT {
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
        use("sqlite");
        name = "cal" + (++calendars);
        radicale.makeCalendar("dana", name);
    }

    /** Memo on SQLite (the default) or on PostgreSQL. */
    private void use(String kind) {
        if (store != null) {
            store.close();
        }
        store = Stores.open(
                kind.equals("postgresql")
                        ? dev.weft.store.EmbeddedPostgres.shared().freshUrl()
                        : "sqlite:" + dir.resolve("memo.db"));
        memo = Memo.open(store, clock::get);
        memo.data().calendars().secrets().useKeyFile(dir.resolve("mail.key"));
        runner = Runner.builder().store(store).time(TimeSource.of(clock::get)).build();
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
                        JERUSALEM,
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

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aConflictKeepsTheServersVersionAndTellsTheUserMemosChange(String kind) {
        use(kind);
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

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void laterSyncsAskOnlyForWhatChangedSinceTheServersToken(String kind) {
        use(kind);
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

    /** A call of Memo's calendar tool as a plan step makes it (so a change reaches the server at once). */
    private com.fasterxml.jackson.databind.JsonNode calendar(String user, String args) {
        return Memo.tools(memo.data(), memo.reminders())
                .call(
                        MemoTools.CALENDAR,
                        (com.fasterxml.jackson.databind.node.ObjectNode) dev.weft.core.Json.parse(args, "args"),
                        dev.weft.plan.ToolContext.detached(
                                "run-" + (++calls), Optional.of(user), "A", TimeSource.of(clock::get)));
    }

    private int calls;

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void movesAndDeletesGoBothWaysAndKeepWhatMemoDoesNotModel(String kind) {
        use(kind);
        connect("dana", "dana-pw");
        radicale.put(
                "dana",
                name,
                "a.ics",
                event("a", "Dentist", "20261125T130000Z", "20261125T140000Z")
                        .replace("SUMMARY:", "CATEGORIES:Health\r\nX-PHONE-COLOR:red\r\nSUMMARY:"));
        radicale.put("dana", name, "b.ics", event("b", "Gym", "20261125T150000Z", "20261125T160000Z"));
        memo.calendar().sync("dana");

        calendar(
                "dana",
                "{\"operation\": \"update\", \"eventId\": \"a\", \"updateFields\": {\"start\":"
                        + " \"2026-11-26T10:00:00+02:00\"}}");
        calendar("dana", "{\"operation\": \"delete\", \"eventId\": \"b\"}");

        String moved = radicale.get("dana", name, "a.ics").orElseThrow();
        assertThat(moved)
                .contains("DTSTART;TZID=Asia/Jerusalem:20261126T100000")
                .contains("DTEND;TZID=Asia/Jerusalem:20261126T110000")
                .contains("CATEGORIES:Health")
                .contains("X-PHONE-COLOR:red")
                .contains("SEQUENCE:1");
        assertThat(radicale.get("dana", name, "b.ics")).isEmpty();

        // and the other way: the phone moves the dentist back and deletes what Memo made
        String made = calendar(
                        "dana",
                        "{\"operation\": \"create\", \"summary\": \"Lunch\", \"start\": \"2026-11-27T12:00:00+02:00\"}")
                .path("event")
                .path("id")
                .asText();
        assertThat(radicale.objects("dana", name)).hasSize(2);
        radicale.put("dana", name, "a.ics", event("a", "Dentist", "20261125T130000Z", "20261125T140000Z"));
        radicale.delete("dana", name, made + ".ics");

        CalDavSync.Report report = memo.calendar().sync("dana");

        assertThat(report.conflicts()).isEmpty();
        assertThat(events("dana")).extracting(Event::id).containsExactly("a");
        assertThat(events("dana").get(0).start()).isEqualTo(Instant.parse("2026-11-25T13:00:00Z"));
    }

    private static final String JERUSALEM_ZONE = "BEGIN:VTIMEZONE\r\nTZID:Asia/Jerusalem\r\nBEGIN:STANDARD\r\n"
            + "DTSTART:19701025T020000\r\nTZOFFSETFROM:+0300\r\nTZOFFSETTO:+0200\r\nEND:STANDARD\r\n"
            + "BEGIN:DAYLIGHT\r\nDTSTART:19700327T020000\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0300\r\n"
            + "END:DAYLIGHT\r\nEND:VTIMEZONE\r\n";

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aRecurringEventKeepsTheExceptionsMadeOnTheServer(String kind) {
        use(kind);
        connect("dana", "dana-pw");
        // every Monday 09:00, not on 7 Dec, and on 14 Dec at 11:00 instead
        radicale.put(
                "dana",
                name,
                "standup.ics",
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\n" + JERUSALEM_ZONE
                        + "BEGIN:VEVENT\r\nUID:standup\r\nDTSTAMP:20261124T080000Z\r\n"
                        + "DTSTART;TZID=Asia/Jerusalem:20261130T090000\r\nDTEND;TZID=Asia/Jerusalem:20261130T093000\r\n"
                        + "RRULE:FREQ=WEEKLY;BYDAY=MO\r\nEXDATE;TZID=Asia/Jerusalem:20261207T090000\r\n"
                        + "SUMMARY:Standup\r\nEND:VEVENT\r\n"
                        + "BEGIN:VEVENT\r\nUID:standup\r\nDTSTAMP:20261124T080000Z\r\n"
                        + "RECURRENCE-ID;TZID=Asia/Jerusalem:20261214T090000\r\n"
                        + "DTSTART;TZID=Asia/Jerusalem:20261214T110000\r\nDTEND;TZID=Asia/Jerusalem:20261214T113000\r\n"
                        + "SUMMARY:Standup (late)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n");

        memo.calendar().sync("dana");
        com.fasterxml.jackson.databind.JsonNode listed = calendar(
                "dana", "{\"operation\": \"getEvents\", \"timeMin\": \"2026-11-30\", \"timeMax\": \"2026-12-21\"}");

        assertThat(listed.path("events").findValuesAsText("start"))
                .containsExactly("2026-11-30T09:00+02:00", "2026-12-14T11:00+02:00", "2026-12-21T09:00+02:00");
        assertThat(listed.path("events").findValuesAsText("summary"))
                .containsExactly("Standup", "Standup (late)", "Standup");

        // deleting the moved occurrence in Memo removes it on the server and skips its day there
        calendar("dana", "{\"operation\": \"delete\", \"eventId\": \"standup#20261214T090000\"}");

        String text = radicale.get("dana", name, "standup.ics").orElseThrow();
        assertThat(text).doesNotContain("RECURRENCE-ID").doesNotContain("Standup (late)");
        assertThat(text).contains("20261207T090000").contains("20261214T090000");
        assertThat(memo.calendar().sync("dana").conflicts()).isEmpty();
        assertThat(events("dana")).extracting(Event::id).containsExactly("standup");
    }

    @Test
    void allDayAndMultiDayEventsAndEventsInOtherZonesKeepTheirDaysAndTimes() {
        connect("dana", "dana-pw");
        radicale.put(
                "dana",
                name,
                "conference.ics",
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VEVENT\r\nUID:conference\r\n"
                        + "DTSTAMP:20261124T080000Z\r\nDTSTART;VALUE=DATE:20261130\r\nDTEND;VALUE=DATE:20261203\r\n"
                        + "SUMMARY:Conference\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n");
        radicale.put(
                "dana",
                name,
                "call.ics",
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VTIMEZONE\r\n"
                        + "TZID:America/New_York\r\nBEGIN:STANDARD\r\nDTSTART:19701101T020000\r\n"
                        + "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\n"
                        + "END:STANDARD\r\nBEGIN:DAYLIGHT\r\nDTSTART:19700308T020000\r\n"
                        + "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\n"
                        + "END:DAYLIGHT\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:call\r\n"
                        + "DTSTAMP:20261124T080000Z\r\nDTSTART;TZID=America/New_York:20261125T090000\r\n"
                        + "DTEND;TZID=America/New_York:20261125T100000\r\nSUMMARY:Call with NY\r\n"
                        + "END:VEVENT\r\nEND:VCALENDAR\r\n");

        memo.calendar().sync("dana");

        Event conference = memo.data().events().find("dana", "conference").orElseThrow();
        Event call = memo.data().events().find("dana", "call").orElseThrow();
        assertThat(conference.allDay()).isTrue();
        assertThat(conference.toJson(JERUSALEM).path("start").asText()).isEqualTo("2026-11-30");
        assertThat(conference.toJson(JERUSALEM).path("end").asText()).isEqualTo("2026-12-02");
        assertThat(call.zone()).isEqualTo(ZoneId.of("America/New_York"));
        assertThat(call.start()).isEqualTo(Instant.parse("2026-11-25T14:00:00Z"));
        assertThat(ask("dana", "what do I have tomorrow?").text())
                .contains("Call with NY")
                .contains("16:00");
    }

    @Test
    void hebrewSummariesGoBothWays() {
        connect("dana", "dana-pw");
        radicale.put("dana", name, "he.ics", event("he-1", "רופא שיניים", "20261125T130000Z", "20261125T140000Z"));

        memo.calendar().sync("dana");
        ask("dana", "תקבע פגישה עם דנה מחר ב-10:00");
        Memo.Reply answer = ask("dana", "מה יש לי ביומן מחר?");

        assertThat(answer.text()).contains("רופא שיניים").contains("פגישה עם דנה");
        assertThat(radicale.objects("dana", name).values()).anyMatch(t -> t.contains("SUMMARY:פגישה עם דנה"));
    }

    @Test
    void aServerThatGoesDownDuringASyncLosesNothingAndTheNextSyncCatchesUp() throws Exception {
        try (CuttableProxy proxy = new CuttableProxy(radicale.url().getPort())) {
            memo.data().user("dana", "en", JERUSALEM, NOW);
            memo.data()
                    .caldav()
                    .connect(
                            "dana",
                            proxy.url().resolve("/dana/" + name + "/").toString(),
                            "dana",
                            CalendarAccounts.Auth.PASSWORD,
                            "dana-pw",
                            Optional.empty(),
                            JERUSALEM,
                            NOW);
            radicale.put("dana", name, "p.ics", event("p", "From the phone", "20261125T130000Z", "20261125T140000Z"));
            proxy.cutAfter(0);
            for (int i = 1; i <= 3; i++) {
                calendar(
                        "dana",
                        "{\"operation\": \"create\", \"summary\": \"Meeting " + i + "\", \"start\": \"2026-11-2"
                                + (4 + i) + "T12:00:00+02:00\"}");
            }
            // the listing, the phone's event and one of Memo's three go through; then the server is gone
            proxy.cutAfter(3);

            assertThatThrownBy(() -> memo.calendar().sync("dana"))
                    .isInstanceOfSatisfying(
                            WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_CALENDAR_UNAVAILABLE));
            assertThat(events("dana")).hasSize(4);
            assertThat(radicale.objects("dana", name)).hasSize(2);
            assertThat(memo.data().calendars().find("dana").orElseThrow().lastError())
                    .isPresent();

            proxy.heal();
            CalDavSync.Report caughtUp = memo.calendar().sync("dana");

            assertThat(caughtUp.pushed()).isEqualTo(2);
            assertThat(radicale.objects("dana", name)).hasSize(4);
            assertThat(events("dana"))
                    .extracting(Event::summary)
                    .containsExactlyInAnyOrder("From the phone", "Meeting 1", "Meeting 2", "Meeting 3");
            assertThat(memo.calendar().sync("dana").pushed()).isZero();
        }
    }

    @Test
    void aPasswordChangedOnTheServerStopsTheSyncWithAClearErrorAndChangesNothing() {
        connect("dana", "dana-pw");
        radicale.put("dana", name, "a.ics", event("a", "Dentist", "20261125T130000Z", "20261125T140000Z"));
        memo.calendar().sync("dana");
        radicale.put("dana", name, "b.ics", event("b", "Gym", "20261125T150000Z", "20261125T160000Z"));
        radicale.password("dana", "a-new-password");
        try {
            assertThatThrownBy(() -> memo.calendar().sync("dana"))
                    .isInstanceOfSatisfying(
                            WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_CALENDAR_LOGIN_FAILED))
                    .hasMessageContaining("weft memo calendar connect");
            assertThat(events("dana")).extracting(Event::id).containsExactly("a");
            assertThat(memo.data().calendars().find("dana").orElseThrow().lastError())
                    .hasValueSatisfying(e -> assertThat(e).startsWith("E_CALENDAR_LOGIN_FAILED"));
        } finally {
            radicale.password("dana", "dana-pw");
        }
    }

    @Test
    void remindersOfSyncedEventsWaitForTheirTime() {
        connect("dana", "dana-pw");
        radicale.put(
                "dana",
                name,
                "alarm.ics",
                event("alarm", "Dentist", "20261125T130000Z", "20261125T140000Z")
                        .replace(
                                "END:VEVENT",
                                "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Dentist\r\nTRIGGER:-PT15M\r\n"
                                        + "END:VALARM\r\nEND:VEVENT"));

        memo.calendar().sync("dana");

        assertThat(memo.reminders().upcoming("dana")).singleElement().satisfies(r -> {
            assertThat(r.text()).isEqualTo("Dentist");
            assertThat(r.at()).isEqualTo(Instant.parse("2026-11-25T12:45:00Z"));
        });
    }

    @Test
    void undoingARunUndoesItsChangeOnTheServer() {
        connect("dana", "dana-pw");
        Memo.Reply made = ask("dana", "schedule a meeting with Dana tomorrow at 3pm");
        assertThat(radicale.objects("dana", name)).hasSize(1);

        memo.executor().undo(runner, made.run().runId(), "dana");

        assertThat(events("dana")).isEmpty();
        assertThat(radicale.objects("dana", name)).isEmpty();
    }

    @Test
    void theBackgroundSyncBringsInAChangeMadeOnTheServer() throws Exception {
        connect("dana", "dana-pw");
        List<WeftException> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        AutoCloseable running =
                memo.calendar().start(java.time.Duration.ofMillis(100), () -> List.of("dana"), (u, e) -> errors.add(e));
        try {
            radicale.put("dana", name, "later.ics", event("later", "Dentist", "20261125T130000Z", "20261125T140000Z"));
            long deadline = System.nanoTime() + java.time.Duration.ofSeconds(10).toNanos();
            while (events("dana").isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } finally {
            running.close();
        }

        assertThat(events("dana")).extracting(Event::summary).containsExactly("Dentist");
        assertThat(errors).isEmpty();
    }
}
