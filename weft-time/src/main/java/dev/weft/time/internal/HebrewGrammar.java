package dev.weft.time.internal;

import dev.weft.time.Grain;
import dev.weft.time.TimeExpression.Recurrence.Frequency;
import dev.weft.time.internal.ClockTime.Meridiem;
import dev.weft.time.internal.DateRef.CalendarDate;
import dev.weft.time.internal.DateRef.MonthRef;
import dev.weft.time.internal.DateRef.NthDayOf;
import dev.weft.time.internal.DateRef.NthWeekOf;
import dev.weft.time.internal.DateRef.NthWeekdayRef;
import dev.weft.time.internal.DateRef.PeriodRef;
import dev.weft.time.internal.DateRef.YearRef;
import dev.weft.time.internal.Parsed.Match;
import java.time.DayOfWeek;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Hebrew grammar. Words are matched with or without the prefixes Hebrew attaches to them
 * (ו, ב, ל, ה, מ, כ, ש): "בשמונה" is "at eight", "לפברואר" is "of February". One instance reads one
 * text; not thread-safe.
 *
 * <p>What is left of it until each family moves to the {@link Engine}: the n-th day, week or weekday
 * of a month and a weekday counted from a date, given to the engine's instants by {@link
 * #grammarPart}; the day of every month and every N units of a recurrence, and a recurrence's times
 * and days. Days from today, periods, weekdays, quarters, dates, the ends and the rest of periods,
 * amounts from now, offsets, lengths, counted periods and day ranges, parts of the day, clocks,
 * zones, the merging of an instant's parts and the heads of recurrences are the engine's, from
 * {@link HebrewLexicon}.
 */
final class HebrewGrammar extends Engine {

    /** Cardinals 1-10 in both genders and the construct forms ("שלושת ימים"). */
    private static final Map<String, Integer> UNITS = Map.ofEntries(
            Map.entry("אחד", 1),
            Map.entry("אחת", 1),
            Map.entry("שניים", 2),
            Map.entry("שנים", 2),
            Map.entry("שתיים", 2),
            Map.entry("שתים", 2),
            Map.entry("שני", 2),
            Map.entry("שתי", 2),
            Map.entry("שלוש", 3),
            Map.entry("שלש", 3),
            Map.entry("שלושה", 3),
            Map.entry("שלשה", 3),
            Map.entry("שלושת", 3),
            Map.entry("ארבע", 4),
            Map.entry("ארבעה", 4),
            Map.entry("ארבעת", 4),
            Map.entry("חמש", 5),
            Map.entry("חמישה", 5),
            Map.entry("חמשה", 5),
            Map.entry("חמשת", 5),
            Map.entry("שש", 6),
            Map.entry("שישה", 6),
            Map.entry("ששה", 6),
            Map.entry("ששת", 6),
            Map.entry("שבע", 7),
            Map.entry("שבעה", 7),
            Map.entry("שבעת", 7),
            Map.entry("שמונה", 8),
            Map.entry("שמונת", 8),
            Map.entry("תשע", 9),
            Map.entry("תשעה", 9),
            Map.entry("תשעת", 9),
            Map.entry("עשר", 10),
            Map.entry("עשרה", 10),
            Map.entry("עשרת", 10));

    private static final Map<String, Integer> TENS = Map.of(
            "עשרים", 20, "שלושים", 30, "ארבעים", 40, "חמישים", 50, "שישים", 60, "שבעים", 70, "שמונים", 80, "תשעים", 90);

    private static final Map<String, Integer> ORDINALS = Map.of(
            "ראשון", 1, "שני", 2, "שלישי", 3, "רביעי", 4, "חמישי", 5, "שישי", 6, "שביעי", 7, "שמיני", 8, "תשיעי", 9,
            "עשירי", 10);

    private static final Map<String, ChronoUnit> TIME_UNITS = Map.ofEntries(
            Map.entry("שנייה", ChronoUnit.SECONDS),
            Map.entry("שניה", ChronoUnit.SECONDS),
            Map.entry("שניות", ChronoUnit.SECONDS),
            Map.entry("דקה", ChronoUnit.MINUTES),
            Map.entry("דקות", ChronoUnit.MINUTES),
            Map.entry("דק'", ChronoUnit.MINUTES),
            Map.entry("דק", ChronoUnit.MINUTES),
            Map.entry("ד'", ChronoUnit.MINUTES),
            Map.entry("שעה", ChronoUnit.HOURS),
            Map.entry("שעות", ChronoUnit.HOURS),
            Map.entry("יום", ChronoUnit.DAYS),
            Map.entry("ימים", ChronoUnit.DAYS),
            Map.entry("שבוע", ChronoUnit.WEEKS),
            Map.entry("שבועות", ChronoUnit.WEEKS),
            Map.entry("חודש", ChronoUnit.MONTHS),
            Map.entry("חודשים", ChronoUnit.MONTHS),
            Map.entry("שנה", ChronoUnit.YEARS),
            Map.entry("שנים", ChronoUnit.YEARS));

    /** Units in the singular, which alone mean one of them: "בעוד שעה". */
    private static final Set<String> SINGULAR_UNITS =
            Set.of("שנייה", "שניה", "דקה", "שעה", "יום", "שבוע", "חודש", "שנה");

    private static final Map<String, ChronoUnit> DUALS = Map.of(
            "שעתיים", ChronoUnit.HOURS,
            "יומיים", ChronoUnit.DAYS,
            "שבועיים", ChronoUnit.WEEKS,
            "חודשיים", ChronoUnit.MONTHS,
            "שנתיים", ChronoUnit.YEARS,
            "דקותיים", ChronoUnit.MINUTES);

    private static final Set<String> NEXT = Set.of("הבא", "הבאה", "הקרוב", "הקרובה", "שבא", "שבאה");
    private static final Set<String> LAST =
            Set.of("שעבר", "שעברה", "הקודם", "הקודמת", "שחלף", "שחלפה", "האחרון", "האחרונה");

    private static final Map<String, Integer> NTH = Map.of(
            "הראשון", 1, "השני", 2, "השלישי", 3, "הרביעי", 4, "החמישי", 5, "האחרון", -1, "הראשונה", 1, "השנייה", 2,
            "האחרונה", -1);

    HebrewGrammar(List<Token> tokens, boolean lenient, int referenceYear) {
        super(tokens, lenient, referenceYear, HebrewLexicon.INSTANCE);
    }

    @Override
    DayOfWeek weekStart() {
        return DayOfWeek.SUNDAY;
    }

    // ---- Hebrew words with prefixes ----------------------------------------------------------

    /** The prefix in front of {@code word} at token {@code i} ("" when bare), or null if it is not there. */
    private String prefix(int i, String word) {
        if (i < 0 || i >= size || !tok(i).isWord()) {
            return null;
        }
        String t = tok(i).text();
        if (t.equals(word)) {
            return "";
        }
        if (t.length() > word.length() && t.length() - word.length() <= 3 && t.endsWith(word)) {
            String p = t.substring(0, t.length() - word.length());
            return isPrefix(p) ? p : null;
        }
        return null;
    }

    private static boolean isPrefix(String p) {
        for (int k = 0; k < p.length(); k++) {
            if (Tokenizer.HEBREW_PREFIX_LETTERS.indexOf(p.charAt(k)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** True when token {@code i} is {@code word}, with any prefix. */
    private boolean he(int i, String word) {
        return prefix(i, word) != null;
    }

    private boolean heExact(int i, String... words) {
        return word(i, words);
    }

    private record Lex<T>(T value, String prefix) {}

    private static final Lex<Object> NO_LEX = new Lex<>(new Object(), "");

    /** What {@link #lookup} found, per lexicon and token: the grammar asks the same many times. */
    private final java.util.IdentityHashMap<Map<String, ?>, Lex<?>[]> lookups = new java.util.IdentityHashMap<>();

    /** Looks a token up in a lexicon, trying it whole and then without up to three prefix letters. */
    @SuppressWarnings("unchecked")
    private <T> Lex<T> lookup(int i, Map<String, T> lexicon) {
        if (i < 0 || i >= size || !tok(i).isWord()) {
            return null;
        }
        Lex<?>[] known = lookups.computeIfAbsent(lexicon, k -> new Lex<?>[size]);
        Lex<?> found = known[i];
        if (found == null) {
            Lex<T> read = readLookup(i, lexicon);
            known[i] = read == null ? NO_LEX : read;
            return read;
        }
        return found == NO_LEX ? null : (Lex<T>) found;
    }

    private <T> Lex<T> readLookup(int i, Map<String, T> lexicon) {
        String t = tok(i).text();
        T v = lexicon.get(t);
        if (v != null) {
            return new Lex<>(v, "");
        }
        for (int k = 1; k <= 3 && k < t.length(); k++) {
            if (Tokenizer.HEBREW_PREFIX_LETTERS.indexOf(t.charAt(k - 1)) < 0) {
                break;
            }
            v = lexicon.get(t.substring(k));
            if (v != null) {
                return new Lex<>(v, t.substring(0, k));
            }
        }
        return null;
    }

    /** The prefix of token {@code i}: of a number, its folded prefix; of a word, none known. */
    private String numberPrefix(int i) {
        return tok(i).prefix();
    }

    // ---- numbers ----------------------------------------------------------------------------

    /** A number written in digits or in words, with the prefix of its first token. */
    private record Number(int value, String prefix, int end) {}

    private Number number(int i) {
        if (i >= size) {
            return null;
        }
        if (num(i)) {
            return new Number(value(i), numberPrefix(i), i + 1);
        }
        Lex<Integer> tens = lookup(i, TENS);
        if (tens != null) {
            Lex<Integer> unit = lookup(i + 1, UNITS);
            if (unit != null && unit.prefix().equals("ו") && unit.value() < 10) {
                return new Number(tens.value() + unit.value(), tens.prefix(), i + 2);
            }
            if (num(i + 1) && numberPrefix(i + 1).equals("ו") && value(i + 1) < 10) {
                return new Number(tens.value() + value(i + 1), tens.prefix(), i + 2);
            }
            return new Number(tens.value(), tens.prefix(), i + 1);
        }
        Lex<Integer> unit = lookup(i, UNITS);
        if (unit == null) {
            return null;
        }
        if (unit.value() < 10 && heExact(i + 1, "עשר", "עשרה")) {
            return new Number(10 + unit.value(), unit.prefix(), i + 2);
        }
        return new Number(unit.value(), unit.prefix(), i + 1);
    }

    // ---- top level --------------------------------------------------------------------------

    // ---- intervals --------------------------------------------------------------------------

    @Override
    Match interval(int i) {
        Match special = longer(countedOrRest(i), daysOfOneMonth(i));
        if (special != null) {
            return special;
        }
        return super.interval(i);
    }

    private boolean startsWithPrefix(int i, String p) {
        if (i >= size) {
            return false;
        }
        Token t = tok(i);
        if (t.isNumber()) {
            return t.prefix().startsWith(p);
        }
        return t.isHebrew() && t.text().startsWith(p) && t.text().length() > p.length();
    }

    // ---- instants ---------------------------------------------------------------------------

    /** A date of this grammar's own: the n-th day, week or weekday of a month, a weekday counted from a date. */
    @Override
    Hit<InstantSpec> grammarPart(int q, InstantSpec acc) {
        return q < size ? date(q) : null;
    }

    /** A day counted from today or a part of today said by a word ("הערב"), both read by the engine. */
    private Hit<InstantSpec> day(int i) {
        return longest(dayFromToday(i), partOfDay(i));
    }

    // ---- weekdays ---------------------------------------------------------------------------

    private Hit<DayOfWeek> weekdayName(int i, boolean bareNames) {
        return HebrewLexicon.INSTANCE.weekdayName(this, i, bareNames);
    }

    // ---- dates ------------------------------------------------------------------------------

    private Hit<InstantSpec> date(int i) {
        Hit<InstantSpec> best = dateAt(i);
        best = longest(best, relativePeriod(i));
        best = longest(best, nthWeekday(i));
        best = longest(best, nthDayOf(i));
        best = longest(best, nthWeekOf(i));
        best = longest(best, holidayAt(i));
        return best;
    }

    /** "הראשון", "השלישי", "האחרון", "הלפני אחרון", "השני מהסוף": n, or -n from the end. */
    private Hit<Integer> ordinalFromEnd(int i) {
        if (heExact(i, "הלפני") && heExact(i + 1, "אחרון", "אחרונה")) {
            return new Hit<>(-2, i + 2);
        }
        if (i >= size || !tok(i).isHebrew()) {
            return null;
        }
        Integer n = NTH.get(tok(i).text());
        if (n == null) {
            Lex<Integer> o = lookup(i, ORDINALS);
            if (o == null || !o.prefix().equals("ה")) {
                return null;
            }
            n = o.value();
        }
        if (n > 0 && heExact(i + 1, "מהסוף")) {
            return new Hit<>(-n, i + 2);
        }
        return new Hit<>(n, i + 1);
    }

    /** A month or year holding days or weeks, after "של" or with ב/ל: "של פברואר 2016", "בחודש הבא", "של 2017". */
    private Hit<DateRef> frame(int i) {
        int j = heExact(i, "של") ? i + 1 : i;
        Hit<DateRef> m = monthSpec(j);
        if (m != null) {
            return m;
        }
        if (year(j)) {
            return new Hit<>(new YearRef(value(j)), j + 1);
        }
        Hit<InstantSpec> p = relativePeriod(j);
        if (p != null && p.value().date instanceof PeriodRef r && r.grain() == Grain.YEAR) {
            return new Hit<>(r, p.end());
        }
        return null;
    }

    /** "היום השלישי של החודש שעבר", "היום האחרון של פברואר 2016", "ביום הלפני אחרון באפריל". */
    private Hit<InstantSpec> nthDayOf(int i) {
        String p = prefix(i, "יום");
        if (p == null || !(p.equals("ה") || p.equals("בה") || p.equals("ב") || p.equals("וב") || p.equals("ל"))) {
            return null;
        }
        Hit<Integer> n = ordinalFromEnd(i + 1);
        if (n == null) {
            return null;
        }
        Hit<DateRef> f = frame(n.end());
        if (f == null) {
            return null;
        }
        if (f.value() instanceof MonthRef m && m.year() == 0 && m.shift() == 0 && n.value() > 0) {
            CalendarDate d = date(0, m.month(), n.value());
            return d == null ? null : withDate(d, f.end());
        }
        return withDate(new NthDayOf(f.value(), n.value()), f.end());
    }

    /** "השבוע השני של מרץ 2015", "השבוע האחרון של יוני 2019", "בשבוע הלפני אחרון של 2017". */
    private Hit<InstantSpec> nthWeekOf(int i) {
        String p = prefix(i, "שבוע");
        if (p == null || !(p.equals("ה") || p.equals("בה") || p.equals("ב") || p.equals("וב") || p.equals("ל"))) {
            return null;
        }
        Hit<Integer> n = ordinalFromEnd(i + 1);
        if (n == null) {
            return null;
        }
        Hit<DateRef> f = frame(n.end());
        return f == null ? null : withDate(new NthWeekOf(f.value(), n.value()), f.end());
    }

    private Lex<Integer> month(int i) {
        Lex<Integer> m = lookup(i, HebrewLexicon.MONTHS);
        return m;
    }

    /** A day of the month in digits or words: "15", "ה-15", "חמישה עשר", "הראשון". */
    private Number dayNumber(int i) {
        Number n = number(i);
        if (n == null && i < size) {
            Lex<Integer> o = lookup(i, ORDINALS);
            if (o != null && !o.prefix().isEmpty()) {
                n = new Number(o.value(), o.prefix(), i + 1);
            }
        }
        if (n == null
                || n.value() < 1
                || n.value() > 31
                || (num(i) && tok(i).text().length() > 2)) {
            return null;
        }
        return n;
    }

    /** A day of the month before a month's name, in digits or words ("חמישה עשר במרץ"). */
    @Override
    Hit<Integer> dayBeforeMonth(int i) {
        Number n = dayNumber(i);
        return n == null ? null : new Hit<>(n.value(), n.end());
    }

    /** "יום ראשון האחרון של מרץ", "יום שני הראשון בחודש הבא". */
    private Hit<InstantSpec> nthWeekday(int i) {
        Hit<DayOfWeek> day = weekdayName(i, true);
        if (day == null || day.end() >= size) {
            return null;
        }
        Hit<InstantSpec> around = weekdayAround(day, day.end());
        if (around != null) {
            return around;
        }
        Integer n = NTH.get(tok(day.end()).text());
        if (n == null) {
            return null;
        }
        int j = day.end() + 1;
        if (heExact(j, "של")) {
            j++;
        }
        Hit<DateRef> m = monthSpec(j);
        return m == null ? null : withDate(new NthWeekdayRef(n, day.value(), m.value()), m.end());
    }

    /**
     * "יום שישי השני אחרי ראש השנה", "יום שני הראשון לפני פסח", "שישי אחרי חנוכה", "יום שלישי הכי קרוב
     * ל-3 ביוני": a weekday counted from a date, or the one nearest to it.
     */
    private Hit<InstantSpec> weekdayAround(Hit<DayOfWeek> day, int j) {
        if (heExact(j, "הכי", "הקרוב") || heExact(j, "הקרובה")) {
            int k = heExact(j, "הכי") && heExact(j + 1, "קרוב", "קרובה") ? j + 2 : j + 1;
            if (heExact(j, "הכי") && k == j + 1) {
                return null;
            }
            if (heExact(k, "ביותר")) {
                k++;
            }
            if (k < size && startsWithPrefix(k, "ל")) {
                Hit<InstantSpec> base = baseDate(k, "ל");
                if (base != null) {
                    return withDate(new DateRef.ClosestWeekday(base.value().date, day.value()), base.end());
                }
            }
            return null;
        }
        int n = 1;
        int k = j;
        Integer nth = k < size ? NTH.get(tok(k).text()) : null;
        if (nth != null && nth > 0) {
            n = nth;
            k++;
        }
        if (!heExact(k, "אחרי", "לאחר", "לפני")) {
            return null;
        }
        Hit<InstantSpec> base = longest(day(k + 1), date(k + 1));
        if (base == null || base.value().date == null || base.value().time != null) {
            return null;
        }
        return withDate(
                new DateRef.WeekdayAfter(base.value().date, day.value(), heExact(k, "לפני") ? -n : n), base.end());
    }

    /** A date written with a prefix that only joins it to the words before: "ל-3 ביוני", "לפסח". */
    private Hit<InstantSpec> baseDate(int k, String prefix) {
        Hit<InstantSpec> base = date(k);
        if (base == null && tok(k).isHebrew() && tok(k).text().startsWith(prefix)) {
            return null;
        }
        return base != null && base.value().date != null && base.value().time == null ? base : null;
    }

    private Hit<DateRef> monthSpec(int i) {
        Lex<Integer> m = month(i);
        if (m != null) {
            int end = i + 1;
            if (year(end)) {
                return new Hit<>(new MonthRef(m.value(), value(end), 0), end + 1);
            }
            if (end < size && NEXT.contains(tok(end).text())) {
                return new Hit<>(new MonthRef(m.value(), 0, 1), end + 1);
            }
            return new Hit<>(new MonthRef(m.value(), 0, 0), end);
        }
        String p = prefix(i, "חודש");
        String q = prefix(i, "החודש");
        if (p != null || q != null) {
            int end = i + 1;
            if (end < size && NEXT.contains(tok(end).text())) {
                return new Hit<>(new PeriodRef(Grain.MONTH, 1), end + 1);
            }
            if (end < size && LAST.contains(tok(end).text())) {
                return new Hit<>(new PeriodRef(Grain.MONTH, -1), end + 1);
            }
            return new Hit<>(new PeriodRef(Grain.MONTH, 0), end);
        }
        return null;
    }

    // ---- durations and offsets --------------------------------------------------------------

    private ChronoUnit unit(int i, String requiredPrefix) {
        Lex<ChronoUnit> u = lookup(i, TIME_UNITS);
        return u != null && u.prefix().equals(requiredPrefix) ? u.value() : null;
    }

    /** One amount of a unit; the first token must carry {@code lead} as its prefix ("" or "ו"). */
    private Hit<Offset> simpleDuration(int i, String lead) {
        if (i >= size) {
            return null;
        }
        String p = prefix(i, "רבע");
        if (p != null && p.equals(lead) && unit(i + 1, "") == ChronoUnit.HOURS) {
            return new Hit<>(new Offset(15, ChronoUnit.MINUTES), i + 2);
        }
        p = prefix(i, "חצי");
        if (p != null && p.equals(lead)) {
            ChronoUnit u = unit(i + 1, "");
            if (u != null && SINGULAR_UNITS.contains(tok(i + 1).text())) {
                return new Hit<>(fractional(0.5, u), i + 2);
            }
            return null;
        }
        Lex<Integer> three = lookup(i, UNITS);
        if (three != null
                && three.value() == 3
                && three.prefix().equals(lead)
                && heExact(i + 1, "רבעי")
                && unit(i + 2, "") == ChronoUnit.HOURS) {
            return new Hit<>(new Offset(45, ChronoUnit.MINUTES), i + 3);
        }
        Lex<ChronoUnit> dual = lookup(i, DUALS);
        if (dual != null && dual.prefix().equals(lead)) {
            return half(2, dual.value(), i + 1);
        }
        Lex<ChronoUnit> single = lookup(i, TIME_UNITS);
        if (single != null
                && single.prefix().equals(lead)
                && SINGULAR_UNITS.contains(tok(i).text().substring(lead.length()))) {
            return half(1, single.value(), i + 1);
        }
        double amount;
        int j;
        if (num(i)
                && sym(i + 1, '.')
                && num(i + 2)
                && adjacent(i + 1)
                && adjacent(i + 2)
                && numberPrefix(i).equals(lead)) {
            amount = Double.parseDouble(tok(i).text() + "." + tok(i + 2).text());
            j = i + 3;
        } else {
            Number n = number(i);
            String few = prefix(i, "כמה");
            if (n == null && few != null && few.equals(lead)) {
                n = new Number(3, lead, i + 1); // "כמה דקות": a few
            }
            if (n == null || !n.prefix().equals(lead)) {
                return null;
            }
            amount = n.value();
            j = n.end();
        }
        if (heExact(j, "וחצי")) {
            amount += 0.5;
            j++;
        }
        ChronoUnit u = unit(j, "");
        if (u == null) {
            return null;
        }
        return half(amount, u, j + 1);
    }

    /** An amount of a unit, and "וחצי" or "ורבע" after it: "שעה וחצי", "שעתיים ורבע". */
    private Hit<Offset> half(double amount, ChronoUnit u, int end) {
        if (heExact(end, "וחצי")) {
            return new Hit<>(fractional(amount + 0.5, u), end + 1);
        }
        if (heExact(end, "ורבע") && u == ChronoUnit.HOURS) {
            return new Hit<>(fractional(amount + 0.25, u), end + 1);
        }
        return new Hit<>(fractional(amount, u), end);
    }

    /** An amount is counted from a day, a weekday or a date: "שבוע לפני פסח", "יומיים אחרי יום שני". */
    @Override
    Hit<InstantSpec> offsetBase(int i) {
        Hit<InstantSpec> b = longest(day(i), longest(weekdayAt(i), date(i)));
        return b != null && b.value().date != null && b.value().time == null ? b : null;
    }

    // ---- clock times ------------------------------------------------------------------------

    /** A clock time as said, read by the lexicon for the engine's clocks: a recurrence's times ask for it. */
    private Hit<ClockTime> time(int i, InstantSpec acc, Context ctx, boolean first) {
        return HebrewLexicon.INSTANCE.ownClock(this, i, ctx, acc);
    }

    private boolean podAhead(int i) {
        return partSaid(i) != null;
    }

    // ---- recurrences ------------------------------------------------------------------------

    @Override
    Hit<RecurrenceBuilder> recurrenceHead(int i) {
        return longest(ownRecurrenceHead(i), sharedRecurrenceHead(i));
    }

    private Hit<RecurrenceBuilder> ownRecurrenceHead(int i) {
        if (i >= size) {
            return null;
        }
        String every = prefix(i, "כל");
        boolean each =
                every != null && (every.isEmpty() || every.equals("ב") || every.equals("ו") || every.equals("ל"));
        if (!each && he(i, "מדי")) {
            each = true;
        }
        if (each) {
            return afterEvery(i + 1);
        }
        Number dom = everyMonthAhead(i) ? dayNumber(i) : null;
        if (dom != null && dom.end() + 1 < size && (num(i) || !dom.prefix().isEmpty())) {
            String all = prefix(dom.end(), "כל");
            if (all != null && (all.equals("ל") || all.equals("ב")) && heExact(dom.end() + 1, "חודש")) {
                RecurrenceBuilder r = new RecurrenceBuilder(Frequency.MONTHLY); // "ב-10 לכל חודש"
                r.dayOfMonth = dom.value();
                return new Hit<>(r, dom.end() + 2);
            }
        }
        if (he(i, "פעם") && i + 1 < size) {
            Lex<ChronoUnit> dual = lookup(i + 1, DUALS);
            if (dual != null && dual.prefix().equals("ב")) {
                return everyUnit(dual.value(), 2, i + 2);
            }
            Lex<ChronoUnit> u = lookup(i + 1, TIME_UNITS);
            if (u != null
                    && u.prefix().equals("ב")
                    && SINGULAR_UNITS.contains(tok(i + 1).text().substring(1))) {
                return everyUnit(u.value(), 1, i + 2);
            }
        }
        return null;
    }

    /** True when "לכל" or "בכל" follows within two tokens: "ב-10 לכל חודש", "בחמישה עשר לכל חודש". */
    private boolean everyMonthAhead(int i) {
        for (int k = i + 1; k <= i + 2 && k < size; k++) {
            String t = tok(k).text();
            if (t.equals("לכל") || t.equals("בכל")) {
                return true;
            }
        }
        return false;
    }

    private Hit<RecurrenceBuilder> afterEvery(int j) {
        Hit<RecurrenceBuilder> best = null;
        Number dom = dayNumber(j);
        Lex<Integer> ordinal = dom == null ? lookup(j, ORDINALS) : null;
        if (ordinal != null && (ordinal.prefix().isEmpty() || ordinal.prefix().equals("ה"))) {
            dom = new Number(ordinal.value(), ordinal.prefix(), j + 1); // "כל ראשון לחודש"
        }
        if (dom != null && (dom.prefix().isEmpty() || dom.prefix().equals("ה"))) {
            String p = prefix(dom.end(), "חודש");
            if (p != null && (p.equals("ל") || p.equals("ב"))) {
                RecurrenceBuilder r = new RecurrenceBuilder(Frequency.MONTHLY);
                r.dayOfMonth = dom.value();
                best = longest(best, new Hit<>(r, dom.end() + 1));
            }
        }
        Hit<Offset> d = simpleDuration(j, "");
        if (d != null) {
            Offset o = d.value();
            if (o.amount() > 0 && o.amount() <= Integer.MAX_VALUE) {
                best = longest(best, everyUnit(o.unit(), (int) o.amount(), d.end()));
            }
        }
        return best;
    }

    private static Hit<RecurrenceBuilder> everyUnit(ChronoUnit u, int interval, int end) {
        return every(new Offset(interval, u), end);
    }

    @Override
    int recurrenceModifier(int i, RecurrenceBuilder r) {
        if (i >= size) {
            return -1;
        }
        if (heExact(i, "עד", "ועד") || (heExact(i, "עד") && heExact(i + 1, "ל"))) {
            Hit<InstantSpec> u = instant(i + 1, Context.FREE);
            if (u == null || r.until != null) {
                return -1;
            }
            r.until = u.value();
            return u.end();
        }
        if ((r.frequency == Frequency.WEEKLY || r.frequency == Frequency.DAILY) && r.days.isEmpty()) {
            Hit<List<DayOfWeek>> days = weekdayList(i);
            if (days != null) {
                r.days(days.value());
                r.frequency = Frequency.WEEKLY;
                return days.end();
            }
        }
        if (r.frequency == Frequency.MONTHLY && r.dayOfMonth == 0) {
            Number dom = dayNumber(i);
            if (dom != null
                    && !sym(dom.end(), ':')
                    && !podAhead(dom.end())
                    && (dom.prefix().equals("ב")
                            || dom.prefix().equals("ה")
                            || dom.prefix().isEmpty())) {
                int end = dom.end();
                String p = prefix(end, "חודש");
                if (p != null && (p.equals("ל") || p.equals("ב"))) {
                    end++;
                }
                r.dayOfMonth = dom.value();
                return end;
            }
        }
        if (r.frequency == Frequency.YEARLY && r.dayOfMonth == 0) {
            Hit<InstantSpec> d = dateAt(i);
            if (d != null && d.value().date instanceof CalendarDate c) {
                r.month = c.month();
                r.dayOfMonth = c.day();
                return d.end();
            }
        }
        boolean another = !r.times.isEmpty() && i < size && startsWithPrefix(i, "ו");
        if ((r.times.isEmpty() || another) && r.frequency != Frequency.MINUTELY && r.frequency != Frequency.HOURLY) {
            InstantSpec ctx = new InstantSpec();
            ctx.partOfDay = r.partOfDay;
            Hit<ClockTime> t = time(i, ctx, Context.FREE, true);
            if (t != null) {
                ClockTime c = t.value();
                int end = t.end();
                Hit<PartOfDay> p = partSaid(end);
                if (p != null && c.ambiguous()) {
                    c = new ClockTime(
                            p.value().hour24(c.hour()), c.minute(), c.second(), Meridiem.NONE, true, c.grain());
                    end = p.end();
                }
                r.times.add(c);
                return end;
            }
        }
        if (r.partOfDay == null) {
            Hit<PartOfDay> p = partSaid(i);
            if (p != null) {
                r.partOfDay = p.value();
                return p.end();
            }
        }
        return -1;
    }
}
