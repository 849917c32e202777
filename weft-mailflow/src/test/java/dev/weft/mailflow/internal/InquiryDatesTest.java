package dev.weft.mailflow.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/**
 * The days an inquiry asks about, as the offline rules read them: a weekday named beside a date is
 * that date's weekday, not another day; a range is its days; an ordinal weekend of a month is that
 * weekend. The mail arrives on Monday 2 March 2026.
 */
final class InquiryDatesTest {
    private static final ZonedDateTime NOW = ZonedDateTime.parse("2026-03-02T10:00:00+02:00[Asia/Jerusalem]");

    private static Inquiry parse(String text) {
        return InquiryRules.parse("", text, "", "", "en", NOW);
    }

    @Test
    void weekdaysNamedBeforeARangeAreTheRangesDaysNotTwoMore() {
        Inquiry inquiry =
                parse("We are planning a workshop on Thursday, followed by a gala dinner on Friday, December 17-18,"
                        + " for about 60 people. Could you send a quote?");

        assertThat(inquiry.dates()).containsExactly(LocalDate.of(2026, 12, 17), LocalDate.of(2026, 12, 18));
    }

    @Test
    void aWeekdayWrittenWithItsDateIsThatDate() {
        Inquiry inquiry = parse("Is the hall free on Thursday, April 16 for a dinner of 80 guests?");

        assertThat(inquiry.dates()).containsExactly(LocalDate.of(2026, 4, 16));
    }

    @Test
    void aWeekdayAloneIsStillADay() {
        Inquiry inquiry = parse("Could we book the terrace this Thursday for 30 people?");

        assertThat(inquiry.dates()).containsExactly(LocalDate.of(2026, 3, 5));
    }

    @Test
    void readsTheSecondWeekendOfAMonth() {
        Inquiry inquiry = parse("We'd like to hold a retreat for 40 people on the second weekend of January.");

        assertThat(inquiry.dates()).containsExactly(LocalDate.of(2027, 1, 9), LocalDate.of(2027, 1, 10));
    }

    @Test
    void readsTheSecondWeekendOfAMonthInHebrew() {
        Inquiry inquiry =
                InquiryRules.parse("", "אנחנו מחפשים מקום לכנס של 40 איש בסוף השבוע השני של מאי", "", "", "he", NOW);

        assertThat(inquiry.dates()).containsExactly(LocalDate.of(2026, 5, 8), LocalDate.of(2026, 5, 9));
    }

    @Test
    void readsARangeWrittenWithWords() {
        Inquiry inquiry = parse("We need the venue from June 3 to June 5 for a conference of 100 people.");

        assertThat(inquiry.dates())
                .containsExactly(LocalDate.of(2026, 6, 3), LocalDate.of(2026, 6, 4), LocalDate.of(2026, 6, 5));
    }
}
