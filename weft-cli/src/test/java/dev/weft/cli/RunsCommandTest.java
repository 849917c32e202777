package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weft;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class RunsCommandTest {
    private static final String EXAMPLES = "../examples/workflows/";
    private static final String SLOW = "src/test/resources/workflows/slow.json";

    @TempDir
    Path dir;

    private String db;

    @BeforeEach
    void database() {
        db = "sqlite:" + dir.resolve("runs.db");
    }

    private CommandRunner.Outcome weftDb(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--db");
        all.add(db);
        return weft(all.toArray(String[]::new));
    }

    private JsonNode show(String runId) {
        return weftDb("runs", "show", runId, "--json").json();
    }

    @Test
    void aWaitingRunIsResumedFromAnotherCommandWithItsInput() {
        var started = weftDb("workflow", "run", EXAMPLES + "approval.json", "--input", "{\"amount\": 500}", "--json");
        assertThat(started.exitCode()).isEqualTo(3);
        String runId = started.json().get("runId").asText();

        var listed = weftDb("runs", "list", "--status", "waiting", "--json");
        assertThat(listed.json().findValuesAsText("runId")).containsExactly(runId);
        assertThat(show(runId)).isEqualTo(started.json());

        var resumed = weftDb("runs", "resume", runId, "--input", "{\"by\": \"maya\"}", "--json");
        assertThat(resumed.exitCode()).isZero();
        assertThat(resumed.json().get("outputs").get("refund"))
                .isEqualTo(Json.parse("{\"refunded\": 500, \"approvedBy\": \"maya\"}", "x"));

        var again = weftDb("runs", "resume", runId, "--json");
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.json().get("error").get("code").asText()).isEqualTo("E_RUN_STATE");
        assertThat(again.json().get("error").get("message").asText()).contains("is COMPLETED");
        assertThat(show(runId).get("status").asText()).isEqualTo("COMPLETED");
    }

    /** {@code runs approve} and {@code runs reject} were missing before issue #35 (only {@code resume --approve}). */
    @Test
    void aWaitingRunIsApprovedOrRejectedByItsOwnCommand() {
        String approved = weftDb(
                        "workflow", "run", EXAMPLES + "approval.json", "--input", "{\"amount\": 500}", "--json")
                .json()
                .get("runId")
                .asText();
        String rejected = weftDb(
                        "workflow", "run", EXAMPLES + "approval.json", "--input", "{\"amount\": 700}", "--json")
                .json()
                .get("runId")
                .asText();

        var yes = weftDb("runs", "approve", approved, "--by", "maya", "--json");
        var no = weftDb("runs", "reject", rejected, "--by", "maya", "--json");
        var again = weftDb("runs", "approve", approved, "--json");

        assertThat(yes.exitCode()).as(yes.err()).isZero();
        assertThat(yes.json().get("outputs").get("refund"))
                .isEqualTo(Json.parse("{\"refunded\": 500, \"approvedBy\": \"maya\"}", "x"));
        assertThat(no.json().get("status").asText()).isNotEqualTo("WAITING");
        assertThat(no.json().get("outputs").get("approve").get("approved").asBoolean())
                .as("the approval node passes the decision on; the workflow branches on it")
                .isFalse();
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.json().get("error").get("code").asText()).isEqualTo("E_RUN_STATE");
    }

    @Test
    void runsAreListedAPageAtATimeNewestFirst() {
        List<String> ids = new ArrayList<>();
        for (int amount = 1; amount <= 3; amount++) {
            ids.add(
                    0,
                    weftDb(
                                    "workflow",
                                    "run",
                                    EXAMPLES + "approval.json",
                                    "--input",
                                    "{\"amount\": " + amount + "}",
                                    "--json")
                            .json()
                            .get("runId")
                            .asText());
        }

        var first = weftDb("runs", "list", "--limit", "2", "--json");
        var second = weftDb("runs", "list", "--limit", "2", "--offset", "2", "--json");
        var human = weftDb("runs", "list", "--limit", "2");
        var zero = weftDb("runs", "list", "--limit", "0", "--json");
        var negative = weftDb("runs", "list", "--offset", "-1", "--json");

        assertThat(first.json().findValuesAsText("runId")).containsExactly(ids.get(0), ids.get(1));
        assertThat(second.json().findValuesAsText("runId")).containsExactly(ids.get(2));
        assertThat(human.out()).contains(ids.get(1)).doesNotContain(ids.get(2)).contains("… 1 more: --offset 2");
        assertThat(zero.exitCode()).isEqualTo(2);
        assertThat(zero.json().get("error").get("code").asText()).isEqualTo("E_BAD_INPUT");
        assertThat(negative.json().get("error").get("message").asText()).startsWith("--offset -1");
    }

    @Test
    void runsAreListedByUserAndShowTheirUser() {
        var dana = weftDb(
                "workflow",
                "run",
                EXAMPLES + "approval.json",
                "--input",
                "{\"amount\": 500}",
                "--user",
                "dana",
                "--json");
        weftDb(
                "workflow",
                "run",
                EXAMPLES + "approval.json",
                "--input",
                "{\"amount\": 500}",
                "--user",
                "omer",
                "--json");
        String runId = dana.json().get("runId").asText();

        var listed = weftDb("runs", "list", "--user", "dana", "--json");
        var human = weftDb("runs", "list", "--user", "dana");
        var bad = weftDb("workflow", "run", EXAMPLES + "approval.json", "--user", " ", "--json");

        assertThat(listed.json().findValuesAsText("runId")).containsExactly(runId);
        assertThat(listed.json().get(0).get("user").asText()).isEqualTo("dana");
        assertThat(human.out()).contains("dana").doesNotContain("omer");
        assertThat(show(runId).get("user").asText()).isEqualTo("dana");
        assertThat(weftDb("runs", "show", runId).out()).contains("user dana");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.json().get("error").get("code").asText()).isEqualTo("E_GRAPH_INVALID");
        assertThat(bad.json().get("error").get("message").asText()).contains("--user");
    }

    @Test
    void showIncludesEventsWhenAsked() {
        String runId = weftDb(
                        "workflow",
                        "run",
                        EXAMPLES + "triage.json",
                        "--input",
                        "{\"priority\": 1, \"subject\": \"s\"}",
                        "--json")
                .json()
                .get("runId")
                .asText();

        JsonNode shown = weftDb("runs", "show", runId, "--json", "--events").json();

        assertThat(shown.get("events").findValuesAsText("type"))
                .contains("run.started", "step.completed", "run.completed");
    }

    @Test
    void unknownRunsAreNotFound() {
        for (String command : List.of("show", "resume", "cancel", "rerun")) {
            var outcome = weftDb("runs", command, "no-such-run");
            assertThat(outcome.exitCode()).as(command).isEqualTo(2);
            assertThat(outcome.err()).as(command).contains("E_NOT_FOUND").contains("no run 'no-such-run'");
        }
    }

    @Test
    void cancellingAWaitingRunEndsItAndCancellingItAgainSaysSo() {
        String runId = weftDb("workflow", "run", EXAMPLES + "approval.json", "--input", "{\"amount\": 500}", "--json")
                .json()
                .get("runId")
                .asText();

        var cancelled = weftDb("runs", "cancel", runId);
        assertThat(cancelled.exitCode()).isZero();
        assertThat(cancelled.out()).contains("cancelled");
        assertThat(show(runId).get("status").asText()).isEqualTo("CANCELLED");

        var again = weftDb("runs", "cancel", runId);
        assertThat(again.exitCode()).isEqualTo(2);
        assertThat(again.err()).contains("E_RUN_STATE").contains("already CANCELLED");
    }

    @Test
    void rerunPinsNodesToTheOutputsOfTheEarlierRun() {
        String runId = weftDb(
                        "workflow",
                        "run",
                        EXAMPLES + "triage.json",
                        "--input",
                        "{\"priority\": 1, \"subject\": \"s\"}",
                        "--json")
                .json()
                .get("runId")
                .asText();

        var rerun = weftDb("runs", "rerun", runId, "--pin", "check", "--json");

        assertThat(rerun.exitCode()).isZero();
        JsonNode steps = rerun.json().get("steps");
        assertThat(rerun.json().get("runId").asText()).isNotEqualTo(runId);
        assertThat(steps.get(1).get("pinned").asBoolean()).isTrue();
        assertThat(steps.get(2).get("nodeId").asText()).isEqualTo("lo");
        var badPin = weftDb("runs", "rerun", runId, "--pin", "nope");
        assertThat(badPin.exitCode()).isEqualTo(2);
        assertThat(badPin.err()).contains("E_BAD_INPUT").contains("no node 'nope'");
    }

    @Test
    void forkStartsANewRunFromACheckpoint() {
        String runId = weftDb("workflow", "run", EXAMPLES + "guardrail-loop.json", "--json")
                .json()
                .get("runId")
                .asText();

        var fork = weftDb("runs", "fork", runId, "--from", "3", "--json");

        assertThat(fork.exitCode()).isZero();
        assertThat(fork.json().get("status").asText()).isEqualTo("COMPLETED");
        assertThat(fork.json().get("outputs").get("sent").get("attempts").asInt())
                .isEqualTo(3);
        assertThat(weftDb("runs", "fork", runId, "--from", "999").err()).contains("has no checkpoint after step 999");
    }

    @Test
    void pruneDeletesFinishedRunsOlderThanTheGivenAge() {
        weftDb("workflow", "run", EXAMPLES + "triage.json", "--input", "{\"priority\": 1, \"subject\": \"s\"}");

        assertThat(weftDb("runs", "prune", "--older-than", "1d").out()).contains("pruned 0 runs");
        assertThat(weftDb("runs", "prune", "--older-than", "0s").out()).contains("pruned 1 run ");
        var bad = weftDb("runs", "prune", "--older-than", "soon");
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("E_BAD_INPUT").contains("not a duration");
    }

    @Test
    void aRunIsCancelledFromAnotherProcessBeforeItsNextNode() throws Exception {
        var detached = weftDb("workflow", "run", SLOW, "--detach", "--json");
        assertThat(detached.exitCode()).as(detached.err()).isZero();
        String runId = detached.json().get("runId").asText();
        waitFor(runId, "one", "COMPLETED");

        assertThat(weftDb("runs", "cancel", runId).exitCode()).isZero();

        JsonNode shown = waitForStatus(runId, "CANCELLED");
        List<String> statuses = shown.get("steps").findValuesAsText("status");
        assertThat(statuses).doesNotContain("RUNNING", "PENDING").contains("SKIPPED");
        assertThat(shown.get("steps")).hasSizeLessThan(6);
    }

    @Test
    void aDetachedRunThatWaitsIsResumedHere() throws Exception {
        var detached =
                weftDb("workflow", "run", EXAMPLES + "approval.json", "--input", "{\"amount\": 900}", "--detach");
        assertThat(detached.exitCode()).as(detached.err()).isZero();
        String runId = detached.out().trim();
        waitForStatus(runId, "WAITING");

        var resumed = weftDb("runs", "resume", runId, "--input", "{\"by\": \"dana\"}", "--json");

        assertThat(resumed.exitCode()).isZero();
        assertThat(resumed.json().get("outputs").get("refund").get("approvedBy").asText())
                .isEqualTo("dana");
    }

    @Test
    void anUnreachableOrCorruptDatabaseIsAClearError() throws IOException {
        Path corrupt = dir.resolve("corrupt.db");
        Files.writeString(corrupt, "this is not a database, just some text that is long enough to matter ".repeat(50));
        for (String url : List.of("sqlite:" + corrupt, "jdbc:postgresql://127.0.0.1:1/weft?connectTimeout=2")) {
            var outcome = weft("runs", "list", "--db", url);
            assertThat(outcome.exitCode()).as(url).isEqualTo(2);
            assertThat(outcome.err())
                    .as(url)
                    .startsWith("weft: E_STORE_UNAVAILABLE")
                    .doesNotContain("\tat ");
        }
        var unknown = weft("runs", "list", "--db", "mysql://x");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("E_BAD_INPUT");
    }

    private void waitFor(String runId, String nodeId, String status) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            var shown = weftDb("runs", "show", runId, "--json");
            if (shown.exitCode() != 2) {
                for (JsonNode step : shown.json().get("steps")) {
                    if (step.get("nodeId").asText().equals(nodeId)
                            && step.get("status").asText().equals(status)) {
                        return;
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("step " + nodeId + " of run " + runId + " never became " + status);
    }

    private JsonNode waitForStatus(String runId, String status) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline) {
            var shown = weftDb("runs", "show", runId, "--json");
            if (shown.exitCode() != 2 && shown.json().get("status").asText().equals(status)) {
                return shown.json();
            }
            Thread.sleep(50);
        }
        throw new AssertionError("run " + runId + " never became " + status + ": " + show(runId));
    }
}
