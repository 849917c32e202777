package dev.weft.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariDataSource;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.LeaseLostException;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunError;
import dev.weft.core.RunStateException;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.WeftException;
import dev.weft.core.spi.Changes;
import dev.weft.core.spi.Checkpoint;
import dev.weft.core.spi.RunStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A {@link RunStore} over JDBC: the SQL both dialects share. Every write is one transaction on a
 * connection from the write pool; status changes are conditional {@code UPDATE}s. Thread-safe.
 */
abstract class JdbcRunStore implements RunStore {
    private static final String RUN_COLUMNS = "id, graph_id, parent_run_id, status, input, input_ref, variables, pins,"
            + " output, output_ref, error_code, error_message, created_at, ended_at, source, user_id";
    private static final String STEP_COLUMNS = "run_id, step_order, node_id, name, type, status, attempt, pinned,"
            + " input, input_ref, output, output_ref, error_code, error_message, started_at, ended_at, details";
    private static final String FINISHED = ",COMPLETED,FAILED,CANCELLED,";

    /** A run's insert that fails, with the unique key's error, if a run has its id. */
    static final String INSERT_NEW_RUN = "INSERT INTO runs (" + RUN_COLUMNS
            + ", lease_owner, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private static final String INSERT_RUN = INSERT_NEW_RUN + " ON CONFLICT (id) DO NOTHING";
    /**
     * Whether a run has not finished, literally, as the condition of the partial index
     * {@code runs_by_lease_owner} (migration V3 of SQLite, V5 of PostgreSQL) says it, so that a query
     * naming it may use that index. A parameter (as {@link #hasStatusIn} takes) would hide it from the
     * planner.
     */
    static final String IS_UNFINISHED = "status IN ('PENDING', 'RUNNING', 'WAITING')";
    /** Whether a run has finished, literally, so that pruning finds finished runs through {@code runs_by_status}. */
    static final String IS_FINISHED = "status IN ('COMPLETED', 'FAILED', 'CANCELLED')";

    private static final String SELECT_RUNS = "SELECT " + RUN_COLUMNS + " FROM runs";
    private static final String INSERT_STEP = "INSERT INTO steps (" + STEP_COLUMNS
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, step_order) DO NOTHING";
    /** The parameters of {@link #INSERT_STEP}: the key and every other step column. */
    private static final int STEP_INSERT_PARAMETERS = 17;

    /** Renews the leases of an owner's runs: the new end, the owner. */
    static final String RENEW = "UPDATE runs SET lease_until = ? WHERE lease_owner = ? AND " + IS_UNFINISHED;
    /** Deletes the runs that ended before a cutoff, given twice (see {@link #pruneRuns}). */
    static final String PRUNE = "DELETE FROM runs WHERE " + IS_FINISHED + " AND created_at < ? AND ended_at < ?";

    /**
     * Deletes the idempotency results stored before a cutoff but those of runs not yet finished: a
     * correlated look at the unfinished runs only (few, and found by the status index). A run id with
     * a '_' or '%' in it matches more keys, so keeps more: never fewer.
     */
    static final String PRUNE_IDEMPOTENCY = "DELETE FROM idempotency WHERE created_at < ? AND NOT EXISTS"
            + " (SELECT 1 FROM runs r WHERE NOT r." + IS_FINISHED + " AND (idempotency.key LIKE r.id || '/%'"
            + " OR idempotency.key LIKE 'weft.queued:' || r.id || '/%'))";

    private static final String SELECT_CANCEL = "SELECT cancel_requested FROM runs WHERE id = ?";
    private static final int RUN_COLUMN_COUNT = RUN_COLUMNS.split(",").length;
    /** The run's columns and cancellation (null if there is no run), then the stored result (or null). */
    private static final String SELECT_QUEUED_STEP = "SELECT r." + RUN_COLUMNS.replace(", ", ", r.")
            + ", r.cancel_requested, (SELECT result FROM idempotency WHERE key = ?)"
            + " FROM (SELECT 1 AS one) AS one LEFT JOIN runs r ON r.id = ?";

    private static final String CLAIM = "UPDATE runs SET lease_owner = ?, lease_until = ? WHERE id = ?"
            + " AND (status <> ? OR lease_owner IS NULL OR lease_owner = ? OR lease_until < ?)";

    private final DatabaseUrl url;
    private final HikariDataSource writes;
    private final HikariDataSource reads;
    private final Payloads payloads;
    private final String updateRun;
    private final String updateStep;
    private final String upsertStep;
    private final String requestCancel;
    private final String selectWriter;
    /**
     * Whether step changes are written to the journal rather than the steps table (SQLite from V8 on;
     * off only to compare with the table's way in tests). Readers fold both either way.
     */
    private final boolean stepsInJournal;

    JdbcRunStore(
            DatabaseUrl url,
            HikariDataSource writes,
            HikariDataSource reads,
            long payloadLimit,
            boolean stepsInJournal) {
        this.url = url;
        this.stepsInJournal = stepsInJournal;
        this.writes = writes;
        this.reads = reads;
        this.payloads = new Payloads(payloadLimit);
        this.updateRun = "UPDATE runs SET graph_id = ?, parent_run_id = ?, status = ?, input = ?, input_ref = ?,"
                + " variables = ?, pins = ?, output = ?, output_ref = ?, error_code = ?, error_message = ?,"
                + " created_at = ?, ended_at = ?, source = ?, user_id = ? WHERE id = ? AND " + hasStatusIn("status");
        this.updateStep = "UPDATE steps SET node_id = ?, name = ?, type = ?, status = ?, attempt = ?, pinned = ?,"
                + " input = ?, input_ref = ?, output = ?, output_ref = ?, error_code = ?, error_message = ?,"
                + " started_at = ?, ended_at = ?, details = ? WHERE run_id = ? AND step_order = ? AND "
                + hasStatusIn("status");
        this.upsertStep = INSERT_STEP.substring(0, INSERT_STEP.indexOf(" ON CONFLICT"))
                + " ON CONFLICT (run_id, step_order) DO UPDATE SET node_id = excluded.node_id, name = excluded.name,"
                + " type = excluded.type, status = excluded.status, attempt = excluded.attempt,"
                + " pinned = excluded.pinned, input = excluded.input, input_ref = excluded.input_ref,"
                + " output = excluded.output, output_ref = excluded.output_ref, error_code = excluded.error_code,"
                + " error_message = excluded.error_message, started_at = excluded.started_at,"
                + " ended_at = excluded.ended_at, details = excluded.details WHERE "
                + hasStatusIn("steps.status");
        this.requestCancel = "UPDATE runs SET cancel_requested = ? WHERE id = ? AND NOT " + hasStatusIn("status");
        this.selectWriter = "SELECT cancel_requested, lease_owner FROM runs WHERE id = ?" + lockingRead();
    }

    /** The database this store is in, for the tables an application keeps beside the runs ({@link AppDatabase}). */
    final DatabaseUrl url() {
        return url;
    }

    /** The pool of write connections, for an application's migrations ({@link AppDatabase#migrate}). */
    final HikariDataSource writePool() {
        return writes;
    }

    /** The payload limit's keeper, for a dialect that writes rows its own way. */
    final Payloads payloads() {
        return payloads;
    }

    // ---- What each dialect says its own way.

    /**
     * The statement that adds a row to the journal, with three parameters: the run, its events' text
     * and its checkpoints' text (either may be null), and a fourth, its step changes' text, where
     * {@link #journalHoldsSteps}. It numbers the row after the run's others.
     */
    abstract String insertJournal();

    /** Whether the journal has a column of step changes (SQLite's V8), which readers fold into the steps. */
    boolean journalHoldsSteps() {
        return false;
    }

    /**
     * A step's journal row written only if {@code owner} may write to the run, in one statement that
     * answers the run's cancellation in a row, and no row if the run is gone or another holds it: the
     * run, its events', checkpoints' and step changes' texts, the owner. Only where {@link
     * #journalHoldsSteps}.
     */
    String insertOwnedJournal() {
        throw new UnsupportedOperationException("the journal of this dialect holds no steps");
    }

    /** Whether this store writes step changes to the journal (see {@link StepFold}). */
    final boolean stepsInJournal() {
        return stepsInJournal;
    }

    /**
     * A condition true when {@code column}'s value is in the set given, as one parameter, by {@link
     * #statuses}: one statement text for any set, so drivers can reuse the prepared statement.
     */
    abstract String hasStatusIn(String column);

    /**
     * What ends the {@code SELECT} with which {@link #apply} reads the run's lease and cancellation, so
     * that neither can change before the transaction commits.
     */
    abstract String lockingRead();

    /** Starts a write transaction. */
    abstract void begin(Sql sql) throws SQLException;

    abstract void commit(Sql sql) throws SQLException;

    abstract void rollback(Sql sql) throws SQLException;

    /**
     * The prepared statements kept for {@code connection} across units of work, or null where the
     * driver keeps its own.
     */
    abstract @Nullable Map<String, PreparedStatement> statementCache(Connection connection) throws SQLException;

    /** The connection statements are prepared on: the pool's, or the physical one beneath it. */
    Connection statementConnection(Connection pooled) throws SQLException {
        return pooled;
    }

    abstract boolean isForeignKeyViolation(SQLException e);

    /** Called after each write transaction commits, still holding its connection. */
    void committed() {}

    // ---- Runs.

    @Override
    public void createRun(Run run) {
        write("create run " + run.id(), sql -> {
            insertRun(sql, run, Optional.empty());
            return null;
        });
    }

    /**
     * Inserts the run already claimed by {@code lease}, then applies {@code changes}. A run that ends
     * in them (a short run whose writer created it, under {@link dev.weft.core.Durability#ASYNC}) is
     * inserted as it ends: one row written once, where an insert and an update would write it and its
     * indexes twice.
     */
    @Override
    public void createRun(Run run, Lease lease, List<Change> changes) {
        List<Change> batch = Changes.coalesce(changes);
        int end = endIn(run, batch);
        Run inserted = end < 0 ? run : ((Change.UpdateRun) batch.get(end)).run();
        List<Change> rest = end < 0 ? batch : without(batch, end);
        insertClaimedRun(inserted, lease, rest);
    }

    /**
     * Inserts {@code run}, claimed by {@code lease}, and applies {@code changes} (already coalesced,
     * none of them the run's end) after it, in one transaction. A dialect that can send both in one
     * round trip overrides this.
     */
    void insertClaimedRun(Run run, Lease lease, List<Change> changes) {
        write("create run " + run.id(), sql -> {
            insertRun(sql, run, Optional.of(lease));
            if (!changes.isEmpty()) {
                applyChanges(sql, run.id(), changes, false, true);
            }
            return null;
        });
    }

    /** Where {@code batch} updates the run it creates, if it does so once and from its first status; or -1. */
    private static int endIn(Run run, List<Change> batch) {
        int found = -1;
        for (int i = 0; i < batch.size(); i++) {
            if (batch.get(i) instanceof Change.UpdateRun update
                    && update.run().id().equals(run.id())) {
                if (found >= 0 || !update.expected().contains(run.status())) {
                    return -1;
                }
                found = i;
            }
        }
        return found;
    }

    private static List<Change> without(List<Change> batch, int index) {
        List<Change> rest = new ArrayList<>(batch);
        rest.remove(index);
        return rest;
    }

    /**
     * Inserts the run, its big values apart, claimed by {@code lease} if there is one; a run with its
     * id is {@code E_BAD_INPUT}.
     */
    private void insertRun(Sql sql, Run run, Optional<Lease> lease) throws SQLException {
        Payloads.Pending pending = payloads.pending();
        PreparedStatement insert = sql.prepare(INSERT_RUN);
        bindRunInsert(insert, run, lease, pending);
        if (insert.executeUpdate() == 0) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "a run with id '" + run.id() + "' already exists");
        }
        pending.write(sql);
    }

    /**
     * Binds the parameters of {@link #INSERT_RUN} (and of {@link #INSERT_NEW_RUN}), from the first:
     * the run, its big values left in {@code pending}, and its lease; returns the next index.
     */
    final int bindRunInsert(PreparedStatement insert, Run run, Optional<Lease> lease, Payloads.Pending pending)
            throws SQLException {
        insert.setString(1, run.id());
        int next = bindRun(insert, 2, run, pending);
        insert.setString(next, lease.map(Lease::owner).orElse(null));
        if (lease.isPresent()) {
            insert.setLong(next + 1, JsonText.nanos(lease.get().until()));
        } else {
            insert.setNull(next + 1, Types.BIGINT);
        }
        return next + 2;
    }

    /** Binds every run column but the id, from {@code index} on; returns the next index. */
    private int bindRun(PreparedStatement statement, int index, Run run, Payloads.Pending pending) throws SQLException {
        int i = index;
        statement.setString(i++, run.graphId());
        statement.setString(i++, run.parentRunId().orElse(null));
        statement.setString(i++, run.status().name());
        i = bindValue(statement, i, pending.store(run.id(), run.input()));
        statement.setString(i++, JsonText.writeMap(run.variables()));
        statement.setString(i++, JsonText.writeMap(run.pins()));
        i = bindValue(statement, i, pending.store(run.id(), run.output()));
        statement.setString(i++, run.error().map(e -> e.code().name()).orElse(null));
        statement.setString(i++, run.error().map(RunError::message).orElse(null));
        statement.setLong(i++, JsonText.nanos(run.createdAt()));
        bindTime(statement, i++, run.endedAt());
        statement.setString(i++, JsonText.write(run.source()));
        statement.setString(i++, run.user().orElse(null));
        return i;
    }

    @Override
    public Optional<Run> findRun(String runId) {
        return read("find run " + runId, sql -> {
            PreparedStatement select = sql.prepare(SELECT_RUNS + " WHERE id = ?");
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(run(sql, row)) : Optional.<Run>empty();
            }
        });
    }

    @Override
    public boolean updateRun(Run run, Set<RunStatus> expected) {
        return write("update run " + run.id(), sql -> {
            Payloads.Pending pending = payloads.pending();
            boolean updated = updateRun(sql, run, expected, pending);
            if (updated) {
                pending.write(sql);
            }
            return updated;
        });
    }

    /** Replaces the run if its status is one of {@code expected}; its big values go to {@code pending}. */
    private boolean updateRun(Sql sql, Run run, Set<RunStatus> expected, Payloads.Pending pending) throws SQLException {
        PreparedStatement update = sql.prepare(updateRun);
        int i = bindRun(update, 1, run, pending);
        update.setString(i++, run.id());
        update.setString(i, statuses(expected));
        return update.executeUpdate() == 1;
    }

    @Override
    public RunPage listRuns(RunQuery query) {
        return read("list runs", sql -> {
            List<String> conditions = new ArrayList<>(2);
            query.status().ifPresent(s -> conditions.add("status = ?"));
            query.user().ifPresent(u -> conditions.add("user_id = ?"));
            String where = conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
            boolean paged = query.offset() > 0 || query.limit() < Integer.MAX_VALUE;
            PreparedStatement select = sql.prepare(
                    SELECT_RUNS + where + " ORDER BY created_at DESC, id" + (paged ? " LIMIT ? OFFSET ?" : ""));
            int index = bindFilter(select, query);
            if (paged) {
                select.setInt(index++, query.limit());
                select.setInt(index, query.offset());
            }
            List<Run> runs = new ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    runs.add(run(sql, row));
                }
            }
            if (runs.size() < query.limit() && (query.offset() == 0 || !runs.isEmpty())) {
                // The last page: what was skipped and what was read is all there is.
                return new RunPage(runs, (long) query.offset() + runs.size());
            }
            PreparedStatement count = sql.prepare("SELECT COUNT(*) FROM runs" + where);
            bindFilter(count, query);
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return new RunPage(runs, row.getLong(1));
            }
        });
    }

    /** Binds a query's status and user conditions from the first parameter; returns the next index. */
    private static int bindFilter(PreparedStatement statement, RunQuery query) throws SQLException {
        int index = 1;
        if (query.status().isPresent()) {
            statement.setString(index++, query.status().get().name());
        }
        if (query.user().isPresent()) {
            statement.setString(index++, query.user().get());
        }
        return index;
    }

    private static Run run(Sql sql, ResultSet row) throws SQLException {
        String id = row.getString(1);
        String what = "run " + id;
        return new Run(
                id,
                row.getString(2),
                Optional.ofNullable(row.getString(3)),
                RunStatus.valueOf(row.getString(4)),
                Payloads.load(sql, id, row.getString(5), row.getString(6), "input of " + what),
                JsonText.readMap(row.getString(7), "variables of " + what),
                JsonText.readMap(row.getString(8), "pins of " + what),
                Payloads.load(sql, id, row.getString(9), row.getString(10), "output of " + what),
                error(row.getString(11), row.getString(12)),
                JsonText.instant(row.getLong(13)),
                time(row, 14),
                JsonText.read(row.getString(15), "source of " + what),
                Optional.ofNullable(row.getString(16)));
    }

    // ---- Steps, events, checkpoints.

    @Override
    public void insertStep(Step step) {
        write("insert step " + step.key(), sql -> {
            applyChanges(sql, step.runId(), List.of(new Change.InsertStep(step)), true);
            return null;
        });
    }

    @Override
    public boolean updateStep(Step step, Set<StepStatus> expected) {
        if (stepsInJournal) {
            return write("update step " + step.key(), sql -> {
                lockRunForSteps(sql, step.runId());
                Optional<StepStatus> current = fold(sql, step.runId()).status(step.order());
                if (current.isEmpty() || !expected.contains(current.get())) {
                    return false;
                }
                applyChanges(sql, step.runId(), List.of(new Change.UpdateStep(step, expected)), false);
                return true;
            });
        }
        return write("update step " + step.key(), sql -> {
            Payloads.Pending pending = payloads.pending();
            PreparedStatement update = sql.prepare(updateStep);
            bindStepUpdate(update, step, expected, pending);
            int updated = update.executeUpdate();
            if (updated == 1) {
                pending.write(sql);
            }
            return updated == 1;
        });
    }

    @Override
    public List<Step> steps(String runId) {
        return read("read the steps of run " + runId, sql -> fold(sql, runId).steps(sql));
    }

    /** The run's steps table rows, then its journal's step changes by {@code seq} ({@link StepFold}). */
    private StepFold fold(Sql sql, String runId) throws SQLException {
        StepFold fold = new StepFold(runId);
        PreparedStatement select =
                sql.prepare("SELECT " + STEP_COLUMNS + " FROM steps WHERE run_id = ? ORDER BY step_order");
        select.setString(1, runId);
        try (ResultSet row = select.executeQuery()) {
            while (row.next()) {
                fold.row(step(sql, row));
            }
        }
        if (journalHoldsSteps()) {
            PreparedStatement journal =
                    sql.prepare("SELECT steps FROM journal WHERE run_id = ? AND steps IS NOT NULL ORDER BY seq");
            journal.setString(1, runId);
            try (ResultSet row = journal.executeQuery()) {
                while (row.next()) {
                    fold.changes(row.getString(1));
                }
            }
        }
        return fold;
    }

    private static Step step(Sql sql, ResultSet row) throws SQLException {
        String runId = row.getString(1);
        int order = row.getInt(2);
        String what = "step " + runId + "/" + order;
        return new Step(
                runId,
                order,
                row.getString(3),
                row.getString(4),
                row.getString(5),
                StepStatus.valueOf(row.getString(6)),
                row.getInt(7),
                row.getBoolean(8),
                Payloads.load(sql, runId, row.getString(9), row.getString(10), "input of " + what),
                Payloads.load(sql, runId, row.getString(11), row.getString(12), "output of " + what),
                error(row.getString(13), row.getString(14)),
                time(row, 15),
                time(row, 16),
                JsonText.readMap(row.getString(17), "details of " + what));
    }

    @Override
    public void appendEvent(Event event) {
        write("append an event to run " + event.runId(), sql -> {
            applyChanges(sql, event.runId(), List.of(new Change.AppendEvent(event)), false);
            return null;
        });
    }

    @Override
    public List<Event> events(String runId) {
        return read("read the events of run " + runId, sql -> {
            PreparedStatement select =
                    sql.prepare("SELECT sequence, type, node_id, step_order, time, data FROM events WHERE run_id = ?"
                            + " ORDER BY sequence");
            select.setString(1, runId);
            List<Event> events = new ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    long sequence = row.getLong(1);
                    events.add(new Event(
                            runId,
                            sequence,
                            row.getString(2),
                            Optional.ofNullable(row.getString(3)),
                            row.getInt(4),
                            JsonText.instant(row.getLong(5)),
                            JsonText.read(row.getString(6), "event " + sequence + " of run " + runId)));
                }
            }
            // Events written before the journal came first; a journal row may hold any of the run's.
            PreparedStatement journal =
                    sql.prepare("SELECT events FROM journal WHERE run_id = ? AND events IS NOT NULL ORDER BY seq");
            journal.setString(1, runId);
            boolean journaled = false;
            try (ResultSet row = journal.executeQuery()) {
                while (row.next()) {
                    events.addAll(Journal.events(runId, row.getString(1)));
                    journaled = true;
                }
            }
            if (journaled) {
                events.sort(java.util.Comparator.comparingLong(Event::sequence));
            }
            return events;
        });
    }

    @Override
    public void saveCheckpoint(Checkpoint checkpoint) {
        write("save a checkpoint of run " + checkpoint.runId(), sql -> {
            applyChanges(sql, checkpoint.runId(), List.of(new Change.SaveCheckpoint(checkpoint)), false);
            return null;
        });
    }

    @Override
    public Optional<Checkpoint> latestCheckpoint(String runId) {
        return read("read the latest checkpoint of run " + runId, sql -> {
            PreparedStatement journal = sql.prepare("SELECT checkpoints FROM journal WHERE run_id = ?"
                    + " AND checkpoints IS NOT NULL ORDER BY seq DESC LIMIT 1");
            journal.setString(1, runId);
            try (ResultSet row = journal.executeQuery()) {
                if (row.next()) {
                    List<Checkpoint> last = Journal.checkpoints(sql, runId, row.getString(1), true);
                    if (!last.isEmpty()) {
                        return Optional.of(last.get(0));
                    }
                }
            }
            // Written before the journal, if at all.
            List<Checkpoint> latest = tabledCheckpoints(sql, runId, " ORDER BY id DESC LIMIT 1");
            return latest.isEmpty() ? Optional.empty() : Optional.of(latest.get(0));
        });
    }

    @Override
    public List<Checkpoint> checkpoints(String runId) {
        return read("read the checkpoints of run " + runId, sql -> {
            List<Checkpoint> checkpoints = tabledCheckpoints(sql, runId, " ORDER BY id");
            PreparedStatement journal = sql.prepare(
                    "SELECT checkpoints FROM journal WHERE run_id = ? AND checkpoints IS NOT NULL ORDER BY seq");
            journal.setString(1, runId);
            try (ResultSet row = journal.executeQuery()) {
                while (row.next()) {
                    checkpoints.addAll(Journal.checkpoints(sql, runId, row.getString(1), false));
                }
            }
            return checkpoints;
        });
    }

    /** Checkpoints written before the journal, in their own table. */
    private static List<Checkpoint> tabledCheckpoints(Sql sql, String runId, String order) throws SQLException {
        PreparedStatement select =
                sql.prepare("SELECT after_step, next_order, time, state FROM checkpoints WHERE run_id = ?" + order);
        select.setString(1, runId);
        List<Checkpoint> checkpoints = new ArrayList<>();
        try (ResultSet row = select.executeQuery()) {
            while (row.next()) {
                checkpoints.add(CheckpointState.read(
                        sql, runId, row.getInt(1), row.getInt(2), JsonText.instant(row.getLong(3)), row.getString(4)));
            }
        }
        return checkpoints;
    }

    // ---- The hot path: one transaction per step.

    @Override
    public boolean apply(String runId, String owner, List<Change> changes) {
        if (stepsInJournal) {
            return applyToJournal(runId, owner, Changes.coalesce(changes));
        }
        return write("apply the changes of run " + runId, sql -> {
            boolean cancelRequested;
            PreparedStatement select = sql.prepare(selectWriter);
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw new NotFoundException("no run '" + runId + "' in this store");
                }
                cancelRequested = row.getBoolean(1);
                String holder = row.getString(2);
                if (holder != null && !holder.equals(owner)) {
                    throw new LeaseLostException(runId, holder);
                }
            }
            applyChanges(sql, runId, Changes.coalesce(changes), false);
            return cancelRequested;
        });
    }

    /**
     * The hot path where steps are journaled: a batch of one run's step changes, events and
     * checkpoints, with no payload and no end of the run, is one journal row written by one
     * auto-committed statement that checks the lease itself ({@link #insertOwnedJournal}). Any other
     * batch, or one whose statement wrote nothing (the run is gone or another holds it), goes through
     * a transaction that reads the lease first and says which.
     */
    private boolean applyToJournal(String runId, String owner, List<Change> batch) {
        Payloads.Pending pending = payloads.pending();
        JournalBatch journal = journalBatch(batch, pending);
        Boolean owned = applyOwnedJournal(runId, owner, journal, pending);
        if (owned != null) {
            return owned;
        }
        return write("apply the changes of run " + runId, sql -> {
            boolean cancelRequested = checkWriter(sql, runId, owner);
            lockStepRuns(sql, batch);
            writeJournal(sql, runId, journal, pending);
            return cancelRequested;
        });
    }

    /**
     * The hot path alone: {@code batch} ({@link #journalBatch}, already coalesced) written by {@link
     * #insertOwnedJournal} if it is one row of {@code runId}'s with no payload and no end of the run,
     * and the run's cancellation if it was. Null if the batch is not of that kind or nothing was
     * written (the run is gone or another holds it): the caller then writes it the checked way.
     */
    final @Nullable Boolean applyOwnedJournal(
            String runId, String owner, JournalBatch journal, Payloads.Pending pending) {
        Journal.Row only = journal.runUpdate() == null && !pending.hasPayloads()
                ? journal.rows().only(runId)
                : null;
        if (only == null) {
            return null;
        }
        return autocommit("apply the changes of run " + runId, sql -> {
            PreparedStatement insert = sql.prepare(insertOwnedJournal());
            insert.setString(1, runId);
            insert.setString(2, only.events());
            insert.setString(3, only.checkpoints());
            insert.setString(4, only.steps());
            insert.setString(5, owner);
            try (ResultSet row = insert.executeQuery()) {
                return row.next() ? row.getBoolean(1) : null;
            }
        });
    }

    /**
     * Locks {@code runId}'s row against other writers of its steps until the transaction ends, where
     * the database does not serialize all writes already: a run's journal order must be its commit
     * order for {@link StepFold}. Nothing where every write holds one lock (SQLite).
     */
    void lockRunForSteps(Sql sql, String runId) throws SQLException {}

    /** Reads the run's cancellation under the write lock, if {@code owner} may still write to it. */
    private boolean checkWriter(Sql sql, String runId, String owner) throws SQLException {
        PreparedStatement select = sql.prepare(selectWriter);
        select.setString(1, runId);
        try (ResultSet row = select.executeQuery()) {
            if (!row.next()) {
                throw new NotFoundException("no run '" + runId + "' in this store");
            }
            String holder = row.getString(2);
            if (holder != null && !holder.equals(owner)) {
                throw new LeaseLostException(runId, holder);
            }
            return row.getBoolean(1);
        }
    }

    /** A batch as journal rows (steps, events and checkpoints by run) and the run's update, if any. */
    record JournalBatch(Journal.Rows rows, Change.@Nullable UpdateRun runUpdate) {}

    /** Puts {@code changes} in journal rows, in order. */
    static JournalBatch journalBatch(List<Change> changes, Payloads.Pending pending) {
        Journal.Rows rows = new Journal.Rows();
        Change.UpdateRun runUpdate = null;
        for (Change change : changes) {
            switch (change) {
                case Change.InsertStep insert -> rows.add(insert, pending);
                case Change.UpdateStep update -> rows.add(update, pending);
                case Change.AppendEvent append -> rows.add(append.event());
                case Change.SaveCheckpoint save -> rows.add(save.checkpoint(), pending);
                case Change.UpdateRun update -> runUpdate = update;
            }
        }
        return new JournalBatch(rows, runUpdate);
    }

    /** Writes a batch's journal rows, then the run's update, then its payloads. */
    private void writeJournal(Sql sql, String runId, JournalBatch batch, Payloads.Pending pending) throws SQLException {
        PreparedStatement journal = null;
        try {
            if (!batch.rows().isEmpty()) {
                journal = sql.prepare(insertJournal());
                for (Journal.Row row : batch.rows().rows()) {
                    journal.setString(1, row.runId());
                    journal.setString(2, row.events());
                    journal.setString(3, row.checkpoints());
                    journal.setString(4, row.steps());
                    journal.addBatch();
                }
                journal.executeBatch();
            }
            Change.UpdateRun runUpdate = batch.runUpdate();
            if (runUpdate != null && !updateRun(sql, runUpdate.run(), runUpdate.expected(), pending)) {
                throw new RunStateException(
                        "run '" + runId + "' is no longer " + runUpdate.expected() + "; its changes were not applied");
            }
            pending.write(sql);
        } catch (SQLException e) {
            clearBatches(journal);
            if (isForeignKeyViolationIn(e)) {
                throw new NotFoundException("no run '" + runId + "' in this store");
            }
            throw e;
        } catch (RuntimeException e) {
            clearBatches(journal);
            throw e;
        }
    }

    /** {@link #lockRunForSteps} of each run whose steps {@code changes} write, once each. */
    private void lockStepRuns(Sql sql, List<Change> changes) throws SQLException {
        Set<String> locked = null;
        for (Change change : changes) {
            String stepRun = switch (change) {
                case Change.InsertStep insert -> insert.step().runId();
                case Change.UpdateStep update -> update.step().runId();
                default -> null;
            };
            if (stepRun != null && (locked == null || !locked.contains(stepRun))) {
                if (locked == null) {
                    locked = new HashSet<>(2);
                }
                locked.add(stepRun);
                lockRunForSteps(sql, stepRun);
            }
        }
    }

    /** The kinds of step statement, batched while they follow each other. */
    private enum StepWrite {
        INSERT,
        UPDATE,
        UPSERT
    }

    /**
     * Writes {@code changes} in order. Step writes of one kind are batched while they follow each
     * other; events and checkpoints touch no step, so they go to the end, as one journal row per run
     * ({@link Journal}), and a run's update comes last. A step that exists is not inserted again; with {@code strict}, that is an error.
     *
     * <p>A step inserted and then updated in the same batch (activated, started and finished between
     * two commits, as under {@link dev.weft.core.Durability#ASYNC}) is written once, as an insert of
     * its updated state that, should the step exist after all, updates it from an expected status
     * instead: what the insert and the update would have done, in one statement. In a run created
     * in this very transaction ({@code created}) no step can exist yet, so it is a plain insert.
     */
    private void applyChanges(Sql sql, String runId, List<Change> changes, boolean strict) throws SQLException {
        applyChanges(sql, runId, changes, strict, false);
    }

    private void applyChanges(Sql sql, String runId, List<Change> changes, boolean strict, boolean created)
            throws SQLException {
        if (stepsInJournal) {
            lockStepRuns(sql, changes);
            for (int i = 0; strict && i < changes.size(); i++) {
                if (changes.get(i) instanceof Change.InsertStep insert
                        && fold(sql, insert.step().runId())
                                .status(insert.step().order())
                                .isPresent()) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT, "step " + insert.step().key() + " already exists");
                }
            }
            Payloads.Pending pending = payloads.pending();
            writeJournal(sql, runId, journalBatch(changes, pending), pending);
            return;
        }
        Payloads.Pending pending = payloads.pending();
        Change.UpdateStep[] absorbing = strict ? null : absorbingUpdates(changes);
        PreparedStatement inserts = null;
        PreparedStatement updates = null;
        PreparedStatement upserts = null;
        PreparedStatement journal = null;
        Journal.Rows journalRows = new Journal.Rows();
        List<Step> inserted = new ArrayList<>();
        Change.UpdateRun runUpdate = null;
        try {
            StepWrite batched = null;
            for (int index = 0; index < changes.size(); index++) {
                Change change = changes.get(index);
                Change.UpdateStep absorbed = absorbing == null ? null : absorbing[index];
                StepWrite kind = switch (change) {
                    case Change.InsertStep insert -> absorbed == null || created ? StepWrite.INSERT : StepWrite.UPSERT;
                    case Change.UpdateStep update -> absorbed == update ? null : StepWrite.UPDATE;
                    default -> null;
                };
                if (kind != null && batched != null && kind != batched) {
                    executeStepBatch(batched, inserts, inserted, updates, upserts, strict);
                }
                if (kind != null) {
                    batched = kind;
                }
                switch (change) {
                    case Change.InsertStep insert
                    when kind == StepWrite.UPSERT -> {
                        if (upserts == null) {
                            upserts = sql.prepare(upsertStep);
                        }
                        bindStepInsert(upserts, absorbed.step(), pending);
                        upserts.setString(STEP_INSERT_PARAMETERS + 1, statuses(absorbed.expected()));
                        upserts.addBatch();
                    }
                    case Change.InsertStep insert -> {
                        if (inserts == null) {
                            inserts = sql.prepare(INSERT_STEP);
                        }
                        Step step = absorbed == null ? insert.step() : absorbed.step();
                        bindStepInsert(inserts, step, pending);
                        inserts.addBatch();
                        inserted.add(step);
                    }
                    case Change.UpdateStep update -> {
                        if (kind == null) {
                            continue; // written by its step's upsert
                        }
                        if (updates == null) {
                            updates = sql.prepare(updateStep);
                        }
                        bindStepUpdate(updates, update.step(), update.expected(), pending);
                        updates.addBatch();
                    }
                    case Change.AppendEvent append -> journalRows.add(append.event());
                    case Change.SaveCheckpoint save -> journalRows.add(save.checkpoint(), pending);
                    // Written after the rest, below.
                    case Change.UpdateRun update -> runUpdate = update;
                }
            }
            if (batched != null) {
                executeStepBatch(batched, inserts, inserted, updates, upserts, strict);
            }
            if (!journalRows.isEmpty()) {
                journal = sql.prepare(insertJournal());
                for (Journal.Row row : journalRows.rows()) {
                    journal.setString(1, row.runId());
                    journal.setString(2, row.events());
                    journal.setString(3, row.checkpoints());
                    if (journalHoldsSteps()) {
                        journal.setString(4, null);
                    }
                    journal.addBatch();
                }
                journal.executeBatch();
            }
            if (runUpdate != null && !updateRun(sql, runUpdate.run(), runUpdate.expected(), pending)) {
                throw new RunStateException(
                        "run '" + runId + "' is no longer " + runUpdate.expected() + "; its changes were not applied");
            }
            pending.write(sql);
        } catch (SQLException e) {
            clearBatches(inserts, updates, upserts, journal);
            if (isForeignKeyViolationIn(e)) {
                throw new NotFoundException("no run '" + runId + "' in this store");
            }
            throw e;
        } catch (RuntimeException e) {
            clearBatches(inserts, updates, upserts, journal);
            throw e;
        }
    }

    private static void executeStepBatch(
            StepWrite kind,
            @Nullable PreparedStatement inserts,
            List<Step> inserted,
            @Nullable PreparedStatement updates,
            @Nullable PreparedStatement upserts,
            boolean strict)
            throws SQLException {
        switch (kind) {
            case INSERT -> {
                checkInserted(inserts, inserted, strict);
                inserted.clear();
            }
            case UPDATE -> java.util.Objects.requireNonNull(updates).executeBatch();
            case UPSERT -> java.util.Objects.requireNonNull(upserts).executeBatch();
        }
    }

    /**
     * For each insert of {@code changes}, the update that follows it in the batch and leads on from
     * it (expects the status it inserts), if the step has no other write in between; that update, at
     * its own index too. Null where there is none. Expects updates already coalesced, so a step has
     * at most one update after its insert.
     */
    private static Change.UpdateStep @Nullable [] absorbingUpdates(List<Change> changes) {
        Change.UpdateStep[] absorbing = null;
        java.util.Map<Integer, Integer> openInserts = null;
        for (int i = 0; i < changes.size(); i++) {
            Change change = changes.get(i);
            if (change instanceof Change.InsertStep insert) {
                if (openInserts == null) {
                    openInserts = new java.util.HashMap<>();
                }
                openInserts.put(insert.step().order(), i);
            } else if (change instanceof Change.UpdateStep update && openInserts != null) {
                Integer at = openInserts.remove(update.step().order());
                Change.InsertStep insert = at == null ? null : (Change.InsertStep) changes.get(at);
                if (insert != null
                        && insert.step().runId().equals(update.step().runId())
                        && update.expected().contains(insert.step().status())) {
                    if (absorbing == null) {
                        absorbing = new Change.UpdateStep[changes.size()];
                    }
                    absorbing[at] = update;
                    absorbing[i] = update;
                }
            }
        }
        return absorbing;
    }

    /** Drops what a failed batch left in statements that may be cached and used again. */
    private static void clearBatches(@Nullable PreparedStatement... statements) {
        for (PreparedStatement statement : statements) {
            if (statement != null) {
                try {
                    statement.clearBatch();
                } catch (SQLException e) {
                    // The transaction is rolled back; a statement that cannot be cleared fails its next use.
                }
            }
        }
    }

    private boolean isForeignKeyViolationIn(SQLException e) {
        for (SQLException next = e; next != null; next = next.getNextException()) {
            if (isForeignKeyViolation(next)) {
                return true;
            }
        }
        return false;
    }

    private static void checkInserted(
            @Nullable PreparedStatement inserts, @Nullable List<Step> inserted, boolean strict) throws SQLException {
        if (inserts == null || inserted == null || inserted.isEmpty()) {
            return;
        }
        int[] counts = inserts.executeBatch();
        for (int i = 0; strict && i < counts.length && i < inserted.size(); i++) {
            if (counts[i] == 0) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "step " + inserted.get(i).key() + " already exists");
            }
        }
    }

    private void bindStepInsert(PreparedStatement insert, Step step, Payloads.Pending pending) throws SQLException {
        insert.setString(1, step.runId());
        insert.setInt(2, step.order());
        bindStep(insert, 3, step, pending);
    }

    private void bindStepUpdate(PreparedStatement update, Step step, Set<StepStatus> expected, Payloads.Pending pending)
            throws SQLException {
        int i = bindStep(update, 1, step, pending);
        update.setString(i++, step.runId());
        update.setInt(i++, step.order());
        update.setString(i, statuses(expected));
    }

    /** Binds every step column but the key, from {@code index} on; returns the next index. */
    private static int bindStep(PreparedStatement statement, int index, Step step, Payloads.Pending pending)
            throws SQLException {
        int i = index;
        statement.setString(i++, step.nodeId());
        statement.setString(i++, step.name());
        statement.setString(i++, step.type());
        statement.setString(i++, step.status().name());
        statement.setInt(i++, step.attempt());
        statement.setBoolean(i++, step.pinned());
        i = bindValue(statement, i, pending.store(step.runId(), step.input()));
        i = bindValue(statement, i, pending.store(step.runId(), step.output()));
        statement.setString(i++, step.error().map(e -> e.code().name()).orElse(null));
        statement.setString(i++, step.error().map(RunError::message).orElse(null));
        bindTime(statement, i++, step.startedAt());
        bindTime(statement, i++, step.endedAt());
        statement.setString(i++, JsonText.writeMap(step.details()));
        return i;
    }

    private static int bindValue(PreparedStatement statement, int index, Payloads.Stored stored) throws SQLException {
        statement.setString(index, stored.text());
        statement.setString(index + 1, stored.ref());
        return index + 2;
    }

    private static void bindTime(PreparedStatement statement, int index, Optional<Instant> time) throws SQLException {
        if (time.isPresent()) {
            statement.setLong(index, JsonText.nanos(time.get()));
        } else {
            statement.setNull(index, Types.BIGINT);
        }
    }

    private static Optional<Instant> time(ResultSet row, int index) throws SQLException {
        long nanos = row.getLong(index);
        return row.wasNull() ? Optional.empty() : Optional.of(JsonText.instant(nanos));
    }

    /** A stored error's code and message as a {@link RunError}; a code this build does not know is a node's failure. */
    static Optional<RunError> error(@Nullable String code, @Nullable String message) {
        if (code == null) {
            return Optional.empty();
        }
        ErrorCode errorCode;
        try {
            errorCode = ErrorCode.valueOf(code);
        } catch (IllegalArgumentException e) {
            errorCode = ErrorCode.E_NODE_FAILED;
        }
        return Optional.of(new RunError(errorCode, message == null ? code : message));
    }

    /** The statuses as the one parameter {@link #hasStatusIn} takes: {@code ,A,B,}. */
    static String statuses(Set<? extends Enum<?>> statuses) {
        StringBuilder text = new StringBuilder(",");
        for (Enum<?> status : statuses) {
            text.append(status.name()).append(',');
        }
        return text.toString();
    }

    // ---- Cancellation, leases, idempotency, pruning.

    @Override
    public boolean requestCancel(String runId) {
        return write("request cancellation of run " + runId, sql -> {
            PreparedStatement update = sql.prepare(requestCancel);
            update.setBoolean(1, true);
            update.setString(2, runId);
            update.setString(3, FINISHED);
            return update.executeUpdate() == 1;
        });
    }

    @Override
    public boolean isCancelRequested(String runId) {
        return read("read the cancellation of run " + runId, sql -> {
            PreparedStatement select = sql.prepare(SELECT_CANCEL);
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                return row.next() && row.getBoolean(1);
            }
        });
    }

    @Override
    public boolean claim(String runId, Lease lease, Instant now) {
        return write("claim run " + runId, sql -> claim(sql, runId, lease, now));
    }

    private static boolean claim(Sql sql, String runId, Lease lease, Instant now) throws SQLException {
        PreparedStatement update = sql.prepare(CLAIM);
        update.setString(1, lease.owner());
        update.setLong(2, JsonText.nanos(lease.until()));
        update.setString(3, runId);
        update.setString(4, RunStatus.RUNNING.name());
        update.setString(5, lease.owner());
        update.setLong(6, JsonText.nanos(now));
        return update.executeUpdate() == 1;
    }

    @Override
    public Optional<Lease> lease(String runId) {
        return read("read the lease of run " + runId, sql -> {
            PreparedStatement select = sql.prepare("SELECT lease_owner, lease_until FROM runs WHERE id = ?");
            select.setString(1, runId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next() || row.getString(1) == null) {
                    return Optional.<Lease>empty();
                }
                long until = row.getLong(2);
                return Optional.of(
                        new Lease(row.getString(1), row.wasNull() ? Instant.EPOCH : JsonText.instant(until)));
            }
        });
    }

    @Override
    public boolean takeOver(String runId, String deadOwner, Lease lease) {
        return write("take over run " + runId, sql -> {
            PreparedStatement update = sql.prepare(
                    "UPDATE runs SET lease_owner = ?, lease_until = ? WHERE id = ? AND status = ? AND lease_owner = ?");
            update.setString(1, lease.owner());
            update.setLong(2, JsonText.nanos(lease.until()));
            update.setString(3, runId);
            update.setString(4, RunStatus.RUNNING.name());
            update.setString(5, deadOwner);
            return update.executeUpdate() == 1;
        });
    }

    @Override
    public void renew(String owner, Instant until) {
        write("renew the leases of " + owner, sql -> {
            PreparedStatement update = sql.prepare(RENEW);
            update.setLong(1, JsonText.nanos(until));
            update.setString(2, owner);
            return update.executeUpdate();
        });
    }

    @Override
    public List<Run> recoverable(Instant now) {
        return read("find recoverable runs", sql -> {
            PreparedStatement select = sql.prepare(SELECT_RUNS
                    + " WHERE status = ? AND (lease_until IS NULL OR lease_until < ?) ORDER BY created_at, id");
            select.setString(1, RunStatus.RUNNING.name());
            select.setLong(2, JsonText.nanos(now));
            List<Run> runs = new ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    runs.add(run(sql, row));
                }
            }
            return runs;
        });
    }

    @Override
    public Optional<JsonNode> idempotentResult(String key) {
        return read("read idempotent result " + key, sql -> readIdempotent(sql, key));
    }

    private static Optional<JsonNode> readIdempotent(Sql sql, String key) throws SQLException {
        PreparedStatement select = sql.prepare("SELECT result FROM idempotency WHERE key = ?");
        select.setString(1, key);
        try (ResultSet row = select.executeQuery()) {
            return row.next()
                    ? Optional.of(JsonText.read(row.getString(1), "idempotent result " + key))
                    : Optional.<JsonNode>empty();
        }
    }

    /** One query: a row whether or not the run exists, its columns null when it does not. */
    @Override
    public QueuedStepState queuedStepState(String runId, String key) {
        return read("read queued step " + key, sql -> {
            PreparedStatement select = sql.prepare(SELECT_QUEUED_STEP);
            select.setString(1, key);
            select.setString(2, runId);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                String result = row.getString(RUN_COLUMN_COUNT + 2);
                Optional<JsonNode> stored = result == null
                        ? Optional.empty()
                        : Optional.of(JsonText.read(result, "idempotent result " + key));
                if (row.getString(1) == null) {
                    return new QueuedStepState(Optional.empty(), false, stored);
                }
                return new QueuedStepState(Optional.of(run(sql, row)), row.getBoolean(RUN_COLUMN_COUNT + 1), stored);
            }
        });
    }

    @Override
    public JsonNode saveIdempotentResult(String key, JsonNode result) {
        // No transaction around the two statements: the insert is atomic by itself, and a row it
        // finds in its way is committed (the insert waits for its writer) and never changed, so it is
        // read as it is. On PostgreSQL a stored result costs one round trip where BEGIN … COMMIT
        // cost two (a queued step's outcome is stored this way).
        return autocommit("save idempotent result " + key, sql -> {
            PreparedStatement insert = sql.prepare(
                    "INSERT INTO idempotency (key, result, created_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING");
            insert.setString(1, key);
            insert.setString(2, JsonText.write(result));
            insert.setLong(3, JsonText.nanos(Instant.now()));
            if (insert.executeUpdate() == 1) {
                return result;
            }
            return readIdempotent(sql, key).orElse(result);
        });
    }

    @Override
    public int pruneIdempotency(Instant cutoff) {
        return write("prune idempotency results stored before " + cutoff, sql -> {
            PreparedStatement delete = sql.prepare(PRUNE_IDEMPOTENCY);
            delete.setLong(1, JsonText.nanos(cutoff));
            return delete.executeUpdate();
        });
    }

    @Override
    public int pruneRuns(Instant cutoff) {
        return write("prune runs that ended before " + cutoff, sql -> {
            PreparedStatement delete = sql.prepare(PRUNE);
            // A run ends after it is created, so only runs created before the cutoff can have ended
            // before it: the index on status and creation time finds them. (Clocks that differ between
            // processes can only delay the pruning of a run, never prune one early.)
            delete.setLong(1, JsonText.nanos(cutoff));
            delete.setLong(2, JsonText.nanos(cutoff));
            return delete.executeUpdate();
        });
    }

    @Override
    public void close() {
        reads.close();
        writes.close();
    }

    // ---- Transactions and errors.

    @FunctionalInterface
    interface Work<T> {
        T run(Sql sql) throws SQLException;
    }

    /** Runs {@code work} in one write transaction; {@code what} names it in an error. */
    final <T> T write(String what, Work<T> work) {
        try (Connection connection = writes.getConnection()) {
            Sql sql = sql(connection);
            begin(sql);
            boolean done = false;
            try {
                T result = work.run(sql);
                commit(sql);
                done = true;
                committed();
                sql.committed();
                return result;
            } finally {
                if (!done) {
                    rollbackOrEvict(sql, connection);
                }
                sql.end();
            }
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /**
     * Runs {@code work} on a write connection in autocommit mode: for a single statement that is a
     * transaction of its own; {@code what} names it in an error.
     */
    final <T> T autocommit(String what, Work<T> work) {
        try (Connection connection = writes.getConnection()) {
            Sql sql = sql(connection);
            try {
                T result = work.run(sql);
                committed();
                sql.committed();
                return result;
            } finally {
                sql.end();
            }
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    private void rollbackOrEvict(Sql sql, Connection connection) {
        try {
            rollback(sql);
        } catch (SQLException e) {
            // A connection that may still be inside the transaction must not serve anyone else.
            writes.evictConnection(connection);
        }
    }

    /** Runs {@code work} on a connection for reading; {@code what} names it in an error. */
    final <T> T read(String what, Work<T> work) {
        try (Connection connection = reads.getConnection()) {
            Sql sql = sql(connection);
            try {
                return work.run(sql);
            } finally {
                sql.end();
            }
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    private Sql sql(Connection pooled) throws SQLException {
        Connection connection = statementConnection(pooled);
        return new Sql(connection, statementCache(connection));
    }

    final StoreUnavailableException failure(String what, SQLException e) {
        return new StoreUnavailableException(
                "database '" + url.shown() + "' could not " + what + ": " + Failures.oneLine(e), e);
    }
}
