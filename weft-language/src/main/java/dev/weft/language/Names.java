package dev.weft.language;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A name across scripts: "דנה" and "Dana", "מיכל" and "Michal", "יוסי" and "Yossi" are the same name.
 * Both are read as a skeleton of consonant classes (the letters Hebrew writes; vowels dropped, except
 * that a name opening with a vowel says so), with the classes that Hebrew and English spell apart
 * made one: ב/v/w, כ/ק/k/c/ch, ח (h or ch), ט/ת/t/th, ס/ש/s/sh, צ/tz/ts, פ/p/f/ph. A Hebrew ו or י
 * inside a word may be a vowel or a consonant, so a Hebrew word has a few skeletons. Stateless.
 */
public final class Names {
    /** The class of a consonant that is either h or k (ח: "Hana", "Chaim"). */
    private static final char EITHER_H_OR_K = 'X';

    /** An opening vowel (א, ע, or a Latin vowel first). */
    private static final char OPENING_VOWEL = 'A';

    private Names() {}

    /**
     * Whether {@code a} and {@code b} — one word in Hebrew letters and one in Latin letters — are the
     * same name. Two words in the same script are never matched here (that is spelling, not
     * transliteration); a skeleton of fewer than two classes is too short to tell and matches nothing.
     */
    public static boolean sameName(String a, String b) {
        boolean hebrewA = Folding.hasHebrew(a);
        boolean hebrewB = Folding.hasHebrew(b);
        if (hebrewA == hebrewB) {
            return false;
        }
        String fa = Folding.fold(a);
        String fb = Folding.fold(b);
        String hebrew = hebrewA ? fa : fb;
        String latin = hebrewA ? fb : fa;
        if (!Folding.hasLatin(latin)) {
            return false;
        }
        String latinSkeleton = latinSkeleton(latin);
        // One class ("Noa": N) tells a name only when the word is not shorter than a name.
        if (latinSkeleton.isEmpty() || latinSkeleton.length() < 2 && latin.length() < 3) {
            return false;
        }
        for (String form : Forms.withoutPrefixes(hebrew)) {
            for (String skeleton : hebrewSkeletons(form)) {
                if (same(skeleton, latinSkeleton)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean same(String hebrew, String latin) {
        if (hebrew.length() != latin.length()) {
            return false;
        }
        for (int i = 0; i < hebrew.length(); i++) {
            char h = hebrew.charAt(i);
            char l = latin.charAt(i);
            if (h != l && !(h == EITHER_H_OR_K && (l == 'H' || l == 'K'))) {
                return false;
            }
        }
        return true;
    }

    /** The skeleton of a word in Latin letters ("Michal" → "MKL", "Omer" → "AMR"). */
    static String latinSkeleton(String word) {
        String w = word.replaceAll("[^a-z]", "");
        StringBuilder out = new StringBuilder();
        int i = 0;
        if (!w.isEmpty() && "aeiou".indexOf(w.charAt(0)) >= 0) {
            out.append(OPENING_VOWEL);
        }
        while (i < w.length()) {
            char c = w.charAt(i);
            char next = i + 1 < w.length() ? w.charAt(i + 1) : 0;
            char cls;
            int step = 1;
            if ((c == 'c' || c == 'k') && next == 'h'
                    || c == 's' && next == 'h'
                    || c == 't' && next == 'h'
                    || c == 'p' && next == 'h') {
                cls = switch (c) {
                    case 's' -> 'S';
                    case 't' -> 'T';
                    case 'p' -> 'P';
                    default -> 'K';
                };
                step = 2;
            } else if ((c == 't' && (next == 'z' || next == 's'))) {
                cls = 'C';
                step = 2;
            } else {
                cls = switch (c) {
                    case 'b', 'v', 'w' -> 'B';
                    case 'c', 'k', 'q' -> 'K';
                    case 'g' -> 'G';
                    case 'd' -> 'D';
                    case 'h' -> i == 0 || "aeiouy".indexOf(next) >= 0 ? 'H' : 0;
                    case 'z' -> 'Z';
                    case 't' -> 'T';
                    case 'y' -> i == 0 && next != 0 && "aeiou".indexOf(next) >= 0 ? 'Y' : 0;
                    case 'j' -> 'J';
                    case 'l' -> 'L';
                    case 'm' -> 'M';
                    case 'n' -> 'N';
                    case 's' -> 'S';
                    case 'p', 'f' -> 'P';
                    case 'r' -> 'R';
                    case 'x' -> 'K';
                    default -> 0;
                };
            }
            if (cls != 0 && (out.isEmpty() || out.charAt(out.length() - 1) != cls)) {
                out.append(cls);
            }
            i += step;
        }
        return out.toString();
    }

    /** The skeletons a word in Hebrew letters may have ("דוד" → "DD" or "DBD"). */
    static Set<String> hebrewSkeletons(String word) {
        List<StringBuilder> skeletons = new ArrayList<>();
        skeletons.add(new StringBuilder());
        String w = word.replaceAll("[^\\u05D0-\\u05EA]", "");
        if (!w.isEmpty() && (w.charAt(0) == 'א' || w.charAt(0) == 'ע')) {
            skeletons.get(0).append(OPENING_VOWEL);
        }
        for (int i = 0; i < w.length() && skeletons.size() <= 16; i++) {
            char c = w.charAt(i);
            boolean first = i == 0;
            boolean last = i == w.length() - 1;
            char cls = switch (c) {
                case 'ב' -> 'B';
                case 'ג' -> 'G';
                case 'ד' -> 'D';
                case 'ה' -> last ? 0 : 'H';
                case 'ז' -> 'Z';
                case 'ח' -> EITHER_H_OR_K;
                case 'ט', 'ת' -> 'T';
                case 'כ', 'ק' -> 'K';
                case 'ל' -> 'L';
                case 'מ' -> 'M';
                case 'נ' -> 'N';
                case 'ס', 'ש' -> 'S';
                case 'פ' -> 'P';
                case 'צ' -> 'C';
                case 'ר' -> 'R';
                default -> 0;
            };
            if (c == 'ו' || c == 'י') {
                char consonant = c == 'ו' ? 'B' : 'Y';
                if (first) {
                    append(skeletons, consonant);
                } else if (!last && i + 1 < w.length() && w.charAt(i + 1) != c) {
                    // A vowel letter or a consonant: both readings.
                    List<StringBuilder> more = new ArrayList<>();
                    for (StringBuilder s : skeletons) {
                        StringBuilder copy = new StringBuilder(s);
                        appendOne(copy, consonant);
                        more.add(copy);
                    }
                    skeletons.addAll(more);
                } else if (i + 1 < w.length() && w.charAt(i + 1) == c) {
                    // "וו", "יי": a consonant written double.
                    append(skeletons, consonant);
                    i++;
                }
                continue;
            }
            if (cls != 0) {
                append(skeletons, cls);
            }
        }
        Set<String> out = new LinkedHashSet<>();
        for (StringBuilder s : skeletons) {
            out.add(s.toString());
        }
        return out;
    }

    private static void append(List<StringBuilder> skeletons, char cls) {
        for (StringBuilder s : skeletons) {
            appendOne(s, cls);
        }
    }

    private static void appendOne(StringBuilder s, char cls) {
        if (s.isEmpty() || s.charAt(s.length() - 1) != cls) {
            s.append(cls);
        }
    }
}
