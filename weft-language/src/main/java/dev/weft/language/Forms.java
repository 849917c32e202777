package dev.weft.language;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The forms a word may be matched under. A Hebrew word is also itself without the one-letter words
 * written onto its front — ו ה ב ל מ ש כ and their combinations ("וכשהגעתי", "מהבית", "ולדנה") — where
 * ו comes only first and ה never follows ב, ל or כ (which swallow it: "בבית" is "ב"+"הבית"), and at
 * least two letters stay; for matching a thing by its name, also without a plural or feminine ending.
 * An English word is also itself without a plural ending. Stateless.
 */
public final class Forms {
    private static final String PREFIXES = "והבלמשכ";
    private static final int MOST_PREFIXES = 3;

    private Forms() {}

    /**
     * The {@link Folding#fold folded} word, then the word without each run of prefix letters it may
     * carry, shortest cut first ("ובבית" → "ובבית", "בבית", "בית"). A word that is not Hebrew has one form.
     */
    public static List<String> withoutPrefixes(String word) {
        String folded = Folding.fold(word);
        List<String> forms = new ArrayList<>(3);
        if (folded.isEmpty()) {
            return forms;
        }
        forms.add(folded);
        if (!Folding.isHebrewLetter(folded.charAt(0))) {
            return forms;
        }
        boolean preposition = false;
        for (int cut = 1; cut <= MOST_PREFIXES && folded.length() - cut >= 2; cut++) {
            char letter = folded.charAt(cut - 1);
            if (PREFIXES.indexOf(letter) < 0 || !Folding.isHebrewLetter(folded.charAt(cut))) {
                break;
            }
            if (letter == 'ו' && cut > 1) {
                break;
            }
            boolean isPreposition = "בלכמ".indexOf(letter) >= 0;
            if (isPreposition && preposition) {
                // Two of ב ל כ מ never stand together as prefixes: "לבוקר" is ל + "בוקר".
                break;
            }
            preposition |= isPreposition;
            if (letter == 'ה' && cut > 1 && "בלכ".indexOf(folded.charAt(cut - 2)) >= 0) {
                break;
            }
            forms.add(folded.substring(cut));
        }
        return forms;
    }

    /**
     * The word's forms for matching a thing by its name: {@link #withoutPrefixes}, and each of those
     * without a Hebrew plural (ים, ות) or feminine (ה) ending, or without an English plural (s, es).
     */
    public static Set<String> of(String word) {
        Set<String> forms = new LinkedHashSet<>(withoutPrefixes(word));
        if (forms.isEmpty()) {
            return forms;
        }
        String folded = forms.iterator().next();
        if (Folding.isHebrewLetter(folded.charAt(0))) {
            for (String f : List.copyOf(forms)) {
                if (f.length() > 4 && (f.endsWith("ימ") || f.endsWith("ות"))) {
                    forms.add(f.substring(0, f.length() - 2));
                }
                if (f.length() > 3 && f.endsWith("ה")) {
                    forms.add(f.substring(0, f.length() - 1));
                }
            }
        } else {
            if (folded.length() > 4 && folded.endsWith("es") && !folded.endsWith("ses")) {
                forms.add(folded.substring(0, folded.length() - 2));
            }
            if (folded.length() > 3 && folded.endsWith("s") && !folded.endsWith("ss")) {
                forms.add(folded.substring(0, folded.length() - 1));
            }
        }
        return forms;
    }

    /** Whether {@code word} is in {@code vocabulary} (a set of {@link #of} forms) under any of its forms. */
    public static boolean matches(String word, Set<String> vocabulary) {
        for (String form : of(word)) {
            if (vocabulary.contains(form)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@link #matches}, or — for a word of six letters or more — a {@link Typos#typoOf typo} of a word
     * of five letters or more in {@code vocabulary} ("headphons", "backpak").
     */
    public static boolean matchesLoosely(String word, Set<String> vocabulary) {
        if (matches(word, vocabulary)) {
            return true;
        }
        String folded = Folding.fold(word);
        if (folded.length() < 6) {
            return false;
        }
        for (String known : vocabulary) {
            if (known.length() >= 5 && Typos.typoOf(folded, known)) {
                return true;
            }
        }
        return false;
    }

    /** The forms of every word of {@code phrases}, for {@link #matches}. */
    public static Set<String> vocabulary(Iterable<String> phrases) {
        Set<String> vocabulary = new LinkedHashSet<>();
        for (String phrase : phrases) {
            for (Token token : Tokens.of(phrase)) {
                vocabulary.addAll(of(token.text()));
            }
        }
        return vocabulary;
    }
}
