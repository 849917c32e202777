package dev.weft.store;

import dev.weft.core.spi.RunStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;

/**
 * The database of a run store, for the tables an application (an assistant) keeps beside the runs:
 * its dialect, transactions on the store's own connections (so a SQLite file keeps one writer), and
 * migrations of the application's own, with a history table of their own. Thread-safe.
 */
public final class AppDatabase {
    /** The SQL dialect of the database, for the few statements that differ. */
    public enum Dialect {
        SQLITE,
        POSTGRESQL
    }

    /** Work on one connection inside one transaction; {@link SQLException}s become {@code E_STORE_UNAVAILABLE}. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final JdbcRunStore store;
    private final Dialect dialect;

    private AppDatabase(JdbcRunStore store) {
        this.store = store;
        this.dialect = store.url().kind() == DatabaseUrl.Kind.SQLITE ? Dialect.SQLITE : Dialect.POSTGRESQL;
    }

    /**
     * The database {@code store} keeps its runs in.
     *
     * @throws IllegalArgumentException for a store with no database (the in-memory store)
     */
    public static AppDatabase of(RunStore store) {
        Objects.requireNonNull(store, "store");
        if (!(store instanceof JdbcRunStore jdbc)) {
            throw new IllegalArgumentException("a " + store.getClass().getSimpleName()
                    + " keeps no database for application data; open a SQLite or PostgreSQL store with Stores.open");
        }
        return new AppDatabase(jdbc);
    }

    public Dialect dialect() {
        return dialect;
    }

    /**
     * Brings the application's tables up to date with its Flyway migrations under {@code
     * db/<name>/sqlite} or {@code db/<name>/postgresql} on the class path, recorded in the table
     * {@code <name>_schema_history}.
     *
     * @throws StoreUnavailableException if a migration fails
     */
    public void migrate(String name, ClassLoader loader) {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-z][a-z0-9_]*")) {
            throw new IllegalArgumentException(
                    "an application's name must be lower-case letters, digits and '_', starting with a letter; was '"
                            + name + "'");
        }
        FluentConfiguration config = Flyway.configure(loader)
                .dataSource(store.writePool())
                .locations("classpath:db/" + name + "/" + (dialect == Dialect.SQLITE ? "sqlite" : "postgresql"))
                .table(name + "_schema_history")
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .failOnMissingLocations(true);
        if (dialect == Dialect.POSTGRESQL) {
            String schema = PostgresRunStore.schema(store.url().jdbcUrl());
            config.schemas(schema).defaultSchema(schema);
        }
        try {
            config.load().migrate();
        } catch (FlywayException e) {
            throw Migrations.unavailable(
                    store.url(), "cannot bring the tables of '" + name + "' up to date: " + Failures.oneLine(e), e);
        }
    }

    /**
     * The store's pool of write connections, for a library that needs a {@link DataSource} of its own
     * (a persistent scheduler). On SQLite it lends the file's one writer: hold a connection only for a
     * statement or a short transaction, and never while inside {@link #write}.
     */
    public DataSource dataSource() {
        return store.writePool();
    }

    /** Runs {@code work} in one write transaction; {@code what} names it in an error. */
    public <T> T write(String what, Work<T> work) {
        Objects.requireNonNull(work, "work");
        return store.write(what, sql -> work.run(sql.connection()));
    }

    /** Runs {@code work} on a read connection; {@code what} names it in an error. */
    public <T> T read(String what, Work<T> work) {
        Objects.requireNonNull(work, "work");
        return store.read(what, sql -> work.run(sql.connection()));
    }
}
