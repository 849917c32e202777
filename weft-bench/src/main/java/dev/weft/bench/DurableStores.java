package dev.weft.bench;

import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The durable stores the graph benchmark measures: SQLite in a temporary file, and PostgreSQL in an
 * embedded server the benchmark starts itself (once, stopped when the JVM exits).
 */
final class DurableStores {
    private static EmbeddedPostgres postgres;

    private DurableStores() {}

    static RunStore sqlite() {
        try {
            Path dir = Files.createTempDirectory("weft-bench");
            // Deleted in the reverse order of these calls: the database's files first, then its folder.
            dir.toFile().deleteOnExit();
            Path file = dir.resolve("bench.db");
            for (String suffix : new String[] {"", "-wal", "-shm"}) {
                dir.resolve(file.getFileName() + suffix).toFile().deleteOnExit();
            }
            return Stores.open(Optional.of("sqlite:" + file), Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static RunStore postgres() {
        return Stores.open(Optional.of(postgresUrl("public")), Map.of());
    }

    /** The embedded PostgreSQL's URL, with {@code schema} as the store's schema (made if missing). */
    static synchronized String postgresUrl(String schema) {
        if (postgres == null) {
            try {
                postgres = EmbeddedPostgres.builder().start();
            } catch (IOException e) {
                throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
            }
            EmbeddedPostgres started = postgres;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (IOException e) {
                    // the JVM is exiting
                }
            }));
        }
        return postgres.getJdbcUrl("postgres", "postgres") + "&currentSchema=" + schema;
    }
}
