package dev.weft.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationVersion;
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
    static final Map<String, String> LATEST_VERSIONS = Map.of("sqlite", "8", "postgresql", "9");

    /**
     * Connects once and runs {@code sql}, so that a wrong address, password or file fails here, in
     * one line; then tells whether the schema of {@code dialect} is already at its {@link
     * #LATEST_VERSIONS latest version}. A schema migrated past it, by a newer Weft, is refused with
     * {@code E_SCHEMA_TOO_NEW}: its rows may be written in a way this build does not read (from
     * SQLite's V8 on, a step's changes are in the journal, where an older build would neither read
     * nor write them), and Flyway itself ignores migrations it does not know.
     */
    static boolean probe(DatabaseUrl url, DataSource dataSource, String dialect, String sql) {
        String latest = LATEST_VERSIONS.get(dialect);
        List<String> applied;
        try (Connection connection = dataSource.getConnection()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
            }
            applied = appliedVersions(connection);
        } catch (SQLException e) {
            throw unavailable(url, Failures.oneLine(e), e);
        }
        MigrationVersion known = MigrationVersion.fromVersion(latest);
        boolean current = false;
        for (String version : applied) {
            MigrationVersion migrated = MigrationVersion.fromVersion(version);
            if (migrated.isNewerThan(known)) {
                throw new SchemaTooNewException("cannot open database '" + url.shown() + "': its schema is at version "
                        + version + ", newer than this build of Weft knows (" + latest + "); upgrade this"
                        + " process, or give it a database of its own");
            }
            current |= migrated.equals(known);
        }
        return current;
    }

    /** The versions the history records as applied, or none for a new database. */
    private static List<String> appliedVersions(Connection connection) {
        try (PreparedStatement select = connection.prepareStatement(
                        "SELECT version FROM " + HISTORY_TABLE + " WHERE success AND version IS NOT NULL");
                ResultSet row = select.executeQuery()) {
            List<String> versions = new ArrayList<>();
            while (row.next()) {
                versions.add(row.getString(1));
            }
            return versions;
        } catch (SQLException e) {
            // No history table yet: a new database.
            return List.of();
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
