package dev.weft.time.internal;

import dev.weft.time.internal.Meaning.Amount;
import dev.weft.time.internal.Meaning.Month;
import dev.weft.time.internal.Meaning.Ordinal;
import dev.weft.time.internal.Meaning.Role;
import dev.weft.time.internal.Meaning.Unit;
import java.time.DayOfWeek;
import java.time.temporal.ChronoUnit;
import java.util.EnumSet;
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
    }

    @Override
    Set<Engine.Family> families() {
        return EnumSet.of(
                Engine.Family.PERIODS,
                Engine.Family.DAYS_OF_RELATIVE_MONTHS,
                Engine.Family.NAMED_DAYS,
                Engine.Family.MONTHS_IN_YEARS);
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
