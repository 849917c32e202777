package dev.weft.language;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A day's or a month's name written with a slip, through {@link Typos#corrected(CharSequence)}: read as
 * the name where a time stands, and ordinary words, names and a name written right left as they are.
 */
final class MisspeltDateNamesTest {
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "remind me frday at 9 to call Dana | remind me friday at 9 to call Dana",
                "remind me on wensday to pay the bill | remind me on wednesday to pay the bill",
                "on wendesday at noon | on wednesday at noon",
                "every mondy morning | every monday morning",
                "next tusday | next tuesday",
                "on thurdsay | on thursday",
                "see you satruday at 8 | see you saturday at 8",
                "by sunady | by sunday",
                "on setpember 3rd | on september 3rd",
                "on 3 novmber | on 3 november",
                "until decmber 24 | until december 24",
                "on mrach 3 | on march 3",
                "since novmber | since november",
                "ביום שלשי בתשע | ביום שלישי בתשע",
                "תזכיר לי ביום רבעי לשלם חשבון | תזכיר לי ביום רביעי לשלם חשבון",
                "ליום חמשי | ליום חמישי",
                "מיום ראשן | מיום ראשון",
            })
    void aNameWrittenWithASlipWhereATimeStandsIsTheNameMeant(String written, String meant) {
        assertThat(Typos.corrected((CharSequence) written)).isEqualTo(meant);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "remind me monday at 9",
                "on fridays I swim",
                "it was sunny on the beach",
                "a mayday call at 9",
                "we wed in June",
                "meet Frida at 9",
                "on Frida's birthday",
                "order a sundae at 9",
                "the fridge is empty",
                "mundane tasks every day",
                "ביום שני בתשע",
                "ביום שנה לחתונה",
                "שלשי בתשע",
                "on march 3",
                "on marsh road",
                "call monica at 5",
            })
    void aWordThatIsNotASlipOfANameOrNotWhereATimeStandsIsLeftAsItIs(String written) {
        assertThat(Typos.corrected((CharSequence) written)).isEqualTo(written);
    }
}
