package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weftWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft mailflow}: adding a venue, processing emails with the contract's JSON, and its templates. */
final class MailflowCommandTest {
    private static final String INQUIRY = "Message-ID: <cli-1@example.com>\r\nFrom: Dana Cohen <dana@example.com>\r\n"
            + "To: events@olivegrove.example\r\nSubject: Wedding on 12 December\r\n\r\n"
            + "Hi, we are planning our wedding on Saturday, 12 December 2026 for about 120 guests. Anything free?\r\n";

    @TempDir
    Path dir;

    private String db;

    @BeforeEach
    void venue() throws Exception {
        db = "sqlite:" + dir.resolve("weft.db");
        Files.writeString(
                dir.resolve("rooms.json"),
                "[{\"name\": \"Garden\", \"capacity\": 150}, {\"name\": \"Hall\", \"capacity\": 200}]");
        Files.writeString(dir.resolve("bookings.json"), "[{\"room\": \"Hall\", \"date\": \"2026-12-12\"}]");
        Files.writeString(dir.resolve("inquiry.eml"), INQUIRY);
        var added = run(
                "mailflow",
                "venue",
                "add",
                "--id",
                "olive",
                "--name",
                "Olive Grove",
                "--address",
                "events@olivegrove.example",
                "--tz",
                "Asia/Jerusalem",
                "--language",
                "en",
                "--rooms",
                dir.resolve("rooms.json").toString(),
                "--bookings",
                dir.resolve("bookings.json").toString(),
                "--json");
        assertThat(added.exitCode()).as(added.out() + added.err()).isZero();
        assertThat(added.json().path("webhookSecret").asText()).hasSize(64);
        assertThat(added.json().path("organization").asText()).isEqualTo("olive");
    }

    private CommandRunner.Outcome run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--db");
        all.add(db);
        return weftWith(Map.of(), all.toArray(String[]::new));
    }

    @Test
    void processPrintsTheContractsJsonAndRunsAnEmailOnce() {
        var out = run(
                "mailflow",
                "process",
                dir.resolve("inquiry.eml").toString(),
                "--venue",
                "olive",
                "--now",
                "2026-03-02T10:00:00+02:00",
                "--json");
        assertThat(out.exitCode()).as(out.out() + out.err()).isZero();
        JsonNode json = out.json();
        assertThat(json.path("runId").asText()).startsWith("mf-");
        assertThat(json.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(json.path("filtered").isNull()).isTrue();
        assertThat(json.path("parsed").path("inquiry").asBoolean()).isTrue();
        assertThat(json.path("parsed").path("dates").get(0).asText()).isEqualTo("2026-12-12");
        assertThat(json.path("parsed").path("guests").asInt()).isEqualTo(120);
        assertThat(json.path("parsed").path("eventType").asText()).isEqualTo("wedding");
        assertThat(json.path("parsed").path("language").asText()).isEqualTo("en");
        JsonNode reply = json.path("reply");
        assertThat(reply.path("subject").asText()).isEqualTo("Re: Wedding on 12 December");
        assertThat(reply.path("inReplyTo").asText()).isEqualTo("<cli-1@example.com>");
        assertThat(reply.path("language").asText()).isEqualTo("en");
        assertThat(reply.path("offered")).extracting(JsonNode::asText).containsExactly("Garden");
        assertThat(reply.path("body").asText()).contains("Garden");
        assertThat(json.path("sent").asBoolean()).isFalse();

        var again = run("mailflow", "process", dir.resolve("inquiry.eml").toString(), "--venue", "olive", "--json");
        assertThat(again.json().path("runId").asText())
                .isEqualTo(json.path("runId").asText());
        assertThat(again.json().path("duplicate").asBoolean()).isTrue();

        var shown = run("runs", "show", json.path("runId").asText(), "--json");
        assertThat(shown.exitCode()).isZero();
        var rerun = run("runs", "rerun", json.path("runId").asText(), "--pin", "parse", "--json");
        assertThat(rerun.exitCode()).as(rerun.out() + rerun.err()).isZero();
    }

    @Test
    void aDryRunSendsNothingAndLeavesTheEmailToBeProcessed() {
        var dry = run(
                "mailflow",
                "process",
                dir.resolve("inquiry.eml").toString(),
                "--venue",
                "olive",
                "--now",
                "2026-03-02",
                "--dry-run",
                "--json");
        assertThat(dry.json().path("reply").path("offered"))
                .extracting(JsonNode::asText)
                .containsExactly("Garden");
        var real = run("mailflow", "process", dir.resolve("inquiry.eml").toString(), "--venue", "olive", "--json");
        assertThat(real.json().path("duplicate").asBoolean()).isFalse();
    }

    @Test
    void mistakesAreClearErrors() throws Exception {
        var unknown = run("mailflow", "process", dir.resolve("inquiry.eml").toString(), "--venue", "nope", "--json");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.json().path("error").path("code").asText()).isEqualTo("E_NOT_FOUND");
        Files.writeString(dir.resolve("bad.eml"), "not an email at all");
        var bad = run("mailflow", "process", dir.resolve("bad.eml").toString(), "--venue", "olive", "--json");
        assertThat(bad.json().path("error").path("code").asText()).isEqualTo("E_EMAIL_INVALID");
        var now = run(
                "mailflow",
                "process",
                dir.resolve("inquiry.eml").toString(),
                "--venue",
                "olive",
                "--now",
                "soon",
                "--json");
        assertThat(now.json().path("error").path("code").asText()).isEqualTo("E_BAD_INPUT");
        Files.writeString(dir.resolve("ghost.json"), "[{\"room\": \"Ghost\", \"date\": \"2026-12-12\"}]");
        var ghost = run(
                "mailflow",
                "venue",
                "add",
                "--id",
                "olive",
                "--name",
                "Olive Grove",
                "--address",
                "events@olivegrove.example",
                "--bookings",
                dir.resolve("ghost.json").toString(),
                "--json");
        assertThat(ghost.json().path("error").path("message").asText()).contains("no such room");
        var half = run(
                "mailflow",
                "venue",
                "add",
                "--id",
                "x",
                "--name",
                "X",
                "--address",
                "x@x.example",
                "--imap",
                "127.0.0.1:993",
                "--json");
        assertThat(half.json().path("error").path("message").asText()).contains("--imap, --smtp and --login");
        var address =
                run("mailflow", "venue", "add", "--id", "y", "--name", "Y", "--address", "not-an-address", "--json");
        assertThat(address.json().path("error").path("code").asText()).isEqualTo("E_BAD_INPUT");
        assertThat(run("runs", "list", "--json").json().path("runs")).isEmpty();
    }

    @Test
    void aTemplateIsExportedCheckedAndAnImportThatDoesNotCompileIsRefused() throws Exception {
        var exported = run("mailflow", "template", "export", "--venue", "olive");
        assertThat(exported.exitCode()).isZero();
        Path file = dir.resolve("template.json");
        Files.writeString(file, exported.out());
        assertThat(run("mailflow", "template", "check", file.toString()).out()).contains("ok");
        String broken = exported.out().replace("\"sourceHandle\" : \"negative\"", "\"sourceHandle\" : \"sideways\"");
        assertThat(broken).isNotEqualTo(exported.out());
        Path bad = dir.resolve("broken.json");
        Files.writeString(bad, broken, StandardCharsets.UTF_8);
        var refused = run("mailflow", "template", "import", bad.toString(), "--venue", "olive", "--json");
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.json().path("error").path("code").asText()).isEqualTo("E_GRAPH_INVALID");
        assertThat(refused.json().path("error").path("message").asText()).contains("sideways");
        var imported = run("mailflow", "template", "import", file.toString(), "--venue", "olive", "--json");
        assertThat(imported.json().path("version").asInt()).isEqualTo(2);
        assertThat(run("mailflow", "template", "show", "--venue", "olive").out())
                .contains("reply_ok --negative--> execution");
        assertThat(run("mailflow", "venue", "list", "--json")
                        .json()
                        .path("venues")
                        .get(0)
                        .path("id")
                        .asText())
                .isEqualTo("olive");
    }
}
