package dev.weft.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One unit of work on one connection, and the statements it prepares. Where the dialect keeps a
 * cache of prepared statements for the connection (SQLite, whose driver compiles each statement
 * anew), statements come from it and stay open; otherwise they are closed when the work ends. Not
 * thread-safe: a connection serves one thread at a time.
 */
final class Sql {
    private final Connection connection;
    private final @Nullable Map<String, PreparedStatement> cache;
    private final List<PreparedStatement> opened = new ArrayList<>(0);
    private final List<Runnable> afterCommit = new ArrayList<>(0);

    Sql(Connection connection, @Nullable Map<String, PreparedStatement> cache) {
        this.connection = connection;
        this.cache = cache;
    }

    Connection connection() {
        return connection;
    }

    /** A statement for {@code text}; the caller must not close it. */
    PreparedStatement prepare(String text) throws SQLException {
        if (cache == null) {
            PreparedStatement statement = connection.prepareStatement(text);
            opened.add(statement);
            return statement;
        }
        PreparedStatement statement = cache.get(text);
        if (statement == null) {
            statement = connection.prepareStatement(text);
            cache.put(text, statement);
        }
        return statement;
    }

    /** Has {@code action} run once the work is committed; if it is not, never. */
    void afterCommit(Runnable action) {
        afterCommit.add(action);
    }

    /** Runs what waited for the work to be committed, which it now is. */
    void committed() {
        for (Runnable action : afterCommit) {
            action.run();
        }
        afterCommit.clear();
    }

    /** Closes the statements that are not cached, and forgets what waited for a commit that did not come. */
    void end() throws SQLException {
        afterCommit.clear();
        SQLException failure = null;
        for (PreparedStatement statement : opened) {
            try {
                statement.close();
            } catch (SQLException e) {
                failure = e;
            }
        }
        opened.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
