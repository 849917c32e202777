package dev.weft.language;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

final class TyposTest {
    @Test
    void typoOf_acceptsOneLetterOffOrTwoNeighboursSwapped() {
        assertThat(Typos.typoOf("cancle", "cancel")).isTrue();
        assertThat(Typos.typoOf("retrun", "return")).isTrue();
        assertThat(Typos.typoOf("headphons", "headphones")).isTrue();
        assertThat(Typos.typoOf("cancel", "cancel")).isFalse();
        assertThat(Typos.typoOf("w1002", "w1003")).isFalse();
        assertThat(Typos.typoOf("calendar", "colander")).isFalse();
    }

    @Test
    void matchesLoosely_forgivesATypoOnlyInALongWord() {
        Set<String> vocabulary = Forms.vocabulary(Set.of("Trailblazer Backpack"));
        assertThat(Forms.matchesLoosely("backpak", vocabulary)).isTrue();
        assertThat(Forms.matchesLoosely("backpacks", vocabulary)).isTrue();
        assertThat(Forms.matchesLoosely("pack", vocabulary)).isFalse();
    }

    @Test
    void lexiconNamesAPhraseInTheOtherLanguage() {
        assertThat(Lexicon.counterparts("dentist")).containsExactly("רופא שיניים");
        assertThat(Lexicon.counterparts("רופא השיניים")).containsExactly("dentist");
        assertThat(Lexicon.translations("תזיז את רופא השיניים לשבע בערב")).containsExactly("תזיז את dentist לשבע בערב");
        assertThat(Lexicon.translations("zzz qqq")).isEmpty();
    }
}
