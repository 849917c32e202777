package dev.weft.redis;

import java.util.Objects;

/**
 * The Redis keys and channels Weft's step queue uses, all under one prefix ({@code weft} by
 * default), so that several deployments can share a Redis server: the stream of steps, its consumer
 * group, the dead-letter stream, each step's marker, and the channels that tell of outcomes and of
 * runs' committed events.
 */
public record StreamNames(String prefix) {
    public static final StreamNames DEFAULT = new StreamNames("weft");

    public StreamNames {
        Objects.requireNonNull(prefix, "prefix");
        if (!prefix.matches("[A-Za-z0-9_.:-]+")) {
            throw new IllegalArgumentException(
                    "a key prefix is letters, digits, '_', '.', ':' or '-', was '" + prefix + "'");
        }
    }

    /** The stream steps are queued on. */
    public String stream() {
        return prefix + ":steps";
    }

    /** The consumer group every worker reads the stream through. */
    public String group() {
        return prefix + "-workers";
    }

    /** Where entries that failed every try go, with the reason. */
    public String deadLetters() {
        return prefix + ":steps:dead";
    }

    /** The marker of step {@code order} of run {@code runId}: its entry id while queued, then {@code done}. */
    public String marker(String runId, int order) {
        return prefix + ":step:" + runId + "/" + order;
    }

    /**
     * The lock a worker holds on step {@code order} of run {@code runId} while it runs it, so that a
     * second entry of the same step (queued again by a process that recovered the run) waits for the
     * first rather than run beside it.
     */
    public String running(String runId, int order) {
        return prefix + ":running:" + runId + "/" + order;
    }

    /** The channel a worker announces each stored outcome on ({@code "<runId> <order>"}). */
    public String outcomes() {
        return prefix + ":outcomes";
    }

    /** The channel a driving process announces runs with newly committed events on (the run id). */
    public String events() {
        return prefix + ":events";
    }
}
