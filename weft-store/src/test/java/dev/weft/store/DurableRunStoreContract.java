package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.POJONode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.spi.Checkpoint;
import dev.weft.core.spi.RunStore;
import dev.weft.core.spi.RunStore.Change;
import dev.weft.core.spi.RunStoreContract;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What a durable store does beyond the in-memory one: it is shared by several store instances (the
 * stand-in for several processes), keeps big values apart, keeps its schema, and keeps every value
 * exact. Each dialect's test extends this and names a fresh database.
 */
abstract class DurableRunStoreContract extends RunStoreContract {
    /** The URL of a new, empty database (or schema). */
    protected abstract String freshUrl();

    /** The URL {@link #store} was opened with. */
    protected String url;

    @Override
    protected final RunStore newStore() {
        url = freshUrl();
        return Stores.open(url);
    }

    /**
     * Whether the store writes step changes to the journal (SQLite from migration V8) rather than the
     * steps table: a transaction that writes a step then writes a journal row too.
     */
    protected boolean stepsInJournal() {
        return false;
    }

    /** The plan the database makes for {@code statement} with {@code parameters}, as one text. */
    protected abstract String plan(String statement, Object... parameters) throws SQLException;

    protected Connection connect() throws SQLException {
        return DriverManager.getConnection(DatabaseUrl.parse(url).jdbcUrl());
    }

    private long count(String sql, String runId) throws SQLException {
        return Long.parseLong(text(sql, runId));
    }

    /** The first column of the one row {@code sql} selects for {@code runId}, as text. */
    private String text(String sql, String runId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getString(1);
            }
        }
    }

    private void execute(String sql, Object... parameters) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            statement.executeUpdate();
        }
    }

    /** Inserts an event as stores wrote them before the journal, a row of its own, at {@link #T0}. */
    private void insertTabledEvent(
            String runId, long sequence, String type, @Nullable String node, int stepOrder, String data)
            throws SQLException {
        execute(
                "INSERT INTO events (run_id, sequence, type, node_id, step_order, time, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
                runId,
                sequence,
                type,
                node,
                stepOrder,
                JsonText.nanos(T0),
                data);
    }

    /** Reopens {@link #store} on the same database with a payload limit of {@code bytes}. */
    private void reopenWithPayloadLimit(long bytes) {
        store.close();
        store = Stores.open(url, bytes);
    }

    /** A new running run of {@code graph-1} with {@code input} and {@code output}, and nothing else. */
    private static Run runWith(JsonNode input, JsonNode output) {
        return new Run(
                newId(),
                "graph-1",
                Optional.empty(),
                RunStatus.RUNNING,
                input,
                Map.of(),
                Map.of(),
                output,
                Optional.empty(),
                T0,
                Optional.empty(),
                NullNode.getInstance(),
                Optional.empty());
    }

    private static String newId() {
        return UUID.randomUUID().toString();
    }

    /** The batch a runner writes after a step: the step done, the next one, two events, a checkpoint. */
    private static List<Change> stepBatch(String runId, int order) {
        Step running = step(runId, order, StepStatus.RUNNING);
        Step done = running.finished(
                StepStatus.COMPLETED, json("{\"answer\": " + order + "}"), Optional.empty(), T0, Map.of());
        Map<String, JsonNode> outputs = Map.of("node-" + order, json("{\"answer\": " + order + "}"));
        return List.of(
                new Change.UpdateStep(done, Set.of(StepStatus.PENDING, StepStatus.RUNNING)),
                new Change.InsertStep(step(runId, order + 1, StepStatus.PENDING)),
                new Change.AppendEvent(new Event(
                        runId,
                        2L * order - 1,
                        Event.STEP_COMPLETED,
                        Optional.of("node-" + order),
                        order,
                        T0,
                        json("{}"))),
                new Change.AppendEvent(new Event(
                        runId,
                        2L * order,
                        Event.STEP_STARTED,
                        Optional.of("node-" + (order + 1)),
                        order + 1,
                        T0,
                        json("{}"))),
                new Change.SaveCheckpoint(new Checkpoint(
                        runId, order, order + 1, T0, outputs, Map.of(), List.of(), List.of(), outputs, "")));
    }

    /** A new run in {@link #store}, its first step done with the batch a runner writes for it. */
    private Run runAfterItsFirstStep() {
        Run run = run(newId(), RunStatus.RUNNING, T0);
        store.createRun(run);
        store.insertStep(step(run.id(), 1, StepStatus.RUNNING));
        store.apply(run.id(), "runner", stepBatch(run.id(), 1));
        return run;
    }

    private static JsonNode bigValue() {
        StringBuilder big = new StringBuilder();
        while (big.length() < 2 * 1024 * 1024) {
            big.append("weft-");
        }
        return Json.object().put("text", big.toString());
    }

    @Test
    void twoStoresOnOneDatabaseSeeEachOthersWrites() {
        try (RunStore other = Stores.open(url)) {
            Run run = run(newId(), RunStatus.RUNNING, T0);
            store.createRun(run);
            store.insertStep(step(run.id(), 1, StepStatus.RUNNING));
            assertThat(store.claim(run.id(), new RunStore.Lease("runner", T0.plusSeconds(30)), T0))
                    .isTrue();

            assertThat(other.findRun(run.id())).contains(run);
            assertThat(other.claim(run.id(), new RunStore.Lease("intruder", T0.plusSeconds(60)), T0.plusSeconds(1)))
                    .isFalse();
            assertThat(other.requestCancel(run.id())).isTrue();

            // The runner learns of the cancellation with the commit of its step.
            assertThat(store.apply(run.id(), "runner", stepBatch(run.id(), 1))).isTrue();
            assertThat(other.steps(run.id()))
                    .extracting(Step::status)
                    .containsExactly(StepStatus.COMPLETED, StepStatus.PENDING);
            assertThat(other.events(run.id())).hasSize(2);
            assertThat(other.latestCheckpoint(run.id()))
                    .map(Checkpoint::afterStep)
                    .contains(1);
        }
    }

    @Test
    void concurrentAppliesOnDifferentRunsAllLand() throws Exception {
        int threads = 6;
        int steps = 30;
        List<Future<String>> results = new ArrayList<>();
        try (RunStore other = Stores.open(url);
                ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            for (int t = 0; t < threads; t++) {
                RunStore target = t % 2 == 0 ? store : other;
                results.add(pool.submit(() -> {
                    Run run = run(newId(), RunStatus.RUNNING, T0);
                    target.createRun(run);
                    target.insertStep(step(run.id(), 1, StepStatus.RUNNING));
                    for (int order = 1; order <= steps; order++) {
                        target.apply(run.id(), "runner", stepBatch(run.id(), order));
                    }
                    return run.id();
                }));
            }
            for (Future<String> result : results) {
                String runId = result.get();
                assertThat(store.steps(runId)).hasSize(steps + 1);
                assertThat(store.events(runId)).hasSize(2 * steps);
                assertThat(store.checkpoints(runId)).hasSize(steps);
            }
        }
    }

    @Test
    void aLateDeliveryInABatchCannotMoveAFinishedStepBack() {
        Run run = run(newId(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Step running = step(run.id(), 1, StepStatus.RUNNING);
        store.insertStep(running);
        store.apply(run.id(), "runner", stepBatch(run.id(), 1));

        store.apply(
                run.id(),
                "runner",
                List.of(new Change.UpdateStep(running, Set.of(StepStatus.PENDING, StepStatus.RUNNING))));

        assertThat(store.steps(run.id()).get(0).status()).isEqualTo(StepStatus.COMPLETED);
    }

    @Test
    void storesALargeOutputOnceApartFromItsRowsAndLoadsItOnRead() throws SQLException {
        Run run = run(newId(), RunStatus.RUNNING, T0);
        store.createRun(run);
        JsonNode large = bigValue();
        Step pending = step(run.id(), 1, StepStatus.PENDING);
        Step done = pending.finished(StepStatus.COMPLETED, large, Optional.empty(), T0, Map.of());
        Checkpoint first = new Checkpoint(
                run.id(),
                1,
                2,
                T0,
                Map.of("big", large, "small", json("1")),
                Map.of(),
                List.of(),
                List.of(),
                Map.of("big", large),
                "big");
        Checkpoint second = new Checkpoint(
                run.id(), 2, 3, T0.plusSeconds(1), Map.of("big", large), Map.of(), List.of(), List.of(), Map.of(), "");
        store.apply(
                run.id(),
                "runner",
                List.of(
                        new Change.InsertStep(pending),
                        new Change.UpdateStep(done, Set.of(StepStatus.PENDING)),
                        new Change.SaveCheckpoint(first),
                        new Change.SaveCheckpoint(second)));

        assertThat(count("SELECT count(*) FROM payloads WHERE run_id = ?", run.id()))
                .isOne();
        assertThat(count("SELECT min(size) FROM payloads WHERE run_id = ?", run.id()))
                .isGreaterThan(2 * 1024 * 1024);
        if (stepsInJournal()) {
            assertThat(text("SELECT steps FROM journal WHERE run_id = ? AND steps IS NOT NULL", run.id()))
                    .contains("\"outputRef\"")
                    .hasSizeLessThan(2000);
        } else {
            assertThat(count(
                            "SELECT count(*) FROM steps WHERE run_id = ? AND output IS NULL AND output_ref IS NOT NULL",
                            run.id()))
                    .isOne();
        }
        assertThat(count("SELECT max(length(checkpoints)) FROM journal WHERE run_id = ?", run.id()))
                .isLessThan(1000);
        // Listing runs reads the runs table only: no row of it holds the big value.
        assertThat(count("SELECT max(length(input) + length(output)) FROM runs WHERE id = ?", run.id()))
                .isLessThan(1000);
        assertThat(store.listRuns(Optional.empty())).extracting(Run::id).containsExactly(run.id());

        assertThat(store.steps(run.id())).containsExactly(done);
        assertThat(store.checkpoints(run.id())).containsExactly(first, second);
    }

    @Test
    void honoursASmallerPayloadLimitForRunsStepsAndInterrupts() throws SQLException {
        reopenWithPayloadLimit(64);
        JsonNode over = json("{\"text\": \"" + "x".repeat(100) + "\"}");
        JsonNode under = json("{\"text\": \"short\"}");
        Run run = runWith(over, under);
        store.createRun(run);
        Step step = step(run.id(), 1, StepStatus.PENDING);
        Step done = step.finished(StepStatus.COMPLETED, over, Optional.empty(), T0, Map.of());
        Checkpoint waiting = new Checkpoint(
                run.id(),
                1,
                2,
                T0,
                Map.of("a", over),
                Map.of("a", 1),
                List.of(new Checkpoint.Activation(
                        "b", 2, List.of(new Checkpoint.Arrival("a", over), new Checkpoint.Arrival("START", under)))),
                List.of(new Checkpoint.Waiting("c", 3, over, under)),
                Map.of(),
                "");
        store.insertStep(step);
        store.apply(
                run.id(),
                "runner",
                List.of(new Change.UpdateStep(done, Set.of(StepStatus.PENDING)), new Change.SaveCheckpoint(waiting)));

        assertThat(count("SELECT count(*) FROM payloads WHERE run_id = ?", run.id()))
                .isOne();
        assertThat(count("SELECT count(*) FROM runs WHERE id = ? AND input IS NULL AND output IS NOT NULL", run.id()))
                .isOne();
        assertThat(store.findRun(run.id())).contains(run);
        assertThat(store.steps(run.id())).containsExactly(done);
        assertThat(store.latestCheckpoint(run.id())).contains(waiting);
    }

    @Test
    void keepsEveryValueExact() {
        Instant precise = Instant.parse("2026-11-21T10:00:00.123456789Z");
        JsonNode numbers = json("{\"half\": 1.5, \"tenth\": 0.10, \"big\": 123456789012345678901234567890,"
                + " \"tiny\": 1e-300, \"text\": \"שלום \\u0000 ✓\"}");
        Run run = new Run(
                newId(),
                "graph-1",
                Optional.of("parent"),
                RunStatus.RUNNING,
                numbers,
                Map.of("n", numbers),
                Map.of(),
                NullNode.getInstance(),
                Optional.empty(),
                precise,
                Optional.of(precise.plusNanos(1)),
                NullNode.getInstance(),
                Optional.empty());
        store.createRun(run);

        assertThat(store.findRun(run.id())).contains(run);
        assertThat(store.findRun(run.id()).orElseThrow().input().get("half")).isEqualTo(json("1.5"));
    }

    @Test
    void reopeningTheDatabaseMigratesNothingTwice() throws SQLException {
        Run run = run(newId(), RunStatus.RUNNING, T0);
        store.createRun(run);
        long history = historyRows("");
        store.close();
        Stores.open(url).close();
        store = Stores.open(url);

        assertThat(store.findRun(run.id())).contains(run);
        assertThat(historyRows("")).isEqualTo(history);
        assertThat(historyRows(" WHERE version = '1' AND success")).isOne();
    }

    @Test
    void refusesADatabaseThatANewerWeftMigratedAndChangesNothing() throws SQLException {
        Run run = run(newId(), RunStatus.RUNNING, T0);
        store.createRun(run);
        store.close();
        execute(
                "INSERT INTO " + Migrations.HISTORY_TABLE
                        + " (installed_rank, version, description, type, script, installed_by, execution_time, success)"
                        + " VALUES (1000, '999', 'a later release', 'SQL', 'V999__later.sql', 'weft', 0, ?)",
                true);
        long history = historyRows("");

        assertThatThrownBy(() -> Stores.open(url))
                .isInstanceOf(SchemaTooNewException.class)
                .satisfies(e -> assertThat(((SchemaTooNewException) e).code()).isEqualTo(ErrorCode.E_SCHEMA_TOO_NEW))
                .hasMessageContaining("version 999")
                .hasMessageContaining(Migrations.LATEST_VERSIONS.get(dialect()));
        assertThat(historyRows("")).isEqualTo(history);

        execute("DELETE FROM " + Migrations.HISTORY_TABLE + " WHERE version = '999'");
        store = Stores.open(url);
        assertThat(store.findRun(run.id())).contains(run);
    }

    /** The dialect's name, as its migrations' folder. */
    private String dialect() {
        return url.contains("postgres") ? "postgresql" : "sqlite";
    }

    private long historyRows(String where) throws SQLException {
        try (Connection connection = connect();
                ResultSet row = connection
                        .createStatement()
                        .executeQuery("SELECT count(*) FROM " + Migrations.HISTORY_TABLE + where)) {
            row.next();
            return row.getLong(1);
        }
    }

    @Test
    void pruningDeletesEverythingARunOwned() throws SQLException {
        reopenWithPayloadLimit(64);
        Run run = runAfterItsFirstStep();
        store.saveCheckpoint(new Checkpoint(
                run.id(),
                1,
                2,
                T0,
                Map.of("big", json("\"" + "y".repeat(200) + "\"")),
                Map.of(),
                List.of(),
                List.of(),
                Map.of(),
                ""));
        store.updateRun(
                run.finished(RunStatus.COMPLETED, json("1"), Optional.empty(), T0.plusSeconds(1)),
                Set.of(RunStatus.RUNNING));

        // The step's insert is a journal row of its own where steps are journaled.
        assertThat(count("SELECT count(*) FROM journal WHERE run_id = ?", run.id()))
                .isEqualTo(stepsInJournal() ? 3 : 2);
        assertThat(store.pruneRuns(T0.plusSeconds(2))).isOne();

        for (String table : List.of("steps", "events", "checkpoints", "journal", "payloads")) {
            assertThat(count("SELECT count(*) FROM " + table + " WHERE run_id = ?", run.id()))
                    .as(table)
                    .isZero();
        }
    }

    @Test
    void aTransactionWritesItsEventsAndCheckpointsAsOneJournalRow() throws SQLException {
        Run run = runAfterItsFirstStep();
        store.apply(run.id(), "runner", stepBatch(run.id(), 2));

        // The step's insert is a journal row of its own where steps are journaled.
        assertThat(count("SELECT count(*) FROM journal WHERE run_id = ?", run.id()))
                .isEqualTo(stepsInJournal() ? 3 : 2);
        assertThat(count("SELECT count(*) FROM events WHERE run_id = ?", run.id()))
                .isZero();
        assertThat(count("SELECT count(*) FROM checkpoints WHERE run_id = ?", run.id()))
                .isZero();
        assertThat(store.events(run.id())).extracting(Event::sequence).containsExactly(1L, 2L, 3L, 4L);
        assertThat(store.checkpoints(run.id()))
                .extracting(Checkpoint::afterStep)
                .containsExactly(1, 2);
        assertThat(store.latestCheckpoint(run.id()).orElseThrow().afterStep()).isEqualTo(2);
    }

    @Test
    void eventsAndCheckpointsWrittenBeforeTheJournalAreReadWithIt() throws SQLException {
        Run run = run(newId(), RunStatus.RUNNING, T0);
        store.createRun(run);
        // As a store before the journal wrote them: a row each.
        insertTabledEvent(run.id(), 2, Event.STEP_STARTED, "node-1", 1, "{\"old\":true}");
        insertTabledEvent(run.id(), 1, Event.RUN_STARTED, null, 0, "{}");
        execute(
                "INSERT INTO checkpoints (run_id, after_step, next_order, time, state) VALUES (?, ?, ?, ?, ?)",
                run.id(),
                0,
                1,
                JsonText.nanos(T0),
                "{\"outputs\":{},\"visits\":{},\"pending\":[],\"waiting\":[],\"ended\":{},\"lastEnded\":\"\"}");
        Checkpoint old = new Checkpoint(run.id(), 0, 1, T0, Map.of(), Map.of(), List.of(), List.of(), Map.of(), "");

        assertThat(store.latestCheckpoint(run.id())).contains(old);

        store.insertStep(step(run.id(), 1, StepStatus.RUNNING));
        store.apply(run.id(), "runner", stepBatch(run.id(), 2));

        assertThat(store.events(run.id()))
                .extracting(Event::sequence, Event::type)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1L, Event.RUN_STARTED),
                        org.assertj.core.groups.Tuple.tuple(2L, Event.STEP_STARTED),
                        org.assertj.core.groups.Tuple.tuple(3L, Event.STEP_COMPLETED),
                        org.assertj.core.groups.Tuple.tuple(4L, Event.STEP_STARTED));
        assertThat(store.events(run.id()).get(1).data()).isEqualTo(json("{\"old\":true}"));
        assertThat(store.checkpoints(run.id()))
                .extracting(Checkpoint::afterStep)
                .containsExactly(0, 2);
        assertThat(store.checkpoints(run.id()).get(0)).isEqualTo(old);
        assertThat(store.latestCheckpoint(run.id()).orElseThrow().afterStep()).isEqualTo(2);
    }

    @Test
    void aJournalRowWritesItsLaterCheckpointsAsChangesAndReadsThemWhole() throws SQLException {
        reopenWithPayloadLimit(64);
        Run run = run(newId(), RunStatus.RUNNING, T0);
        store.createRun(run);
        JsonNode big = json("{\"text\": \"" + "x".repeat(100) + "\"}");
        JsonNode otherBig = json("{\"text\": \"" + "y".repeat(100) + "\"}");
        List<Checkpoint> checkpoints = checkpointsChangingEveryPart(run.id(), big, otherBig);

        store.apply(
                run.id(),
                "runner",
                checkpoints.stream().<Change>map(Change.SaveCheckpoint::new).toList());

        JsonNode row = json(text("SELECT checkpoints FROM journal WHERE run_id = ?", run.id()));
        assertThat(row).hasSize(4);
        assertThat(row.get(0)).hasSize(4);
        JsonNode second = row.get(1).get(4);
        // Only what changed: "b" and its big value are left out, "c" is new and kept apart.
        assertThat(second.path("outputs").has("a")).isTrue();
        assertThat(second.path("outputs").has("b")).isFalse();
        assertThat(second.path("outputRefs").has("b")).isFalse();
        assertThat(second.path("outputRefs").has("c")).isTrue();
        assertThat(row.get(2).get(4).path("removed").path("outputs"))
                .extracting(JsonNode::asText)
                .containsExactlyInAnyOrder("none", "c");
        assertThat(row.get(3).get(4)).isEqualTo(json("{}"));
        assertThat(count("SELECT count(*) FROM payloads WHERE run_id = ?", run.id()))
                .isEqualTo(2);

        assertThat(store.checkpoints(run.id())).containsExactlyElementsOf(checkpoints);
        assertThat(store.latestCheckpoint(run.id())).contains(checkpoints.getLast());
        try (RunStore other = Stores.open(url)) {
            assertThat(other.checkpoints(run.id())).containsExactlyElementsOf(checkpoints);
        }
    }

    /** A value whose text is written out by Jackson, counting how often. */
    static final class Counted {
        int written;

        public String getText() {
            written++;
            return "z".repeat(200);
        }
    }

    private static Checkpoint holding(String runId, int afterStep, JsonNode output) {
        return new Checkpoint(
                runId,
                afterStep,
                afterStep + 1,
                T0,
                Map.of("big", output, "n", json(Integer.toString(afterStep))),
                Map.of(),
                List.of(),
                List.of(),
                Map.of(),
                "");
    }

    @Test
    void aBigValueIsWrittenOutOncePerRunInOneTransactionOrMany() throws SQLException {
        reopenWithPayloadLimit(64);
        Run run = run(newId(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Counted counted = new Counted();
        JsonNode big = new POJONode(counted);

        Step pending = step(run.id(), 1, StepStatus.PENDING);
        store.insertStep(pending);
        Step done = pending.finished(StepStatus.COMPLETED, big, Optional.empty(), T0, Map.of());
        // The step's output and the checkpoint that holds it, in one transaction.
        store.apply(
                run.id(),
                "runner",
                List.of(
                        new Change.UpdateStep(done, Set.of(StepStatus.PENDING)),
                        new Change.SaveCheckpoint(holding(run.id(), 1, big))));
        store.apply(run.id(), "runner", List.of(new Change.SaveCheckpoint(holding(run.id(), 2, big))));
        store.apply(run.id(), "runner", List.of(new Change.SaveCheckpoint(holding(run.id(), 3, big))));

        assertThat(counted.written).isOne();
        assertThat(store.steps(run.id()).get(0).output()).isEqualTo(json("{\"text\": \"" + "z".repeat(200) + "\"}"));
        assertThat(store.checkpoints(run.id()))
                .extracting(checkpoint -> checkpoint.outputs().get("big"))
                .containsOnly(json("{\"text\": \"" + "z".repeat(200) + "\"}"));
        assertThat(count("SELECT count(*) FROM payloads WHERE run_id = ?", run.id()))
                .isOne();

        // The same value in another run is that run's to store.
        Run other = run(newId(), RunStatus.RUNNING, T0);
        store.createRun(other);
        store.apply(other.id(), "runner", List.of(new Change.SaveCheckpoint(holding(other.id(), 1, big))));
        assertThat(counted.written).isEqualTo(2);
        assertThat(count("SELECT count(*) FROM payloads WHERE run_id = ?", other.id()))
                .isOne();
    }

    @Test
    void aBigValueOfATransactionThatFailedIsWrittenByTheNext() throws SQLException {
        reopenWithPayloadLimit(64);
        JsonNode big = json("{\"text\": \"" + "x".repeat(100) + "\"}");
        Run run = runWith(big, NullNode.getInstance());
        Run waiting = run.withStatus(RunStatus.WAITING);
        RunStore.Lease lease = new RunStore.Lease("runner", T0.plusSeconds(30));

        // The run row and its big input are written, then the end that expects it WAITING fails the
        // transaction, and all of it is rolled back.
        assertThatThrownBy(() ->
                        store.createRun(run, lease, List.of(new Change.UpdateRun(waiting, Set.of(RunStatus.WAITING)))))
                .isInstanceOf(dev.weft.core.RunStateException.class);
        assertThat(store.findRun(run.id())).isEmpty();

        store.createRun(run, lease, List.of(new Change.SaveCheckpoint(holding(run.id(), 1, big))));

        assertThat(count("SELECT count(*) FROM payloads WHERE run_id = ?", run.id()))
                .isOne();
        assertThat(store.findRun(run.id())).contains(run);
        assertThat(store.latestCheckpoint(run.id())).contains(holding(run.id(), 1, big));
    }

    @Test
    void aCorruptJournalIsAStoreErrorThatNamesTheRun() throws SQLException {
        Run run = runAfterItsFirstStep();

        execute("UPDATE journal SET events = ? WHERE run_id = ?", "[[1, \"step.started\"]]", run.id());
        assertFailsWith(ErrorCode.E_STORE_UNAVAILABLE, () -> store.events(run.id()))
                .hasMessageContaining("journal of run " + run.id())
                .hasMessageContaining("not an array of 6");

        execute("UPDATE journal SET checkpoints = ? WHERE run_id = ?", "[[1, 2, 3", run.id());
        assertFailsWith(ErrorCode.E_STORE_UNAVAILABLE, () -> store.checkpoints(run.id()))
                .hasMessageContaining("journal of run " + run.id())
                .hasMessageContaining("not valid JSON");
        String whole =
                "[1,2,1,{\"outputs\":{},\"visits\":{},\"pending\":[],\"waiting\":[],\"ended\":{},\"lastEnded\":\"\"}]";
        execute("UPDATE journal SET checkpoints = ? WHERE run_id = ?", "[[1,2,1,0,{}]]", run.id());
        assertFailsWith(ErrorCode.E_STORE_UNAVAILABLE, () -> store.latestCheckpoint(run.id()))
                .hasMessageContaining("journal of run " + run.id())
                .hasMessageContaining("no whole one before it");
        execute("UPDATE journal SET checkpoints = ? WHERE run_id = ?", "[" + whole + ",[2,3,1,0,[]]]", run.id());
        assertFailsWith(ErrorCode.E_STORE_UNAVAILABLE, () -> store.latestCheckpoint(run.id()))
                .hasMessageContaining("checkpoint after step 2 in the journal of run " + run.id())
                .hasMessageContaining("not a JSON object");
        execute(
                "UPDATE journal SET checkpoints = ? WHERE run_id = ?",
                "[" + whole + ",[2,3,1,0,{\"removed\":{\"outputs\":\"a\"}}]]",
                run.id());
        assertFailsWith(ErrorCode.E_STORE_UNAVAILABLE, () -> store.checkpoints(run.id()))
                .hasMessageContaining("removed outputs are not an array");
        execute(
                "UPDATE journal SET checkpoints = ? WHERE run_id = ?",
                "[" + whole + ",[2,3,1,0,{\"visits\":[1]}]]",
                run.id());
        assertFailsWith(ErrorCode.E_STORE_UNAVAILABLE, () -> store.checkpoints(run.id()))
                .hasMessageContaining("visits that are not a JSON object");
        // Nothing else of the run is affected.
        assertThat(store.steps(run.id())).hasSize(2);
    }

    @Test
    void renewingLeasesAndPruningFindTheirRunsByIndex() throws SQLException {
        List<String> unfinished = new ArrayList<>();
        List<String> finished = new ArrayList<>();
        for (RunStatus status : RunStatus.values()) {
            (status.isFinished() ? finished : unfinished).add("'" + status.name() + "'");
        }
        // The literal conditions name every status, on the right side.
        assertThat(JdbcRunStore.IS_UNFINISHED).isEqualTo("status IN (" + String.join(", ", unfinished) + ")");
        assertThat(JdbcRunStore.IS_FINISHED).isEqualTo("status IN (" + String.join(", ", finished) + ")");

        assertThat(plan(JdbcRunStore.RENEW, 1L, "owner")).contains("runs_by_lease_owner");
        assertThat(plan(JdbcRunStore.PRUNE, 1L, 1L)).contains("runs_by_status");
    }

    @Test
    void aFailureOnAClosedStoreIsAStoreError() {
        store.close();

        assertFailsWith(ErrorCode.E_STORE_UNAVAILABLE, () -> store.findRun("any"))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageNotContaining("\n");
        store = Stores.open(url);
    }
}
