package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Requests said time first with no verb, through Memo's offline planner on real SQLite, in English and
 * Hebrew: a bare name after the time is an event, as it is said name first; an errand after it is a
 * reminder, as "remind me … to call mom" is; a suggestion's words ("how about") are not the errand's.
 */
final class TimeFirstRequestsTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    @RegisterExtension
    final OfflineMemo memo = new OfflineMemo(NOW);

    @Test
    void aNameAfterTheTimeIsAnEventAsWhenItIsSaidFirst() {
        assertThat(memo.ask("dana", "next thursday at 4pm dentist"))
                .isEqualTo(memo.ask("omer", "dentist next thursday at 4pm"))
                .isEqualTo("Scheduled \"dentist\" — Thu 26 Nov, 16:00–17:00.");
    }

    @Test
    void aHebrewNameAfterTheTimeIsAnEventAsWhenItIsSaidFirst() {
        assertThat(memo.ask("dana", "יום חמישי הבא ב-4 רופא שיניים"))
                .isEqualTo(memo.ask("omer", "רופא שיניים יום חמישי הבא ב-4"))
                .isEqualTo("קבעתי \"רופא שיניים\" — 26.11 בשעה 16:00–17:00.");
    }

    @Test
    void aSuggestedTimeAndAnErrandIsAReminderNotAWebLookup() {
        assertThat(memo.ask("dana", "how about on wensday at 5 pm call mom"))
                .isEqualTo(memo.ask("omer", "remind me on wednesday at 5pm to call mom"));
        assertThat(memo.ask("dana", "what are my reminders?")).contains("call mom (Wed 25 Nov, 17:00)");
    }

    @Test
    void aHebrewSuggestedTimeAndAnErrandIsAReminderWithoutTheSuggestionsWords() {
        assertThat(memo.ask("dana", "אולי ביום רביעי ב-5 להתקשר לאמא"))
                .isEqualTo(memo.ask("omer", "תזכיר לי ביום רביעי ב-5 להתקשר לאמא"));
    }

    @Test
    void aQuestionSaidTimeFirstIsStillAQuestion() {
        memo.ask("dana", "dentist next thursday at 4pm");

        assertThat(memo.ask("dana", "next thursday at 4pm what do I have?")).doesNotStartWith("Scheduled");
    }
}
