package dev.weft.time.internal;

import com.ibm.icu.util.Calendar;
import com.ibm.icu.util.HebrewCalendar;
import com.ibm.icu.util.TimeZone;
import dev.weft.time.Grain;
import dev.weft.time.internal.DateRef.HebrewDate;
import dev.weft.time.internal.DateRef.Observance;
import dev.weft.time.internal.Resolver.DateValue;
import java.time.DayOfWeek;
import java.time.LocalDate;

/** Days of the Hebrew calendar as Gregorian dates, through ICU4J's {@link HebrewCalendar}; stateless. */
final class HebrewDates {

    private static final TimeZone UTC = TimeZone.getTimeZone("UTC");
    private static final long MILLIS_PER_DAY = 86_400_000L;
    /** Years up to this are Gregorian ("Passover 2027"); above it, Hebrew (5787). */
    private static final int GREGORIAN_YEARS = 3000;

    private HebrewDates() {}

    /** The date of {@code h}: in its year, or the next such day (month) from today on. */
    static DateValue resolve(HebrewDate h, LocalDate today) {
        Grain grain = h.day() == 0 ? Grain.MONTH : Grain.DAY;
        int day = Math.max(1, h.day());
        if (h.year() > GREGORIAN_YEARS) {
            LocalDate d = observed(h, h.year(), day);
            return d == null ? null : new DateValue(d, grain);
        }
        if (h.year() != 0) {
            // a Gregorian year: the Hebrew year whose such day falls in it
            for (int y = h.year() + 3760; y <= h.year() + 3761; y++) {
                LocalDate d = observed(h, y, day);
                if (d != null && d.getYear() == h.year()) {
                    return new DateValue(d, grain);
                }
            }
            return null;
        }
        int year = hebrewYear(today);
        for (int y = year - 1; y <= year + 2; y++) {
            LocalDate d = observed(h, y, day);
            if (d == null) {
                continue;
            }
            LocalDate until = h.day() == 0 ? d.plusDays(28) : d;
            if (!until.isBefore(today)) {
                return new DateValue(d, grain);
            }
        }
        return null;
    }

    /** The day {@code h} is kept in Hebrew year {@code year}, moved off the weekdays Israel moves it off. */
    private static LocalDate observed(HebrewDate h, int year, int day) {
        LocalDate d = gregorian(year, h.month(), day);
        if (d == null) {
            return null;
        }
        DayOfWeek w = d.getDayOfWeek();
        return switch (h.observance()) {
            case EXACT -> d;
            case INDEPENDENCE, MEMORIAL -> {
                LocalDate independence = w == DayOfWeek.FRIDAY
                        ? d.minusDays(1)
                        : w == DayOfWeek.SATURDAY ? d.minusDays(2) : w == DayOfWeek.MONDAY ? d.plusDays(1) : d;
                yield h.observance() == Observance.MEMORIAL ? independence.minusDays(1) : independence;
            }
            case HOLOCAUST -> w == DayOfWeek.FRIDAY ? d.minusDays(1) : w == DayOfWeek.SUNDAY ? d.plusDays(1) : d;
            case FAST -> w == DayOfWeek.SATURDAY ? d.plusDays(1) : d;
        };
    }

    /** The Hebrew year (Anno Mundi) that holds a Gregorian date: 5787 for 2026-11-21. */
    static int hebrewYear(LocalDate date) {
        HebrewCalendar c = new HebrewCalendar(UTC);
        c.clear();
        c.setTimeInMillis(date.toEpochDay() * MILLIS_PER_DAY);
        return c.get(Calendar.EXTENDED_YEAR);
    }

    /**
     * The Gregorian date of a Hebrew day, or null when the day is not in that month. Adar I (5) in a
     * common year is its only Adar (6).
     */
    static LocalDate gregorian(int year, int month, int day) {
        HebrewCalendar c = new HebrewCalendar(UTC);
        c.clear();
        int m = month == HebrewCalendar.ADAR_1 && !isLeap(year) ? HebrewCalendar.ADAR : month;
        c.set(Calendar.EXTENDED_YEAR, year);
        c.set(Calendar.MONTH, m);
        c.set(Calendar.DATE, 1);
        if (day > c.getActualMaximum(Calendar.DAY_OF_MONTH)) {
            return null;
        }
        c.set(Calendar.DATE, day);
        return LocalDate.ofEpochDay(Math.floorDiv(c.getTimeInMillis(), MILLIS_PER_DAY));
    }

    /** True for a Hebrew leap year, which has two Adars. */
    static boolean isLeap(int year) {
        return Math.floorMod(7L * year + 1, 19) < 7;
    }
}
