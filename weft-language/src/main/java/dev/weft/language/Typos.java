package dev.weft.language;

import java.util.List;
import java.util.Map;

/**
 * Words as people mistype them: one letter off, two neighbours swapped, and the common slips and
 * short forms of chat and dictation in both languages, listed as data in {@code typos.tsv} ("tmrw",
 * "tommorow", "calender", "עכשו"). Stateless.
 */
public final class Typos {
    private static final Map<String, String> CORRECTIONS = Data.pairs("typos.tsv");

    private Typos() {}

    /** The word meant by a common slip or short form ({@link Folding#fold folded}), or the folded word itself. */
    public static String corrected(String word) {
        String folded = Folding.fold(word);
        return CORRECTIONS.getOrDefault(folded, folded);
    }

    /**
     * {@code text} with every common slip or short form written as the word meant, keeping everything
     * else as it was written ("remind me tmrw" → "remind me tomorrow"). A listed slip may stand for
     * several words ("wanna" → "want to"). A day's or a month's name written with a slip is the name
     * where a time stands ("remind me frday at 9", "on wensday", "ביום שלשי"; {@link MisspeltDateNames}).
     */
    public static String corrected(CharSequence text) {
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        String s = text.toString();
        List<Token> tokens = Tokens.of(s);
        for (int i = 0; i < tokens.size(); i++) {
            Token token = tokens.get(i);
            String meant = CORRECTIONS.get(Folding.fold(token.text()));
            if (meant == null) {
                meant = MisspeltDateNames.meant(tokens, i).orElse(null);
            }
            if (meant != null) {
                out.append(s, at, token.start()).append(meant);
                at = token.end();
            }
        }
        return at == 0 ? s : out.append(s, at, s.length()).toString();
    }

    /**
     * Whether {@code word} is {@code known} written with one slip: {@link #oneEditApart one letter off},
     * or two letters side by side swapped ("cancle" for "cancel"); never the word itself, nor a word
     * with digits (digits name ids and sizes, not words).
     */
    public static boolean typoOf(String word, String known) {
        if (word.equals(known) || word.chars().anyMatch(Character::isDigit)) {
            return false;
        }
        if (word.length() == known.length()) {
            int i = 0;
            while (i < word.length() && word.charAt(i) == known.charAt(i)) {
                i++;
            }
            if (i + 1 < word.length()
                    && word.charAt(i) == known.charAt(i + 1)
                    && word.charAt(i + 1) == known.charAt(i)
                    && word.substring(i + 2).equals(known.substring(i + 2))) {
                return true;
            }
        }
        return Math.abs(word.length() - known.length()) <= 1 && oneEditApart(word, known);
    }

    /** Whether {@code a} becomes {@code b} by one letter changed, added or taken away (or is {@code b}). */
    public static boolean oneEditApart(String a, String b) {
        if (a.equals(b)) {
            return true;
        }
        if (Math.abs(a.length() - b.length()) > 1) {
            return false;
        }
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        if (a.length() == b.length()) {
            return a.substring(i + 1).equals(b.substring(i + 1));
        }
        return a.length() > b.length()
                ? a.substring(i + 1).equals(b.substring(i))
                : a.substring(i).equals(b.substring(i + 1));
    }
}
