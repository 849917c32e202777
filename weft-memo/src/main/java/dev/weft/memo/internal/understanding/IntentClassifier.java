package dev.weft.memo.internal.understanding;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import opennlp.tools.doccat.DoccatModel;
import opennlp.tools.doccat.DocumentCategorizerME;

/**
 * Memo's intent classifier: the model {@link IntentTraining} made when the module was built, asked
 * for the intents of a request's words with their probabilities. Thread-safe; the model is read once
 * per process.
 */
public final class IntentClassifier {
    /** An intent and how probable the model finds it. */
    public record Scored(Intent intent, double probability) {
        public Scored {
            Objects.requireNonNull(intent, "intent");
        }
    }

    /** The intents of one request, most probable first. */
    public record Classification(List<Scored> ranked) {
        public Classification {
            ranked = List.copyOf(ranked);
            if (ranked.isEmpty()) {
                throw new IllegalArgumentException("a classification ranks at least one intent");
            }
        }

        public Intent top() {
            return ranked.get(0).intent();
        }

        public double confidence() {
            return ranked.get(0).probability();
        }

        /** The probability of {@code intent}. */
        public double probability(Intent intent) {
            return ranked.stream()
                    .filter(s -> s.intent() == intent)
                    .mapToDouble(Scored::probability)
                    .findFirst()
                    .orElse(0);
        }

        /** The probability that the request is one Memo does not do, whatever its topic. */
        public double outOfScope() {
            return ranked.stream()
                    .filter(s -> s.intent().outOfScope())
                    .mapToDouble(Scored::probability)
                    .sum();
        }
    }

    private static final class Holder {
        static final DoccatModel MODEL = load();
    }

    private final ThreadLocal<DocumentCategorizerME> categorizer =
            ThreadLocal.withInitial(() -> new DocumentCategorizerME(Holder.MODEL));

    /** The classifier on the model built into the jar. */
    public static IntentClassifier create() {
        return new IntentClassifier();
    }

    private IntentClassifier() {}

    /** The intents of a request's words ({@link Utterances#tokens}). */
    public Classification classify(List<String> words) {
        DocumentCategorizerME me = categorizer.get();
        double[] probabilities = me.categorize(words.toArray(String[]::new));
        List<Scored> ranked = new ArrayList<>(probabilities.length);
        for (int i = 0; i < probabilities.length; i++) {
            int at = i;
            Intent intent = Intent.ofLabel(me.getCategory(i))
                    .orElseThrow(() -> new IllegalStateException(
                            "the intent model knows '" + me.getCategory(at) + "', which Memo does not"));
            ranked.add(new Scored(intent, probabilities[i]));
        }
        ranked.sort(Comparator.comparingDouble(Scored::probability).reversed());
        return new Classification(ranked);
    }

    private static DoccatModel load() {
        try (InputStream in = IntentClassifier.class.getResourceAsStream(IntentTraining.MODEL)) {
            if (in == null) {
                throw new IllegalStateException("Memo's intent model (" + IntentTraining.MODEL + ") is missing from"
                        + " the class path; build weft-memo with Maven, whose process-classes phase trains it");
            }
            return new DoccatModel(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
