package dev.weft.time;

import java.util.Locale;

/** How precise a resolved time is: "tomorrow" has grain day, "at 9" hour, "9:30" minute. */
public enum Grain {
    SECOND,
    MINUTE,
    HOUR,
    DAY,
    WEEK,
    MONTH,
    QUARTER,
    YEAR;

    /** The lower-case name used in JSON: {@code "day"}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The finer of two grains. */
    public static Grain finer(Grain a, Grain b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
