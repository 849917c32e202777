package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.weft.core.LeaseLostException;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
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
}
