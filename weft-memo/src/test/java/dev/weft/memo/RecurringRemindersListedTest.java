package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A recurring reminder in "what do I have on Friday?" and "what are my reminders this week?", on real
 * SQLite, in English and Hebrew: every time of it counts, not only the next one, so a daily reminder is
 * there on each day asked about and a weekly one on its day (said as it repeats: "every day at 08:00").
 */
final class RecurringRemindersListedTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    @RegisterExtension
    final OfflineMemo memo = new OfflineMemo(NOW);

    @Test
    void aDailyReminderIsThereOnADayAfterItsNextTime() {
        memo.ask("dana", "remind me every day at 8 to take vitamins");

        assertThat(memo.ask("dana", "what do I have on Friday?"))
                .isEqualTo("Nothing on your calendar then, but you have 1 reminder:\n"
                        + "1. take vitamins (every day at 08:00)");
    }

    @Test
    void aWeeklyReminderIsThereOnItsDayAndNotOnAnother() {
        memo.ask("dana", "remind me every Thursday at 6pm to water the plants");

        assertThat(memo.ask("dana", "what do I have on Thursday?"))
                .isEqualTo("Nothing on your calendar then, but you have 1 reminder:\n"
                        + "1. water the plants (every week at 18:00)");
        assertThat(memo.ask("dana", "what do I have on Friday?"))
                .isEqualTo("Nothing on your calendar, and no tasks or reminders due then.");
    }

    @Test
    void remindersThisWeekHoldEveryRecurringOneWithATimeInIt() {
        memo.ask("dana", "remind me every day at 8 to take vitamins");
        memo.ask("dana", "remind me every Monday at 9 to send the report");

        // Both were made at the same instant (the clock is stopped): the listing's order between them is
        // not what this test is about.
        assertThat(memo.ask("dana", "what are my reminders this week?"))
                .startsWith("You have 2 tasks:")
                .contains("take vitamins (every day at 08:00)")
                .contains("send the report (every week at 09:00)");
    }

    @Test
    void aHebrewDailyReminderIsThereOnTheDayAsked() {
        memo.ask("omer", "תזכיר לי כל יום בשמונה לקחת ויטמינים");

        assertThat(memo.ask("omer", "מה יש לי ביום שישי?"))
                .isEqualTo("אין לך כלום ביומן בזמן הזה, אבל יש לך תזכורת אחת:\n1. לקחת ויטמינים (כל יום ב-08:00)");
    }

    @Test
    void anotherUsersRecurringReminderIsNotListed() {
        memo.ask("omer", "remind me every day at 8 to take vitamins");

        assertThat(memo.ask("dana", "what do I have on Friday?"))
                .isEqualTo("Nothing on your calendar, and no tasks or reminders due then.");
    }
}
