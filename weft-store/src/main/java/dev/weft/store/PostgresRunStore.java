package dev.weft.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.postgresql.ds.PGSimpleDataSource;

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

    private PostgresRunStore(DatabaseUrl url, HikariDataSource pool, long payloadLimit) {
        super(url, pool, pool, payloadLimit);
    }

    static PostgresRunStore open(DatabaseUrl url, long payloadLimit) {
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
        if (!Migrations.probe(url, direct, "SELECT 1")) {
            Migrations.migrate(url, direct, "postgresql", Optional.of(schema));
        }
        try {
            HikariConfig config = new HikariConfig();
            config.setDataSource(direct);
            config.setPoolName("weft-postgresql");
            config.setMaximumPoolSize(CONNECTIONS);
            config.setMinimumIdle(1);
            config.setConnectionTimeout(CONNECT_TIMEOUT_SECONDS * 3_000L);
            return new PostgresRunStore(url, new HikariDataSource(config), payloadLimit);
        } catch (RuntimeException e) {
            throw Migrations.unavailable(url, Failures.oneLine(e), e);
        }
    }

    private static String schema(String jdbcUrl) {
        Matcher matcher = CURRENT_SCHEMA.matcher(jdbcUrl);
        return matcher.find() ? matcher.group(1) : DEFAULT_SCHEMA;
    }

    @Override
    String hasStatusIn(String column) {
        return "(strpos(?, ',' || " + column + " || ',') > 0)";
    }

    @Override
    String lockingRead() {
        // Holds claims and cancel requests (both UPDATEs of the row) until this transaction ends.
        return " FOR SHARE";
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
