package dev.weft.time.internal;

import dev.weft.time.TimeExpression.Recurrence.Frequency;
import java.time.DayOfWeek;
import java.util.List;

/** What a grammar read at one place in the text, before resolution. */
sealed interface Parsed {

    record InstantParse(InstantSpec spec) implements Parsed {}

    record IntervalParse(InstantSpec from, InstantSpec to) implements Parsed {}

    /** An instant and how long from it: "tomorrow at 11 for 90 minutes". */
    record LastingParse(InstantSpec from, Offset length) implements Parsed {}

    /** A weekend: resolved to an interval from its first to its last day. */
    record WeekendParse(int weeks) implements Parsed {}

    /** A recurrence; zero means "not said" for {@code nth}, {@code dayOfMonth} and {@code month}. */
    record RecurrenceParse(
            Frequency frequency,
            int interval,
            List<DayOfWeek> days,
            int nth,
            int dayOfMonth,
            int month,
            List<ClockTime> times,
            PartOfDay partOfDay,
            InstantSpec until)
            implements Parsed {}

    /** A reading that covers tokens {@code [start, end)}. */
    record Match(Parsed parsed, int start, int end) {}
}
