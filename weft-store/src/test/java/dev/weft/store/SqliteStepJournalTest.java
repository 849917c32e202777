package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.LeaseLostException;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunError;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.core.spi.RunStore.Change;
import dev.weft.core.spi.RunStore.Lease;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's steps as one log (migration V8): step changes written to the journal and folded on read
 * give the steps the table's statements gave, and a run written before V8 reads the same after it.
 */
final class SqliteStepJournalTest {
    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
    /** Small, so that a step's big output goes to the payloads table in either way. */
    private static final long PAYLOAD_LIMIT = 256;

    @TempDir
    Path directory;

    @Test
    void stepsFoldedFromTheJournalEqualWhatTheTableWouldHoldAfterEveryWrite() {
        try (SqliteRunStore table = open("table.db", false);
                SqliteRunStore journal = open("journal.db", true)) {
            List<Function<RunStore, Object>> writes = writesOfARun("r-1");
            for (int i = 0; i < writes.size(); i++) {
                Object inTable = outcome(writes.get(i), table);
                Object inJournal = outcome(writes.get(i), journal);

                assertThat(inJournal).as("the answer to write %d", i).isEqualTo(inTable);
                assertThat(journal.steps("r-1"))
                        .as("the steps after write %d", i)
                        .isEqualTo(table.steps("r-1"));
            }
            assertThat(journal.steps("r-1")).hasSize(4);
            assertThat(journal.steps("r-1").get(2).output()).isEqualTo(big());
        }
    }

    @Test
    void aStepsWriteGoesToTheJournalAndNoneToTheStepsTable() throws SQLException {
        try (SqliteRunStore journal = open("journal.db", true)) {
            for (Function<RunStore, Object> write : writesOfARun("r-1")) {
                outcome(write, journal);
            }
        }
        assertThat(count("journal.db", "SELECT count(*) FROM steps")).isZero();
        assertThat(count("journal.db", "SELECT count(*) FROM journal WHERE steps IS NOT NULL"))
                .isGreaterThan(5);
    }

    @Test
    void aStepWrittenWhileAnotherHoldsTheRunIsRefusedAndLeavesNoRow() throws SQLException {
        try (SqliteRunStore store = open("journal.db", true)) {
            Run run = run("r-1");
            store.createRun(run, new Lease("runner", T0.plusSeconds(30)), List.of());
            assertThat(store.claim("r-1", new Lease("runner", T0.plusSeconds(30)), T0))
                    .isTrue();
            long rows = count("journal.db", "SELECT count(*) FROM journal");

            assertThatThrownBy(() -> store.apply("r-1", "intruder", List.of(new Change.InsertStep(step("r-1", 1)))))
                    .isInstanceOf(LeaseLostException.class);
            assertThatThrownBy(() ->
                            store.apply("r-missing", "runner", List.of(new Change.InsertStep(step("r-missing", 1)))))
                    .isInstanceOf(NotFoundException.class);
            assertThat(count("journal.db", "SELECT count(*) FROM journal")).isEqualTo(rows);
            assertThat(store.steps("r-1")).isEmpty();

            assertThat(store.requestCancel("r-1")).isTrue();
            assertThat(store.apply("r-1", "runner", List.of(new Change.InsertStep(step("r-1", 1)))))
                    .as("the cancellation, answered by the step's own statement")
                    .isTrue();
            assertThat(store.steps("r-1")).containsExactly(step("r-1", 1));
        }
    }

    @Test
    void aRunWrittenBeforeMigrationV8ReadsTheSameAfterItAndGoesOnInTheJournal() throws SQLException {
        // The run as the store wrote it before V8: its steps in the table (the table's way, in a
        // database of its own), copied into a database whose schema stops at V7.3.
        List<Step> before;
        try (SqliteRunStore table = open("table.db", false)) {
            List<Function<RunStore, Object>> writes = writesOfARun("r-1");
            for (Function<RunStore, Object> write : writes.subList(0, 4)) {
                outcome(write, table);
            }
            before = table.steps("r-1");
        }
        Flyway.configure()
                .dataSource(jdbcUrl("old.db"), null, null)
                .locations("classpath:db/weft/sqlite")
                .table(Migrations.HISTORY_TABLE)
                .target("7.3")
                .load()
                .migrate();
        try (Connection old = DriverManager.getConnection(jdbcUrl("old.db"));
                Statement copy = old.createStatement()) {
            copy.execute("ATTACH DATABASE '" + directory.resolve("table.db") + "' AS written");
            copy.execute("INSERT INTO runs SELECT * FROM written.runs");
            copy.execute("INSERT INTO steps SELECT * FROM written.steps");
            copy.execute("INSERT INTO payloads SELECT * FROM written.payloads");
            copy.execute("INSERT INTO journal (run_id, seq, events, checkpoints)"
                    + " SELECT run_id, seq, events, checkpoints FROM written.journal");
        }
        assertThat(count("old.db", "SELECT count(*) FROM steps")).isEqualTo(before.size());

        try (SqliteRunStore migrated = open("old.db", true)) {
            assertThat(migrated.steps("r-1")).isEqualTo(before);

            // The rest of the run, written the new way over the old rows, reads as the table's way.
            List<Object> answers = new ArrayList<>();
            List<Function<RunStore, Object>> writes = writesOfARun("r-1");
            for (Function<RunStore, Object> write : writes.subList(4, writes.size())) {
                answers.add(outcome(write, migrated));
            }
            try (SqliteRunStore table = open("table.db", false)) {
                List<Object> expected = new ArrayList<>();
                for (Function<RunStore, Object> write : writes.subList(4, writes.size())) {
                    expected.add(outcome(write, table));
                }
                assertThat(answers).isEqualTo(expected);
                assertThat(migrated.steps("r-1")).isEqualTo(table.steps("r-1"));
            }
        }
        assertThat(count("old.db", "SELECT count(*) FROM steps")).isEqualTo(before.size());
    }

    @Test
    void aStepChangeLeavesOutTheFieldsThatHoldAStepsDefaults() throws SQLException {
        try (SqliteRunStore store = open("journal.db", true)) {
            Step first = step("r-1", 1);
            store.createRun(run("r-1"), new Lease("runner", T0.plusSeconds(30)), List.of(new Change.InsertStep(first)));
            Step done = first.running(1, json("{\"in\": 1}"), T0.plusSeconds(1))
                    .finished(
                            StepStatus.COMPLETED, json("{\"out\": 1}"), Optional.empty(), T0.plusSeconds(2), Map.of());
            store.apply("r-1", "runner", List.of(new Change.UpdateStep(done, Set.of(StepStatus.PENDING))));

            List<JsonNode> changes = changes("journal.db", "r-1");
            assertThat(changes).hasSize(2);
            assertThat(fieldNames(changes.get(0)))
                    .as("a new step: its identity and status, nothing else")
                    .containsExactly("k", "order", "node", "name", "type", "status");
            assertThat(fieldNames(changes.get(1)))
                    .as("a finished step: no pin, error or details")
                    .containsExactly(
                            "k",
                            "order",
                            "node",
                            "name",
                            "type",
                            "status",
                            "attempt",
                            "input",
                            "output",
                            "started",
                            "ended",
                            "expected");
            assertThat(store.steps("r-1")).containsExactly(done);
        }
    }

    @Test
    void stepChangesAnEarlierBuildWroteWithEveryFieldFoldAsTheyDidAndTheRunGoesOn() throws SQLException {
        try (SqliteRunStore store = open("journal.db", true)) {
            store.createRun(run("r-1"), new Lease("runner", T0.plusSeconds(30)), List.of());
            try (Connection connection = DriverManager.getConnection(jdbcUrl("journal.db"));
                    java.sql.PreparedStatement insert = connection.prepareStatement("INSERT INTO journal (run_id,"
                            + " seq, steps) VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM journal WHERE run_id"
                            + " = ?), ?)")) {
                for (String steps : stepsAsAnEarlierBuildWroteThem()) {
                    insert.setString(1, "r-1");
                    insert.setString(2, "r-1");
                    insert.setString(3, steps);
                    insert.executeUpdate();
                }
            }

            assertThat(store.steps("r-1")).isEqualTo(stepsAnEarlierBuildWrote("r-1"));
            assertThatTheRunGoesOnOverThem(store, "r-1");
        }
    }

    /**
     * The journal's step changes as the build before this form wrote them, every field of the step
     * in each, for {@link #stepsAnEarlierBuildWrote}: a new step, a finished one and the next, a
     * failed one with details, a pinned one.
     */
    static List<String> stepsAsAnEarlierBuildWroteThem() {
        long t1 = JsonText.nanos(T0.plusSeconds(1));
        long t2 = JsonText.nanos(T0.plusSeconds(2));
        String pending2 = "{\"k\":\"i\",\"order\":2,\"node\":\"node-2\",\"name\":\"name-2\",\"type\":\"transform\","
                + "\"status\":\"PENDING\",\"attempt\":0,\"pinned\":false,\"input\":\"null\",\"output\":\"null\","
                + "\"details\":\"{}\"}";
        return List.of(
                "[{\"k\":\"i\",\"order\":1,\"node\":\"node-1\",\"name\":\"name-1\",\"type\":\"transform\","
                        + "\"status\":\"PENDING\",\"attempt\":0,\"pinned\":false,\"input\":\"null\","
                        + "\"output\":\"null\",\"details\":\"{}\"}]",
                "[{\"k\":\"u\",\"order\":1,\"node\":\"node-1\",\"name\":\"name-1\",\"type\":\"transform\","
                        + "\"status\":\"COMPLETED\",\"attempt\":1,\"pinned\":false,\"input\":\"{\\\"in\\\":1}\","
                        + "\"output\":\"{\\\"out\\\":1}\",\"started\":" + t1 + ",\"ended\":" + t2
                        + ",\"details\":\"{}\",\"expected\":\",RUNNING,PENDING,WAITING,\"}," + pending2 + "]",
                "[{\"k\":\"u\",\"order\":2,\"node\":\"node-2\",\"name\":\"name-2\",\"type\":\"transform\","
                        + "\"status\":\"FAILED\",\"attempt\":1,\"pinned\":false,\"input\":\"{\\\"in\\\":2}\","
                        + "\"output\":\"null\",\"errorCode\":\"E_NODE_FAILED\",\"errorMessage\":\"it broke\","
                        + "\"started\":" + t1 + ",\"ended\":" + t2 + ",\"details\":\"{\\\"why\\\":\\\"a test\\\"}\","
                        + "\"expected\":\",PENDING,\"}]",
                "[{\"k\":\"i\",\"order\":3,\"node\":\"node-3\",\"name\":\"name-3\",\"type\":\"transform\","
                        + "\"status\":\"COMPLETED\",\"attempt\":0,\"pinned\":true,\"input\":\"1\",\"output\":\"2\","
                        + "\"started\":" + t1 + ",\"ended\":" + t1 + ",\"details\":\"{}\"}]");
    }

    /** The steps {@link #stepsAsAnEarlierBuildWroteThem} hold, as that build read them. */
    static List<Step> stepsAnEarlierBuildWrote(String runId) {
        Step first = step(runId, 1)
                .running(1, json("{\"in\": 1}"), T0.plusSeconds(1))
                .finished(StepStatus.COMPLETED, json("{\"out\": 1}"), Optional.empty(), T0.plusSeconds(2), Map.of());
        Step second = step(runId, 2)
                .running(1, json("{\"in\": 2}"), T0.plusSeconds(1))
                .finished(
                        StepStatus.FAILED,
                        NullNode.getInstance(),
                        Optional.of(new RunError(ErrorCode.E_NODE_FAILED, "it broke")),
                        T0.plusSeconds(2),
                        Map.of("why", json("\"a test\"")));
        Step third = step(runId, 3).pinnedWith(json("1"), json("2"), T0.plusSeconds(1));
        return List.of(first, second, third);
    }

    /**
     * After {@link #stepsAsAnEarlierBuildWroteThem}, this build's writes: the pinned step re-run
     * (ignored, it is not pending), a new step started, and finished with details; a store that wrote
     * every change itself reads the same steps.
     */
    static void assertThatTheRunGoesOnOverThem(RunStore store, String runId) {
        Step fourth = step(runId, 4);
        Step fourthDone = fourth.running(2, json("[1, 2]"), T0.plusSeconds(3))
                .finished(
                        StepStatus.COMPLETED,
                        json("{\"out\": 4}"),
                        Optional.empty(),
                        T0.plusSeconds(4),
                        Map.of("tokens", json("12")));
        Step third = stepsAnEarlierBuildWrote(runId).get(2);
        assertThat(store.apply(
                        runId,
                        "runner",
                        List.of(
                                new Change.UpdateStep(third.with(StepStatus.RUNNING), Set.of(StepStatus.PENDING)),
                                new Change.InsertStep(fourth))))
                .isFalse();
        assertThat(store.updateStep(fourthDone, Set.of(StepStatus.PENDING))).isTrue();

        List<Step> expected = new ArrayList<>(stepsAnEarlierBuildWrote(runId));
        expected.add(fourthDone);
        assertThat(store.steps(runId)).isEqualTo(expected);
    }

    /**
     * The writes of a run that meet every rule of the table's statements: inserts of steps that exist
     * (ignored, or refused when strict), updates from a status the step is not in (ignored), a step
     * inserted and updated in one batch, a big output, an error, a missing step. PostgreSQL's test
     * makes them too.
     */
    static List<Function<RunStore, Object>> writesOfARun(String runId) {
        Step first = step(runId, 1);
        Step firstRunning = first.running(1, json("{\"in\": 1}"), T0.plusSeconds(1));
        Step firstDone = firstRunning.finished(
                StepStatus.COMPLETED, json("{\"out\": 1}"), Optional.empty(), T0.plusSeconds(2), Map.of());
        Step second = step(runId, 2);
        Step secondRunning = second.running(1, json("{\"in\": 2}"), T0.plusSeconds(3));
        Step secondFailed = secondRunning.finished(
                StepStatus.FAILED,
                NullNode.getInstance(),
                Optional.of(new RunError(ErrorCode.E_NODE_FAILED, "it broke")),
                T0.plusSeconds(4),
                Map.of("why", json("\"a test\"")));
        Step third = step(runId, 3);
        Step thirdDone = third.running(1, json("{\"in\": 3}"), T0.plusSeconds(5))
                .finished(StepStatus.COMPLETED, big(), Optional.empty(), T0.plusSeconds(6), Map.of());
        Step fourth = step(runId, 4);
        Lease lease = new Lease("runner", T0.plusSeconds(60));
        return List.of(
                store -> {
                    store.createRun(run(runId), lease, List.of(new Change.InsertStep(first)));
                    return "created";
                },
                store -> store.apply(
                        runId,
                        "runner",
                        List.of(
                                new Change.UpdateStep(firstRunning, Set.of(StepStatus.PENDING)),
                                new Change.UpdateStep(firstDone, Set.of(StepStatus.RUNNING)),
                                new Change.InsertStep(second))),
                // Ignored: the step is no longer running.
                store -> store.apply(
                        runId,
                        "runner",
                        List.of(
                                new Change.UpdateStep(firstRunning.with(StepStatus.FAILED), Set.of(StepStatus.RUNNING)),
                                new Change.InsertStep(first))),
                // Inserted and finished between two commits, as under ASYNC.
                store -> store.apply(
                        runId,
                        "runner",
                        List.of(
                                new Change.InsertStep(third),
                                new Change.UpdateStep(thirdDone, Set.of(StepStatus.PENDING)))),
                store -> store.updateStep(secondRunning, Set.of(StepStatus.PENDING)),
                store -> store.updateStep(secondRunning, Set.of(StepStatus.PENDING)),
                store -> store.updateStep(secondFailed, Set.of(StepStatus.RUNNING)),
                store -> store.updateStep(step(runId, 9), Set.of(StepStatus.PENDING)),
                store -> {
                    store.insertStep(fourth);
                    return "inserted";
                },
                store -> {
                    store.insertStep(fourth.with(StepStatus.RUNNING));
                    return "inserted again";
                },
                store -> store.apply(
                        runId,
                        "runner",
                        List.of(
                                new Change.UpdateRun(
                                        run(runId)
                                                .finished(
                                                        RunStatus.FAILED,
                                                        NullNode.getInstance(),
                                                        Optional.empty(),
                                                        T0.plusSeconds(9)),
                                        Set.of(RunStatus.RUNNING)),
                                new Change.UpdateStep(fourth.with(StepStatus.CANCELLED), Set.of(StepStatus.PENDING)))));
    }

    /** What {@code write} answered, or the code of the error it threw. */
    static Object outcome(Function<RunStore, Object> write, RunStore store) {
        try {
            return write.apply(store);
        } catch (WeftException e) {
            return e.code();
        }
    }

    private SqliteRunStore open(String file, boolean stepsInJournal) {
        return SqliteRunStore.open(
                DatabaseUrl.parse("sqlite:" + directory.resolve(file)), PAYLOAD_LIMIT, stepsInJournal);
    }

    private String jdbcUrl(String file) {
        return "jdbc:sqlite:" + directory.resolve(file);
    }

    /** The step changes of the run's journal rows, in order. */
    private List<JsonNode> changes(String file, String runId) throws SQLException {
        List<JsonNode> changes = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(jdbcUrl(file));
                java.sql.PreparedStatement select = connection.prepareStatement(
                        "SELECT steps FROM journal WHERE run_id = ? AND steps IS NOT NULL ORDER BY seq")) {
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    json(row.getString(1)).forEach(changes::add);
                }
            }
        }
        return changes;
    }

    static List<String> fieldNames(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private long count(String file, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl(file));
                Statement select = connection.createStatement();
                ResultSet row = select.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    static Run run(String id) {
        return new Run(
                id,
                "graph-1",
                Optional.empty(),
                RunStatus.RUNNING,
                json("{\"q\": 1}"),
                Map.of(),
                Map.of(),
                NullNode.getInstance(),
                Optional.empty(),
                T0,
                Optional.empty(),
                json("{\"id\": \"wf\"}"),
                Optional.empty());
    }

    static Step step(String runId, int order) {
        return new Step(
                runId,
                order,
                "node-" + order,
                "name-" + order,
                "transform",
                StepStatus.PENDING,
                0,
                false,
                NullNode.getInstance(),
                NullNode.getInstance(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Map.of());
    }

    static JsonNode big() {
        return Json.object().put("text", "weft-".repeat(200));
    }

    static JsonNode json(String text) {
        return Json.parse(text, "a test value");
    }
}
