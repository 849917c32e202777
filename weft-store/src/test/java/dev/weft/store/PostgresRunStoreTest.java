package dev.weft.store;

/** The store contract, and what a durable store adds, on a real PostgreSQL server, a fresh schema per test. */
final class PostgresRunStoreTest extends DurableRunStoreContract {
    @Override
    protected String freshUrl() {
        return EmbeddedPostgres.shared().freshUrl();
    }
}
