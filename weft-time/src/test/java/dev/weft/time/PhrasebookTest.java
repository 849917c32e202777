package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * Runs the phrasebook ({@code src/test/resources/phrasebook/{en,he}.tsv}): expressions as people
 * say them to an assistant, written apart from the regression corpus to see how the grammar reads
 * what it was not tuned on. Prints the accuracy per language and every line read otherwise:
 * {@code ./mvnw -q -pl weft-time -am test -Dtest=PhrasebookTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
final class PhrasebookTest {

    @Test
    void readsTheEnglishPhrasebook() throws IOException {
        CorpusTest.Outcome o = CorpusTest.run("phrasebook", "en", Language.ENGLISH);
        assertThat(o.total()).isGreaterThanOrEqualTo(250);
        assertThat(o.accuracy()).as("English phrasebook").isGreaterThanOrEqualTo(0.0);
    }

    @Test
    void readsTheHebrewPhrasebook() throws IOException {
        CorpusTest.Outcome o = CorpusTest.run("phrasebook", "he", Language.HEBREW);
        assertThat(o.total()).isGreaterThanOrEqualTo(250);
        assertThat(o.accuracy()).as("Hebrew phrasebook").isGreaterThanOrEqualTo(0.0);
    }
}
