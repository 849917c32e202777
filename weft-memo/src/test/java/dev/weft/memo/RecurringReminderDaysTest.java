package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A recurring reminder's days, on real SQLite, in English and Hebrew: "the last Friday of every month"
 * fires on the last Friday of each month (the 29th in January, not the first one's 27th), and the reply
 * and the listing say the days a reminder repeats on ("every Sunday at 08:00", "on the 10th of every
 * month at 09:00"), as an event's repeating does.
 */
final class RecurringReminderDaysTest {
    /** Saturday 28 November 2026, 19:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-28T17:00:00Z");

    @RegisterExtension
    final OfflineMemo memo = new OfflineMemo(NOW);

    @Test
    void theLastFridayOfEveryMonthIsSaidAndFallsOnJanuarysLastFriday() {
        assertThat(memo.ask("dana", "remind me the last friday of every month at 9am to pay rent"))
                .isEqualTo("I'll remind you: \"pay rent\" — on the last Friday of every month at 09:00.");

        assertThat(memo.ask("dana", "what do I have on January 29?"))
                .isEqualTo("Nothing on your calendar then, but you have 1 reminder:\n"
                        + "1. pay rent (on the last Friday of every month at 09:00)");
        assertThat(memo.ask("dana", "what do I have on January 25?"))
                .isEqualTo("Nothing on your calendar, and no tasks or reminders due then.");
    }

    @Test
    void theFirstMondayOfEveryMonthFallsOnFebruaryFirst() {
        assertThat(memo.ask("dana", "remind me the first Monday of every month at 8 to back up the laptop"))
                .isEqualTo("I'll remind you: \"back up the laptop\" — on the first Monday of every month at 08:00.");

        assertThat(memo.ask("dana", "what do I have on February 1?"))
                .contains("1. back up the laptop (on the first Monday of every month at 08:00)");
        assertThat(memo.ask("dana", "what do I have on February 8?"))
                .isEqualTo("Nothing on your calendar, and no tasks or reminders due then.");
    }

    @Test
    void aHebrewLastFridayOfEveryMonthIsSaidAndFallsOnJanuarysLastFriday() {
        assertThat(memo.ask("omer", "תזכירי לי ביום שישי האחרון של כל חודש ב-9 לשלם שכר דירה"))
                .isEqualTo("אזכיר לך: \"לשלם שכר דירה\" — ביום שישי האחרון של כל חודש ב-09:00.");

        assertThat(memo.ask("omer", "מה יש לי ב-29 בינואר?"))
                .contains("1. לשלם שכר דירה (ביום שישי האחרון של כל חודש ב-09:00)");
        assertThat(memo.ask("omer", "מה יש לי ב-25 בינואר?")).doesNotContain("לשלם שכר דירה");
    }

    @Test
    void aWeeklyReminderSaysItsDay() {
        assertThat(memo.ask("dana", "remind me every sunday at 8am to take out the trash"))
                .isEqualTo("I'll remind you: \"take out the trash\" — every Sunday at 08:00.");
    }

    @Test
    void aWeeklyReminderOnTwoDaysSaysBoth() {
        assertThat(memo.ask("dana", "remind me every monday and thursday at 8am to go running"))
                .isEqualTo("I'll remind you: \"go running\" — every Monday and Thursday at 08:00.");
    }

    @Test
    void aReminderEveryOtherWeekSaysItsIntervalAndDay() {
        assertThat(memo.ask("dana", "remind me every 2 weeks on sunday at 8am to water the plants"))
                .isEqualTo("I'll remind you: \"water the plants\" — every 2 weeks on Sunday at 08:00.");
    }

    @Test
    void aMonthlyReminderSaysItsDayOfTheMonth() {
        assertThat(memo.ask("dana", "remind me on the 10th of every month to pay the building committee"))
                .isEqualTo("I'll remind you: \"pay the building committee\" — on the 10th of every month at 09:00.");
    }

    @Test
    void aReminderEveryOtherMonthSaysItsIntervalAndFallsEveryOtherMonth() {
        assertThat(memo.ask("dana", "remind me every 2 months on the 1st to change the water filter"))
                .isEqualTo("I'll remind you: \"change the water filter\" — on the 1st of every 2 months at 09:00.");

        assertThat(memo.ask("dana", "what do I have on December 1?")).contains("change the water filter");
        assertThat(memo.ask("dana", "what do I have on January 1?")).doesNotContain("change the water filter");
    }

    @Test
    void aHebrewWeeklyReminderSaysItsDay() {
        assertThat(memo.ask("omer", "תזכירי לי כל יום ראשון ב-8 להוציא את הזבל"))
                .isEqualTo("אזכיר לך: \"להוציא את הזבל\" — כל יום ראשון ב-08:00.");
    }

    @Test
    void aHebrewMonthlyReminderSaysItsDayOfTheMonth() {
        assertThat(memo.ask("omer", "תזכירי לי ב-10 לכל חודש לשלם ארנונה"))
                .isEqualTo("אזכיר לך: \"לשלם ארנונה\" — ב-10 בכל חודש ב-09:00.");
        assertThat(memo.ask("omer", "מה יש לי ב-10 בדצמבר?")).contains("1. לשלם ארנונה (ב-10 בכל חודש ב-09:00)");
    }

    @Test
    void aMonthlyEventOnTheFirstMondaySaysItsDayAsRemindersDo() {
        assertThat(memo.ask("dana", "schedule a team sync on the first Monday of every month at 10am"))
                .contains("on the first Monday of every month at 10:00");
        assertThat(memo.ask("omer", "קבעי פגישת צוות ביום שני הראשון של כל חודש ב-10 בבוקר"))
                .contains("ביום שני הראשון של כל חודש בשעה 10:00");
    }
}
