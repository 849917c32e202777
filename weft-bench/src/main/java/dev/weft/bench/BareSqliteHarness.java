package dev.weft.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * The floor under every SQLite checkpointer on this machine: no engine at all, only plain JDBC writing
 * one small row per step (the step's counter as its state) into a one-table SQLite file, with the
 * settings Weft's store uses (WAL, {@code synchronous=NORMAL}), through the same driver, on the same
 * disk. Either each step's row is committed before the next step (what {@code checkpoint=sqlite}
 * promises), or a run's rows are committed together at its end (the least an engine whose result
 * comes after its last commit can do, as {@code checkpoint=sqlite-async} does). An engine's cost
 * over this line is its own; what this line costs, the disk and SQLite cost. Used by one thread.
 */
final class BareSqliteHarness implements GraphHarness {
    private final GraphShape shape;
    private final boolean commitEveryStep;
    private final Path directory;
    private final Connection connection;
    private final PreparedStatement begin;
    private final PreparedStatement commit;
    private final PreparedStatement insert;
    private long runs;

    private BareSqliteHarness(GraphShape shape, boolean commitEveryStep) {
        this.shape = shape;
        this.commitEveryStep = commitEveryStep;
        try {
            this.directory = Files.createTempDirectory("weft-bench-bare");
            SQLiteConfig config = new SQLiteConfig();
            config.setJournalMode(SQLiteConfig.JournalMode.WAL);
            config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
            config.setGetGeneratedKeys(false);
            SQLiteDataSource source = new SQLiteDataSource(config);
            source.setUrl("jdbc:sqlite:" + directory.resolve("bare.db"));
            this.connection = source.getConnection();
            try (Statement create = connection.createStatement()) {
                create.execute("CREATE TABLE checkpoints (run_id TEXT NOT NULL, step INTEGER NOT NULL,"
                        + " state TEXT NOT NULL, PRIMARY KEY (run_id, step)) WITHOUT ROWID");
            }
            this.begin = connection.prepareStatement("BEGIN IMMEDIATE");
            this.commit = connection.prepareStatement("COMMIT");
            this.insert = connection.prepareStatement("INSERT INTO checkpoints (run_id, step, state) VALUES (?, ?, ?)");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException("could not set up the bare SQLite file: " + e.getMessage(), e);
        }
    }

    /** One transaction per step: each step's row is committed before the next step starts. */
    static BareSqliteHarness committingEveryStep(GraphShape shape) {
        return new BareSqliteHarness(shape, true);
    }

    /** One transaction per run: a run's rows are committed together when it ends. */
    static BareSqliteHarness committingOncePerRun(GraphShape shape) {
        return new BareSqliteHarness(shape, false);
    }

    @Override
    public int runOnce() {
        String runId = String.format(Locale.ROOT, "run-%012d", runs++);
        int count = 0;
        try {
            if (!commitEveryStep) {
                begin.execute();
            }
            while (count < shape.stepsPerRun()) {
                count++;
                if (commitEveryStep) {
                    begin.execute();
                }
                insert.setString(1, runId);
                insert.setInt(2, count);
                insert.setString(3, "{\"count\":" + count + "}");
                insert.executeUpdate();
                if (commitEveryStep) {
                    commit.execute();
                }
            }
            if (!commitEveryStep) {
                commit.execute();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("bare SQLite run " + runId + " failed: " + e.getMessage(), e);
        }
        return count;
    }

    /** The rows written so far (and not forgotten): one per step. */
    long rows() {
        try (Statement select = connection.createStatement();
                ResultSet row = select.executeQuery("SELECT count(*) FROM checkpoints")) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs the graph once on an emptied write-ahead log and returns the frames (pages) the run wrote
     * to it: at least one per commit.
     */
    long walFramesOfOneRun() {
        try (Statement pragma = connection.createStatement()) {
            pragma.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)").close();
            runOnce();
            try (ResultSet row = pragma.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
                row.next();
                return row.getLong(2); // busy, frames in the log, frames copied back
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void forgetRuns() {
        try (Statement delete = connection.createStatement()) {
            delete.execute("DELETE FROM checkpoints");
        } catch (SQLException e) {
            throw new IllegalStateException("could not empty the bare SQLite file: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            // Nothing is pending: every run committed.
        }
        try (var files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            // A temporary directory left behind; nothing else depends on it.
        }
    }
}
