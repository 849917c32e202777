package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.LeaseLostException;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore.Change;
import dev.weft.core.spi.RunStore.Lease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The store contract, and what a durable store adds, on a real PostgreSQL server, a fresh schema per test. */
final class PostgresRunStoreTest extends DurableRunStoreContract {
    @Override
    protected String freshUrl() {
        return EmbeddedPostgres.shared().freshUrl();
    }

    @Override
    protected boolean stepsInJournal() {
        return true;
    }

    @Override
    protected String plan(String statement, Object... parameters) throws SQLException {
        try (Connection connection = connect();
                Statement settings = connection.createStatement();
                PreparedStatement explain = connection.prepareStatement("EXPLAIN " + statement)) {
            // The tables are nearly empty, where a scan is cheapest: ask for the plan an index allows.
            settings.execute("SET enable_seqscan = off");
            for (int i = 0; i < parameters.length; i++) {
                explain.setObject(i + 1, parameters[i]);
            }
            StringBuilder plan = new StringBuilder();
            try (ResultSet row = explain.executeQuery()) {
                while (row.next()) {
                    plan.append(row.getString(1)).append('\n');
                }
            }
            return plan.toString();
        }
    }

    @Test
    void aBatchTooLargeForOneCallIsWrittenStatementByStatement() {
        Run run = run(UUID.randomUUID().toString(), RunStatus.RUNNING, T0);
        store.createRun(run);
        Step pending = step(run.id(), 1, StepStatus.PENDING);
        // 17 M chars: over the batch size weft_apply is given, so apply falls back to plain statements.
        Step done = pending.finished(
                StepStatus.COMPLETED, TextNode.valueOf("x".repeat(17 * 1024 * 1024)), Optional.empty(), T0, Map.of());

        boolean cancelRequested = store.apply(
                run.id(),
                "runner",
                List.of(new Change.InsertStep(pending), new Change.UpdateStep(done, Set.of(StepStatus.PENDING))));

        assertThat(cancelRequested).isFalse();
        assertThat(store.steps(run.id())).containsExactly(done);
        assertThat(store.claim(run.id(), new Lease("other", T0.plusSeconds(60)), T0))
                .isTrue();
        assertThatThrownBy(() -> store.apply(
                        run.id(), "runner", List.of(new Change.UpdateStep(done, Set.of(StepStatus.PENDING)))))
                .isInstanceOf(LeaseLostException.class);
    }

    @Test
    void aRunCreatedWithItsFirstChangesIsWrittenByOneTransaction() throws SQLException {
        Run run = run(UUID.randomUUID().toString(), RunStatus.RUNNING, T0);
        Step pending = step(run.id(), 1, StepStatus.PENDING);
        Step running = step(run.id(), 1, StepStatus.RUNNING);

        store.createRun(run, new Lease("runner", T0.plusSeconds(30)), firstChanges(pending, running));

        assertThat(store.findRun(run.id())).contains(run);
        assertThat(store.steps(run.id())).containsExactly(running);
        assertThat(store.events(run.id())).extracting(Event::type).containsExactly(Event.RUN_STARTED);
        assertThat(transactionsThatWrote(run.id())).hasSize(1);
    }

    @Test
    void aRunCreatedWithAnIdInUseIsBadInputAndChangesNothing() throws SQLException {
        Run run = run(UUID.randomUUID().toString(), RunStatus.RUNNING, T0);
        Step pending = step(run.id(), 1, StepStatus.PENDING);
        Step running = step(run.id(), 1, StepStatus.RUNNING);
        Lease lease = new Lease("runner", T0.plusSeconds(30));
        store.createRun(run, lease, firstChanges(pending, running));
        List<Long> before = transactionsThatWrote(run.id());
        Step other = step(run.id(), 2, StepStatus.PENDING);

        assertThatThrownBy(() -> store.createRun(
                        run, new Lease("intruder", T0.plusSeconds(30)), List.of(new Change.InsertStep(other))))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("already exists")
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_BAD_INPUT));
        assertThat(store.steps(run.id())).containsExactly(running);
        assertThat(transactionsThatWrote(run.id())).isEqualTo(before);
    }

    /** What a runner creates a run with: its first step, started, and the run's first event. */
    private static List<Change> firstChanges(Step pending, Step running) {
        return List.of(
                new Change.InsertStep(pending),
                new Change.UpdateStep(running, Set.of(StepStatus.PENDING)),
                new Change.AppendEvent(new Event(
                        pending.runId(),
                        1,
                        Event.RUN_STARTED,
                        Optional.empty(),
                        0,
                        T0,
                        com.fasterxml.jackson.databind.node.NullNode.getInstance())));
    }

    /** The ids of the transactions that wrote the run's rows (its own, its steps', its journal's). */
    private List<Long> transactionsThatWrote(String runId) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement select = connection.prepareStatement("SELECT DISTINCT xmin::text::bigint FROM ("
                        + " SELECT xmin FROM runs WHERE id = ?"
                        + " UNION ALL SELECT xmin FROM steps WHERE run_id = ?"
                        + " UNION ALL SELECT xmin FROM journal WHERE run_id = ?) AS rows ORDER BY 1")) {
            for (int i = 1; i <= 3; i++) {
                select.setString(i, runId);
            }
            List<Long> ids = new java.util.ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    ids.add(row.getLong(1));
                }
            }
            return ids;
        }
    }
}
