package dev.weft.time.internal;

import dev.weft.time.Grain;
import dev.weft.time.TimeExpression.Recurrence.Frequency;
import dev.weft.time.internal.ClockTime.Meridiem;
import dev.weft.time.internal.DateRef.CalendarDate;
import dev.weft.time.internal.DateRef.DayOfMonthRef;
import dev.weft.time.internal.DateRef.MonthRef;
import dev.weft.time.internal.DateRef.PeriodRef;
import dev.weft.time.internal.DateRef.RelativeDay;
import dev.weft.time.internal.DateRef.WeekdayMode;
import dev.weft.time.internal.DateRef.WeekdayRef;
import dev.weft.time.internal.DateRef.YearRef;
import dev.weft.time.internal.Meaning.Amount;
import dev.weft.time.internal.Meaning.Clock;
import dev.weft.time.internal.Meaning.Day;
import dev.weft.time.internal.Meaning.DayPart;
import dev.weft.time.internal.Meaning.Length;
import dev.weft.time.internal.Meaning.Month;
import dev.weft.time.internal.Meaning.Often;
import dev.weft.time.internal.Meaning.Ordinal;
import dev.weft.time.internal.Meaning.Part;
import dev.weft.time.internal.Meaning.Role;
import dev.weft.time.internal.Meaning.Unit;
import dev.weft.time.internal.Meaning.Weekdays;
import dev.weft.time.internal.Parsed.IntervalParse;
import dev.weft.time.internal.Parsed.Match;
import dev.weft.time.internal.Parsed.WeekendParse;
import java.time.DayOfWeek;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The rules that build a time from its parts, written once over {@link Meaning}s: a language brings
 * a {@link Lexicon} (its words as data, and hooks for what is its own) and no rules. One instance
 * reads one text; not thread-safe.
 *
 * <p>The families: days counted from today, weekdays (this, next, last, counted from a date), dates (a day and a month,
 * numeric, a month, a year, the n-th weekday, day or week of a month or a year), periods (this,
 * next, last week, month, year), clock times (digits, words, a part of the day after them, words
 * that name a time), parts of the day, amounts from now (ahead,
 * ago), intervals (from … to …, days of one month), weekends, recurrences (every unit, every weekday,
 * plural weekdays, every part of the day, words that recur on their own, with times, parts of the
 * day, more days and an end) and lengths, and those of issue #39 in {@link Family}. Every language
 * reads every family here: English, Hebrew and Russian are this class with their lexicon.
 */
class Engine extends Grammar {

    /** The families of rules, each switched on by the lexicons of the languages that read them. */
    enum Family {
        DAYS,
        WEEKDAYS,
        DATES,
        PERIODS,
        AMOUNTS,
        CLOCKS,
        PARTS_OF_DAY,
        ZONES,
        /** "the 20th of the current month", "20 числа следующего месяца". */
        DAYS_OF_RELATIVE_MONTHS,
        /** "the ides of March". */
        NAMED_DAYS,
        /** "March in 1 year", "в марте через год". */
        MONTHS_IN_YEARS,
        /** "Q3 next year", "the last quarter of next year", "הרבעון האחרון של השנה הבאה". */
        QUARTERS_OF_YEARS,
        /** "Monday week", "Tuesday fortnight": that weekday, a week or two after the next one. */
        WEEKDAY_WEEKS,
        /** Days named for what falls on them, from the lexicon's phrases. */
        HOLIDAYS,
        /** Recurrences ("every quarter", "quarterly", "каждое 10-е число"). */
        RECURRENCES,
        /** Spans around now or a day: "the next 3 days", "the rest of the week", "the week before Christmas". */
        SPANS
    }

    private final Lexicon lexicon;
    private final java.util.Set<Family> families;
    /** Whether the language writes prefix letters on its words: where not, no rule asks what they say. */
    private final boolean prefixed;
    /** Whether the language reads days of its own: where not, no rule asks its hooks for them on every token. */
    private final boolean ownDays;
    /** Whether the language says an n-th after what it counts ("היום השלישי"), not before it ("the third day"). */
    private final boolean countAfterThing;
    /** Whether the language says a day of the month by its cardinal ("חמישה עשר במרץ"). */
    private final boolean cardinalDays;
    /** The meaning of each token, looked up once: the rules ask for the same tokens many times. */
    private final Meaning[] meanings;

    private final boolean[] looked;

    Engine(List<Token> tokens, boolean lenient, int referenceYear, Lexicon lexicon) {
        super(tokens, lenient, referenceYear);
        this.lexicon = lexicon;
        this.families = lexicon.families();
        this.prefixed = lexicon.writesPrefixes();
        this.ownDays = lexicon.readsOwnDays();
        this.countAfterThing = lexicon.countAfterThing();
        this.cardinalDays = lexicon.cardinalDays();
        this.meanings = new Meaning[size];
        this.looked = new boolean[size];
        this.edgePhrases =
                lexicon.phraseMeans(Role.END) || lexicon.phraseMeans(Role.START) || lexicon.phraseMeans(Role.MIDDLE);
        this.allDayPhrases = lexicon.phraseMeans(Role.ALL_DAY);
        this.relativeClocks = lexicon.wordMeans(Role.PAST_HOUR) || lexicon.wordMeans(Role.TO_HOUR);
    }

    /** Whether the lexicon says an edge of a period by a phrase ("end of"): else only its word is looked at. */
    private final boolean edgePhrases;

    /** Whether the lexicon says a day whole by a phrase ("all day"): else no rule looks for one. */
    private final boolean allDayPhrases;

    /** Whether the lexicon says minutes before or after an hour ("quarter to 12"): else no rule looks for them. */
    private final boolean relativeClocks;

    @Override
    DayOfWeek weekStart() {
        return lexicon.weekStart();
    }

    // ---- meanings ---------------------------------------------------------------------------

    Meaning meaningAt(int i) {
        if (i < 0 || i >= size || !tok(i).isWord()) {
            return null;
        }
        if (!looked[i]) {
            meanings[i] = lexicon.meaning(tok(i).text());
            looked[i] = true;
        }
        return meanings[i];
    }

    /** The meaning of token {@code i} of the kind a rule needs, whether or not it is the word's usual one; or null. */
    final <M extends Meaning> M meaningAt(int i, Class<M> kind) {
        if (i < 0 || i >= size || !tok(i).isWord()) {
            return null;
        }
        Meaning usual = meaningAt(i);
        return kind.isInstance(usual) ? kind.cast(usual) : lexicon.meaning(tok(i).text(), kind);
    }

    /** The meaning of a word (as a rule has cut it, "hours" of "hours's") of the kind a rule needs, or null. */
    final <M extends Meaning> M meaningOf(String word, Class<M> kind) {
        return lexicon.meaning(word, kind);
    }

    boolean isRole(int i, Role r) {
        return meaningAt(i) == r;
    }

    /** The longest phrase of the lexicon that starts at token {@code i}, or the meaning of the word; or null. */
    final Hit<Meaning> phraseAt(int i) {
        if (i < 0 || i >= size || !tok(i).isWord()) {
            return null;
        }
        if (phrases == null) {
            phrases = new Object[size];
        }
        Object known = phrases[i];
        if (known == null) {
            Hit<Meaning> read = readPhrase(i);
            phrases[i] = read == null ? NOTHING : read;
            return read;
        }
        @SuppressWarnings("unchecked")
        Hit<Meaning> hit = known == NOTHING ? null : (Hit<Meaning>) known;
        return hit;
    }

    private Object[] phrases;

    private Hit<Meaning> readPhrase(int i) {
        for (Lexicon.Phrase p : lexicon.phrasesFrom(tok(i).text())) {
            int t = i + 1;
            boolean all = true;
            for (int k = 1; all && k < p.words().size(); k++, t++) {
                if (sym(t, '.') && adjacent(t)) {
                    t++; // "st. patrick's day"
                }
                all = t < size && tok(t).isWord() && folded(t).equals(p.words().get(k));
            }
            if (all) {
                return new Hit<>(p.meaning(), t);
            }
        }
        Meaning m = meaningAt(i);
        return m == null ? null : new Hit<>(m, i + 1);
    }

    /** Token {@code t} as the lexicon's tables hold it, folded once: each phrase from a word compares it again. */
    private String folded(int t) {
        if (folds == null) {
            folds = new String[size];
        }
        String f = folds[t];
        if (f == null) {
            f = lexicon.fold(tok(t).text());
            folds[t] = f;
        }
        return f;
    }

    private String[] folds;

    /**
     * Whether every prefix letter of token {@code i} (Hebrew's "ל" and "כ" of "לכחצי", a number's
     * folded "ב" of "ב-3") says one of the roles; true when it has none, as in most languages.
     */
    final boolean prefixOnly(int i, java.util.Set<Role> roles) {
        if (!prefixed) {
            return true;
        }
        String p = prefixAt(i);
        for (int k = 0; k < p.length(); k++) {
            char c = p.charAt(k);
            if (c != '-' && !saysOneOf(c, roles)) {
                return false;
            }
        }
        return true;
    }

    private boolean saysOneOf(char letter, java.util.Set<Role> roles) {
        for (Role r : roles) {
            if (lexicon.prefixLetterMeans(letter, r)) {
                return true;
            }
        }
        return false;
    }

    /** Whether token {@code i} has prefix letters and the first of them says the role ("ל" of "לשעה" is for how long). */
    final boolean prefixSays(int i, Role r) {
        if (!prefixed) {
            return false;
        }
        String p = prefixAt(i);
        return !p.isEmpty() && lexicon.prefixMeans(p, r);
    }

    /** The prefix letters of token {@code i}: a number's folded prefix, those stripped from a word; "" when none. */
    private String prefixAt(int i) {
        if (i < 0 || i >= size) {
            return "";
        }
        Token t = tok(i);
        return t.isNumber() ? t.prefix() : t.isWord() ? lexicon.prefixOf(t.text()) : "";
    }

    private int skipLinks(int i) {
        while (isRole(i, Role.LINK)) {
            i++;
        }
        return i;
    }

    private Weekdays weekdays(int i) {
        return meaningAt(i) instanceof Weekdays w ? w : null;
    }

    private ChronoUnit unit(int i) {
        return meaningAt(i) instanceof Unit u ? u.unit() : null;
    }

    /** A unit of time written with no prefix letters at {@code i} ("דקות", not "בדקות"); or null. */
    final ChronoUnit bareUnit(int i) {
        return prefixAt(i).isEmpty() ? unit(i) : null;
    }

    private PartOfDay partAfterClock(int i) {
        return i < size && tok(i).isWord() ? lexicon.partAfterClock(tok(i).text()) : null;
    }

    // ---- instants ---------------------------------------------------------------------------

    @Override
    Hit<InstantSpec> readInstant(int i, Context ctx) {
        InstantSpec acc = new InstantSpec();
        int p = i;
        int end = -1;
        while (p < size) {
            int q = lexicon.partStart(this, p, end >= 0);
            boolean anchored = false;
            while (q < size) {
                if (means(q, Role.AT) || sym(q, '@')) {
                    anchored = true; // "at 5", "around 5", "@ 5": a bare number there is an hour
                    q++;
                } else if (isRole(q, Role.ON) || isRole(q, Role.ABOUT) || (sym(q, ',') && end >= 0)) {
                    q++;
                } else {
                    int after = allDay(q);
                    if (after == q) {
                        break;
                    }
                    q = after; // "all day Friday": Friday
                }
            }
            Hit<InstantSpec> part = sharedPart(q, acc, ctx, anchored);
            if (part == null || !merge(acc, part.value())) {
                break;
            }
            p = part.end();
            end = p;
        }
        if (end < 0 || acc.isEmpty()) {
            return null;
        }
        if (acc.date != null && acc.time == null && acc.partOfDay == null) {
            end = allDay(end); // "Friday all day"
        }
        return new Hit<>(acc, end);
    }

    /** After a phrase that says a day whole ("all day", "the whole day"), which a day already is; else {@code i}. */
    private int allDay(int i) {
        if (!allDayPhrases || i >= size) {
            return i;
        }
        Hit<Meaning> m = phraseAt(i);
        return m != null && m.value() == Role.ALL_DAY ? m.end() : i;
    }

    /** The longest part of an instant that starts at {@code q}, read by the families the language uses. */
    final Hit<InstantSpec> sharedPart(int q, InstantSpec acc, Context ctx, boolean anchored) {
        if (q >= size) {
            return null;
        }
        boolean clocks = families.contains(Family.CLOCKS);
        // where numbers are the lexicon's own hours, a day said as long comes first: "משני" is from Monday, not from 2
        boolean dayFirst = lexicon.readsOwnHours();
        Hit<InstantSpec> best = clocks && !dayFirst ? clock(q, acc, ctx, anchored) : null;
        best = longest(best, datePart(q));
        if (!clocks) {
            best = longest(best, clockWord(q));
        } else if (dayFirst) {
            best = longest(best, clock(q, acc, ctx, anchored));
        }
        best = longest(best, barePart(q, acc));
        if (families.contains(Family.ZONES) && (acc.time != null || acc.date != null)) {
            best = longest(best, zoneAt(q));
        }
        return best;
    }

    /**
     * A zone said after a time or a date: "UTC", "(CET)", a name of the lexicon's own ("שעון
     * ישראל"), or one after a word that says the time is by its clock ("לפי UTC"); or null.
     */
    private Hit<InstantSpec> zoneAt(int q) {
        int z = isRole(q, Role.CLOCK_OF) ? q + 1 : q;
        Hit<Meaning> named = phraseAt(q);
        java.time.ZoneId zone = null;
        int end = -1;
        if (named != null && named.value() instanceof Meaning.Zone own) {
            zone = own.zone();
            end = named.end();
        } else {
            boolean paren = sym(z, '('); // "ב-8 בערב (CET)"
            Hit<java.time.ZoneId> said = zone(paren ? z + 1 : z);
            if (said != null && (!paren || sym(said.end(), ')'))) {
                zone = said.value();
                end = paren ? said.end() + 1 : said.end();
            }
        }
        if (zone == null) {
            return null;
        }
        InstantSpec s = new InstantSpec();
        s.zone = zone;
        return new Hit<>(s, end);
    }

    /**
     * A clock time at {@code i} where the parts in {@code acc} were said before it (a recurrence's part
     * of the day: "every morning 7"), with what is said right after it ("9 am", "в 9 утра"); or null.
     */
    final Hit<InstantSpec> clockAt(int i, InstantSpec acc, Context ctx, boolean anchored) {
        return families.contains(Family.CLOCKS) ? clock(i, acc, ctx, anchored) : null;
    }

    /** The parts read the same wherever they are said, read once per place: the rules ask again and again. */
    private Hit<InstantSpec> datePart(int q) {
        if (q >= size) {
            return null;
        }
        if (dateParts == null) {
            dateParts = new Object[size];
        }
        Object known = dateParts[q];
        if (known == null) {
            Hit<InstantSpec> read = readDatePart(q);
            dateParts[q] = read == null ? NOTHING : read;
            return read;
        }
        @SuppressWarnings("unchecked")
        Hit<InstantSpec> hit = known == NOTHING ? null : (Hit<InstantSpec>) known;
        return hit;
    }

    private static final Object NOTHING = new Object();
    private Object[] dateParts;

    /**
     * Whether a day the lexicon reads itself may start at {@code q}: a weekday ("ביום א'"), a holiday
     * whose name is also a word ("חג שבועות"), or a weekday's bare name that what follows says is one
     * ("שישי אחרי חנוכה", "חמישי השלישי באפריל").
     */
    private boolean ownDayAt(int q) {
        return lexicon.ownWeekday(this, q) != null
                || lexicon.ownHoliday(this, q) != null
                || countAt(q + 1)
                || aroundAt(q + 1);
    }

    private Hit<InstantSpec> readDatePart(int q) {
        Hit<InstantSpec> best = ownDateAt(q);
        if (best == null && !num(q) && phraseAt(q) == null && partNamed(q) == null && (!ownDays || !ownDayAt(q))) {
            return null; // every part starts with a number, a word the lexicon knows or a day it reads
        }
        if (families.contains(Family.DAYS)) {
            best = longest(best, relativeDay(q));
        }
        if (families.contains(Family.WEEKDAYS)) {
            best = longest(best, weekday(q));
        }
        if (families.contains(Family.DATES)) {
            best = longest(best, date(q));
            best = longest(best, nthOf(q));
        }
        if (families.contains(Family.PERIODS)) {
            best = longest(best, period(q));
        }
        if (families.contains(Family.AMOUNTS)) {
            best = longest(best, offset(q));
        }
        if (families.contains(Family.PARTS_OF_DAY)) {
            best = longest(best, partOfDay(q));
        }
        if (families.contains(Family.DAYS_OF_RELATIVE_MONTHS)) {
            best = longest(best, dayOfRelativeMonth(q));
        }
        if (families.contains(Family.NAMED_DAYS)) {
            best = longest(best, namedDay(q));
        }
        if (families.contains(Family.MONTHS_IN_YEARS)) {
            best = longest(best, monthInYears(q));
        }
        if (families.contains(Family.QUARTERS_OF_YEARS)) {
            best = longest(best, quarterOfYear(q));
            best = longest(best, quarterInLetters(q));
        }
        if (families.contains(Family.WEEKDAY_WEEKS)) {
            best = longest(best, weekdayWeeks(q));
        }
        if (families.contains(Family.HOLIDAYS)) {
            best = longest(best, holidayAt(q));
        }
        return best;
    }

    /** "Q3 next year", "the last quarter of next year", "הרבעון האחרון של השנה הבאה", "2-й квартал 2027 года". */
    private Hit<InstantSpec> quarterOfYear(int i) {
        int j = skipLinks(i);
        // the word for a quarter is first or second, or third after a number and its ordinal ending ("2nd qtr")
        int after = isRole(j + 1, Role.QUARTER) || !num(j) ? j + 1 : ordinalEnding(j + 1);
        if (!isRole(j, Role.QUARTER) && !isRole(after, Role.QUARTER)) {
            return null;
        }
        Integer n = quarterNumber(j);
        int k;
        if (n != null && isRole(after, Role.QUARTER)) {
            k = after + 1;
        } else if (isRole(j, Role.QUARTER) && (n = quarterNumber(j + 1)) != null) {
            k = j + 2;
        } else if (isRole(j, Role.QUARTER) && num(j + 1) && value(j + 1) >= 1 && value(j + 1) <= 4) {
            n = value(j + 1);
            k = j + 2;
        } else {
            return null;
        }
        int y = skipLinks(k);
        Hit<InstantSpec> period = period(y);
        if (period != null && period.value().date instanceof PeriodRef p && p.grain() == Grain.YEAR) {
            return withDate(new DateRef.QuarterInYear(n, p.shift()), period.end());
        }
        Hit<Integer> year = yearAfter(y);
        // with no year, the quarter of this year or the next one, as a month without a year is
        return year == null
                ? withDate(new DateRef.QuarterRef(n, 0), k)
                : withDate(new DateRef.QuarterRef(n, year.value()), year.end());
    }

    /** A year and its quarter in letters, in any language: "2019Q2", "19q2" ("Q2" is the lexicon's word). */
    private Hit<InstantSpec> quarterInLetters(int i) {
        if (num(i) && word(i + 1, "q") && num(i + 2) && adjacent(i + 1) && adjacent(i + 2)) {
            int len = tok(i).text().length();
            int year = len == 4 ? value(i) : len == 2 ? fullYear(value(i)) : 0;
            int q = value(i + 2);
            return year == 0 || q < 1 || q > 4 ? null : withDate(new DateRef.QuarterRef(q, year), i + 3);
        }
        return null;
    }

    /** {@link #meaningAt(int, Class)} for an ordinal, looked up once per token: every reading of a date asks it. */
    private Ordinal ordinalAt(int i) {
        if (i < 0 || i >= size) {
            return null;
        }
        if (ordinals == null) {
            ordinals = new Object[size];
        }
        Object known = ordinals[i];
        if (known == null) {
            Ordinal o = meaningAt(i, Ordinal.class);
            ordinals[i] = o == null ? NOTHING : o;
            return o;
        }
        return known == NOTHING ? null : (Ordinal) known;
    }

    private Object[] ordinals;

    /** The quarter an ordinal names ("third", "3-й"), the last one 4; or null. */
    private Integer quarterNumber(int i) {
        if (isRole(i, Role.LAST)) {
            return 4;
        }
        Hit<Integer> d = dayNumber(i);
        Ordinal o = d == null ? ordinalAt(i) : null;
        if (o != null && o.value() >= 1 && o.value() <= 4) {
            return o.value(); // an ordinal that is not a day's: "רבעון שני"
        }
        return d != null && d.end() == i + 1 && !num(i) && d.value() <= 4
                ? d.value()
                : d != null && num(i) && d.end() > i + 1 && d.value() <= 4 ? d.value() : null;
    }

    /** "Monday week" (the Monday a week after the next one), "Tuesday fortnight". */
    private Hit<InstantSpec> weekdayWeeks(int i) {
        Weekdays w = weekdays(i);
        if (w == null || w.plural() || w.days().size() != 1) {
            return null;
        }
        Hit<Offset> d = unit(i + 1) == ChronoUnit.WEEKS
                ? new Hit<>(new Offset(1, ChronoUnit.WEEKS), i + 2) // "Monday week"
                : duration(i + 1);
        if (d == null || d.end() != i + 2 || d.value().unit() != ChronoUnit.WEEKS) {
            return null;
        }
        DateRef next = new WeekdayRef(w.day(), WeekdayMode.NEXT, 0);
        return withDate(new DateRef.Shifted(next, new Offset(7 * d.value().amount(), ChronoUnit.DAYS)), d.end());
    }

    /**
     * A day named for what falls on it ("Bastille Day", "Good Friday", "ליל הסדר"), in the year said
     * after it if any; "erev" before a day of the Hebrew calendar is the day before it.
     */
    final Hit<InstantSpec> holidayAt(int i) {
        int j = skipLinks(i);
        Hit<Meaning> m = phraseAt(j);
        Hit<InstantSpec> named = null;
        if (m != null && m.value() instanceof Meaning.Holiday h) {
            Hit<Integer> y = yearAfter(m.end());
            DateRef dated = y == null ? null : inYear(h.date(), y.value());
            named = dated == null ? withDate(h.date(), m.end()) : withDate(dated, y.end());
        } else {
            named = ownHoliday(j); // "בשבועות": a holiday whose name is also a word
        }
        if (isRole(j, Role.EVE) && !lexicon.definite(tok(j).text())) {
            // the eve of a day of the Hebrew calendar or of Easter; "הערב", with the article, is this evening
            Hit<InstantSpec> h = holidayAt(j + 1);
            if (h != null
                    && (named == null || h.end() > named.end())
                    && (h.value().date instanceof DateRef.HebrewDate || h.value().date instanceof DateRef.EasterRef)) {
                return withDate(new DateRef.Shifted(h.value().date, new Offset(-1, ChronoUnit.DAYS)), h.end());
            }
        }
        return named;
    }

    /** A date of the lexicon's own calendar at token {@code i} ("ט\"ו בשבט", "א' בניסן תשפ\"ז"), or null. */
    final Hit<InstantSpec> ownDateAt(int i) {
        Hit<DateRef> own = ownDays ? lexicon.ownDate(this, i) : null;
        return own == null ? null : withDate(own.value(), own.end());
    }

    /**
     * A day of the month said before a month's name ("the 3rd of March", "15 בניסן"), and in a
     * language that says a day by its cardinal, a number in words as amounts read it ("חמישה עשר
     * במרץ", "בעשרים ושלושה ביוני").
     */
    final Hit<Integer> dayBeforeMonth(int i) {
        Hit<Integer> d = dayNumber(i);
        if (d != null || !cardinalDays || num(i) || !(amountWord(i) instanceof Amount)) {
            return d;
        }
        Hit<Double> n = amountAt(i);
        double v = n == null ? 0 : n.value();
        return v >= 1 && v <= 31 && v == Math.rint(v) ? new Hit<>((int) v, n.end()) : null;
    }

    /**
     * Whether what follows token {@code i} makes the number before it an hour, not a day: ":", "."
     * before minutes ("7.30"; not the full stop of "on December 17."), a part of the day, am/pm, and
     * what the lexicon adds ("יוני 12 בערב", "במרץ 5 וחצי": {@link Lexicon#clockAhead}).
     */
    boolean clockAhead(int i) {
        return sym(i, ':')
                || (sym(i, '.') && num(i + 1) && adjacent(i + 1))
                || partAfterClock(i) != null
                || latinMeridiem(i) != null
                || lexicon.clockAhead(this, i);
    }

    /** A holiday the lexicon reads itself at token {@code j}, in the year said after it if any. */
    private Hit<InstantSpec> ownHoliday(int j) {
        Hit<DateRef> own = ownDays ? lexicon.ownHoliday(this, j) : null;
        if (own == null) {
            return null;
        }
        Hit<Integer> y = yearAfter(own.end());
        DateRef dated = y == null ? null : inYear(own.value(), y.value());
        return dated == null ? withDate(own.value(), own.end()) : withDate(dated, y.end());
    }

    /** A holiday's date in a given year, or null when it cannot be dated so. */
    private static DateRef inYear(DateRef d, int year) {
        return switch (d) {
            case CalendarDate c -> date(year, c.month(), c.day());
            case DateRef.NthWeekdayRef n
            when n.month() instanceof MonthRef m ->
                new DateRef.NthWeekdayRef(n.n(), n.day(), new MonthRef(m.month(), year, 0));
            case DateRef.HebrewDate h -> new DateRef.HebrewDate(h.month(), h.day(), year, h.observance());
            case DateRef.EasterRef e -> new DateRef.EasterRef(e.days(), year);
            case DateRef.Shifted s -> {
                DateRef base = inYear(s.base(), year);
                yield base == null ? null : new DateRef.Shifted(base, s.offset());
            }
            default -> null;
        };
    }

    /** "the 20th of the current month", "ה-20 בחודש הבא", "20 числа следующего месяца". */
    private Hit<InstantSpec> dayOfRelativeMonth(int i) {
        Hit<Integer> day = dayBeforeMonth(skipLinks(i));
        if (day == null) {
            return null;
        }
        int j = skipLinks(isRole(day.end(), Role.DAY_OF_MONTH) ? day.end() + 1 : day.end());
        Hit<InstantSpec> month = period(j);
        if (month == null || !(month.value().date instanceof PeriodRef p) || p.grain() != Grain.MONTH) {
            return null;
        }
        return withDate(new DayOfMonthRef(day.value(), true, p.shift()), month.end());
    }

    /** "the ides of March", "иды марта": the day the month names by a word. */
    private Hit<InstantSpec> namedDay(int i) {
        int j = skipLinks(i);
        if (!(meaningAt(j) instanceof Meaning.NamedDay named)) {
            return null;
        }
        int k = skipLinks(j + 1);
        Integer m = month(k);
        if (m == null) {
            return null;
        }
        Hit<Integer> y = yearAfter(k + 1);
        CalendarDate d = date(y == null ? 0 : y.value(), m, named.dayOf(m));
        return d == null ? null : withDate(d, y == null ? k + 1 : y.end());
    }

    /** "March in 1 year", "в марте через 2 года": that month in the year so many years from this one. */
    private Hit<InstantSpec> monthInYears(int i) {
        int j = skipLinks(i);
        Integer m = month(j);
        if (m == null || !isRole(j + 1, Role.IN)) {
            return null;
        }
        Hit<Offset> d = duration(j + 2);
        if (d == null || d.value().unit() != ChronoUnit.YEARS || d.value().amount() < 0) {
            return null;
        }
        return withDate(new DateRef.MonthInYear(m, (int) d.value().amount()), d.end());
    }

    /**
     * A day counted from today ("tomorrow", "послезавтра"), now ("right now", "at the moment"), or
     * the time of day it is now ("at this time"); the lexicon may read its own forms first ("2morrow").
     */
    private Hit<InstantSpec> relativeDay(int i) {
        Hit<InstantSpec> own = lexicon.ownDay(this, i);
        if (own != null) {
            return own;
        }
        Hit<Meaning> m = longest(phraseFromPreposition(i), phraseAt(i));
        if (m == null) {
            return null;
        }
        if (m.value() instanceof Day d) {
            return withDate(new RelativeDay(d.days()), m.end());
        }
        InstantSpec s = new InstantSpec();
        if (m.value() instanceof Meaning.DayPart p) {
            s.date = new RelativeDay(p.days());
            s.partOfDay = p.part();
            s.thisPartOfDay = p.days() == 0;
        } else if (m.value() instanceof Meaning.WeekdayPart p) {
            s.date = new WeekdayRef(p.day(), WeekdayMode.THIS, 0);
            s.partOfDay = p.part();
        } else if (m.value() == Role.NOW) {
            s.now = true;
        } else if (m.value() == Role.THIS_TIME && !isRole(m.end(), Role.LINK)) {
            s.sameTime = true; // "at this time tomorrow"; alone, now; not "at the time of the meeting"
        } else {
            return null;
        }
        return new Hit<>(s, m.end());
    }

    /** {@link #relativeDay} for the rules of a language grammar that count from a day ("3 days after tomorrow"). */
    final Hit<InstantSpec> dayFromToday(int i) {
        return relativeDay(i);
    }

    /** {@link #weekday} for the rules of a language grammar that count from a day. */
    final Hit<InstantSpec> weekdayOn(int i) {
        return weekday(i);
    }

    /**
     * A phrase of now that starts with the preposition before {@code i} ("at the moment", "at
     * present"), which a reading of an instant skips before it reads its parts; or null.
     */
    private Hit<Meaning> phraseFromPreposition(int i) {
        if (!(isRole(i - 1, Role.AT) || isRole(i - 1, Role.ON))) {
            return null;
        }
        Hit<Meaning> m = phraseAt(i - 1);
        return m != null && m.end() > i && (m.value() == Role.NOW || m.value() == Role.THIS_TIME) ? m : null;
    }

    /** A clock time a word names ("noon", "EOD"), for a language whose clocks the engine does not read yet. */
    private Hit<InstantSpec> clockWord(int i) {
        Hit<Meaning> m = phraseAt(i);
        if (m == null || !(m.value() instanceof Clock c)) {
            return null;
        }
        InstantSpec s = new InstantSpec();
        s.time = named(c);
        return new Hit<>(s, m.end());
    }

    /** The time a clock word names: noon is 12 pm, midnight 24:00, the others that hour of a 24-hour clock. */
    private static ClockTime named(Clock c) {
        return switch (c.hour()) {
            case 12 -> new ClockTime(12, 0, 0, Meridiem.PM, true, Grain.HOUR);
            case 0, 24 -> new ClockTime(24, 0, 0, Meridiem.NONE, true, Grain.HOUR);
            default -> new ClockTime(c.hour(), 0, 0, Meridiem.NONE, true, Grain.HOUR);
        };
    }

    /**
     * "Monday", "next Tuesday", "в прошлую пятницу", "this coming Friday" (the nearest one ahead),
     * "Friday of next week", "Friday after next", and a weekday counted from a day ({@link #weekdayAround}).
     */
    private Hit<InstantSpec> weekday(int i) {
        Hit<InstantSpec> around = longest(weekdayAround(i), weekdayThenAround(i));
        if (around != null) {
            return around;
        }
        WeekdayMode mode = WeekdayMode.NEXT;
        int j = i;
        if ((isRole(j, Role.LINK) || isRole(j, Role.THIS)) && isRole(j + 1, Role.NEXT)) {
            j++; // "the following Friday", "this coming Friday"
        }
        boolean modified = true;
        if (isRole(j, Role.NEXT)) {
            mode = means(j, Role.COMING) ? WeekdayMode.NEXT : WeekdayMode.NEXT_SAID;
            j++;
        } else if (isRole(j, Role.LAST)) {
            mode = WeekdayMode.LAST;
            j++;
        } else if (isRole(j, Role.THIS)) {
            mode = WeekdayMode.THIS;
            j++;
        } else {
            modified = false;
        }
        Hit<DayOfWeek> day = weekdayName(j);
        if (day == null) {
            return null;
        }
        int end = day.end();
        if (!modified && !lenient && lexicon.notAWeekday(this, j, end)) {
            return null; // "sat", "sun": words first, weekdays where the words around them say so
        }
        if (!modified) {
            Hit<InstantSpec> after = weekdayModeAfter(day.value(), end);
            if (after != null) {
                return after;
            }
        }
        if (!modified && (isRole(end, Role.LINK) || isRole(end, Role.IN) || isRole(end, Role.FROM))) {
            Hit<InstantSpec> week = period(end + 1); // "Friday of next week"
            if (week != null && week.value().date instanceof PeriodRef p && p.grain() == Grain.WEEK) {
                return withDate(new WeekdayRef(day.value(), WeekdayMode.IN_WEEK, p.shift()), week.end());
            }
            int k = skipLinks(end + 1);
            if (k > end + 1 && unit(k) == ChronoUnit.WEEKS) {
                return withDate(new WeekdayRef(day.value(), WeekdayMode.IN_WEEK, 0), k + 1); // "Friday in the week"
            }
        }
        if (mode != WeekdayMode.LAST && isRole(end, Role.AFTER) && isRole(end + 1, Role.NEXT)) {
            // "Friday after next": the one a week after the next one
            DateRef next = new WeekdayRef(day.value(), WeekdayMode.NEXT, 0);
            return withDate(new DateRef.Shifted(next, new Offset(7, ChronoUnit.DAYS)), end + 2);
        }
        return withDate(new WeekdayRef(day.value(), mode, 0), end);
    }

    /** A weekday, for the rules built on one: "Monday", "next Tuesday", "יום שני הבא". */
    final Hit<InstantSpec> weekdayAt(int i) {
        return weekday(i);
    }

    /** One weekday's name, by the lexicon's own reading or a word: "Monday", "Mon.", "ביום א'". */
    private Hit<DayOfWeek> weekdayName(int i) {
        Hit<DayOfWeek> own = ownDays ? lexicon.ownWeekday(this, i) : null;
        if (own != null) {
            return own;
        }
        Weekdays w = weekdays(i);
        return w == null || w.plural() || w.days().size() != 1 ? null : new Hit<>(w.day(), skipDot(i + 1));
    }

    /**
     * Which one, said after the weekday: "יום שני הבא" (the next, and "הבא אחרי הבא" a week after it),
     * "הקרוב" (the nearest), "הזה", "שעבר" (but "the last Friday of March" is the nth weekday's),
     * "of next week", "השבוע"; or null.
     */
    private Hit<InstantSpec> weekdayModeAfter(DayOfWeek day, int k) {
        Hit<InstantSpec> week = period(k);
        if (week != null && week.value().date instanceof PeriodRef p && p.grain() == Grain.WEEK) {
            return withDate(new WeekdayRef(day, WeekdayMode.IN_WEEK, p.shift()), week.end()); // "Sunday next week"
        }
        Integer shift = shift(k);
        if (shift != null && shift == 1) {
            WeekdayMode mode = means(k, Role.COMING) ? WeekdayMode.NEXT : WeekdayMode.NEXT_SAID;
            DateRef ref = new WeekdayRef(day, mode, 0);
            if (isRole(k + 1, Role.AFTER) && Integer.valueOf(1).equals(shift(k + 2))) {
                return withDate(new DateRef.Shifted(ref, new Offset(7, ChronoUnit.DAYS)), k + 3);
            }
            return withDate(ref, k + 1);
        }
        if (shift != null && shift == 0) {
            return withDate(new WeekdayRef(day, WeekdayMode.THIS, 0), k + 1);
        }
        if (shift != null && !isRole(k + 1, Role.LINK) && month(k + 1) == null && unit(k + 1) == null) {
            return withDate(new WeekdayRef(day, WeekdayMode.LAST, 0), k + 1);
        }
        return null;
    }

    /**
     * A weekday counted from a day: "the Monday before Christmas", "the second Friday after New
     * Year", "the closest Tuesday to June 3rd"; "next week's Friday". Null for "the Friday after next".
     */
    private Hit<InstantSpec> weekdayAround(int i) {
        Meaning first = meaningAt(i);
        if (!num(i) && !(first instanceof Ordinal) && first != Role.LINK && first != Role.NEAREST && shift(i) == null) {
            return null; // each shape opens with "next", "the", "closest" or a count: a bare weekday opens none
        }
        Integer shift = shift(i);
        if (shift != null && unit(i + 1) == ChronoUnit.WEEKS) {
            Weekdays w = weekdays(i + 2); // "next week's Friday"
            return w == null || w.plural() || w.days().size() != 1
                    ? null
                    : withDate(new WeekdayRef(w.day(), WeekdayMode.IN_WEEK, shift), skipDot(i + 3));
        }
        int j = skipLinks(i);
        if (isRole(j, Role.NEAREST)) {
            Weekdays w = weekdays(j + 1);
            if (w == null || w.plural() || w.days().size() != 1 || !isRole(j + 2, Role.TO)) {
                return null;
            }
            Hit<InstantSpec> base = offsetBase(j + 3);
            return base == null ? null : withDate(new DateRef.ClosestWeekday(base.value().date, w.day()), base.end());
        }
        int n = 1;
        Hit<Integer> o = dayNumber(j);
        if (o != null && o.value() <= 5 && (o.end() > j + 1 || !num(j))) {
            n = o.value();
            j = o.end();
        } else if (j == i) {
            return null;
        }
        Weekdays w = weekdays(j);
        boolean after = isRole(j + 1, Role.AFTER);
        if (w == null
                || w.plural()
                || w.days().size() != 1
                || !(after || isRole(j + 1, Role.BEFORE))
                || isRole(j + 2, Role.NEXT)
                || isRole(j + 2, Role.LAST)) {
            return null;
        }
        Hit<InstantSpec> base = offsetBase(j + 2);
        return base == null
                ? null
                : withDate(new DateRef.WeekdayAfter(base.value().date, w.day(), after ? n : -n), base.end());
    }

    /**
     * A weekday named before the date it is counted from: "יום שישי השני אחרי ראש השנה", "השבת שלפני
     * פסח", "שישי אחרי חנוכה", "в пятницу после 5 марта", "Friday after Christmas"; or the one nearest
     * to a date: "יום שלישי הכי קרוב ל-3 ביוני", "Tuesday closest to June 3rd". Null for "Friday after next".
     */
    private Hit<InstantSpec> weekdayThenAround(int i) {
        if (!aroundAt(i + 1) && !aroundAt(i + 2) && !aroundAt(i + 3)) {
            return null; // tried on every token: only "after", "before" or "nearest" soon after opens it
        }
        Hit<DayOfWeek> day = weekdayCounted(i);
        if (day == null) {
            return null;
        }
        int k = day.end();
        Hit<Meaning> near = phraseAt(k);
        if (near != null && (near.value() == Role.NEAREST || means(k, Role.NEAREST))) {
            int to = near.value() == Role.NEAREST ? near.end() : k + 1;
            int b = isRole(to, Role.TO) ? to + 1 : to;
            if (b == to && !firstLetterSays(to, Role.TO)) {
                return null; // "ל-3 ביוני", "לכריסמס": the date it is nearest to
            }
            Hit<InstantSpec> base = offsetBase(b);
            return base == null
                    ? null
                    : withDate(new DateRef.ClosestWeekday(base.value().date, day.value()), base.end());
        }
        int n = 1;
        Hit<Integer> count = countAfter(k);
        if (count != null && count.value() > 0) {
            n = count.value();
            k = count.end();
        }
        boolean after = isRole(k, Role.AFTER);
        if (!(after || isRole(k, Role.BEFORE)) || isRole(k + 1, Role.NEXT) || isRole(k + 1, Role.LAST)) {
            return null;
        }
        Hit<InstantSpec> base = offsetBase(k + 1);
        return base == null
                ? null
                : withDate(new DateRef.WeekdayAfter(base.value().date, day.value(), after ? n : -n), base.end());
    }

    /** Whether token {@code k} says "after", "before" or "nearest", asked of meanings looked up once. */
    private boolean aroundAt(int k) {
        Hit<Meaning> m = k < size && tok(k).isWord() ? phraseAt(k) : null;
        return m != null
                && (m.value() == Role.AFTER
                        || m.value() == Role.BEFORE
                        || m.value() == Role.NEAREST
                        || means(k, Role.NEAREST));
    }

    private int skipDot(int i) {
        return sym(i, '.') && adjacent(i) ? i + 1 : i;
    }

    /** "next week", "the upcoming month", "в этом месяце", "בחודש הבא" (the word after the unit). */
    private Hit<InstantSpec> period(int i) {
        int j = skipLinks(isRole(i, Role.IN) ? i + 1 : i); // "in the middle of", "in mid June"
        Meaning w = meaningAt(j);
        Hit<Meaning> edge = w == Role.END || w == Role.START || w == Role.MIDDLE || edgePhrases ? phraseAt(j) : null;
        if (edge != null && (edge.value() == Role.END || edge.value() == Role.START || edge.value() == Role.MIDDLE)) {
            return boundary((Role) edge.value(), edge.end());
        }
        j = skipLinks(i);
        Integer shift = shift(j);
        Grain g;
        int end;
        if (shift != null) {
            g = periodGrain(j + 1);
            end = j + 2;
        } else {
            g = periodGrain(j);
            int k = skipLinks(j + 1);
            shift = shift(k);
            end = k + 1;
            if (shift != null
                    && shift == 1
                    && isRole(end, Role.AFTER)
                    && Integer.valueOf(1).equals(shift(end + 1))) {
                shift = 2; // "השבוע הבא אחרי הבא": the next after the next
                end += 2;
            } else if (shift == null && (isRole(k, Role.AFTER) || isRole(k, Role.BEFORE))) {
                // "the month after next", "החודש שלפני החודש שעבר"
                int m = skipLinks(k + 1);
                if (g != null && periodGrain(m) == g) {
                    m = skipLinks(m + 1);
                }
                Integer beyond = shift(m);
                if (beyond != null && beyond == (isRole(k, Role.AFTER) ? 1 : -1)) {
                    shift = 2 * beyond;
                    end = m + 1;
                }
            } else if (shift == null && g != null && lexicon.thisByArticle(tok(j).text())) {
                shift = 0; // "השבוע", "מהחודש": the article alone says this one
                end = j + 1;
            }
        }
        return g == null || shift == null ? null : withDate(new PeriodRef(g, shift), end);
    }

    /**
     * The end, the start or the middle of a period or a month: "в конце месяца", "סוף החודש", "תחילת
     * החודש הבא", "סוף מרץ", "בסוף מרץ 2027", "באמצע יוני", "the end of 2027", "mid-June"; a bare unit is
     * this one's ("в конце недели"). English says its edge with "of" ("end of"), a phrase of its lexicon.
     */
    private Hit<InstantSpec> boundary(Role edge, int from) {
        if (sym(from, '-') && adjacent(from) && adjacent(from + 1)) {
            from++; // "mid-June"
        }
        DateRef ref;
        int stop;
        Hit<InstantSpec> p = period(from);
        int k = skipLinks(from);
        Integer m = month(k);
        if (p != null && p.value().date instanceof PeriodRef r) {
            ref = r;
            stop = p.end();
        } else if (periodGrain(k) != null) {
            ref = new PeriodRef(periodGrain(k), 0);
            stop = k + 1;
        } else if (m != null) {
            Hit<Integer> y = yearAfter(k + 1);
            boolean next = y == null && Integer.valueOf(1).equals(shift(k + 1));
            ref = new MonthRef(m, y == null ? 0 : y.value(), next ? 1 : 0);
            stop = y != null ? y.end() : next ? k + 2 : k + 1;
        } else if (year(k)) {
            ref = new YearRef(value(k)); // "the end of 2027"
            stop = unit(k + 1) == ChronoUnit.YEARS ? skipDot(k + 2) : k + 1;
        } else {
            return null;
        }
        if (edge == Role.MIDDLE) {
            // the middle of a month is its 15th ("באמצע יוני"); a week or a year has none said so
            return ref instanceof MonthRef r && r.year() == 0 && r.shift() == 0
                    ? withDate(new CalendarDate(0, r.month(), 15), stop)
                    : ref instanceof MonthRef || (ref instanceof PeriodRef pr && pr.grain() == Grain.MONTH)
                            ? withDate(new DateRef.NthDayOf(ref, 15), stop)
                            : null;
        }
        return withDate(edge == Role.END ? new DateRef.EndOf(ref) : new DateRef.StartOf(ref), stop);
    }

    /** A relative period ("next week", "השבוע", "в следующем месяце"), for the rules built on one. */
    final Hit<InstantSpec> relativePeriod(int i) {
        return period(i);
    }

    /** The grain of a period's word: a week, month or year, or a quarter; or null. */
    private Grain periodGrain(int i) {
        return isRole(i, Role.QUARTER) ? Grain.QUARTER : grain(unit(i));
    }

    private static Grain grain(ChronoUnit u) {
        return u == null
                ? null
                : switch (u) {
                    case WEEKS -> Grain.WEEK;
                    case MONTHS -> Grain.MONTH;
                    case YEARS -> Grain.YEAR;
                    default -> null;
                };
    }

    /** +1 for a word that says the next one, -1 the last one, 0 this one; or null. */
    private Integer shift(int i) {
        Meaning m = meaningAt(i);
        return m == Role.NEXT
                ? Integer.valueOf(1)
                : m == Role.LAST ? Integer.valueOf(-1) : m == Role.THIS ? Integer.valueOf(0) : null;
    }

    // ---- dates ------------------------------------------------------------------------------

    private Integer month(int i) {
        return meaningAt(i) instanceof Month m ? m.month() : null;
    }

    /** A day of the month: {@code 5}, {@code 5-го}, {@code пятого}, {@code двадцать пятое}; or null. */
    private Hit<Integer> dayNumber(int i) {
        if (num(i) && tok(i).text().length() <= 2) {
            int v = value(i);
            if (v < 1 || v > 31 || sym(i + 1, ':') || latinMeridiem(i + 1) != null || isRole(i + 1, Role.OCLOCK)) {
                return null; // "the 7am alarm", "the 6:30 train": a clock's hour, not a day of the month
            }
            return new Hit<>(v, ordinalEnding(i + 1));
        }
        Meaning m = meaningAt(i);
        if (m instanceof Ordinal o && o.value() >= 1 && o.value() <= 31) {
            return new Hit<>(o.value(), i + 1);
        }
        if (m instanceof Amount tens && (tens.value() == 20 || tens.value() == 30)) {
            int j = sym(i + 1, '-') ? i + 2 : i + 1;
            if (meaningAt(j) instanceof Ordinal o && o.value() < 10 && tens.value() + o.value() <= 31) {
                return new Hit<>((int) tens.value() + o.value(), j + 1);
            }
        }
        return null;
    }

    /** After an ordinal ending written on a number ("5-го", "5th"), or {@code i}. */
    private int ordinalEnding(int i) {
        int j = sym(i, '-') && adjacent(i) ? i + 1 : i;
        return j < size && adjacent(j) && tok(j).isWord() && lexicon.ordinalEnding(tok(j).text()) ? j + 1 : i;
    }

    /** A year said after a date or a month: {@code 2027}, {@code 2027 года}, {@code 2027 г.}. */
    private Hit<Integer> yearAfter(int i) {
        int j = sym(i, ',') ? i + 1 : i;
        if (!year(j)) {
            return null;
        }
        int end = j + 1;
        if (unit(end) == ChronoUnit.YEARS) {
            end = skipDot(end + 1);
        }
        return new Hit<>(value(j), end);
    }

    /** {@link #readDate}, read once per place: a language grammar's rules ask for the dates at a place again and again. */
    private Hit<InstantSpec> date(int i) {
        if (dates == null) {
            dates = new Object[size];
        }
        Object known = dates[i];
        if (known == null) {
            Hit<InstantSpec> read = readDate(i);
            dates[i] = read == null ? NOTHING : read;
            return read;
        }
        @SuppressWarnings("unchecked")
        Hit<InstantSpec> hit = known == NOTHING ? null : (Hit<InstantSpec>) known;
        return hit;
    }

    private Object[] dates;

    private Hit<InstantSpec> readDate(int i) {
        Hit<CalendarDate> numeric = numericDate(i, lexicon.dayFirst());
        if (numeric != null) {
            int end = unit(numeric.end()) == ChronoUnit.YEARS ? skipDot(numeric.end() + 1) : numeric.end();
            return withDate(numeric.value(), end);
        }
        Hit<MonthRef> yearMonth = yearMonthNumbers(i);
        if (yearMonth != null) {
            return withDate(yearMonth.value(), yearMonth.end());
        }
        int j = skipLinks(i); // "the 3rd of March"
        Hit<Integer> day = dayBeforeMonth(j);
        if (day != null) {
            int k = sym(day.end(), ',') ? day.end() + 1 : skipLinks(day.end()); // "15, במרץ", "3rd of March"
            Integer m = month(k);
            if (m != null) {
                return dayAndMonth(day.value(), m, k + 1, true);
            }
            if (means(day.end(), Role.DAY_OF_MONTH)) {
                // "15 числа", "ב-15 לחודש" (where "לחודש" is also the month a period is counted in)
                return withDate(new DayOfMonthRef(day.value(), false, 0), day.end() + 1);
            }
            // "21st", "the 21", "пятого"; "the fifth" alone is seldom a date where the lexicon says so
            boolean linked = j > i;
            Lexicon.OrdinalsAlone alone = lexicon.ordinalsAlone();
            if (alone != Lexicon.OrdinalsAlone.NONE
                    && (num(j)
                            ? day.end() > j + 1 || linked
                            : alone == Lexicon.OrdinalsAlone.ALL
                                    || (linked && (lenient || isRole(day.end(), Role.LINK))))) {
                return withDate(new DayOfMonthRef(day.value(), false, 0), day.end());
            }
            if (num(i) && lexicon.ordinalByPrefix(tok(i).prefix()) && !sym(day.end(), '/') && !clockAhead(day.end())) {
                return withDate(new DayOfMonthRef(day.value(), false, 0), day.end()); // "ה-13": the 13th
            }
        }
        Integer shift = shift(i);
        int at = isRole(i, Role.IN) || shift != null ? i + 1 : i; // "in March", "next March"
        Integer m = month(at);
        if (m != null) {
            return namedMonth(m, at, shift == null ? 0 : shift);
        }
        if (year(i) && unit(i + 1) == ChronoUnit.YEARS) {
            return withDate(new YearRef(value(i)), skipDot(i + 2));
        }
        if (year(i) && !sym(i + 1, ':') && (lexicon.yearMarkedBy(tok(i).prefix()) || (lenient && i + 1 == size))) {
            return withDate(new YearRef(value(i)), i + 1); // "ב-2027", or a year that is the whole text
        }
        if (unit(i) == ChronoUnit.YEARS && lexicon.yearAfterUnit(tok(i).text()) && year(i + 1)) {
            return withDate(new YearRef(value(i + 1)), i + 2); // "שנת 2027", "בשנת 2027"
        }
        if (isRole(i, Role.IN) && year(i + 1) && !sym(i + 2, ':')) {
            return withDate(new YearRef(value(i + 1)), i + 2); // "in 2027"
        }
        return null;
    }

    /**
     * A month named at token {@code at}, with the day after it ("March 3rd", "March the 3rd"), its year,
     * which one said after it ("בינואר הבא", "יוני הבא אחרי הבא"), "after next" or a year counted from
     * this one ("March next year"); {@code shift} was said before it ("next March").
     */
    private Hit<InstantSpec> namedMonth(int m, int at, int shift) {
        int end = skipDot(at + 1);
        if (shift == 0) {
            int d = skipLinks(end);
            Hit<Integer> after = dayNumber(d);
            if (after != null
                    && !isRole(after.end(), Role.DAY_OF_MONTH)
                    && unit(after.end()) == null
                    && (!num(d) || tok(d).prefix().isEmpty())
                    && !clockAhead(after.end())) {
                Hit<InstantSpec> dm = dayAndMonth(after.value(), m, after.end(), false);
                if (dm != null) {
                    return dm;
                }
            }
        }
        Hit<Integer> y = yearAfter(end);
        if (y != null) {
            return withDate(new MonthRef(m, y.value(), 0), y.end());
        }
        Integer which = shift == 0 ? shift(end) : null;
        if (which != null && which != 0 && unit(end + 1) == null) {
            // "בינואר הבא", "במרץ שעבר"; "יוני הבא אחרי הבא" is the June after next June
            MonthRef month = new MonthRef(m, 0, which);
            return which == 1
                            && isRole(end + 1, Role.AFTER)
                            && Integer.valueOf(1).equals(shift(end + 2))
                    ? withDate(new DateRef.Shifted(month, new Offset(1, ChronoUnit.YEARS)), end + 3)
                    : withDate(month, end + 1);
        }
        if (!lenient && lexicon.notAMonth(this, at, end)) {
            return null;
        }
        if (shift == 0 && isRole(end, Role.AFTER) && Integer.valueOf(1).equals(shift(end + 1))) {
            return withDate(new DateRef.Shifted(new MonthRef(m, 0, 1), new Offset(1, ChronoUnit.YEARS)), end + 2);
        }
        int k = skipLinks(end);
        Integer years = shift == 0 ? shift(k) : null;
        if (years != null && unit(k + 1) == ChronoUnit.YEARS) {
            return withDate(new DateRef.MonthInYear(m, years), k + 2); // "March next year"
        }
        return withDate(new MonthRef(m, 0, shift), end);
    }

    /**
     * The n-th weekday, day or week of a month or a year, counted from its start or its end: "the
     * last Sunday of March", "the first Monday of next month", "the 3rd day of last month", "second
     * last day of April", "the 2nd week of March 2015", "2nd to last week of 2017".
     */
    private Hit<InstantSpec> nthOf(int i) {
        if (countAfterThing) {
            return thingThenCount(i);
        }
        int j = skipLinks(i);
        Meaning first = meaningAt(j);
        boolean counts = num(j)
                ? ordinalEnding(j + 1) > j + 1
                : first == Role.LAST || first instanceof Ordinal || first instanceof Amount;
        if (!counts) {
            return null; // tried on every token: only a count said as an ordinal or "last" opens it
        }
        Hit<Integer> n = countFromEnd(i);
        if (n == null) {
            return null;
        }
        int k = n.end();
        Weekdays w = weekdays(k);
        ChronoUnit u = w == null ? unit(k) : null;
        if (w != null
                ? w.plural() || w.days().size() != 1 || n.value() > 5
                : u != ChronoUnit.DAYS && u != ChronoUnit.WEEKS) {
            return null;
        }
        int f = skipLinks(isRole(k + 1, Role.IN) ? k + 2 : k + 1);
        return nthIn(n.value(), w == null ? null : w.day(), u, f);
    }

    /**
     * The n-th said after what it counts, as Hebrew says it: "היום השלישי של החודש", "ביום הלפני
     * אחרון באפריל", "השבוע השני של ינואר", "יום ראשון האחרון של מרץ", "שבת האחרונה של דצמבר".
     */
    private Hit<InstantSpec> thingThenCount(int i) {
        if (!countAt(i + 1) && !countAt(i + 2)) {
            return null; // tried on every token: only a thing with a count after it opens it
        }
        Hit<DayOfWeek> day = weekdayCounted(i);
        if (day != null) {
            Hit<Integer> n = countAfter(day.end());
            if (n != null && n.value() <= 5) {
                Hit<InstantSpec> nth = nthIn(n.value(), day.value(), null, skipLinks(n.end()));
                if (nth != null) {
                    return nth;
                }
            }
        }
        Unit u = meaningAt(i, Unit.class); // "היום", with the article, is also today
        if (u == null
                || (u.unit() != ChronoUnit.DAYS && u.unit() != ChronoUnit.WEEKS)
                || !prefixOnly(i, THING_PREFIXES)) {
            return null;
        }
        Hit<Integer> n = countAfter(i + 1);
        return n == null ? null : nthIn(n.value(), null, u.unit(), skipLinks(n.end()));
    }

    /** Prefix letters the thing an n-th counts may carry: the article, "in", "and", "to" ("ביום", "ולשבוע"). */
    private static final java.util.Set<Role> THING_PREFIXES =
            java.util.EnumSet.of(Role.LINK, Role.IN, Role.AND, Role.TO);

    /** Whether token {@code k} may be a count said after its thing: an ordinal or "last" (cached meanings only). */
    private boolean countAt(int k) {
        Hit<Meaning> m = k < size && tok(k).isWord() ? phraseAt(k) : null;
        return m != null && (m.value() instanceof Ordinal || m.value() == Role.LAST);
    }

    /**
     * A count said after its thing, with the article as the thing has it where the language writes
     * one ("השלישי", "האחרונה", "הלפני אחרון"), "from the end" after it ("השני מהסוף"): n, or -n
     * counted from the end; or null.
     */
    private Hit<Integer> countAfter(int k) {
        if (prefixed && !firstLetterSays(k, Role.LINK)) {
            return null; // "שלישי" with no article is Tuesday, "בשלישי" on Tuesday
        }
        Hit<Meaning> m = phraseAt(k);
        if (m == null) {
            return null;
        }
        if (m.value() == Role.LAST) {
            return new Hit<>(-1, m.end());
        }
        if (!(m.value() instanceof Ordinal o)) {
            return null;
        }
        if (o.value() > 0 && isRole(m.end(), Role.END) && prefixSays(m.end(), Role.FROM)) {
            return new Hit<>(-o.value(), m.end() + 1); // "השני מהסוף": the second from the end
        }
        return new Hit<>(o.value(), m.end());
    }

    /** Whether the first letter of token {@code i} is a prefix letter that says the role (a number's, its prefix's first). */
    private boolean firstLetterSays(int i, Role r) {
        if (!prefixed || i >= size) {
            return false;
        }
        Token t = tok(i);
        String letters = t.isNumber() ? t.prefix() : t.isWord() && t.text().length() > 1 ? t.text() : "";
        return !letters.isEmpty() && lexicon.prefixLetterMeans(letters.charAt(0), r);
    }

    /**
     * The n-th {@code day} of the week, or of {@code unit} (days or weeks), in the month or year at
     * {@code f}: a weekday only in a month; the n-th day of a month with no year is that date.
     */
    private Hit<InstantSpec> nthIn(int n, DayOfWeek day, ChronoUnit unit, int f) {
        Hit<DateRef> frame = frameOfDays(f, day == null);
        if (frame == null) {
            return null;
        }
        if (day != null) {
            return withDate(new DateRef.NthWeekdayRef(n, day, frame.value()), frame.end());
        }
        if (unit == ChronoUnit.WEEKS) {
            return withDate(new DateRef.NthWeekOf(frame.value(), n), frame.end());
        }
        if (frame.value() instanceof MonthRef m && m.year() == 0 && m.shift() == 0 && n > 0) {
            CalendarDate d = date(0, m.month(), n);
            return d == null ? null : withDate(d, frame.end());
        }
        return withDate(new DateRef.NthDayOf(frame.value(), n), frame.end());
    }

    /**
     * A weekday named before what is said of it (its count, "after", "nearest to"), where its bare
     * name is enough ("שני הראשון של החודש", "שישי אחרי חנוכה"); or null.
     */
    private Hit<DayOfWeek> weekdayCounted(int i) {
        Hit<DayOfWeek> bare = ownDays ? lexicon.bareWeekday(this, i) : null;
        if (bare != null) {
            return bare;
        }
        Hit<Meaning> said = phraseAt(i);
        return said != null
                        && said.value() instanceof Weekdays w
                        && !w.plural()
                        && w.days().size() == 1
                ? new Hit<>(w.day(), skipDot(said.end()))
                : weekdayName(i);
    }

    /** "first", "3rd", "last", "second last", "2nd to last": n, or -n counted from the end; or null. */
    private Hit<Integer> countFromEnd(int i) {
        int j = skipLinks(i);
        if (isRole(j, Role.LAST)) {
            return new Hit<>(-1, j + 1);
        }
        Hit<Integer> o = dayNumber(j);
        if (o == null || (num(j) && o.end() == j + 1)) {
            return null; // a number with no ordinal ending counts nothing here
        }
        if (isRole(o.end(), Role.LAST)) {
            return new Hit<>(-o.value(), o.end() + 1);
        }
        if (isRole(o.end(), Role.TO) && isRole(o.end() + 1, Role.LAST)) {
            return new Hit<>(-o.value(), o.end() + 2);
        }
        return o;
    }

    /** A month or, with {@code years}, a year, that holds days or weeks: "June 2019", "next month", "the month", "2017". */
    private Hit<DateRef> frameOfDays(int i, boolean years) {
        Integer m = month(i);
        if (m != null) {
            int end = skipDot(i + 1);
            Hit<Integer> y = yearAfter(end);
            if (y == null && Integer.valueOf(1).equals(shift(end)) && unit(end + 1) == null) {
                return new Hit<>(new MonthRef(m, 0, 1), end + 1); // "של מרץ הבא"
            }
            return y == null
                    ? new Hit<>(new MonthRef(m, 0, 0), end)
                    : new Hit<>(new MonthRef(m, y.value(), 0), y.end());
        }
        if (years && year(i)) {
            return new Hit<>(new YearRef(value(i)), i + 1);
        }
        Hit<InstantSpec> p = period(i);
        if (p != null && p.value().date instanceof PeriodRef r && r.grain() == Grain.MONTH
                || p != null && years && p.value().date instanceof PeriodRef y && y.grain() == Grain.YEAR) {
            return new Hit<>(p.value().date, p.end());
        }
        Grain g = grain(unit(i));
        return g == Grain.MONTH || (years && g == Grain.YEAR) ? new Hit<>(new PeriodRef(g, 0), i + 1) : null;
    }

    /**
     * A day and its month, with the year said after them: a full one, or one of two digits where the
     * lexicon writes them ("3 May 16", "3 במאי 16"; in English after a month's day only past a comma or
     * an apostrophe, "May 3rd, 81", "Oct 3 '90", where a bare number is more often an hour).
     */
    private Hit<InstantSpec> dayAndMonth(int day, int month, int end, boolean monthLast) {
        int said = end;
        end = skipDot(end);
        Hit<Integer> y = yearAfter(end);
        int year = y == null ? 0 : y.value();
        int stop = y == null ? end : y.end();
        int two = sym(end, ',') ? end + 1 : end;
        Lexicon.ShortYears shortYears = lexicon.shortYears();
        if (y == null && shortYears != Lexicon.ShortYears.NONE) {
            if ((shortYears == Lexicon.ShortYears.AFTER_ANY_DATE || monthLast || two > end) && shortYear(two)) {
                year = fullYear(value(two)); // "3 May 16", "May 3rd, 81", "3 במאי 16", "3 במאי, 81"
                stop = two + 1;
            } else if (sym(end, '\'') && adjacent(end + 1) && shortYear(end + 1)) {
                year = fullYear(value(end + 1)); // "Oct 3 '90"
                stop = end + 2;
            }
        }
        CalendarDate d = date(year, month, day);
        // a dot with no year after it ends the sentence: "on December 17." is the 17th, said up to "17"
        return d == null ? null : withDate(d, stop == end ? said : stop);
    }

    /** A year of two digits after a date, not an hour ("May 3rd 10 am", "at 16:00", "16 o'clock", "16h", "16 בערב"). */
    private boolean shortYear(int i) {
        return num(i)
                && tok(i).text().length() == 2
                && tok(i).prefix().isEmpty()
                && !clockAhead(i + 1)
                && unit(i + 1) == null
                && !isRole(i + 1, Role.OCLOCK)
                && !isRole(i + 1, Role.OR_SO);
    }

    /**
     * A date ({@link #date}) or a day of a relative month, for the rules of a language grammar built on
     * one: its own numbers ("בעשרים לחודש הבא") open no date part of the engine's.
     */
    final Hit<InstantSpec> dateAt(int i) {
        if (i >= size) {
            return null;
        }
        if (grammarDates == null) {
            grammarDates = new Object[size];
        }
        Object known = grammarDates[i];
        if (known == null) {
            Hit<InstantSpec> d = families.contains(Family.DATES) ? date(i) : null;
            d = families.contains(Family.DAYS_OF_RELATIVE_MONTHS) ? longest(d, dayOfRelativeMonth(i)) : d;
            d = longest(d, ownDateAt(i));
            grammarDates[i] = d == null ? NOTHING : d;
            return d;
        }
        @SuppressWarnings("unchecked")
        Hit<InstantSpec> hit = known == NOTHING ? null : (Hit<InstantSpec>) known;
        return hit;
    }

    private Object[] grammarDates;

    // ---- clock times and parts of the day ---------------------------------------------------

    /**
     * A clock time and what is said right after it (am/pm, a part of the day, "o'clock", "sharp",
     * "-ish"): the language's own ({@link Lexicon#ownClock}), words that name a time ("noon", "end of
     * day"), the minutes before or after an hour ("quarter to 12", "half past 3", "20 to 5"), digits
     * ("9:30", "14h45", "7.30" after "at" or before am/pm, "1430 hours"), an hour in digits or words
     * with its minutes ("9 30", "nine fifteen", "nine oh five", "9 часов 30 минут"). A bare hour is
     * read only where something says it is one ({@link #hourClock}). A language whose own reads every
     * hour said by a number ({@link Lexicon#readsOwnHours}, Hebrew's) has only the words that name a time here.
     */
    private Hit<InstantSpec> clock(int i, InstantSpec acc, Context ctx, boolean anchored) {
        Hit<ClockTime> own = lexicon.ownClock(this, i, ctx, acc);
        Hit<ClockTime> t =
                own != null ? own : lexicon.readsOwnHours() ? namedClock(i) : clockTime(i, acc, ctx, anchored);
        return t == null ? null : timed(t.value(), t.end());
    }

    /** Nothing read yet: what a clock read alone (a recurrence's time) sees before it. */
    private static final InstantSpec NO_PARTS = new InstantSpec();

    private Hit<ClockTime> clockTime(int i, InstantSpec acc, Context ctx, boolean anchored) {
        Hit<ClockTime> named = namedClock(i);
        if (named != null) {
            return named;
        }
        Hit<ClockTime> relative = relativeClocks ? relativeClock(i, ctx, anchored) : null;
        if (relative != null) {
            return relative;
        }
        if (!num(i)) {
            return hourClock(i, acc, ctx, anchored);
        }
        Hit<ClockTime> digital = digitalTime(i);
        if (digital != null) {
            ClockTime t = digital.value();
            if (lexicon.clock24() && partAfterClock(digital.end()) == null && latinMeridiem(digital.end()) == null) {
                t = new ClockTime(t.hour(), t.minute(), t.second(), Meridiem.NONE, true, t.grain());
            }
            return new Hit<>(t, digital.end());
        }
        int digits = tok(i).text().length();
        if (digits <= 2 && value(i) <= 24 && means(i + 1, Role.HOUR_MARK) && adjacent(i + 1)) {
            // "14h45", "10h": on a 24-hour clock
            int hour = value(i);
            if (num(i + 2) && adjacent(i + 2) && tok(i + 2).text().length() == 2 && value(i + 2) < 60) {
                return new Hit<>(new ClockTime(hour, value(i + 2), 0, Meridiem.NONE, true, Grain.MINUTE), i + 3);
            }
            return new Hit<>(new ClockTime(hour, 0, 0, Meridiem.NONE, true, Grain.HOUR), i + 2);
        }
        if (sym(i + 1, '.') && num(i + 2) && adjacent(i + 1) && adjacent(i + 2)) {
            // "в 7.30", "at 7.30", "7.30pm": a clock with a dot, said after "at" or before am/pm
            int h = value(i);
            int m = value(i + 2);
            boolean said = anchored || latinMeridiem(i + 3) != null;
            boolean inRange = lexicon.clock24() ? h <= 24 : h >= 1 && h <= 12;
            if (said && digits <= 2 && inRange && tok(i + 2).text().length() == 2 && m < 60) {
                boolean marked = partAfterClock(i + 3) != null || latinMeridiem(i + 3) != null;
                ClockTime t = lexicon.clock24() && !marked
                        ? new ClockTime(h, m, 0, Meridiem.NONE, true, Grain.MINUTE)
                        : ClockTime.of(h, m, Grain.MINUTE);
                return new Hit<>(t, i + 3);
            }
        }
        if ((digits == 3 || digits == 4) && lexicon.hoursAndMinutesInOneNumber()) {
            // "230pm", "1430 hours", "at 0930"; "at 1930", not a year alone
            int h = value(i) / 100;
            int m = value(i) % 100;
            boolean hoursWord = unit(i + 1) == ChronoUnit.HOURS;
            boolean marked = latinMeridiem(i + 1) != null || hoursWord;
            if (h <= 24 && m < 60 && (anchored || marked) && !(digits == 4 && h >= 19 && !anchored)) {
                boolean twentyFour = tok(i).text().startsWith("0") || h == 0 || h > 12;
                ClockTime c = new ClockTime(h, m, 0, Meridiem.NONE, twentyFour, Grain.MINUTE);
                return new Hit<>(c, hoursWord ? i + 2 : i + 1);
            }
            return null;
        }
        return hourClock(i, acc, ctx, anchored);
    }

    /** A time a word or a phrase names: "noon", "midnight", "полдень", "end of the day"; or null. */
    Hit<ClockTime> namedClock(int i) {
        if (lexicon.phrasesNameAClock()) {
            Hit<Meaning> said = phraseAt(i);
            if (said != null && said.value() instanceof Clock c) {
                return new Hit<>(named(c), said.end());
            }
        }
        return meaningAt(i) instanceof Clock c ? new Hit<>(named(c), i + 1) : null;
    }

    /**
     * An hour, with its minutes where they are said ("9 30", "nine fifteen", "9 часов 30 минут"). A
     * bare hour is one where something says so: "at" before it, am/pm, a part of the day,
     * "o'clock", "-ish" after it, an interval; and where the lexicon reads {@link
     * Lexicon#bareHoursNextToDays}, a day right after it ("8 tomorrow") or a day before it and
     * nothing after that counts ("Friday 9", "Dec 5 at 3").
     */
    private Hit<ClockTime> hourClock(int i, InstantSpec acc, Context ctx, boolean anchored) {
        Hit<Integer> hour = hourNumber(i);
        if (hour == null) {
            return null;
        }
        int h = hour.value();
        int end = hour.end();
        boolean hourWord = unit(end) == ChronoUnit.HOURS;
        if (hourWord) {
            end++; // "9 часов"
        }
        int minute = 0;
        Grain grain = Grain.HOUR;
        Hit<Integer> minutes = h <= 12 || lexicon.clock24() ? minutesAfter(end, num(i)) : null;
        if (minutes != null) {
            int m = minutes.end();
            boolean said = anchored
                    || latinMeridiem(m) != null
                    || partAfterClock(m) != null
                    || partOfDayFollows(m)
                    || (!num(i)
                            && (ctx == Context.INTERVAL || lenient)); // "eleven fifteen pm", "at 11 40", "six thirty"
            if (said && !(num(i) && sym(m, ':'))) {
                return new Hit<>(ClockTime.of(h, minutes.value(), Grain.MINUTE), m);
            }
            if (hourWord) {
                minute = minutes.value();
                grain = Grain.MINUTE;
                end = m;
            }
        }
        boolean marked = latinMeridiem(end) != null
                || partAfterClock(end) != null
                || oclock(end) > 0
                || (h == 12 && meaningAt(end) instanceof Clock c && c.hour() % 12 == 0)
                || ish(end) > end
                || partOfDayFollows(end);
        boolean allowed = marked
                || anchored
                || (ctx == Context.INTERVAL && num(i))
                || (num(i)
                        && lexicon.bareHoursNextToDays()
                        && (((acc.date != null || acc.partOfDay != null) && bareHourFollows(end))
                                || (acc.isEmpty() && dayFollows(end))));
        if (!allowed || (!num(i) && !marked && !anchored && ctx != Context.INTERVAL)) {
            return null;
        }
        if (num(i) && !marked && ctx == Context.INTERVAL && !anchored && h == 0) {
            return null;
        }
        return new Hit<>(ClockTime.of(h, minute, grain), end);
    }

    /** An hour: {@code 9}, {@code девять}, {@code nine} (in words up to 12 on a 12-hour clock); or null. */
    private Hit<Integer> hourNumber(int i) {
        if (num(i)) {
            return tok(i).text().length() <= 2 && value(i) <= 24 && !sym(i + 1, ':') && !sym(i + 1, '.')
                    ? new Hit<>(value(i), i + 1)
                    : null;
        }
        Hit<Integer> n = wholeNumber(i);
        return n != null && n.value() >= 1 && n.value() <= (lexicon.clock24() ? 24 : 12) ? n : null;
    }

    /** A whole number in digits or words, not an article ("a"); or null. */
    private Hit<Integer> wholeNumber(int i) {
        if (!num(i) && means(i, Role.LINK)) {
            return null;
        }
        Hit<Double> a = amountAt(i);
        return a != null && a.value() == Math.rint(a.value())
                ? new Hit<>(a.value().intValue(), a.end())
                : null;
    }

    /**
     * The minutes after an hour: "30 минут", two digits ("9 30"), a number in words after an hour in
     * words ("nine fifteen"), or one under ten after a zero said as a word ("nine oh five"); or null.
     */
    private Hit<Integer> minutesAfter(int i, boolean hourInDigits) {
        if (means(i, Role.OH) && oclock(i) < 0) {
            Hit<Integer> n = num(i + 1) ? null : wholeNumber(i + 1);
            return n != null && n.value() >= 1 && n.value() <= 9 ? n : null;
        }
        Hit<Integer> n = wholeNumber(i);
        if (n == null || n.value() >= 60) {
            return null;
        }
        if (unit(n.end()) == ChronoUnit.MINUTES) {
            return new Hit<>(n.value(), n.end() + 1);
        }
        if (num(i)) {
            return tok(i).text().length() == 2 ? n : null;
        }
        return !hourInDigits && n.value() >= 10 ? n : null;
    }

    /** The minutes before or after an hour: "quarter to 12", "half past 3", "10 past 6", "twenty to five", "half four". */
    private Hit<ClockTime> relativeClock(int i, Context ctx, boolean anchored) {
        int minutes;
        int j;
        boolean counted = false;
        int q = means(i, Role.LINK) ? i + 1 : i; // "a quarter to"
        if (isRole(q, Role.QUARTER)) {
            minutes = 15;
            j = q + 1;
        } else if (meaningAt(i) instanceof Amount half && half.value() == 0.5) {
            Hit<Integer> hour =
                    means(i + 1, Role.PAST_HOUR) || !lexicon.halfBeforeHourIsPast() ? null : hourNumber(i + 1);
            if (hour != null && unit(hour.end()) == null && !means(hour.end(), Role.LINK)) {
                return new Hit<>(ClockTime.of(hour.value(), 30, Grain.MINUTE), hour.end()); // "half four"
            }
            minutes = 30;
            j = i + 1;
        } else {
            Hit<Integer> c = wholeNumber(i);
            if (c == null
                    || c.value() < 1
                    || c.value() > 59
                    || (num(i) && tok(i).text().length() > 2)) {
                return null;
            }
            minutes = c.value();
            j = c.end();
            if (unit(j) == ChronoUnit.MINUTES) {
                j++;
                counted = true;
            }
        }
        boolean past = means(j, Role.PAST_HOUR);
        boolean to = !past && means(j, Role.TO_HOUR);
        if (!past && !to) {
            return null;
        }
        if (to && minutes == 30) {
            return null;
        }
        if (to && !counted && minutes != 15 && !anchored && (ctx == Context.INTERVAL || !lenient)) {
            return null; // "9 to 5" is an interval, not 4:51
        }
        int h;
        int end;
        boolean noon = meaningAt(j + 1) instanceof Clock c && c.hour() == 12;
        boolean twentyFour = meaningAt(j + 1) instanceof Clock c && c.hour() % 24 == 0;
        if (noon || twentyFour) {
            h = noon ? 12 : 24;
            end = j + 2;
        } else {
            Hit<Integer> hour = hourNumber(j + 1);
            if (hour == null) {
                return null;
            }
            h = hour.value();
            end = hour.end();
        }
        int minute = past ? minutes : 60 - minutes;
        int hour = past ? h : h - 1;
        if (hour == 0 && !twentyFour) {
            hour = 12;
        }
        // "quarter past noon" is 12:15, on the 24-hour clock
        boolean clock24 = noon || twentyFour || hour > 12 || hour == 0;
        return new Hit<>(
                new ClockTime(noon && !past ? 11 : hour, minute, 0, Meridiem.NONE, clock24, Grain.MINUTE), end);
    }

    /** After "o'clock" at {@code i}, or -1. */
    private int oclock(int i) {
        return after(i, Role.OCLOCK);
    }

    /** After "ish" written onto a time ("5ish", "5-ish"): about then; else {@code i}. */
    private int ish(int i) {
        if (isRole(i, Role.OR_SO) && adjacent(i)) {
            return i + 1;
        }
        return sym(i, '-') && isRole(i + 1, Role.OR_SO) && adjacent(i) && adjacent(i + 1) ? i + 2 : i;
    }

    /** A part of the day said after a number, which makes it an hour: "8 tonight", "nine this evening", "7 in the evening", "11 at night". */
    private boolean partOfDayFollows(int end) {
        Meaning m = meaningAt(end);
        if (m instanceof DayPart d) {
            return d.days() == 0;
        }
        if (m == Role.THIS) {
            return partNamed(end + 1) != null;
        }
        if (m == Role.IN) {
            return isRole(end + 1, Role.LINK) && partNamed(end + 2) != null;
        }
        if (m == Role.AT) {
            Hit<Meaning> said = phraseAt(end);
            return said != null && said.value() instanceof Part;
        }
        return false;
    }

    /** "8 tomorrow", "9 on Monday": a day right after a bare number, which makes it its hour. */
    private boolean dayFollows(int end) {
        int j = isRole(end, Role.ON) ? end + 1 : end;
        Meaning m = meaningAt(j);
        return (m instanceof Day d && (d.days() == 0 || d.days() == 1))
                || (m instanceof DayPart p && p.days() == 0)
                || (m instanceof Weekdays w && !w.plural());
    }

    /** After a date, a bare number is an hour only when nothing after it suggests it counts something. */
    private boolean bareHourFollows(int end) {
        if (end >= size) {
            return true;
        }
        Token t = tok(end);
        if (t.kind() == Token.Kind.SYMBOL) {
            return !t.isSymbol('/') && !t.isSymbol('.') && !t.isSymbol(':') || t.isSymbol('.') && end + 1 == size;
        }
        return t.isWord() && lexicon.saidAfterBareHour(t.text());
    }

    /**
     * A time, and what is said right after it: a part of the day ("в 9 вечера"), am/pm ("at 9 pm";
     * no time when the hour cannot take one), noon or midnight after 12, "o'clock", "sharp", "-ish".
     */
    private Hit<InstantSpec> timed(ClockTime t, int end) {
        InstantSpec s = new InstantSpec();
        PartOfDay p = partAfterClock(end);
        Hit<Meridiem> meridiem = latinMeridiem(end);
        if (p != null && !t.twentyFourHour()) {
            s.partOfDay = p;
            end++;
        } else if (meridiem != null && t.meridiem() == Meridiem.NONE) {
            if (t.hour() < 1 || t.hour() > 12) {
                return null;
            }
            t = t.withMeridiem(meridiem.value());
            end = meridiem.end();
        } else if (t.hour() == 12 && t.meridiem() == Meridiem.NONE && meaningAt(end) instanceof Clock c) {
            if (c.hour() == 12) {
                t = t.withMeridiem(Meridiem.PM); // "12 noon"
                end++;
            } else if (c.hour() % 24 == 0) {
                t = new ClockTime(24, t.minute(), 0, Meridiem.NONE, true, t.grain()); // "12 midnight"
                end++;
            }
        }
        int o = oclock(end);
        if (o > 0) {
            end = o;
            Hit<Meridiem> after = latinMeridiem(end);
            if (after != null && t.meridiem() == Meridiem.NONE && t.hour() >= 1 && t.hour() <= 12) {
                t = t.withMeridiem(after.value()); // "4 o'clock am"
                end = after.end();
            }
        }
        if (isRole(end, Role.SHARP)) {
            end++;
        }
        s.time = t;
        return new Hit<>(s, ish(end));
    }

    /**
     * "утром", "this evening", "этим вечером", "first thing" (the morning), "in the morning", "late
     * evening", "at night"; a name of a part the language reads only with a day or a time
     * ({@link Lexicon#partNamed}) after "this" or "in the". A word of today's part after a word of
     * {@link Lexicon#partAnyDayAfter} ("על הבוקר"), or a name read only with a day there ("עד הצהריים"),
     * is the next such part, whatever its day.
     */
    final Hit<InstantSpec> partOfDay(int i) {
        boolean thisOne = isRole(i, Role.THIS);
        boolean inThe = !thisOne && isRole(i, Role.IN) && isRole(i + 1, Role.LINK);
        int j = thisOne ? i + 1 : inThe ? i + 2 : i;
        Hit<Meaning> said = phraseAt(j);
        boolean anyDay = i > 0
                && tok(i - 1).isWord()
                && lexicon.partAnyDayAfter(tok(i - 1).text());
        PartOfDay named = j > i || anyDay ? partNamed(j) : null;
        if (named == null && (said == null || !(said.value() instanceof Part p))) {
            return null;
        }
        InstantSpec s = new InstantSpec();
        s.partOfDay = named != null ? named : ((Part) said.value()).part();
        if (thisOne || (named == null && ((Part) said.value()).today() && !anyDay)) {
            s.date = new RelativeDay(0);
            s.thisPartOfDay = true;
        }
        return new Hit<>(s, named != null ? j + 1 : said.end());
    }

    /** A part of the day said by a word or phrase of its own at {@code i}, not today's ("בערב", "at night"); or null. */
    final Hit<PartOfDay> partSaid(int i) {
        Hit<Meaning> said = phraseAt(i);
        return said != null && said.value() instanceof Part p && !p.today() ? new Hit<>(p.part(), said.end()) : null;
    }

    /** A part of the day the language names by a word read only with a day or a time ("morning"), or null. */
    final PartOfDay partNamed(int i) {
        return i >= 0 && i < size && tok(i).isWord() ? lexicon.partNamed(tok(i).text()) : null;
    }

    /**
     * A part of the day where an instant has {@code acc} already: those of {@link #partOfDay}, and a
     * bare name ("Monday morning", "9 evening") after a day or a time, or anywhere in a whole-text reading.
     */
    final Hit<InstantSpec> partOfDayAfter(int i, InstantSpec acc) {
        return longest(families.contains(Family.PARTS_OF_DAY) ? partOfDay(i) : null, barePart(i, acc));
    }

    private Hit<InstantSpec> barePart(int i, InstantSpec acc) {
        PartOfDay named = partNamed(i);
        if (named == null || (acc.date == null && acc.time == null && !lenient)) {
            return null;
        }
        InstantSpec s = new InstantSpec();
        s.partOfDay = named;
        return new Hit<>(s, i + 1);
    }

    // ---- amounts ----------------------------------------------------------------------------

    /** A number: digits ({@code 2}, {@code 1.5}), words ({@code двадцать пять}), "and a half" after it. */
    Hit<Double> amountAt(int i) {
        double v;
        int end;
        if (num(i)) {
            if (tok(i).text().length() > 6) {
                return null;
            }
            v = value(i);
            end = i + 1;
            if ((sym(end, '.') || sym(end, ',')) && num(end + 1) && adjacent(end) && adjacent(end + 1)) {
                v = Double.parseDouble(tok(i).text() + "." + tok(end + 1).text());
                end += 2;
            }
        } else if (amountWord(i) instanceof Amount a) {
            v = a.value();
            end = i + 1;
            int k = sym(end, '-') && adjacent(end) && adjacent(end + 1) ? end + 1 : end;
            if (v >= 20 && v % 10 == 0 && meaningAt(k) instanceof Amount unitWord && unitWord.value() < 10) {
                v += unitWord.value(); // "двадцать пять", "twenty five", "twenty-five"
                end = k + 1;
            } else if (v >= 1 && v < 10 && means(end, Role.TEEN)) {
                v += 10; // "שלוש עשרה"
                end++;
            }
        } else {
            return null;
        }
        if (after(end, Role.AND_A_HALF) > 0) {
            return new Hit<>(v + 0.5, after(end, Role.AND_A_HALF)); // "one and a half"
        }
        if (isRole(end, Role.FROM) && isRole(end + 1, Role.AND_A_HALF)) {
            return new Hit<>(v + 0.5, end + 2); // "2 с половиной"
        }
        return new Hit<>(v, end);
    }

    /** The number a word says: its usual meaning, or an ordinal's other one (Hebrew's "שני" is also "two"). */
    private Meaning amountWord(int i) {
        Meaning m = meaningAt(i);
        return m instanceof Ordinal && lexicon.ordinalsCount() ? meaningAt(i, Amount.class) : m;
    }

    /**
     * An amount of time, or several, each of a smaller unit, said with "and", commas or nothing
     * between them: "2 hours and 30 minutes", "1 hour, 20 minutes", "час и 15 минут"; or null.
     */
    private Hit<Offset> duration(int i) {
        return duration(i, HEDGED);
    }

    /** Prefix letters an amount may carry: none, or "about" (Hebrew's "כ" of "כחצי שעה"). */
    private static final java.util.Set<Role> HEDGED = java.util.EnumSet.of(Role.ABOUT);
    /** Prefix letters of an amount joined to the one before it: "and" (Hebrew's "ו" of "ועשרים דקות"). */
    private static final java.util.Set<Role> JOINED = java.util.EnumSet.of(Role.AND);

    /** {@link #duration}, its first amount written with prefix letters that say one of {@code prefixes}, or none. */
    private Hit<Offset> duration(int i, java.util.Set<Role> prefixes) {
        Hit<Offset> d = simpleDuration(i, prefixes);
        if (d == null) {
            return null;
        }
        Offset total = d.value();
        int end = d.end();
        while (true) {
            int j = isRole(end, Role.AND) || sym(end, ',') ? end + 1 : end;
            Hit<Offset> more = simpleDuration(j, j == end ? JOINED : HEDGED);
            if (more == null || more.value().unit().compareTo(total.unit()) >= 0) {
                break;
            }
            total = sum(total, more.value());
            end = more.end();
        }
        return new Hit<>(total, end);
    }

    /**
     * An amount of time: "10 минут", "пару дней", "неделю" (where a bare unit is one), "полчаса", "a
     * couple of days", "half an hour", "3/4 hour", "2 more hours", "an hour and a half", "two
     * fortnights", "a quarter of an hour", "2h30", "5'"; or null.
     */
    private Hit<Offset> simpleDuration(int i, java.util.Set<Role> prefixes) {
        Meaning first = meaningAt(i);
        if (!num(i)
                && !(first instanceof Length
                        || first instanceof Unit
                        || first instanceof Amount
                        || (first instanceof Ordinal && lexicon.ordinalsCount())
                        || first instanceof Meaning.Some
                        || first == Role.QUARTER)) {
            return null; // every amount opens with a number or one of these words: spare the look ahead
        }
        if (!prefixOnly(i, prefixes)) {
            return null; // "ביום" is "on the day", not an amount
        }
        if (first instanceof Length l) {
            return andAPart(l.amount(), l.unit(), i + 1); // "שעתיים וחצי"
        }
        ChronoUnit bare = unit(i);
        if (bare != null) {
            return lexicon.bareUnitIsOne(tok(i).text()) ? andAPart(1, bare, i + 1) : null; // "שעה ורבע"
        }
        Hit<Offset> quarters = quartersOfAnHour(i);
        if (quarters != null) {
            return quarters;
        }
        Hit<Double> a = unitAmount(i);
        if (a == null) {
            return null;
        }
        int unitAt = isRole(a.end(), Role.EXTRA) ? a.end() + 1 : a.end();
        if (meaningAt(unitAt) instanceof Length l) {
            return new Hit<>(fractional(a.value() * l.amount(), l.unit()), unitAt + 1); // "two fortnights"
        }
        ChronoUnit u = unit(unitAt);
        if (u == null) {
            if (num(a.end() - 1) && sym(a.end(), '\'') && adjacent(a.end())) {
                // "5'" minutes, "30''" seconds
                boolean seconds = sym(a.end() + 1, '\'') && adjacent(a.end() + 1);
                return new Hit<>(
                        new Offset(Math.round(a.value()), seconds ? ChronoUnit.SECONDS : ChronoUnit.MINUTES),
                        seconds ? a.end() + 2 : a.end() + 1);
            }
            return null;
        }
        int end = unitAt + 1;
        double amount = a.value();
        int half = after(end, Role.AND_A_HALF);
        if (half > 0) {
            amount += 0.5; // "2 hours and a half"
            end = half;
        }
        if (u == ChronoUnit.HOURS
                && amount == Math.rint(amount)
                && num(end)
                && adjacent(end)
                && tok(end).text().length() == 2
                && value(end) < 60) {
            // "2h30": hours, then minutes written against them
            return new Hit<>(new Offset((long) amount * 60 + value(end), ChronoUnit.MINUTES), end + 1);
        }
        return new Hit<>(fractional(amount, u), end);
    }

    /** An amount of a unit, and "and a half" or (of hours) "and a quarter" after it if said. */
    private Hit<Offset> andAPart(double amount, ChronoUnit u, int end) {
        int half = after(end, Role.AND_A_HALF);
        if (half > 0) {
            return new Hit<>(fractional(amount + 0.5, u), half);
        }
        if (u == ChronoUnit.HOURS && isRole(end, Role.AND_A_QUARTER)) {
            return new Hit<>(fractional(amount + 0.25, u), end + 1);
        }
        return new Hit<>(fractional(amount, u), end);
    }

    /** Whether token {@code i} is a word that means one ("a", "an"), said as an article before an amount. */
    private boolean article(int i) {
        return !num(i) && meaningAt(i) instanceof Amount one && one.value() == 1;
    }

    /**
     * The amount before a unit: a number ({@link #amountAt}), "3/4", "a couple of", "a few",
     * "several", "a half", "half an"; or null.
     */
    private Hit<Double> unitAmount(int i) {
        if (num(i) && sym(i + 1, '/') && num(i + 2) && adjacent(i + 1) && adjacent(i + 2)) {
            int a = value(i);
            int b = value(i + 2);
            return b > a && b <= 10 && unit(i + 3) != null ? new Hit<>((double) a / b, i + 3) : null;
        }
        int j = article(i) ? i + 1 : i;
        if (meaningAt(j) instanceof Meaning.Some some) {
            return new Hit<>(some.value(), isRole(j + 1, Role.LINK) ? j + 2 : j + 1); // "a couple of"
        }
        if (j > i && !num(j) && meaningAt(j) instanceof Amount part && part.value() < 1) {
            return new Hit<>(part.value(), j + 1); // "a half hour"
        }
        Hit<Double> a = amountAt(i);
        if (a != null && a.value() < 1 && article(a.end())) {
            return new Hit<>(a.value(), a.end() + 1); // "half an hour"
        }
        return a;
    }

    /** "a quarter of an hour", "three quarters of an hour", "quarter hour": 15 minutes each; or null. */
    private Hit<Offset> quartersOfAnHour(int i) {
        if (!isRole(i, Role.QUARTER) && !isRole(i + 1, Role.QUARTER) && !isRole(i + 2, Role.QUARTER)) {
            return null; // most amounts are not quarters: spare the reading of one
        }
        int q = article(i) && isRole(i + 1, Role.QUARTER) ? i + 1 : i;
        long n = 1;
        if (!isRole(q, Role.QUARTER)) {
            Hit<Double> a = amountAt(i);
            if (a == null || !isRole(a.end(), Role.QUARTER) || a.value() < 1 || a.value() > 12) {
                return null;
            }
            n = a.value().longValue();
            q = a.end();
        }
        int j = skipLinks(q + 1);
        j = article(j) ? j + 1 : j;
        return unit(j) == ChronoUnit.HOURS ? new Hit<>(new Offset(15 * n, ChronoUnit.MINUTES), j + 1) : null;
    }

    /** Whether any meaning of token {@code i} is the role, its usual one or not ("after" is also "in"). */
    final boolean means(int i, Role r) {
        return isRole(i, r)
                || (lexicon.roleBeyondUsual(r)
                        && i >= 0
                        && i < size
                        && tok(i).isWord()
                        && lexicon.means(tok(i).text(), r));
    }

    /** After hedges that leave an amount as it is ("about", "~", "около"); {@code i} when none. */
    final int hedged(int i) {
        int j = i;
        while (j < size) {
            Hit<Meaning> m = phraseAt(j);
            if (m != null && (m.value() == Role.ABOUT || m.value() == Role.MORE)) {
                j = m.end();
            } else if (sym(j, '~') && j + 1 < size) {
                j++;
            } else {
                break;
            }
        }
        return j;
    }

    /** After the role that a phrase of the lexicon at {@code i} means ("from now", "or so"), or -1. */
    private int after(int i, Role r) {
        if (!isRole(i, r) && !lexicon.phraseMeans(r)) {
            return -1; // only the word can say it, and it does not: no phrase to read
        }
        Hit<Meaning> m = phraseAt(i);
        return m != null && m.value() == r ? m.end() : -1;
    }

    /** After "or so", "ish", "tops": still the amount. */
    private int orSo(int end) {
        int e = after(end, Role.OR_SO);
        return e > 0 ? e : means(end, Role.OR_SO) ? end + 1 : end; // "עשר דקות בערך": also "about" before one
    }

    /**
     * The amount of time an offset counts ("2 hours", "полчаса"); a language whose amounts have more
     * shapes than a number and a unit ("a couple of days", "2h30") reads them here.
     */
    Hit<Offset> offsetAmount(int i) {
        return duration(i);
    }

    /**
     * The date an amount is counted from ("3 days after Christmas", "the day before tomorrow"): a
     * day with no clock time. A language that reads its own days gives them here.
     */
    Hit<InstantSpec> offsetBase(int i) {
        Hit<InstantSpec> base = datePart(i);
        return base != null && base.value().date != null && base.value().time == null ? base : null;
    }

    /**
     * An amount of time ahead of now or behind it: "in 2 hours", "within about 10 minutes", "in 3
     * hours' time", "another 10 minutes", "5 minutes from now", "3 days ago", "через 10 минут", "3
     * дня назад"; an amount from a day ("3 days after Christmas", "the day before yesterday"); a
     * count of weekdays ("three Mondays from now").
     */
    private Hit<InstantSpec> offset(int i) {
        Hit<InstantSpec> weekdays = countedWeekdays(i);
        if (weekdays != null) {
            return weekdays;
        }
        Hit<InstantSpec> dayAround = dayAround(i);
        if (dayAround != null) {
            return dayAround;
        }
        InstantSpec s = new InstantSpec();
        int more = after(i, Role.MORE);
        boolean in = means(i, Role.IN);
        // "לפני שבועיים": "ago" said before the amount, by a word whose usual sense is "before"
        boolean agoFirst = !in && more < 0 && isRole(i, Role.BEFORE) && means(i, Role.AGO);
        if (in || agoFirst || (more > 0 && more < size)) {
            int at = i + 1;
            if (more < 0 && isRole(at, Role.LINK) && isRole(at + 1, Role.NEXT)) {
                at += 2; // "in the next 3 hours"
            }
            at = hedged(more > 0 ? more : at);
            Hit<InstantSpec> counted = weekdaysAhead(at, agoFirst ? -1 : 1);
            if (counted != null) {
                return counted; // "בעוד שלושה ימי שני"
            }
            Hit<Offset> d = offsetAmount(at);
            if (d == null) {
                return null;
            }
            int end = d.end();
            if (isRole(end, Role.TIME)) {
                end++;
            } else if (sym(end, '\'') && adjacent(end) && isRole(end + 1, Role.TIME)) {
                end += 2; // "in 3 hours' time"
            } else if (after(end, Role.AHEAD) > 0) {
                end = after(end, Role.AHEAD);
            } else if (!agoFirst && fromNow(end) > 0) {
                end = fromNow(end); // "בעוד שעה מעכשיו"
            } else if (!agoFirst && d.value().dateBased() && prefixSays(end, Role.FROM)) {
                Hit<InstantSpec> base = offsetBase(end); // "בעוד שבוע ממחר"
                if (base != null) {
                    return withDate(new DateRef.Shifted(base.value().date, d.value()), base.end());
                }
            }
            s.offset = agoFirst ? d.value().negated() : d.value();
            return new Hit<>(s, orSo(end));
        }
        Hit<Offset> d = offsetAmount(i);
        if (d == null) {
            return null;
        }
        int end = d.end();
        boolean fromPrefix = prefixSays(end, Role.FROM); // Hebrew's "מ" of "ממחר"
        if (d.value().dateBased()
                && (isRole(end, Role.FROM) || isRole(end, Role.AFTER) || isRole(end, Role.BEFORE) || fromPrefix)) {
            Hit<InstantSpec> base =
                    offsetBase(fromPrefix ? end : end + 1); // "3 days from today", "2 weeks after Easter"
            if (base != null) {
                Offset o = isRole(end, Role.BEFORE) ? d.value().negated() : d.value();
                return withDate(new DateRef.Shifted(base.value().date, o), base.end());
            }
        }
        int ahead = after(end, Role.AHEAD);
        if (ahead < 0) {
            ahead = fromNow(end);
        }
        if (ahead > 0) {
            s.offset = d.value();
            return new Hit<>(s, isRole(end, Role.FROM) ? orSo(ahead) : ahead);
        }
        int ago = after(end, Role.AGO);
        if (ago > 0) {
            s.offset = d.value().negated();
            return new Hit<>(s, ago);
        }
        return null;
    }

    /**
     * After "from now" said with a prefix letter that means "from" before now or today (Hebrew's
     * "מעכשיו", "מהיום", "מהרגע"), or -1.
     */
    private int fromNow(int end) {
        if (!prefixSays(end, Role.FROM)) {
            return -1;
        }
        Meaning m = meaningAt(end);
        return m == Role.NOW || (m instanceof Day today && today.days() == 0) ? end + 1 : -1;
    }

    /** "the day after Christmas", "the day before yesterday", "למחרת ראש השנה": a day from a day. */
    private Hit<InstantSpec> dayAround(int i) {
        int d = skipLinks(i);
        boolean morrow = isRole(d, Role.MORROW);
        if (!morrow && (unit(d) != ChronoUnit.DAYS || !(isRole(d + 1, Role.AFTER) || isRole(d + 1, Role.BEFORE)))) {
            return null;
        }
        Hit<InstantSpec> base = offsetBase(morrow ? d + 1 : d + 2);
        if (base == null) {
            return null;
        }
        int days = morrow || isRole(d + 1, Role.AFTER) ? 1 : -1;
        return withDate(new DateRef.Shifted(base.value().date, new Offset(days, ChronoUnit.DAYS)), base.end());
    }

    /** "three Mondays from now", "2 Fridays ago": weekdays counted from tomorrow, or back from yesterday. */
    private Hit<InstantSpec> countedWeekdays(int i) {
        Hit<Double> n = amountAt(i);
        if (n == null || n.value() < 1 || n.value() > 60 || n.value() != Math.rint(n.value())) {
            return null;
        }
        Weekdays day = weekdays(n.end());
        if (day == null || day.days().size() != 1 || (n.value() > 1 && !day.plural())) {
            return null;
        }
        int count = n.value().intValue();
        int end = n.end() + 1;
        int ahead = after(end, Role.AHEAD);
        if (ahead > 0) {
            return withDate(new DateRef.WeekdayAfter(new RelativeDay(0), day.day(), count), ahead);
        }
        int ago = after(end, Role.AGO);
        if (ago < 0 && isRole(end, Role.BEFORE) && phraseAt(end + 1) != null) {
            Meaning m = phraseAt(end + 1).value();
            ago = m == Role.NOW || (m instanceof Day today && today.days() == 0)
                    ? phraseAt(end + 1).end()
                    : -1;
        }
        return ago < 0 ? null : withDate(new DateRef.WeekdayAfter(new RelativeDay(0), day.day(), -count), ago);
    }

    /**
     * After "in" or "ago" said before an amount of weekdays: "בעוד שלושה ימי שני" (three Mondays from
     * now, {@code sign} 1), "לפני שני ימי שישי" (-1); or null.
     */
    private Hit<InstantSpec> weekdaysAhead(int j, int sign) {
        Hit<Double> n = num(j) || amountWord(j) instanceof Amount ? amountAt(j) : null;
        if (n == null || n.value() < 1 || n.value() > 60 || n.value() != Math.rint(n.value())) {
            return null;
        }
        Hit<Meaning> w = phraseAt(n.end());
        if (w == null || !(w.value() instanceof Weekdays day) || day.days().size() != 1 || !day.plural()) {
            return null;
        }
        int count = n.value().intValue();
        return withDate(new DateRef.WeekdayAfter(new RelativeDay(0), day.day(), sign * count), w.end());
    }

    /** Prefix letters a length may carry: "for" and "about" (Hebrew's "ל", "לכ" of "לשעה", "לכחצי שעה"). */
    private static final java.util.Set<Role> LASTING = java.util.EnumSet.of(Role.LASTING, Role.ABOUT);

    @Override
    boolean lengthMayStart(int i) {
        return means(i, Role.LASTING) || prefixSays(i, Role.LASTING);
    }

    /** "на 2 часа", "for an hour", "for about 20 minutes", "lasting 45 minutes", "לשעה וחצי", "ל-90 דקות". */
    @Override
    Hit<Offset> length(int i) {
        if (means(i, Role.LASTING)) {
            return offsetAmount(hedged(i + 1));
        }
        return prefixSays(i, Role.LASTING) ? duration(i, LASTING) : null;
    }

    /** A length said of a thing: those of {@link #length}, and the language's own ("a 90-minute review"). */
    @Override
    Hit<Offset> lengthOfThing(int i) {
        Hit<Offset> l = length(i);
        if (l != null) {
            return l;
        }
        if (means(i - 1, Role.IN) || means(i - 1, Role.AGO) || isRole(i - 1, Role.MORE) || isRole(i - 1, Role.EVERY)) {
            return null; // "in a minute" is when, not how long
        }
        return lexicon.ownLength(this, i);
    }

    // ---- intervals and weekends -------------------------------------------------------------

    @Override
    int fromWord(int i) {
        if (isRole(i, Role.FROM)) {
            return i + 1;
        }
        int from = after(i, Role.FROM); // "starting at"
        return from > 0 ? from : i;
    }

    /**
     * "с 9 до 11", "с понедельника по среду", "с 5 по 10 марта", "from 2 to 4pm", "between Monday and
     * Wednesday", "9-11am", "Dec 3-6"; with no "from" before it only where the language says so
     * ({@link Lexicon#intervalWithoutFrom}), and then one end must be clearly a time.
     */
    @Override
    Match interval(int i) {
        Match span = span(i);
        if (span != null) {
            return span;
        }
        boolean fromPrefix = prefixSays(i, Role.FROM); // Hebrew's "מ-9", "ממחר"
        boolean from = fromPrefix || isRole(i, Role.FROM);
        boolean between = isRole(i, Role.BETWEEN);
        int start = (from && !fromPrefix) || between ? i + 1 : i;
        if (between && unit(start) == ChronoUnit.HOURS && prefixSays(start, Role.LINK)) {
            start++; // "בין השעות 3 ל-5"
        }
        if (!from && !between && !lexicon.intervalWithoutFrom() && !num(i)) {
            return null; // "5-10 марта" may start with its day; the rest needs "from"
        }
        Match days = dayRange(start, i, between);
        if (days != null) {
            return days;
        }
        if (!from && !between && !lexicon.intervalWithoutFrom()) {
            return null;
        }
        Hit<InstantSpec> a = instant(start, Context.INTERVAL);
        if (a == null) {
            return null;
        }
        int j = a.end();
        boolean joined = between
                ? isRole(j, Role.AND) || sym(j, '-')
                : isRole(j, Role.TO) || isRole(j, Role.UNTIL) || sym(j, '-');
        boolean joinedByPrefix = between && !joined && (prefixSays(j, Role.TO) || prefixSays(j, Role.AND)); // "ל-5"
        Hit<InstantSpec> b = joined || joinedByPrefix ? instant(joined ? j + 1 : j, Context.INTERVAL) : null;
        if (b == null || a.value().offset != null || b.value().offset != null) {
            return null;
        }
        if (!from && !between && !lenient && !(clearlyTime(a.value()) || clearlyTime(b.value()))) {
            return null;
        }
        if (!clearlyTime(a.value()) && a.value().date == null && b.value().time == null) {
            return null; // "between 2 and Monday" is no interval
        }
        return new Match(new IntervalParse(a.value(), b.value()), i, b.end());
    }

    /**
     * "בשלושת הימים הקרובים", "לשארית השבוע": the counted periods and the rest of a period, for a
     * language that reads its other intervals itself.
     */
    final Match countedOrRest(int i) {
        return !num(i) && meaningAt(i) == null ? null : longer(countedPeriods(i), restOf(i));
    }

    /** The spans of {@link Family#SPANS} that start at token {@code i}, or null. */
    final Match span(int i) {
        if (!families.contains(Family.SPANS) || (!num(i) && meaningAt(i) == null)) {
            return null;
        }
        int j = skipLinks(within(i));
        Meaning first = meaningAt(j);
        if (!num(j)
                && !(first instanceof Amount)
                && !(first instanceof Length || first instanceof Unit) // "היומיים הקרובים", "בשעה הקרובה"
                && shift(j) == null
                && first != Role.REST
                && unit(skipLinks(i)) != ChronoUnit.WEEKS) {
            return null; // a count, "next", "rest" or a unit opens every span: most words open none
        }
        return longer(countedPeriods(i), longer(restOf(i), weekAround(i)));
    }

    /** After a word that says a span is within what follows ("for", "in", "during", "на"); {@code i} when none. */
    private int within(int i) {
        return isRole(i, Role.ON) || isRole(i, Role.IN) ? i + 1 : i;
    }

    /**
     * "the next 3 days", "3 upcoming weeks", "the past two months", "the next few weeks": from the
     * next period to the n-th (or back from the last one); "the next 2 hours", "for the past hour":
     * from now on, or up to now. Where the count comes before its unit and "next" after them (Hebrew's
     * "בשלושת הימים הקרובים", "השבועיים הקרובים", "בשעה הקרובה", "בחצי השעה הקרובה"), {@link
     * #countedBefore} reads them.
     */
    private Match countedPeriods(int i) {
        int j = skipLinks(within(i));
        Integer shift = shift(j);
        if (shift != null && shift != 0 && j > i) {
            ChronoUnit one = unit(j + 1);
            if (one == ChronoUnit.HOURS || one == ChronoUnit.MINUTES) {
                return aheadOfNow(new Offset(shift, one), i, j + 2); // "for the next hour"
            }
        }
        Meaning first = meaningAt(j);
        if (shift == null && (first instanceof Length || first instanceof Unit) && prefixOnly(j, WITHIN)) {
            return countedBefore(i, j, null); // "השבועיים הקרובים", "בשעה הקרובה"
        }
        Hit<Double> n;
        int unitAt;
        if (shift != null && shift != 0) {
            n = amountAt(j + 1);
            if (n == null && meaningAt(j + 1) instanceof Meaning.Some some) {
                int k = isRole(j + 2, Role.LINK) ? j + 3 : j + 2; // "the next couple of weeks"
                n = new Hit<>(some.value(), k);
            }
            if (n == null) {
                return null;
            }
            unitAt = n.end();
        } else {
            n = amountAt(j);
            shift = n == null ? null : shift(n.end());
            if (shift == null && n != null && prefixOnly(j, WITHIN)) {
                return countedBefore(i, j, n); // "ב-3 הימים הבאים"
            }
            if (shift == null || shift == 0) {
                return null;
            }
            unitAt = n.end() + 1;
        }
        int count = n.value().intValue();
        if (n.value() != Math.rint(n.value()) || count < 1 || count > 1000) {
            return null;
        }
        ChronoUnit u = unit(unitAt);
        if (u == ChronoUnit.HOURS || u == ChronoUnit.MINUTES) {
            return aheadOfNow(new Offset((long) shift * count, u), i, unitAt + 1); // "the next 2 hours"
        }
        Grain g = isRole(unitAt, Role.QUARTER) ? Grain.QUARTER : u == ChronoUnit.DAYS ? Grain.DAY : grain(u);
        if (g == null) {
            return null;
        }
        InstantSpec a = new InstantSpec();
        InstantSpec b = new InstantSpec();
        a.date = new PeriodRef(g, shift > 0 ? 1 : -count);
        b.date = new PeriodRef(g, shift > 0 ? count : -1);
        return new Match(new IntervalParse(a, b), i, unitAt + 1);
    }

    /** Prefix letters a count may carry: "in" and the article (Hebrew's "ב", "ה", "בה" of "בשלושת", "השבועיים"). */
    private static final java.util.Set<Role> WITHIN = java.util.EnumSet.of(Role.IN, Role.LINK);
    /** Prefix letters a counted unit may carry: the article ("ה" of "הימים"), not "ל" of "לחודש". */
    private static final java.util.Set<Role> ARTICLE = java.util.EnumSet.of(Role.LINK);

    /**
     * A count, its unit, then "next" or "last": "3 הימים הבאים", "השבועיים הקרובים" (a unit's dual),
     * "השעה הקרובה" (one hour), "חצי השעה הקרובה"; hours and minutes from now or up to it, other
     * units from the next one to the n-th (back from the last one); or null.
     */
    private Match countedBefore(int i, int j, Hit<Double> n) {
        double count;
        ChronoUnit u;
        int unitEnd;
        Meaning first = meaningAt(j);
        if (n == null && first instanceof Length l) {
            count = l.amount();
            u = l.unit();
            unitEnd = j + 1;
        } else if (n == null && first instanceof Unit one) {
            count = 1;
            u = one.unit();
            unitEnd = j + 1;
            if (u != ChronoUnit.HOURS && u != ChronoUnit.MINUTES) {
                return null; // "בשבוע הבא" is next week, a period
            }
        } else {
            if (n == null) {
                return null;
            }
            count = n.value();
            u = prefixOnly(n.end(), ARTICLE) ? unit(n.end()) : null;
            unitEnd = n.end() + 1;
            if (u == null && prefixOnly(n.end(), ARTICLE) && isRole(n.end(), Role.QUARTER)) {
                u = ChronoUnit.MONTHS; // "ב-2 הרבעונים הבאים": quarters, counted below
            }
        }
        Integer shift = u == null ? null : shift(unitEnd);
        if (shift == null || shift == 0 || count <= 0) {
            return null;
        }
        if (u == ChronoUnit.HOURS || u == ChronoUnit.MINUTES) {
            return aheadOfNow(fractional(shift * count, u), i, unitEnd + 1);
        }
        int c = (int) count;
        Grain g = isRole(unitEnd - 1, Role.QUARTER) ? Grain.QUARTER : u == ChronoUnit.DAYS ? Grain.DAY : grain(u);
        if (count != c || c > 1000 || g == null) {
            return null;
        }
        InstantSpec a = new InstantSpec();
        InstantSpec b = new InstantSpec();
        a.date = new PeriodRef(g, shift > 0 ? 1 : -c);
        b.date = new PeriodRef(g, shift > 0 ? c : -1);
        return new Match(new IntervalParse(a, b), i, unitEnd + 1);
    }

    /**
     * "the rest of the week", "for the rest of the day", "the remainder of this month", "the rest of
     * today": from today (from now, for the day) to the period's last day.
     */
    private Match restOf(int i) {
        int j = skipLinks(within(i));
        if (!isRole(j, Role.REST)) {
            return null;
        }
        int of = isRole(j + 1, Role.LINK) ? j + 2 : j + 1; // "rest of the week", Hebrew's "שארית השבוע"
        int k = isRole(of, Role.LINK) || isRole(of, Role.THIS) ? of + 1 : of;
        if (k == of && meaningAt(k) instanceof Day today && today.days() == 0) {
            return restOf(Grain.DAY, i, k + 1);
        }
        ChronoUnit u = unit(k);
        Grain g = isRole(k, Role.QUARTER) ? Grain.QUARTER : u == ChronoUnit.DAYS ? Grain.DAY : grain(u);
        return g == null ? null : restOf(g, i, k + 1);
    }

    /**
     * "the week before Christmas", "the week after Passover", "the week leading up to Easter": the
     * seven days before (after) the day, not counting it.
     */
    private Match weekAround(int i) {
        int j = skipLinks(i);
        if (unit(j) != ChronoUnit.WEEKS || (j == i && lexicon.bareUnitIsOne(tok(j).text()))) {
            return null; // "שבוע לפני פסח", a week said as one: a day a week before it
        }
        Hit<Meaning> side = phraseAt(j + 1);
        if (side == null || !(side.value() == Role.BEFORE || side.value() == Role.AFTER)) {
            return null;
        }
        Hit<InstantSpec> base = offsetBase(side.end());
        return base == null ? null : Grammar.weekAround(base.value().date, side.value() == Role.BEFORE, i, base.end());
    }

    /**
     * Days of one month, the month said once: "с 5 по 10 марта", "Dec 3-6", "December 3rd to 6th",
     * "3-6 Dec", "the 3rd to the 6th of December", "between the 3rd and the 6th of May".
     */
    private Match dayRange(int j, int start, boolean between) {
        Integer month = month(j);
        int k = skipLinks(month != null ? skipDot(j + 1) : j);
        Hit<Integer> first = prefixOnly(k, FIRST_DAY) ? dayNumber(k) : null;
        if (first == null) {
            return null;
        }
        int sep = first.end();
        boolean joined = between
                ? isRole(sep, Role.AND) || sym(sep, '-')
                : isRole(sep, Role.TO) || isRole(sep, Role.UNTIL) || sym(sep, '-');
        int lastAt = joined ? skipLinks(sep + 1) : sep;
        boolean prefixed = !joined && prefixSays(sep, Role.TO); // Hebrew's "ל-6", "עד ה-6"
        Hit<Integer> last = joined && prefixOnly(lastAt, ARTICLE) || prefixed ? dayNumber(lastAt) : null;
        if (last == null || last.value() < first.value()) {
            return null;
        }
        int end = last.end();
        if (sym(end, ':')
                || latinMeridiem(end) != null
                || (unit(end) != null && prefixOnly(end, ARTICLE))
                || partAfterClock(end) != null
                || isRole(end, Role.AND_A_HALF)
                || isRole(end, Role.AND_A_QUARTER)) {
            return null; // "Dec 3 9-11am", "מ-3 עד 5 בערב", "3-4 וחצי": hours, not days
        }
        if (month == null) {
            int m = skipLinks(sym(end, ',') && prefixAt(k).length() > 0 ? end + 1 : end);
            month = month(m);
            if (month == null) {
                return articled(k) && articled(lastAt) && num(k) && num(lastAt)
                        ? daysOfMonth(first.value(), last.value(), start, end) // "מה-3 עד ה-6": the next such days
                        : null;
            }
            end = skipDot(m + 1);
        }
        Hit<Integer> y = yearAfter(end);
        return dayRange(
                y == null ? 0 : y.value(), month, first.value(), last.value(), start, y == null ? end : y.end());
    }

    /** Prefix letters the first day of a range may carry: "from", the article, "on" (Hebrew's "מה-3", "ב-3"). */
    private static final java.util.Set<Role> FIRST_DAY = java.util.EnumSet.of(Role.FROM, Role.LINK, Role.ON);

    /** Whether token {@code i} carries the article as its last prefix letter: Hebrew's "ה" of "מה-3". */
    private boolean articled(int i) {
        String p = prefixed ? prefixAt(i) : "";
        return !p.isEmpty() && lexicon.prefixLetterMeans(p.charAt(p.length() - 1), Role.LINK);
    }

    /** Days of whatever month they next fall in: "מה-3 עד ה-6". */
    private static Match daysOfMonth(int first, int last, int start, int end) {
        if (first < 1 || last > 31) {
            return null;
        }
        InstantSpec a = new InstantSpec();
        InstantSpec b = new InstantSpec();
        a.date = new DayOfMonthRef(first, false, 0);
        b.date = new DayOfMonthRef(last, false, 0);
        return new Match(new IntervalParse(a, b), start, end);
    }

    /**
     * Days of one month, the month said once, for a language that reads its other intervals itself:
     * "מ-3 עד 6 בדצמבר", "3-6 בדצמבר", "בין ה-3 ל-6 בדצמבר", "מה-3 עד ה-6"; or null.
     */
    final Match daysOfOneMonth(int i) {
        boolean between = isRole(i, Role.BETWEEN);
        return !between && !num(i) ? null : dayRange(between ? i + 1 : i, i, between);
    }

    /**
     * "this weekend", "on the weekend", "next weekend", "на выходных", "סופ"ש הבא", "סוף השבוע שאחרי הבא".
     * A bare "weekend" with no word before it is read only in a whole-text reading where the language
     * asks so ({@link Lexicon#bareWeekendOnlyAlone}).
     */
    @Override
    Match weekend(int i) {
        int j = isRole(i, Role.ON) || isRole(i, Role.AT) ? i + 1 : i;
        Integer before = shift(j);
        if (before != null || isRole(j, Role.LINK)) {
            j++;
        }
        Hit<Meaning> w = phraseAt(j);
        if (w == null || w.value() != Role.WEEKEND) {
            return null;
        }
        if (j == i && !lenient && lexicon.bareWeekendOnlyAlone()) {
            return null;
        }
        int end = w.end();
        int weeks = before == null ? 0 : before;
        Integer after = before == null ? shift(end) : null;
        if (after != null) {
            weeks = after;
            end++;
        } else if (before == null && isRole(end, Role.AFTER) && shift(end + 1) != null && shift(end + 1) == 1) {
            weeks = 2; // "the weekend after next", "סופ"ש שאחרי הבא"
            end += 2;
        }
        return new Match(new WeekendParse(weeks), i, end);
    }

    // ---- recurrences ------------------------------------------------------------------------

    @Override
    Hit<RecurrenceBuilder> recurrenceHead(int i) {
        return sharedRecurrenceHead(i);
    }

    /** The head of a recurrence read by the engine's rules, or null when the language does not use them. */
    final Hit<RecurrenceBuilder> sharedRecurrenceHead(int i) {
        if (!families.contains(Family.RECURRENCES)) {
            return null;
        }
        Meaning m = meaningAt(i);
        if (m == null) {
            if (num(i)) {
                return numberedHead(i);
            }
            Hit<RecurrenceBuilder> day = everySaid() ? dayThenEveryMonth(i) : null; // "בעשירי לכל חודש"
            return day != null ? day : lexicon.phrasesOpenRecurrences() ? phraseHead(i) : null;
        }
        if (m instanceof Often o) {
            RecurrenceBuilder r = new RecurrenceBuilder(o.frequency()).interval(o.interval());
            r.partOfDay = o.part();
            return new Hit<>(r, i + 1);
        }
        Hit<Meaning> said = lexicon.phrasesSayOften() ? phraseAt(i) : null;
        if (said != null
                && said.end() > i + 1
                && said.value() instanceof Often o) { // "יום יום", its first word a unit alone
            RecurrenceBuilder r = new RecurrenceBuilder(o.frequency()).interval(o.interval());
            r.partOfDay = o.part();
            return new Hit<>(r, said.end());
        }
        return numberedHead(i);
    }

    /**
     * A head said by a phrase whose first word means nothing alone: "יום יום", "ימי שני", "ביום שני
     * הראשון של כל חודש"; or null.
     */
    private Hit<RecurrenceBuilder> phraseHead(int i) {
        Hit<Meaning> said = phraseAt(i);
        if (said == null) {
            return null;
        }
        if (said.value() instanceof Often o) {
            RecurrenceBuilder r = new RecurrenceBuilder(o.frequency()).interval(o.interval());
            r.partOfDay = o.part();
            return new Hit<>(r, said.end());
        }
        if (said.value() instanceof Weekdays p && p.plural()) {
            return moreDays(new RecurrenceBuilder(Frequency.WEEKLY).days(p.days()), said.end());
        }
        return everySaid() && mayNameWeekday(i) ? nthWeekdayOfEveryMonth(i, true) : null;
    }

    /** The head at a number or a word that means something alone (the rules of {@link #sharedRecurrenceHead}). */
    private Hit<RecurrenceBuilder> numberedHead(int i) {
        Meaning m = meaningAt(i);
        if (m == Role.ONCE) {
            Hit<RecurrenceBuilder> once = onceEach(i + 1); // "once a week"
            return once != null ? once : onceIn(i + 1); // "פעם בשבוע"
        }
        int j = m == Role.ON || m == Role.AT || m == Role.TO ? i + 1 : i;
        // a day of every month needs "every" said after it ("1-го числа каждого месяца"): most texts say none
        Hit<RecurrenceBuilder> monthly = everySaid() ? dayThenEveryMonth(j) : null;
        if (monthly != null) {
            return monthly;
        }
        Weekdays plural = weekdays(j);
        if (plural != null && plural.plural()) {
            return moreDays(new RecurrenceBuilder(Frequency.WEEKLY).days(plural.days()), j + 1);
        }
        if (m != Role.EVERY) {
            return everySaid() && mayNameWeekday(i)
                    ? nthWeekdayOfEveryMonth(i, true)
                    : null; // "יום שני הראשון של כל חודש"
        }
        Hit<Meaning> every = phraseAt(i);
        return afterEvery(every.value() == Role.EVERY ? every.end() : i + 1); // "every single day"
    }

    /** The rest of a head after its word of "every" ends at {@code e}: "week", "Monday", "10th of the month"; or null. */
    private Hit<RecurrenceBuilder> afterEvery(int e) {
        if (e < size && tok(e).isWord() && lexicon.definite(tok(e).text())) {
            return null; // "כל השבוע הבא": all of next week, not every week
        }
        Hit<RecurrenceBuilder> nth =
                longest(longest(nthWeekdayOfEveryMonth(e, false), everyNth(e)), everyDayOfMonth(e));
        if (nth != null) {
            return longest(nth, everyDate(e)); // "every 2nd day of the month", "every 10th of March"
        }
        Hit<Integer> dayOfMonth = prefixOnly(e, ARTICLE) ? dayOfMonth(e) : null;
        if (dayOfMonth != null && means(dayOfMonth.end(), Role.DAY_OF_MONTH)) {
            // "כל ה-15 לחודש", "כל ראשון לחודש" (not every Sunday)
            RecurrenceBuilder r = new RecurrenceBuilder(Frequency.MONTHLY);
            r.dayOfMonth = dayOfMonth.value();
            return new Hit<>(r, dayOfMonth.end() + 1);
        }
        Hit<Meaning> w = phraseAt(e);
        if (w != null && w.value() instanceof Weekdays days) {
            return moreDays(new RecurrenceBuilder(Frequency.WEEKLY).days(days.days()), w.end());
        }
        Hit<DayOfWeek> listed = lexicon.listedWeekday(this, e); // "כל שני וחמישי"
        if (listed != null) {
            return moreDays(new RecurrenceBuilder(Frequency.WEEKLY).days(List.of(listed.value())), listed.end());
        }
        if (w != null && w.value() == Role.WEEKEND) { // "every weekend": the days the resolver's weekend has
            List<DayOfWeek> weekend = weekStart() == DayOfWeek.SUNDAY
                    ? List.of(DayOfWeek.FRIDAY, DayOfWeek.SATURDAY)
                    : List.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY);
            return new Hit<>(new RecurrenceBuilder(Frequency.WEEKLY).days(weekend), w.end());
        }
        if (isRole(e, Role.QUARTER) && quartersOfAnHour(e) == null) {
            return new Hit<>(new RecurrenceBuilder(Frequency.MONTHLY).interval(3), e + 1);
        }
        Hit<RecurrenceBuilder> dated = everyDate(e);
        if (dated != null) {
            return dated;
        }
        PartOfDay part = meaningAt(e) instanceof Part p ? p.part() : partNamed(e); // "every morning"
        if (part != null) {
            RecurrenceBuilder r = new RecurrenceBuilder(Frequency.DAILY);
            r.partOfDay = part;
            return new Hit<>(r, e + 1);
        }
        return everyAmount(e);
    }

    /**
     * "the 1st of every month", "on the 15th of each month", "the 10th every month", "1-го числа
     * каждого месяца", "ב-10 לכל חודש", "בעשירי לכל חודש": monthly on that day, its number an ordinal,
     * said with a word of the day of the month, or before a word of "every" whose prefix letter says
     * "of" ("לכל", "בכל"); or null.
     */
    private Hit<RecurrenceBuilder> dayThenEveryMonth(int i) {
        int k = skipLinks(i);
        Hit<Integer> day = dayOfMonth(k);
        if (day == null) {
            return null;
        }
        int end = day.end();
        int j = means(end, Role.DAY_OF_MONTH)
                ? end + 1
                : ordinalSaid(k, day) || prefixSays(end, Role.TO) || prefixSays(end, Role.IN) ? skipLinks(end) : -1;
        if (j < 0 || !isRole(j, Role.EVERY) || unit(j + 1) != ChronoUnit.MONTHS) {
            return null;
        }
        RecurrenceBuilder r = new RecurrenceBuilder(Frequency.MONTHLY);
        r.dayOfMonth = day.value();
        return new Hit<>(r, j + 2);
    }

    /** Whether the day of the month read at {@code k} was said as an ordinal ("10th", "tenth"), not a bare number. */
    private boolean ordinalSaid(int k, Hit<Integer> day) {
        return !num(k) || day.end() > k + 1;
    }

    /**
     * After "every": "10th" ("каждое 10-е число", "every 10th day", "every 10th of the month"):
     * monthly on that day; or null.
     */
    private Hit<RecurrenceBuilder> everyDayOfMonth(int e) {
        Hit<Integer> day = num(e) ? dayNumber(e) : null;
        if (day == null) {
            return null;
        }
        int end = day.end();
        if (isRole(end, Role.DAY_OF_MONTH)) {
            end++;
        } else if (day.end() > e + 1) { // an ordinal ending: "10th"
            if (unit(end) == ChronoUnit.DAYS) {
                end++;
            }
            int of = skipLinks(end); // "of the month", "of each month"
            int month = isRole(of, Role.EVERY) ? of + 1 : of;
            if (of > end && unit(month) == ChronoUnit.MONTHS) {
                end = month + 1;
            }
        } else {
            return null;
        }
        RecurrenceBuilder r = new RecurrenceBuilder(Frequency.MONTHLY);
        r.dayOfMonth = day.value();
        return new Hit<>(r, end);
    }

    /** After "every": a day of a month with no year ("March 5", "Dec 25th"): yearly on it; or null. */
    private Hit<RecurrenceBuilder> everyDate(int e) {
        Hit<InstantSpec> d = dateAt(e);
        if (d == null || !(d.value().date instanceof CalendarDate c) || c.year() != 0 || d.value().time != null) {
            return null;
        }
        RecurrenceBuilder r = new RecurrenceBuilder(Frequency.YEARLY);
        r.month = c.month();
        r.dayOfMonth = c.day();
        return new Hit<>(r, d.end());
    }

    /** After "once": "a week", "an hour", "per month", "every day": every one unit; or null. */
    private Hit<RecurrenceBuilder> onceEach(int i) {
        boolean each = isRole(i, Role.EVERY)
                || isRole(i, Role.PER)
                || (!num(i) && meaningAt(i) instanceof Amount a && a.value() == 1);
        ChronoUnit u = each ? unit(i + 1) : null;
        return u == null ? null : every(new Offset(1, u), i + 2);
    }

    /** A day of the month in the language's numbers ({@link #dayBeforeMonth}) or as an ordinal ("ראשון"); or null. */
    private Hit<Integer> dayOfMonth(int i) {
        Hit<Integer> day = dayBeforeMonth(i);
        return day != null ? day : dayNumber(i);
    }

    /** After "once": "בשבוע", "ביומיים" (in a week, in two days), so often; or null. */
    private Hit<RecurrenceBuilder> onceIn(int i) {
        int j = isRole(i, Role.IN) ? i + 1 : i;
        if (j == i && !prefixSays(i, Role.IN)) {
            return null;
        }
        Hit<Offset> d = simpleDuration(j, IN);
        return d == null ? null : every(d.value(), d.end());
    }

    /** Prefix letters of an amount said after "once": "in" (Hebrew's "ב" of "פעם בשבוע"). */
    private static final java.util.Set<Role> IN = java.util.EnumSet.of(Role.IN);

    /**
     * Whether {@link #nthWeekdayOfEveryMonth} may find a weekday at token {@code i}, asked from the
     * meanings already looked up: where only a word names a weekday, it must be there or after an n-th.
     */
    private boolean mayNameWeekday(int i) {
        if (lexicon.weekdaysBeyondWords()) {
            return true;
        }
        int j = skipLinks(i);
        Hit<Integer> n = nthAt(j);
        return weekdays(n != null ? n.end() : j) != null;
    }

    /** Whether some word of the text means "every": only then may a recurrence open without it. */
    private boolean everySaid() {
        if (every == 0) {
            every = -1;
            for (int t = 0; t < size; t++) {
                if (isRole(t, Role.EVERY)) {
                    every = 1;
                    break;
                }
            }
        }
        return every > 0;
    }

    /** {@link #everySaid}: 0 not looked yet, 1 said, -1 not. */
    private int every;

    /**
     * After "every": "2 hours", "hour" (one, in a language where a bare unit is not), "hour and a
     * half", "half hour", "quarter hour"; or null.
     */
    private Hit<RecurrenceBuilder> everyAmount(int i) {
        Hit<Offset> d = duration(i);
        ChronoUnit u = unit(i);
        if (d == null && u != null) {
            int half = after(i + 1, Role.AND_A_HALF);
            d = half > 0 ? new Hit<>(fractional(1.5, u), half) : new Hit<>(new Offset(1, u), i + 1);
        }
        return d == null ? null : every(d.value(), d.end());
    }

    /**
     * After "every": "the last Thursday of the month", "יום חמישי האחרון בחודש", "последний четверг
     * месяца" (the n-th or the last weekday, before or after its day): monthly on that weekday; or null.
     * With no "every" before it, the month must have it: "יום שני הראשון של כל חודש".
     */
    private Hit<RecurrenceBuilder> nthWeekdayOfEveryMonth(int i, boolean everyMonth) {
        int j = skipLinks(i);
        Hit<Integer> first = nthAt(j);
        Integer nth = first != null ? first.value() : null;
        int at = first != null ? first.end() : j;
        Hit<Meaning> said = phraseAt(at);
        Hit<DayOfWeek> day = said != null
                        && said.value() instanceof Weekdays w
                        && !w.plural()
                        && w.days().size() == 1
                ? new Hit<>(w.day(), said.end())
                : ownDays ? lexicon.ownWeekday(this, at) : null; // "כל שבת הראשונה בחודש"
        if (day == null) {
            return null;
        }
        int k = day.end();
        if (nth == null) {
            nth = nth(k);
            k++;
        }
        int unitAt = skipLinks(k);
        if (isRole(unitAt, Role.EVERY)) {
            unitAt++; // "של כל חודש", "of every month"
        } else if (everyMonth) {
            return null;
        }
        if (nth == null || unit(unitAt) != ChronoUnit.MONTHS) {
            return null;
        }
        RecurrenceBuilder r = new RecurrenceBuilder(Frequency.MONTHLY).days(List.of(day.value()));
        r.nth = nth;
        return new Hit<>(r, unitAt + 1);
    }

    /** After "every": "other week", "second Monday", "third day", "other morning": every n-th one; or null. */
    private Hit<RecurrenceBuilder> everyNth(int i) {
        boolean other = isRole(i, Role.OTHER);
        Hit<Integer> nth = other ? null : nthAt(i); // "every third day", "every 2nd week"
        if (!other
                && (nth == null
                        || (nth.value() != 2 && nth.value() != 3)
                        || (unit(nth.end()) == null && weekdays(nth.end()) == null))) {
            return null;
        }
        int n = other ? 2 : nth.value();
        int j = other ? i + 1 : nth.end();
        Hit<Meaning> w = phraseAt(j);
        if (w != null && w.value() instanceof Weekdays days) {
            return moreDays(new RecurrenceBuilder(Frequency.WEEKLY).interval(n).days(days.days()), w.end());
        }
        PartOfDay part = partNamed(j) != null ? partNamed(j) : meaningAt(j) instanceof Part p ? p.part() : null;
        if (part != null) {
            RecurrenceBuilder r = new RecurrenceBuilder(Frequency.DAILY).interval(n);
            r.partOfDay = part;
            return new Hit<>(r, j + 1);
        }
        ChronoUnit u = unit(j);
        return u == null ? null : every(new Offset(n, u), j + 1);
    }

    /** The n-th (1 to 5) an ordinal says in a word or in digits ("second", "2nd", "2-й"), -1 for "last"; or null. */
    private Hit<Integer> nthAt(int i) {
        Integer n = nth(i);
        if (n != null) {
            return new Hit<>(n, i + 1);
        }
        if (num(i) && tok(i).text().length() == 1 && value(i) >= 1 && value(i) <= 5) {
            int end = ordinalEnding(i + 1);
            return end > i + 1 ? new Hit<>(value(i), end) : null;
        }
        return null;
    }

    /** The n-th (1 to 5) an ordinal word says, -1 for "last"; or null. */
    private Integer nth(int i) {
        if (isRole(i, Role.LAST)) {
            return -1;
        }
        return meaningAt(i) instanceof Ordinal o && o.value() <= 5 ? o.value() : null;
    }

    /**
     * "по понедельникам и средам", "every Monday and Thursday", "יום שני וחמישי", "ראשון, שלישי
     * וחמישי": more days after the first, joined by a word or as the language joins them ({@link
     * Lexicon#listedWeekday}).
     */
    private Hit<RecurrenceBuilder> moreDays(RecurrenceBuilder r, int end) {
        while (end < size) {
            int j = end;
            if (isRole(end, Role.AND) || sym(end, ',') || sym(end, '&') || sym(end, '/')) {
                j++;
                if (sym(end, ',') && isRole(j, Role.AND)) {
                    j++; // "Monday, and Friday"
                }
                if (isRole(j, Role.ON) || isRole(j, Role.AT) || isRole(j, Role.TO)) {
                    j++;
                }
                Weekdays w = weekdays(j);
                if (w != null) {
                    r.days(w.days());
                    end = j + 1;
                    continue;
                }
            }
            Hit<DayOfWeek> listed = lexicon.listedWeekday(this, j);
            if (listed == null) {
                break;
            }
            r.days(List.of(listed.value()));
            end = listed.end();
        }
        return new Hit<>(r, end);
    }

    /** Weekdays said one after another from {@code i} ("ביום שני וחמישי"), for a recurrence's days; or null. */
    final Hit<List<DayOfWeek>> weekdayList(int i) {
        Weekdays w = weekdays(i);
        Hit<DayOfWeek> first = w == null && ownDays ? lexicon.ownWeekday(this, i) : null;
        if (w == null && first == null) {
            return null;
        }
        RecurrenceBuilder r = new RecurrenceBuilder(Frequency.WEEKLY);
        r.days(w != null ? w.days() : List.of(first.value()));
        Hit<RecurrenceBuilder> all = moreDays(r, w != null ? i + 1 : first.end());
        return new Hit<>(all.value().days, all.end());
    }

    /**
     * One modifier of a recurrence at {@code i}: its end ("until Friday", "до пятницы"), its days ("on
     * Mon, Wed and Fri", "по понедельникам"), its day of the month ("monthly on the 15th") or of the year
     * ("yearly on March 5"), a time ("at 9am", "and 5pm", "в 9 вечера") or a part of the day ("in the
     * morning", "утром"). Returns where it ends, or -1.
     */
    @Override
    int recurrenceModifier(int i, RecurrenceBuilder r) {
        boolean to = isRole(i, Role.TO);
        int u = (isRole(i, Role.UNTIL) || to) && prefixOnly(i, JOINED) ? i + 1 : after(i, Role.UNTIL); // "ועד", "up to"
        if (u > 0) {
            Hit<InstantSpec> until = instant(u, Context.FREE);
            if (until == null
                    || r.until != null
                    || until.value().offset != null
                    || (to && until.value().date == null && !r.times.isEmpty())) { // "9am to 5pm": a day's hours
                return -1;
            }
            r.until = until.value();
            return until.end();
        }
        int j = isRole(i, Role.AT) || isRole(i, Role.ON) ? i + 1 : i;
        int days = recurrenceDays(j, r);
        if (days > 0) {
            return days;
        }
        int day = r.dayOfMonth == 0 ? dayOfRecurrence(j, r) : -1;
        if (day > 0) {
            return day;
        }
        boolean and = isRole(i, Role.AND);
        boolean another = !r.times.isEmpty()
                && (and
                        || prefixSays(i, Role.AND)
                        || (sym(i - 1, ',') && prefixSays(i, Role.AT))); // "and 5pm", "וב-20", ", ב-12"
        if ((r.times.isEmpty() || another) && r.frequency != Frequency.MINUTELY && r.frequency != Frequency.HOURLY) {
            int k = another && and ? i + 1 : i;
            int at = means(k, Role.AT) || isRole(k, Role.ON) || sym(k, '@') ? k + 1 : k;
            int end = recurrenceTime(at, another || at > k, r);
            if (end > 0) {
                return end;
            }
        }
        if (r.partOfDay == null) {
            if (meaningAt(j) instanceof Part p) {
                r.partOfDay = p.part();
                return j + 1;
            }
            InstantSpec ctx = new InstantSpec();
            ctx.time = r.times.isEmpty() ? null : r.times.get(0);
            Hit<InstantSpec> p = partOfDayAfter(i, ctx); // "in the morning"
            if (p != null && p.value().date == null) {
                r.partOfDay = p.value().partOfDay;
                return p.end();
            }
        }
        return -1;
    }

    /** The days of a weekly or daily recurrence that has none yet, at {@code j}: "Mon, Wed and Fri"; or -1. */
    private int recurrenceDays(int j, RecurrenceBuilder r) {
        if (!r.days.isEmpty() || (r.frequency != Frequency.WEEKLY && r.frequency != Frequency.DAILY)) {
            return -1;
        }
        Weekdays w = weekdays(j);
        Hit<List<DayOfWeek>> listed = w == null ? weekdayList(j) : null; // "כל שבוע ביום שלישי"
        if (w == null && listed == null) {
            return -1;
        }
        r.days(w != null ? w.days() : listed.value());
        if (r.frequency == Frequency.DAILY) {
            r.frequency = Frequency.WEEKLY;
        }
        return w != null ? moreDays(r, skipDot(j + 1)).end() : listed.end();
    }

    /**
     * The day of a monthly recurrence ("on the 15th", "the 1st of the month") or the date of a yearly
     * one ("on March 5") at {@code j}, which it takes; or -1.
     */
    private int dayOfRecurrence(int j, RecurrenceBuilder r) {
        if (r.frequency == Frequency.MONTHLY) {
            int k = skipLinks(j);
            Hit<Integer> day = prefixOnly(k, DAY_OF_EVERY_MONTH) ? dayOfMonth(k) : null;
            if (day == null || sym(day.end(), ':') || partSaid(day.end()) != null) {
                return -1; // "כל חודש ב-5 בערב": an hour
            }
            boolean said = means(day.end(), Role.DAY_OF_MONTH); // "15-го числа", "ב-15 לחודש"
            if (!said && !(k > j || ordinalSaid(k, day)) && !lexicon.numberAfterMonthlyIsItsDay()) {
                return -1; // "monthly 10 minutes": a bare number is no day of the month, where the language says so
            }
            if (!said && r.nth != 0 && !r.days.isEmpty()) {
                return -1; // "ביום שישי האחרון של כל חודש ב-9": the month's day is said already, 9 is an hour
            }
            r.dayOfMonth = day.value();
            if (said) {
                return day.end() + 1;
            }
            int end = day.end();
            int of = skipLinks(end); // "of the month", "of each month"
            int month = isRole(of, Role.EVERY) ? of + 1 : of;
            return of > end && unit(month) == ChronoUnit.MONTHS ? month + 1 : end;
        }
        if (r.frequency == Frequency.YEARLY) {
            Hit<RecurrenceBuilder> date = everyDate(j);
            if (date != null) {
                r.month = date.value().month;
                r.dayOfMonth = date.value().dayOfMonth;
                return date.end();
            }
        }
        return -1;
    }

    /** Prefix letters of the day of a monthly recurrence: "on" and the article ("ב-15", "ה-15"). */
    private static final java.util.Set<Role> DAY_OF_EVERY_MONTH = java.util.EnumSet.of(Role.ON, Role.LINK);

    /**
     * A time of a recurrence at {@code i} ("9am", "в 9 вечера"; {@code anchored} when "at" or "and" was
     * said before it), read by {@link #recurrenceClock}; a part of the day said after an hour that could
     * be either makes it the part's ("at 9 in the evening" is at 21:00). Returns where it ends, or -1.
     */
    private int recurrenceTime(int i, boolean anchored, RecurrenceBuilder r) {
        Hit<InstantSpec> t = recurrenceClock(i, anchored, r);
        if (t == null) {
            return -1;
        }
        ClockTime c = t.value().time;
        int end = t.end();
        PartOfDay said = t.value().partOfDay;
        if (said != null && c.ambiguous()) {
            // "ב-8 בבוקר וב-8 בערב": each part of the day makes its own hour
            c = new ClockTime(said.hour24(c.hour()), c.minute(), c.second(), Meridiem.NONE, true, c.grain());
        } else if (said != null) {
            r.partOfDay = said;
        } else if (c.ambiguous()) {
            InstantSpec ctx = new InstantSpec();
            ctx.partOfDay = r.partOfDay;
            Hit<InstantSpec> p = partOfDayAfter(end, ctx);
            if (p != null && p.value().date == null) {
                c = new ClockTime(
                        p.value().partOfDay.hour24(c.hour()), c.minute(), c.second(), Meridiem.NONE, true, c.grain());
                end = p.end();
            }
        }
        r.times.add(c);
        return end;
    }

    /**
     * The clock a recurrence's modifier reads at {@code i} ({@code anchored} when what came before says
     * it is one: "at 9", "and 5"), {@code r} the recurrence so far: its time, and the part of the day
     * said with it ("в 9 вечера"); or null. The one place a recurrence asks for a clock.
     */
    Hit<InstantSpec> recurrenceClock(int i, boolean anchored, RecurrenceBuilder r) {
        InstantSpec said = NO_PARTS;
        if (r.partOfDay != null) {
            said = new InstantSpec(); // "every morning 7": seven in the morning
            said.partOfDay = r.partOfDay;
        }
        return clock(i, said, Context.FREE, anchored);
    }
}
