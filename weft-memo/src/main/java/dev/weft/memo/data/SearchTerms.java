package dev.weft.memo.data;

import dev.weft.language.Folding;
import dev.weft.language.Forms;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The words a text is found by, the same for what is stored and what is asked: each word folded by
 * the language layer ({@link Folding}), and each Hebrew word also without the prefix letters it may
 * carry ({@link Forms#withoutPrefixes}), so that "בפרויקט" and "והפרויקט" both find "פרויקט". English
 * words are stemmed by the database (SQLite's porter tokenizer, PostgreSQL's english configuration).
 * Stateless.
 */
public final class SearchTerms {
    /** Words that say nothing about what a memory is about, in questions and in memories. */
    private static final Set<String> STOP = Set.of(
            "the", "a", "an", "to", "my", "of", "for", "about", "with", "and", "or", "on", "in", "at", "is", "are",
            "was", "were", "be", "it", "that", "this", "i", "me", "you", "what", "did", "do", "does", "say", "said",
            "think", "thought", "know", "any", "some", "את", "של", "עמ", "על", "זה", "זאת", "אני", "מה", "כל", "גמ",
            "לא", "כנ", "יש", "אינ", "הוא", "היא", "שלי");

    private SearchTerms() {}

    /** The folded words of {@code text}, in order, stop words left out. */
    public static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        for (String word : Folding.fold(text).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty() && !STOP.contains(word)) {
                words.add(word);
            }
        }
        return words;
    }

    /** Each form {@code word} (folded) may be found by: itself, and a Hebrew word without its prefixes. */
    public static Set<String> forms(String word) {
        Set<String> forms = new LinkedHashSet<>();
        for (String form : Forms.withoutPrefixes(word)) {
            if (forms.isEmpty() || form.length() >= 3 && !STOP.contains(form)) {
                forms.add(form);
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
}
