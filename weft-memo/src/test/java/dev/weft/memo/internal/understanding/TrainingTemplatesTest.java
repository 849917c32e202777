package dev.weft.memo.internal.understanding;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The classifier's templates hold none of the sentences it is measured on: a line of a test set that
 * moves into a template stops measuring anything (issue #37 found 19 such lines and removed them).
 */
final class TrainingTemplatesTest {
    private static final Path SETS = Path.of("src/test/resources/understanding");
    private static final Pattern SYNTAX = Pattern.compile("[\\[\\](){}]");

    @Test
    void noTemplateLineIsALineOfATestSet() throws IOException {
        for (String language : List.of("en", "he")) {
            Set<String> measured = new HashSet<>();
            for (String set : List.of("heldout", "fresh", "untuned", "spoken")) {
                measured.addAll(messages(SETS.resolve(set + "-" + language + ".jsonl")));
            }
            List<String> overlap = new ArrayList<>();
            String templates = new String(
                    TrainingSet.class
                            .getResourceAsStream("intents-" + language + ".txt")
                            .readAllBytes(),
                    java.nio.charset.StandardCharsets.UTF_8);
            for (String line : templates.split("\n")) {
                String t = line.strip();
                if (!t.isEmpty()
                        && !t.startsWith("#")
                        && !t.startsWith("$")
                        && !SYNTAX.matcher(t).find()
                        && measured.contains(normal(t))) {
                    overlap.add(t);
                }
            }
            assertThat(overlap)
                    .as("template lines of intents-" + language + ".txt that are test lines")
                    .isEmpty();
        }
    }

    @Test
    void noGeneratedSentenceIsALineOfTheUntunedOrSpokenSets() throws IOException {
        for (String language : List.of("en", "he")) {
            Set<String> untuned = new HashSet<>(messages(SETS.resolve("untuned-" + language + ".jsonl")));
            untuned.addAll(messages(SETS.resolve("spoken-" + language + ".jsonl")));
            List<String> overlap = TrainingSet.of("intents-" + language + ".txt").stream()
                    .map(e -> normal(e.text()))
                    .filter(untuned::contains)
                    .distinct()
                    .toList();
            assertThat(overlap).as("generated sentences that are untuned lines").isEmpty();
        }
    }

    private static Set<String> messages(Path file) throws IOException {
        Set<String> messages = new HashSet<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                JsonNode node = Json.parse(line, file.toString());
                messages.add(normal(node.get("message").asText()));
            }
        }
        return messages;
    }

    /** Case, punctuation and spacing set aside. */
    private static String normal(String text) {
        return String.join(
                " ",
                text.toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N}\\s]", "")
                        .strip()
                        .split("\\s+"));
    }
}
