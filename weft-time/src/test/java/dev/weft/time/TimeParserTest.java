package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The phrase families, one test each, against Saturday 2026-11-21 14:30 in Jerusalem. */
final class TimeParserTest {
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");
    private static final ZonedDateTime NOW = ZonedDateTime.of(2026, 11, 21, 14, 30, 0, 0, JERUSALEM);
    private static final TimeParser PARSER = TimeParser.create();

    private static TimeExpression parse(String text) {
        return PARSER.parse(text, NOW).orElseThrow(() -> new AssertionError("no time in: " + text));
    }

    private static TimeExpression.Instant instant(String text) {
        TimeExpression e = parse(text);
        assertThat(e).as(text).isInstanceOf(TimeExpression.Instant.class);
        return (TimeExpression.Instant) e;
    }

    private static void assertInstant(String text, String local, Grain grain) {
        TimeExpression.Instant i = instant(text);
        ZonedDateTime expected = (local.length() == 10
                        ? LocalDateTime.parse(local + "T00:00")
                        : LocalDateTime.parse(local))
                .atZone(JERUSALEM);
        assertThat(i.value()).as(text).isEqualTo(expected);
        assertThat(i.grain()).as(text).isEqualTo(grain);
    }

    private static String rrule(String text) {
        TimeExpression e = parse(text);
        assertThat(e).as(text).isInstanceOf(TimeExpression.Recurrence.class);
        return ((TimeExpression.Recurrence) e).toRrule();
    }

    @Test
    void parsesRelativeDaysInEnglish() {
        assertInstant("now", "2026-11-21T14:30", Grain.SECOND);
        assertInstant("today", "2026-11-21", Grain.DAY);
        assertInstant("tomorrow", "2026-11-22", Grain.DAY);
        assertInstant("yesterday", "2026-11-20", Grain.DAY);
        assertInstant("the day after tomorrow", "2026-11-23", Grain.DAY);
    }

    @Test
    void parsesRelativeDaysInHebrew() {
        assertInstant("עכשיו", "2026-11-21T14:30", Grain.SECOND);
        assertInstant("היום", "2026-11-21", Grain.DAY);
        assertInstant("מחר", "2026-11-22", Grain.DAY);
        assertInstant("מחרתיים", "2026-11-23", Grain.DAY);
        assertInstant("אתמול", "2026-11-20", Grain.DAY);
        assertInstant("שלשום", "2026-11-19", Grain.DAY);
    }

    @Test
    void readsABareWeekdayAsTheNextOneAfterToday() {
        assertInstant("Saturday", "2026-11-28", Grain.DAY);
        assertInstant("Monday", "2026-11-23", Grain.DAY);
        assertInstant("this Saturday", "2026-11-21", Grain.DAY);
        assertInstant("last Monday", "2026-11-16", Grain.DAY);
        assertInstant("Tuesday next week", "2026-11-24", Grain.DAY);
    }

    @Test
    void parsesWeekdaysInHebrew() {
        assertInstant("ביום ראשון הבא", "2026-11-22", Grain.DAY);
        assertInstant("יום א'", "2026-11-22", Grain.DAY);
        assertInstant("בשבת", "2026-11-28", Grain.DAY);
        assertInstant("ביום שני שעבר", "2026-11-16", Grain.DAY);
        assertInstant("יום שלישי בשבוע הבא", "2026-11-24", Grain.DAY);
    }

    @Test
    void parsesDatesInWordsAndNumbers() {
        assertInstant("Feb 15", "2027-02-15", Grain.DAY);
        assertInstant("15 February 2027", "2027-02-15", Grain.DAY);
        assertInstant("March 3rd at 2pm", "2027-03-03T14:00", Grain.HOUR);
        assertInstant("2/15", "2027-02-15", Grain.DAY);
        assertInstant("15.2", "2027-02-15", Grain.DAY);
        assertInstant("2015-03-03", "2015-03-03", Grain.DAY);
        assertInstant("the 15th", "2026-12-15", Grain.DAY);
    }

    @Test
    void parsesDatesInHebrew() {
        assertInstant("ה15 בפברואר", "2027-02-15", Grain.DAY);
        assertInstant("15 לפברואר", "2027-02-15", Grain.DAY);
        assertInstant("ב-1 בינואר 2028", "2028-01-01", Grain.DAY);
        assertInstant("15/2", "2027-02-15", Grain.DAY);
        assertInstant("ב-15 לחודש", "2026-12-15", Grain.DAY);
        assertInstant("חמישה עשר בפברואר", "2027-02-15", Grain.DAY);
    }

    @Test
    void readsABareClockTimeAsTheNextSuchHour() {
        assertInstant("at 9", "2026-11-21T21:00", Grain.HOUR);
        assertInstant("at 3", "2026-11-21T15:00", Grain.HOUR);
        assertInstant("at 2", "2026-11-22T02:00", Grain.HOUR);
        assertInstant("at 12", "2026-11-22T00:00", Grain.HOUR);
        assertInstant("ב-2", "2026-11-22T02:00", Grain.HOUR);
        assertInstant("9am", "2026-11-22T09:00", Grain.HOUR);
        assertInstant("15:30", "2026-11-21T15:30", Grain.MINUTE);
        assertInstant("at 730 in the evening", "2026-11-21T19:30", Grain.MINUTE);
        assertInstant("quarter to 12", "2026-11-21T23:45", Grain.MINUTE);
        assertInstant("half past 3", "2026-11-21T15:30", Grain.MINUTE);
    }

    @Test
    void readsAnHourOnANamedDayAsADaytimeHour() {
        assertInstant("tomorrow at 9", "2026-11-22T09:00", Grain.HOUR);
        assertInstant("tomorrow at 3", "2026-11-22T15:00", Grain.HOUR);
        assertInstant("מחר ב-5", "2026-11-22T17:00", Grain.HOUR);
    }

    @Test
    void parsesClockTimesInHebrew() {
        assertInstant("ב-8", "2026-11-21T20:00", Grain.HOUR);
        assertInstant("בשמונה", "2026-11-21T20:00", Grain.HOUR);
        assertInstant("בתשע בבוקר", "2026-11-22T09:00", Grain.HOUR);
        assertInstant("רבע ל12", "2026-11-21T23:45", Grain.MINUTE);
        assertInstant("בשמונה וחצי", "2026-11-21T20:30", Grain.MINUTE);
        assertInstant("ב-10:00", "2026-11-22T10:00", Grain.MINUTE);
        assertInstant("בחצות", "2026-11-22T00:00", Grain.HOUR);
    }

    @Test
    void parsesPartsOfTheDay() {
        assertInstant("tonight", "2026-11-21T19:00", Grain.HOUR);
        assertInstant("tomorrow morning", "2026-11-22T09:00", Grain.HOUR);
        assertInstant("הערב", "2026-11-21T19:00", Grain.HOUR);
        assertInstant("מחר אחה\"צ", "2026-11-22T15:00", Grain.HOUR);
        assertInstant("בצהריים", "2026-11-22T12:00", Grain.HOUR);
    }

    @Test
    void parsesOrdinalWeekdaysOfAMonth() {
        assertInstant("the last Sunday of March", "2027-03-28", Grain.DAY);
        assertInstant("the first Monday of next month", "2026-12-07", Grain.DAY);
        assertInstant("יום ראשון האחרון של מרץ", "2027-03-28", Grain.DAY);
    }

    @Test
    void parsesWeeksMonthsQuartersAndYears() {
        assertInstant("next week", "2026-11-23", Grain.WEEK);
        assertInstant("שבוע הבא", "2026-11-22", Grain.WEEK);
        assertInstant("next month", "2026-12-01", Grain.MONTH);
        assertInstant("חודש הבא", "2026-12-01", Grain.MONTH);
        assertInstant("next quarter", "2027-01-01", Grain.QUARTER);
        assertInstant("last year", "2025-01-01", Grain.YEAR);
        assertInstant("end of the month", "2026-11-30", Grain.DAY);
    }

    @Test
    void parsesRelativeOffsetsInEnglish() {
        assertInstant("in 15 minutes", "2026-11-21T14:45", Grain.SECOND);
        assertInstant("in half an hour", "2026-11-21T15:00", Grain.SECOND);
        assertInstant("in twenty-five minutes", "2026-11-21T14:55", Grain.SECOND);
        assertInstant("3 days ago", "2026-11-18T14:00", Grain.HOUR);
        assertInstant("in a couple of days", "2026-11-23T14:00", Grain.HOUR);
    }

    @Test
    void parsesRelativeOffsetsInHebrew() {
        assertInstant("עוד 10 דקות", "2026-11-21T14:40", Grain.SECOND);
        assertInstant("בעוד רבע שעה", "2026-11-21T14:45", Grain.SECOND);
        assertInstant("בעוד שעה וחצי", "2026-11-21T16:00", Grain.SECOND);
        assertInstant("בעוד עשרים וארבע שעות", "2026-11-22T14:30", Grain.SECOND);
        assertInstant("לפני שבעה ימים", "2026-11-14T14:00", Grain.HOUR);
        assertInstant("בעוד שבועיים", "2026-12-05T14:00", Grain.HOUR);
    }

    @Test
    void convertsATimeInAZoneTheTextNamesToTheZoneOfNow() {
        TimeExpression.Instant pst = instant("8:00 PST");
        assertThat(pst.value().toOffsetDateTime().toString()).isEqualTo("2026-11-21T18:00+02:00");
        TimeExpression.Instant gmt = instant("at 9am GMT");
        assertThat(gmt.value().toOffsetDateTime().toString()).isEqualTo("2026-11-22T11:00+02:00");
        TimeExpression.Instant london = instant("tomorrow at 9 Europe/London");
        assertThat(london.value().getZone()).isEqualTo(JERUSALEM);
        assertThat(london.value().toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-11-22T11:00"));
    }

    @Test
    void parsesIntervals() {
        TimeExpression e = parse("from 2 to 4pm");
        assertThat(e).isInstanceOf(TimeExpression.Interval.class);
        TimeExpression.Interval i = (TimeExpression.Interval) e;
        assertThat(i.from().toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-11-22T14:00"));
        assertThat(i.to().toLocalDateTime()).isEqualTo(LocalDateTime.parse("2026-11-22T16:00"));

        TimeExpression.Interval he = (TimeExpression.Interval) parse("מ-2 עד 4");
        assertThat(he.from()).isEqualTo(i.from());
        assertThat(he.to()).isEqualTo(i.to());

        TimeExpression.Interval days = (TimeExpression.Interval) parse("between Monday and Wednesday");
        assertThat(days.grain()).isEqualTo(Grain.DAY);
        assertThat(days.to().toLocalDate()).isEqualTo(days.from().toLocalDate().plusDays(2));
    }

    @Test
    void parsesRecurrencesInEnglish() {
        assertThat(rrule("every Monday and Thursday at 18:00"))
                .isEqualTo("FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=18;BYMINUTE=0");
        assertThat(rrule("every day at 9")).isEqualTo("FREQ=DAILY;BYHOUR=9;BYMINUTE=0");
        assertThat(rrule("every month on the 5th")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=5");
        assertThat(rrule("every 15 minutes")).isEqualTo("FREQ=MINUTELY;INTERVAL=15");
        assertThat(rrule("every first Monday of the month")).isEqualTo("FREQ=MONTHLY;BYDAY=1MO");
        assertThat(rrule("every day at 9 until Friday"))
                .isEqualTo("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20261127T215959Z");
    }

    @Test
    void parsesRecurrencesInHebrew() {
        assertThat(rrule("כל יום ב-8")).isEqualTo("FREQ=DAILY;BYHOUR=8;BYMINUTE=0");
        assertThat(rrule("כל יום שני וחמישי")).isEqualTo("FREQ=WEEKLY;BYDAY=MO,TH");
        assertThat(rrule("כל חודש ב-5")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=5");
        assertThat(rrule("כל שעתיים")).isEqualTo("FREQ=HOURLY;INTERVAL=2");
        assertThat(rrule("כל יום בשמונה בבוקר ובשמונה בערב")).isEqualTo("FREQ=DAILY;BYHOUR=8,20;BYMINUTE=0");
        assertThat(rrule("כל יום ב-9 עד סוף החודש")).isEqualTo("FREQ=DAILY;BYHOUR=9;BYMINUTE=0;UNTIL=20261130T215959Z");
    }

    @Test
    void givesARecurrenceItsFirstOccurrenceAndParts() {
        TimeExpression.Recurrence r = (TimeExpression.Recurrence) parse("every Monday and Thursday at 18:00");
        assertThat(r.first()).isEqualTo(ZonedDateTime.of(2026, 11, 23, 18, 0, 0, 0, JERUSALEM));
        assertThat(r.days()).containsExactly(DayOfWeek.MONDAY, DayOfWeek.THURSDAY);
        assertThat(r.times()).containsExactly(LocalTime.of(18, 0));
        assertThat(r.frequency()).isEqualTo(TimeExpression.Recurrence.Frequency.WEEKLY);
    }

    @Test
    void findsExpressionsInsideASentenceWithTheirSpans() {
        String text = "remind me tomorrow at 9 to call Dana";
        List<TimeExpression> found = PARSER.find(text, NOW);

        assertThat(found).hasSize(1);
        assertThat(found.get(0).span()).isEqualTo(new Span(10, 23));
        assertThat(text.substring(10, 23)).isEqualTo(found.get(0).text()).isEqualTo("tomorrow at 9");

        String hebrew = "תזכיר לי מחר ב-9 להתקשר לדנה";
        TimeExpression he = PARSER.find(hebrew, NOW).get(0);
        assertThat(hebrew.substring(he.span().start(), he.span().end())).isEqualTo("מחר ב-9");
    }

    @Test
    void findsSeveralExpressionsInOrder() {
        List<TimeExpression> found = PARSER.find("call at 9 and again tomorrow at 5pm", NOW);

        assertThat(found).extracting(TimeExpression::text).containsExactly("at 9", "tomorrow at 5pm");
    }

    @Test
    void findsNothingInTextWithoutTime() {
        assertThat(PARSER.parse("buy milk", NOW)).isEmpty();
        assertThat(PARSER.parse("she sat down", NOW)).isEmpty();
        assertThat(PARSER.parse("יש לי שני ילדים", NOW)).isEmpty();
    }

    @Test
    void rejectsEmptyText() {
        assertThatThrownBy(() -> PARSER.parse("  ", NOW))
                .isInstanceOf(TimeInputException.class)
                .hasMessageContaining("empty");
    }

    @Test
    void rejectsAnUnknownLanguageCode() {
        assertThatThrownBy(() -> Language.fromCode("fr"))
                .isInstanceOf(TimeInputException.class)
                .hasMessageContaining("'fr'");
    }

    @Test
    void weekStart_overridesTheLanguageDefault() {
        TimeParser sundays = TimeParser.builder().weekStart(DayOfWeek.SUNDAY).build();

        TimeExpression.Instant i =
                (TimeExpression.Instant) sundays.parse("next week", NOW).orElseThrow();

        assertThat(i.value().toLocalDate()).isEqualTo(NOW.toLocalDate().plusDays(1));
    }

    @Test
    void language_isUsedWhenACallNamesNone() {
        TimeParser hebrew = TimeParser.builder().language(Language.HEBREW).build();

        assertThat(hebrew.language()).isEqualTo(Language.HEBREW);
        assertThat(hebrew.parse("מחר", NOW)).isPresent();
    }

    @Test
    void writesJsonByHand() {
        assertThat(TimeJson.toJson(parse("tomorrow at 9")))
                .isEqualTo("{\"text\":\"tomorrow at 9\",\"type\":\"instant\",\"value\":\"2026-11-22T09:00:00+02:00\","
                        + "\"grain\":\"hour\",\"span\":[0,13]}");
        assertThat(TimeJson.toJson(parse("אחה\"צ"))).contains("\"text\":\"אחה\\\"צ\"");
        assertThat(TimeJson.none("buy milk")).isEqualTo("{\"text\":\"buy milk\",\"type\":\"none\"}");
        assertThat(TimeJson.error("E_BAD_INPUT", "bad \"line\""))
                .isEqualTo("{\"error\":{\"code\":\"E_BAD_INPUT\",\"message\":\"bad \\\"line\\\"\"}}");
    }
}
