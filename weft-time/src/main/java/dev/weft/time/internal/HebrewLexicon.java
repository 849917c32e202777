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
        phrase(Role.THIS_TIME, "בזמן הזה", "בשעה זו", "בשעה הזאת", "בשעה הזו", "באותה שעה", "בזמן הזה בדיוק");
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

    @Override
    Set<Engine.Family> families() {
        return EnumSet.of(Engine.Family.DAYS, Engine.Family.NAMED_DAYS);
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
