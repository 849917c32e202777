package dev.weft.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The floor under every PostgreSQL checkpointer on this machine: no engine at all, only plain JDBC
 * writing one small row per step (the step's counter as its state) into a one-table schema of the
 * same embedded server Weft's PostgreSQL rows use ({@link DurableStores#postgresUrl}), through the
 * same driver. Either each step's row is committed on its own before the next step (an
 * auto-committed {@code INSERT}: one round trip, the least a step made durable before the next can
 * cost), or a run's rows are committed together at its end. An engine's cost over this line is its
 * own; what this line costs, the server, the socket and the disk cost. Used by one thread.
 */
final class BarePostgresHarness implements GraphHarness {
    static final String SCHEMA = "bare_floor";
    // Each harness has a table of its own, so that two alive at once (a test compares them) do not
    // see each other's rows.
    private static final AtomicInteger TABLES = new AtomicInteger();

    private final GraphShape shape;
    private final boolean commitEveryStep;
    private final String table;
    private final Connection connection;
    private final PreparedStatement insert;
    private long runs;

    private BarePostgresHarness(GraphShape shape, boolean commitEveryStep) {
        this.shape = shape;
        this.commitEveryStep = commitEveryStep;
        this.table = SCHEMA + ".checkpoints_" + TABLES.incrementAndGet();
        try {
            this.connection = DriverManager.getConnection(DurableStores.postgresUrl("public"));
            try (Statement create = connection.createStatement()) {
                create.execute("CREATE SCHEMA IF NOT EXISTS " + SCHEMA);
                create.execute("DROP TABLE IF EXISTS " + table);
                create.execute("CREATE TABLE " + table + " (run_id TEXT NOT NULL, step INTEGER NOT NULL,"
                        + " state TEXT NOT NULL, PRIMARY KEY (run_id, step))");
            }
            this.insert =
                    connection.prepareStatement("INSERT INTO " + table + " (run_id, step, state) VALUES (?, ?, ?)");
            connection.setAutoCommit(commitEveryStep);
        } catch (SQLException e) {
            throw new IllegalStateException("could not set up the bare PostgreSQL table: " + e.getMessage(), e);
        }
    }

    /** One transaction per step: each step's row is committed before the next step starts. */
    static BarePostgresHarness committingEveryStep(GraphShape shape) {
        return new BarePostgresHarness(shape, true);
    }

    /** One transaction per run: a run's rows are committed together when it ends. */
    static BarePostgresHarness committingOncePerRun(GraphShape shape) {
        return new BarePostgresHarness(shape, false);
    }

    @Override
    public int runOnce() {
        String runId = String.format(Locale.ROOT, "run-%012d", runs++);
        int count = 0;
        try {
            while (count < shape.stepsPerRun()) {
                count++;
                insert.setString(1, runId);
                insert.setInt(2, count);
                insert.setString(3, "{\"count\":" + count + "}");
                insert.executeUpdate();
            }
            if (!commitEveryStep) {
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("bare PostgreSQL run " + runId + " failed: " + e.getMessage(), e);
        }
        return count;
    }

    /** The rows written so far (and not forgotten): one per step. */
    long rows() {
        try (Statement select = connection.createStatement();
                ResultSet row = select.executeQuery("SELECT count(*) FROM " + table)) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs the graph once and returns how many transaction ids the server handed out meanwhile: one
     * per committed transaction that wrote, so one per step or one per run.
     */
    long transactionsOfOneRun() {
        try {
            long before = currentTransactionId();
            runOnce();
            return currentTransactionId() - before;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    // Asking for the current id assigns one, so the reading itself is a transaction of its own.
    private long currentTransactionId() throws SQLException {
        try (Statement select = connection.createStatement();
                ResultSet row = select.executeQuery("SELECT txid_current()")) {
            row.next();
            long id = row.getLong(1);
            if (!commitEveryStep) {
                connection.commit();
            }
            return id;
        }
    }

    @Override
    public void forgetRuns() {
        try (Statement delete = connection.createStatement()) {
            delete.execute("TRUNCATE " + table);
            if (!commitEveryStep) {
                connection.commit();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("could not empty the bare PostgreSQL table: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try (connection;
                Statement drop = connection.createStatement()) {
            connection.setAutoCommit(true);
            drop.execute("DROP TABLE IF EXISTS " + table);
        } catch (SQLException e) {
            // A table left behind in the benchmark's own embedded server, which goes with the JVM.
        }
    }
}
