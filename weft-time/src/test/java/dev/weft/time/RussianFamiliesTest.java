package dev.weft.time;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Russian, read by the shared engine from its lexicon alone (issue #39), one test per family, against
 * Saturday 2026-11-21 14:30 in Jerusalem.
 */
final class RussianFamiliesTest {
    private static final Readings READ = new Readings(Language.RUSSIAN);

    @Test
    void daysCountedFromToday() {
        READ.instant("сегодня", "2026-11-21", Grain.DAY);
        READ.instant("завтра", "2026-11-22", Grain.DAY);
        READ.instant("послезавтра", "2026-11-23", Grain.DAY);
        READ.instant("вчера", "2026-11-20", Grain.DAY);
        READ.instant("позавчера", "2026-11-19", Grain.DAY);
    }

    @Test
    void aWeekdayNamedBeforeTheDateItIsCountedFromThroughTheRuleHebrewReadsToo() {
        READ.instant("в пятницу после 5 марта", "2027-03-12", Grain.DAY);
        READ.instant("пятница перед Новым годом", "2026-12-25", Grain.DAY);
        READ.instant("во второй понедельник после 5 марта", "2027-03-15", Grain.DAY);
    }

    @Test
    void theNthDayOrWeekdayOfAMonthAndTheEdgesOfAYearThroughTheRulesEnglishReadsToo() {
        READ.instant("последний день месяца", "2026-11-30", Grain.DAY);
        READ.instant("первый понедельник марта", "2027-03-01", Grain.DAY);
        READ.instant("в конце 2027 года", "2027-12-31", Grain.DAY);
    }

    @Test
    void aYearThatIsTheWholeTextIsThatYear() {
        READ.instant("2027", "2027-01-01", Grain.YEAR);
    }

    @Test
    void clockTimesWithAPartOfTheDayOrOnA24HourClock() {
        READ.instant("в 9", "2026-11-21T21:00", Grain.HOUR);
        READ.instant("в 9:30", "2026-11-22T09:30", Grain.MINUTE);
        READ.instant("в 9 утра", "2026-11-22T09:00", Grain.HOUR);
        READ.instant("в 9 вечера", "2026-11-21T21:00", Grain.HOUR);
        READ.instant("в 3 часа дня", "2026-11-21T15:00", Grain.HOUR);
        READ.instant("в полдень", "2026-11-22T12:00", Grain.HOUR);
        READ.instant("в девять вечера", "2026-11-21T21:00", Grain.HOUR);
        READ.instant("в 9 часов 15 минут", "2026-11-21T21:15", Grain.MINUTE);
    }

    @Test
    void halfAndQuarterHoursAreCountedTowardsTheNextHour() {
        READ.instant("в половине десятого", "2026-11-21T21:30", Grain.MINUTE);
        READ.instant("полдесятого утра", "2026-11-22T09:30", Grain.MINUTE);
        READ.instant("без четверти пять", "2026-11-21T16:45", Grain.MINUTE);
        READ.instant("без десяти девять", "2026-11-21T20:50", Grain.MINUTE);
    }

    @Test
    void amountsFromNowAheadAndAgo() {
        READ.instant("через 10 минут", "2026-11-21T14:40", Grain.SECOND);
        READ.instant("через 2 часа", "2026-11-21T16:30", Grain.SECOND);
        READ.instant("через полчаса", "2026-11-21T15:00", Grain.SECOND);
        READ.instant("через полтора часа", "2026-11-21T16:00", Grain.SECOND);
        READ.instant("через 3 дня", "2026-11-24T14:00", Grain.HOUR);
        READ.instant("через неделю", "2026-11-28T14:00", Grain.HOUR);
        READ.instant("3 дня назад", "2026-11-18T14:00", Grain.HOUR);
        READ.instant("два часа назад", "2026-11-21T12:30", Grain.SECOND);
    }

    @Test
    void aDayAndAPartOfItOrAClockTime() {
        READ.instant("завтра утром", "2026-11-22T09:00", Grain.HOUR);
        READ.instant("сегодня вечером", "2026-11-21T19:00", Grain.HOUR);
        READ.instant("завтра в 15:00", "2026-11-22T15:00", Grain.MINUTE);
        READ.instant("в понедельник в 10 утра", "2026-11-23T10:00", Grain.HOUR);
    }

    @Test
    void weekdaysInAnyCase() {
        READ.instant("в понедельник", "2026-11-23", Grain.DAY);
        READ.instant("в следующий вторник", "2026-11-24", Grain.DAY);
        READ.instant("в среду", "2026-11-25", Grain.DAY);
        READ.instant("в прошлую пятницу", "2026-11-20", Grain.DAY);
        READ.instant("во вторник на следующей неделе", "2026-11-24", Grain.DAY);
    }

    @Test
    void datesInWordsAndNumbers() {
        READ.instant("5 марта", "2027-03-05", Grain.DAY);
        READ.instant("5 марта 2027", "2027-03-05", Grain.DAY);
        READ.instant("5 марта 2027 года", "2027-03-05", Grain.DAY);
        READ.instant("05.03.2027", "2027-03-05", Grain.DAY);
        READ.instant("первого мая", "2027-05-01", Grain.DAY);
        READ.instant("двадцать пятого декабря", "2026-12-25", Grain.DAY);
        READ.instant("в марте", "2027-03-01", Grain.MONTH);
        READ.instant("на следующей неделе", "2026-11-23", Grain.WEEK);
    }

    @Test
    void recurrences() {
        assertThat(READ.rrule("каждый день")).isEqualTo("FREQ=DAILY");
        assertThat(READ.rrule("каждый понедельник в 8")).isEqualTo("FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=0");
        assertThat(READ.rrule("по пятницам")).isEqualTo("FREQ=WEEKLY;BYDAY=FR");
        assertThat(READ.rrule("по понедельникам и средам в 10"))
                .isEqualTo("FREQ=WEEKLY;BYDAY=MO,WE;BYHOUR=10;BYMINUTE=0");
        assertThat(READ.rrule("каждые 2 часа")).isEqualTo("FREQ=HOURLY;INTERVAL=2");
        assertThat(READ.rrule("каждое утро")).isEqualTo("FREQ=DAILY;BYHOUR=9;BYMINUTE=0");
        assertThat(READ.rrule("по будням в 9 утра")).isEqualTo("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0");
        assertThat(READ.rrule("ежедневно")).isEqualTo("FREQ=DAILY");
        assertThat(READ.rrule("каждый последний четверг месяца")).isEqualTo("FREQ=MONTHLY;BYDAY=-1TH");
        assertThat(READ.rrule("каждую вторую пятницу месяца")).isEqualTo("FREQ=MONTHLY;BYDAY=2FR");
        assertThat(READ.rrule("каждое 10-е число")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=10");
    }

    @Test
    void theDayOfAMonthlyOrYearlyRecurrenceIsReadAfterItsHead() {
        assertThat(READ.rrule("каждый месяц 15-го числа")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=15");
        assertThat(READ.rrule("ежемесячно 15-го")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=15");
        assertThat(READ.rrule("каждый месяц в 10")).isEqualTo("FREQ=MONTHLY;BYHOUR=10;BYMINUTE=0");
        assertThat(READ.rrule("каждый год 5 марта")).isEqualTo("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=5");
    }

    @Test
    void recurrencesReadByTheRulesEnglishBroughtToTheEngine() {
        assertThat(READ.rrule("каждое 5-е")).isEqualTo("FREQ=MONTHLY;BYMONTHDAY=5");
        assertThat(READ.rrule("2-й понедельник каждого месяца")).isEqualTo("FREQ=MONTHLY;BYDAY=2MO");
        assertThat(READ.rrule("каждое 5 марта")).isEqualTo("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=5");
        assertThat(READ.rrule("каждый день в 9 и в 18")).isEqualTo("FREQ=DAILY;BYHOUR=9,18;BYMINUTE=0");
    }

    @Test
    void intervalsAndWeekends() {
        READ.interval("с 9 до 11", "2026-11-22T09:00", "2026-11-22T11:00", Grain.HOUR);
        READ.interval("с 5 по 10 марта", "2027-03-05", "2027-03-10", Grain.DAY);
        READ.interval("в эти выходные", "2026-11-21", "2026-11-22", Grain.DAY);
    }

    @Test
    void autoPicksRussianOnCyrillicLetters() {
        TimeExpression e = Readings.PARSER
                .parse("напомни завтра в 9 утра", Readings.NOW, Language.AUTO)
                .orElseThrow();
        assertThat(e.text()).isEqualTo("завтра в 9 утра");
        assertThat(Language.fromCode("ru")).isEqualTo(Language.RUSSIAN);
    }

    @Test
    void wordsThatAreNoTimeAreNotRead() {
        assertThat(Readings.PARSER.find("купить молоко и хлеб", Readings.NOW, Language.RUSSIAN))
                .isEmpty();
    }
}
