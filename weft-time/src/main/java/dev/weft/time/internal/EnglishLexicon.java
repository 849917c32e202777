package dev.weft.time.internal;

import dev.weft.time.TimeExpression.Recurrence.Frequency;
import dev.weft.time.internal.Meaning.Amount;
import dev.weft.time.internal.Meaning.Month;
import dev.weft.time.internal.Meaning.Ordinal;
import dev.weft.time.internal.Meaning.Role;
import dev.weft.time.internal.Meaning.Unit;
import java.time.DayOfWeek;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * English for the {@link Engine}: the words of every family, which the engine reads for English (there
 * is no English grammar of its own).
 */
final class EnglishLexicon extends Lexicon {

    private static final String[] MONTHS = {
        "january", "february", "march", "april", "may", "june",
        "july", "august", "september", "october", "november", "december"
    };

    private static final String[] ORDINALS = {
        "first",
        "second",
        "third",
        "fourth",
        "fifth",
        "sixth",
        "seventh",
        "eighth",
        "ninth",
        "tenth",
        "eleventh",
        "twelfth",
        "thirteenth",
        "fourteenth",
        "fifteenth",
        "sixteenth",
        "seventeenth",
        "eighteenth",
        "nineteenth",
        "twentieth"
    };

    private static final String[] CARDINALS = {
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen"
    };

    private static final String[] TENS = {"twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"};

    /** Built after the tables above, which it reads. */
    static final EnglishLexicon INSTANCE = new EnglishLexicon();

    private EnglishLexicon() {
        for (int m = 1; m <= 12; m++) {
            words(new Month(m), MONTHS[m - 1], MONTHS[m - 1].substring(0, 3));
        }
        words(new Month(9), "sept");
        for (int n = 1; n <= ORDINALS.length; n++) {
            words(new Ordinal(n), ORDINALS[n - 1]);
        }
        words(new Ordinal(30), "thirtieth");
        for (int n = 0; n < CARDINALS.length; n++) {
            words(new Amount(n), CARDINALS[n]);
        }
        words(new Amount(1), "a", "an");
        for (int t = 0; t < TENS.length; t++) {
            words(new Amount(20 + 10 * t), TENS[t]);
        }
        words(new Amount(40), "fourty");
        words(new Meaning.Some(2), "couple");
        words(new Meaning.Some(3), "few", "several");
        words(new Amount(0.5), "half");
        ordinalEndings("st", "nd", "rd", "th");
        // "second" is also an ordinal (above), its usual meaning; the rules of amounts ask for the unit
        words(new Unit(ChronoUnit.SECONDS), "second", "seconds", "sec", "secs");
        words(new Unit(ChronoUnit.MINUTES), "minute", "minutes", "min", "mins", "m");
        words(new Unit(ChronoUnit.HOURS), "hour", "hours", "hr", "hrs", "h");
        words(new Unit(ChronoUnit.DAYS), "day", "days");
        words(new Unit(ChronoUnit.WEEKS), "week", "weeks", "wk", "wks");
        words(new Unit(ChronoUnit.MONTHS), "month", "months", "mo", "mos");
        words(new Unit(ChronoUnit.YEARS), "year", "years", "yr", "yrs");
        role(Role.LINK, "the", "of");
        role(Role.IN, "in", "within");
        role(Role.FROM, "from");
        phrase(Role.AHEAD, "from now", "from right now", "from today");
        role(Role.AHEAD, "hence", "later");
        role(Role.AGO, "ago");
        phrase(Role.AGO, "before now");
        role(Role.ABOUT, "about", "around", "roughly", "approximately", "approx", "like", "just", "only");
        role(Role.MORE, "another");
        phrase(Role.MORE, "a further");
        role(Role.TIME, "time");
        phrase(Role.OR_SO, "or so", "or thereabouts");
        role(Role.OR_SO, "ish", "tops", "max");
        role(Role.NEXT, "next", "upcoming", "coming", "following");
        role(Role.LAST, "last", "previous", "past", "preceding", "final");
        role(Role.THIS, "this", "current", "present");
        role(Role.COMING, "coming", "following", "upcoming");
        role(Role.NEAREST, "closest", "nearest");
        role(Role.TO, "to");
        role(Role.UNTIL, "till", "til", "until", "through", "thru");
        phrase(Role.UNTIL, "up to", "ending"); // the end of a recurrence: "every day ending Friday"
        role(Role.BETWEEN, "between");
        // "next week's Friday", "an hour's drive"
        words(new Unit(ChronoUnit.WEEKS), "week's");
        words(new Unit(ChronoUnit.MINUTES), "minute's");
        words(new Unit(ChronoUnit.HOURS), "hour's");
        words(new Unit(ChronoUnit.DAYS), "day's");
        words(new Unit(ChronoUnit.MONTHS), "month's");
        words(new Unit(ChronoUnit.YEARS), "year's");
        role(Role.EXTRA, "more", "additional", "extra");
        role(Role.LASTING, "for", "lasting", "takes", "taking");
        phrase(Role.FROM, "starting at");
        role(Role.AND, "and");
        phrase(Role.AND_A_HALF, "and a half");
        words(Meaning.NamedDay.IDES, "ides");
        words(Meaning.NamedDay.NONES, "nones");
        role(Role.AFTER, "after");
        role(Role.IN, "after"); // "after 2 hours" is 2 hours from now
        role(Role.AT, "at");
        role(Role.ON, "on", "at", "over", "for", "during");
        role(Role.AT, "around", "approximately", "approx"); // a bare number after them is an hour; not after "about"
        phrase(Role.ALL_DAY, "all day", "the whole day", "whole day", "the entire day", "entire day");
        role(Role.REST, "rest", "remainder");
        phrase(Role.END, "end of");
        phrase(Role.START, "beginning of", "start of");
        phrase(Role.MIDDLE, "middle of");
        role(Role.MIDDLE, "mid");
        role(Role.OCLOCK, "o'clock", "oclock");
        phrase(Role.OCLOCK, "o clock");
        // the last day of this month, week, year, named by a word as a holiday is
        words(new Meaning.Holiday(new DateRef.EndOf(new DateRef.PeriodRef(dev.weft.time.Grain.MONTH, 0))), "eom");
        words(new Meaning.Holiday(new DateRef.EndOf(new DateRef.PeriodRef(dev.weft.time.Grain.WEEK, 0))), "eow");
        words(new Meaning.Holiday(new DateRef.EndOf(new DateRef.PeriodRef(dev.weft.time.Grain.YEAR, 0))), "eoy");
        phrase(Role.BEFORE, "leading up to");
        role(Role.WEEKEND, "weekend");
        role(Role.BEFORE, "before");
        role(Role.QUARTER, "quarter", "qtr", "quarters", "qtrs", "q");
        role(Role.EVERY, "every", "each");
        phrase(Role.EVERY, "every single", "each single");
        role(Role.ONCE, "once");
        role(Role.PER, "per");
        role(Role.OTHER, "other");
        words(new Meaning.Often(Frequency.MONTHLY, 3), "quarterly");
        words(new Meaning.Often(Frequency.DAILY), "daily", "everyday");
        words(new Meaning.Often(Frequency.DAILY, 1, PartOfDay.NIGHT), "nightly");
        words(new Meaning.Often(Frequency.WEEKLY), "weekly");
        words(new Meaning.Often(Frequency.WEEKLY, 2), "biweekly", "fortnightly");
        words(new Meaning.Often(Frequency.MONTHLY), "monthly");
        words(new Meaning.Often(Frequency.YEARLY), "yearly", "annually");
        words(new Meaning.Often(Frequency.HOURLY), "hourly");
        List<DayOfWeek> workWeek =
                List.of(DayOfWeek.MONDAY, DayOfWeek.TUESDAY, DayOfWeek.WEDNESDAY, DayOfWeek.THURSDAY, DayOfWeek.FRIDAY);
        words(new Meaning.Weekdays(workWeek, true), "weekdays");
        words(new Meaning.Weekdays(workWeek, false), "weekday", "workday");
        phrase(new Meaning.Weekdays(workWeek, false), "business day", "working day", "work day");
        words(new Meaning.Length(2, ChronoUnit.WEEKS), "fortnight", "fortnights");
        String[][] days = {
            {"monday", "mon"},
            {"tuesday", "tue", "tues"},
            {"wednesday", "wed", "weds"},
            {"thursday", "thu", "thur", "thurs"},
            {"friday", "fri"},
            {"saturday", "sat"},
            {"sunday", "sun"}
        };
        for (int d = 1; d <= 7; d++) {
            words(new Meaning.Weekdays(List.of(DayOfWeek.of(d)), false), days[d - 1]);
            words(new Meaning.Weekdays(List.of(DayOfWeek.of(d)), true), days[d - 1][0] + "s");
        }
        phrase(Role.NOW, "right this minute", "this very minute", "this very moment");
        days();
        words(new Meaning.Part(PartOfDay.EVENING, false), "dinnertime", "suppertime");
        holidays();
        role(Role.EVE, "erev");
        phrase(new Meaning.Holiday(new DateRef.CalendarDate(0, 2, 29)), "leap day");
        phrase(new Meaning.Holiday(new DateRef.CalendarDate(0, 5, 1)), "may day");
        phrase(new Meaning.Holiday(new DateRef.CalendarDate(0, 3, 14)), "pi day");
        phrase(
                new Meaning.Holiday(new DateRef.CalendarDate(0, 11, 5)),
                "guy fawkes night",
                "guy fawkes day",
                "bonfire night");
        phrase(new Meaning.Holiday(new DateRef.CalendarDate(0, 7, 14)), "bastille day");
        clocks(); // last: its words ("before", "past") mean something else first
    }

    /**
     * The words of clock times: noon and midnight, the minutes before or after an hour ("quarter to
     * 12", "ten past six"), "oh" in "nine oh five", "sharp", "h" in "14h45", and the words after
     * which a bare number said after a day is still its hour ("Friday 9 at the office").
     */
    private void clocks() {
        words(new Meaning.Clock(12), "noon", "midday", "noonish", "middayish");
        words(new Meaning.Clock(24), "midnight");
        role(Role.PAST_HOUR, "past", "after");
        role(Role.TO_HOUR, "to", "till", "til", "before", "of");
        role(Role.OH, "oh", "o");
        role(Role.SHARP, "sharp");
        role(Role.HOUR_MARK, "h");
        role(Role.LINK, "a", "an"); // an article: "a quarter to", never the hour one
        wordsAfterBareHour(
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
                "for");
    }

    /** Days counted from today, now, and the words that name a part of today or a time of it. */
    private void days() {
        words(new Meaning.Day(0), "today", "todays", "today's", "tday");
        words(
                new Meaning.Day(1),
                "tomorrow",
                "tmrw",
                "tmr",
                "tmrow",
                "tomorow",
                "tommorow",
                "tommorrow",
                "tomorrw",
                "tomorrows",
                "tomorrow's",
                "tmorrow",
                "tomoro",
                "tomorro",
                "tomrrow",
                "tomarrow",
                "tommorows");
        words(new Meaning.Day(-1), "yesterday", "yesterdays", "yesterday's", "yday", "yest");
        role(Role.NOW, "now", "immediately", "asap", "atm", "rn", "currently", "presently");
        phrase(Role.NOW, "right now", "right away", "at the moment", "at this moment", "this moment", "as of now");
        phrase(Role.NOW, "at present");
        phrase(Role.THIS_TIME, "this time", "same time", "at this time", "at the time");
        words(new Meaning.DayPart(0, PartOfDay.EVENING), "tonight", "tonite", "tonights", "tonight's", "2night");
        phrase(new Meaning.DayPart(-1, PartOfDay.NIGHT), "last night");
        phrase(new Meaning.Part(PartOfDay.MORNING, false), "first thing"); // "first thing tomorrow"
        words(new Meaning.Part(PartOfDay.NOON, false), "lunchtime", "lunch");
        partNames(PartOfDay.MORNING, "morning");
        partNames(PartOfDay.AFTERNOON, "afternoon");
        partNames(PartOfDay.EVENING, "evening");
        partNames(PartOfDay.NIGHT, "night");
        phrase(new Meaning.Part(PartOfDay.NIGHT, false), "at night", "late night", "early night");
        phrase(new Meaning.Part(PartOfDay.MORNING, false), "early morning", "late morning");
        phrase(new Meaning.Part(PartOfDay.AFTERNOON, false), "early afternoon", "late afternoon");
        phrase(new Meaning.Part(PartOfDay.EVENING, false), "early evening", "late evening");
        words(new Meaning.Clock(17), "eod", "cob"); // the end of the working day
        phrase(
                new Meaning.Clock(17),
                "by eod",
                "by cob",
                "end of day",
                "end of the day",
                "the end of day",
                "the end of the day",
                "by end of day",
                "by end of the day",
                "by the end of day",
                "by the end of the day",
                "close of business",
                "the close of business",
                "by close of business",
                "by the close of business");
    }

    /** Weekday names that are first other words, read as weekdays only where the words around say so. */
    private static final Set<String> AMBIGUOUS_DAYS = Set.of("sun", "sat", "wed", "mon");

    @Override
    boolean notAWeekday(Engine e, int name, int end) {
        return AMBIGUOUS_DAYS.contains(e.tok(name).text())
                && !(e.word(name - 1, "on", "every", "by", "until", "till", "and")
                        || e.num(end)
                        || e.word(end, "at", "morning", "evening", "night", "afternoon"));
    }

    /** Month names that are also common words, read as months only in context. */
    private static final Set<String> AMBIGUOUS_MONTHS = Set.of("may", "march", "mar", "jan", "dec");

    /** Words after which an otherwise ambiguous month or weekday name is read as one. */
    private static final Set<String> DATE_CONTEXT = Set.of(
            "in", "of", "on", "by", "until", "till", "since", "from", "to", "between", "during", "next", "this", "last",
            "early", "late", "mid", "every", "each", "before", "after", "through", "and", "coming");

    @Override
    boolean notAMonth(Engine e, int name, int end) {
        return !e.lenient
                && AMBIGUOUS_MONTHS.contains(e.tok(name).text())
                && !(name > 0
                        && e.tok(name - 1).isWord()
                        && DATE_CONTEXT.contains(e.tok(name - 1).text()))
                && !e.year(end);
    }

    @Override
    ShortYears shortYears() {
        return ShortYears.SET_OFF;
    }

    @Override
    OrdinalsAlone ordinalsAlone() {
        return OrdinalsAlone.NUMBERS;
    }

    /** Words before "a 90-minute review" that make "90 minute" the length of what follows. */
    private static final Set<String> DETERMINERS = Set.of("a", "an", "one", "the", "my", "our", "your", "this", "that");

    private static final Set<String> SINGULAR_UNITS = Set.of("minute", "min", "hour", "hr", "day", "week", "second");

    /**
     * English's compounds of a length: "a 90-minute review", "a 2 hour call", "a half-hour call"
     * (the unit singular, before the thing); "an hour-long meeting", "two hours long".
     */
    @Override
    Hit<Offset> ownLength(Engine e, int i) {
        Hit<Double> a = e.word(i, "half") ? new Hit<>(0.5, i + 1) : e.amountAt(i);
        if (a != null) {
            boolean hyphen = e.sym(a.end(), '-') && e.adjacent(a.end()) && e.adjacent(a.end() + 1);
            int u = hyphen ? a.end() + 1 : a.end();
            boolean determiner = i > 0
                    && e.tok(i - 1).isWord()
                    && DETERMINERS.contains(e.tok(i - 1).text());
            if (u < e.size
                    && e.tok(u).isWord()
                    && SINGULAR_UNITS.contains(e.tok(u).text())
                    && (hyphen || determiner)) {
                ChronoUnit unit = meaning(e.tok(u).text(), Unit.class).unit();
                return new Hit<>(Grammar.fractional(a.value(), unit), u + 1);
            }
        }
        Hit<Offset> d = e.offsetAmount(i);
        if (d != null && e.sym(d.end(), '-') && e.word(d.end() + 1, "long")) {
            return new Hit<>(d.value(), d.end() + 2); // "an hour-long meeting"
        }
        return d != null && e.word(d.end(), "long") ? new Hit<>(d.value(), d.end() + 1) : null;
    }

    /**
     * Text-speak, where a digit says a syllable: "2morrow", "2nite", "2day"; and "just now", which is now only when it is the whole text (else "just" hedges what follows).
     */
    @Override
    Hit<InstantSpec> ownDay(Engine e, int i) {
        if (e.num(i) && e.value(i) == 2 && e.tok(i).text().length() == 1 && e.adjacent(i + 1)) {
            if (e.word(i + 1, "morrow", "moro", "morow", "mrw")) {
                return Grammar.withDate(new DateRef.RelativeDay(1), i + 2);
            }
            if (e.word(i + 1, "day")) {
                return Grammar.withDate(new DateRef.RelativeDay(0), i + 2);
            }
            if (e.word(i + 1, "nite", "nyt")) {
                InstantSpec s =
                        Grammar.withDate(new DateRef.RelativeDay(0), i + 2).value();
                s.partOfDay = PartOfDay.EVENING;
                s.thisPartOfDay = true;
                return new Hit<>(s, i + 2);
            }
        }
        if (e.lenient && e.word(i, "just") && e.word(i + 1, "now")) {
            InstantSpec s = new InstantSpec();
            s.now = true;
            return new Hit<>(s, i + 2);
        }
        return null;
    }

    /** Holidays, by their names: on a fixed day, the n-th weekday of a month, from Easter, from Thanksgiving. */
    private void holidays() {
        fixed(12, 25, "christmas", "xmas", "christmas day");
        fixed(12, 24, "christmas eve", "xmas eve");
        fixed(12, 26, "boxing day");
        fixed(12, 31, "new year's eve", "new years eve", "new year eve", "nye");
        fixed(1, 1, "new year's day", "new years day", "new year day", "new year's", "new years", "new year");
        fixed(2, 14, "valentine's day", "valentines day", "valentine's", "valentine day");
        fixed(10, 31, "halloween");
        fixed(3, 17, "st patrick's day", "saint patrick's day", "st patricks day");
        fixed(4, 1, "april fools day", "april fool's day", "april fools");
        fixed(7, 4, "independence day");
        fixed(11, 11, "veterans day", "veteran's day");
        nthWeekday(4, DayOfWeek.THURSDAY, 11, "thanksgiving", "thanksgiving day");
        nthWeekday(2, DayOfWeek.SUNDAY, 5, "mother's day", "mothers day");
        nthWeekday(3, DayOfWeek.SUNDAY, 6, "father's day", "fathers day");
        nthWeekday(-1, DayOfWeek.MONDAY, 5, "memorial day");
        nthWeekday(1, DayOfWeek.MONDAY, 9, "labor day", "labour day");
        nthWeekday(3, DayOfWeek.MONDAY, 1, "mlk day", "martin luther king day");
        nthWeekday(3, DayOfWeek.MONDAY, 2, "presidents day", "presidents' day", "president's day");
        nthWeekday(2, DayOfWeek.MONDAY, 10, "columbus day");
        fromEaster(0, "easter", "easter sunday", "easter day");
        fromEaster(1, "easter monday");
        fromEaster(-1, "easter saturday", "holy saturday");
        fromEaster(-2, "good friday");
        fromEaster(-3, "maundy thursday", "holy thursday");
        fromEaster(-7, "palm sunday");
        fromEaster(-46, "ash wednesday");
        fromEaster(-47, "shrove tuesday", "mardi gras", "pancake day");
        fromEaster(39, "ascension day");
        fromEaster(49, "pentecost", "whitsun", "whit sunday");
        fromEaster(50, "whit monday");
        fromThanksgiving(1, "black friday");
        fromThanksgiving(4, "cyber monday");
        jewish(0, 1, DateRef.Observance.EXACT, "rosh hashanah", "rosh hashana", "rosh hashonah", "rosh hashanna");
        jewish(0, 10, DateRef.Observance.EXACT, "yom kippur", "yom kipur");
        jewish(0, 15, DateRef.Observance.EXACT, "sukkot", "succot", "sukkos", "succoth");
        jewish(0, 22, DateRef.Observance.EXACT, "simchat torah", "simhat torah", "shemini atzeret", "shmini atzeret");
        jewish(
                2,
                25,
                DateRef.Observance.EXACT,
                "hanukkah",
                "chanukah",
                "hanukah",
                "channukah",
                "chanukkah",
                "hannukah",
                "chanuka",
                "hanuka");
        jewish(4, 15, DateRef.Observance.EXACT, "tu bishvat", "tu b'shvat", "tu bshvat", "tu b'shevat", "tu bishevat");
        jewish(6, 14, DateRef.Observance.EXACT, "purim");
        jewish(6, 15, DateRef.Observance.EXACT, "shushan purim");
        jewish(7, 15, DateRef.Observance.EXACT, "passover", "pesach", "pesah");
        jewish(8, 18, DateRef.Observance.EXACT, "lag baomer", "lag ba'omer", "lag b'omer", "lag bomer");
        jewish(8, 28, DateRef.Observance.EXACT, "jerusalem day", "yom yerushalayim");
        jewish(9, 6, DateRef.Observance.EXACT, "shavuot", "shavuos", "shavuoth");
        jewish(11, 9, DateRef.Observance.FAST, "tisha b'av", "tisha bav", "tisha be'av");
        jewish(11, 15, DateRef.Observance.EXACT, "tu b'av", "tu bav");
        jewish(
                8,
                5,
                DateRef.Observance.INDEPENDENCE,
                "yom haatzmaut",
                "yom ha'atzmaut",
                "israel independence day",
                "israeli independence day");
        jewish(
                8,
                5,
                DateRef.Observance.MEMORIAL,
                "yom hazikaron",
                "yom hazikkaron",
                "israel memorial day",
                "israeli memorial day");
        jewish(7, 27, DateRef.Observance.HOLOCAUST, "yom hashoah", "holocaust remembrance day", "holocaust day");
    }

    private void fixed(int month, int day, String... names) {
        phrase(new Meaning.Holiday(new DateRef.CalendarDate(0, month, day)), names);
    }

    private void nthWeekday(int n, DayOfWeek day, int month, String... names) {
        phrase(new Meaning.Holiday(new DateRef.NthWeekdayRef(n, day, new DateRef.MonthRef(month, 0, 0))), names);
    }

    /** Days counted from Western Easter Sunday. */
    private void fromEaster(int days, String... names) {
        phrase(new Meaning.Holiday(new DateRef.EasterRef(days, 0)), names);
    }

    /** Days counted from the fourth Thursday of November. */
    private void fromThanksgiving(int days, String... names) {
        DateRef thanksgiving = new DateRef.NthWeekdayRef(4, DayOfWeek.THURSDAY, new DateRef.MonthRef(11, 0, 0));
        phrase(new Meaning.Holiday(new DateRef.Shifted(thanksgiving, new Offset(days, ChronoUnit.DAYS))), names);
    }

    /** Jewish and Israeli holidays, on their day of the Hebrew calendar (ICU months: Tishri 0 … Elul 12). */
    private void jewish(int month, int day, DateRef.Observance observance, String... names) {
        phrase(new Meaning.Holiday(new DateRef.HebrewDate(month, day, 0, observance)), names);
    }

    /** The families of the engine this language reads, computed once. */
    private static final Set<Engine.Family> FAMILIES = EnumSet.of(
            Engine.Family.DAYS,
            Engine.Family.WEEKDAYS,
            Engine.Family.DATES,
            Engine.Family.PERIODS,
            Engine.Family.AMOUNTS,
            Engine.Family.CLOCKS,
            Engine.Family.PARTS_OF_DAY,
            Engine.Family.ZONES,
            Engine.Family.DAYS_OF_RELATIVE_MONTHS,
            Engine.Family.NAMED_DAYS,
            Engine.Family.MONTHS_IN_YEARS,
            Engine.Family.QUARTERS_OF_YEARS,
            Engine.Family.WEEKDAY_WEEKS,
            Engine.Family.HOLIDAYS,
            Engine.Family.RECURRENCES,
            Engine.Family.SPANS);

    @Override
    Set<Engine.Family> families() {
        return FAMILIES;
    }

    @Override
    boolean intervalWithoutFrom() {
        return true;
    }

    @Override
    boolean bareUnitIsOne() {
        return false;
    }

    @Override
    boolean bareWeekendOnlyAlone() {
        return true;
    }

    @Override
    boolean hoursAndMinutesInOneNumber() {
        return true;
    }

    @Override
    boolean halfBeforeHourIsPast() {
        return true;
    }

    @Override
    boolean bareHoursNextToDays() {
        return true;
    }

    @Override
    DayOfWeek weekStart() {
        return DayOfWeek.MONDAY;
    }

    @Override
    boolean dayFirst() {
        return false;
    }

    @Override
    boolean clock24() {
        return false;
    }
}
