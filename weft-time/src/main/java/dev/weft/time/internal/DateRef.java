package dev.weft.time.internal;

import dev.weft.time.Grain;
import java.time.DayOfWeek;

/** The date part of a parsed expression, before it is resolved against a reference time. */
sealed interface DateRef {

    /** Today plus {@code days}: today, tomorrow, yesterday, the day after tomorrow. */
    record RelativeDay(int days) implements DateRef {}

    /** A weekday: the next one after today, the last one before it, or the one in a given week. */
    record WeekdayRef(DayOfWeek day, WeekdayMode mode, int weeks) implements DateRef {}

    enum WeekdayMode {
        /** The first one after today. */
        NEXT,
        /** Today if it is that day, else the next one. */
        THIS,
        LAST,
        IN_WEEK
    }

    /** A calendar date; {@code year} 0 means the next such date from today on. */
    record CalendarDate(int year, int month, int day) implements DateRef {}

    /** A day of a month: "the 15th" (next one from today on), or of the month {@code months} away. */
    record DayOfMonthRef(int day, boolean relativeMonth, int months) implements DateRef {}

    /** A named month, with a year or the next one from this month on ({@code shift} -1: the last one). */
    record MonthRef(int month, int year, int shift) implements DateRef {}

    /** The week, month, quarter or year {@code shift} periods from the current one. */
    record PeriodRef(Grain grain, int shift) implements DateRef {}

    /** A named quarter, with a year or the next one from this quarter on. */
    record QuarterRef(int quarter, int year) implements DateRef {}

    record YearRef(int year) implements DateRef {}

    /** The n-th (or, for n = -1, the last) given weekday of a month. */
    record NthWeekdayRef(int n, DayOfWeek day, DateRef month) implements DateRef {}

    /** The last day of a period (week, month, quarter, year) or of a named month. */
    record EndOf(DateRef period) implements DateRef {}

    /** The first day of a period or of a named month. */
    record StartOf(DateRef period) implements DateRef {}

    /** A date moved by an amount: "a week from Monday", "the Monday after next". */
    record Shifted(DateRef base, Offset offset) implements DateRef {}
}
