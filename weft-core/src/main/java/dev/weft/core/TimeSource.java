package dev.weft.core;

import java.time.Duration;
import java.time.Instant;

/**
 * Where the runtime reads the time and how it waits. Injected, so retries, delays and timeouts are
 * tested without sleeping. Implementations are thread-safe.
 */
public interface TimeSource {
    Instant now();

    /** Waits for {@code duration}; an interrupted wait ends early with the interrupt flag set. */
    void sleep(Duration duration) throws InterruptedException;

    /** The wall clock and real sleeping. */
    static TimeSource system() {
        return SystemTimeSource.INSTANCE;
    }

    /**
     * A time source that reads {@code clock} and never waits (its {@code sleep} returns at once): for
     * tests, simulations and benchmarks that set the time themselves.
     */
    static TimeSource of(java.util.function.Supplier<Instant> clock) {
        java.util.Objects.requireNonNull(clock, "clock");
        return new TimeSource() {
            @Override
            public Instant now() {
                return clock.get();
            }

            @Override
            public void sleep(Duration duration) {}
        };
    }
}

enum SystemTimeSource implements TimeSource {
    INSTANCE;

    @Override
    public Instant now() {
        return Instant.now();
    }

    @Override
    public void sleep(Duration duration) throws InterruptedException {
        if (!duration.isNegative() && !duration.isZero()) {
            Thread.sleep(duration);
        }
    }
}
