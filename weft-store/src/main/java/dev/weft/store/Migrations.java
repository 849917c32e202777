package dev.weft.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.jspecify.annotations.Nullable;

/** Opening a store's database: the first connection, and the Flyway migrations of its dialect. */
final class Migrations {
    /** Flyway's own table, named for Weft so it never meets an application's Flyway history. */
    static final String HISTORY_TABLE = "weft_schema_history";

    private Migrations() {}

    /**
     * The newest migration under {@code db/weft/<dialect>}, by dialect: a database whose history holds
     * it needs no Flyway run, which saves a command about a second of start-up.
     */
    static final Map<String, String> LATEST_VERSIONS = Map.of("sqlite", "7.3", "postgresql", "8");

    /**
     * Connects once and runs {@code sql}, so that a wrong address, password or file fails here, in
     * one line; then tells whether the schema of {@code dialect} is already at its {@link
     * #LATEST_VERSIONS latest version}.
     */
    static boolean probe(DatabaseUrl url, DataSource dataSource, String dialect, String sql) {
        try (Connection connection = dataSource.getConnection()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
            }
            return isCurrent(connection, LATEST_VERSIONS.get(dialect));
        } catch (SQLException e) {
            throw unavailable(url, Failures.oneLine(e), e);
        }
    }

    private static boolean isCurrent(Connection connection, String latest) {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT count(*) FROM " + HISTORY_TABLE + " WHERE version = ? AND success")) {
            select.setString(1, latest);
            try (ResultSet row = select.executeQuery()) {
                return row.next() && row.getInt(1) > 0;
            }
        } catch (SQLException e) {
            // No history table yet: a new database.
            return false;
        }
    }

    /** Brings the schema up to date with the migrations under {@code db/weft/<dialect>}. */
    static void migrate(DatabaseUrl url, DataSource dataSource, String dialect, Optional<String> schema) {
        FluentConfiguration config = Flyway.configure(Migrations.class.getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:db/weft/" + dialect)
                .table(HISTORY_TABLE)
                .failOnMissingLocations(true);
        schema.ifPresent(name -> config.schemas(name).defaultSchema(name).createSchemas(true));
        try {
            config.load().migrate();
        } catch (FlywayException e) {
            throw unavailable(url, "cannot bring its schema up to date: " + Failures.oneLine(e), e);
        }
    }

    static StoreUnavailableException unavailable(DatabaseUrl url, String reason, @Nullable Throwable cause) {
        return new StoreUnavailableException("cannot open database '" + url.shown() + "': " + reason, cause);
    }
}
