package dev.weft.memo.internal.understanding;

import dev.weft.language.Forms;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import opennlp.tools.doccat.FeatureGenerator;

/**
 * The features the intent classifier weighs for a request's words ({@link Utterances#tokens}): each
 * word, each pair of neighbours, the first word and pair (imperatives and question words lead),
 * Hebrew words without their prefix letters (the language layer's {@link Forms}: "בשמונה", "לרשימה"), letter triples of
 * each word (misspellings and word forms share most of them), and whether the request says a time
 * or asks a question. Stateless and thread-safe; public with a constructor of no arguments because
 * the model names it and makes it when loaded.
 */
public final class IntentFeatures implements FeatureGenerator {
    @Override
    public Collection<String> extractFeatures(String[] text, Map<String, Object> extraInformation) {
        return features(List.of(text));
    }

    static Set<String> features(List<String> words) {
        Set<String> features = new LinkedHashSet<>();
        String previous = "<s>";
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            features.add("w=" + word);
            features.add("b=" + previous + "_" + word);
            previous = word;
            if (word.equals("TIME") || word.equals("NUM") || word.equals("EMAIL")) {
                features.add("has=" + word);
                continue;
            }
            for (String stem : stems(word)) {
                features.add("s=" + stem);
            }
            String marked = "^" + word + "$";
            if (word.length() >= 3) {
                for (int j = 0; j + 3 <= marked.length(); j++) {
                    features.add("c=" + marked.substring(j, j + 3));
                }
            }
        }
        features.add("b=" + previous + "_</s>");
        if (!words.isEmpty()) {
            features.add("first=" + words.get(0));
            if (words.size() > 1) {
                features.add("first2=" + words.get(0) + "_" + words.get(1));
            }
            features.add("last=" + words.get(words.size() - 1));
        }
        features.add("len=" + Math.min(words.size(), 8) / 3);
        return features;
    }

    /** A Hebrew word without the prefix letters it may carry ({@link Forms#withoutPrefixes}), at most two. */
    static List<String> stems(String word) {
        List<String> forms = Forms.withoutPrefixes(word);
        return forms.size() <= 1 ? List.of() : forms.subList(1, Math.min(forms.size(), 3));
    }
}
