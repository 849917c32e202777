package dev.weft.memo.data;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The summary Memo makes of memories without a model: their sentences scored by how many of the
 * memories share each of their words (what the memories keep coming back to), the best few kept in
 * the order they were said. Stateless.
 */
final class ExtractiveSummary {
    private ExtractiveSummary() {}

    private record Sentence(String text, int order, double score) {}

    /** At most {@code sentences} sentences of {@code memories} (oldest first), one a line; empty for none. */
    static String of(List<Memory> memories, int sentences) {
        List<List<String>> split = new ArrayList<>();
        Map<String, Integer> spread = new HashMap<>();
        for (Memory memory : memories) {
            List<String> parts = new ArrayList<>();
            for (String part : memory.content().split("(?<=[.!?])\\s+|\\n+|;\\s*")) {
                if (!part.isBlank()) {
                    parts.add(part.strip());
                }
            }
            split.add(parts);
            Set<String> words = new HashSet<>();
            for (String word : SearchTerms.words(memory.content())) {
                words.addAll(SearchTerms.forms(word));
            }
            words.forEach(w -> spread.merge(w, 1, Integer::sum));
        }
        List<Sentence> scored = new ArrayList<>();
        int order = 0;
        for (List<String> parts : split) {
            for (String part : parts) {
                List<String> words = SearchTerms.words(part);
                double score = 0;
                for (String word : words) {
                    score += spread.getOrDefault(word, 1);
                }
                scored.add(new Sentence(part, order++, words.isEmpty() ? 0 : score / Math.sqrt(words.size())));
            }
        }
        List<Sentence> best = scored.stream()
                .sorted(Comparator.comparingDouble(Sentence::score).reversed().thenComparingInt(Sentence::order))
                .limit(sentences)
                .sorted(Comparator.comparingInt(Sentence::order))
                .toList();
        List<String> lines = new ArrayList<>();
        for (Sentence sentence : best) {
            lines.add("- " + sentence.text());
        }
        return String.join("\n", lines);
    }
}
