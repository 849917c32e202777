package dev.weft.plan.internal;

import java.time.Instant;

/**
 * {@link Instant#toString()} for timestamps written once per step, without running the JDK's
 * {@code DateTimeFormatter} for each one. Thread-safe.
 *
 * <p>Why: a step's outcome records when it committed, and {@code Instant.toString} (a general
 * formatter walking its printer-parsers) was about 2% of a short plan's CPU. Instants of one second
 * share everything before the fraction, so the text up to the seconds is formatted by the JDK once
 * per second and kept; the fraction is appended here exactly as {@code ISO_INSTANT} writes it.
 */
public final class Instants {
    /** The most recent second formatted: its epoch second and its text without the trailing 'Z'. */
    private record Second(long epochSecond, String text) {}

    private static volatile Second last = new Second(0, "1970-01-01T00:00:00");

    private Instants() {}

    /** Exactly {@code instant.toString()}. */
    public static String format(Instant instant) {
        long seconds = instant.getEpochSecond();
        Second second = last;
        if (second.epochSecond() != seconds) {
            // The JDK formats the whole second (no fraction when nanos are 0); the fraction never
            // changes what comes before it, in any era.
            String whole = Instant.ofEpochSecond(seconds).toString();
            second = new Second(seconds, whole.substring(0, whole.length() - 1));
            last = second;
        }
        int nanos = instant.getNano();
        if (nanos == 0) {
            return second.text() + 'Z';
        }
        StringBuilder text = new StringBuilder(second.text().length() + 11).append(second.text());
        // As ISO_INSTANT does: the fraction in groups of three digits, as many groups as it needs.
        text.append('.');
        int divisor = 100_000_000;
        int rest = nanos;
        for (int i = 0; rest > 0 || i % 3 != 0; i++) {
            int digit = rest / divisor;
            text.append((char) ('0' + digit));
            rest -= digit * divisor;
            divisor /= 10;
        }
        return text.append('Z').toString();
    }
}
