package dev.weft.time.internal;

import dev.weft.time.Grain;
import dev.weft.time.TimeExpression.Recurrence.Frequency;
import dev.weft.time.internal.DateRef.CalendarDate;
import dev.weft.time.internal.DateRef.DayOfMonthRef;
import dev.weft.time.internal.DateRef.MonthRef;
import dev.weft.time.internal.DateRef.PeriodRef;
import dev.weft.time.internal.DateRef.WeekdayMode;
import dev.weft.time.internal.DateRef.WeekdayRef;
import dev.weft.time.internal.DateRef.WithWeekday;
import dev.weft.time.internal.DateRef.YearRef;
import dev.weft.time.internal.Parsed.InstantParse;
import dev.weft.time.internal.Parsed.IntervalParse;
import dev.weft.time.internal.Parsed.LastingParse;
import dev.weft.time.internal.Parsed.Match;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The machinery shared by the language grammars: token tests, numeric dates and clock times, zones,
 * and the merging of the parts of an instant. One instance reads one text; not thread-safe.
 */
abstract class Grammar {

    /** Where a part is being read: on its own, or as one end of an interval, where "2" may be an hour. */
    enum Context {
        FREE,
        INTERVAL
    }

    private static final Map<String, ZoneId> ZONE_ABBREVIATIONS = Map.ofEntries(
            Map.entry("utc", ZoneOffset.UTC),
            Map.entry("gmt", ZoneOffset.UTC),
            Map.entry("pst", ZoneOffset.ofHours(-8)),
            Map.entry("pdt", ZoneOffset.ofHours(-7)),
            Map.entry("pt", ZoneId.of("America/Los_Angeles")),
            Map.entry("mst", ZoneOffset.ofHours(-7)),
            Map.entry("mdt", ZoneOffset.ofHours(-6)),
            Map.entry("cst", ZoneOffset.ofHours(-6)),
            Map.entry("cdt", ZoneOffset.ofHours(-5)),
            Map.entry("est", ZoneOffset.ofHours(-5)),
            Map.entry("edt", ZoneOffset.ofHours(-4)),
            Map.entry("et", ZoneId.of("America/New_York")),
            Map.entry("bst", ZoneOffset.ofHours(1)),
            Map.entry("wet", ZoneOffset.UTC),
            Map.entry("cet", ZoneOffset.ofHours(1)),
            Map.entry("cest", ZoneOffset.ofHours(2)),
            Map.entry("eet", ZoneOffset.ofHours(2)),
            Map.entry("eest", ZoneOffset.ofHours(3)),
            Map.entry("ist", ZoneOffset.ofHours(2)),
            Map.entry("idt", ZoneOffset.ofHours(3)),
            Map.entry("msk", ZoneOffset.ofHours(3)),
            Map.entry("jst", ZoneOffset.ofHours(9)));

    private static final Map<String, ZoneId> IANA_ZONES = ianaZones();

    final List<Token> tokens;
    final int size;
    /** Whole-text reading: words that are often not about time ("may", "sat") count as time words. */
    final boolean lenient;
    /** The year of now, which a two-digit year is read near. */
    final int referenceYear;

    Grammar(List<Token> tokens, boolean lenient, int referenceYear) {
        this.tokens = tokens;
        this.size = tokens.size();
        this.lenient = lenient;
        this.referenceYear = referenceYear;
    }

    /** An interval starting at token {@code i} ("from 2 to 4pm"), or null. */
    abstract Match interval(int i);

    /** A weekend ("this weekend"), or null. */
    abstract Match weekend(int i);

    /** An instant starting at token {@code i}, read in {@code context}, or null; computed once per place. */
    final Hit<InstantSpec> instant(int i, Context context) {
        if (i < 0 || i > size) {
            return readInstant(i, context);
        }
        int k = context.ordinal() * (size + 1) + i;
        if (instants == null) {
            instants = new Object[Context.values().length * (size + 1)];
        }
        Object cached = instants[k];
        if (cached == null) {
            Hit<InstantSpec> read = readInstant(i, context);
            instants[k] = read == null ? NONE : read;
            return read;
        }
        @SuppressWarnings("unchecked")
        Hit<InstantSpec> hit = cached == NONE ? null : (Hit<InstantSpec>) cached;
        return hit;
    }

    /**
     * Reads the instant starting at token {@code i}; {@link #instant} keeps what it read, so the
     * spec it returns must not be changed afterwards.
     */
    abstract Hit<InstantSpec> readInstant(int i, Context context);

    private static final Object NONE = new Object();
    private Object[] instants;

    /** The head of a recurrence ("every Monday", "כל יום"), or null. */
    abstract Hit<RecurrenceBuilder> recurrenceHead(int i);

    /** Reads a modifier of a recurrence ("at 9", "until Friday") into {@code r}: the next token, or -1. */
    abstract int recurrenceModifier(int i, RecurrenceBuilder r);

    /** The longest reading that starts at token {@code i}, or null. */
    final Match parseAt(int i) {
        Match best = recurrence(i);
        best = longer(best, interval(i));
        best = longer(best, weekend(i));
        Hit<InstantSpec> instant = instant(i, Context.FREE);
        if (instant != null) {
            best = longer(best, new Match(new InstantParse(instant.value()), i, instant.end()));
            best = longer(best, dayThenInterval(i, instant));
            best = longer(best, lasting(i, instant));
        }
        int from = fromWord(i);
        if (from > i) {
            Hit<InstantSpec> start = instant(from, Context.INTERVAL);
            if (start != null && start.value().time != null) {
                best = longer(best, lasting(i, start));
            }
        }
        return best;
    }

    /** "tomorrow at 11 for 90 minutes", "from the 3rd for a week": an instant, then how long from it. */
    private Match lasting(int i, Hit<InstantSpec> start) {
        InstantSpec s = start.value();
        if (!lengthMayStart(start.end())
                || s.offset != null
                || s.now
                || (s.time == null && s.partOfDay == null && s.date == null)) {
            return null;
        }
        Hit<Offset> length = length(start.end());
        if (length == null
                || length.value().amount() <= 0
                || (!length.value().dateBased() && s.time == null)
                || (length.value().dateBased() && s.time != null)) {
            return null;
        }
        return new Match(new LastingParse(s, length.value()), i, length.end());
    }

    /** How long something lasts, said after its start: "for 2 hours", "למשך שעה"; or null. */
    abstract Hit<Offset> length(int i);

    /** A cheap test before {@link #length}: whether token {@code i} may open a length. */
    abstract boolean lengthMayStart(int i);

    /** A length said of a thing at token {@code i}: the forms of {@link #length} and "a 90-minute call"; or null. */
    abstract Hit<Offset> lengthOfThing(int i);

    /** The first length the text says of something, left to right. */
    final java.util.Optional<Offset> firstLength() {
        for (int i = 0; i < size; i++) {
            Hit<Offset> l = lengthOfThing(i);
            if (l != null) {
                return java.util.Optional.of(l.value());
            }
        }
        return java.util.Optional.empty();
    }

    /** The token after a word that opens a start ("from"), or {@code i} when there is none. */
    abstract int fromWord(int i);

    /** "tomorrow from 2 to 4", "on Monday between 9 and 11": a day said before an interval. */
    private Match dayThenInterval(int i, Hit<InstantSpec> day) {
        InstantSpec d = day.value();
        if (d.date == null || d.time != null || d.offset != null) {
            return null;
        }
        int j = sym(day.end(), ',') ? day.end() + 1 : day.end();
        Match m = interval(j);
        if (m == null || !(m.parsed() instanceof IntervalParse iv) || iv.from().date != null) {
            return null;
        }
        InstantSpec from = iv.from().copy();
        from.date = d.date;
        if (from.partOfDay == null) {
            from.partOfDay = d.partOfDay;
        }
        return new Match(new IntervalParse(from, iv.to()), i, m.end());
    }

    // ---- spans both languages build the same way ----------------------------------------------

    /** "the next 2 hours" (from now for so long), "the past 30 minutes" (up to now). */
    static Match aheadOfNow(Offset amount, int start, int end) {
        InstantSpec a = new InstantSpec();
        InstantSpec b = new InstantSpec();
        if (amount.amount() >= 0) {
            a.now = true;
            b.offset = amount;
        } else {
            a.offset = amount;
            b.now = true;
        }
        return new Match(new IntervalParse(a, b), start, end);
    }

    /** The rest of the day (from now to midnight), or of this week, month or year (from today to its last day). */
    static Match restOf(Grain period, int start, int end) {
        InstantSpec a = new InstantSpec();
        InstantSpec b = new InstantSpec();
        if (period == Grain.DAY) {
            a.now = true;
            b.date = new DateRef.RelativeDay(1);
            b.time = new ClockTime(0, 0, 0, ClockTime.Meridiem.NONE, true, Grain.MINUTE);
        } else {
            a.date = new DateRef.RelativeDay(0);
            b.date = new DateRef.NthDayOf(new PeriodRef(period, 0), -1);
        }
        return new Match(new IntervalParse(a, b), start, end);
    }

    /** The seven days before a date, or after it, the date itself not counted. */
    static Match weekAround(DateRef date, boolean before, int start, int end) {
        InstantSpec a = new InstantSpec();
        InstantSpec b = new InstantSpec();
        a.date = new DateRef.Shifted(date, new Offset(before ? -7 : 1, ChronoUnit.DAYS));
        b.date = new DateRef.Shifted(date, new Offset(before ? -1 : 7, ChronoUnit.DAYS));
        return new Match(new IntervalParse(a, b), start, end);
    }

    /** Days {@code first} to {@code last} of one month ({@code year} 0: the next such days); null if no dates. */
    static Match dayRange(int year, int month, int first, int last, int start, int end) {
        CalendarDate from = date(year, month, first);
        CalendarDate to = date(year, month, last);
        if (from == null || to == null || last < first) {
            return null;
        }
        InstantSpec a = new InstantSpec();
        InstantSpec b = new InstantSpec();
        a.date = from;
        b.date = to;
        return new Match(new IntervalParse(a, b), start, end);
    }

    /** "every 20 minutes", "every 1.5 hours", "every couple of days": so often; null for seconds. */
    static Hit<RecurrenceBuilder> every(Offset o, int end) {
        long n = o.amount();
        ChronoUnit u = o.unit();
        if (u == ChronoUnit.SECONDS) {
            if (n % 60 != 0) {
                return null; // a nudge is at least a minute apart
            }
            n /= 60;
            u = ChronoUnit.MINUTES;
        }
        if (n < 1 || n > Integer.MAX_VALUE) {
            return null;
        }
        Frequency f = switch (u) {
            case MINUTES -> Frequency.MINUTELY;
            case HOURS -> Frequency.HOURLY;
            case DAYS -> Frequency.DAILY;
            case WEEKS -> Frequency.WEEKLY;
            case MONTHS -> Frequency.MONTHLY;
            default -> Frequency.YEARLY;
        };
        return new Hit<>(new RecurrenceBuilder(f).interval((int) n), end);
    }

    /** True when a part is surely about time, not a bare number that might count something. */
    static boolean clearlyTime(InstantSpec s) {
        return s.date != null
                || s.partOfDay != null
                || (s.time != null && (!s.time.ambiguous() || s.time.grain() != Grain.HOUR));
    }

    /** A recurrence, its head in either order with a leading time ("at 9 every day"). */
    private Match recurrence(int i) {
        Hit<RecurrenceBuilder> head = recurrenceHead(i);
        int start = i;
        InstantSpec lead = null;
        if (head == null) {
            Hit<InstantSpec> before = instant(i, Context.FREE);
            if (before == null
                    || before.value().date != null
                    || before.value().offset != null
                    || before.value().now
                    || (before.value().time == null && before.value().partOfDay == null)) {
                return null;
            }
            head = recurrenceHead(before.end());
            if (head == null) {
                return null;
            }
            lead = before.value();
        }
        RecurrenceBuilder r = head.value();
        if (lead != null) {
            if (lead.time != null) {
                r.times.add(lead.time);
            }
            r.partOfDay = lead.partOfDay;
        }
        int end = head.end();
        while (end < size) {
            int j = sym(end, ',') ? end + 1 : end;
            int next = recurrenceModifier(j, r);
            if (next < 0) {
                break;
            }
            end = next;
        }
        if (r.frequency == Frequency.DAILY && !r.days.isEmpty()) {
            r.frequency = Frequency.WEEKLY;
        }
        return new Match(r.build(), start, end);
    }

    /** The first day of the week in this language, for "next week" and "Tuesday next week". */
    abstract java.time.DayOfWeek weekStart();

    static Match longer(Match a, Match b) {
        if (b == null) {
            return a;
        }
        return a == null || b.end() > a.end() ? b : a;
    }

    static <T> Hit<T> longest(Hit<T> a, Hit<T> b) {
        if (b == null) {
            return a;
        }
        return a == null || b.end() > a.end() ? b : a;
    }

    static Hit<InstantSpec> withDate(DateRef d, int end) {
        InstantSpec s = new InstantSpec();
        s.date = d;
        return new Hit<>(s, end);
    }

    // ---- token tests ------------------------------------------------------------------------

    final Token tok(int i) {
        return tokens.get(i);
    }

    final boolean word(int i, String w) {
        return i >= 0
                && i < size
                && tokens.get(i).isWord()
                && tokens.get(i).text().equals(w);
    }

    final boolean word(int i, String... ws) {
        if (i < 0 || i >= size || !tokens.get(i).isWord()) {
            return false;
        }
        String text = tokens.get(i).text();
        for (String w : ws) {
            if (text.equals(w)) {
                return true;
            }
        }
        return false;
    }

    final boolean sym(int i, char c) {
        return i < size && tokens.get(i).isSymbol(c);
    }

    final boolean num(int i) {
        return i < size && tokens.get(i).isNumber();
    }

    /** The value of number token {@code i}, parsed once: the rules ask for the same numbers many times. */
    final int value(int i) {
        if (values == null) {
            values = new int[size];
            java.util.Arrays.fill(values, -1); // a number's digits never make a negative value
        }
        int v = values[i];
        if (v < 0) {
            v = tokens.get(i).value();
            values[i] = v;
        }
        return v;
    }

    private int[] values;

    /** True when tokens {@code i-1} and {@code i} touch, with no space between them. */
    final boolean adjacent(int i) {
        return i > 0 && i < size && tokens.get(i - 1).end() == tokens.get(i).start();
    }

    // ---- shared forms -----------------------------------------------------------------------

    /** {@code 15:30}, {@code 8:05:10}; a leading zero or an hour past 12 reads as a 24-hour clock. */
    final Hit<ClockTime> digitalTime(int i) {
        if (!num(i) || !sym(i + 1, ':') || !num(i + 2) || !adjacent(i + 1) || !adjacent(i + 2)) {
            return null;
        }
        Token h = tok(i);
        Token m = tok(i + 2);
        if (h.text().length() > 2 || m.text().length() != 2 || h.value() > 24 || m.value() > 59) {
            return null;
        }
        int end = i + 3;
        int second = 0;
        Grain grain = Grain.MINUTE;
        if (sym(end, ':')
                && num(end + 1)
                && adjacent(end + 1)
                && tok(end + 1).text().length() == 2) {
            second = value(end + 1);
            if (second > 59) {
                return null;
            }
            grain = Grain.SECOND;
            end += 2;
        }
        int hour = h.value();
        boolean twentyFour = hour == 0 || hour > 12 || h.text().startsWith("0");
        return new Hit<>(new ClockTime(hour, m.value(), second, ClockTime.Meridiem.NONE, twentyFour, grain), end);
    }

    /**
     * Numeric dates: {@code 2015-03-03}, {@code 2/15}, {@code 15.2}, {@code 15/2/2027}. Slashes read
     * month first when {@code dayFirst} is false (falling back to day first when that is no date);
     * dots always read day first; dashes need all three parts.
     */
    final Hit<CalendarDate> numericDate(int i, boolean dayFirst) {
        if (!num(i) || i + 2 >= size || !num(i + 2) || !adjacent(i + 1) || !adjacent(i + 2)) {
            return null;
        }
        Token sep = tok(i + 1);
        if (!(sep.isSymbol('/') || sep.isSymbol('.') || sep.isSymbol('-'))) {
            return null;
        }
        char s = sep.text().charAt(0);
        Token a = tok(i);
        Token b = tok(i + 2);
        boolean third = sym(i + 3, s) && num(i + 4) && adjacent(i + 3) && adjacent(i + 4);
        if (a.text().length() == 4) {
            if (!third) {
                return null;
            }
            CalendarDate d = date(a.value(), b.value(), value(i + 4));
            return d == null ? null : new Hit<>(d, i + 5);
        }
        if (a.text().length() > 2 || b.text().length() > 2) {
            return null;
        }
        int year = 0;
        int end = i + 3;
        if (third) {
            Token y = tok(i + 4);
            if (y.text().length() == 2) {
                year = fullYear(y.value());
            } else if (y.text().length() == 4) {
                year = y.value();
            } else {
                return null;
            }
            end = i + 5;
        } else if (s == '-') {
            return null;
        }
        if (s == '.' && !third && (sym(end, ':') || (sym(end, '.') && num(end + 1)))) {
            return null;
        }
        boolean monthFirst = s == '/' && !dayFirst;
        CalendarDate d = monthFirst ? date(year, a.value(), b.value()) : date(year, b.value(), a.value());
        if (d == null && s == '/') {
            d = monthFirst ? date(year, b.value(), a.value()) : date(year, a.value(), b.value());
        }
        return d == null ? null : new Hit<>(d, end);
    }

    /**
     * The year a two-digit year stands for: the one from 80 years before the year of now to 19 after it
     * (said in 2026: 16 is 2016, 45 is 2045, 46 is 1946, 74 is 1974), the common rule of spreadsheets
     * and date libraries.
     */
    final int fullYear(int twoDigits) {
        return fullYear(twoDigits, referenceYear);
    }

    static int fullYear(int twoDigits, int referenceYear) {
        int year = referenceYear - referenceYear % 100 + twoDigits;
        if (year >= referenceYear + 20) {
            year -= 100;
        } else if (year < referenceYear - 80) {
            year += 100;
        }
        return year;
    }

    /** {@code 2015-06}, {@code 2015/06}, {@code 6/2015}, {@code 06.2015}: a month of a year, or null. */
    final Hit<MonthRef> yearMonthNumbers(int i) {
        if (!num(i) || !num(i + 2) || !adjacent(i + 1) || !adjacent(i + 2)) {
            return null;
        }
        if (!(sym(i + 1, '-') || sym(i + 1, '/') || sym(i + 1, '.'))) {
            return null;
        }
        char s = tok(i + 1).text().charAt(0);
        if (sym(i + 3, s) && adjacent(i + 3)) {
            return null; // a full date
        }
        int month;
        int year;
        if (year(i) && tok(i + 2).text().length() <= 2) {
            year = value(i);
            month = value(i + 2);
        } else if (tok(i).text().length() <= 2 && year(i + 2)) {
            month = value(i);
            year = value(i + 2);
        } else {
            return null;
        }
        return month < 1 || month > 12 ? null : new Hit<>(new MonthRef(month, year, 0), i + 3);
    }

    /** A valid calendar date, or null; year 0 (no year) accepts February 29. */
    static CalendarDate date(int year, int month, int day) {
        if (month < 1 || month > 12 || day < 1 || day > 31) {
            return null;
        }
        try {
            LocalDate.of(year == 0 ? 2028 : year, month, day);
        } catch (DateTimeException e) {
            return null;
        }
        return new CalendarDate(year, month, day);
    }

    /** am or pm written in Latin letters ({@code pm}, {@code p.m.}, {@code PM}), also inside Hebrew text. */
    final Hit<ClockTime.Meridiem> latinMeridiem(int i) {
        int end;
        ClockTime.Meridiem m;
        if (word(i, "am", "a.m", "pm", "p.m")) {
            m = word(i, "am", "a.m") ? ClockTime.Meridiem.AM : ClockTime.Meridiem.PM;
            end = i + 1;
        } else if (word(i, "a", "p") && sym(i + 1, '.') && word(i + 2, "m") && adjacent(i + 1)) {
            m = word(i, "a") ? ClockTime.Meridiem.AM : ClockTime.Meridiem.PM;
            end = i + 3;
        } else {
            return null;
        }
        return new Hit<>(m, sym(end, '.') && adjacent(end) ? end + 1 : end);
    }

    /** A plausible four-digit year. */
    final boolean year(int i) {
        return num(i) && tok(i).text().length() == 4 && value(i) >= 1900 && value(i) <= 2200;
    }

    /** A zone: an abbreviation ({@code PST}), {@code UTC+3}, or an IANA name ({@code Europe/London}). */
    final Hit<ZoneId> zone(int i) {
        if (i >= size || !tok(i).isWord() || tok(i).isHebrew()) {
            return null;
        }
        String w = tok(i).text();
        ZoneId abbreviation = ZONE_ABBREVIATIONS.get(w);
        if (abbreviation != null) {
            if ((w.equals("utc") || w.equals("gmt"))
                    && (sym(i + 1, '+') || sym(i + 1, '-'))
                    && num(i + 2)
                    && adjacent(i + 1)) {
                int hours = value(i + 2);
                int end = i + 3;
                int minutes = 0;
                if (tok(i + 2).text().length() == 4) {
                    minutes = hours % 100;
                    hours /= 100;
                } else if (sym(end, ':') && num(end + 1)) {
                    minutes = value(end + 1);
                    end += 2;
                }
                if (hours > 14 || minutes > 59) {
                    return null;
                }
                int sign = sym(i + 1, '-') ? -1 : 1;
                return new Hit<>(ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes), end);
            }
            return new Hit<>(abbreviation, i + 1);
        }
        StringBuilder name = new StringBuilder(w);
        int j = i + 1;
        int bestEnd = -1;
        ZoneId best = null;
        while (j + 1 < size && (sym(j, '/') || sym(j, '_') || sym(j, '-')) && adjacent(j) && adjacent(j + 1)) {
            name.append(tok(j).text()).append(tok(j + 1).text());
            j += 2;
            ZoneId z = IANA_ZONES.get(name.toString());
            if (z != null) {
                best = z;
                bestEnd = j;
            }
        }
        return best == null ? null : new Hit<>(best, bestEnd);
    }

    private static Map<String, ZoneId> ianaZones() {
        Map<String, ZoneId> zones = new HashMap<>();
        for (String id : ZoneId.getAvailableZoneIds()) {
            if (id.indexOf('/') > 0) {
                zones.put(id.toLowerCase(Locale.ROOT), ZoneId.of(id));
            }
        }
        return Map.copyOf(zones);
    }

    // ---- merging the parts of an instant ----------------------------------------------------

    /**
     * Adds one part to an instant being built, or returns false when the two cannot go together
     * ("tomorrow" and "Monday"). Some date pairs combine: "Tuesday" + "next week", "the 15th" +
     * "next month", "March" + "2027".
     */
    static boolean merge(InstantSpec acc, InstantSpec part) {
        if (acc.now || (part.now && !acc.isEmpty())) {
            return false;
        }
        if (part.offset != null && (acc.offset != null || acc.date != null || acc.time != null)) {
            return false;
        }
        if (part.date != null && acc.offset != null) {
            return false;
        }
        DateRef date = acc.date;
        if (part.date != null) {
            date = acc.date == null ? part.date : combine(acc.date, part.date);
            if (date == null) {
                return false;
            }
        }
        if ((part.time != null || part.sameTime) && (acc.time != null || acc.sameTime)) {
            return false;
        }
        if (part.partOfDay != null && acc.partOfDay != null && part.partOfDay != acc.partOfDay) {
            return false;
        }
        if (part.zone != null && acc.zone != null) {
            return false;
        }
        acc.date = date;
        if (part.time != null) {
            acc.time = part.time;
        }
        if (part.partOfDay != null) {
            acc.partOfDay = part.partOfDay;
            acc.thisPartOfDay |= part.thisPartOfDay;
        }
        if (part.zone != null) {
            acc.zone = part.zone;
        }
        if (part.offset != null) {
            acc.offset = part.offset;
        }
        acc.now |= part.now;
        acc.sameTime |= part.sameTime;
        return true;
    }

    private static DateRef combine(DateRef a, DateRef b) {
        DateRef ab = combineOrdered(a, b);
        return ab != null ? ab : combineOrdered(b, a);
    }

    private static DateRef combineOrdered(DateRef a, DateRef b) {
        if (a instanceof WeekdayRef w
                && (w.mode() == WeekdayMode.NEXT || w.mode() == WeekdayMode.NEXT_SAID || w.mode() == WeekdayMode.THIS)
                && b instanceof PeriodRef p
                && p.grain() == Grain.WEEK) {
            return new WeekdayRef(w.day(), WeekdayMode.IN_WEEK, p.shift());
        }
        if (a instanceof WeekdayRef w
                && (w.mode() == WeekdayMode.NEXT || w.mode() == WeekdayMode.THIS)
                && ((b instanceof CalendarDate c && c.year() == 0)
                        || (b instanceof DayOfMonthRef d && !d.relativeMonth()))) {
            return new WithWeekday(b, w.day()); // "Mon, Sep 8": the next Sep 8 that is a Monday
        }
        if (a instanceof WeekdayRef && (b instanceof CalendarDate || b instanceof DayOfMonthRef)) {
            return b; // "Tuesday, 19 May 2026": the date says it; the weekday only confirms it
        }
        if (a instanceof DayOfMonthRef d && !d.relativeMonth()) {
            if (b instanceof PeriodRef p && p.grain() == Grain.MONTH) {
                return new DayOfMonthRef(d.day(), true, p.shift());
            }
            if (b instanceof MonthRef m && m.shift() == 0) {
                return date(m.year(), m.month(), d.day());
            }
        }
        if (a instanceof MonthRef m
                && m.year() == 0
                && m.shift() == 0
                && b instanceof PeriodRef p
                && p.grain() == Grain.YEAR) {
            return new DateRef.MonthInYear(m.month(), p.shift()); // "June next year", "יוני בשנה הבאה"
        }
        if (a instanceof DateRef.QuarterRef q && q.year() == 0 && b instanceof PeriodRef p && p.grain() == Grain.YEAR) {
            return new DateRef.QuarterInYear(q.quarter(), p.shift()); // "Q3 next year"
        }
        if (a instanceof MonthRef m && m.year() == 0 && b instanceof YearRef y) {
            return new MonthRef(m.month(), y.year(), 0);
        }
        if (a instanceof CalendarDate c && c.year() == 0 && b instanceof YearRef y) {
            return date(y.year(), c.month(), c.day());
        }
        return null;
    }

    /** Amount and unit of a duration with a fraction: 1.5 hours is 90 minutes. */
    static Offset fractional(double amount, ChronoUnit unit) {
        if (amount == Math.rint(amount)) {
            return new Offset((long) amount, unit);
        }
        return switch (unit) {
            case SECONDS -> new Offset(Math.round(amount), unit);
            case MINUTES -> new Offset(Math.round(amount * 60), ChronoUnit.SECONDS);
            case HOURS -> new Offset(Math.round(amount * 60), ChronoUnit.MINUTES);
            case DAYS -> new Offset(Math.round(amount * 24), ChronoUnit.HOURS);
            case WEEKS -> new Offset(Math.round(amount * 7), ChronoUnit.DAYS);
            case MONTHS -> new Offset(Math.round(amount * 30), ChronoUnit.DAYS);
            default -> new Offset(Math.round(amount * 12), ChronoUnit.MONTHS);
        };
    }

    /** The sum of two offsets, in the smaller of their units (months count 30 days, years 12 months). */
    static Offset sum(Offset a, Offset b) {
        if (a.unit() == b.unit()) {
            return new Offset(a.amount() + b.amount(), a.unit());
        }
        Offset small = a.unit().compareTo(b.unit()) < 0 ? a : b;
        Offset big = small == a ? b : a;
        long factor = factor(big.unit(), small.unit());
        return new Offset(big.amount() * factor + small.amount(), small.unit());
    }

    private static long factor(ChronoUnit big, ChronoUnit small) {
        if (big == ChronoUnit.YEARS && small == ChronoUnit.MONTHS) {
            return 12;
        }
        if (big.compareTo(ChronoUnit.DAYS) > 0 && small.compareTo(ChronoUnit.DAYS) <= 0) {
            long days = big == ChronoUnit.WEEKS ? 7 : big == ChronoUnit.MONTHS ? 30 : 365;
            return days * factor(ChronoUnit.DAYS, small);
        }
        return big.getDuration().getSeconds() / small.getDuration().getSeconds();
    }
}
