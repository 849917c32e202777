package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weftWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.memo.Radicale;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft memo calendar connect|sync|show|disconnect} against Debian's Radicale, started by the test. */
final class MemoCalendarSyncCommandTest {
    @TempDir
    static Path serverDir;

    private static Radicale radicale;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        radicale = Radicale.start(serverDir, Map.of("dana", "dana-pw"));
    }

    @AfterAll
    static void stop() {
        radicale.close();
    }

    private CommandRunner.Outcome run(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--db");
        all.add("sqlite:" + dir.resolve("memo.db"));
        return weftWith(env, all.toArray(String[]::new));
    }

    private CommandRunner.Outcome connect(String secret, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "memo",
                "calendar",
                "connect",
                "--user",
                "dana",
                "--tz",
                "Asia/Jerusalem",
                "--caldav",
                radicale.url().toString(),
                "--login",
                "dana"));
        args.addAll(List.of(more));
        return run(secret == null ? Map.of() : Map.of("WEFT_CALDAV_SECRET", secret), args.toArray(String[]::new));
    }

    @Test
    void connectsSyncsShowsAndDisconnectsACalendar() {
        radicale.makeCalendar("dana", "Home");
        radicale.put(
                "dana",
                "home",
                "dentist.ics",
                "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VEVENT\r\nUID:dentist\r\n"
                        + "DTSTAMP:20261124T080000Z\r\nDTSTART:20261125T130000Z\r\nDTEND:20261125T140000Z\r\n"
                        + "SUMMARY:Dentist\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n");

        var connected = connect("dana-pw", "--calendar", "Home");
        var exported = run(Map.of(), "memo", "calendar", "export", "--user", "dana");
        var synced = run(Map.of(), "memo", "calendar", "sync", "--user", "dana", "--json");
        var shown = run(Map.of(), "memo", "calendar", "show", "--user", "dana", "--json");
        var gone = run(Map.of(), "memo", "calendar", "disconnect", "--user", "dana");
        var again = run(Map.of(), "memo", "calendar", "sync", "--user", "dana");

        assertThat(connected.exitCode()).as(connected.err()).isZero();
        assertThat(connected.out())
                .contains("Connected dana to 'Home'")
                .contains("Synced (every event compared): 1 in");
        assertThat(exported.out()).contains("SUMMARY:Dentist");
        assertThat(synced.exitCode()).as(synced.err()).isZero();
        assertThat(synced.json().path("full").asBoolean()).isFalse();
        assertThat(synced.json().path("pulled").asInt()).isZero();
        assertThat(shown.json().path("calendar").asText()).endsWith("/dana/home/");
        assertThat(shown.out()).doesNotContain("dana-pw");
        assertThat(gone.out()).contains("Disconnected dana from 'Home'; Memo keeps its 1 events.");
        assertThat(again.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(again.err()).contains("E_CALENDAR_NOT_CONFIGURED").contains("weft memo calendar connect");
    }

    @Test
    void badInputGetsAClearErrorAndConnectsNothing() {
        radicale.makeCalendar("dana", "Work");
        var wrongPassword = connect("not-it");
        var noSecret = connect(null);
        var notAUrl = run(
                Map.of("WEFT_CALDAV_SECRET", "dana-pw"),
                "memo",
                "calendar",
                "connect",
                "--user",
                "dana",
                "--caldav",
                "caldav.example.com",
                "--login",
                "dana");
        var noSuchCalendar = connect("dana-pw", "--calendar", "Nowhere", "--json");
        var shown = run(Map.of(), "memo", "calendar", "show", "--user", "dana");
        var noUser = run(Map.of(), "memo", "calendar", "export", "--user", "dana");

        assertThat(wrongPassword.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(wrongPassword.err()).contains("E_CALENDAR_LOGIN_FAILED").contains("refused the login 'dana'");
        assertThat(noSecret.err()).contains("E_BAD_INPUT").contains("WEFT_CALDAV_SECRET");
        assertThat(notAUrl.err()).contains("E_BAD_INPUT").contains("not an http(s) URL");
        assertThat(shown.err()).contains("E_CALENDAR_NOT_CONFIGURED");
        assertThat(noUser.err()).contains("no Memo user 'dana'");
        assertThat(noSuchCalendar.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(noSuchCalendar.json().path("error").path("code").asText()).isIn("E_NOT_FOUND");
    }
}
