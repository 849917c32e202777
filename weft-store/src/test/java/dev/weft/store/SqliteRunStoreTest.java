package dev.weft.store;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The store contract, and what a durable store adds, on a fresh SQLite file per test. */
final class SqliteRunStoreTest extends DurableRunStoreContract {
    @TempDir
    Path directory;

    @Override
    protected String freshUrl() {
        return "sqlite:" + directory.resolve("weft.db");
    }
}
