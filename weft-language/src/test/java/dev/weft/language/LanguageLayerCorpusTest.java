package dev.weft.language;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;

/**
 * Each function of the language layer against its corpus ({@code src/test/resources/corpus/}), one
 * line a case, in English and Hebrew. A line the layer reads otherwise fails with the line itself.
 */
final class LanguageLayerCorpusTest {

    @ParameterizedTest(name = "{0} → {1}")
    @CsvFileSource(
            resources = "/corpus/folding.tsv",
            delimiter = '\t',
            quoteCharacter = '~',
            ignoreLeadingAndTrailingWhitespace = false)
    void foldsCaseAccentsNiqqudQuotesAndFinalLetters(String text, String folded) {
        assertThat(Folding.fold(text)).isEqualTo(folded);
    }

    @ParameterizedTest(name = "{0} has {1}")
    @CsvFileSource(resources = "/corpus/forms.tsv", delimiter = '\t', quoteCharacter = '~')
    void findsAWordUnderItsPrefixLettersAndEndings(String word, String has, String hasNot) {
        assertThat(Forms.of(word)).contains(Folding.fold(has));
        if (!hasNot.equals("-")) {
            assertThat(Forms.of(word)).doesNotContain(Folding.fold(hasNot));
        }
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvFileSource(resources = "/corpus/numbers.tsv", delimiter = '\t', quoteCharacter = '~')
    void readsNumbersInDigitsAndInWordsOfBothLanguages(String text, int value) {
        assertThat(NumberWords.parse(text)).hasValue(value);
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/corpus/not-numbers.tsv", delimiter = '\t', quoteCharacter = '~')
    void findsNoNumberWhereNoneIsSaid(String text) {
        assertThat(NumberWords.parse(text)).isEqualTo(OptionalInt.empty());
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvFileSource(resources = "/corpus/ordinals.tsv", delimiter = '\t', quoteCharacter = '~')
    void readsOrdinalsWithTheirPrefixLetters(String word, int position) {
        assertThat(NumberWords.ordinal(word)).hasValue(position);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvFileSource(resources = "/corpus/language.tsv", delimiter = '\t', quoteCharacter = '~')
    void decidesAMessagesLanguageByItsWordsNotByANameInIt(String text, String expected) {
        assertThat(Language.of(text).map(Language::code).orElse("-")).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/corpus/cues.tsv", delimiter = '\t', quoteCharacter = '~')
    void tellsNegationQuestionsAndHedges(String text, boolean negated, boolean question, boolean hedged) {
        assertThat(Cues.of(text)).isEqualTo(new Cues(negated, question, hedged));
    }

    @ParameterizedTest(name = "{0} ~ {1}: {2}")
    @CsvFileSource(resources = "/corpus/names.tsv", delimiter = '\t', quoteCharacter = '~')
    void matchesANameAcrossScripts(String one, String other, boolean same) {
        assertThat(Names.sameName(one, other)).isEqualTo(same);
        assertThat(Names.sameName(other, one)).isEqualTo(same);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvFileSource(resources = "/corpus/typos.tsv", delimiter = '\t', quoteCharacter = '~')
    void writesCommonSlipsAsTheWordsMeant(String written, String meant) {
        assertThat(Typos.corrected((CharSequence) written)).isEqualTo(meant);
    }

    @ParameterizedTest(name = "{0} in {1}")
    @CsvFileSource(resources = "/corpus/entities.tsv", delimiter = '\t', quoteCharacter = '~')
    void findsTheThingNamedAcrossScriptsAndLanguages(String query, String candidates, String expected) {
        List<String> all = Arrays.asList(candidates.split("\\|"));
        List<String> found = EntityMatch.best(query, all, s -> s);
        if (expected.equals("-")) {
            assertThat(found).isEmpty();
        } else {
            assertThat(found).containsExactlyInAnyOrder(expected.split("\\|"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/corpus/acts.tsv", delimiter = '\t', quoteCharacter = '~')
    void tellsAReadFromAChangeAndWhichChangeTheWordsName(
            String text, boolean onlyReads, boolean deletes, boolean updates, boolean sends, String outOfScope) {
        assertThat(RequestActs.asksOnlyToRead(text)).as("only reads").isEqualTo(onlyReads);
        assertThat(RequestActs.asksFor(RequestActs.Change.DELETE, text))
                .as("names a delete")
                .isEqualTo(deletes);
        assertThat(RequestActs.asksFor(RequestActs.Change.UPDATE, text))
                .as("names an update")
                .isEqualTo(updates);
        assertThat(RequestActs.asksFor(RequestActs.Change.SEND, text))
                .as("names a send")
                .isEqualTo(sends);
        assertThat(RequestActs.outsideScope(text, RequestActs.topics()).orElse("-"))
                .as("out of scope")
                .isEqualTo(outOfScope);
    }
}
