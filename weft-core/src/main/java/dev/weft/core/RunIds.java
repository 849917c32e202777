package dev.weft.core;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Run ids that sort by creation time: version 7 UUIDs (RFC 9562 §5.7), a 48-bit Unix time in
 * milliseconds followed by random bits. A database keeps a run's rows (steps, events, checkpoints,
 * keyed by run id first) in B-trees ordered by that id; with time-ordered ids a new run's rows go at
 * the end of each tree, where the pages of recent runs already are, instead of at a random place
 * that must be read and written back. Thread-safe.
 */
public final class RunIds {
    private static final SecureRandom SEED = new SecureRandom();
    /** The last (millisecond, sequence) handed out, so that ids of one process also sort within a millisecond. */
    private static final AtomicLong LAST = new AtomicLong();

    private RunIds() {}

    /** A new version 7 UUID, as text; later calls in this process give greater ids. */
    public static String next() {
        return nextUuid().toString();
    }

    static UUID nextUuid() {
        long now = System.currentTimeMillis();
        // The 12 bits after the time count ids within one millisecond (RFC 9562 §6.2, method 1), so
        // ids of this process never go backwards even if the clock does.
        long stamp = LAST.updateAndGet(last -> Math.max(last + 1, now << 12));
        long millis = stamp >>> 12;
        long counter = stamp & 0xFFF;
        long high = (millis << 16) | (0x7L << 12) | counter;
        long low = (SEED.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(high, low);
    }
}
