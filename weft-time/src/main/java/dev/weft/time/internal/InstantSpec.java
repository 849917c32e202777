package dev.weft.time.internal;

import java.time.ZoneId;

/**
 * The parts of one instant expression as written; any of them may be absent (null) here, inside the
 * parser. Mutable while a grammar builds it, then handed to the {@link Resolver}.
 */
final class InstantSpec {
    DateRef date;
    ClockTime time;
    PartOfDay partOfDay;
    ZoneId zone;
    Offset offset;
    boolean now;
    /** "tonight", "this evening": the part of the day is today's even if it is over. */
    boolean thisPartOfDay;
    /** "this time tomorrow": the day named, at the time of day it is now. */
    boolean sameTime;

    InstantSpec copy() {
        InstantSpec c = new InstantSpec();
        c.date = date;
        c.time = time;
        c.partOfDay = partOfDay;
        c.zone = zone;
        c.offset = offset;
        c.now = now;
        c.thisPartOfDay = thisPartOfDay;
        c.sameTime = sameTime;
        return c;
    }

    boolean isEmpty() {
        return date == null && time == null && partOfDay == null && offset == null && !now && !sameTime;
    }
}
