package dev.weft.memo.internal.understanding;

import dev.weft.time.Language;
import dev.weft.time.TimeParser;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import opennlp.tools.doccat.DoccatFactory;
import opennlp.tools.doccat.DoccatModel;
import opennlp.tools.doccat.DocumentCategorizerME;
import opennlp.tools.doccat.DocumentSample;
import opennlp.tools.doccat.FeatureGenerator;
import opennlp.tools.util.ObjectStreamUtils;
import opennlp.tools.util.TrainingParameters;

/**
 * Trains Memo's intent classifier from the English and Hebrew templates ({@link TrainingSet}) and
 * writes it beside them, as the module's build does ({@code process-classes}): {@code java
 * IntentTraining CLASSES_DIR}. A model made from the same templates and classes is left as it is.
 */
public final class IntentTraining {
    static final String[] TEMPLATES = {"intents-en.txt", "intents-he.txt"};
    static final String MODEL = "intents.bin";

    private IntentTraining() {}

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: IntentTraining CLASSES_DIR");
            System.exit(2);
        }
        Path dir =
                Path.of(args[0]).resolve(IntentTraining.class.getPackageName().replace('.', '/'));
        Path model = dir.resolve(MODEL);
        if (upToDate(model, dir)) {
            System.out.println("[intents] " + model + " is up to date");
            return;
        }
        long started = System.nanoTime();
        List<DocumentSample> samples = samples();
        DoccatModel trained = train(samples);
        try (OutputStream out = Files.newOutputStream(model)) {
            trained.serialize(out);
        }
        Files.writeString(model.resolveSibling(MODEL + ".sha256"), digest(dir) + "\n");
        System.out.printf(
                "[intents] trained on %d sentences in %.1f s: %s%n",
                samples.size(), (System.nanoTime() - started) / 1e9, model);
    }

    /**
     * Whether {@code model} was made from these very templates and classes: the digest of their bytes
     * is kept beside it ({@code intents.bin.sha256}), so a build that recompiles the module without
     * changing them does not train again.
     */
    private static boolean upToDate(Path model, Path dir) throws IOException {
        Path kept = model.resolveSibling(MODEL + ".sha256");
        return Files.exists(model)
                && Files.exists(kept)
                && Files.readString(kept).strip().equals(digest(dir));
    }

    private static String digest(Path dir) throws IOException {
        java.security.MessageDigest sha;
        try {
            sha = java.security.MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        List<String> inputs = new ArrayList<>(List.of(TEMPLATES));
        for (Class<?> type : List.of(IntentTraining.class, TrainingSet.class, Utterances.class, IntentFeatures.class)) {
            inputs.add(type.getSimpleName() + ".class");
        }
        for (String input : inputs) {
            Path file = dir.resolve(input);
            if (Files.exists(file)) {
                sha.update(Files.readAllBytes(file));
            }
        }
        // The times found in each sentence are words of it ("TIME"), so a weft-time that reads other
        // times makes another model: its classes are inputs too.
        moduleClasses(sha, dev.weft.time.TimeParser.class);
        // So is the language layer: its prefixes make features, its typo list makes words.
        moduleClasses(sha, dev.weft.language.Forms.class);
        return java.util.HexFormat.of().formatHex(sha.digest());
    }

    /**
     * Feeds {@code sha} the bytes of the classes and word lists of the module that holds {@code type}
     * (weft-time, weft-language), in the order of their names, from its jar or directory.
     */
    private static void moduleClasses(java.security.MessageDigest sha, Class<?> type) throws IOException {
        java.net.URL where = type.getProtectionDomain().getCodeSource().getLocation();
        Path source;
        try {
            source = Path.of(where.toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException("weft-time's classes are not at a path: " + where, e);
        }
        java.util.TreeMap<String, byte[]> classes = new java.util.TreeMap<>();
        if (Files.isDirectory(source)) {
            try (var files = Files.walk(source)) {
                for (Path file : files.filter(f ->
                                f.toString().endsWith(".class") || f.toString().endsWith(".tsv"))
                        .toList()) {
                    classes.put(source.relativize(file).toString(), Files.readAllBytes(file));
                }
            }
        } else {
            try (var jar = new java.util.jar.JarFile(source.toFile())) {
                for (var entry : java.util.Collections.list(jar.entries())) {
                    if (entry.getName().endsWith(".class") || entry.getName().endsWith(".tsv")) {
                        try (var in = jar.getInputStream(entry)) {
                            classes.put(entry.getName(), in.readAllBytes());
                        }
                    }
                }
            }
        }
        // What a request asks (RequestActs and its cues) guards plans after the classifier and is never a
        // feature of it: a change to its words makes no other model.
        classes.keySet().removeIf(name -> name.contains("RequestActs") || name.endsWith("acts.tsv"));
        for (var entry : classes.entrySet()) {
            sha.update(entry.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            sha.update(entry.getValue());
        }
    }

    /** Every template's sentences, read as the classifier reads a request (times found in it). */
    static List<DocumentSample> samples() {
        TimeParser time = TimeParser.create();
        ZonedDateTime now = ZonedDateTime.parse("2026-01-14T10:00:00+02:00[Asia/Jerusalem]");
        List<DocumentSample> samples = new ArrayList<>();
        Map<Intent, Integer> counts = new EnumMap<>(Intent.class);
        for (String template : TEMPLATES) {
            Language language = template.contains("-he") ? Language.HEBREW : Language.ENGLISH;
            for (TrainingSet.Example example : TrainingSet.of(template)) {
                String text = Utterances.withoutLead(example.text());
                List<String> words = Utterances.tokens(text, Utterances.times(time, text, now, language));
                if (!words.isEmpty()) {
                    samples.add(new DocumentSample(example.intent().label(), words.toArray(String[]::new)));
                    counts.merge(example.intent(), 1, Integer::sum);
                }
            }
        }
        for (Intent intent : Intent.values()) {
            if (!counts.containsKey(intent)) {
                throw new IllegalStateException("no template says intent '" + intent.label() + "'");
            }
        }
        return samples;
    }

    static DoccatModel train(List<DocumentSample> samples) throws IOException {
        TrainingParameters parameters = new TrainingParameters();
        parameters.put(TrainingParameters.ALGORITHM_PARAM, "MAXENT_QN");
        parameters.put(TrainingParameters.CUTOFF_PARAM, 1);
        parameters.put(TrainingParameters.ITERATIONS_PARAM, 300);
        parameters.put("L2Cost", 0.5);
        parameters.put(TrainingParameters.THREADS_PARAM, 1);
        DoccatFactory factory = new DoccatFactory(new FeatureGenerator[] {new IntentFeatures()});
        return DocumentCategorizerME.train("mul", ObjectStreamUtils.createObjectStream(samples), parameters, factory);
    }
}
