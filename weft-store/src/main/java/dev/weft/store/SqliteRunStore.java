package dev.weft.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteDataSource;
import org.sqlite.SQLiteOpenMode;

/**
 * A run store in one SQLite file, in WAL mode so that readers never wait for the writer. Writes go
 * through one connection per process and start with {@code BEGIN IMMEDIATE}, so they queue in Java
 * instead of failing on a lock upgrade; other processes sharing the file wait up to the busy timeout
 * for the file's write lock. A thread of the store copies the WAL back into the file in the
 * background ({@link WalCheckpointer}). Thread-safe.
 */
final class SqliteRunStore extends JdbcRunStore {
    /** How long a write waits for another process to release the file's write lock. */
    static final int BUSY_TIMEOUT_MILLIS = 10_000;

    private static final int READ_CONNECTIONS = 4;

    /**
     * The WAL size, in pages, at which the writer copies it back itself ({@code wal_autocheckpoint};
     * SQLite's default is 1,000). {@link WalCheckpointer} does that copying in the background; the
     * writer's own checkpoint, which syncs both files inside a commit, is only the backstop for a
     * WAL the background cannot bring back to its start (it can only when it catches up with a
     * writer between two commits, which one busy writer seldom leaves it). At 1,000 pages a runner
     * of short asynchronous runs on the development VM paid that checkpoint about twice a second, and
     * 7% of its time in {@code fsync}; at 10,000 (40 MiB of WAL) it made 5–7 times fewer such calls.
     */
    static final int WRITER_AUTOCHECKPOINT_PAGES = 10_000;

    /**
     * The statements prepared on each physical connection: sqlite-jdbc compiles a statement anew each
     * time it is prepared, which would cost the hot path a third of its time. Weak, so a connection the
     * pool retires takes its statements with it.
     */
    private final Map<Connection, Map<String, PreparedStatement>> statements = new WeakHashMap<>();

    private final WalCheckpointer checkpointer;

    private SqliteRunStore(
            DatabaseUrl url,
            HikariDataSource writes,
            HikariDataSource reads,
            long payloadLimit,
            boolean stepsInJournal,
            WalCheckpointer checkpointer) {
        super(url, writes, reads, payloadLimit, stepsInJournal);
        this.checkpointer = checkpointer;
    }

    static SqliteRunStore open(DatabaseUrl url, long payloadLimit) {
        return open(url, payloadLimit, true);
    }

    /**
     * Opens the store; {@code stepsInJournal} false writes steps to their table as before migration
     * V8, which tests compare the journal's way with.
     */
    static SqliteRunStore open(DatabaseUrl url, long payloadLimit, boolean stepsInJournal) {
        Path file = url.file().orElseThrow();
        Path directory = file.getParent();
        if (directory != null) {
            try {
                Files.createDirectories(directory);
            } catch (FileSystemException e) {
                throw Migrations.unavailable(url, "cannot create its directory: " + Failures.file(e), e);
            } catch (IOException e) {
                throw Migrations.unavailable(url, "cannot create its directory: " + Failures.oneLine(e), e);
            }
        }
        if (Files.isDirectory(file)) {
            throw Migrations.unavailable(url, "'" + file + "' is a directory, not a database file", null);
        }
        SQLiteDataSource direct = dataSource(url);
        if (!Migrations.probe(url, direct, "sqlite", "PRAGMA schema_version")) {
            Migrations.migrate(url, direct, "sqlite", Optional.empty());
        }
        HikariDataSource writes = null;
        try {
            writes =
                    pool(direct, "weft-sqlite-writes", 1, "PRAGMA wal_autocheckpoint = " + WRITER_AUTOCHECKPOINT_PAGES);
            HikariDataSource reads = pool(direct, "weft-sqlite-reads", READ_CONNECTIONS, null);
            WalCheckpointer checkpointer = new WalCheckpointer(direct, "weft-sqlite-checkpoint");
            return new SqliteRunStore(url, writes, reads, payloadLimit, stepsInJournal, checkpointer);
        } catch (RuntimeException e) {
            if (writes != null) {
                writes.close();
            }
            throw Migrations.unavailable(url, Failures.oneLine(e), e);
        }
    }

    private static SQLiteDataSource dataSource(DatabaseUrl url) {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        // In WAL mode NORMAL loses no committed transaction on a process crash, only (at worst) the last
        // ones on a power loss, and spares an fsync per commit.
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout(BUSY_TIMEOUT_MILLIS);
        config.enforceForeignKeys(true);
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        // Each connection is used by one thread at a time (the pool lends it to one borrower, the
        // checkpoint thread keeps its own), so SQLite need not lock it on every call.
        config.setOpenMode(SQLiteOpenMode.NOMUTEX);
        // Nothing reads generated keys; without this, every INSERT runs a second statement to fetch them.
        config.setGetGeneratedKeys(false);
        SQLiteDataSource dataSource = new SQLiteDataSource(config);
        dataSource.setUrl(url.jdbcUrl());
        return dataSource;
    }

    private static HikariDataSource pool(SQLiteDataSource direct, String name, int size, @Nullable String initSql) {
        HikariConfig config = new HikariConfig();
        if (initSql != null) {
            config.setConnectionInitSql(initSql);
        }
        config.setDataSource(direct);
        config.setPoolName(name);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        // A SQLite connection does not go stale; keeping it keeps its prepared statements.
        config.setMaxLifetime(0);
        config.setConnectionTimeout(BUSY_TIMEOUT_MILLIS * 3L);
        return new HikariDataSource(config);
    }

    @Override
    String insertJournal() {
        // The run's next number, read under the file's write lock, which every write transaction holds.
        // A subquery of VALUES rather than INSERT ... SELECT: an insert whose SELECT reads the table it
        // writes first copies what it read into a temporary table, which cost a synchronous step's
        // journal row about 40% more (13-15 us against 7-11 on the development VM).
        return "INSERT INTO journal (run_id, seq, events, checkpoints, steps)"
                + " VALUES (?1, (SELECT coalesce(max(seq), 0) + 1 FROM journal WHERE run_id = ?1), ?2, ?3, ?4)";
    }

    @Override
    boolean journalHoldsSteps() {
        return true;
    }

    @Override
    String insertOwnedJournal() {
        // A write statement takes the file's write lock as it starts, so the lease it reads cannot
        // change before it commits, and the run's next number is read under that lock as above. One
        // auto-committed statement where BEGIN IMMEDIATE, the lease's read, the insert and COMMIT
        // were four: 24 us of the writing thread's CPU a step against 30 (weft-bench/tools/
        // OneRowStepSqlite.java, docs/benchmarks.md).
        return "INSERT INTO journal (run_id, seq, events, checkpoints, steps)"
                + " SELECT ?1, (SELECT coalesce(max(seq), 0) + 1 FROM journal WHERE run_id = ?1), ?2, ?3, ?4"
                + " FROM runs WHERE id = ?1 AND (lease_owner IS NULL OR lease_owner = ?5)"
                + " RETURNING (SELECT cancel_requested FROM runs WHERE id = ?1)";
    }

    @Override
    String hasStatusIn(String column) {
        return "(instr(?, ',' || " + column + " || ',') > 0)";
    }

    @Override
    String lockingRead() {
        // BEGIN IMMEDIATE already holds the file's write lock: nothing can change the row.
        return "";
    }

    @Override
    void begin(Sql sql) throws SQLException {
        // IMMEDIATE takes the write lock now: a transaction that read first and then tried to write
        // could fail at once with SQLITE_BUSY instead of waiting for the busy timeout.
        sql.prepare("BEGIN IMMEDIATE").execute();
    }

    @Override
    void commit(Sql sql) throws SQLException {
        sql.prepare("COMMIT").execute();
    }

    @Override
    void rollback(Sql sql) throws SQLException {
        sql.prepare("ROLLBACK").execute();
    }

    @Override
    Connection statementConnection(Connection pooled) throws SQLException {
        // Statements prepared on the physical connection outlive each loan from the pool.
        return pooled.unwrap(SQLiteConnection.class);
    }

    @Override
    Map<String, PreparedStatement> statementCache(Connection connection) {
        synchronized (statements) {
            return statements.computeIfAbsent(connection, c -> new HashMap<>());
        }
    }

    @Override
    void committed() {
        checkpointer.committed();
    }

    @Override
    public void close() {
        checkpointer.close();
        super.close();
    }

    @Override
    boolean isForeignKeyViolation(SQLException e) {
        String message = e.getMessage();
        return message != null && message.contains("FOREIGN KEY constraint failed");
    }
}
