package dev.weft.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.weft.core.ErrorCode;
import dev.weft.core.LeaseLostException;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunError;
import dev.weft.core.RunStateException;
import dev.weft.core.WeftException;
import dev.weft.core.spi.Changes;
import dev.weft.core.spi.RunStore.Lease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.postgresql.ds.PGSimpleDataSource;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * A run store in PostgreSQL, shared by every Weft process that points at it. Its tables live in the
 * schema named by the URL's {@code currentSchema}, {@code weft} by default, so they never meet an
 * application's own. Thread-safe.
 */
final class PostgresRunStore extends JdbcRunStore {
    static final String DEFAULT_SCHEMA = "weft";

    private static final int CONNECTIONS = 8;
    private static final int CONNECT_TIMEOUT_SECONDS = 10;
    private static final Pattern CURRENT_SCHEMA = Pattern.compile("[?&]currentSchema=([^&,]+)");

    /** Migration V2's function: {@link #apply} in one statement, so one round trip. */
    private static final String APPLY = "SELECT weft_apply(?, ?, ?::jsonb)";

    /** A new run's insert, then {@link #APPLY} of its first changes: see {@link #insertClaimedRun}. */
    private static final String CREATE_AND_APPLY = INSERT_NEW_RUN + ";\n" + APPLY;

    /**
     * A new run's insert, then the journal row of its first changes: see {@link #insertClaimedRun}.
     * No lease read and no lock: nobody sees the run before this transaction commits.
     */
    private static final String CREATE_AND_JOURNAL =
            INSERT_NEW_RUN + ";\nINSERT INTO journal (run_id, events, checkpoints, steps) VALUES (?, ?, ?, ?)";

    /**
     * A run's last batch (its last step's journal row and its end) as one plain statement,
     * auto-committed, as {@link #insertOwnedJournal} writes a step's: the lease read locks the run's
     * row FOR NO KEY UPDATE, the run is ended only if the read found it free or {@code owner}'s and
     * its status is one the update expects (weft_apply's {@code "r"}: the same columns), and the
     * journal row is written only if it was. The row locked by {@code w} may be updated by {@code u}
     * in the same statement: the lock is this transaction's. No row back: the run is gone, another
     * holds it or its status moved, and weft_apply then says which.
     */
    private static final String END_OWNED_RUN = "WITH p AS (SELECT ?::text AS run_id, ?::text AS events,"
            + " ?::text AS checkpoints, ?::text AS steps, ?::text AS owner, ?::text AS status, ?::text AS output,"
            + " ?::text AS output_ref, ?::text AS error_code, ?::text AS error_message, ?::bigint AS ended_at,"
            + " ?::text AS expected),"
            + " w AS (SELECT r.id, r.cancel_requested FROM runs r, p WHERE r.id = p.run_id"
            + " AND (r.lease_owner IS NULL OR r.lease_owner = p.owner) FOR NO KEY UPDATE OF r),"
            + " u AS (UPDATE runs r SET status = p.status, output = p.output, output_ref = p.output_ref,"
            + " error_code = p.error_code, error_message = p.error_message, ended_at = p.ended_at"
            + " FROM w, p WHERE r.id = w.id AND strpos(p.expected, ',' || r.status || ',') > 0 RETURNING r.id),"
            + " j AS (INSERT INTO journal (run_id, events, checkpoints, steps)"
            + " SELECT u.id, p.events, p.checkpoints, p.steps FROM u, p)"
            + " SELECT w.cancel_requested FROM w, u";

    /** Batches longer than this (in chars) go statement by statement, as {@link JdbcRunStore} writes them. */
    private static final int LARGEST_BATCH = 16 * 1024 * 1024;

    private static final String UNIQUE_VIOLATION = "23505";
    private static final String LEASE_LOST = "WF001";
    private static final String NO_RUN = "WF002";
    private static final String RUN_MOVED = "WF003";

    private PostgresRunStore(DatabaseUrl url, HikariDataSource pool, long payloadLimit, boolean stepsInJournal) {
        super(url, pool, pool, payloadLimit, stepsInJournal);
    }

    static PostgresRunStore open(DatabaseUrl url, long payloadLimit) {
        return open(url, payloadLimit, true);
    }

    /**
     * Opens the store; {@code stepsInJournal} false writes steps to their table as before migration
     * V9, which tests compare the journal's way with.
     */
    static PostgresRunStore open(DatabaseUrl url, long payloadLimit, boolean stepsInJournal) {
        PGSimpleDataSource direct = new PGSimpleDataSource();
        try {
            direct.setURL(url.jdbcUrl());
        } catch (IllegalArgumentException e) {
            throw Migrations.unavailable(url, "the URL is malformed: " + e.getMessage(), e);
        }
        url.user().ifPresent(direct::setUser);
        url.password().ifPresent(direct::setPassword);
        String schema = schema(url.jdbcUrl());
        direct.setCurrentSchema(schema);
        if (!url.jdbcUrl().contains("connectTimeout=")) {
            direct.setConnectTimeout(CONNECT_TIMEOUT_SECONDS);
        }
        direct.setApplicationName("weft");
        if (!Migrations.probe(url, direct, "postgresql", "SELECT 1")) {
            Migrations.migrate(url, direct, "postgresql", Optional.of(schema));
        }
        try {
            HikariConfig config = new HikariConfig();
            config.setDataSource(direct);
            config.setPoolName("weft-postgresql");
            config.setMaximumPoolSize(CONNECTIONS);
            config.setMinimumIdle(1);
            config.setConnectionTimeout(CONNECT_TIMEOUT_SECONDS * 3_000L);
            return new PostgresRunStore(url, new HikariDataSource(config), payloadLimit, stepsInJournal);
        } catch (RuntimeException e) {
            throw Migrations.unavailable(url, Failures.oneLine(e), e);
        }
    }

    static String schema(String jdbcUrl) {
        Matcher matcher = CURRENT_SCHEMA.matcher(jdbcUrl);
        return matcher.find() ? matcher.group(1) : DEFAULT_SCHEMA;
    }

    /**
     * A step's plain batch is one statement ({@link #insertOwnedJournal}), and so is a run's last
     * ({@link #END_OWNED_RUN}); any other, or one that
     * statement did not write, goes to the server as one JSON argument of {@code weft_apply}, which checks the lease,
     * applies the changes in order and reads the cancellation; run in autocommit mode, the call is one
     * transaction, committed before its reply: one round trip instead of one per kind of change, and
     * two more for the lease read and the commit.
     */
    @Override
    public boolean apply(String runId, String owner, List<Change> changes) {
        if (!stepsInJournal()) {
            // The steps table's way, only to compare with in tests: V9's weft_apply journals steps.
            return super.apply(runId, owner, changes);
        }
        List<Change> coalesced = Changes.coalesce(changes);
        Payloads.Pending pending = payloads().pending();
        JournalBatch journal = journalBatch(coalesced, pending);
        Boolean cancelRequested = journal.runUpdate() == null
                ? applyOwnedJournal(runId, owner, journal, pending)
                : endOwnedRun(runId, owner, journal, pending);
        if (cancelRequested != null) {
            return cancelRequested;
        }
        // Not one plain row, or nothing written: weft_apply reads the lease again and says which.
        String batch = PostgresBatch.write(runId, journal, pending);
        if (batch.length() > LARGEST_BATCH) {
            // A JSONB string holds at most 256 MiB; a batch this large gains nothing from one round trip.
            return super.apply(runId, owner, changes);
        }
        return autocommit("apply the changes of run " + runId, sql -> {
            pending.rememberOnCommit(sql);
            PreparedStatement call = sql.prepare(APPLY);
            call.setString(1, runId);
            call.setString(2, owner);
            call.setString(3, batch);
            try (ResultSet row = call.executeQuery()) {
                row.next();
                return row.getBoolean(1);
            } catch (SQLException e) {
                throw applyFailure(runId, e);
            }
        });
    }

    /**
     * A batch that ends its run ({@link JdbcRunStore#journalBatch}), written by {@link #END_OWNED_RUN}
     * if it is one journal row of {@code runId}'s and the end of that run, with no payload to write,
     * and the run's cancellation if it was. Null if the batch is not of that kind or nothing was
     * written: the caller then sends it to weft_apply.
     */
    private @Nullable Boolean endOwnedRun(String runId, String owner, JournalBatch journal, Payloads.Pending pending) {
        Change.UpdateRun end = journal.runUpdate();
        Journal.Row only = journal.rows().only(runId);
        if (end == null
                || only == null
                || pending.hasPayloads()
                || !end.run().id().equals(runId)) {
            return null;
        }
        Run run = end.run();
        Payloads.Stored output = pending.store(runId, run.output());
        if (pending.hasPayloads()) {
            return null; // a big output: weft_apply writes its payload in the same call
        }
        return autocommit("end run " + runId, sql -> {
            PreparedStatement update = sql.prepare(END_OWNED_RUN);
            update.setString(1, runId);
            update.setString(2, only.events());
            update.setString(3, only.checkpoints());
            update.setString(4, only.steps());
            update.setString(5, owner);
            update.setString(6, run.status().name());
            update.setString(7, output.text());
            update.setString(8, output.ref());
            update.setString(9, run.error().map(e -> e.code().name()).orElse(null));
            update.setString(10, run.error().map(RunError::message).orElse(null));
            if (run.endedAt().isPresent()) {
                update.setLong(11, JsonText.nanos(run.endedAt().get()));
            } else {
                update.setNull(11, Types.BIGINT);
            }
            update.setString(12, statuses(end.expected()));
            try (ResultSet row = update.executeQuery()) {
                return row.next() ? row.getBoolean(1) : null;
            }
        });
    }

    /** What {@code weft_apply} raised, as the exception {@link #apply} promises; others as they are. */
    private SQLException applyFailure(String runId, SQLException e) {
        if (LEASE_LOST.equals(e.getSQLState())) {
            throw new LeaseLostException(runId, serverMessage(e));
        }
        if (RUN_MOVED.equals(e.getSQLState())) {
            throw new RunStateException("run '" + runId + "' is no longer RUNNING; its changes were not applied");
        }
        if (NO_RUN.equals(e.getSQLState()) || isForeignKeyViolation(e)) {
            throw new NotFoundException("no run '" + runId + "' in this store");
        }
        return e;
    }

    /**
     * The run's insert and {@code weft_apply} as one query of two statements: the driver sends both
     * before it waits (one Sync), so the server runs them as one implicit transaction, committed
     * before its reply, and a failure of either rolls both back. One round trip where the insert,
     * the batches of steps and of journal rows, and the commit took four.
     */
    @Override
    void insertClaimedRun(Run run, Lease lease, List<Change> changes) {
        boolean created = stepsInJournal()
                && !changes.isEmpty()
                && autocommit("create run " + run.id(), sql -> {
                    Payloads.Pending pending = payloads().pending();
                    JournalBatch journal = journalBatch(changes, pending);
                    Journal.Row only =
                            journal.runUpdate() == null ? journal.rows().only(run.id()) : null;
                    if (only != null) {
                        PreparedStatement both = sql.prepare(CREATE_AND_JOURNAL);
                        int next = bindRunInsert(both, run, Optional.of(lease), pending);
                        if (!pending.hasPayloads()) {
                            both.setString(next, run.id());
                            both.setString(next + 1, only.events());
                            both.setString(next + 2, only.checkpoints());
                            both.setString(next + 3, only.steps());
                            return executeCreate(both, run);
                        }
                        // A big value to store apart: the next way writes it in the same call.
                        both.clearParameters();
                        pending = payloads().pending();
                    }
                    PreparedStatement both = sql.prepare(CREATE_AND_APPLY);
                    int next = bindRunInsert(both, run, Optional.of(lease), pending);
                    String batch = PostgresBatch.write(run.id(), changes, pending, true);
                    if (batch.length() > LARGEST_BATCH) {
                        return false; // nothing sent: written the other way, below
                    }
                    pending.rememberOnCommit(sql);
                    both.setString(next, run.id());
                    both.setString(next + 1, lease.owner());
                    both.setString(next + 2, batch);
                    return executeCreate(both, run);
                });
        if (!created) {
            super.insertClaimedRun(run, lease, changes);
        }
    }

    /** Sends a new run's insert and its first changes, bound in {@code both}: true once committed. */
    private boolean executeCreate(PreparedStatement both, Run run) throws SQLException {
        try {
            both.execute();
        } catch (SQLException e) {
            if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "a run with id '" + run.id() + "' already exists");
            }
            throw applyFailure(run.id(), e);
        }
        return true;
    }

    /** The message the server raised, without the driver's decoration. */
    private static String serverMessage(SQLException e) {
        if (e instanceof PSQLException server) {
            ServerErrorMessage message = server.getServerErrorMessage();
            if (message != null && message.getMessage() != null) {
                return message.getMessage();
            }
        }
        return String.valueOf(e.getMessage());
    }

    @Override
    String insertJournal() {
        return "INSERT INTO journal (run_id, events, checkpoints, steps) VALUES (?, ?, ?, ?)";
    }

    @Override
    boolean journalHoldsSteps() {
        return true;
    }

    /**
     * One plain statement, auto-committed: the lease's read locks the run's row FOR NO KEY UPDATE, so
     * claims and cancel requests wait for the commit and the run's writers take turns (its journal's
     * seq order is its commit order, which {@link StepFold} needs); the journal row is written only if
     * the read found the run free or {@code owner}'s, and the run's cancellation comes back in the
     * same reply. A data-modifying WITH runs whether or not the outer query reads it. The parameters
     * come first, once each, in {@link JdbcRunStore}'s order. No row: the run is gone or another
     * holds it, which weft_apply then tells apart. One round trip and no function call where
     * weft_apply parsed a JSON batch and ran a statement per change.
     */
    @Override
    String insertOwnedJournal() {
        return "WITH p AS (SELECT ?::text AS run_id, ?::text AS events, ?::text AS checkpoints, ?::text AS steps,"
                + " ?::text AS owner),"
                + " w AS (SELECT r.id, r.cancel_requested FROM runs r, p WHERE r.id = p.run_id"
                + " AND (r.lease_owner IS NULL OR r.lease_owner = p.owner) FOR NO KEY UPDATE OF r),"
                + " j AS (INSERT INTO journal (run_id, events, checkpoints, steps)"
                + " SELECT w.id, p.events, p.checkpoints, p.steps FROM w, p)"
                + " SELECT cancel_requested FROM w";
    }

    @Override
    void lockRunForSteps(Sql sql, String runId) throws SQLException {
        PreparedStatement lock = sql.prepare("SELECT 1 FROM runs WHERE id = ? FOR NO KEY UPDATE");
        lock.setString(1, runId);
        lock.executeQuery().close();
    }

    @Override
    String hasStatusIn(String column) {
        return "(strpos(?, ',' || " + column + " || ',') > 0)";
    }

    @Override
    String lockingRead() {
        // Holds claims and cancel requests (both UPDATEs of the row) until this transaction ends, and
        // other writers of the run's steps (see insertOwnedJournal).
        return " FOR NO KEY UPDATE";
    }

    @Override
    void begin(Sql sql) throws SQLException {
        sql.connection().setAutoCommit(false);
    }

    @Override
    void commit(Sql sql) throws SQLException {
        sql.connection().commit();
        sql.connection().setAutoCommit(true);
    }

    @Override
    void rollback(Sql sql) throws SQLException {
        sql.connection().rollback();
        sql.connection().setAutoCommit(true);
    }

    @Override
    @Nullable
    Map<String, PreparedStatement> statementCache(Connection connection) {
        // The driver keeps server-side prepared statements per connection, by SQL text.
        return null;
    }

    @Override
    boolean isForeignKeyViolation(SQLException e) {
        return "23503".equals(e.getSQLState());
    }
}
