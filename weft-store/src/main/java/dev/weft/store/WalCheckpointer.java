package dev.weft.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Copies a SQLite file's write-ahead log back into the database on a thread of its own, so that the
 * writer's commits seldom pay for it. SQLite's own automatic checkpoint runs inside the commit that
 * takes the WAL past its limit: it copies every page the WAL holds into the database file and syncs
 * both files, a pause of milliseconds for that commit. This thread runs a {@code PASSIVE} checkpoint
 * (one that never blocks the writer or a reader) every {@value #COMMITS_PER_CHECKPOINT} commits, so
 * when the writer's own checkpoint comes due, nearly everything is already copied and synced, and it
 * only finishes the tail, after which the WAL starts again from its beginning (as it also does when
 * this thread has caught up with the writer between two of its commits). The store's writer sets
 * that limit to {@value SqliteRunStore#WRITER_AUTOCHECKPOINT_PAGES} pages instead of SQLite's 1,000,
 * so that its own checkpoint is a backstop rather than a routine. Durability is unchanged: a
 * checkpoint only moves committed pages from one file to the other, with the same syncs.
 * Thread-safe.
 */
final class WalCheckpointer implements AutoCloseable {
    /** Commits between two checkpoints: about 300–500 WAL pages at a step's 5–8 pages. */
    static final int COMMITS_PER_CHECKPOINT = 64;

    private static final long CLOSE_WAIT_MILLIS = 10_000;

    private final DataSource source;
    private final AtomicInteger commits = new AtomicInteger();
    private final AtomicBoolean due = new AtomicBoolean();
    private final Thread thread;
    private volatile boolean closed;
    private @Nullable Connection connection;

    WalCheckpointer(DataSource source, String name) {
        this.source = source;
        this.thread = Thread.ofPlatform().name(name).daemon().unstarted(this::loop);
        thread.start();
    }

    /** Counts a commit; every {@value #COMMITS_PER_CHECKPOINT} commits, wakes the thread. */
    void committed() {
        if (commits.incrementAndGet() % COMMITS_PER_CHECKPOINT == 0 && !due.getAndSet(true)) {
            LockSupport.unpark(thread);
        }
    }

    private void loop() {
        while (!closed) {
            if (!due.getAndSet(false)) {
                LockSupport.park(this);
                continue;
            }
            checkpoint();
        }
        closeConnection();
    }

    private void checkpoint() {
        try {
            Connection open = connection;
            if (open == null) {
                open = source.getConnection();
                connection = open;
            }
            try (Statement statement = open.createStatement();
                    ResultSet result = statement.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
                // One row: busy, pages in the WAL, pages copied. Nothing to do with it: a checkpoint
                // that could not copy everything (a reader still needs old pages) finishes next time.
                result.next();
            }
        } catch (SQLiteException e) {
            // Busy: another process is checkpointing the file. Anything else may have broken the
            // connection: the next checkpoint opens a new one. Either way the writer's own checkpoint
            // still runs when the WAL grows.
            if (e.getResultCode() != SQLiteErrorCode.SQLITE_BUSY) {
                closeConnection();
            }
        } catch (SQLException | RuntimeException e) {
            closeConnection();
        }
    }

    private void closeConnection() {
        Connection open = connection;
        connection = null;
        if (open != null) {
            try {
                open.close();
            } catch (SQLException e) {
                // Nothing is pending on a checkpoint connection.
            }
        }
    }

    /** Stops the thread (after the checkpoint it may be running) and closes its connection. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        try {
            thread.join(CLOSE_WAIT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
