package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Text that is not quite an expression never makes the parser throw: every beginning and every end
 * of every line of the corpora and the phrasebooks, read (whole, else searched) and measured, at a
 * reference time with seconds.
 */
final class RobustnessTest {
    private static final TimeParser PARSER = TimeParser.create();
    private static final ZonedDateTime NOW = ZonedDateTime.of(2026, 3, 10, 23, 42, 50, 0, ZoneId.of("Asia/Jerusalem"));

    @Test
    void everyBeginningAndEndOfEveryKnownExpressionReadsWithoutAnError() throws IOException {
        java.util.Set<String> texts = new java.util.LinkedHashSet<>();
        for (String file : List.of(
                "corpus/en",
                "corpus/he",
                "phrasebook/en",
                "phrasebook/he",
                "phrasebook/en-unseen",
                "phrasebook/he-unseen")) {
            for (String line : CorpusTest.lines("/" + file + ".tsv")) {
                if (line.isBlank() || line.startsWith("#") || line.startsWith("@")) {
                    continue;
                }
                String[] words = line.split("\t")[0].split(" ");
                for (int k = 1; k <= words.length; k++) {
                    texts.add(String.join(" ", List.of(words).subList(0, k)));
                    texts.add(String.join(" ", List.of(words).subList(words.length - k, words.length)));
                }
            }
        }
        List<String> failures = new ArrayList<>();
        for (String text : texts) {
            try {
                PARSER.parse(text, NOW);
                PARSER.length(text);
            } catch (RuntimeException e) {
                failures.add(text + " -> " + e);
            }
        }
        assertThat(texts).hasSizeGreaterThan(5000);
        assertThat(failures).isEmpty();
    }
}
