package dev.weft.redis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.spi.RunStore;
import java.util.Optional;

/**
 * Where a queued step's outcome is kept: in the run store, under a key of its own, stored once (the
 * first worker to store one wins, {@link RunStore#saveIdempotentResult}), so that a late or
 * duplicated delivery can never replace it, and every process delivers the same one. Stateless.
 */
final class Outcomes {
    private Outcomes() {}

    static String key(String runId, int order) {
        return "weft.queued:" + runId + "/" + order;
    }

    static Optional<JsonNode> stored(RunStore store, String runId, int order) {
        return store.idempotentResult(key(runId, order));
    }

    /** Stores {@code outcome} unless one is stored; returns the one that is. */
    static JsonNode save(RunStore store, String runId, int order, JsonNode outcome) {
        return store.saveIdempotentResult(key(runId, order), outcome);
    }
}
