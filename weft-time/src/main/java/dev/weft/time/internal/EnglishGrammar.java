package dev.weft.time.internal;

import dev.weft.time.TimeExpression.Recurrence.Frequency;
import dev.weft.time.internal.ClockTime.Meridiem;
import dev.weft.time.internal.DateRef.CalendarDate;
import java.time.DayOfWeek;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * What English still reads by its own rules: the heads and modifiers of recurrences (every other
 * family, its clocks and the reading of an instant included, is the {@link Engine}'s). One instance
 * reads one text; not thread-safe.
 */
final class EnglishGrammar extends Engine {

    EnglishGrammar(List<Token> tokens, boolean lenient, int referenceYear) {
        super(tokens, lenient, referenceYear, EnglishLexicon.INSTANCE);
    }

    private static final Hit<Object> NO_HIT = new Hit<>(new Object(), -1);

    /** What dayNumber reads at each token: many rules ask for the same. */
    private Hit<?>[] dayNumbers;

    // ---- weekdays ---------------------------------------------------------------------------

    private DayOfWeek dayName(int i) {
        return meaningAt(i) instanceof Meaning.Weekdays w && w.days().size() == 1 ? w.day() : null;
    }

    private int skipDot(int i) {
        return sym(i, '.') && adjacent(i) ? i + 1 : i;
    }

    // ---- dates ------------------------------------------------------------------------------

    private Integer ordinal(int i) {
        return meaningAt(i) instanceof Meaning.Ordinal o ? o.value() : null;
    }

    /** A day of the month: {@code 15}, {@code 15th}, {@code fifteenth}, {@code twenty-first}. */
    @SuppressWarnings("unchecked")
    private Hit<Integer> dayNumber(int i, boolean needOrdinal) {
        if (i < 0 || i >= size) {
            return null;
        }
        if (dayNumbers == null) {
            dayNumbers = new Hit<?>[2 * size];
        }
        int k = needOrdinal ? size + i : i;
        Hit<?> known = dayNumbers[k];
        if (known == null) {
            Hit<Integer> read = readDayNumber(i, needOrdinal);
            dayNumbers[k] = read == null ? NO_HIT : read;
            return read;
        }
        return known == NO_HIT ? null : (Hit<Integer>) known;
    }

    private Hit<Integer> readDayNumber(int i, boolean needOrdinal) {
        if (num(i) && tok(i).text().length() <= 2) {
            int v = value(i);
            if (v < 1 || v > 31) {
                return null;
            }
            if (word(i + 1, "st", "nd", "rd", "th") && adjacent(i + 1)) {
                return new Hit<>(v, i + 2);
            }
            if (word(i + 1, "am", "pm", "oclock") || (sym(i + 1, ':') && num(i + 2))) {
                // "the 7am alarm", "the 6:30 train": a clock, not a day of the month.
                return null;
            }
            return needOrdinal ? null : new Hit<>(v, i + 1);
        }
        if (i < size && tok(i).isWord()) {
            Integer o = ordinal(i);
            if (o != null) {
                return new Hit<>(o, i + 1);
            }
            Integer tens = tens(i);
            if (tens != null && tens <= 30) {
                int j = sym(i + 1, '-') ? i + 2 : i + 1;
                Integer unit = ordinal(j);
                if (unit != null && unit < 10 && tens + unit <= 31) {
                    return new Hit<>(tens + unit, j + 1);
                }
            }
        }
        return null;
    }

    // ---- durations and offsets --------------------------------------------------------------

    /** A multiple of ten said as a word ("twenty", "forty"), from the lexicon. */
    private Integer tens(int i) {
        Meaning.Amount a = meaningAt(i, Meaning.Amount.class);
        return a != null && a.value() >= 20 && a.value() < 100 && a.value() % 10 == 0 ? (int) a.value() : null;
    }

    private ChronoUnit unit(int i) {
        if (i >= size || !tok(i).isWord()) {
            return null;
        }
        String w = tok(i).text();
        if (w.endsWith("'s")) {
            w = w.substring(0, w.length() - 2);
        } else if (sym(i + 1, '\'') && adjacent(i + 1) && word(i + 2, "s")) {
            return null;
        }
        Meaning.Unit u = meaningOf(w, Meaning.Unit.class);
        return u == null ? null : u.unit();
    }

    // ---- clock times ------------------------------------------------------------------------

    private Hit<Meridiem> meridiem(int i) {
        if (word(i, "am", "a.m")) {
            return new Hit<>(Meridiem.AM, skipDot(i + 1));
        }
        if (word(i, "pm", "p.m")) {
            return new Hit<>(Meridiem.PM, skipDot(i + 1));
        }
        if (word(i, "a", "p") && sym(i + 1, '.') && word(i + 2, "m") && adjacent(i + 1)) {
            return new Hit<>(word(i, "a") ? Meridiem.AM : Meridiem.PM, skipDot(i + 3));
        }
        return null;
    }

    /** A clock time at {@code i}, read by the engine's clock rules. */
    private Hit<ClockTime> time(int i, InstantSpec acc, Context ctx, boolean anchored) {
        Hit<InstantSpec> t = clockAt(i, acc, ctx, anchored);
        return t == null ? null : new Hit<>(t.value().time, t.end());
    }

    // ---- recurrences ------------------------------------------------------------------------

    @Override
    Hit<RecurrenceBuilder> recurrenceHead(int i) {
        return longest(ownRecurrenceHead(i), sharedRecurrenceHead(i));
    }

    private Hit<RecurrenceBuilder> ownRecurrenceHead(int i) {
        if (word(i, "once", "twice") && word(i + 1, "a", "an", "per", "every")) {
            Hit<RecurrenceBuilder> r = everyUnit(i + 2, 1);
            return word(i, "once") ? r : null;
        }
        int j = i;
        if (word(j, "on")) {
            j++;
        }
        Hit<List<DayOfWeek>> plural = dayList(j, true);
        if (plural != null) {
            return new Hit<>(new RecurrenceBuilder(Frequency.WEEKLY).days(plural.value()), plural.end());
        }
        Hit<RecurrenceBuilder> nthOfMonth = nthWeekdayOfEveryMonth(word(i, "on") ? i + 1 : i, false);
        if (nthOfMonth != null) {
            return nthOfMonth;
        }
        // "the 1st of every month", "on the 15th of each month"
        int k = word(i, "on") ? i + 1 : i;
        k = word(k, "the") ? k + 1 : k;
        Hit<Integer> dom = dayNumber(k, true);
        int of = dom == null ? -1 : word(dom.end(), "of") ? dom.end() + 1 : dom.end();
        if (dom != null && word(of, "every", "each") && word(of + 1, "month")) {
            // "the 10th of every month", "on the 10th every month"
            RecurrenceBuilder r = new RecurrenceBuilder(Frequency.MONTHLY);
            r.dayOfMonth = dom.value();
            return new Hit<>(r, of + 2);
        }
        if (!word(i, "every", "each")) {
            return null;
        }
        j = i + 1;
        if (word(j, "single")) {
            j++;
        }
        Hit<RecurrenceBuilder> nthDay = nthWeekdayOfEveryMonth(j, true);
        if (nthDay != null) {
            return nthDay;
        }
        Hit<InstantSpec> yearly = dateAt(j);
        if (yearly != null && yearly.value().date instanceof CalendarDate c && c.year() == 0) {
            RecurrenceBuilder r = new RecurrenceBuilder(Frequency.YEARLY);
            r.month = c.month();
            r.dayOfMonth = c.day();
            return new Hit<>(r, yearly.end());
        }
        Hit<List<DayOfWeek>> days = dayList(j, false);
        if (days != null) {
            return new Hit<>(new RecurrenceBuilder(Frequency.WEEKLY).days(days.value()), days.end());
        }
        if (word(j, "weekend")) {
            return new Hit<>(
                    new RecurrenceBuilder(Frequency.WEEKLY).days(List.of(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY)), j + 1);
        }
        if (j < size && tok(j).isWord() && partNamed(j) != null) {
            RecurrenceBuilder r = new RecurrenceBuilder(Frequency.DAILY);
            r.partOfDay = partNamed(j);
            return new Hit<>(r, j + 1);
        }
        Hit<Integer> nth = dayNumber(j, true);
        if (nth != null && num(j)) {
            int end = nth.end();
            if (word(end, "day")) {
                end++;
            }
            if (word(end, "of") && word(end + 1, "the", "each", "every") && word(end + 2, "month")) {
                end += 3;
            }
            RecurrenceBuilder r = new RecurrenceBuilder(Frequency.MONTHLY);
            r.dayOfMonth = nth.value();
            return new Hit<>(r, end);
        }
        return null;
    }

    /** "the first Monday of every month", "last Friday of the month" after "every". */
    private Hit<RecurrenceBuilder> nthWeekdayOfEveryMonth(int i, boolean afterEvery) {
        int j = word(i, "the") ? i + 1 : i;
        int n;
        if (word(j, "last")) {
            n = -1;
            j++;
        } else {
            Hit<Integer> o = dayNumber(j, true);
            if (o == null || o.value() > 5) {
                return null;
            }
            n = o.value();
            j = o.end();
        }
        DayOfWeek day = dayName(j);
        if (day == null || !word(j + 1, "of", "in")) {
            return null;
        }
        int k = j + 2;
        if (!((afterEvery ? word(k, "the", "every", "each") : word(k, "every", "each")) && word(k + 1, "month"))) {
            return null;
        }
        RecurrenceBuilder r = new RecurrenceBuilder(Frequency.MONTHLY).days(List.of(day));
        r.nth = n;
        return new Hit<>(r, k + 2);
    }

    private Hit<RecurrenceBuilder> everyUnit(int i, int interval) {
        ChronoUnit u = unit(i);
        return u == null ? null : every(new Offset(interval, u), i + 1);
    }

    /** {@code Monday and Thursday}, {@code Mon, Wed and Fri}; with {@code plural}, {@code Mondays}. */
    private Hit<List<DayOfWeek>> dayList(int i, boolean plural) {
        List<DayOfWeek> days = new ArrayList<>();
        int j = i;
        int end = -1;
        while (true) {
            DayOfWeek d = dayName(j);
            if (d == null || (plural && !(meaningAt(j) instanceof Meaning.Weekdays w && w.plural()))) {
                break;
            }
            days.add(d);
            end = skipDot(j + 1);
            if (sym(end, ',') && word(end + 1, "and")) {
                j = end + 2;
            } else if (sym(end, ',') || word(end, "and") || sym(end, '&') || sym(end, '/')) {
                j = end + 1;
            } else {
                break;
            }
        }
        if (days.isEmpty()) {
            return null;
        }
        boolean context = lenient || days.size() > 1 || word(i - 1, "on") || word(end, "at") || num(end);
        return plural && !context ? null : new Hit<>(days, end);
    }

    /** Reads one modifier of a recurrence and returns where it ends, or -1. */
    @Override
    int recurrenceModifier(int i, RecurrenceBuilder r) {
        if (word(i, "until", "till", "til", "through", "thru", "ending") || (word(i, "up") && word(i + 1, "to"))) {
            int j = word(i, "up") ? i + 2 : i + 1;
            Hit<InstantSpec> u = instant(j, Context.FREE);
            if (u == null || r.until != null) {
                return -1;
            }
            r.until = u.value();
            return u.end();
        }
        int j = word(i, "on") ? i + 1 : i;
        Hit<List<DayOfWeek>> days = dayList(j, false);
        if (days != null && (r.frequency == Frequency.WEEKLY || r.frequency == Frequency.DAILY) && r.days.isEmpty()) {
            r.days(days.value());
            if (r.frequency == Frequency.DAILY) {
                r.frequency = Frequency.WEEKLY;
            }
            return days.end();
        }
        if (r.frequency == Frequency.MONTHLY && r.dayOfMonth == 0) {
            int k = word(j, "the") ? j + 1 : j;
            Hit<Integer> dom = dayNumber(k, !word(j, "the") || !num(k));
            if (dom != null && !sym(dom.end(), ':') && meridiem(dom.end()) == null) {
                r.dayOfMonth = dom.value();
                int end = dom.end();
                if (word(end, "of") && word(end + 1, "the", "each", "every") && word(end + 2, "month")) {
                    end += 3;
                }
                return end;
            }
        }
        if (r.frequency == Frequency.YEARLY && r.dayOfMonth == 0) {
            Hit<InstantSpec> d = dateAt(j);
            if (d != null && d.value().date instanceof CalendarDate c) {
                r.month = c.month();
                r.dayOfMonth = c.day();
                return d.end();
            }
        }
        boolean another = !r.times.isEmpty() && word(i, "and");
        if ((r.times.isEmpty() || another) && r.frequency != Frequency.MINUTELY && r.frequency != Frequency.HOURLY) {
            int k = another ? i + 1 : i;
            boolean anchored = word(k, "at") || sym(k, '@');
            k = anchored ? k + 1 : k;
            InstantSpec ctx = new InstantSpec();
            ctx.partOfDay = r.partOfDay;
            Hit<ClockTime> t = time(k, ctx, Context.FREE, anchored || another);
            if (t != null) {
                ClockTime c = t.value();
                int end = t.end();
                Hit<InstantSpec> p = partOfDayAfter(end, ctx);
                if (p != null && p.value().date == null && c.ambiguous()) {
                    c = new ClockTime(
                            p.value().partOfDay.hour24(c.hour()),
                            c.minute(),
                            c.second(),
                            Meridiem.NONE,
                            true,
                            c.grain());
                    end = p.end();
                }
                r.times.add(c);
                return end;
            }
        }
        if (r.partOfDay == null) {
            InstantSpec ctx = new InstantSpec();
            ctx.time = r.times.isEmpty() ? null : r.times.get(0);
            Hit<InstantSpec> p = partOfDayAfter(i, ctx);
            if (p != null && p.value().date == null) {
                r.partOfDay = p.value().partOfDay;
                return p.end();
            }
        }
        return -1;
    }
}
