package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract, and what a durable store adds, on a fresh SQLite file per test. */
final class SqliteRunStoreTest extends DurableRunStoreContract {
    @TempDir
    Path directory;

    @Override
    protected String freshUrl() {
        return "sqlite:" + directory.resolve("weft.db");
    }

    @Override
    protected boolean stepsInJournal() {
        return true;
    }

    @Test
    void theWriterLeavesCopyingTheWalBackToTheBackgroundUntilItIsTenTimesSQLitesDefault() throws Exception {
        try (SqliteRunStore opened = (SqliteRunStore) Stores.open(freshUrl())) {
            int writers = opened.write("read the writer's setting", SqliteRunStoreTest::autocheckpointPages);
            int readers = opened.read("read a reader's setting", SqliteRunStoreTest::autocheckpointPages);

            assertThat(writers)
                    .isEqualTo(SqliteRunStore.WRITER_AUTOCHECKPOINT_PAGES)
                    .isEqualTo(10_000);
            assertThat(readers).isEqualTo(1_000);
        }
    }

    @Override
    protected String plan(String statement, Object... parameters) throws SQLException {
        try (Connection connection = connect();
                PreparedStatement explain = connection.prepareStatement("EXPLAIN QUERY PLAN " + statement)) {
            for (int i = 0; i < parameters.length; i++) {
                explain.setObject(i + 1, parameters[i]);
            }
            StringBuilder plan = new StringBuilder();
            try (ResultSet row = explain.executeQuery()) {
                while (row.next()) {
                    plan.append(row.getString("detail")).append('\n');
                }
            }
            return plan.toString();
        }
    }

    private static int autocheckpointPages(Sql sql) throws SQLException {
        try (ResultSet row = sql.prepare("PRAGMA wal_autocheckpoint").executeQuery()) {
            row.next();
            return row.getInt(1);
        }
    }
}
