package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** The English families of issue #20, one test each, against Saturday 2026-11-21 14:30 in Jerusalem. */
final class EnglishFamiliesTest {
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");
    private static final ZonedDateTime NOW = ZonedDateTime.of(2026, 11, 21, 14, 30, 0, 0, JERUSALEM);
    private static final TimeParser PARSER = TimeParser.create();

    /** Tuesday 2026-03-10 10:42:50 in Jerusalem: a now with seconds. */
    private static final ZonedDateTime WITH_SECONDS = ZonedDateTime.of(2026, 3, 10, 10, 42, 50, 0, JERUSALEM);

    private static TimeExpression parse(String text) {
        return parse(text, NOW);
    }

    private static TimeExpression parse(String text, ZonedDateTime now) {
        return PARSER.parse(text, now, Language.ENGLISH).orElseThrow(() -> new AssertionError("no time in: " + text));
    }

    private static String rrule(String text) {
        TimeExpression e = parse(text);
        assertThat(e).as(text).isInstanceOf(TimeExpression.Recurrence.class);
        return ((TimeExpression.Recurrence) e).toRrule();
    }

    private static ZonedDateTime local(String local) {
        return LocalDateTime.parse(local.length() == 10 ? local + "T00:00" : local)
                .atZone(JERUSALEM);
    }

    static void assertInstant(String text, String local, Grain grain) {
        assertInstant(NOW, text, local, grain);
    }

    static void assertInstant(ZonedDateTime now, String text, String local, Grain grain) {
        TimeExpression e = parse(text, now);
        assertThat(e).as(text).isInstanceOf(TimeExpression.Instant.class);
        TimeExpression.Instant i = (TimeExpression.Instant) e;
        assertThat(i.value()).as(text).isEqualTo(local(local));
        assertThat(i.grain()).as(text).isEqualTo(grain);
        assertThat(i.text()).as(text).isEqualTo(text);
    }

    private static TimeExpression.Interval assertInterval(String text, String from, String to, Grain grain) {
        TimeExpression e = parse(text);
        assertThat(e).as(text).isInstanceOf(TimeExpression.Interval.class);
        TimeExpression.Interval i = (TimeExpression.Interval) e;
        assertThat(i.from()).as(text).isEqualTo(local(from));
        assertThat(i.to()).as(text).isEqualTo(local(to));
        assertThat(i.grain()).as(text).isEqualTo(grain);
        return i;
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

    @Test
    void casualClockFormsSayTheHourAsPeopleDo() {
        assertInstant("nine tonight", "2026-11-21T21:00", Grain.HOUR);
        assertInstant("eight this evening", "2026-11-21T20:00", Grain.HOUR);
        assertInstant("half four", "2026-11-21T16:30", Grain.MINUTE);
        assertInstant("half ten tomorrow", "2026-11-22T10:30", Grain.MINUTE);
        assertInstant("ten to six", "2026-11-21T17:50", Grain.MINUTE);
        assertInstant("at 7.30", "2026-11-21T19:30", Grain.MINUTE);
        assertInstant("5ish", "2026-11-21T17:00", Grain.HOUR);
        assertInstant("noonish", "2026-11-22T12:00", Grain.HOUR);
        assertInstant("first thing tomorrow", "2026-11-22T09:00", Grain.HOUR);
        assertInstant("end of day Friday", "2026-11-27T17:00", Grain.HOUR);
    }

    @Test
    void hedgedAndIncrementalAmountsCountFromNowToTheSecond() {
        assertInstant(WITH_SECONDS, "in 1 minute", "2026-03-10T10:43:50", Grain.SECOND);
        assertInstant(WITH_SECONDS, "in 5 more minutes", "2026-03-10T10:47:50", Grain.SECOND);
        assertInstant(WITH_SECONDS, "at 10:43", "2026-03-10T10:43", Grain.MINUTE);
        assertInstant("in about 20 minutes", "2026-11-21T14:50", Grain.SECOND);
        assertInstant("in another 10 minutes", "2026-11-21T14:40", Grain.SECOND);
        assertInstant("in an hour and a half", "2026-11-21T16:00", Grain.SECOND);
        assertInstant("in 2h30", "2026-11-21T17:00", Grain.SECOND);
        assertInstant("in a half hour", "2026-11-21T15:00", Grain.SECOND);
        assertInstant("in 3 hours' time", "2026-11-21T17:30", Grain.SECOND);
        assertInstant("in 5 minutes or so", "2026-11-21T14:35", Grain.SECOND);
    }

    @Test
    void daysCountedFromEasterAndTheJewishHolidays() {
        assertInstant("two days after Easter", "2027-03-30", Grain.DAY);
        assertInstant("Good Friday", "2027-03-26", Grain.DAY);
        assertInstant("Easter 2026", "2026-04-05", Grain.DAY);
        assertInstant("Pentecost", "2027-05-16", Grain.DAY);
        assertInstant("Black Friday", "2026-11-27", Grain.DAY);
        assertInstant("the day after Rosh Hashanah", "2027-10-03", Grain.DAY);
        assertInstant("erev Pesach", "2027-04-21", Grain.DAY);
        assertInstant("Yom Ha'atzmaut", "2027-05-12", Grain.DAY);
        assertInterval("the week before Christmas", "2026-12-18", "2026-12-24", Grain.DAY);
    }

    @Test
    void spansFromNowTheRestOfAPeriodAndDaysOfOneMonth() {
        assertInterval("the next 2 hours", "2026-11-21T14:30", "2026-11-21T16:30", Grain.SECOND);
        assertInterval("for the next hour", "2026-11-21T14:30", "2026-11-21T15:30", Grain.SECOND);
        assertInterval("the rest of the week", "2026-11-21", "2026-11-22", Grain.DAY);
        assertInterval("the rest of the day", "2026-11-21T14:30", "2026-11-22T00:00", Grain.SECOND);
        assertInterval("Dec 3-6", "2026-12-03", "2026-12-06", Grain.DAY);
        assertInterval("3-6 Dec", "2026-12-03", "2026-12-06", Grain.DAY);
        assertInterval("I'm away from the 3rd to the 6th", "2026-12-03", "2026-12-06", Grain.DAY);
        assertInstant("all day Friday", "2026-11-27", Grain.DAY);
    }

    @Test
    void anIntervalSaysWhenItIsOver() {
        TimeExpression.Interval weeks = assertInterval("upcoming three weeks", "2026-11-23", "2026-12-07", Grain.WEEK);
        assertThat(weeks.end()).isEqualTo(local("2026-12-14"));
        assertThat(weeks.length()).isEqualTo(Duration.ofDays(21));
        TimeExpression.Interval days = assertInterval("Monday to Wednesday", "2026-11-23", "2026-11-25", Grain.DAY);
        assertThat(days.end()).isEqualTo(local("2026-11-26"));
        TimeExpression.Interval hours =
                assertInterval("from 5 to 7pm", "2026-11-21T17:00", "2026-11-21T19:00", Grain.HOUR);
        assertThat(hours.end()).isEqualTo(hours.to());
    }

    @Test
    void aTimeForSoLongIsAnInterval() {
        assertInterval("tomorrow at 11 for 90 minutes", "2026-11-22T11:00", "2026-11-22T12:30", Grain.MINUTE);
        assertInterval("at 2pm for an hour", "2026-11-22T14:00", "2026-11-22T15:00", Grain.HOUR);
        assertInterval("from 3 for 2 hours", "2026-11-21T15:00", "2026-11-21T17:00", Grain.HOUR);
        assertInterval("from the 3rd for a week", "2026-12-03", "2026-12-09", Grain.DAY);
        assertThat(PARSER.parse("for 90 minutes", NOW, Language.ENGLISH)).isEmpty();
    }

    @Test
    void daysOfTheMonthThatRepeatAndNudges() {
        assertThat(rrule("on the 10th every month")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(rrule("the 10th of each month at 9am")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10;BYHOUR=9;BYMINUTE=0");
        assertThat(rrule("every hour and a half")).isEqualTo("FREQ=MINUTELY;INTERVAL=90");
        assertThat(rrule("every couple of hours")).isEqualTo("FREQ=HOURLY;INTERVAL=2");
        TimeExpression.Recurrence nudge = (TimeExpression.Recurrence) parse("every 20 minutes", WITH_SECONDS);
        assertThat(nudge.first())
                .isEqualTo(LocalDateTime.parse("2026-03-10T11:02:50").atZone(JERUSALEM));
        assertThat(nudge.grain()).isEqualTo(Grain.SECOND);
        assertThat(PARSER.parse("every 30 seconds", NOW, Language.ENGLISH)
                        .filter(e -> e instanceof TimeExpression.Recurrence))
                .as("no nudge is closer than a minute")
                .isEmpty();
    }

    @Test
    void misspelledAndRunTogetherTimeWords() {
        assertInstant("thrusday", "2026-11-26", Grain.DAY);
        assertInstant("on wendsday", "2026-11-25", Grain.DAY);
        assertInstant("febuary 3rd", "2027-02-03", Grain.DAY);
        assertInstant("in 20 minuets", "2026-11-21T14:50", Grain.SECOND);
        assertInstant("tomorrowmorning", "2026-11-22T09:00", Grain.HOUR);
        assertInstant("nextweek", "2026-11-23", Grain.WEEK);
        assertInstant("7pmtomorrow", "2026-11-22T19:00", Grain.HOUR);
        assertThat(PARSER.parse("I might go", NOW, Language.ENGLISH))
                .as("a short word is not mended: 'might' is not 'night'")
                .isEmpty();
    }

    @Test
    void lengthsSaidOfAThing() {
        assertThat(PARSER.length("book a 90-minute review tomorrow at 11", Language.ENGLISH))
                .contains(Duration.ofMinutes(90));
        assertThat(PARSER.length("a 2 hour meeting", Language.ENGLISH)).contains(Duration.ofHours(2));
        assertThat(PARSER.length("schedule a half-hour call", Language.ENGLISH)).contains(Duration.ofMinutes(30));
        assertThat(PARSER.length("an hour-long workshop", Language.ENGLISH)).contains(Duration.ofHours(1));
        assertThat(PARSER.length("block my calendar for two hours", Language.ENGLISH))
                .contains(Duration.ofHours(2));
        assertThat(PARSER.length("remind me in 90 minutes", Language.ENGLISH))
                .as("an amount from now is when, not how long")
                .isEmpty();
        assertThat(PARSER.length("lunch tomorrow at noon", Language.ENGLISH)).isEmpty();
        assertThatThrownBy(() -> PARSER.length(" ", Language.ENGLISH)).isInstanceOf(TimeInputException.class);
    }
}
