package dev.weft.llm;

import dev.weft.core.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/** A time source that never sleeps: each sleep is recorded and moves the clock forward. */
public final class FakeTime implements TimeSource {
    /** Jitter that is always zero, so every retry waits exactly the policy's delay. */
    public static final RandomGenerator NO_JITTER = new RandomGenerator() {
        @Override
        public long nextLong() {
            return 0;
        }

        @Override
        public double nextDouble() {
            return 0.0;
        }
    };

    private Instant now = Instant.parse("2026-01-01T00:00:00Z");
    private final List<Duration> sleeps = new ArrayList<>();

    @Override
    public synchronized Instant now() {
        return now;
    }

    @Override
    public synchronized void sleep(Duration duration) {
        sleeps.add(duration);
        now = now.plus(duration);
    }

    public synchronized List<Duration> sleeps() {
        return List.copyOf(sleeps);
    }
}
