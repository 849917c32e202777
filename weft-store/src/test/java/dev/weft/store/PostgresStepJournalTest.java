package dev.weft.store;

import static dev.weft.store.SqliteStepJournalTest.json;
import static dev.weft.store.SqliteStepJournalTest.outcome;
import static dev.weft.store.SqliteStepJournalTest.run;
import static dev.weft.store.SqliteStepJournalTest.step;
import static dev.weft.store.SqliteStepJournalTest.writesOfARun;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.Event;
import dev.weft.core.LeaseLostException;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunStateException;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.spi.RunStore;
import dev.weft.core.spi.RunStore.Change;
import dev.weft.core.spi.RunStore.Lease;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
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

/**
 * PostgreSQL's steps as one log (migration V9): step changes written to the journal, by the step's
 * one statement or by weft_apply, and folded on read give the steps and answers the table's
 * statements gave, and a run written before V9 reads the same after it. The writes are {@link
 * SqliteStepJournalTest}'s.
 */
final class PostgresStepJournalTest {
    private static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");
    /** Small, so that a step's big output goes to the payloads table in either way. */
    private static final long PAYLOAD_LIMIT = 256;

    private final EmbeddedPostgres server = EmbeddedPostgres.shared();

    @Test
    void stepsFoldedFromTheJournalEqualWhatTheTableWouldHoldAfterEveryWrite() {
        try (PostgresRunStore table = open(server.freshUrl(), false);
                PostgresRunStore journal = open(server.freshUrl(), true)) {
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
            assertThat(journal.steps("r-1").get(2).output()).isEqualTo(SqliteStepJournalTest.big());
        }
    }

    @Test
    void aStepsWriteGoesToTheJournalAndNoneToTheStepsTable() throws SQLException {
        String url = server.freshUrl();
        try (PostgresRunStore journal = open(url, true)) {
            for (Function<RunStore, Object> write : writesOfARun("r-1")) {
                outcome(write, journal);
            }
        }
        assertThat(count(url, "SELECT count(*) FROM steps")).isZero();
        assertThat(count(url, "SELECT count(*) FROM journal WHERE steps IS NOT NULL"))
                .isGreaterThan(5);
    }

    @Test
    void aStepWrittenWhileAnotherHoldsTheRunIsRefusedAndLeavesNoRow() throws SQLException {
        String url = server.freshUrl();
        try (PostgresRunStore store = open(url, true)) {
            store.createRun(run("r-1"), new Lease("runner", T0.plusSeconds(30)), List.of());
            assertThat(store.claim("r-1", new Lease("runner", T0.plusSeconds(30)), T0))
                    .isTrue();
            long rows = count(url, "SELECT count(*) FROM journal");

            assertThatThrownBy(() -> store.apply("r-1", "intruder", List.of(new Change.InsertStep(step("r-1", 1)))))
                    .isInstanceOf(LeaseLostException.class);
            assertThatThrownBy(() ->
                            store.apply("r-missing", "runner", List.of(new Change.InsertStep(step("r-missing", 1)))))
                    .isInstanceOf(NotFoundException.class);
            assertThat(count(url, "SELECT count(*) FROM journal")).isEqualTo(rows);
            assertThat(store.steps("r-1")).isEmpty();

            assertThat(store.requestCancel("r-1")).isTrue();
            assertThat(store.apply("r-1", "runner", List.of(new Change.InsertStep(step("r-1", 1)))))
                    .as("the cancellation, answered by the step's own statement")
                    .isTrue();
            assertThat(store.steps("r-1")).containsExactly(step("r-1", 1));
        }
    }

    @Test
    void theStepsOneStatementIsOnePlainStatementThatLocksTheRunForItsWriters() {
        try (PostgresRunStore store = open(server.freshUrl(), true)) {
            assertThat(store.insertOwnedJournal())
                    .startsWith("WITH ")
                    .contains("FOR NO KEY UPDATE")
                    .doesNotContain("weft_apply");
            Step first = step("r-1", 1);
            store.createRun(run("r-1"), new Lease("runner", T0.plusSeconds(30)), List.of());
            assertThat(store.apply("r-1", "runner", List.of(new Change.InsertStep(first))))
                    .isFalse();
            assertThat(store.updateStep(first.with(StepStatus.RUNNING), Set.of(StepStatus.PENDING)))
                    .isTrue();
            assertThat(store.steps("r-1")).containsExactly(first.with(StepStatus.RUNNING));
        }
    }

    @Test
    void aRunsCreationAndEndAreOnePlainStatementEachAndCallNoFunction() throws SQLException {
        String url = server.freshUrl();
        try (PostgresRunStore store = open(url, true)) {
            Run run = run("r-1");
            Step first = step("r-1", 1);
            Event started = new Event("r-1", 1, Event.RUN_STARTED, Optional.empty(), 0, T0, json("{}"));
            // Without weft_apply, only the plain statements can write these batches.
            execute(url, "ALTER FUNCTION weft_apply(TEXT, TEXT, JSONB) RENAME TO weft_apply_away");
            store.createRun(
                    run,
                    new Lease("runner", T0.plusSeconds(30)),
                    List.of(new Change.AppendEvent(started), new Change.InsertStep(first)));
            Step done = first.finished(StepStatus.COMPLETED, json("42"), Optional.empty(), T0, Map.of());
            Run ended = run.finished(RunStatus.COMPLETED, json("42"), Optional.empty(), T0.plusSeconds(1));
            Event completed = new Event("r-1", 2, Event.RUN_COMPLETED, Optional.empty(), 0, T0, json("{}"));

            assertThat(store.apply(
                            "r-1",
                            "runner",
                            List.of(
                                    new Change.UpdateStep(done, Set.of(StepStatus.PENDING)),
                                    new Change.AppendEvent(completed),
                                    new Change.UpdateRun(ended, Set.of(RunStatus.RUNNING)))))
                    .isFalse();

            assertThat(store.findRun("r-1")).contains(ended);
            assertThat(store.steps("r-1")).containsExactly(done);
            assertThat(store.events("r-1")).containsExactly(started, completed);
            assertThat(count(url, "SELECT count(*) FROM journal")).isEqualTo(2);
        }
    }

    @Test
    void aRunsEndWrittenWhileAnotherHoldsItOrFromAnotherStatusIsRefusedAndChangesNothing() throws SQLException {
        String url = server.freshUrl();
        try (PostgresRunStore store = open(url, true)) {
            Run run = run("r-1");
            Step first = step("r-1", 1);
            store.createRun(run, new Lease("runner", T0.plusSeconds(30)), List.of(new Change.InsertStep(first)));
            Run ended = run.finished(RunStatus.COMPLETED, json("42"), Optional.empty(), T0.plusSeconds(1));
            Function<String, List<Change>> end = runId -> List.of(
                    new Change.UpdateStep(step(runId, 1).with(StepStatus.COMPLETED), Set.of(StepStatus.PENDING)),
                    new Change.UpdateRun(ended, Set.of(RunStatus.RUNNING)));
            long rows = count(url, "SELECT count(*) FROM journal");

            assertThatThrownBy(() -> store.apply("r-1", "intruder", end.apply("r-1")))
                    .isInstanceOf(LeaseLostException.class);
            execute(url, "UPDATE runs SET status = 'WAITING' WHERE id = 'r-1'");
            assertThatThrownBy(() -> store.apply("r-1", "runner", end.apply("r-1")))
                    .isInstanceOf(RunStateException.class);
            assertThat(count(url, "SELECT count(*) FROM journal")).isEqualTo(rows);
            assertThat(store.steps("r-1")).containsExactly(first);
            assertThat(store.findRun("r-1")).map(Run::status).contains(RunStatus.WAITING);

            execute(url, "UPDATE runs SET status = 'RUNNING', cancel_requested = TRUE WHERE id = 'r-1'");
            assertThat(store.apply("r-1", "runner", end.apply("r-1")))
                    .as("the cancellation, answered by the end's own statement")
                    .isTrue();
            assertThat(store.findRun("r-1")).contains(ended);
        }
    }

    @Test
    void aRunWrittenBeforeMigrationV9ReadsTheSameAfterItAndGoesOnInTheJournal() throws SQLException {
        // The run as the store wrote it before V9: its steps in the table (the table's way, in a
        // schema of its own), copied into a schema that stops at V8.
        String tableUrl = server.freshUrl();
        List<Step> before;
        try (PostgresRunStore table = open(tableUrl, false)) {
            List<Function<RunStore, Object>> writes = writesOfARun("r-1");
            for (Function<RunStore, Object> write : writes.subList(0, 4)) {
                outcome(write, table);
            }
            before = table.steps("r-1");
        }
        String oldUrl = server.freshUrl();
        String oldSchema = PostgresRunStore.schema(oldUrl);
        String tableSchema = PostgresRunStore.schema(tableUrl);
        Flyway.configure()
                .dataSource(DatabaseUrl.parse(oldUrl).jdbcUrl(), null, null)
                .locations("classpath:db/weft/postgresql")
                .table(Migrations.HISTORY_TABLE)
                .schemas(oldSchema)
                .defaultSchema(oldSchema)
                .createSchemas(true)
                .target("8")
                .load()
                .migrate();
        try (Connection old =
                        DriverManager.getConnection(DatabaseUrl.parse(oldUrl).jdbcUrl());
                Statement copy = old.createStatement()) {
            copy.execute("INSERT INTO " + oldSchema + ".runs SELECT * FROM " + tableSchema + ".runs");
            copy.execute("INSERT INTO " + oldSchema + ".steps SELECT * FROM " + tableSchema + ".steps");
            copy.execute("INSERT INTO " + oldSchema + ".payloads SELECT * FROM " + tableSchema + ".payloads");
            copy.execute("INSERT INTO " + oldSchema + ".journal (run_id, seq, events, checkpoints)"
                    + " OVERRIDING SYSTEM VALUE SELECT run_id, seq, events, checkpoints FROM " + tableSchema
                    + ".journal");
        }
        assertThat(count(oldUrl, "SELECT count(*) FROM steps")).isEqualTo(before.size());

        try (PostgresRunStore migrated = open(oldUrl, true)) {
            assertThat(migrated.steps("r-1")).isEqualTo(before);

            // The rest of the run, written the new way over the old rows, reads as the table's way.
            List<Object> answers = new ArrayList<>();
            List<Function<RunStore, Object>> writes = writesOfARun("r-1");
            for (Function<RunStore, Object> write : writes.subList(4, writes.size())) {
                answers.add(outcome(write, migrated));
            }
            try (PostgresRunStore table = open(tableUrl, false)) {
                List<Object> expected = new ArrayList<>();
                for (Function<RunStore, Object> write : writes.subList(4, writes.size())) {
                    expected.add(outcome(write, table));
                }
                assertThat(answers).isEqualTo(expected);
                assertThat(migrated.steps("r-1")).isEqualTo(table.steps("r-1"));
            }
        }
        assertThat(count(oldUrl, "SELECT count(*) FROM steps")).isEqualTo(before.size());
    }

    @Test
    void stepChangesAnEarlierBuildWroteWithEveryFieldFoldAsTheyDidAndTheRunGoesOn() throws SQLException {
        String url = server.freshUrl();
        try (PostgresRunStore store = open(url, true)) {
            store.createRun(run("r-1"), new Lease("runner", T0.plusSeconds(30)), List.of());
            try (Connection connection =
                            DriverManager.getConnection(DatabaseUrl.parse(url).jdbcUrl());
                    PreparedStatement insert =
                            connection.prepareStatement("INSERT INTO journal (run_id, steps) VALUES (?, ?)")) {
                for (String steps : SqliteStepJournalTest.stepsAsAnEarlierBuildWroteThem()) {
                    insert.setString(1, "r-1");
                    insert.setString(2, steps);
                    insert.executeUpdate();
                }
            }

            assertThat(store.steps("r-1")).isEqualTo(SqliteStepJournalTest.stepsAnEarlierBuildWrote("r-1"));
            SqliteStepJournalTest.assertThatTheRunGoesOnOverThem(store, "r-1");
        }
    }

    private static PostgresRunStore open(String url, boolean stepsInJournal) {
        return PostgresRunStore.open(DatabaseUrl.parse(url), PAYLOAD_LIMIT, stepsInJournal);
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection connection =
                        DriverManager.getConnection(DatabaseUrl.parse(url).jdbcUrl());
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static long count(String url, String sql) throws SQLException {
        try (Connection connection =
                        DriverManager.getConnection(DatabaseUrl.parse(url).jdbcUrl());
                Statement select = connection.createStatement();
                ResultSet row = select.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}
