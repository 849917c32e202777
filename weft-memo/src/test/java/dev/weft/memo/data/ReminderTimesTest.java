package dev.weft.memo.data;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When reminders fire: one-off, daily, weekly, monthly, nudges, their end, and across a clock change. */
final class ReminderTimesTest {
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant MADE = at("2026-11-24T10:00");

    private static Instant at(String local) {
        return java.time.LocalDateTime.parse(local).atZone(JERUSALEM).toInstant();
    }

    private static Task task(Optional<String> due, Optional<String> reminder, String recurrence) {
        Optional<Instant> dueAt =
                due.map(d -> DueDates.parse("dueDate", d, JERUSALEM).at());
        Optional<JsonNode> rec = recurrence == null ? Optional.empty() : Optional.of(Json.parse(recurrence, "test"));
        return new Task(
                "t-1",
                Optional.empty(),
                "water",
                Optional.empty(),
                due,
                dueAt,
                reminder,
                rec,
                Optional.empty(),
                false,
                MADE,
                MADE);
    }

    @Test
    void aOneOffReminderFiresItsOffsetBeforeItsDueDateOnce() {
        Task t = task(Optional.of("2026-11-24T18:00:00+02:00"), Optional.of("30 minutes"), null);

        assertThat(ReminderTimes.first(t, JERUSALEM, MADE)).contains(at("2026-11-24T17:30"));
        assertThat(ReminderTimes.next(t, JERUSALEM, at("2026-11-24T17:30"))).isEmpty();
    }

    @Test
    void aTaskWithNoReminderOrNoTimeFiresNever() {
        assertThat(ReminderTimes.first(task(Optional.of("2026-11-25"), Optional.empty(), null), JERUSALEM, MADE))
                .isEmpty();
        assertThat(ReminderTimes.first(task(Optional.empty(), Optional.of("0 minutes"), null), JERUSALEM, MADE))
                .isEmpty();
    }

    @Test
    void weeklyOnSundayAndWednesdayAtEightThirty() {
        Task t = task(Optional.empty(), Optional.empty(), "{\"type\":\"weekly\",\"days\":[0,3],\"time\":\"08:30\"}");

        Instant first = ReminderTimes.first(t, JERUSALEM, MADE).orElseThrow();
        Instant second = ReminderTimes.next(t, JERUSALEM, first).orElseThrow();

        assertThat(first).isEqualTo(at("2026-11-25T08:30"));
        assertThat(second).isEqualTo(at("2026-11-29T08:30"));
    }

    @Test
    void monthlyOnThe31stFallsOnTheLastDayOfAShorterMonth() {
        Task t =
                task(Optional.empty(), Optional.empty(), "{\"type\":\"monthly\",\"dayOfMonth\":31,\"time\":\"09:00\"}");

        Instant first = ReminderTimes.first(t, JERUSALEM, MADE).orElseThrow();
        Instant second = ReminderTimes.next(t, JERUSALEM, first).orElseThrow();
        Instant third = ReminderTimes.next(t, JERUSALEM, second).orElseThrow();

        assertThat(first).isEqualTo(at("2026-11-30T09:00"));
        assertThat(second).isEqualTo(at("2026-12-31T09:00"));
        assertThat(third).isEqualTo(at("2027-01-31T09:00"));
    }

    @Test
    void monthlyOnTheLastFridayFollowsTheWeekdayAcrossMonthsOfDifferentLengths() {
        Task t = task(
                Optional.empty(),
                Optional.empty(),
                "{\"type\":\"monthly\",\"week\":-1,\"days\":[5],\"time\":\"09:00\"}");

        Instant first = ReminderTimes.first(t, JERUSALEM, MADE).orElseThrow();
        Instant second = ReminderTimes.next(t, JERUSALEM, first).orElseThrow();
        Instant third = ReminderTimes.next(t, JERUSALEM, second).orElseThrow();
        Instant fourth = ReminderTimes.next(t, JERUSALEM, third).orElseThrow();

        assertThat(first).isEqualTo(at("2026-11-27T09:00"));
        assertThat(second).isEqualTo(at("2026-12-25T09:00"));
        assertThat(third).isEqualTo(at("2027-01-29T09:00"));
        assertThat(fourth).isEqualTo(at("2027-02-26T09:00"));
    }

    @Test
    void monthlyOnTheFirstMondayByDayName() {
        Task t = task(
                Optional.empty(),
                Optional.empty(),
                "{\"type\":\"monthly\",\"week\":1,\"days\":[\"MO\"],\"time\":\"08:00\"}");

        Instant first = ReminderTimes.first(t, JERUSALEM, MADE).orElseThrow();
        Instant second = ReminderTimes.next(t, JERUSALEM, first).orElseThrow();
        Instant third = ReminderTimes.next(t, JERUSALEM, second).orElseThrow();

        assertThat(first).isEqualTo(at("2026-12-07T08:00"));
        assertThat(second).isEqualTo(at("2027-01-04T08:00"));
        assertThat(third).isEqualTo(at("2027-02-01T08:00"));
    }

    @Test
    void monthlyOnTheFirstMondayAndWednesdayFiresOnBothInOrder() {
        Task t = task(
                Optional.empty(),
                Optional.empty(),
                "{\"type\":\"monthly\",\"week\":1,\"days\":[1,3],\"time\":\"08:00\"}");

        Instant first = ReminderTimes.first(t, JERUSALEM, MADE).orElseThrow();
        Instant second = ReminderTimes.next(t, JERUSALEM, first).orElseThrow();
        Instant third = ReminderTimes.next(t, JERUSALEM, second).orElseThrow();

        assertThat(first).isEqualTo(at("2026-12-02T08:00"));
        assertThat(second).isEqualTo(at("2026-12-07T08:00"));
        assertThat(third).isEqualTo(at("2027-01-04T08:00"));
    }

    @Test
    void monthlyOnTheFifthMondaySkipsMonthsThatHaveNone() {
        Task t = task(
                Optional.empty(),
                Optional.empty(),
                "{\"type\":\"monthly\",\"week\":5,\"days\":[1],\"time\":\"08:00\"}");

        Instant first = ReminderTimes.first(t, JERUSALEM, MADE).orElseThrow();
        Instant second = ReminderTimes.next(t, JERUSALEM, first).orElseThrow();

        assertThat(first).isEqualTo(at("2026-11-30T08:00"));
        assertThat(second).isEqualTo(at("2027-03-29T08:00"));
    }

    @Test
    void monthlyOnTheLastFridayIsDueOnlyInTheWeekOfThatFriday() {
        Task t = task(
                Optional.empty(),
                Optional.empty(),
                "{\"type\":\"monthly\",\"week\":-1,\"days\":[5],\"time\":\"09:00\"}");

        assertThat(ReminderTimes.dueBetween(t, JERUSALEM, at("2027-01-24T00:00"), at("2027-01-31T00:00")))
                .contains(at("2027-01-29T09:00"));
        assertThat(ReminderTimes.dueBetween(t, JERUSALEM, at("2027-01-22T00:00"), at("2027-01-29T00:00")))
                .isEmpty();
    }

    @Test
    void everyOtherMonthOnTheFirstCountsFromTheFirstOneAfterItWasMade() {
        Task t = task(
                Optional.empty(),
                Optional.empty(),
                "{\"type\":\"monthly\",\"dayOfMonth\":1,\"interval\":\"2\",\"time\":\"09:00\"}");

        Instant first = ReminderTimes.first(t, JERUSALEM, MADE).orElseThrow();
        Instant second = ReminderTimes.next(t, JERUSALEM, first).orElseThrow();

        assertThat(first).isEqualTo(at("2026-12-01T09:00"));
        assertThat(second).isEqualTo(at("2027-02-01T09:00"));
    }

    @Test
    void monthlyWithAnUnknownWeekNeverFires() {
        Task t = task(
                Optional.empty(),
                Optional.empty(),
                "{\"type\":\"monthly\",\"week\":7,\"days\":[5],\"time\":\"09:00\"}");

        assertThat(ReminderTimes.first(t, JERUSALEM, MADE)).isEmpty();
    }

    @Test
    void dailyKeepsItsLocalTimeAcrossTheSpringClockChange() {
        Task t = task(Optional.empty(), Optional.empty(), "{\"type\":\"daily\",\"time\":\"08:00\"}");

        Instant before =
                ReminderTimes.next(t, JERUSALEM, at("2027-03-24T09:00")).orElseThrow();
        Instant after = ReminderTimes.next(t, JERUSALEM, before).orElseThrow();

        assertThat(before.atZone(JERUSALEM).toLocalTime()).hasToString("08:00");
        assertThat(after.atZone(JERUSALEM).toLocalTime()).hasToString("08:00");
        assertThat(ZonedDateTime.ofInstant(after, JERUSALEM).getOffset())
                .isNotEqualTo(ZonedDateTime.ofInstant(before, JERUSALEM).getOffset());
    }

    @Test
    void everyOtherDayUntilAGivenDay() {
        Task t = task(
                Optional.empty(),
                Optional.empty(),
                "{\"type\":\"daily\",\"time\":\"20:00\",\"interval\":2,\"until\":\"2026-11-28\"}");

        Instant first = ReminderTimes.first(t, JERUSALEM, MADE).orElseThrow();
        Instant second = ReminderTimes.next(t, JERUSALEM, first).orElseThrow();

        assertThat(first).isEqualTo(at("2026-11-24T20:00"));
        assertThat(second).isEqualTo(at("2026-11-26T20:00"));
        assertThat(ReminderTimes.next(t, JERUSALEM, at("2026-11-28T20:00"))).isEmpty();
        assertThat(ReminderTimes.next(t, JERUSALEM, second)).contains(at("2026-11-28T20:00"));
    }

    @Test
    void aNudgeEveryFifteenMinutesFromWhenItWasMadeSkipsWhatWasMissed() {
        Task t = task(Optional.empty(), Optional.empty(), "{\"type\":\"nudge\",\"interval\":\"15 minutes\"}");

        assertThat(ReminderTimes.first(t, JERUSALEM, MADE)).contains(at("2026-11-24T10:15"));
        assertThat(ReminderTimes.next(t, JERUSALEM, at("2026-11-24T10:15"))).contains(at("2026-11-24T10:30"));
        assertThat(ReminderTimes.next(t, JERUSALEM, at("2026-11-24T13:07"))).contains(at("2026-11-24T13:15"));
    }

    @Test
    void aDoneTaskFiresNever() {
        Task t = task(Optional.empty(), Optional.empty(), "{\"type\":\"daily\",\"time\":\"08:00\"}");
        Task done = new Task(
                t.id(),
                t.parentId(),
                t.text(),
                t.category(),
                t.dueDate(),
                t.dueAt(),
                t.reminder(),
                t.reminderRecurrence(),
                t.reminderDetails(),
                true,
                MADE,
                MADE);

        assertThat(ReminderTimes.first(done, JERUSALEM, MADE)).isEmpty();
        assertThat(ReminderTimes.next(done, JERUSALEM, MADE)).isEmpty();
    }
}
