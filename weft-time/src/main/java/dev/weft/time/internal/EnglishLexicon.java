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
 * English for the {@link Engine}: the words of the families the engine reads for English (the others
 * are still read by {@link EnglishGrammar}, which moves to the engine family by family).
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
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"
    };

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
        for (int n = 1; n <= CARDINALS.length; n++) {
            words(new Amount(n), CARDINALS[n - 1]);
        }
        words(new Amount(1), "a", "an");
        words(new Amount(20), "twenty");
        words(new Amount(30), "thirty");
        ordinalEndings("st", "nd", "rd", "th");
        words(new Unit(ChronoUnit.DAYS), "day", "days");
        words(new Unit(ChronoUnit.WEEKS), "week", "weeks", "wk", "wks");
        words(new Unit(ChronoUnit.MONTHS), "month", "months", "mo", "mos");
        words(new Unit(ChronoUnit.YEARS), "year", "years", "yr", "yrs");
        role(Role.LINK, "the", "of");
        role(Role.IN, "in");
        role(Role.NEXT, "next", "upcoming", "coming", "following");
        role(Role.LAST, "last", "previous", "past", "preceding");
        role(Role.THIS, "this", "current", "present");
        words(Meaning.NamedDay.IDES, "ides");
        words(Meaning.NamedDay.NONES, "nones");
        role(Role.AFTER, "after");
        role(Role.ON, "on", "at", "over");
        role(Role.WEEKEND, "weekend");
        role(Role.BEFORE, "before");
        role(Role.QUARTER, "quarter", "qtr");
        role(Role.EVERY, "every", "each");
        words(new Meaning.Often(Frequency.MONTHLY, 3), "quarterly");
        words(new Meaning.Length(2, ChronoUnit.WEEKS), "fortnight");
        String[][] days = {
            {"monday", "mon"},
            {"tuesday", "tue", "tues"},
            {"wednesday", "wed"},
            {"thursday", "thu", "thur", "thurs"},
            {"friday", "fri"},
            {"saturday", "sat"},
            {"sunday", "sun"}
        };
        for (int d = 1; d <= 7; d++) {
            words(new Meaning.Weekdays(List.of(DayOfWeek.of(d)), false), days[d - 1]);
        }
        phrase(Role.NOW, "right this minute", "this very minute", "this very moment");
        words(new Meaning.Part(PartOfDay.EVENING, false), "dinnertime", "suppertime");
        phrase(new Meaning.Holiday(new DateRef.CalendarDate(0, 2, 29)), "leap day");
        phrase(new Meaning.Holiday(new DateRef.CalendarDate(0, 5, 1)), "may day");
        phrase(new Meaning.Holiday(new DateRef.CalendarDate(0, 3, 14)), "pi day");
        phrase(
                new Meaning.Holiday(new DateRef.CalendarDate(0, 11, 5)),
                "guy fawkes night",
                "guy fawkes day",
                "bonfire night");
        phrase(new Meaning.Holiday(new DateRef.CalendarDate(0, 7, 14)), "bastille day");
    }

    @Override
    Set<Engine.Family> families() {
        return EnumSet.of(
                Engine.Family.DAYS,
                Engine.Family.PERIODS,
                Engine.Family.PARTS_OF_DAY,
                Engine.Family.DAYS_OF_RELATIVE_MONTHS,
                Engine.Family.NAMED_DAYS,
                Engine.Family.MONTHS_IN_YEARS,
                Engine.Family.QUARTERS_OF_YEARS,
                Engine.Family.WEEKDAY_WEEKS,
                Engine.Family.HOLIDAYS,
                Engine.Family.RECURRENCES);
    }

    @Override
    boolean bareWeekendOnlyAlone() {
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
