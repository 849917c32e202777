package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * "What do I have tomorrow?" on real SQLite, in English and Hebrew: the answer is the day as a person
 * means it, its events and the tasks and reminders due that day, and a plain "nothing" only when there
 * is neither.
 */
final class DayQuestionTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    @RegisterExtension
    final OfflineMemo memo = new OfflineMemo(NOW);

    @Test
    void anEventAndAReminderTomorrowAreBothInTheAnswer() {
        memo.ask("dana", "schedule a meeting with Dana tomorrow at 3pm");
        memo.ask("dana", "remind me tomorrow at 9 to call the bank");

        assertThat(memo.ask("dana", "what do I have tomorrow?"))
                .isEqualTo("You have 1 event:\n1. meeting with Dana (Wed 25 Nov, 15:00–16:00)\n"
                        + "And 1 reminder:\n1. call the bank (Wed 25 Nov, 09:00)");
    }

    @Test
    void onlyAReminderTomorrowIsSaidNotNothing() {
        memo.ask("dana", "remind me tomorrow at 9 to call the bank");

        assertThat(memo.ask("dana", "what do I have tomorrow?"))
                .isEqualTo("Nothing on your calendar then, but you have 1 reminder:\n"
                        + "1. call the bank (Wed 25 Nov, 09:00)");
    }

    @Test
    void whatFallsDueOnAnotherDayOrIsDoneIsNotSaid() {
        memo.ask("dana", "remind me on Friday at 9 to call the bank");
        memo.ask("dana", "add a task to pay the rent tomorrow");
        memo.ask("dana", "mark pay the rent as done");

        assertThat(memo.ask("dana", "what do I have tomorrow?"))
                .isEqualTo("Nothing on your calendar, and no tasks or reminders due then.");
    }

    @Test
    void aTaskDueTomorrowIsSaidAsATask() {
        memo.ask("dana", "add a task to pay the rent tomorrow");

        assertThat(memo.ask("dana", "what do I have tomorrow?"))
                .isEqualTo("Nothing on your calendar then, but you have 1 task due:\n1. pay the rent (Wed 25 Nov)");
    }

    @Test
    void nothingTomorrowIsAClearNothing() {
        assertThat(memo.ask("dana", "what do I have tomorrow?"))
                .isEqualTo("Nothing on your calendar, and no tasks or reminders due then.");
        assertThat(memo.ask("omer", "מה יש לי מחר?")).isEqualTo("אין לך כלום ביומן, ואין משימות או תזכורות בזמן הזה.");
    }

    @Test
    void aHebrewDayQuestionNamesTheEventAndTheReminder() {
        memo.ask("omer", "תקבע פגישה עם דנה מחר ב-15:00");
        memo.ask("omer", "תזכיר לי מחר בשמונה לקנות חלב");

        assertThat(memo.ask("omer", "מה יש לי מחר?"))
                .isEqualTo("יש לך אירוע אחד:\n1. פגישה עם דנה (25.11 בשעה 15:00–16:00)\n"
                        + "וגם תזכורת אחת:\n1. לקנות חלב (25.11 בשעה 08:00)");
    }

    @Test
    void aHebrewDayWithOnlyAReminderSaysIt() {
        memo.ask("omer", "תזכיר לי מחר בשמונה לקנות חלב");

        assertThat(memo.ask("omer", "מה יש לי מחר?"))
                .isEqualTo("אין לך כלום ביומן בזמן הזה, אבל יש לך תזכורת אחת:\n1. לקנות חלב (25.11 בשעה 08:00)");
    }

    @Test
    void anotherUsersReminderIsNotInTheAnswer() {
        memo.ask("omer", "remind me tomorrow at 9 to call the bank");

        assertThat(memo.ask("dana", "what do I have tomorrow?"))
                .isEqualTo("Nothing on your calendar, and no tasks or reminders due then.");
    }
}
