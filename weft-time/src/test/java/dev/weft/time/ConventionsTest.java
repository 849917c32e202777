package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** The conventions of weft-time/README.md, one test each, against Saturday 2026-11-21 14:30 in Jerusalem. */
final class ConventionsTest {
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");
    private static final ZonedDateTime NOW = ZonedDateTime.of(2026, 11, 21, 14, 30, 0, 0, JERUSALEM);
    private static final TimeParser PARSER = TimeParser.create();

    private static void assertInstant(TimeParser parser, String text, String local, Grain grain) {
        TimeExpression e = parser.parse(text, NOW).orElseThrow(() -> new AssertionError("no time in: " + text));
        assertThat(e).as(text).isInstanceOf(TimeExpression.Instant.class);
        TimeExpression.Instant i = (TimeExpression.Instant) e;
        LocalDateTime expected = LocalDateTime.parse(local.length() == 10 ? local + "T00:00" : local);
        assertThat(i.value()).as(text).isEqualTo(expected.atZone(JERUSALEM));
        assertThat(i.grain()).as(text).isEqualTo(grain);
    }

    private static void assertInstant(String text, String local, Grain grain) {
        assertInstant(PARSER, text, local, grain);
    }

    @Test
    void aTwoDigitYearFallsFrom80YearsBeforeNowTo19After() {
        assertInstant("10/31/74", "1974-10-31", Grain.DAY);
        assertInstant("1/2/45", "2045-01-02", Grain.DAY);
        assertInstant("1/2/46", "1946-01-02", Grain.DAY);
        assertInstant("31/10/74", "1974-10-31", Grain.DAY); // Hebrew order, read as English only when it fits
        assertInstant("3rd May 16", "2016-05-03", Grain.DAY);
        ZonedDateTime later = ZonedDateTime.of(2090, 1, 1, 12, 0, 0, 0, JERUSALEM);
        TimeExpression e = PARSER.parse("10/31/74", later).orElseThrow();
        assertThat(((TimeExpression.Instant) e).value().getYear()).isEqualTo(2074);
    }

    @Test
    void weekStartsOnMondayInEnglishAndOnSundayInHebrew() {
        assertInstant("this week", "2026-11-16", Grain.WEEK);
        assertInstant("next week", "2026-11-23", Grain.WEEK);
        assertInstant("השבוע", "2026-11-15", Grain.WEEK);
        assertInstant("שבוע הבא", "2026-11-22", Grain.WEEK);
        assertInstant("Sunday of this week", "2026-11-22", Grain.DAY);
        assertInstant("יום ראשון השבוע", "2026-11-15", Grain.DAY);
    }

    @Test
    void nextWeekdayIsTheComingOneByDefault() {
        assertInstant("next Sunday", "2026-11-22", Grain.DAY);
        assertInstant("next Monday", "2026-11-23", Grain.DAY);
        assertInstant("יום שני הבא", "2026-11-23", Grain.DAY);
        assertInstant("Sunday", "2026-11-22", Grain.DAY);
    }

    @Test
    void nextWeekdayIsTheOneOfNextWeekWhenFollowingIsChosen() {
        TimeParser following =
                TimeParser.builder().nextWeekday(NextWeekday.FOLLOWING).build();
        assertInstant(following, "next Sunday", "2026-11-29", Grain.DAY);
        assertInstant(following, "next Monday", "2026-11-23", Grain.DAY);
        assertInstant(following, "יום ראשון הבא", "2026-11-22", Grain.DAY);
        assertInstant(following, "יום שני הבא", "2026-11-23", Grain.DAY);
        // a bare weekday is the coming one in both readings
        assertInstant(following, "Sunday", "2026-11-22", Grain.DAY);
    }

    @Test
    void nextWeekdayReadingIsNamedOnTheCommandLineAsComingOrFollowing() {
        assertThat(NextWeekday.fromLabel("coming")).isEqualTo(NextWeekday.COMING);
        assertThat(NextWeekday.fromLabel("following")).isEqualTo(NextWeekday.FOLLOWING);
        assertThatThrownBy(() -> NextWeekday.fromLabel("soonest"))
                .isInstanceOf(TimeInputException.class)
                .hasMessageContaining("soonest");
        assertThatThrownBy(() -> TimeParser.builder().nextWeekday(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void ambiguousDayAndMonthFollowTheLanguageUnlessOnlyTheOtherReadingIsADate() {
        assertInstant("3/4", "2027-03-04", Grain.DAY);
        assertInstant("13/4", "2027-04-13", Grain.DAY);
        assertInstant("ב-3/4", "2027-04-03", Grain.DAY);
        assertInstant("ב-4/13", "2027-04-13", Grain.DAY);
    }

    @Test
    void aBareHourIsTheNextSuchHourInTheFuture() {
        assertInstant("at 3", "2026-11-21T15:00", Grain.HOUR);
        assertInstant("at 2", "2026-11-22T02:00", Grain.HOUR);
        assertInstant("at 9", "2026-11-21T21:00", Grain.HOUR);
        assertInstant("at 12", "2026-11-22T00:00", Grain.HOUR);
        assertInstant("בשתיים", "2026-11-22T02:00", Grain.HOUR);
        assertInstant("ב-8", "2026-11-21T20:00", Grain.HOUR);
    }

    @Test
    void relativeAmountsOfADayOrMoreKeepTheTimeOfDayToTheHour() {
        assertInstant("in 3 days", "2026-11-24T14:00", Grain.HOUR);
        assertInstant("9 days ago", "2026-11-12T14:00", Grain.HOUR);
        assertInstant("בעוד חמישה ימים", "2026-11-26T14:00", Grain.HOUR);
        assertInstant("לפני שלושה ימים", "2026-11-18T14:00", Grain.HOUR);
    }

    @Test
    void aZoneNamedInTheTextIsConvertedToTheZoneOfNow() {
        assertInstant("3pm UTC", "2026-11-21T17:00", Grain.HOUR);
        assertInstant("ב-15:00 UTC", "2026-11-21T17:00", Grain.MINUTE);
    }
}
