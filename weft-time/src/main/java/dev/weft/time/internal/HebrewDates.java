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

    // ---- reading: a day of the Hebrew calendar as people write it -------------------------------

    /** Months of the Hebrew calendar, numbered as ICU4J's HebrewCalendar (Tishri 0 … Elul 12). */
    private static final java.util.Map<String, Integer> MONTHS = java.util.Map.ofEntries(
            java.util.Map.entry("תשרי", 0),
            java.util.Map.entry("חשון", 1),
            java.util.Map.entry("חשוון", 1),
            java.util.Map.entry("מרחשון", 1),
            java.util.Map.entry("מרחשוון", 1),
            java.util.Map.entry("כסלו", 2),
            java.util.Map.entry("כסליו", 2),
            java.util.Map.entry("טבת", 3),
            java.util.Map.entry("שבט", 4),
            java.util.Map.entry("אדר", 6),
            java.util.Map.entry("ניסן", 7),
            java.util.Map.entry("אייר", 8),
            java.util.Map.entry("איר", 8),
            java.util.Map.entry("סיון", 9),
            java.util.Map.entry("סיוון", 9),
            java.util.Map.entry("תמוז", 10),
            java.util.Map.entry("אב", 11),
            java.util.Map.entry("אלול", 12));

    private static final int AV = 11;

    /** A month of the Hebrew calendar at token {@code i}, written with its prefix. */
    private record MonthAt(int month, String prefix) {}

    /** The Hebrew month named by token {@code i} (with up to three prefix letters), or null. */
    private static MonthAt monthAt(Engine e, int i) {
        if (!mayNameMonth(e, i)) {
            return null;
        }
        String t = e.tok(i).text();
        for (int k = 0; k <= 3 && k < t.length(); k++) {
            if (k > 0 && Tokenizer.HEBREW_PREFIX_LETTERS.indexOf(t.charAt(k - 1)) < 0) {
                return null;
            }
            Integer m = MONTHS.get(t.substring(k));
            if (m != null) {
                return new MonthAt(m, t.substring(0, k));
            }
        }
        return null;
    }

    /** Whether token {@code i} ends as a Hebrew month's name does: a check that allocates nothing. */
    private static boolean mayNameMonth(Engine e, int i) {
        if (i < 0 || i >= e.size || !e.tok(i).isHebrew()) {
            return false;
        }
        String t = e.tok(i).text();
        for (String name : MONTHS.keySet()) {
            if (t.endsWith(name) && t.length() - name.length() <= 3) {
                return true;
            }
        }
        return false;
    }

    /** Whether token {@code i} names a month of the Hebrew calendar ("ה-13 בניסן" is no day of this month). */
    static boolean namesMonth(Engine e, int i) {
        return monthAt(e, i) != null;
    }

    /**
     * "ט\"ו בשבט", "15 בניסן", "כ\"ה בכסלו 2026", "א' בניסן תשפ\"ז", "י\"ד באדר א'", "בניסן" (the
     * month): a day of the Hebrew calendar at token {@code i}, or null. The day is in Hebrew letters or
     * a day of the month as the engine reads one; the month takes ב or ל, or none after a day.
     */
    static Hit<DateRef> dateAt(Engine e, int i) {
        if (i >= e.size
                || !(e.tok(i).isHebrew() || e.tok(i).isNumber())
                || !(mayNameMonth(e, i) || mayNameMonth(e, i + 1) || mayNameMonth(e, i + 2))) {
            return null; // a month of the Hebrew calendar is the first, second or third word of every such date
        }
        int day = 0;
        int j = i;
        int letters = e.tok(i).isHebrew() ? dayInLetters(e.tok(i).text()) : 0;
        if (letters > 0) {
            day = letters;
            j = i + 1;
        } else {
            Hit<Integer> n = e.dayBeforeMonth(i);
            String p = e.tok(i).isNumber() ? e.tok(i).prefix() : "";
            if (n != null && (p.isEmpty() || p.equals("ה") || p.equals("ב"))) {
                day = n.value();
                j = n.end();
            }
        }
        MonthAt m = monthAt(e, j);
        if (m == null
                || !(m.prefix().equals("ב")
                        || m.prefix().equals("ל")
                        || (m.prefix().isEmpty() && day > 0))) {
            return null;
        }
        if (m.month() == AV && day == 0) {
            return null; // "באב" alone is "in a father"
        }
        int month = m.month();
        int end = j + 1;
        if (month == HebrewCalendar.ADAR && end < e.size && e.tok(end).isHebrew()) {
            String t = e.tok(end).text();
            if (t.equals("א'") || t.equals("א")) {
                month = HebrewCalendar.ADAR_1;
                end++;
            } else if (t.equals("ב'") || t.equals("ב")) {
                end++;
            }
        }
        if (day == 0 && !m.prefix().equals("ב")) {
            return null;
        }
        int year = e.year(end)
                ? e.value(end)
                : end < e.size && e.tok(end).isHebrew()
                        ? yearInLetters(e.tok(end).text())
                        : 0;
        return new Hit<>(new HebrewDate(month, day, year), year != 0 ? end + 1 : end);
    }

    /** The value of a day written in Hebrew letters: "כ\"ה" 25, "ט\"ו" 15, "ה'" 5; 0 if it is none. */
    static int dayInLetters(String t) {
        String letters;
        if (t.length() == 2 && t.charAt(1) == '\'') {
            letters = t.substring(0, 1);
        } else if (t.length() == 3 && t.charAt(1) == '"') {
            letters = "" + t.charAt(0) + t.charAt(2);
        } else if (t.length() == 2 && t.charAt(1) != '\'') {
            letters = t; // "טו בשבט": written without gershayim, read only before a month
        } else {
            return 0;
        }
        int v = 0;
        for (int k = 0; k < letters.length(); k++) {
            int d = "אבגדהוזחטי".indexOf(letters.charAt(k));
            if (d >= 0) {
                v += d + 1;
            } else if (letters.charAt(k) == 'כ') {
                v += 20;
            } else if (letters.charAt(k) == 'ל') {
                v += 30;
            } else {
                return 0;
            }
        }
        return v <= 30 ? v : 0;
    }

    private static final String ONES = "אבגדהוזחט";
    private static final String TENS = "יכלמנסעפצ";
    private static final String HUNDREDS = "קרשת";

    /**
     * A year of the Hebrew calendar written in letters with gershayim, the thousands left out as
     * people write them: "תשפ\"ז" is 5787, "ה'תשפ\"ז" too; 0 if it is none.
     */
    static int yearInLetters(String t) {
        String s = t.startsWith("ה'") ? t.substring(2) : t;
        int q = s.indexOf('"');
        if (q != s.length() - 2 || s.length() < 4) {
            return 0; // gershayim before the last letter: "תשפ\"ז"
        }
        int v = 0;
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            int d;
            if (c == '"') {
                continue;
            } else if ((d = ONES.indexOf(c)) >= 0) {
                v += d + 1;
            } else if ((d = TENS.indexOf(withoutFinalForm(c))) >= 0) {
                v += 10 * (d + 1);
            } else if ((d = HUNDREDS.indexOf(c)) >= 0) {
                v += 100 * (d + 1);
            } else {
                return 0;
            }
        }
        return v >= 600 && v < 1000 ? 5000 + v : 0; // the years of living memory: תר"ס (5660) on
    }

    /** A letter as written in the middle of a word: ך is כ, ם מ, ן נ, ף פ, ץ צ. */
    private static char withoutFinalForm(char c) {
        return switch (c) {
            case 'ך' -> 'כ';
            case 'ם' -> 'מ';
            case 'ן' -> 'נ';
            case 'ף' -> 'פ';
            case 'ץ' -> 'צ';
            default -> c;
        };
    }

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
