package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** The Hebrew families of issue #20, one test each, against Saturday 2026-11-21 14:30 in Jerusalem. */
final class HebrewFamiliesTest {
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");
    private static final ZonedDateTime NOW = ZonedDateTime.of(2026, 11, 21, 14, 30, 0, 0, JERUSALEM);
    private static final TimeParser PARSER = TimeParser.create();

    /** Tuesday 2026-03-10 10:42:50 in Jerusalem: a now with seconds. */
    private static final ZonedDateTime WITH_SECONDS = ZonedDateTime.of(2026, 3, 10, 10, 42, 50, 0, JERUSALEM);

    private static TimeExpression parse(String text) {
        return parse(text, NOW);
    }

    private static TimeExpression parse(String text, ZonedDateTime now) {
        return PARSER.parse(text, now, Language.HEBREW).orElseThrow(() -> new AssertionError("no time in: " + text));
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

    private static void assertInstant(String text, String local, Grain grain) {
        assertInstant(NOW, text, local, grain);
    }

    private static void assertInstant(ZonedDateTime now, String text, String local, Grain grain) {
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
    void relativeDaysKeepTheTimeOfDayToTheHour() {
        assertInstant("בעוד חמישה ימים", "2026-11-26T14:00", Grain.HOUR);
        assertInstant("לפני שלושה ימים", "2026-11-18T14:00", Grain.HOUR);
        assertInstant("כעבור יומיים", "2026-11-23T14:00", Grain.HOUR);
        assertInstant("בעוד חצי שנה", "2027-05-21T14:00", Grain.HOUR);
        assertInstant("בעוד שלושת רבעי שעה", "2026-11-21T15:15", Grain.SECOND);
    }

    @Test
    void countedWeekdaysFromNowOrAgoSkipToday() {
        assertInstant("בעוד שלושה ימי שני", "2026-12-07", Grain.DAY);
        assertInstant("לפני שני ימי שישי", "2026-11-13", Grain.DAY);
    }

    @Test
    void countedPeriodsAreIntervalsFromTheFirstToTheLastOfThem() {
        assertInterval("בשלושת הימים הקרובים", "2026-11-22", "2026-11-24", Grain.DAY);
        assertInterval("ב-3 הימים הבאים", "2026-11-22", "2026-11-24", Grain.DAY);
        assertInterval("בשבועיים האחרונים", "2026-11-01", "2026-11-08", Grain.WEEK);
    }

    @Test
    void aDayOfARelativeMonthIsCountedFromItsStartOrItsEnd() {
        assertInstant("ב-7 לחודש הזה", "2026-11-07", Grain.DAY);
        assertInstant("ב-3 לחודש שעבר", "2026-10-03", Grain.DAY);
        assertInstant("היום השלישי של החודש שעבר", "2026-10-03", Grain.DAY);
        assertInstant("היום האחרון של פברואר 2016", "2016-02-29", Grain.DAY);
        assertInstant("היום הלפני אחרון באפריל", "2027-04-29", Grain.DAY);
    }

    @Test
    void ordinalWeeksStartOnSunday() {
        assertInstant("השבוע השני של מרץ 2015", "2015-03-08", Grain.WEEK);
        assertInstant("השבוע האחרון של יוני 2019", "2019-06-30", Grain.WEEK);
        assertInstant("השבוע הלפני אחרון של 2017", "2017-12-24", Grain.WEEK);
        assertInstant("יום רביעי של שבוע הבא", "2026-11-25", Grain.DAY);
    }

    @Test
    void quartersYearMonthsAndTwoDigitYears() {
        assertInstant("רבעון 1 2019", "2019-01-01", Grain.QUARTER);
        assertInstant("הרבעון האחרון של 2025", "2025-10-01", Grain.QUARTER);
        assertInstant("2019Q2", "2019-04-01", Grain.QUARTER);
        assertInstant("06/2015", "2015-06-01", Grain.MONTH);
        assertInstant("3 במאי 16", "2016-05-03", Grain.DAY);
    }

    @Test
    void aMonthNameThenANumberIsADateNotAnHour() {
        assertInstant("יוני 12", "2027-06-12", Grain.DAY);
        assertInstant("באפריל 7", "2027-04-07", Grain.DAY);
        assertInstant("מאי 9, 2016", "2016-05-09", Grain.DAY);
        assertInstant("באמצע יוני", "2027-06-15", Grain.DAY);
        assertInstant("בתחילת החודש הבא", "2026-12-01", Grain.DAY);
    }

    @Test
    void aWeekdayWithADateIsTheOneThatFits() {
        assertInstant("שלישי, 5 למרץ", "2030-03-05", Grain.DAY);
        assertInstant("יום שישי, 25 בדצמבר", "2026-12-25", Grain.DAY);
        assertInstant("יום שישי ה-13", "2027-08-13", Grain.DAY);
    }

    @Test
    void englishAmPmInsideHebrewText() {
        assertInstant("ב-8 PM", "2026-11-21T20:00", Grain.HOUR);
        assertInstant("מחר ב-9am", "2026-11-22T09:00", Grain.HOUR);
        assertInstant("ב-7:30 pm", "2026-11-21T19:30", Grain.MINUTE);
    }

    @Test
    void hebrewCalendarHolidaysAndDaysThroughIcu4j() {
        assertInstant("חנוכה", "2026-12-05", Grain.DAY);
        assertInstant("פסח", "2027-04-22", Grain.DAY);
        assertInstant("ראש השנה", "2027-10-02", Grain.DAY);
        assertInstant("יום כיפור 2026", "2026-09-21", Grain.DAY);
        assertInstant("ט\"ו בשבט", "2027-01-23", Grain.DAY);
        assertInstant("בניסן", "2027-04-08", Grain.MONTH);
        assertInstant("כריסמס", "2026-12-25", Grain.DAY);
    }

    @Test
    void israeliObservancesMoveOffTheDaysTheLawMovesThemOff() {
        // 5 Iyar 5788 is Monday 2028-05-01: Independence Day moves to Tuesday, Memorial Day with it
        assertInstant("יום העצמאות 2028", "2028-05-02", Grain.DAY);
        assertInstant("יום העצמאות 2027", "2027-05-12", Grain.DAY);
        assertInstant("יום הזיכרון", "2027-05-11", Grain.DAY);
    }

    @Test
    void monthsInAnotherYearAndAmountsFromADate() {
        assertInstant("יוני בעוד שנה", "2027-06-01", Grain.MONTH);
        assertInstant("יוני בשנה הבאה", "2027-06-01", Grain.MONTH);
        assertInstant("שבוע לפני פסח", "2027-04-15", Grain.DAY);
        assertInstant("שנתיים אחרי חנוכה", "2028-12-05", Grain.DAY);
        assertInstant("יום שישי השני אחרי ראש השנה", "2027-10-15", Grain.DAY);
        assertInstant("יום שלישי הכי קרוב ל-3 ביוני", "2027-06-01", Grain.DAY);
    }

    @Test
    void clockFormsAndZones() {
        assertInstant("הלילה ב-12", "2026-11-22T00:00", Grain.HOUR);
        assertInstant("ב-8 בערב (CET)", "2026-11-21T21:00", Grain.HOUR);
        assertInstant("ביום שישי ב-10 UTC", "2026-11-27T12:00", Grain.HOUR);
    }

    @Test
    void wordsForNowAndCommonTypos() {
        assertInstant("ממש עכשיו", "2026-11-21T14:30", Grain.SECOND);
        assertInstant("ברגע זה", "2026-11-21T14:30", Grain.SECOND);
        assertInstant("עכשו", "2026-11-21T14:30", Grain.SECOND);
        assertInstant("מחרתים", "2026-11-23", Grain.DAY);
    }

    @Test
    void hoursAsPeopleSayThem() {
        assertInstant("לאחת עשרה", "2026-11-21T23:00", Grain.HOUR);
        assertInstant("תשע בערב", "2026-11-21T21:00", Grain.HOUR);
        assertInstant("הערב בתשע", "2026-11-21T21:00", Grain.HOUR);
        assertInstant("ברבע לשש", "2026-11-21T17:45", Grain.MINUTE);
        assertInstant("ברבע אחרי שמונה", "2026-11-21T20:15", Grain.MINUTE);
        assertInstant("על הבוקר", "2026-11-22T09:00", Grain.HOUR);
        assertInstant("מחר דבר ראשון בבוקר", "2026-11-22T09:00", Grain.HOUR);
        assertInstant("בסביבות הצהריים", "2026-11-22T12:00", Grain.HOUR);
        assertThat(PARSER.parse("תזמין שולחן לארבעה", NOW, Language.HEBREW))
                .as("a count of people is no hour")
                .isEmpty();
    }

    @Test
    void hedgedAndIncrementalAmountsCountFromNowToTheSecond() {
        assertInstant(WITH_SECONDS, "בעוד דקה", "2026-03-10T10:43:50", Grain.SECOND);
        assertInstant(WITH_SECONDS, "ב-10:43", "2026-03-10T10:43", Grain.MINUTE);
        assertInstant("בעוד כרבע שעה", "2026-11-21T14:45", Grain.SECOND);
        assertInstant("בעוד עוד 5 דקות", "2026-11-21T14:35", Grain.SECOND);
        assertInstant("בעוד 5 דקות נוספות", "2026-11-21T14:35", Grain.SECOND);
        assertInstant("עוד עשר דקות בערך", "2026-11-21T14:40", Grain.SECOND);
    }

    @Test
    void daysCountedFromHolidays() {
        assertInstant("יומיים אחרי פסח", "2027-04-24", Grain.DAY);
        assertInstant("למחרת ראש השנה", "2027-10-03", Grain.DAY);
        assertInstant("ביום שלפני ראש השנה", "2027-10-01", Grain.DAY);
        assertInstant("ערב שבועות", "2027-06-10", Grain.DAY);
        assertInstant("שושן פורים", "2027-03-24", Grain.DAY);
        assertInstant("פסחא", "2027-03-28", Grain.DAY);
    }

    @Test
    void spansFromNowTheRestOfAPeriodAndDaysOfOneMonth() {
        TimeExpression.Interval weeks = assertInterval("השבועיים הקרובים", "2026-11-22", "2026-11-29", Grain.WEEK);
        assertThat(weeks.end()).isEqualTo(local("2026-12-06"));
        assertInterval("בשעתיים הקרובות", "2026-11-21T14:30", "2026-11-21T16:30", Grain.SECOND);
        assertInterval("ב-24 השעות הקרובות", "2026-11-21T14:30", "2026-11-22T14:30", Grain.SECOND);
        assertInterval("לשארית השבוע", "2026-11-21", "2026-11-21", Grain.DAY);
        assertInterval("מ-3 עד 6 בדצמבר", "2026-12-03", "2026-12-06", Grain.DAY);
        assertInterval("3-6 בדצמבר", "2026-12-03", "2026-12-06", Grain.DAY);
        assertInterval("מה-3 עד ה-6", "2026-12-03", "2026-12-06", Grain.DAY);
        assertInstant("מחר כל היום", "2026-11-22", Grain.DAY);
    }

    @Test
    void aTimeForSoLongIsAnInterval() {
        assertInterval("מחר ב-11 למשך שעה וחצי", "2026-11-22T11:00", "2026-11-22T12:30", Grain.MINUTE);
        assertInterval("ביום שני ב-10 לשעתיים", "2026-11-23T10:00", "2026-11-23T12:00", Grain.HOUR);
    }

    @Test
    void daysOfTheMonthThatRepeatAndNudges() {
        assertThat(rrule("ב-10 לכל חודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(rrule("כל 10 בחודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(rrule("בעשירי לכל חודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
        assertThat(rrule("כל ראשון לחודש")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=1");
        assertThat(rrule("ב-10 לכל חודש בשעה 9")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10;BYHOUR=9;BYMINUTE=0");
        assertThat(rrule("כל עשרים דקות")).isEqualTo("FREQ=MINUTELY;INTERVAL=20");
    }

    @Test
    void oldSpellingsOfWeekdays() {
        assertInstant("ביום חמשי", "2026-11-26", Grain.DAY);
        assertInstant("ביום ששי", "2026-11-27", Grain.DAY);
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
}
