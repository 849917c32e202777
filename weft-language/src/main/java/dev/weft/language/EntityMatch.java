package dev.weft.language;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Finding the thing a person named among their things (a task, an event, a list, an item, a memory)
 * by the words they used, in either language: words are compared {@link Folding folded} and without
 * Hebrew prefix letters ("להתקשר לדנה" finds "התקשר לדנה"); a word that starts a word of the candidate
 * counts half; a name matches across scripts ({@link Names}: "דנה" finds "Call Dana"); and a phrase the
 * {@link Lexicon} knows is also tried in the other language ("רופא השיניים" finds "Dentist"). The best
 * candidates are those sharing most of the query's words, at least half of them. Stateless.
 */
public final class EntityMatch {
    private static final Set<String> STOP = Set.of(
            "the", "a", "an", "to", "my", "of", "for", "about", "with", "and", "on", "in", "at", "את", "של", "עם",
            "על");

    private EntityMatch() {}

    /** The candidates that match {@code query} best, in their order; empty when none matches enough of it. */
    public static <T> List<T> best(String query, List<T> candidates, Function<T, String> text) {
        List<String> words = words(query);
        if (words.isEmpty() || candidates.isEmpty()) {
            return List.of();
        }
        List<List<String>> queries = new ArrayList<>();
        queries.add(words);
        for (String translated : Lexicon.translations(query)) {
            List<String> other = words(translated);
            if (!other.isEmpty() && !other.equals(words)) {
                queries.add(other);
            }
        }
        double top = 0;
        List<Scored<T>> scored = new ArrayList<>();
        for (T candidate : candidates) {
            String said = text.apply(candidate);
            List<String> candidateWords = words(said);
            double best = 0;
            for (List<String> q : queries) {
                if (candidateWords.equals(q)) {
                    return List.of(candidate);
                }
                best = Math.max(best, score(q, candidateWords) / Math.max(1.0, q.size() / 2.0));
            }
            if (best > 0) {
                scored.add(new Scored<>(candidate, best));
                top = Math.max(top, best);
            }
        }
        double best = top;
        // Enough of the query must be there: half its words, or the only one.
        if (best < 1.0 - 1e-9) {
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
            } else if (candidate.stream().anyMatch(c -> Names.sameName(word, c))) {
                score += 1;
            } else if (word.length() >= 3
                    && candidate.stream().anyMatch(c -> c.startsWith(word) || word.startsWith(c) && c.length() >= 3)) {
                score += 0.5;
            }
        }
        return score;
    }

    /**
     * The words of {@code text} that carry meaning, for comparison: folded, without stop words, each
     * Hebrew word without all the prefix letters it may carry.
     */
    public static List<String> words(String text) {
        Set<String> words = new LinkedHashSet<>();
        for (Token token : Tokens.of(text)) {
            String folded = token.folded();
            if (folded.isEmpty() || STOP.contains(folded)) {
                continue;
            }
            List<String> forms = Forms.withoutPrefixes(folded);
            words.add(forms.get(forms.size() - 1));
        }
        return List.copyOf(words);
    }
}
