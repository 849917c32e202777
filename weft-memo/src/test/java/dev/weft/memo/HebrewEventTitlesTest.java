package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An event's title is what it is, not the request that made it: the verbs that open a calendar request
 * ("קבעי", "תוסיף לי", "שימי", "schedule") are no part of it, in either gender, on real SQLite.
 */
final class HebrewEventTitlesTest {
    /** Saturday 28 November 2026, 19:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-28T17:00:00Z");

    @RegisterExtension
    final OfflineMemo memo = new OfflineMemo(NOW);

    @Test
    void aWomansScheduleVerbIsNotInTheTitle() {
        assertThat(memo.ask("omer", "קבעי פגישה עם דנה ביום שלישי הבא בשמונה ועשרים בערב"))
                .startsWith("קבעתי \"פגישה עם דנה\"");
    }

    @Test
    void aMansScheduleVerbIsNotInTheTitle() {
        assertThat(memo.ask("omer", "קבע פגישה עם דנה ביום שלישי הבא בשמונה ועשרים בערב"))
                .startsWith("קבעתי \"פגישה עם דנה\"");
    }

    @Test
    void addAndPutVerbsInEitherGenderAreNotInTheTitle() {
        assertThat(memo.ask("omer", "הוסיפי לי פגישה עם יואב ביום רביעי בעשר בבוקר"))
                .startsWith("קבעתי \"פגישה עם יואב\"");
        assertThat(memo.ask("omer", "תוסיף לי ארוחת ערב עם ההורים ביום חמישי בשמונה בערב"))
                .startsWith("קבעתי \"ארוחת ערב עם ההורים\"");
        assertThat(memo.ask("omer", "שימי לי פגישה עם רונית ביום ראשון בתשע בבוקר"))
                .startsWith("קבעתי \"פגישה עם רונית\"");
        assertThat(memo.ask("omer", "צרי פגישה עם גל ביום שני באחת בצהריים")).startsWith("קבעתי \"פגישה עם גל\"");
    }

    @Test
    void anEnglishScheduleVerbIsNotInTheTitle() {
        assertThat(memo.ask("dana", "schedule a meeting with Dana next tuesday at 8:20pm"))
                .startsWith("Scheduled \"meeting with Dana\"");
    }
}
