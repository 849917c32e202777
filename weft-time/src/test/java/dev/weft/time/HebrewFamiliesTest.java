package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** The Hebrew families of issues #20 and #27, one test each, against Saturday 2026-11-21 14:30 in Jerusalem. */
final class HebrewFamiliesTest {
    private static final Readings READ = new Readings(Language.HEBREW);
    private static final TimeParser PARSER = Readings.PARSER;
    private static final ZonedDateTime NOW = Readings.NOW;
    private static final ZonedDateTime WITH_SECONDS = Readings.WITH_SECONDS;

    @Test
    void relativeDaysKeepTheTimeOfDayToTheHour() {
        READ.instant("בעוד חמישה ימים", "2026-11-26T14:00", Grain.HOUR);
        READ.instant("לפני שלושה ימים", "2026-11-18T14:00", Grain.HOUR);
        READ.instant("כעבור יומיים", "2026-11-23T14:00", Grain.HOUR);
        READ.instant("בעוד חצי שנה", "2027-05-21T14:00", Grain.HOUR);
        READ.instant("בעוד שלושת רבעי שעה", "2026-11-21T15:15", Grain.SECOND);
    }

    @Test
    void anNthIsSaidAfterWhatItCountsWithTheArticleAsItsThingHasIt() {
        READ.instant("היום השלישי של החודש", "2026-11-03", Grain.DAY);
        READ.instant("היום הלפני אחרון באפריל", "2027-04-29", Grain.DAY);
        READ.instant("היום השני מהסוף של 2027", "2027-12-30", Grain.DAY);
        READ.instant("השבוע השני של ינואר", "2027-01-03", Grain.WEEK);
        READ.instant("שבת האחרונה של דצמבר", "2026-12-26", Grain.DAY);
        READ.instant("יום שני האחרון של מרץ הבא", "2027-03-29", Grain.DAY);
        // with no article "שלישי" is Tuesday, not the third day of the month
        TimeExpression tuesday = READ.parse("יום שלישי של החודש");
        assertThat(((TimeExpression.Instant) tuesday).text()).isEqualTo("יום שלישי");
    }

    @Test
    void aWeekdayNamedBeforeTheDateItIsCountedFromOrNearestTo() {
        READ.instant("השבת שלפני פסח", "2027-04-17", Grain.DAY);
        READ.instant("יום ראשון שאחרי ה-5 במרץ", "2027-03-07", Grain.DAY);
        READ.instant("שישי השני אחרי חנוכה", "2026-12-18", Grain.DAY);
        READ.instant("ביום שלישי הכי קרוב ביותר לפסח", "2027-04-20", Grain.DAY);
        READ.instant("יום שני הקרוב", "2026-11-23", Grain.DAY); // alone, "הקרוב" is the next one
    }

    @Test
    void aDayOfTheMonthSaidByItsCardinal() {
        READ.instant("חמישה עשר במרץ", "2027-03-15", Grain.DAY);
        READ.instant("בעשרים ושלושה ביוני", "2027-06-23", Grain.DAY);
        READ.instant("שלושים ואחד בדצמבר", "2026-12-31", Grain.DAY);
    }

    @Test
    void countedWeekdaysFromNowOrAgoSkipToday() {
        READ.instant("בעוד שלושה ימי שני", "2026-12-07", Grain.DAY);
        READ.instant("לפני שני ימי שישי", "2026-11-13", Grain.DAY);
    }

    @Test
    void countedPeriodsAreIntervalsFromTheFirstToTheLastOfThem() {
        READ.interval("בשלושת הימים הקרובים", "2026-11-22", "2026-11-24", Grain.DAY);
        READ.interval("ב-3 הימים הבאים", "2026-11-22", "2026-11-24", Grain.DAY);
        READ.interval("בשבועיים האחרונים", "2026-11-01", "2026-11-08", Grain.WEEK);
    }

    @Test
    void aDayOfARelativeMonthIsCountedFromItsStartOrItsEnd() {
        READ.instant("ב-7 לחודש הזה", "2026-11-07", Grain.DAY);
        READ.instant("ב-3 לחודש שעבר", "2026-10-03", Grain.DAY);
        READ.instant("היום השלישי של החודש שעבר", "2026-10-03", Grain.DAY);
        READ.instant("היום האחרון של פברואר 2016", "2016-02-29", Grain.DAY);
        READ.instant("היום הלפני אחרון באפריל", "2027-04-29", Grain.DAY);
    }

    @Test
    void periodsSayThisOneByTheArticleAndCountQuartersToo() {
        READ.instant("השבוע", "2026-11-15", Grain.WEEK);
        READ.instant("מהחודש", "2026-11-01", Grain.MONTH);
        READ.instant("השבוע הבא אחרי הבא", "2026-11-29", Grain.WEEK);
        READ.instant("ברבעון הבא", "2027-01-01", Grain.QUARTER);
        READ.instant("ברבעון הקודם", "2026-07-01", Grain.QUARTER);
    }

    @Test
    void weekdaysSayWhichOneAfterTheirName() {
        READ.instant("יום שני הבא אחרי הבא", "2026-11-30", Grain.DAY);
        READ.instant("בחמישי הקרוב", "2026-11-26", Grain.DAY);
        READ.instant("יום רביעי השבוע", "2026-11-18", Grain.DAY);
        READ.instant("ביום ראשון שעבר", "2026-11-15", Grain.DAY);
        READ.instant("ביום ג' של השבוע הבא", "2026-11-24", Grain.DAY);
        READ.interval("משני עד רביעי", "2026-11-23", "2026-11-25", Grain.DAY); // Monday, not 2 o'clock
    }

    @Test
    void theEndOrTheStartOfAPeriodOrAMonth() {
        READ.instant("בסוף השנה", "2026-12-31", Grain.DAY);
        READ.instant("תחילת החודש הבא", "2026-12-01", Grain.DAY);
        READ.instant("בסוף מרץ 2027", "2027-03-31", Grain.DAY);
        READ.interval("סוף שבוע", "2026-11-20", "2026-11-21", Grain.DAY); // the weekend, not the end of a week
    }

    @Test
    void theRestOfAPeriodRunsFromTodayToItsLastDay() {
        READ.interval("בשאר החודש", "2026-11-21", "2026-11-30", Grain.DAY);
        READ.interval("לשארית השנה", "2026-11-21", "2026-12-31", Grain.DAY);
    }

    @Test
    void ordinalWeeksStartOnSunday() {
        READ.instant("השבוע השני של מרץ 2015", "2015-03-08", Grain.WEEK);
        READ.instant("השבוע האחרון של יוני 2019", "2019-06-30", Grain.WEEK);
        READ.instant("השבוע הלפני אחרון של 2017", "2017-12-24", Grain.WEEK);
        READ.instant("יום רביעי של שבוע הבא", "2026-11-25", Grain.DAY);
    }

    @Test
    void quartersYearMonthsAndTwoDigitYears() {
        READ.instant("רבעון 1 2019", "2019-01-01", Grain.QUARTER);
        READ.instant("הרבעון האחרון של 2025", "2025-10-01", Grain.QUARTER);
        READ.instant("2019Q2", "2019-04-01", Grain.QUARTER);
        READ.instant("06/2015", "2015-06-01", Grain.MONTH);
        READ.instant("3 במאי 16", "2016-05-03", Grain.DAY);
    }

    @Test
    void aMonthNameThenANumberIsADateNotAnHour() {
        READ.instant("יוני 12", "2027-06-12", Grain.DAY);
        READ.instant("באפריל 7", "2027-04-07", Grain.DAY);
        READ.instant("מאי 9, 2016", "2016-05-09", Grain.DAY);
        READ.instant("באמצע יוני", "2027-06-15", Grain.DAY);
        READ.instant("בתחילת החודש הבא", "2026-12-01", Grain.DAY);
    }

    @Test
    void aWeekdayWithADateIsTheOneThatFitsNearestToNowPastOrFuture() {
        READ.instant("שלישי, 5 למרץ", "2024-03-05", Grain.DAY);
        READ.instant("יום שישי, 25 בדצמבר", "2026-12-25", Grain.DAY);
        READ.instant("יום שישי ה-13", "2026-11-13", Grain.DAY);
    }

    @Test
    void englishAmPmInsideHebrewText() {
        READ.instant("ב-8 PM", "2026-11-21T20:00", Grain.HOUR);
        READ.instant("מחר ב-9am", "2026-11-22T09:00", Grain.HOUR);
        READ.instant("ב-7:30 pm", "2026-11-21T19:30", Grain.MINUTE);
    }

    @Test
    void hebrewCalendarHolidaysAndDaysThroughIcu4j() {
        READ.instant("חנוכה", "2026-12-05", Grain.DAY);
        READ.instant("פסח", "2027-04-22", Grain.DAY);
        READ.instant("ראש השנה", "2027-10-02", Grain.DAY);
        READ.instant("יום כיפור 2026", "2026-09-21", Grain.DAY);
        READ.instant("ט\"ו בשבט", "2027-01-23", Grain.DAY);
        READ.instant("בניסן", "2027-04-08", Grain.MONTH);
        READ.instant("כריסמס", "2026-12-25", Grain.DAY);
    }

    @Test
    void aDayAndAMonthInEitherOrderAreReadByTheEngineANumberBeforeAPartOfTheDayIsAnHour() {
        READ.instant("15, במרץ", "2027-03-15", Grain.DAY);
        READ.instant("3 במאי, 81", "1981-05-03", Grain.DAY);
        READ.instant("חמישה עשר במרץ", "2027-03-15", Grain.DAY);
        READ.instant("מאי 9, 2016", "2016-05-09", Grain.DAY);
        READ.instant("ב-15 לחודש", "2026-12-15", Grain.DAY);
        READ.instant("בעשרים לחודש הבא", "2026-12-20", Grain.DAY);
        READ.instant("במרץ 5 בערב", "2027-03-01T17:00", Grain.HOUR);
        READ.instant("במרץ 5 וחצי", "2027-03-01T17:30", Grain.MINUTE);
    }

    @Test
    void aMonthAloneWithItsYearOrWhichOneAndAYearAreReadByTheEngine() {
        READ.instant("בינואר הבא", "2027-01-01", Grain.MONTH);
        READ.instant("במרץ שעבר", "2026-03-01", Grain.MONTH);
        READ.instant("יוני הבא אחרי הבא", "2028-06-01", Grain.MONTH);
        READ.instant("מרץ בעוד שנתיים", "2028-03-01", Grain.MONTH);
        READ.instant("מאי 2027", "2027-05-01", Grain.MONTH);
        READ.instant("בשנת 2027", "2027-01-01", Grain.YEAR);
        READ.instant("ב-2027", "2027-01-01", Grain.YEAR);
        assertThat(Readings.PARSER.find("נפגשתי עם מאי", Readings.NOW, Language.HEBREW))
                .isEmpty(); // a name
        assertThat(Readings.PARSER.find("יש לי שני ילדים", Readings.NOW, Language.HEBREW))
                .isEmpty(); // no day "2"
    }

    @Test
    void aDayOfTheHebrewCalendarInLettersDigitsOrWordsWithAYearInDigitsOrLetters() {
        READ.instant("א' בניסן תשפ\"ז", "2027-04-08", Grain.DAY);
        READ.instant("ט\"ו בשבט תשפ\"ח", "2028-02-12", Grain.DAY);
        READ.instant("א' בניסן 2027", "2027-04-08", Grain.DAY);
        READ.instant("חמישה עשר בניסן", "2027-04-22", Grain.DAY);
        READ.instant("י\"ד באדר א", "2027-02-21", Grain.DAY);
        READ.instant("כ\"ה באדר ב'", "2027-04-03", Grain.DAY);
        assertThat(Readings.PARSER.parse("באב", Readings.NOW, Language.HEBREW)).isEmpty(); // "in a father"
    }

    @Test
    void shavuotIsAHolidayOnlyWhereTheWordsAroundItSaySoAndAnEveIsTheDayBefore() {
        READ.instant("בשבועות", "2027-06-11", Grain.DAY);
        READ.instant("חג שבועות 2027", "2027-06-11", Grain.DAY);
        READ.instant("ערב שבועות", "2027-06-10", Grain.DAY);
        READ.instant("למחרת שבועות", "2027-06-12", Grain.DAY);
        READ.instant("בערב פסח", "2027-04-21", Grain.DAY);
        READ.instant("ערב פסחא", "2027-03-27", Grain.DAY);
        READ.instant("הערב", "2026-11-21T19:00", Grain.HOUR); // with the article: this evening, no eve
    }

    @Test
    void israeliObservancesMoveOffTheDaysTheLawMovesThemOff() {
        // 5 Iyar 5788 is Monday 2028-05-01: Independence Day moves to Tuesday, Memorial Day with it
        READ.instant("יום העצמאות 2028", "2028-05-02", Grain.DAY);
        READ.instant("יום העצמאות 2027", "2027-05-12", Grain.DAY);
        READ.instant("יום הזיכרון", "2027-05-11", Grain.DAY);
    }

    @Test
    void monthsInAnotherYearAndAmountsFromADate() {
        READ.instant("יוני בעוד שנה", "2027-06-01", Grain.MONTH);
        READ.instant("יוני בשנה הבאה", "2027-06-01", Grain.MONTH);
        READ.instant("שבוע לפני פסח", "2027-04-15", Grain.DAY);
        READ.instant("שנתיים אחרי חנוכה", "2028-12-05", Grain.DAY);
        READ.instant("יום שישי השני אחרי ראש השנה", "2027-10-15", Grain.DAY);
        READ.instant("יום שלישי הכי קרוב ל-3 ביוני", "2027-06-01", Grain.DAY);
    }

    @Test
    void clockFormsAndZones() {
        READ.instant("הלילה ב-12", "2026-11-22T00:00", Grain.HOUR);
        READ.instant("ב-8 בערב (CET)", "2026-11-21T21:00", Grain.HOUR);
        READ.instant("ביום שישי ב-10 UTC", "2026-11-27T12:00", Grain.HOUR);
    }

    @Test
    void wordsForNowAndCommonTypos() {
        READ.instant("ממש עכשיו", "2026-11-21T14:30", Grain.SECOND);
        READ.instant("ברגע זה", "2026-11-21T14:30", Grain.SECOND);
        READ.instant("עכשו", "2026-11-21T14:30", Grain.SECOND);
        READ.instant("מחרתים", "2026-11-23", Grain.DAY);
        READ.instant("נכון לעכשיו", "2026-11-21T14:30", Grain.SECOND);
        READ.instant("עכשיו מיד", "2026-11-21T14:30", Grain.SECOND);
        READ.instant("שלשום", "2026-11-19", Grain.DAY);
        READ.instant("ומחרתיים", "2026-11-23", Grain.DAY);
    }

    @Test
    void hoursAsPeopleSayThem() {
        READ.instant("לאחת עשרה", "2026-11-21T23:00", Grain.HOUR);
        READ.instant("תשע בערב", "2026-11-21T21:00", Grain.HOUR);
        READ.instant("הערב בתשע", "2026-11-21T21:00", Grain.HOUR);
        READ.instant("ברבע לשש", "2026-11-21T17:45", Grain.MINUTE);
        READ.instant("ברבע אחרי שמונה", "2026-11-21T20:15", Grain.MINUTE);
        READ.instant("על הבוקר", "2026-11-22T09:00", Grain.HOUR);
        READ.instant("מחר דבר ראשון בבוקר", "2026-11-22T09:00", Grain.HOUR);
        READ.instant("בסביבות הצהריים", "2026-11-22T12:00", Grain.HOUR);
        assertThat(PARSER.parse("תזמין שולחן לארבעה", NOW, Language.HEBREW))
                .as("a count of people is no hour")
                .isEmpty();
    }

    @Test
    void hedgedAndIncrementalAmountsCountFromNowToTheSecond() {
        READ.instant(WITH_SECONDS, "בעוד דקה", "2026-03-10T10:43:50", Grain.SECOND);
        READ.instant(WITH_SECONDS, "ב-10:43", "2026-03-10T10:43", Grain.MINUTE);
        READ.instant("בעוד כרבע שעה", "2026-11-21T14:45", Grain.SECOND);
        READ.instant("בעוד עוד 5 דקות", "2026-11-21T14:35", Grain.SECOND);
        READ.instant("בעוד 5 דקות נוספות", "2026-11-21T14:35", Grain.SECOND);
        READ.instant("עוד עשר דקות בערך", "2026-11-21T14:40", Grain.SECOND);
    }

    @Test
    void daysCountedFromHolidays() {
        READ.instant("יומיים אחרי פסח", "2027-04-24", Grain.DAY);
        READ.instant("למחרת ראש השנה", "2027-10-03", Grain.DAY);
        READ.instant("ביום שלפני ראש השנה", "2027-10-01", Grain.DAY);
        READ.instant("ערב שבועות", "2027-06-10", Grain.DAY);
        READ.instant("שושן פורים", "2027-03-24", Grain.DAY);
        READ.instant("פסחא", "2027-03-28", Grain.DAY);
    }

    @Test
    void spansFromNowTheRestOfAPeriodAndDaysOfOneMonth() {
        TimeExpression.Interval weeks = READ.interval("השבועיים הקרובים", "2026-11-22", "2026-11-29", Grain.WEEK);
        assertThat(weeks.end()).isEqualTo(Readings.local("2026-12-06"));
        READ.interval("בשעתיים הקרובות", "2026-11-21T14:30", "2026-11-21T16:30", Grain.SECOND);
        READ.interval("ב-24 השעות הקרובות", "2026-11-21T14:30", "2026-11-22T14:30", Grain.SECOND);
        READ.interval("לשארית השבוע", "2026-11-21", "2026-11-21", Grain.DAY);
        READ.interval("מ-3 עד 6 בדצמבר", "2026-12-03", "2026-12-06", Grain.DAY);
        READ.interval("3-6 בדצמבר", "2026-12-03", "2026-12-06", Grain.DAY);
        READ.interval("מה-3 עד ה-6", "2026-12-03", "2026-12-06", Grain.DAY);
        READ.instant("מחר כל היום", "2026-11-22", Grain.DAY);
    }

    @Test
    void aTimeForSoLongIsAnInterval() {
        READ.interval("מחר ב-11 למשך שעה וחצי", "2026-11-22T11:00", "2026-11-22T12:30", Grain.MINUTE);
        READ.interval("ביום שני ב-10 לשעתיים", "2026-11-23T10:00", "2026-11-23T12:00", Grain.HOUR);
    }

    @Test
    void daysOfTheMonthThatRepeatAndNudges() {
        assertThat(READ.rrule("ב-10 לכל חודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(READ.rrule("כל 10 בחודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(READ.rrule("בעשירי לכל חודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(READ.rrule("כל ראשון לחודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=1");
        assertThat(READ.rrule("ב-10 לכל חודש בשעה 9")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10;BYHOUR=9;BYMINUTE=0");
        assertThat(READ.rrule("כל עשרים דקות")).isEqualTo("FREQ=MINUTELY;INTERVAL=20");
        assertThat(PARSER.parse("כל 30 שניות", NOW, Language.HEBREW)
                        .filter(e -> e instanceof TimeExpression.Recurrence))
                .as("no nudge is closer than a minute")
                .isEmpty();
    }

    @Test
    void oldSpellingsOfWeekdays() {
        READ.instant("ביום חמשי", "2026-11-26", Grain.DAY);
        READ.instant("ביום ששי", "2026-11-27", Grain.DAY);
    }

    @Test
    void lengthsSaidOfAThing() {
        assertThat(PARSER.length("קבע פגישה של שעה וחצי מחר ב-11", Language.HEBREW))
                .contains(Duration.ofMinutes(90));
        assertThat(PARSER.length("פגישה לשעתיים ביום שני", Language.HEBREW)).contains(Duration.ofHours(2));
        assertThat(PARSER.length("תחסום לי את היומן למשך 45 דקות", Language.HEBREW))
                .contains(Duration.ofMinutes(45));
        assertThat(PARSER.length("תזכיר לי בעוד שעה", Language.HEBREW))
                .as("an amount from now is when, not how long")
                .isEmpty();
    }

    @Test
    void prefixLettersSayWhatAnAmountIsFor() {
        READ.instant("בעוד שלוש עשרה דקות", "2026-11-21T14:43", Grain.SECOND);
        READ.instant("בעוד שלושה שבועות ויומיים", "2026-12-14T14:00", Grain.HOUR);
        READ.instant("בעוד שעתיים ורבע", "2026-11-21T16:45", Grain.SECOND);
        READ.instant("עוד עשר דקות בערך", "2026-11-21T14:40", Grain.SECOND);
        READ.instant("בעוד שבוע ממחר", "2026-11-29", Grain.DAY);
        READ.instant("שבוע מהיום", "2026-11-28", Grain.DAY);
        READ.instant("שעתיים מעכשיו", "2026-11-21T16:30", Grain.SECOND);
        READ.instant("למחרת ראש השנה", "2027-10-03", Grain.DAY);
        READ.instant("ביום שאחרי פסח", "2027-04-23", Grain.DAY);
        assertThat(PARSER.length("פגישה מחר ב-10 ל-90 דקות", Language.HEBREW)).contains(Duration.ofMinutes(90));
        assertThat(PARSER.length("מחר בשמונה לכחצי שעה", Language.HEBREW)).contains(Duration.ofMinutes(30));
        assertThat(PARSER.parse("לפני שנים", NOW, Language.HEBREW))
                .as("a unit in the plural with no amount is no amount")
                .isEmpty();
    }

    @Test
    void countedHoursAndDaysOfOneMonthAreReadByTheirPrefixLetters() {
        READ.interval("בחצי השעה הקרובה", "2026-11-21T14:30", "2026-11-21T15:00", Grain.SECOND);
        READ.interval("בין ה-3 לבין ה-6 בדצמבר", "2026-12-03", "2026-12-06", Grain.DAY);
        READ.interval("3-6 בדצמבר, 2027", "2027-12-03", "2027-12-06", Grain.DAY);
        READ.instant("ב-10 לחודש הבא", "2026-12-10", Grain.DAY); // "לחודש" is of a month, no unit counted
        assertThat(READ.parse("מה-3 עד ה-6 בערב"))
                .as("hours of the evening, not days")
                .isNotInstanceOf(TimeExpression.Interval.class);
    }

    @Test
    void theFamiliesOfIssue39AreReadByTheSharedEngine() {
        READ.instant("האידים של מרץ", "2027-03-15", Grain.DAY);
        READ.instant("אידי מאי", "2027-05-15", Grain.DAY);
        READ.instant("בשעה זו", "2026-11-21T14:30", Grain.SECOND);
        READ.instant("בזמן הזה", "2026-11-21T14:30", Grain.SECOND);
        READ.instant("ה-20 בחודש הנוכחי", "2026-11-20", Grain.DAY);
        READ.instant("מרץ בעוד שנה", "2027-03-01", Grain.MONTH);
        READ.instant("31/10/74", "1974-10-31", Grain.DAY);
        assertThat(READ.rrule("כל יום חמישי האחרון בחודש")).isEqualTo("FREQ=MONTHLY;BYDAY=-1TH");
        assertThat(READ.rrule("כל רבעון")).isEqualTo("FREQ=MONTHLY;INTERVAL=3");
    }

    @Test
    void partsOfTheDayAreTodaysWithTheArticleAndAnyDaysAfterAWordForAbout() {
        READ.instant("מהבוקר", "2026-11-21T09:00", Grain.HOUR);
        READ.instant("מחר על הבוקר", "2026-11-22T09:00", Grain.HOUR);
        READ.instant("בסביבות הצהריים", "2026-11-22T12:00", Grain.HOUR);
        READ.instant("מחר הצהריים", "2026-11-22T12:00", Grain.HOUR);
        READ.instant("מחר לפני הצהריים", "2026-11-22T09:00", Grain.HOUR);
        READ.instant("מחר אחה\"צ", "2026-11-22T15:00", Grain.HOUR);
        READ.instant("ערב שבת", "2026-11-27T19:00", Grain.HOUR);
        READ.instant("במוצאי שבת", "2026-11-21T19:00", Grain.HOUR);
        READ.instant("סוף היום", "2026-11-21T17:00", Grain.HOUR);
        READ.instant("בשלוש אחה\"צ", "2026-11-21T15:00", Grain.HOUR);
        READ.interval("מהבוקר עד הצהריים", "2026-11-21T09:00", "2026-11-21T12:00", Grain.HOUR);
    }

    @Test
    void recurrencesReadByTheEngineFromHebrewWords() {
        assertThat(READ.rrule("יום יום")).isEqualTo("FREQ=DAILY");
        assertThat(READ.rrule("כל שני וחמישי")).isEqualTo("FREQ=WEEKLY;BYDAY=MO,TH");
        assertThat(READ.rrule("כל ראשון, שלישי וחמישי")).isEqualTo("FREQ=WEEKLY;BYDAY=TU,TH,SU");
        assertThat(READ.rrule("בימי שני וחמישי")).isEqualTo("FREQ=WEEKLY;BYDAY=MO,TH");
        assertThat(READ.rrule("בכל יום עבודה")).isEqualTo("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,SU");
        assertThat(READ.rrule("כל סוף שבוע")).isEqualTo("FREQ=WEEKLY;BYDAY=FR,SA");
        assertThat(READ.rrule("כל שני ימים")).isEqualTo("FREQ=DAILY;INTERVAL=2");
        assertThat(READ.rrule("כל יום שני הראשון של כל חודש")).isEqualTo("FREQ=MONTHLY;BYDAY=1MO");
        assertThat(READ.rrule("יום שני הראשון של כל חודש")).isEqualTo("FREQ=MONTHLY;BYDAY=1MO");
        assertThat(READ.rrule("כל יום ראשון החמישי בחודש")).isEqualTo("FREQ=MONTHLY;BYDAY=5SU");
        assertThat(READ.rrule("כל שבת הראשונה בחודש")).isEqualTo("FREQ=MONTHLY;BYDAY=1SA");
        assertThat(READ.rrule("כל שבוע ביום ב' וביום ה'")).isEqualTo("FREQ=WEEKLY;BYDAY=MO,TH");
    }

    @Test
    void theDayOfEveryMonthIsSaidBeforeOrAfterEveryMonthAndAnOrdinalBeforeTheMonthIsADay() {
        assertThat(READ.rrule("ב-10 לכל חודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(READ.rrule("בעשירי לכל חודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(READ.rrule("בחמישה עשר לכל חודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=15");
        assertThat(READ.rrule("כל ה-15 לחודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=15");
        assertThat(READ.rrule("כל ראשון לחודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=1");
        assertThat(READ.rrule("כל חודש ב-15")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=15");
        assertThat(READ.rrule("כל חודש ב-15 לחודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=15");
        assertThat(READ.rrule("כל חודש ב-5 בערב")).isEqualTo("FREQ=MONTHLY;BYHOUR=17;BYMINUTE=0");
        assertThat(READ.rrule("כל שנה ב-5 במרץ")).isEqualTo("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=5");
    }

    @Test
    void onceInAnAmountOfTimeIsSoOften() {
        assertThat(READ.rrule("פעם בשבוע")).isEqualTo("FREQ=WEEKLY");
        assertThat(READ.rrule("פעם ביומיים")).isEqualTo("FREQ=DAILY;INTERVAL=2");
        assertThat(READ.rrule("פעם ב-3 ימים")).isEqualTo("FREQ=DAILY;INTERVAL=3");
        assertThat(READ.rrule("פעם בשעה וחצי")).isEqualTo("FREQ=MINUTELY;INTERVAL=90");
    }

    @Test
    void aRecurrenceTakesSeveralTimesAndOnlyWhereItsFrequencyIsSlowerThanHourly() {
        assertThat(READ.rrule("כל יום ב-8, ב-12 וב-20")).isEqualTo("FREQ=DAILY;BYHOUR=8,12,20;BYMINUTE=0");
        assertThat(READ.rrule("כל יום ב-8 בבוקר וב-8 בערב")).isEqualTo("FREQ=DAILY;BYHOUR=8,20;BYMINUTE=0");
        assertThat(READ.parse("כל שעה ב-10").text()).isEqualTo("כל שעה");
    }

    @Test
    void theEnginesModifiersReadHebrewDaysEndsAndDaysOfTheMonth() {
        assertThat(READ.rrule("כל שבוע ביום שלישי ב-10 בבוקר")).isEqualTo("FREQ=WEEKLY;BYDAY=TU;BYHOUR=10;BYMINUTE=0");
        assertThat(READ.rrule("כל 10 דקות עד 17:00")).isEqualTo("FREQ=MINUTELY;INTERVAL=10;UNTIL=20261121T150000Z");
        assertThat(READ.rrule("כל 10 לחודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(READ.rrule("כל יום בשמונה בערב")).isEqualTo("FREQ=DAILY;BYHOUR=20;BYMINUTE=0");
    }

    @Test
    void aNumberAfterTheNthWeekdayOfEveryMonthIsAnHourNotADayOfTheMonth() {
        assertThat(READ.rrule("ביום שישי האחרון של כל חודש ב-9"))
                .isEqualTo("FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=9;BYMINUTE=0");
        assertThat(READ.rrule("ביום שישי האחרון של כל חודש בתשע"))
                .isEqualTo("FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=9;BYMINUTE=0");
        assertThat(READ.rrule("יום שני הראשון של כל חודש ב-10"))
                .isEqualTo("FREQ=MONTHLY;BYDAY=1MO;BYHOUR=10;BYMINUTE=0");
    }

    @Test
    void clocksAreTheEnginesWithHebrewHoursMinutesAndPrefixLettersFromTheLexicon() {
        READ.instant("בשעה 8:30", "2026-11-22T08:30", Grain.MINUTE);
        READ.instant("בשעה שמונה", "2026-11-21T20:00", Grain.HOUR);
        READ.instant("בשמונה וחצי", "2026-11-21T20:30", Grain.MINUTE);
        READ.instant("ב-8 ו-10 דקות", "2026-11-21T20:10", Grain.MINUTE);
        READ.instant("שמונה ועשרים בערב", "2026-11-21T20:20", Grain.MINUTE);
        READ.instant("תשע פחות רבע", "2026-11-21T20:45", Grain.MINUTE);
        READ.instant("עשרה לשמונה", "2026-11-21T19:50", Grain.MINUTE);
        READ.instant("רבע לחצות", "2026-11-21T23:45", Grain.MINUTE);
        READ.instant("בחצות", "2026-11-22T00:00", Grain.HOUR);
        READ.instant("ב-7.30", "2026-11-21T19:30", Grain.MINUTE);
        READ.instant("20:00 בדיוק", "2026-11-21T20:00", Grain.MINUTE);
        READ.instant("מחר בשמונה בערב", "2026-11-22T20:00", Grain.HOUR);
        READ.instant("מחר 8 בערב", "2026-11-22T20:00", Grain.HOUR);
        assertThat(PARSER.parse("תזמין שולחן לשלושה", NOW, Language.HEBREW))
                .as("a masculine number after ל is a count, not an hour")
                .isEmpty();
    }

    @Test
    void theEngineMergesAnInstantsPartsPastTheWordsThatLeadToThem() {
        READ.instant("כל היום יום שישי", "2026-11-27", Grain.DAY);
        READ.instant("מחר כל היום", "2026-11-22", Grain.DAY);
        READ.instant("מחר, ב-9", "2026-11-22T09:00", Grain.HOUR);
        READ.instant("יום שני על הבוקר", "2026-11-23T09:00", Grain.HOUR);
        READ.instant("מחר בסביבות 8 בערב", "2026-11-22T20:00", Grain.HOUR);
        READ.instant("מחר ב-10 שעון ישראל", "2026-11-22T10:00", Grain.HOUR);
        READ.instant("מחר בשעה 10 לפי שעון ישראל", "2026-11-22T10:00", Grain.HOUR);
        READ.instant("ב-8 בערב (UTC)", "2026-11-21T22:00", Grain.HOUR);
    }
}
