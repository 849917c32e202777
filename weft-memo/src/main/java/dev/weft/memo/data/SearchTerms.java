package dev.weft.memo.data;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The words a text is found by, the same for what is stored and what is asked: lower case, no accents
 * or niqqud, Hebrew final letters as their plain forms, and each Hebrew word also without its
 * one-letter prefixes (ו ה ב ל מ ש כ, up to two of them, while three letters remain), so that
 * "בפרויקט" and "והפרויקט" both find "פרויקט". English words are stemmed by the database (SQLite's
 * porter tokenizer, PostgreSQL's english configuration). Stateless.
 */
public final class SearchTerms {
    private static final String PREFIXES = "והבלמשכ";

    /** Words that say nothing about what a memory is about, in questions and in memories. */
    private static final Set<String> STOP = Set.of(
            "the", "a", "an", "to", "my", "of", "for", "about", "with", "and", "or", "on", "in", "at", "is", "are",
            "was", "were", "be", "it", "that", "this", "i", "me", "you", "what", "did", "do", "does", "say", "said",
            "think", "thought", "know", "any", "some", "את", "של", "עם", "על", "זה", "זאת", "אני", "מה", "כל", "גם",
            "לא", "כן", "יש", "אין", "הוא", "היא", "שלי");

    private SearchTerms() {}

    /** Lower case, no accents or niqqud, Hebrew final letters as their plain forms. */
    public static String fold(String text) {
        String decomposed = Normalizer.normalize(text.toLowerCase(Locale.ROOT), Normalizer.Form.NFD)
                .replaceAll("\\p{M}+", "");
        StringBuilder out = new StringBuilder(decomposed.length());
        for (int i = 0; i < decomposed.length(); i++) {
            char c = decomposed.charAt(i);
            out.append(
                    switch (c) {
                        case 'ך' -> 'כ';
                        case 'ם' -> 'מ';
                        case 'ן' -> 'נ';
                        case 'ף' -> 'פ';
                        case 'ץ' -> 'צ';
                        default -> c;
                    });
        }
        return out.toString().trim();
    }

    /** The folded words of {@code text}, in order, stop words left out. */
    public static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        for (String word : fold(text).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty() && !STOP.contains(word)) {
                words.add(word);
            }
        }
        return words;
    }

    /** Each form {@code word} (folded) may be found by: itself, and a Hebrew word without its prefixes. */
    public static Set<String> forms(String word) {
        Set<String> forms = new LinkedHashSet<>();
        forms.add(word);
        String w = word;
        for (int stripped = 0;
                stripped < 2 && w.length() > 3 && PREFIXES.indexOf(w.charAt(0)) >= 0 && isHebrew(w.charAt(1));
                stripped++) {
            w = w.substring(1);
            if (!STOP.contains(w)) {
                forms.add(w);
            }
        }
        return forms;
    }

    /** What is indexed for {@code text}: every form of every word, space-separated. */
    public static String indexed(String text) {
        Set<String> terms = new LinkedHashSet<>();
        for (String word : words(text)) {
            terms.addAll(forms(word));
        }
        return String.join(" ", terms);
    }

    /** The terms a query is looked up by: every form of each of its words, each once. */
    public static List<String> queryTerms(String query) {
        Set<String> terms = new LinkedHashSet<>();
        for (String word : words(query)) {
            terms.addAll(forms(word));
        }
        return List.copyOf(terms);
    }

    private static boolean isHebrew(char c) {
        return c >= '\u05D0' && c <= '\u05EA';
    }
}
