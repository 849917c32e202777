package dev.weft.core;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * How a node's failed step is tried again: up to {@code maxAttempts} attempts in all, waiting a
 * capped exponential backoff with jitter between them, and only for failures {@code retryOn}
 * accepts (by default, {@linkplain WeftException#isTransient() transient} ones and I/O errors).
 *
 * <p>The wait before attempt {@code n + 1} is {@code d * (1 - jitter * r)}, where {@code d =
 * min(maxDelay, initialDelay * multiplier^(n-1))} and {@code r} is uniform in {@code [0, 1)}: so it
 * lies in {@code [d * (1 - jitter), d]}.
 */
public record RetryPolicy(
        int maxAttempts,
        Duration initialDelay,
        Duration maxDelay,
        double multiplier,
        double jitter,
        Predicate<Throwable> retryOn) {

    /** One attempt, no retry. */
    public static final RetryPolicy NONE =
            new RetryPolicy(1, Duration.ZERO, Duration.ZERO, 1.0, 0.0, RetryPolicy::isTransientByDefault);

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("max attempts must be at least 1, was " + maxAttempts);
        }
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(retryOn, "retryOn");
        if (initialDelay.isNegative()) {
            throw new IllegalArgumentException("initial delay must not be negative, was " + initialDelay);
        }
        if (maxDelay.compareTo(initialDelay) < 0) {
            throw new IllegalArgumentException(
                    "max delay must be at least the initial delay " + initialDelay + ", was " + maxDelay);
        }
        if (!(multiplier >= 1.0)) {
            throw new IllegalArgumentException("multiplier must be at least 1, was " + multiplier);
        }
        if (!(jitter >= 0.0 && jitter <= 1.0)) {
            throw new IllegalArgumentException("jitter must be between 0 and 1, was " + jitter);
        }
    }

    /** {@code maxAttempts} attempts, 100 ms doubling up to 10 s, 20 % jitter, transient failures only. */
    public static RetryPolicy attempts(int maxAttempts) {
        return new RetryPolicy(
                maxAttempts,
                Duration.ofMillis(100),
                Duration.ofSeconds(10),
                2.0,
                0.2,
                RetryPolicy::isTransientByDefault);
    }

    public RetryPolicy withBackoff(Duration initialDelay, Duration maxDelay, double multiplier) {
        return new RetryPolicy(maxAttempts, initialDelay, maxDelay, multiplier, jitter, retryOn);
    }

    public RetryPolicy withJitter(double jitter) {
        return new RetryPolicy(maxAttempts, initialDelay, maxDelay, multiplier, jitter, retryOn);
    }

    public RetryPolicy withRetryOn(Predicate<Throwable> retryOn) {
        return new RetryPolicy(maxAttempts, initialDelay, maxDelay, multiplier, jitter, retryOn);
    }

    /** Whether a step that failed with {@code failure} on attempt {@code attempt} is tried again. */
    public boolean shouldRetry(int attempt, Throwable failure) {
        return attempt < maxAttempts && retryOn.test(failure);
    }

    /** The wait after failed attempt {@code attempt} (from 1), drawing the jitter from {@code random}. */
    public Duration delayAfter(int attempt, RandomGenerator random) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1, was " + attempt);
        }
        double base = initialDelay.toNanos() * Math.pow(multiplier, attempt - 1);
        double capped = Math.min(base, (double) maxDelay.toNanos());
        double jittered = capped * (1.0 - jitter * random.nextDouble());
        return Duration.ofNanos((long) jittered);
    }

    static boolean isTransientByDefault(Throwable failure) {
        return (failure instanceof WeftException weft && weft.isTransient())
                || failure instanceof java.io.UncheckedIOException
                || failure instanceof java.io.IOException;
    }
}
