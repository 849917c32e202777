package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.oauth.Browser;
import dev.weft.oauth.FakeAuthorizationServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code connect --google|--microsoft}: what is refused before anyone signs in, and a refused sign-in keeps nothing. */
final class OAuthConnectCommandTest {
    @TempDir
    Path dir;

    private FakeAuthorizationServer google;
    private String db;

    @BeforeEach
    void start() {
        google = FakeAuthorizationServer.start(
                "weft-cli-desktop", Optional.of("cli-secret"), "dana@gmail.example", Clock.systemUTC());
        db = "sqlite:" + dir.resolve("memo.db");
    }

    @AfterEach
    void stop() {
        google.close();
    }

    private CommandRunner.Outcome run(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db", db));
        return CommandRunner.weftWith(env, all.toArray(String[]::new));
    }

    @Test
    void connectWithoutAClientIdSaysWhichVariableToSetAndWhereTheStepsAre() {
        var calendar = run(Map.of(), "memo", "calendar", "connect", "--google", "--user", "dana");
        var mail = run(Map.of(), "memo", "mail", "connect", "--microsoft", "--user", "dana", "--json");

        assertThat(calendar.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(calendar.err()).contains("E_BAD_INPUT", "WEFT_GOOGLE_CLIENT_ID is not set", "docs/oauth.md");
        assertThat(mail.exitCode()).isEqualTo(ExitCodes.INVALID);
        assertThat(mail.out() + mail.err()).contains("E_BAD_INPUT", "WEFT_MICROSOFT_CLIENT_ID");
    }

    @Test
    void connectRefusesOptionsThatDoNotGoTogether() {
        Map<String, String> env = Map.of("WEFT_MICROSOFT_CLIENT_ID", "id", "WEFT_GOOGLE_CLIENT_ID", "id");

        assertThat(run(env, "memo", "calendar", "connect", "--device", "--user", "dana")
                        .err())
                .contains("E_BAD_INPUT", "--device signs in with --google or --microsoft");
        assertThat(run(env, "memo", "calendar", "connect", "--google", "--microsoft", "--user", "dana")
                        .err())
                .contains("E_BAD_INPUT", "choose one");
        assertThat(run(env, "memo", "calendar", "connect", "--microsoft", "--user", "dana")
                        .err())
                .contains("E_BAD_INPUT", "Microsoft 365 calendars have no CalDAV");
        assertThat(run(env, "memo", "calendar", "connect", "--google", "--login", "x", "--user", "dana")
                        .err())
                .contains("E_BAD_INPUT", "--login and --oauth2");
        assertThat(run(env, "memo", "calendar", "connect", "--user", "dana").err())
                .contains("E_BAD_INPUT", "--caldav URL --login LOGIN");
        assertThat(run(env, "memo", "mail", "connect", "--user", "dana").err())
                .contains("E_BAD_INPUT", "--google or --microsoft");
    }

    @Test
    void aSignInTheUserRefusesIsAuthFailedAndKeepsNothing() throws Exception {
        google.denyNextAuthorization();
        Map<String, String> env = new HashMap<>(Map.of(
                "WEFT_GOOGLE_ISSUER",
                google.issuer().toString(),
                "WEFT_GOOGLE_CLIENT_ID",
                "weft-cli-desktop",
                "WEFT_GOOGLE_CLIENT_SECRET",
                "cli-secret",
                "WEFT_HOME",
                CommandRunner.HOME.toString()));
        CommandLine commandLine = WeftCommand.commandLine(env);
        StringWriter out = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(new StringWriter(), true));
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(
                () -> commandLine.execute("memo", "mail", "connect", "--google", "--user", "dana", "--db", db));

        Browser.open(URI.create(printedUrl(out)));

        assertThat(exit.get(30, TimeUnit.SECONDS)).isEqualTo(ExitCodes.INVALID);
        var shown = run(Map.of(), "memo", "mail", "show", "--user", "dana");
        assertThat(shown.err()).contains("E_MAIL_NOT_CONFIGURED");
    }

    private static String printedUrl(StringWriter out) {
        Pattern url = Pattern.compile("(?m)^(http://127\\.0\\.0\\.1:\\d+/authorize\\?\\S+)$");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Matcher found = url.matcher(out.toString());
            if (found.find()) {
                return found.group(1);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        throw new AssertionError("the command printed no sign-in URL: " + out);
    }
}
