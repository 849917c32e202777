package dev.weft.redis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
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

    /**
     * The most characters of an outcome an announcement carries: a larger one is read from the store
     * by whoever hears of it (a channel's message is copied to every subscriber).
     */
    static final int MOST_ANNOUNCED = 64 * 1024;

    /**
     * What a worker announces on the outcomes channel once a step's outcome is stored: {@code "<run>
     * <step>"}, then, on a line of its own, the stored outcome (the one the compare-and-set kept, so
     * the process that hears it delivers it without reading the store), unless it is larger than
     * {@link #MOST_ANNOUNCED}.
     */
    static String announcement(String runId, int order, Optional<JsonNode> stored) {
        String head = runId + " " + order;
        return stored.map(Json::write)
                .filter(text -> text.length() <= MOST_ANNOUNCED)
                .map(text -> head + "\n" + text)
                .orElse(head);
    }

    /** An announcement heard: the step, and its stored outcome if the announcement carried it. */
    record Announced(String runId, int order, Optional<JsonNode> stored) {}

    /** Reads an announcement; empty if it is not one (a foreign message on the channel). */
    static Optional<Announced> announced(String message) {
        int newline = message.indexOf('\n');
        String head = newline < 0 ? message : message.substring(0, newline);
        int space = head.lastIndexOf(' ');
        if (space <= 0) {
            return Optional.empty();
        }
        int order;
        try {
            order = Integer.parseInt(head.substring(space + 1));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        Optional<JsonNode> stored = Optional.empty();
        if (newline >= 0) {
            try {
                stored = Optional.of(Json.parse(message.substring(newline + 1), "an announced outcome"));
            } catch (WeftException e) {
                // Read from the store instead.
            }
        }
        return Optional.of(new Announced(head.substring(0, space), order, stored));
    }
}
