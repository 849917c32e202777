package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weft;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft memo} and {@code weft chat}: Memo from the command line, as the README shows it. */
final class MemoCommandTest {
    private static final String NOW = "2026-11-24T10:00:00+02:00";

    @TempDir
    Path dir;

    private String db;

    @BeforeEach
    void database() {
        db = "sqlite:" + dir.resolve("memo.db");
    }

    private CommandRunner.Outcome weftDb(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--db");
        all.add(db);
        return weft(all.toArray(String[]::new));
    }

    private CommandRunner.Outcome ask(String... words) {
        List<String> args =
                new ArrayList<>(List.of("memo", "ask", "--user", "dana", "--tz", "Asia/Jerusalem", "--now", NOW));
        args.addAll(List.of(words));
        return weftDb(args.toArray(String[]::new));
    }

    @Test
    void askPrintsOneJsonObjectWithThePlanTheResolutionsTheResultsAndTheReply() {
        var asked = ask("--json", "remind me tomorrow at 9 to call Dana");

        JsonNode json = asked.json();
        assertThat(asked.exitCode()).isZero();
        assertThat(json.get("language").asText()).isEqualTo("en");
        assertThat(json.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(json.get("plan").get("plan").get(0).get("action").asText()).isEqualTo("create_task");
        assertThat(json.get("resolutions").get(0).get("functionName").asText()).isEqualTo("taskOperations");
        assertThat(json.get("resolutions").get(0).get("args").get("dueDate").asText())
                .isEqualTo("2026-11-25T09:00:00+02:00");
        assertThat(json.get("results").get(0).get("success").asBoolean()).isTrue();
        assertThat(json.get("reply").asText()).contains("call Dana");
    }

    @Test
    void aBulkDeleteWaitsWithExitThreeAndIsApprovedFromAnotherCommand() {
        ask("remind me tomorrow at 9 to call Dana");
        var waiting = ask("--json", "delete all my reminders");
        String runId = waiting.json().get("runId").asText();

        var approved = weftDb("memo", "approve", runId, "--json");

        assertThat(waiting.exitCode()).isEqualTo(3);
        assertThat(approved.exitCode()).isZero();
        assertThat(approved.json().get("reply").asText()).isEqualTo("Deleted 1 task.");
        assertThat(weftDb("memo", "approve", runId).exitCode()).isEqualTo(2);
    }

    @Test
    void aBatchAnswersEachLineInOrderAndABadLineGetsAnError() throws Exception {
        Path batch = dir.resolve("batch.jsonl");
        Files.writeString(
                batch,
                String.join(
                        "\n",
                        "{\"message\": \"remind me in 10 minutes to check the oven\", \"now\": \"" + NOW
                                + "\", \"tz\": \"Asia/Jerusalem\", \"user\": \"u1\", \"mode\": \"preview\"}",
                        "not json",
                        "{\"message\": \"\", \"user\": \"u1\"}",
                        "{\"message\": \"מה המשימות שלי להיום?\", \"now\": \"" + NOW
                                + "\", \"user\": \"u1\", \"mode\": \"preview\"}",
                        "{\"message\": \"hi\", \"tz\": \"Nowhere/Land\"}"),
                StandardCharsets.UTF_8);

        var out = weftDb("memo", "ask", "--batch", batch.toString(), "--json");

        List<JsonNode> lines = out.out().lines().map(l -> Json.parse(l, "line")).toList();
        assertThat(out.exitCode()).isZero();
        assertThat(lines).hasSize(5);
        assertThat(lines.get(0)
                        .get("resolutions")
                        .get(0)
                        .get("args")
                        .get("dueDate")
                        .asText())
                .isEqualTo("2026-11-24T10:10:00+02:00");
        assertThat(lines.get(1).get("error").get("code").asText()).isEqualTo("E_BAD_INPUT");
        assertThat(lines.get(2).get("error").get("code").asText()).isEqualTo("E_BAD_INPUT");
        assertThat(lines.get(3).get("language").asText()).isEqualTo("he");
        assertThat(lines.get(3).get("plan").get("plan").get(0).get("action").asText())
                .isEqualTo("find_task");
        assertThat(lines.get(4).get("error").get("message").asText()).contains("Nowhere/Land");
    }

    @Test
    void badInputIsAClearErrorWithExitTwoAndChangesNothing() {
        assertThat(ask("").exitCode()).isEqualTo(2);
        assertThat(weftDb("memo", "ask", "--now", "yesterday", "hi").err())
                .contains("E_BAD_INPUT")
                .contains("--now");
        assertThat(weftDb("memo", "ask", "--mode", "fast", "hi").err()).contains("--mode fast");
        assertThat(weftDb("memo", "ask", "--tz", "Mars/Olympus", "--json", "hi")
                        .json()
                        .get("error")
                        .get("code")
                        .asText())
                .isEqualTo("E_BAD_INPUT");
        assertThat(weftDb("runs", "list", "--json").json()).isEmpty();
    }

    @Test
    void chatTalksInBothLanguagesAndAsksForApprovalInline() {
        String lines = String.join(
                "\n",
                "remind me tomorrow at 9 to call the bank",
                "תזכיר לי כל יום ב-8 לקחת כדורים",
                "delete all my reminders",
                "כן",
                "what are my tasks?",
                "");
        InputStream stdin = System.in;
        CommandRunner.Outcome out;
        try {
            System.setIn(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)));
            out = weftDb("chat", "--user", "dana", "--tz", "Asia/Jerusalem");
        } finally {
            System.setIn(stdin);
        }

        assertThat(out.exitCode()).isZero();
        assertThat(out.out())
                .contains("memo> I'll remind you: \"call the bank\"")
                .contains("memo> אזכיר לך: \"לקחת כדורים\" — כל יום ב-08:00.")
                .contains("Shall I go ahead? (yes/no)")
                .contains("memo> Deleted 2 tasks.")
                .contains("memo> You have no open tasks.")
                .contains("→ A taskOperations create");
    }

    @Test
    void chatReopenedShowsWhereTheConversationLeftOff() {
        chat("remind me tomorrow at 9 to call the bank\n");

        CommandRunner.Outcome again = chat("");

        assertThat(again.exitCode()).isZero();
        assertThat(again.out())
                .contains("(earlier) you> remind me tomorrow at 9 to call the bank")
                .contains("(earlier) memo> I'll remind you: \"call the bank\"");
    }

    private CommandRunner.Outcome chat(String lines) {
        InputStream stdin = System.in;
        try {
            System.setIn(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)));
            return weftDb("chat", "--user", "dana", "--tz", "Asia/Jerusalem");
        } finally {
            System.setIn(stdin);
        }
    }

    /** The lines of an iCalendar text's VEVENTs that say what its events are, sorted. */
    private static List<String> events(String ics) {
        List<String> lines = new ArrayList<>();
        boolean inEvent = false;
        for (String line : ics.lines().toList()) {
            inEvent = line.equals("BEGIN:VEVENT") || inEvent && !line.equals("END:VEVENT");
            if (inEvent && line.matches("(UID|SUMMARY|DTSTART|DTEND|RRULE)[:;].*")) {
                lines.add(line);
            }
        }
        return lines.stream().sorted().toList();
    }

    @Test
    void aCalendarExportedAndImportedIntoAnotherUserIsTheSameEvents() {
        ask("schedule a meeting with Dana tomorrow at 3pm");
        ask("set up a team meeting every Tuesday at 10");
        Path file = dir.resolve("dana.ics");

        var exported = weftDb("memo", "calendar", "export", "--user", "dana", file.toString());
        var imported =
                weftDb("memo", "calendar", "import", "--user", "omer", "--tz", "Asia/Jerusalem", file.toString());
        var again = weftDb("memo", "calendar", "import", "--user", "omer", file.toString());
        var danas = weftDb("memo", "calendar", "export", "--user", "dana");
        var omers = weftDb("memo", "calendar", "export", "--user", "omer");
        var listed = weftDb("memo", "ask", "--user", "omer", "--now", NOW, "what's on my calendar next Tuesday?");

        assertThat(exported.exitCode()).isZero();
        assertThat(exported.out().strip()).isEqualTo("Exported 2 events to " + file + ".");
        assertThat(imported.exitCode()).isZero();
        assertThat(imported.out().strip()).isEqualTo("Imported 2 events.");
        assertThat(again.out().strip()).isEqualTo("Imported 0 events.");
        assertThat(danas.out())
                .startsWith("BEGIN:VCALENDAR")
                .contains("SUMMARY:meeting with Dana")
                .contains("RRULE:FREQ=WEEKLY;BYDAY=TU");
        assertThat(events(omers.out())).hasSize(9).isEqualTo(events(danas.out()));
        assertThat(listed.out()).contains("1. team meeting (Tue 1 Dec, 10:00–11:00)");
    }

    @Test
    void importingAMissingOrANonCalendarFileIsAClearErrorWithExitTwo() throws Exception {
        Path notes = dir.resolve("notes.ics");
        Files.writeString(notes, "milk, eggs, bread", StandardCharsets.UTF_8);
        Path broken = dir.resolve("broken.ics");
        Files.writeString(broken, "BEGIN:VCALENDAR\nthis is not a calendar\n", StandardCharsets.UTF_8);

        var missing = weftDb(
                "memo",
                "calendar",
                "import",
                "--user",
                "omer",
                dir.resolve("none.ics").toString());
        var text = weftDb("memo", "calendar", "import", "--user", "omer", notes.toString());
        var bad = weftDb("memo", "calendar", "import", "--user", "omer", broken.toString());
        var nobody = weftDb("memo", "calendar", "export", "--user", "nobody");

        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).contains("E_BAD_INPUT").contains("no file").contains("none.ics");
        assertThat(text.exitCode()).isEqualTo(2);
        assertThat(text.err()).contains("E_BAD_INPUT").contains("not an iCalendar file");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("E_BAD_INPUT").contains("not an iCalendar");
        assertThat(nobody.exitCode()).isEqualTo(2);
        assertThat(nobody.err()).contains("no Memo user 'nobody'");
    }

    @Test
    void withAModelChatPrintsTheModelsWordsAsItStreamsThemAndTheReplyOnce() {
        try (dev.weft.llm.test.FakeModelServer server = dev.weft.llm.test.FakeModelServer.start()) {
            server.enqueue(
                    dev.weft.llm.test.FakeModelServer.Reply.text("{\"intentType\": \"conversation\", \"confidence\":"
                            + " 0.9, \"plan\": [{\"id\": \"A\", \"capability\": \"general\", \"action\":"
                            + " \"respond\", \"constraints\": {\"message\": \"how are you?\"}, \"changes\": {},"
                            + " \"dependsOn\": []}]}"),
                    dev.weft.llm.test.FakeModelServer.Reply.text(
                                    "I'm well, thank you for asking! How can I help today?")
                            .withChunkSize(6));
            java.util.Map<String, String> env = java.util.Map.of(
                    "WEFT_MODEL", "openai:gpt-4o-mini",
                    "WEFT_MODEL_BASE_URL", server.openAiBaseUrl(),
                    "OPENAI_API_KEY", "sk-test");
            InputStream stdin = System.in;
            CommandRunner.Outcome out;
            try {
                System.setIn(new ByteArrayInputStream("how are you?\n".getBytes(StandardCharsets.UTF_8)));
                out = CommandRunner.weftWith(env, "chat", "--user", "dana", "--db", db);
            } finally {
                System.setIn(stdin);
            }

            assertThat(out.exitCode()).as(out.err()).isZero();
            assertThat(server.lastRequest().streamed())
                    .as("the answer is asked for as a stream")
                    .isTrue();
            assertThat(out.out()).containsOnlyOnce("I'm well, thank you for asking! How can I help today?");
            assertThat(out.out()).contains("memo> I'm well, thank you for asking! How can I help today?");
        }
    }

    @Test
    void withAModelConfiguredAskPlansWithItAndSaysSo() {
        try (dev.weft.llm.test.FakeModelServer server = dev.weft.llm.test.FakeModelServer.start()) {
            server.enqueue(
                    dev.weft.llm.test.FakeModelServer.Reply.text("{\"intentType\": \"operation\","
                            + " \"confidence\": 0.9, \"plan\": [{\"id\": \"A\", \"capability\": \"database\","
                            + " \"action\": \"create_task\", \"constraints\": {\"text\": \"water the plants\","
                            + " \"isReminder\": true}, \"changes\": {}, \"dependsOn\": []}]}"),
                    dev.weft.llm.test.FakeModelServer.Reply.text(
                            "{\"operation\": \"create\", \"text\": \"water the plants\"}"));
            java.util.Map<String, String> env = java.util.Map.of(
                    "WEFT_MODEL", "openai:gpt-4o-mini",
                    "WEFT_MODEL_BASE_URL", server.openAiBaseUrl(),
                    "OPENAI_API_KEY", "sk-test");

            var asked = CommandRunner.weftWith(
                    env,
                    "memo",
                    "ask",
                    "--user",
                    "dana",
                    "--tz",
                    "Asia/Jerusalem",
                    "--now",
                    NOW,
                    "--json",
                    "--db",
                    db,
                    "remind me to water the plants");

            assertThat(asked.exitCode()).as(asked.err()).isZero();
            assertThat(server.requests())
                    .as("the planner's call and the resolver's")
                    .hasSize(2);
            JsonNode json = Json.parse(asked.out(), "out");
            assertThat(json.at("/plan/plan/0/constraints/text").asText()).isEqualTo("water the plants");
            assertThat(json.get("status").asText()).isEqualTo("COMPLETED");
        }
    }

    @Test
    void remindersListsWhatFiresNext() {
        ask("remind me tomorrow at 9 to call Dana");
        ask("remind me every Sunday at 18:00 to put the trash out");

        var listed = weftDb("memo", "reminders", "--user", "dana");
        var json = weftDb("memo", "reminders", "--user", "dana", "--json");
        var nobody = weftDb("memo", "reminders", "--user", "nobody");

        assertThat(listed.exitCode()).as(listed.err()).isZero();
        assertThat(listed.out())
                .contains("Next:")
                .contains("Wed 25 Nov 09:00  call Dana")
                .contains("Sun 29 Nov 18:00  put the trash out");
        JsonNode node = Json.parse(json.out(), "out");
        assertThat(node.get("upcoming")).hasSize(2);
        assertThat(node.at("/upcoming/0/at").asText()).isEqualTo("2026-11-25T09:00+02:00");
        assertThat(nobody.out()).contains("No reminders waiting.");
    }

    @Test
    void undoUndoesTheUsersLatestChange_orTheRunNamed_andOnlyTheirOwn() {
        String first = ask("--json", "remind me tomorrow at 9 to call Dana")
                .json()
                .path("runId")
                .asText();
        ask("--json", "add milk to the shopping list");

        var latest = weftDb("memo", "undo", "--user", "dana", "--json");
        var others = weftDb("memo", "undo", first, "--user", "omer", "--json");
        var named = weftDb("memo", "undo", first, "--user", "dana");

        assertThat(latest.exitCode()).isZero();
        assertThat(latest.json().path("reply").asText()).isEqualTo("Undone: \"add milk to the shopping list\".");
        assertThat(others.exitCode()).isEqualTo(2);
        assertThat(others.json().path("error").path("code").asText()).isEqualTo("E_NOT_FOUND");
        assertThat(named.exitCode()).isZero();
        assertThat(named.out()).contains("Undone: \"remind me tomorrow at 9 to call Dana\".");
    }
}
