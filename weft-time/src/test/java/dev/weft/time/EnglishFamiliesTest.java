package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** The English families of issue #20, one test each, against Saturday 2026-11-21 14:30 in Jerusalem. */
final class EnglishFamiliesTest {
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");
    private static final ZonedDateTime NOW = ZonedDateTime.of(2026, 11, 21, 14, 30, 0, 0, JERUSALEM);
    private static final TimeParser PARSER = TimeParser.create();

    private static TimeExpression parse(String text) {
        return PARSER.parse(text, NOW, Language.ENGLISH).orElseThrow(() -> new AssertionError("no time in: " + text));
    }

    private static ZonedDateTime local(String local) {
        return LocalDateTime.parse(local.length() == 10 ? local + "T00:00" : local)
                .atZone(JERUSALEM);
    }

    static void assertInstant(String text, String local, Grain grain) {
        TimeExpression e = parse(text);
        assertThat(e).as(text).isInstanceOf(TimeExpression.Instant.class);
        TimeExpression.Instant i = (TimeExpression.Instant) e;
        assertThat(i.value()).as(text).isEqualTo(local(local));
        assertThat(i.grain()).as(text).isEqualTo(grain);
        assertThat(i.text()).as(text).isEqualTo(text);
    }

    private static void assertInterval(String text, String from, String to, Grain grain) {
        TimeExpression e = parse(text);
        assertThat(e).as(text).isInstanceOf(TimeExpression.Interval.class);
        TimeExpression.Interval i = (TimeExpression.Interval) e;
        assertThat(i.from()).as(text).isEqualTo(local(from));
        assertThat(i.to()).as(text).isEqualTo(local(to));
        assertThat(i.grain()).as(text).isEqualTo(grain);
    }

    @Test
    void relativeDaysWeeksMonthsAndYearsKeepTheTimeOfDayToTheHour() {
        assertInstant("in 3 days", "2026-11-24T14:00", Grain.HOUR);
        assertInstant("two days from now", "2026-11-23T14:00", Grain.HOUR);
        assertInstant("9 days ago", "2026-11-12T14:00", Grain.HOUR);
        assertInstant("5 days hence", "2026-11-26T14:00", Grain.HOUR);
        assertInstant("a fortnight from now", "2026-12-05T14:00", Grain.HOUR);
        assertInstant("6 months ago", "2026-05-21T14:00", Grain.HOUR);
        assertInstant("in 5 yrs", "2031-11-21T14:00", Grain.HOUR);
    }

    @Test
    void amountsUnderADayAreExactToTheSecondAndMayBeFractionsOrPrimes() {
        assertInstant("in 3 and a half hours", "2026-11-21T18:00", Grain.SECOND);
        assertInstant("in a quarter of an hour", "2026-11-21T14:45", Grain.SECOND);
        assertInstant("in three quarters of an hour", "2026-11-21T15:15", Grain.SECOND);
        assertInstant("in 3/4 h", "2026-11-21T15:15", Grain.SECOND);
        assertInstant("in 10'", "2026-11-21T14:40", Grain.SECOND);
        assertInstant("in 2h", "2026-11-21T16:30", Grain.SECOND);
        assertInstant("in a couple of minutes", "2026-11-21T14:32", Grain.SECOND);
    }

    @Test
    void countedWeekdaysFromNowOrAgoSkipToday() {
        assertInstant("three mondays from now", "2026-12-07", Grain.DAY);
        assertInstant("2 saturdays from now", "2026-12-05", Grain.DAY);
        assertInstant("2 fridays ago", "2026-11-13", Grain.DAY);
        assertInstant("3 wednesdays ago", "2026-11-04", Grain.DAY);
    }

    @Test
    void countedPeriodsAreIntervalsFromTheFirstToTheLastOfThem() {
        assertInterval("upcoming three days", "2026-11-22", "2026-11-24", Grain.DAY);
        assertInterval("3 upcoming weeks", "2026-11-23", "2026-12-07", Grain.WEEK);
        assertInterval("the past 2 weeks", "2026-11-02", "2026-11-09", Grain.WEEK);
        assertInterval("last 3 months", "2026-08-01", "2026-10-01", Grain.MONTH);
    }

    @Test
    void aDayOfARelativeMonthIsCountedFromItsStartOrItsEnd() {
        assertInstant("the 12th of next month", "2026-12-12", Grain.DAY);
        assertInstant("7 of this month", "2026-11-07", Grain.DAY);
        assertInstant("the 3rd day of last month", "2026-10-03", Grain.DAY);
        assertInstant("fourth day of June", "2027-06-04", Grain.DAY);
        assertInstant("last day of February 2016", "2016-02-29", Grain.DAY);
        assertInstant("second last day of April", "2027-04-29", Grain.DAY);
        assertThat(PARSER.parse("the 31st of this month", NOW)).isEmpty();
        assertInstant("mid June", "2027-06-15", Grain.DAY);
        assertInstant("the middle of next month", "2026-12-15", Grain.DAY);
    }

    @Test
    void ordinalWeeksStartOnMondayAndTheFirstHoldsThePeriodsFirstDay() {
        assertInstant("second week of March 2015", "2015-03-02", Grain.WEEK);
        assertInstant("last week of June 2019", "2019-06-24", Grain.WEEK);
        assertInstant("2nd last week of 2017", "2017-12-18", Grain.WEEK);
        assertInstant("next week's Friday", "2026-11-27", Grain.DAY);
        assertInstant("Monday from next week", "2026-11-23", Grain.DAY);
        assertInstant("Thursday of this week", "2026-11-19", Grain.DAY);
    }

    @Test
    void quartersAndYearsMayBeAbbreviated() {
        assertInstant("last qtr", "2026-07-01", Grain.QUARTER);
        assertInstant("2nd qtr", "2027-04-01", Grain.QUARTER);
        assertInstant("1st qtr 2019", "2019-01-01", Grain.QUARTER);
        assertInstant("19q2", "2019-04-01", Grain.QUARTER);
        assertInstant("2019Q2", "2019-04-01", Grain.QUARTER);
        assertInstant("next yr", "2027-01-01", Grain.YEAR);
    }

    @Test
    void yearMonthsAndTwoDigitYearsTakeTheCenturyThatMakesSense() {
        assertInstant("2015-06", "2015-06-01", Grain.MONTH);
        assertInstant("2015/06", "2015-06-01", Grain.MONTH);
        assertInstant("6/2015", "2015-06-01", Grain.MONTH);
        assertInstant("3rd May 16", "2016-05-03", Grain.DAY);
        assertInstant("May 3rd, 81", "1981-05-03", Grain.DAY);
        assertInstant("1/2/81", "1981-01-02", Grain.DAY);
    }

    @Test
    void aWeekdayWithADateIsTheNextSuchDateOnThatWeekday() {
        assertInstant("Mon, Sep 8", "2031-09-08", Grain.DAY);
        assertInstant("Wednesday, Jan 9", "2030-01-09", Grain.DAY);
        assertInstant("Sat 21st", "2026-11-21", Grain.DAY);
        assertInstant("Friday 13th", "2027-08-13", Grain.DAY);
        assertInstant("Friday, December 25", "2026-12-25", Grain.DAY);
    }

    @Test
    void monthsAndDaysAreReckonedFromOtherDates() {
        assertInstant("June in a year", "2027-06-01", Grain.MONTH);
        assertInstant("June after next", "2028-06-01", Grain.MONTH);
        assertInstant("two years from Christmas", "2028-12-25", Grain.DAY);
        assertInstant("second Friday after New Year 2016", "2016-01-15", Grain.DAY);
        assertInstant("the closest Tuesday to June 3rd", "2027-06-01", Grain.DAY);
        assertInstant("the day after Christmas", "2026-12-26", Grain.DAY);
    }

    @Test
    void holidaysAreTheirNextDateFromToday() {
        assertInstant("Christmas", "2026-12-25", Grain.DAY);
        assertInstant("New Year's Eve", "2026-12-31", Grain.DAY);
        assertInstant("Valentine's Day", "2027-02-14", Grain.DAY);
        assertInstant("Halloween", "2027-10-31", Grain.DAY);
        assertInstant("Thanksgiving", "2026-11-26", Grain.DAY);
        assertInstant("Christmas 2016", "2016-12-25", Grain.DAY);
        assertInstant("Hanukkah", "2026-12-05", Grain.DAY);
        assertInstant("Passover 2027", "2027-04-22", Grain.DAY);
    }

    @Test
    void clockFormsPeopleWrite() {
        assertInstant("14h45", "2026-11-21T14:45", Grain.MINUTE);
        assertInstant("7h05", "2026-11-22T07:05", Grain.MINUTE);
        assertInstant("at 11 40", "2026-11-21T23:40", Grain.MINUTE);
        assertInstant("eleven fifteen pm", "2026-11-21T23:15", Grain.MINUTE);
        assertInstant("8 tomorrow", "2026-11-22T08:00", Grain.HOUR);
        assertInstant("4 o'clock am", "2026-11-22T04:00", Grain.HOUR);
        assertInstant("midday", "2026-11-22T12:00", Grain.HOUR);
        assertInstant("quarter past noon", "2026-11-22T12:15", Grain.MINUTE);
        assertInstant("late evening @ 9", "2026-11-21T21:00", Grain.HOUR);
        assertInstant("tonight at 12", "2026-11-22T00:00", Grain.HOUR);
        assertInstant("tomorrow at 230ish", "2026-11-22T14:30", Grain.MINUTE);
    }

    @Test
    void zonesNamedInTheTextAreConvertedToTheZoneOfNow() {
        assertInstant("Friday 10h UTC", "2026-11-27T12:00", Grain.HOUR);
        assertInstant("8 pm (CET)", "2026-11-21T21:00", Grain.HOUR);
    }

    @Test
    void wordsForNowAndCommonTyposOfTimeWords() {
        assertInstant("right now", "2026-11-21T14:30", Grain.SECOND);
        assertInstant("atm", "2026-11-21T14:30", Grain.SECOND);
        assertInstant("at the moment", "2026-11-21T14:30", Grain.SECOND);
        assertInstant("tommorow", "2026-11-22", Grain.DAY);
        assertInstant("todays", "2026-11-21", Grain.DAY);
        assertInstant("2morrow", "2026-11-22", Grain.DAY);
    }
}
