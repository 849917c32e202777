package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** The Hebrew families of issue #20, one test each, against Saturday 2026-11-21 14:30 in Jerusalem. */
final class HebrewFamiliesTest {
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");
    private static final ZonedDateTime NOW = ZonedDateTime.of(2026, 11, 21, 14, 30, 0, 0, JERUSALEM);
    private static final TimeParser PARSER = TimeParser.create();

    private static TimeExpression parse(String text) {
        return PARSER.parse(text, NOW, Language.HEBREW).orElseThrow(() -> new AssertionError("no time in: " + text));
    }

    private static ZonedDateTime local(String local) {
        return LocalDateTime.parse(local.length() == 10 ? local + "T00:00" : local)
                .atZone(JERUSALEM);
    }

    private static void assertInstant(String text, String local, Grain grain) {
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
}
