package dev.weft.time.internal;

import dev.weft.time.internal.Meaning.Month;
import dev.weft.time.internal.Meaning.Role;
import java.time.DayOfWeek;
import java.util.EnumSet;
import java.util.Set;

/**
 * Hebrew for the {@link Engine}: the words of the families the engine reads for Hebrew (the others are
 * still read by {@link HebrewGrammar}). What is Hebrew's own here: a word is found with or without
 * the prefix letters written before it (ו ב ל ה מ כ ש), as in "במרץ", "האידים", "ולמרץ".
 */
final class HebrewLexicon extends Lexicon {

    private static final String[] MONTHS = {
        "ינואר", "פברואר", "מרץ", "אפריל", "מאי", "יוני", "יולי", "אוגוסט", "ספטמבר", "אוקטובר", "נובמבר", "דצמבר"
    };

    /** Built after the tables above, which it reads. */
    static final HebrewLexicon INSTANCE = new HebrewLexicon();

    private HebrewLexicon() {
        for (int m = 1; m <= 12; m++) {
            words(new Month(m), MONTHS[m - 1]);
        }
        words(new Month(3), "מרס");
        role(Role.LINK, "של");
        words(Meaning.NamedDay.IDES, "אידי", "אידים", "אידוס", "האידוס");
        words(Meaning.NamedDay.NONES, "נונות", "נונס");
        words(new Meaning.Unit(java.time.temporal.ChronoUnit.WEEKS), "שבוע");
        words(new Meaning.Unit(java.time.temporal.ChronoUnit.MONTHS), "חודש");
        words(new Meaning.Unit(java.time.temporal.ChronoUnit.YEARS), "שנה");
        role(Role.NEXT, "הבא", "הבאה", "הקרוב", "הקרובה", "שבא", "שבאה");
        role(Role.THIS, "הזה", "הזאת", "הזו", "הנוכחי", "הנוכחית");
        role(Role.LAST, "שעבר", "שעברה", "הקודם", "הקודמת", "שחלף", "שחלפה", "האחרון", "האחרונה");
        role(Role.AFTER, "אחרי");
        role(Role.WEEKEND, "סופ\"ש", "סופש");
        // "סוף שבוע" is the weekend; "סוף השבוע", with the article, the end of the week
        phrase(Role.WEEKEND, "סוף שבוע", "בסוף שבוע", "לסוף שבוע", "מסוף שבוע", "עד סוף שבוע");
        role(Role.BEFORE, "לפני");
        role(Role.QUARTER, "רבעון");
        role(Role.EVERY, "כל");
        String[] days = {"שני", "שלישי", "רביעי", "חמישי", "שישי", "שבת", "ראשון"};
        for (int d = 1; d <= 7; d++) {
            phrase(new Meaning.Weekdays(java.util.List.of(DayOfWeek.of(d)), false), "יום " + days[d - 1]);
        }
        String[] ordinals = {"הראשון", "השני", "השלישי", "הרביעי"};
        for (int n = 1; n <= ordinals.length; n++) {
            words(new Meaning.Ordinal(n), ordinals[n - 1]);
        }
        // Tu B'Av, 15 Av, and the Seder night, the eve of Passover (months numbered as ICU4J's HebrewCalendar)
        phrase(new Meaning.Holiday(new DateRef.HebrewDate(11, 15, 0)), "חג האהבה", "ט\"ו באב", "טו באב");
        phrase(new Meaning.Holiday(new DateRef.HebrewDate(7, 14, 0)), "ליל הסדר", "ליל סדר");
        phrase(Role.THIS_TIME, "בזמן הזה", "בשעה זו", "בשעה הזאת", "בשעה הזו", "באותה שעה", "בזמן הזה בדיוק");
    }

    @Override
    boolean definite(String word) {
        return word.length() > 2 && word.charAt(0) == 'ה' && super.meaning(word) == null;
    }

    @Override
    Meaning meaning(String word) {
        Meaning m = super.meaning(word);
        for (int k = 0; m == null && k < 2 && k < word.length() - 2; k++) {
            if (Tokenizer.HEBREW_PREFIX_LETTERS.indexOf(word.charAt(k)) < 0) {
                break;
            }
            m = super.meaning(word.substring(k + 1));
        }
        return m;
    }

    /** The families of the engine this language reads, computed once. */
    private static final Set<Engine.Family> FAMILIES = EnumSet.of(
            Engine.Family.DAYS,
            Engine.Family.NAMED_DAYS,
            Engine.Family.DAYS_OF_RELATIVE_MONTHS,
            Engine.Family.QUARTERS_OF_YEARS,
            Engine.Family.HOLIDAYS,
            Engine.Family.RECURRENCES);

    @Override
    Set<Engine.Family> families() {
        return FAMILIES;
    }

    @Override
    DayOfWeek weekStart() {
        return DayOfWeek.SUNDAY;
    }

    @Override
    boolean dayFirst() {
        return true;
    }

    @Override
    boolean clock24() {
        return true;
    }
}
