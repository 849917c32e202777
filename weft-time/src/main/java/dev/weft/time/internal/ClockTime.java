package dev.weft.time.internal;

import dev.weft.time.Grain;

/**
 * A time of day as written: {@code hour} may be 1-12 with no meridiem, in which case the resolver
 * chooses between morning and evening.
 */
record ClockTime(int hour, int minute, int second, Meridiem meridiem, boolean twentyFourHour, Grain grain) {

    enum Meridiem {
        AM,
        PM,
        NONE
    }

    static ClockTime of(int hour, int minute, Grain grain) {
        return new ClockTime(hour, minute, 0, Meridiem.NONE, hour == 0 || hour > 12, grain);
    }

    /** True when the written hour could be either in the morning or in the evening. */
    boolean ambiguous() {
        return meridiem == Meridiem.NONE && !twentyFourHour && hour >= 1 && hour <= 12;
    }

    ClockTime withMeridiem(Meridiem m) {
        return new ClockTime(hour, minute, second, m, twentyFourHour, grain);
    }

    /** The hour on a 24-hour clock once the meridiem is known; ambiguous hours stay as written. */
    int hour24() {
        return switch (meridiem) {
            case AM -> hour == 12 ? 0 : hour;
            case PM -> hour < 12 ? hour + 12 : hour;
            case NONE -> hour == 24 ? 0 : hour;
        };
    }
}
