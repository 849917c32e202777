package dev.weft.time.internal;

import dev.weft.time.Grain;
import dev.weft.time.internal.ClockTime.Meridiem;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Hebrew grammar. Words are matched with or without the prefixes Hebrew attaches to them
 * (ו, ב, ל, ה, מ, כ, ש): "בשמונה" is "at eight", "לפברואר" is "of February". One instance reads one
 * text; not thread-safe.
 *
 * <p>What is left of it until each family moves to the {@link Engine}: clocks (also a recurrence's,
 * {@link Engine#recurrenceClock}) and the merging of an instant's parts. Days from today, periods,
 * weekdays (and one counted from a date), dates (the n-th day, week or weekday of a month,
 * Hebrew-calendar dates), quarters, the ends and the rest of periods, amounts from now, offsets,
 * lengths, counted periods, day ranges and intervals, parts of the day and recurrences are the
 * engine's, from {@link HebrewLexicon}.
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

    HebrewGrammar(List<Token> tokens, boolean lenient, int referenceYear) {
        super(tokens, lenient, referenceYear, HebrewLexicon.INSTANCE);
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

    // ---- instants ---------------------------------------------------------------------------

    @Override
    Hit<InstantSpec> readInstant(int i, Context ctx) {
        InstantSpec acc = new InstantSpec();
        int p = i;
        int end = -1;
        while (p < size) {
            int q = p;
            if (end >= 0 && (sym(q, ',') || heExact(q, "ב", "על"))) {
                q++;
            }
            if (allDay(q)) {
                q += 2; // "כל היום ביום שישי": all day on Friday is Friday
            }
            if (heExact(q, "בערך", "בסביבות", "סביבות", "סביב", "לקראת") && q + 1 < size) {
                q++; // about: the time that follows is what counts
            } else if (heExact(q, "על") && partOfDay(q + 1) != null) {
                q++; // "על הבוקר": first thing in the morning
            }
            Hit<InstantSpec> part = part(q, acc, ctx, end < 0);
            if (part == null || !merge(acc, part.value())) {
                break;
            }
            p = part.end();
            end = p;
        }
        if (end < 0 || acc.isEmpty()) {
            return null;
        }
        if (acc.date != null && acc.time == null && allDay(end)) {
            end += 2; // "מחר כל היום"
        }
        return new Hit<>(acc, end);
    }

    /** "כל היום", "במשך כל היום": all day, which a day already is. */
    private boolean allDay(int i) {
        return heExact(i, "כל", "לכל", "במשך") && heExact(i + 1, "היום") && !heExact(i + 2, "יום");
    }

    private Hit<InstantSpec> part(int q, InstantSpec acc, Context ctx, boolean first) {
        if (q >= size) {
            return null;
        }
        // the engine's families (days, dates, periods, weekdays…) before the clock: "שני" is Monday before 2 o'clock
        Hit<InstantSpec> best = sharedPart(q, acc, ctx, first);
        Hit<ClockTime> t = time(q, acc, ctx, first);
        if (t != null) {
            InstantSpec s = new InstantSpec();
            s.time = t.value();
            int end = t.end();
            Hit<Meridiem> m = latinMeridiem(end);
            if (m != null && s.time.meridiem() == Meridiem.NONE && s.time.hour() >= 1 && s.time.hour() <= 12) {
                s.time = new ClockTime(
                        s.time.hour(), s.time.minute(), s.time.second(), m.value(), false, s.time.grain());
                end = m.end(); // "ב-8 PM", "מחר ב-9am"
            }
            best = longest(best, new Hit<>(s, end));
        }
        if (acc.time != null || acc.date != null) {
            int z = heExact(q, "לפי", "שעון") ? q + 1 : q;
            boolean paren = sym(z, '(');
            Hit<ZoneId> zone = zone(paren ? z + 1 : z);
            if (zone != null && (!paren || sym(zone.end(), ')'))) {
                InstantSpec s = new InstantSpec();
                s.zone = zone.value();
                best = longest(best, new Hit<>(s, paren ? zone.end() + 1 : zone.end()));
            }
            if (heExact(q, "שעון") && he(q + 1, "ישראל")) {
                InstantSpec s = new InstantSpec();
                s.zone = ZoneId.of("Asia/Jerusalem");
                best = longest(best, new Hit<>(s, q + 2));
            }
        }
        return best;
    }

    // ---- days of the month ------------------------------------------------------------------

    /** A number before these is an hour: "יוני 12 בערב", "במרץ 5 וחצי". */
    @Override
    boolean clockAhead(int i) {
        return super.clockAhead(i) || podAhead(i) || minutesWordAhead(i);
    }

    // ---- durations and offsets --------------------------------------------------------------

    private ChronoUnit unit(int i, String requiredPrefix) {
        Lex<ChronoUnit> u = lookup(i, TIME_UNITS);
        return u != null && u.prefix().equals(requiredPrefix) ? u.value() : null;
    }

    // ---- clock times ------------------------------------------------------------------------

    private static boolean timePrefix(String p, Context ctx) {
        return p.equals("ב")
                || p.equals("וב")
                || p.equals("עד")
                || (ctx == Context.INTERVAL
                        && (p.isEmpty()
                                || p.equals("מ")
                                || p.equals("ל")
                                || p.equals("ו")
                                || p.equals("ועד")
                                || p.equals("עד")));
    }

    private Hit<ClockTime> time(int i, InstantSpec acc, Context ctx, boolean first) {
        if (i >= size) {
            return null;
        }
        boolean anchored = false;
        int j = i;
        String p = prefix(i, "שעה");
        if (p != null && Set.of("ב", "וב", "ה", "מ", "ל", "מה", "עד", "ועד").contains(p) && !tok(i).isNumber()) {
            anchored = true;
            j = i + 1;
        }
        String mid = prefix(j, "חצות");
        if (mid != null) {
            return new Hit<>(new ClockTime(24, 0, 0, Meridiem.NONE, true, Grain.HOUR), j + 1);
        }
        Hit<ClockTime> relative = relativeClock(j, ctx, anchored);
        if (relative != null) {
            return relative;
        }
        Hit<ClockTime> digital = digitalTime(j);
        if (digital != null) {
            ClockTime c = digital.value(); // Israel writes clock times on a 24-hour clock
            return minutesAfter(
                    new ClockTime(c.hour(), c.minute(), c.second(), Meridiem.NONE, !podAhead(digital.end()), c.grain()),
                    digital.end());
        }
        if (num(j)
                && sym(j + 1, '.')
                && num(j + 2)
                && adjacent(j + 1)
                && adjacent(j + 2)
                && tok(j + 2).text().length() == 2
                && value(j) <= 24
                && value(j + 2) < 60
                && (anchored || timePrefix(numberPrefix(j), ctx))) {
            return new Hit<>(ClockTime.of(value(j), value(j + 2), Grain.MINUTE), j + 3);
        }
        if (num(j)
                && tok(j).text().length() == 4
                && (anchored || numberPrefix(j).equals("ב"))) {
            int v = value(j);
            if (v / 100 <= 23 && v % 100 < 60 && !year(j)) {
                return new Hit<>(ClockTime.of(v / 100, v % 100, Grain.MINUTE), j + 1);
            }
        }
        Number n = number(j);
        if (n == null || n.value() > 24 || (num(j) && tok(j).text().length() > 2)) {
            return null;
        }
        if (!num(j) && n.value() == 0) {
            return null;
        }
        boolean marked = podAhead(n.end()) || minutesWordAhead(n.end());
        boolean allowed = anchored
                || (j == i && n.prefix().isEmpty() && heExact(i - 1, "בסביבות", "סביבות", "סביב", "לקראת"))
                || (num(j) && j == i && timePrefix(n.prefix(), ctx))
                || (!num(j) && j == i && timePrefix(n.prefix(), ctx) && n.value() <= 12)
                || ((n.prefix().isEmpty() || n.prefix().equals("ל")) && marked)
                || (n.prefix().isEmpty() && num(j) && (acc.date != null) && bareHourFollows(n.end()))
                || (j == i && n.prefix().equals("ל") && feminineHour(j) && unit(n.end(), "") == null);
        if (!allowed) {
            return null;
        }
        if (!num(j) && n.value() > 12 && !anchored) {
            return null;
        }
        return minutesAfter(ClockTime.of(n.value(), 0, Grain.HOUR), n.end());
    }

    /** The feminine numbers that tell the hour ("לאחת עשרה", "לשלוש"), not a count of people or things. */
    private static final Set<String> FEMININE_HOURS =
            Set.of("אחת", "שתיים", "שתים", "שלוש", "ארבע", "חמש", "שש", "שבע", "שמונה", "תשע", "עשר");

    private boolean feminineHour(int i) {
        Lex<Integer> n = lookup(i, UNITS);
        return n != null
                && FEMININE_HOURS.contains(tok(i).text().substring(n.prefix().length()));
    }

    private boolean podAhead(int i) {
        return partSaid(i) != null;
    }

    private boolean minutesWordAhead(int i) {
        return heExact(i, "וחצי", "ורבע") || (heExact(i, "פחות") && lessMinutes(i + 1) != null);
    }

    /** The minutes after "פחות": "רבע", "עשרה", "5 דקות". */
    private Hit<Integer> lessMinutes(int i) {
        if (heExact(i, "רבע")) {
            return new Hit<>(15, i + 1);
        }
        Number n = number(i);
        if (n == null || !n.prefix().isEmpty() || n.value() < 1 || n.value() > 30) {
            return null;
        }
        int end = unit(n.end(), "") == ChronoUnit.MINUTES ? n.end() + 1 : n.end();
        return new Hit<>(n.value(), end);
    }

    private boolean bareHourFollows(int end) {
        if (end >= size) {
            return true;
        }
        Token t = tok(end);
        if (t.kind() == Token.Kind.SYMBOL) {
            return !t.isSymbol('/') && !t.isSymbol('.') && !t.isSymbol(':') && !t.isSymbol('-');
        }
        return heExact(end, "עד", "ועד", "בדיוק") || podAhead(end) || minutesWordAhead(end);
    }

    /** Minutes said after the hour: "וחצי", "ורבע", "ועשרים", "ו-10 דקות", "פחות רבע". */
    private Hit<ClockTime> minutesAfter(ClockTime t, int end) {
        if (t.grain() == Grain.HOUR) {
            int minutes = -1;
            int stop = end;
            if (heExact(end, "וחצי")) {
                minutes = 30;
                stop = end + 1;
            } else if (heExact(end, "ורבע")) {
                minutes = 15;
                stop = end + 1;
            } else if (heExact(end, "פחות") && lessMinutes(end + 1) != null) {
                Hit<Integer> less = lessMinutes(end + 1);
                int h = t.hour() == 1 ? 12 : t.hour() - 1;
                ClockTime c = new ClockTime(
                        h, 60 - less.value(), 0, t.meridiem(), t.twentyFourHour() || h == 0 || h > 12, Grain.MINUTE);
                return new Hit<>(c, less.end());
            } else {
                Number n = number(end);
                if (n != null && n.prefix().equals("ו") && n.value() >= 1 && n.value() < 60) {
                    minutes = n.value();
                    stop = n.end();
                    if (unit(stop, "") == ChronoUnit.MINUTES) {
                        stop++;
                    }
                }
            }
            if (minutes >= 0) {
                t = new ClockTime(t.hour(), minutes, 0, t.meridiem(), t.twentyFourHour(), Grain.MINUTE);
                end = stop;
            }
        }
        if (heExact(end, "בדיוק")) {
            end++;
        }
        return new Hit<>(t, end);
    }

    /** "רבע ל-12", "ברבע לשמונה", "עשרה לשמונה", "חמש דקות לשש". */
    private Hit<ClockTime> relativeClock(int i, Context ctx, boolean anchored) {
        int minutes;
        int j;
        String lead;
        boolean counted = false;
        String q = prefix(i, "רבע");
        if (q != null) {
            minutes = 15;
            lead = q;
            j = i + 1;
        } else {
            Number n = number(i);
            if (n == null || n.value() < 1 || n.value() > 30) {
                return null;
            }
            minutes = n.value();
            lead = n.prefix();
            j = n.end();
            if (unit(j, "") == ChronoUnit.MINUTES) {
                counted = true;
                j++;
            }
            if (num(i) && !counted) {
                return null; // "2 ל-4" is an interval
            }
            if (ctx == Context.INTERVAL && !counted) {
                return null;
            }
        }
        if (!(lead.isEmpty() || lead.equals("ב") || lead.equals("וב") || anchored)) {
            return null;
        }
        if (heExact(j, "אחרי") && (q != null || counted)) {
            Number after = number(j + 1); // "רבע אחרי שמונה": a quarter past eight
            if (after == null || !after.prefix().isEmpty() || after.value() < 1 || after.value() > 12) {
                return null;
            }
            return new Hit<>(ClockTime.of(after.value(), minutes, Grain.MINUTE), after.end());
        }
        Number h = number(j);
        if (h == null || !h.prefix().equals("ל") || h.value() < 1 || h.value() > 24) {
            String mid = prefix(j, "חצות");
            if (mid != null && mid.equals("ל")) {
                return new Hit<>(new ClockTime(23, 60 - minutes, 0, Meridiem.NONE, true, Grain.MINUTE), j + 1);
            }
            return null;
        }
        if (!num(j) && h.value() > 12) {
            return null;
        }
        int hour = h.value() - 1;
        if (hour == 0) {
            hour = 12;
        }
        ClockTime c = new ClockTime(hour, 60 - minutes, 0, Meridiem.NONE, hour > 12, Grain.MINUTE);
        int end = h.end();
        if (heExact(end, "בדיוק")) {
            end++;
        }
        return new Hit<>(c, end);
    }

    // ---- recurrences ------------------------------------------------------------------------

    /** A clock of a recurrence read with this grammar's clocks ("כל יום ב-8 בבוקר"), until Hebrew's clocks are the engine's. */
    @Override
    Hit<InstantSpec> recurrenceClock(int i, boolean anchored, RecurrenceBuilder r) {
        InstantSpec ctx = new InstantSpec();
        ctx.partOfDay = r.partOfDay;
        Hit<ClockTime> t = time(i, ctx, Context.FREE, true);
        if (t == null) {
            return null;
        }
        InstantSpec s = new InstantSpec();
        s.time = t.value();
        Hit<PartOfDay> part = partSaid(t.end());
        s.partOfDay = part == null ? null : part.value();
        return new Hit<>(s, part == null ? t.end() : part.end());
    }
}
