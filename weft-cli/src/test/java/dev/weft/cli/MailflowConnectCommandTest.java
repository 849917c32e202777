package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
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

/**
 * {@code weft mailflow venue connect VENUE --microsoft}: what is refused before anyone signs in, and a
 * sign-in through a fake Microsoft authorization server at the wire that is kept for the venue.
 */
final class MailflowConnectCommandTest {
    @TempDir
    Path dir;

    private FakeAuthorizationServer microsoft;
    private String db;
    private Map<String, String> env;

    @BeforeEach
    void start() {
        microsoft = FakeAuthorizationServer.start(
                "weft-venues", Optional.empty(), "events@olivegrove.example", Clock.systemUTC());
        db = "sqlite:" + dir.resolve("mailflow.db");
        env = Map.of(
                "WEFT_MICROSOFT_ISSUER", microsoft.issuer().toString(),
                "WEFT_MICROSOFT_CLIENT_ID", "weft-venues",
                "WEFT_GRAPH_TOKEN", "pasted-token");
        addVenue("olive", "--graph", "https://graph.microsoft.com/v1.0/");
        addVenue("harbor");
    }

    @AfterEach
    void stop() {
        microsoft.close();
    }

    private void addVenue(String id, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "mailflow", "venue", "add", "--id", id, "--name", id, "--address", "events@olivegrove.example"));
        args.addAll(List.of(more));
        assertThat(run(env, args.toArray(String[]::new)).exitCode()).isEqualTo(ExitCodes.OK);
    }

    private CommandRunner.Outcome run(Map<String, String> environment, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--db", db));
        return CommandRunner.weftWith(environment, all.toArray(String[]::new));
    }

    private String code(CommandRunner.Outcome outcome) {
        return outcome.json().path("error").path("code").asText();
    }

    @Test
    void connectIsRefusedWithACodeBeforeAnyoneSignsIn() {
        assertThat(code(run(env, "mailflow", "venue", "connect", "olive", "--json")))
                .isEqualTo("E_BAD_INPUT");
        assertThat(code(run(env, "mailflow", "venue", "connect", "nowhere", "--microsoft", "--json")))
                .isEqualTo("E_NOT_FOUND");
        var noGraph = run(env, "mailflow", "venue", "connect", "harbor", "--microsoft", "--json");
        assertThat(code(noGraph)).isEqualTo("E_MAIL_NOT_CONFIGURED");
        assertThat(noGraph.out()).contains("--graph");
        var noClient = run(Map.of(), "mailflow", "venue", "connect", "olive", "--microsoft", "--device", "--json");
        assertThat(code(noClient)).isEqualTo("E_BAD_INPUT");
        assertThat(noClient.out()).contains("WEFT_MICROSOFT_CLIENT_ID");
        assertThat(microsoft.polls()).isZero();
    }

    @Test
    void aBrowserSignInIsKeptForTheVenueAndPrintedAsOneJsonObjectWithoutATokenInIt() throws Exception {
        Map<String, String> all = new HashMap<>(env);
        all.put("WEFT_HOME", CommandRunner.HOME.toString());
        CommandLine commandLine = WeftCommand.commandLine(all);
        StringWriter out = new StringWriter();
        StringWriter prompt = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(prompt, true));
        List<String> issued = new ArrayList<>();
        microsoft.onAccessToken(issued::add);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() ->
                commandLine.execute("mailflow", "venue", "connect", "olive", "--microsoft", "--json", "--db", db));

        Browser.open(URI.create(printedUrl(prompt)));

        assertThat(exit.get(30, TimeUnit.SECONDS)).as(out + " " + prompt).isEqualTo(ExitCodes.OK);
        JsonNode connected = Json.parse(out.toString(), "connect's output");
        assertThat(connected.path("venue").asText()).isEqualTo("olive");
        assertThat(connected.path("connected").asBoolean()).isTrue();
        assertThat(connected.path("provider").asText()).isEqualTo("microsoft");
        assertThat(connected.path("scope").asText())
                .contains("offline_access", "https://graph.microsoft.com/Mail.Send");
        assertThat(issued).hasSize(1);
        assertThat(out.toString()).doesNotContain(issued.get(0));
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
