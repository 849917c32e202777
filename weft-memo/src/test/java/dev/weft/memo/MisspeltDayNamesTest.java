package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.memo.data.Task;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A reminder whose day is written with a slip ("frday", "wensday", "ביום שלשי"), through {@link
 * Memo#ask} on real SQLite: the day is read as the day meant, and it is not left in the reminder's words.
 */
final class MisspeltDayNamesTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    @RegisterExtension
    final OfflineMemo memo = new OfflineMemo(NOW);

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "remind me frday at 9 to call Dana | call Dana | FRIDAY | 09:00",
                "remind me on wensday at 8 to pay the bill | pay the bill | WEDNESDAY | 08:00",
                "remind me thrusday at 9 to call the bank | call the bank | THURSDAY | 09:00",
                "תזכיר לי ביום שלשי בתשע לשלם חשבון | לשלם חשבון | TUESDAY | 09:00",
                "תזכיר לי ביום חמשי בשמונה להתקשר לדנה | להתקשר לדנה | THURSDAY | 08:00",
            })
    void aDayWrittenWithASlipIsTheDayOfTheReminder(String message, String text, DayOfWeek day, LocalTime at) {
        memo.ask("dana", message);

        List<Task> tasks = memo.memo().data().tasks().all("dana");
        assertThat(tasks).hasSize(1);
        assertThat(tasks.get(0).text()).isEqualTo(text);
        ZonedDateTime due = tasks.get(0).dueAt().orElseThrow().atZone(OfflineMemo.JERUSALEM);
        assertThat(due.getDayOfWeek()).isEqualTo(day);
        assertThat(due.toLocalTime()).isEqualTo(at);
        assertThat(due.toInstant()).isAfter(NOW);
    }
}
