package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MemoData;
import dev.weft.plan.ApprovalRequiredException;
import dev.weft.plan.Risk;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolContext;
import dev.weft.plan.ToolRegistry;
import dev.weft.plan.UndoAction;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Memo's calendar tool over real SQLite and PostgreSQL: events once and recurring, in the user's zone,
 * one user never reaching another's events.
 */
final class CalendarOperationsTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");

    private static final TimeSource CLOCK = new TimeSource() {
        @Override
        public Instant now() {
            return NOW;
        }

        @Override
        public void sleep(Duration duration) {}
    };

    @TempDir
    Path dir;

    private RunStore store;
    private MemoData data;
    private ToolRegistry tools;
    private final AtomicInteger calls = new AtomicInteger();

    private void open(String kind) {
        store = Stores.open(
                kind.equals("postgresql") ? EmbeddedPostgres.shared().freshUrl() : "sqlite:" + dir.resolve("memo.db"));
        data = MemoData.open(store);
        data.user("dana", "en", JERUSALEM, NOW);
        data.user("omer", "he", JERUSALEM, NOW);
        tools = new MemoTools(data, new Reminders(data, java.time.Instant::now)).registry();
    }

    private void openSqlite() {
        open("sqlite");
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private ToolContext context(String user) {
        return ToolContext.detached("run-" + calls.incrementAndGet(), Optional.of(user), "A", CLOCK);
    }

    /** A call as an approved plan step makes it, with its own idempotency key. */
    private JsonNode calendar(String user, String args) {
        return tools.call(MemoTools.CALENDAR, object(args), context(user));
    }

    private static ObjectNode object(String json) {
        return (ObjectNode) Json.parse(json, "args");
    }

    private String create(String user, String args) {
        return calendar(user, "{\"operation\": \"create\", " + args + "}")
                .get("event")
                .get("id")
                .asText();
    }

    private String createRecurring(String user, String args) {
        return calendar(user, "{\"operation\": \"createRecurring\", " + args + "}")
                .get("event")
                .get("id")
                .asText();
    }

    private List<String> starts(JsonNode events) {
        return events.findValuesAsText("start");
    }

    private JsonNode events(String user, String timeMin, String timeMax) {
        return calendar(
                        user,
                        "{\"operation\": \"getEvents\", \"timeMin\": \"" + timeMin + "\", \"timeMax\": \"" + timeMax
                                + "\"}")
                .get("events");
    }

    private static ErrorCode codeOf(Throwable e) {
        return ((WeftException) e).code();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void createsAnEventAndFindsItByIdAndInItsDay(String kind) {
        open(kind);
        JsonNode created = calendar(
                "dana",
                "{\"operation\": \"create\", \"summary\": \"Dentist\", \"start\": \"2026-11-26T15:00:00+02:00\","
                        + " \"location\": \"Herzl 1\", \"description\": \"bring the form\", \"attendees\":"
                        + " [\"dan@example.com\", \"Noa\"], \"reminderMinutesBefore\": 30}");
        String id = created.get("event").get("id").asText();

        JsonNode event = calendar("dana", "{\"operation\": \"get\", \"eventId\": \"" + id + "\"}")
                .get("event");

        assertThat(event.get("summary").asText()).isEqualTo("Dentist");
        assertThat(event.get("start").asText()).isEqualTo("2026-11-26T15:00+02:00");
        assertThat(event.get("end").asText()).as("an hour unless told").isEqualTo("2026-11-26T16:00+02:00");
        assertThat(event.get("allDay").asBoolean()).isFalse();
        assertThat(event.get("location").asText()).isEqualTo("Herzl 1");
        assertThat(event.get("description").asText()).isEqualTo("bring the form");
        assertThat(Json.write(event.get("attendees"))).isEqualTo("[\"dan@example.com\",\"Noa\"]");
        assertThat(event.get("reminderMinutesBefore").asInt()).isEqualTo(30);
        assertThat(created.get("conflicts")).isEmpty();
        assertThat(events("dana", "2026-11-26", "2026-11-26").findValuesAsText("eventId"))
                .containsExactly(id);
        assertThat(events("dana", "2026-11-27", "2026-11-27")).isEmpty();
    }

    @Test
    void anAllDayEventRunsThroughItsLastDay() {
        openSqlite();
        JsonNode event = calendar(
                        "dana",
                        "{\"operation\": \"create\", \"summary\": \"Holiday\", \"start\": \"2026-12-24\", \"end\":"
                                + " \"2026-12-26\", \"allDay\": true}")
                .get("event");

        assertThat(event.get("start").asText()).isEqualTo("2026-12-24");
        assertThat(event.get("end").asText()).isEqualTo("2026-12-26");
        assertThat(event.get("allDay").asBoolean()).isTrue();
        for (String day : List.of("2026-12-24", "2026-12-25", "2026-12-26")) {
            assertThat(events("dana", day, day)).as(day).hasSize(1);
        }
        assertThat(events("dana", "2026-12-27", "2026-12-27")).isEmpty();
        assertThat(events("dana", "2026-12-23", "2026-12-23")).isEmpty();

        JsonNode oneDay = calendar(
                        "dana", "{\"operation\": \"create\", \"summary\": \"Birthday\", \"start\": \"2026-12-01\"}")
                .get("event");
        assertThat(oneDay.get("allDay").asBoolean()).isTrue();
        assertThat(oneDay.get("end").asText()).isEqualTo("2026-12-01");
    }

    @Test
    void aNewEventThatOverlapsOthersIsCreatedAndNamesThem() {
        openSqlite();
        String standup = createRecurring(
                "dana",
                "\"summary\": \"Standup\", \"days\": [\"Thursday\"], \"startTime\": \"09:00\", \"endTime\": \"09:30\"");
        String lunch = create("dana", "\"summary\": \"Lunch\", \"start\": \"2026-11-26T12:00+02:00\"");
        create("dana", "\"summary\": \"Trip\", \"start\": \"2026-11-26\"");

        JsonNode created = calendar(
                "dana",
                "{\"operation\": \"create\", \"summary\": \"Review\", \"start\": \"2026-11-26T09:15+02:00\", \"end\":"
                        + " \"2026-11-26T12:30+02:00\"}");

        assertThat(created.get("conflicts").findValuesAsText("eventId"))
                .as("an all-day event takes no time")
                .containsExactly(standup, lunch);
        assertThat(created.get("conflicts").get(0).get("start").asText()).isEqualTo("2026-11-26T09:00+02:00");
        assertThat(data.events().all("dana")).hasSize(4);

        JsonNode check = calendar(
                "dana",
                "{\"operation\": \"checkConflicts\", \"timeMin\": \"2026-11-26T11:00+02:00\", \"timeMax\":"
                        + " \"2026-11-26T12:10+02:00\"}");
        assertThat(check.get("conflicts").findValuesAsText("summary")).containsExactly("Trip", "Review", "Lunch");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aWeeklyEventIsListedAsItsOccurrencesWithoutItsExceptions(String kind) {
        open(kind);
        JsonNode event = calendar(
                        "dana",
                        "{\"operation\": \"createRecurring\", \"summary\": \"Standup\", \"startTime\": \"09:00\","
                                + " \"endTime\": \"09:30\", \"days\": [\"Monday\", \"Wednesday\"], \"startDate\":"
                                + " \"2026-11-30\", \"exceptions\": [\"2026-12-02\"], \"location\": \"Room 2\","
                                + " \"reminderMinutesBefore\": 5}")
                .get("event");
        String id = event.get("id").asText();
        assertThat(event.get("recurrence").asText()).isEqualTo("FREQ=WEEKLY;BYDAY=MO,WE");
        assertThat(event.get("exdates").get(0).asText()).isEqualTo("2026-12-02");

        JsonNode listed = events("dana", "2026-11-30", "2026-12-09");

        assertThat(starts(listed))
                .containsExactly("2026-11-30T09:00+02:00", "2026-12-07T09:00+02:00", "2026-12-09T09:00+02:00");
        assertThat(listed.findValuesAsText("end")).first().isEqualTo("2026-11-30T09:30+02:00");
        for (JsonNode instance : listed) {
            assertThat(instance.get("eventId").asText()).isEqualTo(id);
            assertThat(instance.get("recurring").asBoolean()).isTrue();
            assertThat(instance.get("location").asText()).isEqualTo("Room 2");
        }
    }

    @Test
    void aMonthlyEventFallsOnItsDaysOfTheMonthUntilItsEnd() {
        openSqlite();
        String id = createRecurring(
                "dana",
                "\"summary\": \"Rent\", \"startTime\": \"08:00\", \"days\": [\"1\", \"15\"], \"until\":"
                        + " \"2027-01-31\"");

        JsonNode result = calendar(
                "dana",
                "{\"operation\": \"getRecurringInstances\", \"eventId\": \"" + id + "\", \"timeMax\":"
                        + " \"2027-03-31\"}");

        assertThat(starts(result.get("instances")))
                .containsExactly(
                        "2026-12-01T08:00+02:00",
                        "2026-12-15T08:00+02:00",
                        "2027-01-01T08:00+02:00",
                        "2027-01-15T08:00+02:00");
        assertThat(result.get("event").get("until").asText()).isEqualTo("2027-01-31");
        assertThat(result.get("event").get("start").asText())
                .as("the series starts on its first day")
                .isEqualTo("2026-12-01T08:00+02:00");
        assertThat(result.get("count").asInt()).isEqualTo(4);
    }

    @Test
    void anRruleIsHonouredWithItsExceptionDates() {
        openSqlite();
        String id = createRecurring(
                "dana",
                "\"summary\": \"Physio\", \"rrule\": \"RRULE:FREQ=DAILY;COUNT=5\", \"startTime\": \"18:00\","
                        + " \"startDate\": \"2026-11-25\", \"exdates\": [\"2026-11-27\"]");

        JsonNode instances = calendar(
                        "dana",
                        "{\"operation\": \"getRecurringInstances\", \"eventId\": \"" + id + "\", \"maxResults\": 3}")
                .get("instances");

        assertThat(starts(instances))
                .containsExactly("2026-11-25T18:00+02:00", "2026-11-26T18:00+02:00", "2026-11-28T18:00+02:00");
        assertThat(starts(events("dana", "2026-11-24", "2026-12-31")))
                .containsExactly(
                        "2026-11-25T18:00+02:00",
                        "2026-11-26T18:00+02:00",
                        "2026-11-28T18:00+02:00",
                        "2026-11-29T18:00+02:00");
    }

    @Test
    void aWeeklyEventKeepsItsHourAcrossTheChangeOfDaylightSavingTime() {
        openSqlite();
        // Israel leaves summer time on Sunday 25 October 2026: +03:00, then +02:00.
        createRecurring(
                "dana",
                "\"summary\": \"Team\", \"days\": [\"Monday\"], \"startTime\": \"09:00\", \"startDate\":"
                        + " \"2026-10-19\", \"until\": \"2026-11-02\"");

        assertThat(starts(events("dana", "2026-10-01", "2026-11-30")))
                .containsExactly("2026-10-19T09:00+03:00", "2026-10-26T09:00+02:00", "2026-11-02T09:00+02:00");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void anUpdateFindsTheEventByItsOldValues(String kind) {
        open(kind);
        String dentist = create("dana", "\"summary\": \"Dentist\", \"start\": \"2026-11-26T15:00+02:00\"");
        create("dana", "\"summary\": \"Dentist check\", \"start\": \"2026-12-03T15:00+02:00\"");
        create("dana", "\"summary\": \"Yoga\", \"start\": \"2026-11-26T18:00+02:00\"");

        JsonNode updated = calendar(
                "dana",
                "{\"operation\": \"update\", \"searchCriteria\": {\"summary\": \"DENTIST\", \"dayOfWeek\":"
                        + " \"Thursday\", \"startTime\": \"15:00\", \"timeMin\": \"2026-11-26\", \"timeMax\":"
                        + " \"2026-11-26\"}, \"updateFields\": {\"start\": \"2026-11-26T16:00+02:00\", \"location\":"
                        + " \"Clinic\"}}");

        assertThat(updated.get("event").get("id").asText()).isEqualTo(dentist);
        assertThat(updated.get("event").get("start").asText()).isEqualTo("2026-11-26T16:00+02:00");
        assertThat(updated.get("event").get("end").asText())
                .as("its length kept")
                .isEqualTo("2026-11-26T17:00+02:00");
        assertThat(updated.get("event").get("location").asText()).isEqualTo("Clinic");
        assertThat(updated.get("previous").get(0).get("start").asText()).isEqualTo("2026-11-26T15:00+02:00");

        assertThatThrownBy(() -> calendar(
                        "dana",
                        "{\"operation\": \"update\", \"searchCriteria\": {\"summary\": \"dent\", \"dayOfWeek\":"
                                + " \"Thursday\"}, \"updateFields\": {\"summary\": \"x\"}}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_ARGS_INVALID))
                .hasMessageContaining("2 events match")
                .hasMessageContaining("'Dentist'")
                .hasMessageContaining("'Dentist check'");
        assertThatThrownBy(() -> calendar(
                        "dana",
                        "{\"operation\": \"update\", \"searchCriteria\": {\"summary\": \"Yoga\", \"dayOfWeek\":"
                                + " \"Friday\"}, \"updateFields\": {\"summary\": \"x\"}}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_NOT_FOUND));
        JsonNode exact = calendar(
                "dana",
                "{\"operation\": \"update\", \"searchCriteria\": {\"summary\": \"dentist\"}, \"updateFields\":"
                        + " {\"summary\": \"Dentist (moved)\"}}");
        assertThat(exact.get("event").get("id").asText())
                .as("of several, the one whose summary is the very words")
                .isEqualTo(dentist);
    }

    @Test
    void updatingARecurringEventsTimeMovesEveryOccurrence() {
        openSqlite();
        String id = createRecurring(
                "dana",
                "\"summary\": \"Standup\", \"days\": [\"Monday\"], \"startTime\": \"09:00\", \"endTime\": \"09:15\","
                        + " \"startDate\": \"2026-11-30\"");

        calendar(
                "dana",
                "{\"operation\": \"update\", \"searchCriteria\": {\"summary\": \"standup\", \"dayOfWeek\":"
                        + " \"Monday\", \"startTime\": \"09:00\"}, \"updateFields\": {\"start\":"
                        + " \"2026-12-07T10:00+02:00\"}}");

        JsonNode listed = events("dana", "2026-11-30", "2026-12-13");
        assertThat(starts(listed)).containsExactly("2026-11-30T10:00+02:00", "2026-12-07T10:00+02:00");
        assertThat(listed.get(0).get("end").asText()).isEqualTo("2026-11-30T10:15+02:00");
        assertThat(listed.get(0).get("eventId").asText()).isEqualTo(id);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aRangeDeleteSparesTheExceptionsAndItsUndoPutsEverythingBack(String kind) {
        open(kind);
        String lunch = create("dana", "\"summary\": \"Lunch\", \"start\": \"2026-11-27T12:00+02:00\"");
        create("dana", "\"summary\": \"Gym\", \"start\": \"2026-11-27T18:00+02:00\"");
        create("dana", "\"summary\": \"Party\", \"start\": \"2026-11-28T20:00+02:00\"");
        String market = create("dana", "\"summary\": \"Market\", \"start\": \"2026-11-29T08:00+02:00\"");
        String swim = createRecurring(
                "dana",
                "\"summary\": \"Swim\", \"days\": [\"Friday\"], \"startTime\": \"07:00\", \"startDate\": \"2026-11-20\"");
        JsonNode before = Json.mapper()
                .valueToTree(data.events().all("dana").stream()
                        .map(e -> e.toJson(JERUSALEM))
                        .toList());

        ObjectNode delete =
                object("{\"operation\": \"delete\", \"timeMin\": \"2026-11-27\", \"timeMax\": \"2026-11-29\","
                        + " \"excludeSummaries\": [\"gym\"], \"excludeDays\": [\"Saturday\"]}");
        JsonNode deleted = tools.call(MemoTools.CALENDAR, delete, context("dana"));

        assertThat(deleted.get("deleted").findValuesAsText("summary"))
                .containsExactlyInAnyOrder("Lunch", "Market", "Swim");
        assertThat(deleted.get("count").asInt()).isEqualTo(3);
        assertThat(data.events().all("dana")).extracting(e -> e.summary()).containsExactly("Swim", "Gym", "Party");
        assertThat(starts(events("dana", "2026-11-20", "2026-12-04")))
                .as("the series goes on without that Friday")
                .containsExactly(
                        "2026-11-20T07:00+02:00",
                        "2026-11-27T18:00+02:00",
                        "2026-11-28T20:00+02:00",
                        "2026-12-04T07:00+02:00");
        assertThat(data.events().find("dana", swim).orElseThrow().exdates())
                .extracting(Object::toString)
                .containsExactly("2026-11-27");
        assertThat(data.events().find("dana", lunch)).isEmpty();
        assertThat(data.events().find("dana", market)).isEmpty();

        Tool tool = tools.find(MemoTools.CALENDAR).orElseThrow();
        UndoAction undo = tool.undo().orElseThrow().undoFor(delete, deleted).orElseThrow();
        tools.call(undo.toolName(), undo.args(), context("dana"));

        JsonNode after = Json.mapper()
                .valueToTree(data.events().all("dana").stream()
                        .map(e -> e.toJson(JERUSALEM))
                        .toList());
        assertThat(after).isEqualTo(before);
    }

    @Test
    void deleteBySummaryRemovesEveryMatchingEvent() {
        openSqlite();
        create("dana", "\"summary\": \"Piano lesson\", \"start\": \"2026-11-25T16:00+02:00\"");
        create("dana", "\"summary\": \"piano LESSON\", \"start\": \"2026-12-02T16:00+02:00\"");
        create("dana", "\"summary\": \"Guitar lesson\", \"start\": \"2026-12-03T16:00+02:00\"");

        JsonNode deleted = calendar("dana", "{\"operation\": \"deleteBySummary\", \"summary\": \"Piano Lesson\"}");

        assertThat(deleted.get("count").asInt()).isEqualTo(2);
        assertThat(data.events().all("dana")).extracting(e -> e.summary()).containsExactly("Guitar lesson");
        assertThatThrownBy(() -> calendar("dana", "{\"operation\": \"deleteBySummary\", \"summary\": \"piano\"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_NOT_FOUND));
    }

    @Test
    void truncatingASeriesEndsItOnThatDayAndItsUndoLetsItRunOn() {
        openSqlite();
        String id = createRecurring(
                "dana",
                "\"summary\": \"Choir\", \"days\": [\"Tuesday\"], \"startTime\": \"19:00\", \"startDate\":"
                        + " \"2026-11-24\"");
        ObjectNode truncate = object(
                "{\"operation\": \"truncateRecurring\", \"eventId\": \"" + id + "\", \"until\":" + " \"2026-12-08\"}");

        JsonNode result = tools.call(MemoTools.CALENDAR, truncate, context("dana"));

        assertThat(result.get("event").get("until").asText()).isEqualTo("2026-12-08");
        assertThat(result.get("previous").get(0).has("until")).isFalse();
        assertThat(starts(events("dana", "2026-11-24", "2026-12-31")))
                .containsExactly("2026-11-24T19:00+02:00", "2026-12-01T19:00+02:00", "2026-12-08T19:00+02:00");

        UndoAction undo = tools.find(MemoTools.CALENDAR)
                .orElseThrow()
                .undo()
                .orElseThrow()
                .undoFor(truncate, result)
                .orElseThrow();
        tools.call(undo.toolName(), undo.args(), context("dana"));
        assertThat(events("dana", "2026-11-24", "2026-12-31")).hasSize(6);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aUserNeverReachesAnotherUsersEvents(String kind) {
        open(kind);
        String id = createRecurring(
                "dana", "\"summary\": \"Dana's secret meeting\", \"days\": [\"Sunday\"], \"startTime\": \"20:00\"");

        for (String attempt : List.of(
                "{\"operation\": \"get\", \"eventId\": \"" + id + "\"}",
                "{\"operation\": \"getRecurringInstances\", \"eventId\": \"" + id + "\"}",
                "{\"operation\": \"update\", \"eventId\": \"" + id + "\", \"updateFields\": {\"summary\": \"mine\"}}",
                "{\"operation\": \"delete\", \"eventId\": \"" + id + "\"}",
                "{\"operation\": \"deleteMultiple\", \"eventIds\": [\"" + id + "\"]}",
                "{\"operation\": \"truncateRecurring\", \"eventId\": \"" + id + "\", \"until\": \"2026-12-31\"}",
                "{\"operation\": \"update\", \"searchCriteria\": {\"summary\": \"secret\"}, \"updateFields\":"
                        + " {\"summary\": \"mine\"}}",
                "{\"operation\": \"deleteBySummary\", \"summary\": \"secret\"}")) {
            assertThatThrownBy(() -> calendar("omer", attempt))
                    .as(attempt)
                    .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_NOT_FOUND))
                    .hasMessageNotContaining("Dana's");
        }
        assertThat(events("omer", "2026-11-01", "2027-01-31")).isEmpty();
        assertThat(calendar(
                                "omer",
                                "{\"operation\": \"checkConflicts\", \"timeMin\": \"2026-11-29\", \"timeMax\":"
                                        + " \"2026-11-29\"}")
                        .get("count")
                        .asInt())
                .isZero();
        assertThat(calendar(
                                "omer",
                                "{\"operation\": \"delete\", \"timeMin\": \"2026-11-01\", \"timeMax\": \"2027-01-31\"}")
                        .get("count")
                        .asInt())
                .isZero();
        assertThat(create("omer", "\"summary\": \"Omer's\", \"start\": \"2026-11-29T20:00+02:00\""))
                .isNotEqualTo(id);
        assertThat(calendar("dana", "{\"operation\": \"get\", \"eventId\": \"" + id + "\"}")
                        .get("event")
                        .get("summary")
                        .asText())
                .isEqualTo("Dana's secret meeting");
        assertThat(events("dana", "2026-11-29", "2026-11-29")).hasSize(1);
    }

    @Test
    void bulkDeletesAreHighRiskAndWaitForAPerson() {
        openSqlite();
        Tool tool = tools.find(MemoTools.CALENDAR).orElseThrow();
        String id = create("dana", "\"summary\": \"Keep me\", \"start\": \"2026-11-25T10:00+02:00\"");

        assertThat(tool.risk(Json.parse("{\"operation\": \"delete\", \"timeMin\": \"a\", \"timeMax\": \"b\"}", "a")))
                .isEqualTo(Risk.HIGH);
        assertThat(tool.risk(Json.parse("{\"operation\": \"deleteBySummary\", \"summary\": \"x\"}", "a")))
                .isEqualTo(Risk.HIGH);
        assertThat(tool.risk(Json.parse("{\"operation\": \"deleteMultiple\"}", "a")))
                .isEqualTo(Risk.HIGH);
        assertThat(tool.risk(Json.parse("{\"operation\": \"delete\", \"eventId\": \"x\"}", "a")))
                .isEqualTo(Risk.LOW);
        assertThat(tool.risk(Json.parse("{\"operation\": \"create\"}", "a"))).isEqualTo(Risk.LOW);

        for (String bulk : List.of(
                "{\"operation\": \"deleteBySummary\", \"summary\": \"keep\"}",
                "{\"operation\": \"delete\", \"timeMin\": \"2026-11-25\", \"timeMax\": \"2026-11-25\"}")) {
            assertThatThrownBy(() -> tools.call(
                            MemoTools.CALENDAR, object(bulk), context("dana").unapproved()))
                    .as(bulk)
                    .isInstanceOf(ApprovalRequiredException.class)
                    .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_APPROVAL_REQUIRED));
        }
        assertThat(data.events().find("dana", id)).isPresent();
        calendar("dana", "{\"operation\": \"delete\", \"eventId\": \"" + id + "\"}");
        assertThat(data.events().find("dana", id)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void eachChangeQueuesTheUndoThatReversesIt(String kind) {
        open(kind);
        Tool tool = tools.find(MemoTools.CALENDAR).orElseThrow();

        ObjectNode create = object(
                "{\"operation\": \"create\", \"summary\": \"Walk\", \"start\":" + " \"2026-11-25T07:00+02:00\"}");
        JsonNode created = tools.call(MemoTools.CALENDAR, create, context("dana"));
        String id = created.get("event").get("id").asText();
        assertThat(tool.undo().orElseThrow().undoFor(create, created))
                .contains(new UndoAction(
                        MemoTools.CALENDAR, object("{\"operation\": \"delete\", \"eventId\": \"" + id + "\"}")));

        ObjectNode recurring = object("{\"operation\": \"createRecurring\", \"summary\": \"Run\", \"days\":"
                + " [\"Friday\"], \"startTime\": \"06:00\"}");
        JsonNode series = tools.call(MemoTools.CALENDAR, recurring, context("dana"));
        assertThat(tool.undo()
                        .orElseThrow()
                        .undoFor(recurring, series)
                        .orElseThrow()
                        .args()
                        .get("eventId")
                        .asText())
                .isEqualTo(series.get("event").get("id").asText());

        ObjectNode many = object("{\"operation\": \"createMultipleRecurring\", \"events\": [{\"summary\": \"A\","
                + " \"days\": [\"Monday\"], \"startTime\": \"08:00\"}, {\"summary\": \"B\", \"days\": [\"5\"],"
                + " \"startTime\": \"08:00\"}]}");
        JsonNode made = tools.call(MemoTools.CALENDAR, many, context("dana"));
        UndoAction undoMany = tool.undo().orElseThrow().undoFor(many, made).orElseThrow();
        assertThat(undoMany.args().get("operation").asText()).isEqualTo("deleteMultiple");
        tools.call(undoMany.toolName(), undoMany.args(), context("dana"));
        assertThat(data.events().all("dana")).extracting(e -> e.summary()).containsExactly("Walk", "Run");

        JsonNode before = data.events().find("dana", id).orElseThrow().toJson(JERUSALEM);
        ObjectNode update = object("{\"operation\": \"update\", \"eventId\": \"" + id + "\", \"updateFields\":"
                + " {\"summary\": \"Long walk\", \"end\": \"2026-11-25T09:00+02:00\", \"attendees\": [\"Tal\"]}}");
        JsonNode updated = tools.call(MemoTools.CALENDAR, update, context("dana"));
        UndoAction undoUpdate =
                tool.undo().orElseThrow().undoFor(update, updated).orElseThrow();
        tools.call(undoUpdate.toolName(), undoUpdate.args(), context("dana"));
        assertThat(data.events().find("dana", id).orElseThrow().toJson(JERUSALEM))
                .isEqualTo(before);

        ObjectNode delete = object("{\"operation\": \"delete\", \"eventId\": \"" + id + "\"}");
        JsonNode deleted = tools.call(MemoTools.CALENDAR, delete, context("dana"));
        assertThat(data.events().find("dana", id)).isEmpty();
        UndoAction undoDelete =
                tool.undo().orElseThrow().undoFor(delete, deleted).orElseThrow();
        tools.call(undoDelete.toolName(), undoDelete.args(), context("dana"));
        assertThat(data.events().find("dana", id).orElseThrow().toJson(JERUSALEM))
                .isEqualTo(before);
    }

    @Test
    void theSameCallMadeTwiceCreatesOneEvent() {
        openSqlite();
        ToolContext context = ToolContext.detached("run-x", Optional.of("dana"), "A", CLOCK);
        ObjectNode args = object("{\"operation\": \"createMultiple\", \"events\": [{\"summary\": \"One\", \"start\":"
                + " \"2026-11-25T10:00+02:00\"}, {\"summary\": \"Two\", \"start\": \"2026-11-25T11:00+02:00\"}]}");

        JsonNode first = tools.call(MemoTools.CALENDAR, args, context);
        JsonNode second = tools.find(MemoTools.CALENDAR).orElseThrow().invoke(args, context);

        assertThat(second.get("events").findValuesAsText("id"))
                .isEqualTo(first.get("events").findValuesAsText("id"));
        assertThat(data.events().all("dana")).hasSize(2);
    }

    @Test
    void badArgumentsAreRefusedAndChangeNothing() {
        openSqlite();
        String once = create("dana", "\"summary\": \"Once\", \"start\": \"2026-11-25T10:00+02:00\"");
        for (String bad : List.of(
                "{\"operation\": \"explode\"}",
                "{\"operation\": \"create\", \"start\": \"2026-11-25T10:00+02:00\"}",
                "{\"operation\": \"create\", \"summary\": \"x\", \"start\": \"soon\"}",
                "{\"operation\": \"create\", \"summary\": \"x\", \"start\": \"2026-11-25T10:00+02:00\", \"end\":"
                        + " \"2026-11-25T09:00+02:00\"}",
                "{\"operation\": \"create\", \"summary\": \"x\", \"start\": \"2026-12-26\", \"end\": \"2026-12-24\"}",
                "{\"operation\": \"create\", \"summary\": \"x\", \"start\": \"2026-11-25T10:00+02:00\","
                        + " \"reminderMinutesBefore\": -5}",
                "{\"operation\": \"createRecurring\", \"summary\": \"x\", \"days\": [\"Funday\"], \"startTime\":"
                        + " \"09:00\"}",
                "{\"operation\": \"createRecurring\", \"summary\": \"x\", \"days\": [\"Monday\", \"3\"], \"startTime\":"
                        + " \"09:00\"}",
                "{\"operation\": \"createRecurring\", \"summary\": \"x\", \"rrule\": \"FREQ=HOURLY\", \"startTime\":"
                        + " \"09:00\"}",
                "{\"operation\": \"createRecurring\", \"summary\": \"x\", \"rrule\": \"every day\", \"startTime\":"
                        + " \"09:00\"}",
                "{\"operation\": \"createRecurring\", \"summary\": \"x\", \"days\": [\"Monday\"], \"startTime\":"
                        + " \"nine\"}",
                "{\"operation\": \"createRecurring\", \"summary\": \"x\", \"days\": [\"Monday\"]}",
                "{\"operation\": \"getEvents\", \"timeMin\": \"2026-11-25\", \"timeMax\": \"2026-11-20\"}",
                "{\"operation\": \"getEvents\", \"timeMin\": \"2026-11-25\", \"excludeDays\": [\"someday\"]}",
                "{\"operation\": \"update\", \"eventId\": \"" + once + "\"}",
                "{\"operation\": \"update\", \"updateFields\": {\"summary\": \"y\"}}",
                "{\"operation\": \"delete\"}",
                "{\"operation\": \"getRecurringInstances\", \"eventId\": \"" + once + "\"}",
                "{\"operation\": \"truncateRecurring\", \"eventId\": \"" + once + "\", \"until\": \"2026-12-01\"}")) {
            assertThatThrownBy(() -> calendar("dana", bad))
                    .as(bad)
                    .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_ARGS_INVALID));
        }
        assertThatThrownBy(() ->
                        calendar("dana", "{\"operation\": \"create\", \"summary\": \"x\", \"start\": \"2026-13-45\"}"))
                .hasMessageContaining("start '2026-13-45'");
        assertThatThrownBy(() -> calendar(
                        "dana",
                        "{\"operation\": \"createRecurring\", \"summary\": \"x\", \"days\": [\"Funday\"], \"startTime\":"
                                + " \"09:00\"}"))
                .hasMessageContaining("'Funday'");
        assertThat(data.events().all("dana")).extracting(e -> e.id()).containsExactly(once);
    }
}
