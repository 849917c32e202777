package dev.weft.time.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.time.internal.Meaning.Role;
import java.time.DayOfWeek;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The lexicons: what a written form means to the engine, in each language's own spelling. */
final class LexiconTest {

    @Test
    void aRussianWordIsFoundInEveryCaseItsStemListsWithYoReadAsYe() {
        RussianLexicon ru = RussianLexicon.INSTANCE;
        Meaning monday = new Meaning.Weekdays(List.of(DayOfWeek.MONDAY), false);
        assertThat(List.of("понедельник", "понедельника", "понедельнику", "понедельником", "понедельнике"))
                .allSatisfy(w -> assertThat(ru.meaning(w)).as(w).isEqualTo(monday));
        assertThat(ru.meaning("понедельникам")).isEqualTo(new Meaning.Weekdays(List.of(DayOfWeek.MONDAY), true));
        assertThat(ru.meaning("днём")).isEqualTo(ru.meaning("днем"));
        assertThat(ru.meaning("недели")).isEqualTo(new Meaning.Unit(ChronoUnit.WEEKS));
        assertThat(ru.meaning("следующую")).isEqualTo(Role.NEXT);
        assertThat(ru.meaning("молоко")).isNull();
    }

    @Test
    void aHebrewWordIsFoundWithOrWithoutItsPrefixLetters() {
        HebrewLexicon he = HebrewLexicon.INSTANCE;
        assertThat(he.meaning("מרץ")).isEqualTo(new Meaning.Month(3));
        assertThat(he.meaning("במרץ")).isEqualTo(new Meaning.Month(3));
        assertThat(he.meaning("ולמרץ")).isEqualTo(new Meaning.Month(3));
        assertThat(he.meaning("שאחרי")).isEqualTo(Role.AFTER);
        assertThat(he.meaning("שולחן")).isNull();
    }

    @Test
    void hebrewPrefixLettersAreStrippedAndSayWhatTheyMean() {
        HebrewLexicon he = HebrewLexicon.INSTANCE;
        assertThat(he.prefixOf("לשעה")).isEqualTo("ל");
        assertThat(he.prefixOf("לכחצי")).isEqualTo("לכ");
        assertThat(he.prefixOf("שעה")).isEmpty();
        assertThat(he.prefixOf("למחרת"))
                .as("a word of its own, not a prefix on one")
                .isEmpty();
        assertThat(he.prefixLetterMeans('ל', Role.LASTING)).isTrue();
        assertThat(he.prefixLetterMeans('מ', Role.FROM)).isTrue();
        assertThat(he.prefixLetterMeans('ב', Role.LASTING)).isFalse();
        assertThat(he.meaning("שלושת")).isEqualTo(new Meaning.Amount(3));
        assertThat(he.meaning("שני", Meaning.Amount.class)).isEqualTo(new Meaning.Amount(2));
        assertThat(he.meaning("שבועיים")).isEqualTo(new Meaning.Length(2, ChronoUnit.WEEKS));
        assertThat(he.bareUnitIsOne("בעוד")).isFalse();
        assertThat(he.bareUnitIsOne("כשעה")).isTrue();
        assertThat(he.bareUnitIsOne("דקות")).as("a plural alone is no amount").isFalse();
    }

    @Test
    void aWordMayCarrySeveralMeaningsAndARuleAsksForTheKindItNeeds() {
        EnglishLexicon en = EnglishLexicon.INSTANCE;
        assertThat(en.meaning("second"))
                .as("its usual meaning, the first given")
                .isEqualTo(new Meaning.Ordinal(2));
        assertThat(en.meaning("second", Meaning.Ordinal.class)).isEqualTo(new Meaning.Ordinal(2));
        assertThat(en.meaning("second", Meaning.Unit.class)).isEqualTo(new Meaning.Unit(ChronoUnit.SECONDS));
        assertThat(en.meaning("second", Meaning.Month.class)).isNull();
        assertThat(en.meaning("minutes", Meaning.Unit.class)).isEqualTo(new Meaning.Unit(ChronoUnit.MINUTES));
        assertThat(en.meaning("fourty", Meaning.Amount.class)).isEqualTo(new Meaning.Amount(40));
    }

    @Test
    void aKindAskedOfAHebrewWordIsFoundBehindItsPrefix() {
        assertThat(HebrewLexicon.INSTANCE.meaning("במרץ", Meaning.Month.class)).isEqualTo(new Meaning.Month(3));
    }

    @Test
    void phrasesAreTriedLongestFirst() {
        EnglishLexicon en = EnglishLexicon.INSTANCE;
        List<Lexicon.Phrase> fromChristmas = en.phrasesFrom("christmas");
        assertThat(fromChristmas.getFirst().words())
                .hasSizeGreaterThan(fromChristmas.getLast().words().size());
        assertThat(fromChristmas)
                .extracting(p -> String.join(" ", p.words()))
                .contains("christmas eve", "christmas day", "christmas");
    }
}
