package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** The English families of issues #20 and #27, one test each, against Saturday 2026-11-21 14:30 in Jerusalem. */
final class EnglishFamiliesTest {
    private static final Readings READ = new Readings(Language.ENGLISH);
    private static final TimeParser PARSER = Readings.PARSER;
    private static final ZonedDateTime NOW = Readings.NOW;
    private static final ZonedDateTime WITH_SECONDS = Readings.WITH_SECONDS;

    @Test
    void relativeDaysWeeksMonthsAndYearsKeepTheTimeOfDayToTheHour() {
        READ.instant("in 3 days", "2026-11-24T14:00", Grain.HOUR);
        READ.instant("two days from now", "2026-11-23T14:00", Grain.HOUR);
        READ.instant("9 days ago", "2026-11-12T14:00", Grain.HOUR);
        READ.instant("5 days hence", "2026-11-26T14:00", Grain.HOUR);
        READ.instant("a fortnight from now", "2026-12-05T14:00", Grain.HOUR);
        READ.instant("6 months ago", "2026-05-21T14:00", Grain.HOUR);
        READ.instant("in 5 yrs", "2031-11-21T14:00", Grain.HOUR);
    }

    @Test
    void theEdgesOfAPeriodAMonthOrAYearAreReadByTheEngine() {
        READ.instant("end of the quarter", "2026-12-31", Grain.DAY);
        READ.instant("the end of next quarter", "2027-03-31", Grain.DAY);
        READ.instant("start of 2027", "2027-01-01", Grain.DAY);
        READ.instant("mid-June", "2027-06-15", Grain.DAY);
        READ.instant("in the middle of next month", "2026-12-15", Grain.DAY);
        READ.instant("eoy", "2026-12-31", Grain.DAY);
        READ.instant("2nd qtr", "2027-04-01", Grain.QUARTER);
    }

    @Test
    void datesAreReadByTheEngineInEitherOrderWithShortYearsAndShifts() {
        READ.instant("3 May 16", "2016-05-03", Grain.DAY);
        READ.instant("May 3rd, 81", "1981-05-03", Grain.DAY);
        READ.instant("Oct 3 '90", "1990-10-03", Grain.DAY);
        READ.instant("March the 3rd", "2027-03-03", Grain.DAY);
        READ.instant("the 3rd of March", "2027-03-03", Grain.DAY);
        READ.instant("March after next", "2028-03-01", Grain.MONTH);
        READ.instant("March next year", "2027-03-01", Grain.MONTH);
        READ.instant("in 2027", "2027-01-01", Grain.YEAR);
        assertThat(PARSER.parse("may I go", NOW, Language.ENGLISH)).isEmpty();
    }

    @Test
    void amountsUnderADayAreExactToTheSecondAndMayBeFractionsOrPrimes() {
        READ.instant("in 3 and a half hours", "2026-11-21T18:00", Grain.SECOND);
        READ.instant("in a quarter of an hour", "2026-11-21T14:45", Grain.SECOND);
        READ.instant("in three quarters of an hour", "2026-11-21T15:15", Grain.SECOND);
        READ.instant("in 3/4 h", "2026-11-21T15:15", Grain.SECOND);
        READ.instant("in 10'", "2026-11-21T14:40", Grain.SECOND);
        READ.instant("in 2h", "2026-11-21T16:30", Grain.SECOND);
        READ.instant("in a couple of minutes", "2026-11-21T14:32", Grain.SECOND);
    }

    @Test
    void amountsFromNowAreReadByTheEngineFromTheLexiconsRoles() {
        READ.instant("in 30 seconds", "2026-11-21T14:30:30", Grain.SECOND); // "second" is also an ordinal
        READ.instant("another 10 minutes", "2026-11-21T14:40", Grain.SECOND);
        READ.instant("a further 10 minutes", "2026-11-21T14:40", Grain.SECOND);
        READ.instant("within about 10 minutes or so", "2026-11-21T14:40", Grain.SECOND);
        READ.instant("in 3 hours' time", "2026-11-21T17:30", Grain.SECOND);
        READ.instant("2 hours later", "2026-11-21T16:30", Grain.SECOND);
        READ.instant("an hour before now", "2026-11-21T13:30", Grain.SECOND);
        READ.instant("2 weeks after tomorrow", "2026-12-06", Grain.DAY);
    }

    @Test
    void aNumberAfterTheBeforeAmPmOrMinutesIsAClockNotADayOfTheMonth() {
        TimeExpression seven = READ.parse("turn off the 7am alarm");
        assertThat(seven.text()).isEqualTo("7am");
        assertThat(((TimeExpression.Instant) seven).value())
                .isEqualTo(((TimeExpression.Instant) READ.parse("7am")).value());
        assertThat(READ.parse("cancel the 6:30 alarm").text()).isEqualTo("6:30");
        READ.instant("the 7th", "2026-12-07", Grain.DAY);
    }

    @Test
    void clocksAreReadByTheEngineWithEnglishsOwnWordsAsLexiconData() {
        READ.instant("quarter past midday", "2026-11-22T12:15", Grain.MINUTE);
        READ.instant("twenty to five pm", "2026-11-21T16:40", Grain.MINUTE);
        READ.instant("half four tomorrow", "2026-11-22T16:30", Grain.MINUTE);
        READ.instant("nine oh five pm", "2026-11-21T21:05", Grain.MINUTE);
        READ.instant("at 14h45", "2026-11-21T14:45", Grain.MINUTE);
        READ.instant("12 midday", "2026-11-22T12:00", Grain.HOUR);
        READ.instant("4 o'clock pm", "2026-11-21T16:00", Grain.HOUR);
        READ.instant("at noon sharp", "2026-11-22T12:00", Grain.HOUR);
        READ.instant("5ish tomorrow", "2026-11-22T17:00", Grain.HOUR);
        READ.instant("8 tomorrow", "2026-11-22T08:00", Grain.HOUR);
        READ.instant("Dec 5 at 3", "2026-12-05T15:00", Grain.HOUR);
    }

    @Test
    void theEngineMergesAnInstantsPartsWithAllDayAndAZoneInParentheses() {
        READ.instant("all day Friday", "2026-11-27", Grain.DAY);
        READ.instant("Friday all day", "2026-11-27", Grain.DAY);
        TimeExpression.Instant pacific = (TimeExpression.Instant) READ.parse("at 3pm (PST)");
        assertThat(pacific.value().toInstant())
                .isEqualTo(Readings.local("2026-11-22T01:00").toInstant());
        assertThat(pacific.text()).isEqualTo("at 3pm (PST)");
    }

    @Test
    void countedWeekdaysFromNowOrAgoSkipToday() {
        READ.instant("three mondays from now", "2026-12-07", Grain.DAY);
        READ.instant("2 saturdays from now", "2026-12-05", Grain.DAY);
        READ.instant("2 fridays ago", "2026-11-13", Grain.DAY);
        READ.instant("3 wednesdays ago", "2026-11-04", Grain.DAY);
    }

    @Test
    void countedPeriodsAreIntervalsFromTheFirstToTheLastOfThem() {
        READ.interval("upcoming three days", "2026-11-22", "2026-11-24", Grain.DAY);
        READ.interval("3 upcoming weeks", "2026-11-23", "2026-12-07", Grain.WEEK);
        READ.interval("the past 2 weeks", "2026-11-02", "2026-11-09", Grain.WEEK);
        READ.interval("last 3 months", "2026-08-01", "2026-10-01", Grain.MONTH);
    }

    @Test
    void aDayOfARelativeMonthIsCountedFromItsStartOrItsEnd() {
        READ.instant("the 12th of next month", "2026-12-12", Grain.DAY);
        READ.instant("7 of this month", "2026-11-07", Grain.DAY);
        READ.instant("the 3rd day of last month", "2026-10-03", Grain.DAY);
        READ.instant("fourth day of June", "2027-06-04", Grain.DAY);
        READ.instant("last day of February 2016", "2016-02-29", Grain.DAY);
        READ.instant("second last day of April", "2027-04-29", Grain.DAY);
        assertThat(PARSER.parse("the 31st of this month", NOW)).isEmpty();
        READ.instant("mid June", "2027-06-15", Grain.DAY);
        READ.instant("the middle of next month", "2026-12-15", Grain.DAY);
    }

    @Test
    void ordinalWeeksStartOnMondayAndTheFirstHoldsThePeriodsFirstDay() {
        READ.instant("second week of March 2015", "2015-03-02", Grain.WEEK);
        READ.instant("last week of June 2019", "2019-06-24", Grain.WEEK);
        READ.instant("2nd last week of 2017", "2017-12-18", Grain.WEEK);
        READ.instant("next week's Friday", "2026-11-27", Grain.DAY);
        READ.instant("Monday from next week", "2026-11-23", Grain.DAY);
        READ.instant("Thursday of this week", "2026-11-19", Grain.DAY);
    }

    @Test
    void quartersAndYearsMayBeAbbreviated() {
        READ.instant("last qtr", "2026-07-01", Grain.QUARTER);
        READ.instant("2nd qtr", "2027-04-01", Grain.QUARTER);
        READ.instant("1st qtr 2019", "2019-01-01", Grain.QUARTER);
        READ.instant("19q2", "2019-04-01", Grain.QUARTER);
        READ.instant("2019Q2", "2019-04-01", Grain.QUARTER);
        READ.instant("next yr", "2027-01-01", Grain.YEAR);
    }

    @Test
    void yearMonthsAndTwoDigitYearsTakeTheCenturyThatMakesSense() {
        READ.instant("2015-06", "2015-06-01", Grain.MONTH);
        READ.instant("2015/06", "2015-06-01", Grain.MONTH);
        READ.instant("6/2015", "2015-06-01", Grain.MONTH);
        READ.instant("3rd May 16", "2016-05-03", Grain.DAY);
        READ.instant("May 3rd, 81", "1981-05-03", Grain.DAY);
        READ.instant("1/2/81", "1981-01-02", Grain.DAY);
    }

    @Test
    void aWeekdayWithADateIsTheSuchDateOnThatWeekdayNearestToNowPastOrFuture() {
        READ.instant("Mon, Sep 8", "2025-09-08", Grain.DAY);
        READ.instant("Sunday, Feb 10", "2030-02-10", Grain.DAY);
        READ.instant("Wednesday, Jan 9", "2030-01-09", Grain.DAY);
        READ.instant("Sat 21st", "2026-11-21", Grain.DAY);
        READ.instant("Friday 13th", "2026-11-13", Grain.DAY);
        READ.instant("Friday, December 25", "2026-12-25", Grain.DAY);
    }

    @Test
    void monthsAndDaysAreReckonedFromOtherDates() {
        READ.instant("June in a year", "2027-06-01", Grain.MONTH);
        READ.instant("June after next", "2028-06-01", Grain.MONTH);
        READ.instant("two years from Christmas", "2028-12-25", Grain.DAY);
        READ.instant("second Friday after New Year 2016", "2016-01-15", Grain.DAY);
        READ.instant("the closest Tuesday to June 3rd", "2027-06-01", Grain.DAY);
        READ.instant("the day after Christmas", "2026-12-26", Grain.DAY);
        // the weekday named first, as Hebrew and Russian say it
        READ.instant("Friday after Christmas", "2027-01-01", Grain.DAY);
        READ.instant("Tuesday closest to June 3rd", "2027-06-01", Grain.DAY);
        READ.instant("Friday after next", "2026-12-04", Grain.DAY);
    }

    @Test
    void holidaysAreTheirNextDateFromToday() {
        READ.instant("Christmas", "2026-12-25", Grain.DAY);
        READ.instant("New Year's Eve", "2026-12-31", Grain.DAY);
        READ.instant("Valentine's Day", "2027-02-14", Grain.DAY);
        READ.instant("Halloween", "2027-10-31", Grain.DAY);
        READ.instant("Thanksgiving", "2026-11-26", Grain.DAY);
        READ.instant("Christmas 2016", "2016-12-25", Grain.DAY);
        READ.instant("Hanukkah", "2026-12-05", Grain.DAY);
        READ.instant("Passover 2027", "2027-04-22", Grain.DAY);
    }

    @Test
    void clockFormsPeopleWrite() {
        READ.instant("14h45", "2026-11-21T14:45", Grain.MINUTE);
        READ.instant("7h05", "2026-11-22T07:05", Grain.MINUTE);
        READ.instant("at 11 40", "2026-11-21T23:40", Grain.MINUTE);
        READ.instant("eleven fifteen pm", "2026-11-21T23:15", Grain.MINUTE);
        READ.instant("8 tomorrow", "2026-11-22T08:00", Grain.HOUR);
        READ.instant("4 o'clock am", "2026-11-22T04:00", Grain.HOUR);
        READ.instant("midday", "2026-11-22T12:00", Grain.HOUR);
        READ.instant("quarter past noon", "2026-11-22T12:15", Grain.MINUTE);
        READ.instant("late evening @ 9", "2026-11-21T21:00", Grain.HOUR);
        READ.instant("tonight at 12", "2026-11-22T00:00", Grain.HOUR);
        READ.instant("tomorrow at 230ish", "2026-11-22T14:30", Grain.MINUTE);
    }

    @Test
    void zonesNamedInTheTextAreConvertedToTheZoneOfNow() {
        READ.instant("Friday 10h UTC", "2026-11-27T12:00", Grain.HOUR);
        READ.instant("8 pm (CET)", "2026-11-21T21:00", Grain.HOUR);
    }

    @Test
    void wordsForNowAndCommonTyposOfTimeWords() {
        READ.instant("right now", "2026-11-21T14:30", Grain.SECOND);
        READ.instant("atm", "2026-11-21T14:30", Grain.SECOND);
        READ.instant("at the moment", "2026-11-21T14:30", Grain.SECOND);
        READ.instant("tommorow", "2026-11-22", Grain.DAY);
        READ.instant("todays", "2026-11-21", Grain.DAY);
        READ.instant("2morrow", "2026-11-22", Grain.DAY);
    }

    @Test
    void casualClockFormsSayTheHourAsPeopleDo() {
        READ.instant("nine tonight", "2026-11-21T21:00", Grain.HOUR);
        READ.instant("eight this evening", "2026-11-21T20:00", Grain.HOUR);
        READ.instant("half four", "2026-11-21T16:30", Grain.MINUTE);
        READ.instant("half ten tomorrow", "2026-11-22T10:30", Grain.MINUTE);
        READ.instant("ten to six", "2026-11-21T17:50", Grain.MINUTE);
        READ.instant("at 7.30", "2026-11-21T19:30", Grain.MINUTE);
        READ.instant("5ish", "2026-11-21T17:00", Grain.HOUR);
        READ.instant("noonish", "2026-11-22T12:00", Grain.HOUR);
        READ.instant("first thing tomorrow", "2026-11-22T09:00", Grain.HOUR);
        READ.instant("end of day Friday", "2026-11-27T17:00", Grain.HOUR);
    }

    @Test
    void hedgedAndIncrementalAmountsCountFromNowToTheSecond() {
        READ.instant(WITH_SECONDS, "in 1 minute", "2026-03-10T10:43:50", Grain.SECOND);
        READ.instant(WITH_SECONDS, "in 5 more minutes", "2026-03-10T10:47:50", Grain.SECOND);
        READ.instant(WITH_SECONDS, "at 10:43", "2026-03-10T10:43", Grain.MINUTE);
        READ.instant("in about 20 minutes", "2026-11-21T14:50", Grain.SECOND);
        READ.instant("in another 10 minutes", "2026-11-21T14:40", Grain.SECOND);
        READ.instant("in an hour and a half", "2026-11-21T16:00", Grain.SECOND);
        READ.instant("in 2h30", "2026-11-21T17:00", Grain.SECOND);
        READ.instant("in a half hour", "2026-11-21T15:00", Grain.SECOND);
        READ.instant("in 3 hours' time", "2026-11-21T17:30", Grain.SECOND);
        READ.instant("in 5 minutes or so", "2026-11-21T14:35", Grain.SECOND);
    }

    @Test
    void daysCountedFromEasterAndTheJewishHolidays() {
        READ.instant("two days after Easter", "2027-03-30", Grain.DAY);
        READ.instant("Good Friday", "2027-03-26", Grain.DAY);
        READ.instant("Easter 2026", "2026-04-05", Grain.DAY);
        READ.instant("Pentecost", "2027-05-16", Grain.DAY);
        READ.instant("Black Friday", "2026-11-27", Grain.DAY);
        READ.instant("the day after Rosh Hashanah", "2027-10-03", Grain.DAY);
        READ.instant("erev Pesach", "2027-04-21", Grain.DAY);
        READ.instant("Yom Ha'atzmaut", "2027-05-12", Grain.DAY);
        READ.interval("the week before Christmas", "2026-12-18", "2026-12-24", Grain.DAY);
    }

    @Test
    void spansFromNowTheRestOfAPeriodAndDaysOfOneMonth() {
        READ.interval("the next 2 hours", "2026-11-21T14:30", "2026-11-21T16:30", Grain.SECOND);
        READ.interval("for the next hour", "2026-11-21T14:30", "2026-11-21T15:30", Grain.SECOND);
        READ.interval("the rest of the week", "2026-11-21", "2026-11-22", Grain.DAY);
        READ.interval("the rest of the day", "2026-11-21T14:30", "2026-11-22T00:00", Grain.SECOND);
        READ.interval("Dec 3-6", "2026-12-03", "2026-12-06", Grain.DAY);
        READ.interval("3-6 Dec", "2026-12-03", "2026-12-06", Grain.DAY);
        READ.interval("I'm away from the 3rd to the 6th", "2026-12-03", "2026-12-06", Grain.DAY);
        READ.instant("all day Friday", "2026-11-27", Grain.DAY);
    }

    @Test
    void anIntervalSaysWhenItIsOver() {
        TimeExpression.Interval weeks = READ.interval("upcoming three weeks", "2026-11-23", "2026-12-07", Grain.WEEK);
        assertThat(weeks.end()).isEqualTo(Readings.local("2026-12-14"));
        assertThat(weeks.length()).isEqualTo(Duration.ofDays(21));
        TimeExpression.Interval days = READ.interval("Monday to Wednesday", "2026-11-23", "2026-11-25", Grain.DAY);
        assertThat(days.end()).isEqualTo(Readings.local("2026-11-26"));
        TimeExpression.Interval hours =
                READ.interval("from 5 to 7pm", "2026-11-21T17:00", "2026-11-21T19:00", Grain.HOUR);
        assertThat(hours.end()).isEqualTo(hours.to());
    }

    @Test
    void aTimeForSoLongIsAnInterval() {
        READ.interval("tomorrow at 11 for 90 minutes", "2026-11-22T11:00", "2026-11-22T12:30", Grain.MINUTE);
        READ.interval("at 2pm for an hour", "2026-11-22T14:00", "2026-11-22T15:00", Grain.HOUR);
        READ.interval("from 3 for 2 hours", "2026-11-21T15:00", "2026-11-21T17:00", Grain.HOUR);
        READ.interval("from the 3rd for a week", "2026-12-03", "2026-12-09", Grain.DAY);
        assertThat(PARSER.parse("for 90 minutes", NOW, Language.ENGLISH)).isEmpty();
    }

    @Test
    void theHeadsOfRecurrencesAreTheEnginesRules() {
        assertThat(READ.rrule("once a week")).isEqualTo("FREQ=WEEKLY");
        assertThat(READ.rrule("once per month")).isEqualTo("FREQ=MONTHLY");
        assertThat(READ.rrule("once every day")).isEqualTo("FREQ=DAILY");
        assertThat(PARSER.parse("twice a week", NOW, Language.ENGLISH)).isEmpty();
        assertThat(READ.rrule("on the 1st of every month")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=1");
        assertThat(READ.rrule("every 10th of the month")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(READ.rrule("every 10th")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(READ.rrule("every 2nd day of the month")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=2");
        assertThat(READ.rrule("the 1st Monday of every month")).isEqualTo("FREQ=MONTHLY;BYDAY=1MO");
        assertThat(READ.rrule("every 2nd Monday of the month")).isEqualTo("FREQ=MONTHLY;BYDAY=2MO");
        assertThat(READ.rrule("the last Friday of every month")).isEqualTo("FREQ=MONTHLY;BYDAY=-1FR");
        assertThat(READ.rrule("every March 5")).isEqualTo("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=5");
        assertThat(READ.rrule("every 10th of March")).isEqualTo("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=10");
        assertThat(READ.rrule("every single Monday")).isEqualTo("FREQ=WEEKLY;BYDAY=MO");
        assertThat(READ.rrule("every single day")).isEqualTo("FREQ=DAILY");
    }

    @Test
    void theModifiersOfRecurrencesAreTheEnginesRules() {
        assertThat(READ.rrule("every day at 9am and 5pm")).isEqualTo("FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0");
        assertThat(READ.rrule("every day at 9 in the evening")).isEqualTo("FREQ=DAILY;BYHOUR=21;BYMINUTE=0");
        assertThat(READ.rrule("every week on Mon, Wed and Fri")).isEqualTo("FREQ=WEEKLY;BYDAY=MO,WE,FR");
        assertThat(READ.rrule("every week on Mon & Wed")).isEqualTo("FREQ=WEEKLY;BYDAY=MO,WE");
        assertThat(READ.rrule("every Mon/Wed at 9")).isEqualTo("FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=9;BYMINUTE=0");
        assertThat(READ.rrule("every week on weekdays")).isEqualTo("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR");
        assertThat(READ.rrule("daily on Tuesday")).isEqualTo("FREQ=WEEKLY;BYDAY=TU");
        assertThat(READ.rrule("monthly on the 15th")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=15");
        assertThat(READ.rrule("every month on the 1st of the month")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=1");
        assertThat(READ.parse("monthly 10 minutes").text()).isEqualTo("monthly");
        assertThat(READ.rrule("yearly on March 5")).isEqualTo("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=5");
        assertThat(READ.rrule("every day in the morning")).isEqualTo("FREQ=DAILY;BYHOUR=9;BYMINUTE=0");
        assertThat(READ.rrule("every day ending Friday")).isEqualTo("FREQ=DAILY;UNTIL=20261127T215959Z");
        assertThat(READ.rrule("every day up to Friday")).isEqualTo("FREQ=DAILY;UNTIL=20261127T215959Z");
        assertThat(READ.rrule("every day to Friday")).isEqualTo("FREQ=DAILY;UNTIL=20261127T215959Z");
        assertThat(READ.rrule("every weekday 9am to 5pm"))
                .as("the hours of a day are not the end of the recurrence")
                .doesNotContain("UNTIL");
        assertThat(READ.rrule("every 10 minutes to 5pm"))
                .as("a time alone ends a recurrence that has none of its own yet")
                .isEqualTo("FREQ=MINUTELY;INTERVAL=10;UNTIL=20261121T150000Z");
        assertThat(READ.parse("every hour at 5").text()).isEqualTo("every hour");
        assertThat(READ.rrule("every day @ 9")).isEqualTo("FREQ=DAILY;BYHOUR=9;BYMINUTE=0");
        assertThat(READ.rrule("every day around 9")).isEqualTo("FREQ=DAILY;BYHOUR=9;BYMINUTE=0");
        assertThat(READ.rrule("every morning 7")).isEqualTo("FREQ=DAILY;BYHOUR=7;BYMINUTE=0");
    }

    @Test
    void anOrdinalInDigitsCountsLikeOneInWords() {
        assertThat(READ.rrule("every 2nd week")).isEqualTo("FREQ=WEEKLY;INTERVAL=2");
        assertThat(READ.rrule("every 2nd day")).isEqualTo("FREQ=DAILY;INTERVAL=2");
        assertThat(READ.rrule("every 3rd Monday")).isEqualTo("FREQ=WEEKLY;INTERVAL=3;BYDAY=MO");
    }

    @Test
    void daysOfTheMonthThatRepeatAndNudges() {
        assertThat(READ.rrule("on the 10th every month")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(READ.rrule("the 10th of each month at 9am"))
                .isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10;BYHOUR=9;BYMINUTE=0");
        assertThat(READ.rrule("every hour and a half")).isEqualTo("FREQ=MINUTELY;INTERVAL=90");
        assertThat(READ.rrule("every quarter hour")).isEqualTo("FREQ=MINUTELY;INTERVAL=15");
        assertThat(READ.rrule("every third day")).isEqualTo("FREQ=DAILY;INTERVAL=3");
        assertThat(READ.rrule("every second Monday")).isEqualTo("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO");
        assertThat(READ.rrule("every quarter of an hour")).isEqualTo("FREQ=MINUTELY;INTERVAL=15");
        assertThat(READ.rrule("nightly")).isEqualTo("FREQ=DAILY;BYHOUR=21;BYMINUTE=0");
        assertThat(READ.rrule("every couple of hours")).isEqualTo("FREQ=HOURLY;INTERVAL=2");
        TimeExpression.Recurrence nudge = (TimeExpression.Recurrence) READ.parse("every 20 minutes", WITH_SECONDS);
        assertThat(nudge.first())
                .isEqualTo(LocalDateTime.parse("2026-03-10T11:02:50").atZone(Readings.JERUSALEM));
        assertThat(nudge.grain()).isEqualTo(Grain.SECOND);
        assertThat(PARSER.parse("every 30 seconds", NOW, Language.ENGLISH)
                        .filter(e -> e instanceof TimeExpression.Recurrence))
                .as("no nudge is closer than a minute")
                .isEmpty();
    }

    @Test
    void misspelledAndRunTogetherTimeWords() {
        READ.instant("thrusday", "2026-11-26", Grain.DAY);
        READ.instant("on wendsday", "2026-11-25", Grain.DAY);
        READ.instant("febuary 3rd", "2027-02-03", Grain.DAY);
        READ.instant("in 20 minuets", "2026-11-21T14:50", Grain.SECOND);
        READ.instant("tomorrowmorning", "2026-11-22T09:00", Grain.HOUR);
        READ.instant("nextweek", "2026-11-23", Grain.WEEK);
        READ.instant("7pmtomorrow", "2026-11-22T19:00", Grain.HOUR);
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
        assertThat(PARSER.length("a review lasting 45 minutes", Language.ENGLISH))
                .contains(Duration.ofMinutes(45));
        assertThat(PARSER.length("the call is two hours long", Language.ENGLISH))
                .contains(Duration.ofHours(2));
        assertThat(PARSER.length("hold the room for about an hour and a half", Language.ENGLISH))
                .contains(Duration.ofMinutes(90));
        assertThat(PARSER.length("remind me in 90 minutes", Language.ENGLISH))
                .as("an amount from now is when, not how long")
                .isEmpty();
        assertThat(PARSER.length("lunch tomorrow at noon", Language.ENGLISH)).isEmpty();
        assertThatThrownBy(() -> PARSER.length(" ", Language.ENGLISH)).isInstanceOf(TimeInputException.class);
    }

    @Test
    void theFamiliesOfIssue39AreReadByTheSharedEngine() {
        READ.instant("the 20th of the current month", "2026-11-20", Grain.DAY);
        READ.instant("20th of the previous month", "2026-10-20", Grain.DAY);
        READ.instant("the upcoming week", "2026-11-23", Grain.WEEK);
        READ.instant("upcoming month", "2026-12-01", Grain.MONTH);
        READ.instant("March in 1 year", "2027-03-01", Grain.MONTH);
        READ.instant("the ides of March", "2027-03-15", Grain.DAY);
        READ.instant("ides of January", "2027-01-13", Grain.DAY);
        READ.instant("at this time", "2026-11-21T14:30", Grain.SECOND);
        READ.instant("10/31/74", "1974-10-31", Grain.DAY);
    }

    @Test
    void aFullStopAfterADayEndsTheSentenceItMakesNoClock() {
        var found = PARSER.find("The party is on December 17. Headcount is 140.", NOW, Language.ENGLISH);
        assertThat(found).hasSize(1);
        TimeExpression.Instant day = (TimeExpression.Instant) found.getFirst();
        assertThat(day.value()).isEqualTo(Readings.local("2026-12-17"));
        assertThat(day.grain()).isEqualTo(Grain.DAY);
        assertThat(day.text()).isEqualTo("on December 17");
    }
}
