package dev.weft.time.internal;

import dev.weft.time.Grain;
import dev.weft.time.internal.ClockTime.Meridiem;
import java.time.DayOfWeek;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;

/** The English grammar. One instance reads one text; not thread-safe. */
final class EnglishGrammar extends Engine {

    EnglishGrammar(List<Token> tokens, boolean lenient, int referenceYear) {
        super(tokens, lenient, referenceYear, EnglishLexicon.INSTANCE);
    }

    @Override
    DayOfWeek weekStart() {
        return DayOfWeek.MONDAY;
    }

    // ---- instants ---------------------------------------------------------------------------

    @Override
    Hit<InstantSpec> readInstant(int i, Context ctx) {
        InstantSpec acc = new InstantSpec();
        int p = i;
        int end = -1;
        while (p < size) {
            int q = p;
            boolean anchored = false;
            while (q < size) {
                if (word(q, "at", "around", "about", "approximately", "approx") || sym(q, '@')) {
                    anchored = anchored || !word(q, "about");
                    q++;
                } else if (word(q, "on") || (sym(q, ',') && end >= 0)) {
                    q++;
                } else {
                    int after = allDay(q);
                    if (after == q) {
                        break;
                    }
                    q = after; // "all day Friday": Friday
                }
            }
            Hit<InstantSpec> part = part(q, acc, ctx, anchored);
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

    /** After "all day", "the whole day", "the entire day" (which a day already is); else {@code i}. */
    private int allDay(int i) {
        if (i >= size || !tok(i).isWord()) {
            return i;
        }
        if (word(i, "all")) {
            return word(i + 1, "day") ? i + 2 : i;
        }
        int j = word(i, "the") ? i + 1 : i;
        return word(j, "whole", "entire") && word(j + 1, "day") ? j + 2 : i;
    }

    /** The longest part of an instant that starts at {@code q}. */
    private Hit<InstantSpec> part(int q, InstantSpec acc, Context ctx, boolean anchored) {
        if (q >= size) {
            return null;
        }
        Hit<InstantSpec> best = null;
        Hit<ClockTime> t = time(q, acc, ctx, anchored);
        if (t != null) {
            InstantSpec s = new InstantSpec();
            s.time = t.value();
            best = longest(best, new Hit<>(s, t.end()));
        }
        best = longest(best, sharedPart(q, acc, ctx, anchored));
        if (acc.time != null || acc.date != null) {
            boolean paren = sym(q, '(');
            Hit<java.time.ZoneId> z = zone(paren ? q + 1 : q);
            if (z != null && (!paren || sym(z.end(), ')'))) {
                InstantSpec s = new InstantSpec();
                s.zone = z.value();
                best = longest(best, new Hit<>(s, paren ? z.end() + 1 : z.end()));
            }
        }
        return best;
    }

    private int skipDot(int i) {
        return sym(i, '.') && adjacent(i) ? i + 1 : i;
    }

    // ---- durations and offsets --------------------------------------------------------------

    /** A whole number under 20 said as a word ("seven"), from the lexicon; not the article "a". */
    private Integer smallCardinal(int i) {
        if (word(i, "a", "an")) {
            return null;
        }
        Meaning.Amount a = meaningAt(i, Meaning.Amount.class);
        return a != null && a.value() < 20 && a.value() == Math.rint(a.value()) ? (int) a.value() : null;
    }

    /** A multiple of ten said as a word ("twenty", "forty"), from the lexicon. */
    private Integer tens(int i) {
        Meaning.Amount a = meaningAt(i, Meaning.Amount.class);
        return a != null && a.value() >= 20 && a.value() < 100 && a.value() % 10 == 0 ? (int) a.value() : null;
    }

    private Hit<Integer> cardinal(int i) {
        if (num(i)) {
            return new Hit<>(value(i), i + 1);
        }
        if (i >= size || !tok(i).isWord()) {
            return null;
        }
        Integer c = smallCardinal(i);
        if (c != null) {
            return new Hit<>(c, i + 1);
        }
        Integer tens = tens(i);
        if (tens != null) {
            int j = sym(i + 1, '-') ? i + 2 : i + 1;
            Integer unit = j < size && tok(j).isWord() ? smallCardinal(j) : null;
            if (unit != null && unit >= 1 && unit <= 9) {
                return new Hit<>(tens + unit, j + 1);
            }
            return new Hit<>(tens, i + 1);
        }
        return null;
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

    private int oclock(int i) {
        if (word(i, "o'clock", "oclock")) {
            return i + 1;
        }
        if (word(i, "o") && word(i + 1, "clock")) {
            return i + 2;
        }
        return -1;
    }

    /** An hour written as a number or a word, 0-24. */
    private Hit<Integer> hourNumber(int i) {
        if (num(i)) {
            Token t = tok(i);
            return t.text().length() <= 2 && t.value() <= 24 ? new Hit<>(t.value(), i + 1) : null;
        }
        Hit<Integer> c = cardinal(i);
        return c != null && c.value() >= 1 && c.value() <= 12 ? c : null;
    }

    private Hit<ClockTime> time(int i, InstantSpec acc, Context ctx, boolean anchored) {
        if (i >= size) {
            return null;
        }
        Hit<ClockTime> t = clock(i, acc, ctx, anchored);
        if (t == null) {
            return null;
        }
        ClockTime c = t.value();
        int end = t.end();
        Hit<Meridiem> m = meridiem(end);
        if (m != null && c.meridiem() == Meridiem.NONE) {
            if (c.hour() < 1 || c.hour() > 12) {
                return null;
            }
            c = c.withMeridiem(m.value());
            end = m.end();
        } else if (c.hour() == 12 && c.meridiem() == Meridiem.NONE && word(end, "noon")) {
            c = c.withMeridiem(Meridiem.PM);
            end++;
        } else if (c.hour() == 12 && c.meridiem() == Meridiem.NONE && word(end, "midnight")) {
            c = new ClockTime(24, c.minute(), 0, Meridiem.NONE, true, c.grain());
            end++;
        }
        int o = oclock(end);
        if (o > 0) {
            end = o;
            Hit<Meridiem> after = meridiem(end);
            if (after != null && c.meridiem() == Meridiem.NONE && c.hour() >= 1 && c.hour() <= 12) {
                c = c.withMeridiem(after.value()); // "4 o'clock am"
                end = after.end();
            }
        }
        if (word(end, "sharp")) {
            end++;
        }
        if (word(end, "ish") && adjacent(end)) {
            end++; // "230ish": about then
        } else if (sym(end, '-') && word(end + 1, "ish") && adjacent(end) && adjacent(end + 1)) {
            end += 2;
        }
        return new Hit<>(c, end);
    }

    /** {@code 14h45}, {@code 7h05}, {@code 10h}: hours and minutes on a 24-hour clock. */
    private Hit<ClockTime> hClock(int i) {
        if (!num(i) || tok(i).text().length() > 2 || value(i) > 24 || !word(i + 1, "h") || !adjacent(i + 1)) {
            return null;
        }
        int hour = value(i);
        if (num(i + 2) && adjacent(i + 2) && tok(i + 2).text().length() == 2 && value(i + 2) < 60) {
            return new Hit<>(new ClockTime(hour, value(i + 2), 0, Meridiem.NONE, true, Grain.MINUTE), i + 3);
        }
        return new Hit<>(new ClockTime(hour, 0, 0, Meridiem.NONE, true, Grain.HOUR), i + 2);
    }

    /** Minutes said after an hour: "eleven fifteen", "7 30", "six oh five"; null when there are none. */
    private Hit<Integer> spokenMinutes(int i, boolean digits) {
        if (word(i, "oh", "o") && !word(i + 1, "clock")) {
            Hit<Integer> c = cardinal(i + 1);
            return c != null && c.value() >= 1 && c.value() <= 9 && !num(i + 1) ? c : null;
        }
        if (digits) {
            return num(i) && tok(i).text().length() == 2 && value(i) < 60 ? new Hit<>(value(i), i + 1) : null;
        }
        if (num(i)) {
            return null;
        }
        Hit<Integer> c = cardinal(i);
        return c != null && c.value() >= 10 && c.value() <= 59 ? c : null;
    }

    private Hit<ClockTime> clock(int i, InstantSpec acc, Context ctx, boolean anchored) {
        if (word(i, "noon", "midday", "noonish", "middayish")) {
            return new Hit<>(new ClockTime(12, 0, 0, Meridiem.PM, true, Grain.HOUR), i + 1);
        }
        if (word(i, "midnight")) {
            return new Hit<>(new ClockTime(24, 0, 0, Meridiem.NONE, true, Grain.HOUR), i + 1);
        }
        Hit<ClockTime> relative = relativeClock(i, ctx, anchored);
        if (relative != null) {
            return relative;
        }
        Hit<ClockTime> digital = digitalTime(i);
        if (digital != null) {
            return digital;
        }
        Hit<ClockTime> hours = hClock(i);
        if (hours != null) {
            return hours;
        }
        if (num(i) && sym(i + 1, '.') && num(i + 2) && adjacent(i + 1) && adjacent(i + 2)) {
            Token h = tok(i);
            Token m = tok(i + 2);
            if (h.text().length() <= 2
                    && h.value() >= 1
                    && h.value() <= 12
                    && m.text().length() == 2
                    && m.value() < 60
                    && (meridiem(i + 3) != null || anchored)) {
                return new Hit<>(ClockTime.of(h.value(), m.value(), Grain.MINUTE), i + 3);
            }
        }
        if (num(i) && (tok(i).text().length() == 3 || tok(i).text().length() == 4)) {
            int v = value(i);
            int h = v / 100;
            int m = v % 100;
            boolean marked = meridiem(i + 1) != null || word(i + 1, "hours", "hrs");
            if (h <= 24 && m < 60 && (anchored || marked) && !(tok(i).text().length() == 4 && h >= 19 && !anchored)) {
                ClockTime c = new ClockTime(
                        h, m, 0, Meridiem.NONE, tok(i).text().startsWith("0") || h == 0 || h > 12, Grain.MINUTE);
                return new Hit<>(c, word(i + 1, "hours", "hrs") ? i + 2 : i + 1);
            }
            return null;
        }
        Hit<Integer> h = hourNumber(i);
        if (h == null) {
            return null;
        }
        int end = h.end();
        Hit<Integer> minutes = h.value() <= 12 ? spokenMinutes(end, num(i)) : null;
        if (minutes != null) {
            // "eleven fifteen pm", "at 11 40", "at six thirty"
            boolean said = meridiem(minutes.end()) != null
                    || partOfDayFollows(minutes.end())
                    || (num(i) ? anchored : anchored || ctx == Context.INTERVAL || lenient);
            if (said && !(num(i) && sym(minutes.end(), ':'))) {
                return new Hit<>(ClockTime.of(h.value(), minutes.value(), Grain.MINUTE), minutes.end());
            }
        }
        boolean marked = meridiem(end) != null
                || oclock(end) > 0
                || (h.value() == 12 && word(end, "noon", "midnight"))
                || ishFollows(end)
                || partOfDayFollows(end);
        boolean allowed = marked
                || anchored
                || ctx == Context.INTERVAL && num(i)
                || ((acc.date != null || acc.partOfDay != null) && num(i) && bareHourFollows(end))
                || (num(i) && acc.isEmpty() && dayFollows(end));
        if (!allowed || (!num(i) && !marked && !anchored && ctx != Context.INTERVAL)) {
            return null;
        }
        if (num(i) && !marked && ctx == Context.INTERVAL && !anchored && h.value() == 0) {
            return null;
        }
        return new Hit<>(ClockTime.of(h.value(), 0, Grain.HOUR), end);
    }

    /** "8 tomorrow", "9 on Monday": a bare number right before a day is its hour. */
    private boolean dayFollows(int end) {
        int j = word(end, "on") ? end + 1 : end;
        return j < size
                && tok(j).isWord()
                && ((meaningAt(j) instanceof Meaning.Day d && d.days() == 1)
                        || word(j, "today", "tonight", "tonite")
                        || (meaningAt(j) instanceof Meaning.Weekdays w && !w.plural()));
    }

    /** After a date, a bare number is an hour only when nothing suggests it counts something. */
    private boolean bareHourFollows(int end) {
        if (end >= size) {
            return true;
        }
        Token t = tok(end);
        if (t.kind() == Token.Kind.SYMBOL) {
            return !t.isSymbol('/') && !t.isSymbol('.') && !t.isSymbol(':') || t.isSymbol('.') && end + 1 == size;
        }
        return t.isWord()
                && Set.of(
                                "in",
                                "at",
                                "to",
                                "and",
                                "until",
                                "till",
                                "tonight",
                                "today",
                                "tomorrow",
                                "pst",
                                "utc",
                                "gmt",
                                "est",
                                "edt",
                                "pdt",
                                "cet",
                                "ist",
                                "idt",
                                "bst",
                                "o'clock",
                                "sharp",
                                "ish",
                                "please",
                                "for")
                        .contains(t.text());
    }

    /** {@code quarter to 12}, {@code half past 3}, {@code 10 past 6}, {@code twenty to five}. */
    private Hit<ClockTime> relativeClock(int i, Context ctx, boolean anchored) {
        int minutes;
        int j;
        boolean counted = false;
        int q = word(i, "a") ? i + 1 : i;
        if (word(q, "quarter")) {
            minutes = 15;
            j = q + 1;
        } else if (word(i, "half")) {
            Hit<Integer> hour = word(i + 1, "past", "after") ? null : hourNumber(i + 1);
            if (hour != null && unit(hour.end()) == null && !word(hour.end(), "of", "a", "an")) {
                // "half four": half past four, as the British say it
                return new Hit<>(ClockTime.of(hour.value(), 30, Grain.MINUTE), hour.end());
            }
            minutes = 30;
            j = i + 1;
        } else {
            Hit<Integer> c = cardinal(i);
            if (c == null
                    || c.value() < 1
                    || c.value() > 59
                    || (num(i) && tok(i).text().length() > 2)) {
                return null;
            }
            minutes = c.value();
            j = c.end();
            if (word(j, "minutes", "minute", "mins", "min")) {
                j++;
                counted = true;
            }
        }
        boolean past = word(j, "past", "after");
        boolean to = word(j, "to", "till", "til", "before", "of");
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
        boolean twentyFour = false;
        if (word(j + 1, "noon")) {
            h = 12;
            end = j + 2;
        } else if (word(j + 1, "midnight")) {
            h = 24;
            twentyFour = true;
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
        boolean noon = word(j + 1, "noon");
        return new Hit<>(
                new ClockTime(
                        noon && !past ? 11 : hour,
                        minute,
                        0,
                        Meridiem.NONE,
                        noon || twentyFour || hour > 12 || hour == 0,
                        Grain.MINUTE),
                end); // "quarter past noon" is 12:15, on the 24-hour clock
    }

    // ---- parts of the day -------------------------------------------------------------------

    /**
     * "8 tonight", "nine this evening", "7 in the evening", "11 at night": a bare number that a part of
     * the day makes an hour.
     */
    private boolean partOfDayFollows(int end) {
        return word(end, "tonight", "tonite", "2night", "2nite")
                || (word(end, "in") && word(end + 1, "the") && partNamed(end + 2) != null)
                || (word(end, "this") && partNamed(end + 1) != null)
                || (word(end, "at") && word(end + 1, "night"));
    }

    /** "5ish", "5-ish": about then, which makes a bare number an hour. */
    private boolean ishFollows(int end) {
        return (word(end, "ish") && adjacent(end))
                || (sym(end, '-') && word(end + 1, "ish") && adjacent(end) && adjacent(end + 1));
    }

    // ---- recurrences ------------------------------------------------------------------------

    /** The seam of clocks: a recurrence's time is read by this grammar's clock until English clocks are the engine's. */
    @Override
    Hit<InstantSpec> recurrenceClock(int i, boolean anchored, RecurrenceBuilder r) {
        boolean at = sym(i, '@');
        InstantSpec ctx = new InstantSpec();
        ctx.partOfDay = r.partOfDay;
        Hit<ClockTime> t = time(at ? i + 1 : i, ctx, Context.FREE, at || anchored);
        if (t == null) {
            return null;
        }
        InstantSpec s = new InstantSpec();
        s.time = t.value();
        return new Hit<>(s, t.end());
    }
}
