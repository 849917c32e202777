package dev.weft.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A time source that never sleeps: each sleep is recorded and moves the clock forward. */
final class FakeTime implements TimeSource {
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

    /** A clock stopped at {@code instant}, whose sleeps return at once: a process as of that moment. */
    static TimeSource frozenAt(Instant instant) {
        return new TimeSource() {
            @Override
            public Instant now() {
                return instant;
            }

            @Override
            public void sleep(Duration duration) {}
        };
    }

    synchronized List<Duration> sleeps() {
        return List.copyOf(sleeps);
    }
}
