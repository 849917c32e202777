package dev.weft.language;

import java.text.Normalizer;
import java.util.Locale;

/**
 * Text as it is compared, the same in both languages: lower case, without accents or niqqud, without
 * apostrophes, geresh and gershayim ("what's" is "whats", "ג'קט" is "גקט", "צה״ל" is "צהל"), and
 * Hebrew final letters written as inner ones (ך ם ן ף ץ as כ מ נ פ צ), so that a word found with a
 * prefix taken off or a suffix added is still the same word. Stateless.
 */
public final class Folding {
    private Folding() {}

    /** {@code text} folded for comparison, trimmed. */
    public static String fold(String text) {
        String lower = text.toLowerCase(Locale.ROOT);
        String decomposed = isPlain(lower) ? lower : Normalizer.normalize(lower, Normalizer.Form.NFD);
        StringBuilder out = new StringBuilder(decomposed.length());
        for (int i = 0; i < decomposed.length(); i++) {
            char c = decomposed.charAt(i);
            if (Character.getType(c) == Character.NON_SPACING_MARK || isQuote(c)) {
                continue;
            }
            out.append(plainLetter(c));
        }
        return out.toString().strip();
    }

    /** A Hebrew final letter as its inner form; any other character as it is. */
    public static char plainLetter(char c) {
        return switch (c) {
            case 'ך' -> 'כ';
            case 'ם' -> 'מ';
            case 'ן' -> 'נ';
            case 'ף' -> 'פ';
            case 'ץ' -> 'צ';
            default -> c;
        };
    }

    /** Whether {@code c} is a Hebrew letter (א to ת, finals included; not niqqud or punctuation). */
    public static boolean isHebrewLetter(int c) {
        return c >= 0x05D0 && c <= 0x05EA;
    }

    /** Whether {@code text} has a Hebrew letter. */
    public static boolean hasHebrew(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            if (isHebrewLetter(text.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code text} has a Latin letter. */
    public static boolean hasLatin(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x0250 && Character.isLetter(c)) {
                return true;
            }
        }
        return false;
    }

    static boolean isQuote(char c) {
        return c == '\'' || c == '’' || c == '‘' || c == '"' || c == '׳' || c == '״' || c == '`';
    }

    /** Plain ASCII with no Hebrew needs no decomposition: the common case, kept cheap. */
    private static boolean isPlain(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
