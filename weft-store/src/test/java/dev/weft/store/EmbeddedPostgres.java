package dev.weft.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server for tests, started from the binaries that the {@code
 * io.zonky.test.postgres} Maven artifacts ship (as root, zonky runs it in a user namespace, since
 * PostgreSQL refuses to run as root). One server serves every test class of the run, started when
 * the first asks and stopped when the JVM exits; each {@link #freshUrl} names a new, empty schema.
 */
public final class EmbeddedPostgres {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static EmbeddedPostgres shared;

    private final io.zonky.test.db.postgres.embedded.EmbeddedPostgres server;

    private EmbeddedPostgres(io.zonky.test.db.postgres.embedded.EmbeddedPostgres server) {
        this.server = server;
    }

    public static synchronized EmbeddedPostgres shared() {
        if (shared == null) {
            try {
                io.zonky.test.db.postgres.embedded.EmbeddedPostgres server =
                        io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                                .start();
                Runtime.getRuntime().addShutdownHook(new Thread(() -> close(server), "embedded-postgres-stop"));
                shared = new EmbeddedPostgres(server);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start the embedded PostgreSQL", e);
            }
        }
        return shared;
    }

    int port() {
        return server.getPort();
    }

    /** A URL whose store gets a schema of its own, so that every test starts empty. */
    public String freshUrl() {
        return url("postgres") + "&currentSchema=test_" + SCHEMAS.incrementAndGet();
    }

    String url(String database) {
        return "jdbc:postgresql://localhost:" + port() + "/" + database + "?user=postgres";
    }

    void execute(String sql) {
        try (Connection connection = server.getPostgresDatabase().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    /** A connection to the database {@code url} names (with its schema), for looking at the rows. */
    static Connection connect(String url) throws SQLException {
        return java.sql.DriverManager.getConnection(url);
    }

    private static void close(io.zonky.test.db.postgres.embedded.EmbeddedPostgres server) {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
