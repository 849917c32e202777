package dev.weft.time.internal;

import java.time.temporal.ChronoUnit;

/** A signed amount of a unit from now: "in 15 minutes" is (15, MINUTES), "3 days ago" (-3, DAYS). */
record Offset(long amount, ChronoUnit unit) {

    Offset negated() {
        return new Offset(-amount, unit);
    }

    /** True for units of a day or longer, which resolve to a date rather than to an exact instant. */
    boolean dateBased() {
        return unit.compareTo(ChronoUnit.DAYS) >= 0;
    }
}
