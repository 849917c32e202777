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
        /** Said with "next" ("next Monday", "יום שני הבא"): NEXT, or the one of next week if so configured. */
        NEXT_SAID,
        /** Today if it is that day, else the next one. */
        THIS,
        LAST,
        IN_WEEK
    }

    /**
     * A day {@code days} from Western Easter Sunday (Good Friday is -2); {@code year} 0 means the next
     * such day from today on.
     */
    record EasterRef(int days, int year) implements DateRef {}

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

    /** A quarter of the year {@code yearShift} years from this one: "Q3 next year". */
    record QuarterInYear(int quarter, int yearShift) implements DateRef {}

    record YearRef(int year) implements DateRef {}

    /** The n-th (or, for n = -1, the last) given weekday of a month. */
    record NthWeekdayRef(int n, DayOfWeek day, DateRef month) implements DateRef {}

    /** The last day of a period (week, month, quarter, year) or of a named month. */
    record EndOf(DateRef period) implements DateRef {}

    /** The first day of a period or of a named month. */
    record StartOf(DateRef period) implements DateRef {}

    /** A date moved by an amount: "a week from Monday", "June after next"; the grain is the base's. */
    record Shifted(DateRef base, Offset offset) implements DateRef {}

    /** The n-th day (n < 0: from the end, -1 the last) of a month or a year. */
    record NthDayOf(DateRef period, int n) implements DateRef {}

    /**
     * The n-th week (n < 0: from the end) of a month or a year: the first week is the one holding
     * the period's first day, the last one the week holding its last day.
     */
    record NthWeekOf(DateRef period, int n) implements DateRef {}

    /** A date said with its weekday ("Mon, Sep 8", "Sat 21st"): the next such date on that weekday. */
    record WithWeekday(DateRef date, DayOfWeek day) implements DateRef {}

    /** A named month in the year {@code yearShift} years from this one: "June next year", "June in a year". */
    record MonthInYear(int month, int yearShift) implements DateRef {}

    /**
     * The n-th given weekday after a date (n > 0) or before it (n < 0), not counting the date itself:
     * "the second Friday after New Year", "three Mondays from now", "2 Fridays ago".
     */
    record WeekdayAfter(DateRef base, DayOfWeek day, int n) implements DateRef {}

    /** The given weekday nearest to a date: "the closest Tuesday to June 3rd". */
    record ClosestWeekday(DateRef base, DayOfWeek day) implements DateRef {}

    /**
     * A day of the Hebrew calendar, months numbered as ICU4J's {@code HebrewCalendar} (Tishri 0 …
     * Elul 12, Adar 6); {@code year} 0 means the next such day from today on, a year up to 3000 the
     * such day in that Gregorian year, a later one a Hebrew year. {@code day} 0 stands for the whole
     * month (grain month).
     */
    record HebrewDate(int month, int day, int year, Observance observance) implements DateRef {
        HebrewDate(int month, int day, int year) {
            this(month, day, year, Observance.EXACT);
        }
    }

    /** How Israel moves a day of the Hebrew calendar off a weekday (the law since 2004 for the first three). */
    enum Observance {
        EXACT,
        /** Independence Day, 5 Iyar: Friday and Saturday to Thursday, Monday to Tuesday. */
        INDEPENDENCE,
        /** Memorial Day, the day before Independence Day. */
        MEMORIAL,
        /** Holocaust Remembrance Day, 27 Nisan: Friday to Thursday, Sunday to Monday. */
        HOLOCAUST,
        /** A fast that falls on a Saturday is kept on Sunday (Tisha B'Av). */
        FAST
    }
}
