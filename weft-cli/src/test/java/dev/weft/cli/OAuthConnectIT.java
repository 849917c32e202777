package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.user.GreenMailUser;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import com.icegreen.greenmail.util.ServerSetupTest;
import dev.weft.memo.BearerProxy;
import dev.weft.memo.Radicale;
import dev.weft.oauth.Browser;
import dev.weft.oauth.FakeAuthorizationServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code weft memo calendar connect --google} and {@code weft memo mail connect --google} end to end, as a
 * user runs them: the command prints a URL, a browser follows it through a fake Google authorization
 * server at the wire back to the command's loopback listener (or the user approves a device code), and
 * Memo then syncs Radicale behind a proxy that admits only live bearer tokens, and logs in to GreenMail
 * with XOAUTH2. The tokens live three seconds of real time (the command runs on the system clock; the
 * clock-driven tests in weft-memo use two); a sync after the first one expired still works, and a revoked
 * grant ends in {@code E_AUTH_REVOKED} with the command to run again.
 */
final class OAuthConnectIT {
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final Pattern AUTHORIZE = Pattern.compile("(?m)^(http://127\\.0\\.0\\.1:\\d+/authorize\\?\\S+)$");
    private static final Pattern USER_CODE = Pattern.compile("enter the code (\\d{4}-\\d{4})");

    @TempDir
    static Path serverDir;

    private static Radicale radicale;
    private static int calendars;

    @TempDir
    Path dir;

    private FakeAuthorizationServer google;
    private BearerProxy caldav;
    private final List<String> issued = new CopyOnWriteArrayList<>();
    private String db;
    private String calendar;

    @BeforeAll
    static void startServer() {
        radicale = Radicale.start(serverDir, Map.of("dana", "dana-pw"));
    }

    @AfterAll
    static void stopServer() {
        radicale.close();
    }

    @BeforeEach
    void open() {
        google = FakeAuthorizationServer.start(
                "weft-cli-desktop", Optional.of("cli-secret"), "dana@gmail.example", Clock.systemUTC());
        google.accessTokenLifetime(Duration.ofSeconds(3));
        google.onAccessToken(issued::add);
        caldav = BearerProxy.start(radicale.url(), "dana", "dana-pw", google::admits);
        db = "sqlite:" + dir.resolve("memo.db");
        calendar = "signed" + (++calendars);
        radicale.makeCalendar("dana", calendar);
    }

    @AfterEach
    void close() {
        caldav.close();
        google.close();
    }

    private Map<String, String> env() {
        return Map.of(
                "WEFT_GOOGLE_ISSUER", google.issuer().toString(),
                "WEFT_GOOGLE_CLIENT_ID", "weft-cli-desktop",
                "WEFT_GOOGLE_CLIENT_SECRET", "cli-secret");
    }

    /** A command running on its own thread, what it printed so far readable while it waits. */
    private record Running(CompletableFuture<Integer> exit, StringWriter out, StringWriter err) {
        CommandRunner.Outcome outcome() throws Exception {
            int code = exit.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            return new CommandRunner.Outcome(code, out.toString(), err.toString());
        }
    }

    private Running start(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db", db));
        Map<String, String> environment = new HashMap<>(env());
        environment.put("WEFT_HOME", CommandRunner.HOME.toString());
        CommandLine commandLine = WeftCommand.commandLine(environment);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return new Running(
                CompletableFuture.supplyAsync(() -> commandLine.execute(all.toArray(String[]::new))), out, err);
    }

    private CommandRunner.Outcome run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db", db));
        return CommandRunner.weftWith(env(), all.toArray(String[]::new));
    }

    /** Waits until {@code printed} shows {@code pattern}; its first group. */
    private static String await(StringWriter printed, Pattern pattern) {
        String[] found = new String[1];
        until(
                () -> {
                    Matcher matcher = pattern.matcher(printed.toString());
                    if (matcher.find()) {
                        found[0] = matcher.group(1);
                        return true;
                    }
                    return false;
                },
                "the command to print " + pattern);
        return found[0];
    }

    private static void until(BooleanSupplier condition, String what) {
        Instant deadline = Instant.now().plus(PATIENCE);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("waited " + PATIENCE.toSeconds() + " s for " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
        }
    }

    private static String event(String uid, String summary) {
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Phone//EN\r\nBEGIN:VEVENT\r\nUID:" + uid
                + "\r\nDTSTAMP:20261128T080000Z\r\nDTSTART:20261201T070000Z\r\nDTEND:20261201T073000Z\r\nSUMMARY:"
                + summary + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    }

    @Test
    void calendarConnectSignsInWithABrowserSyncsAfterTheFirstTokenExpiredAndTellsARevokedGrant() throws Exception {
        radicale.put("dana", calendar, "standup.ics", event("standup-" + calendar, "Standup"));
        Running connecting = start(
                "memo",
                "calendar",
                "connect",
                "--google",
                "--url",
                caldav.url().toString(),
                "--calendar",
                calendar,
                "--user",
                "dana",
                "--json");

        String url = await(connecting.err(), AUTHORIZE);
        assertThat(Browser.open(URI.create(url))).isEqualTo(200);
        CommandRunner.Outcome connected = connecting.outcome();

        assertThat(connected.exitCode()).as(connected.err()).isZero();
        JsonNode json = connected.json();
        assertThat(json.path("connected").asBoolean()).isTrue();
        assertThat(json.path("provider").asText()).isEqualTo("google");
        assertThat(json.path("account").asText()).isEqualTo("dana@gmail.example");
        assertThat(Instant.parse(json.path("expiresAt").asText()))
                .isAfter(Instant.now().minusSeconds(60));
        assertThat(json.path("sync").path("pulled").asInt()).isEqualTo(1);

        String first = issued.getFirst();
        until(() -> !google.admits(first), "the first access token to expire");
        radicale.put("dana", calendar, "review.ics", event("review-" + calendar, "Design review"));
        CommandRunner.Outcome synced = run("memo", "calendar", "sync", "--user", "dana", "--json");

        assertThat(synced.exitCode()).as(synced.err()).isZero();
        assertThat(synced.json().path("pulled").asInt()).isEqualTo(1);
        assertThat(google.refreshes()).isPositive();

        google.revokeEverything();
        CommandRunner.Outcome revoked = run("memo", "calendar", "sync", "--user", "dana");

        assertThat(revoked.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(revoked.err())
                .contains("E_AUTH_REVOKED", "weft memo calendar connect --user dana --google")
                .doesNotContain("Exception", "\tat ");
        assertThat(run("memo", "calendar", "show", "--user", "dana").out())
                .contains("E_AUTH_REVOKED", "signed in to google as dana@gmail.example; revoked at");
        JsonNode shown =
                run("memo", "calendar", "show", "--user", "dana", "--json").json();
        assertThat(shown.path("signIn").path("revokedAt").isTextual()).isTrue();
        assertThat(shown.toString()).doesNotContain(first);
    }

    @Test
    void calendarConnectWithDeviceSignsInWithTheCodeTheUserApprovesElsewhere() throws Exception {
        Running connecting = start(
                "memo",
                "calendar",
                "connect",
                "--google",
                "--device",
                "--url",
                caldav.url().toString(),
                "--calendar",
                calendar,
                "--user",
                "dana");

        google.approve(await(connecting.out(), USER_CODE));
        CommandRunner.Outcome connected = connecting.outcome();

        assertThat(connected.exitCode()).as(connected.err()).isZero();
        assertThat(connected.out())
                .contains(google.issuer() + "/activate")
                .contains("Connected dana to '" + calendar + "'", "signed in to google as dana@gmail.example");
    }

    @Test
    void mailConnectSignsInAndLogsInToBothServersWithXoauth2() throws Exception {
        GreenMail mail = new GreenMail(ServerSetup.dynamicPort(ServerSetupTest.SMTP_IMAP));
        mail.getUserManager().setAuthRequired(true);
        mail.start();
        try {
            GreenMailUser dana = mail.setUser("dana@gmail.example", "dana@gmail.example", "no token yet");
            google.onAccessToken(dana::setPassword);
            Running connecting = start(
                    "memo",
                    "mail",
                    "connect",
                    "--google",
                    "--imap",
                    "127.0.0.1:" + mail.getImap().getPort(),
                    "--smtp",
                    "127.0.0.1:" + mail.getSmtp().getPort(),
                    "--security",
                    "none",
                    "--user",
                    "dana",
                    "--json");

            Browser.open(URI.create(await(connecting.err(), AUTHORIZE)));
            CommandRunner.Outcome connected = connecting.outcome();

            assertThat(connected.exitCode())
                    .as(connected.out() + connected.err())
                    .isZero();
            assertThat(connected.json().path("ok").asBoolean()).isTrue();
            assertThat(connected.json().path("account").asText()).isEqualTo("dana@gmail.example");
            String first = issued.getFirst();
            until(() -> !google.admits(first), "the first access token to expire");

            CommandRunner.Outcome checked = run("memo", "mail", "check", "--user", "dana");

            assertThat(checked.exitCode()).as(checked.out()).isZero();
            assertThat(checked.out()).contains("IMAP 127.0.0.1", "SMTP 127.0.0.1");
            assertThat(run("memo", "mail", "show", "--user", "dana", "--json")
                            .json()
                            .path("signIn")
                            .path("account")
                            .asText())
                    .isEqualTo("dana@gmail.example");
        } finally {
            mail.stop();
        }
    }
}
