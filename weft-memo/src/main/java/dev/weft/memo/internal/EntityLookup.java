package dev.weft.memo.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Finding a user's task, list or item by the words they used (seed 002's QueryResolver): words are
 * compared after folding case and accents, Hebrew final letters and the one-letter prefixes (ה, ו, ב,
 * ל, מ, ש, כ — "להתקשר לדנה" finds "התקשר לדנה" and "לדנה" finds "דנה"); a word of the query that is
 * the start of a word of the candidate counts half. The best candidates are the ones sharing most of
 * the query's words. Stateless.
 */
public final class EntityLookup {
    private static final String PREFIXES = "הובלמשכ";
    private static final Set<String> STOP = Set.of(
            "the", "a", "an", "to", "my", "of", "for", "about", "with", "and", "on", "in", "at", "את", "של", "עם",
            "על");

    private EntityLookup() {}

    /** The candidates that match {@code query} best, in their order; empty when none shares a word with it. */
    public static <T> List<T> best(String query, List<T> candidates, Function<T, String> text) {
        List<String> words = words(query);
        if (words.isEmpty()) {
            return List.of();
        }
        double top = 0;
        List<Scored<T>> scored = new ArrayList<>();
        for (T candidate : candidates) {
            String whole = fold(text.apply(candidate));
            if (whole.equals(String.join(" ", words))) {
                return List.of(candidate);
            }
            double score = score(words, words(text.apply(candidate)));
            if (score > 0) {
                scored.add(new Scored<>(candidate, score));
                top = Math.max(top, score);
            }
        }
        double best = top;
        // Enough of the query must be there: half its words, or the only one.
        if (best < Math.max(1.0, words.size() / 2.0)) {
            return List.of();
        }
        return scored.stream()
                .filter(s -> s.score() >= best - 1e-9)
                .sorted(Comparator.comparingDouble(Scored<T>::score).reversed())
                .map(Scored::value)
                .toList();
    }

    private record Scored<T>(T value, double score) {}

    private static double score(List<String> query, List<String> candidate) {
        double score = 0;
        for (String word : query) {
            if (candidate.contains(word)) {
                score += 1;
            } else if (word.length() >= 3
                    && candidate.stream().anyMatch(c -> c.startsWith(word) || word.startsWith(c) && c.length() >= 3)) {
                score += 0.5;
            }
        }
        return score;
    }

    /** The words of {@code text} that carry meaning, folded for comparison. */
    static List<String> words(String text) {
        Set<String> words = new LinkedHashSet<>();
        for (String raw : fold(text).split("[^\\p{L}\\p{N}$]+")) {
            if (raw.isEmpty() || STOP.contains(raw)) {
                continue;
            }
            words.add(stem(raw));
        }
        return List.copyOf(words);
    }

    /** A Hebrew word without its one-letter prefixes (while at least two letters remain). */
    private static String stem(String word) {
        String w = word;
        while (w.length() > 2 && PREFIXES.indexOf(w.charAt(0)) >= 0 && isHebrew(w.charAt(1))) {
            w = w.substring(1);
        }
        return w;
    }

    private static boolean isHebrew(char c) {
        return c >= '\u05D0' && c <= '\u05EA';
    }

    /** Lower case, no accents or niqqud, Hebrew final letters as their plain forms. */
    static String fold(String text) {
        return dev.weft.memo.data.SearchTerms.fold(text);
    }
}
