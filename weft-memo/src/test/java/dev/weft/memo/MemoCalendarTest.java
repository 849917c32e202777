package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.Event;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanMode;
import dev.weft.plan.PlanStep;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memo's calendar through {@link Memo#ask}, on real SQLite, in English and Hebrew: the resolvers turn
 * the planner's calendar steps into calls, find events by the user's words, ask which one when several
 * match, and the replies say what was done. Steps the offline planner does not make yet (moving an
 * event, clearing a range) are given as a plan by hand.
 */
final class MemoCalendarTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    private static final Optional<ZoneId> JERUSALEM = Optional.of(ZoneId.of("Asia/Jerusalem"));

    @TempDir
    Path dir;

    private RunStore store;
    private Memo memo;
    private Runner runner;
    /** The plan the next message gets instead of the offline planner's, when set. */
    private final AtomicReference<Plan> scripted = new AtomicReference<>();

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        OfflinePlanner offline = new OfflinePlanner();
        memo = Memo.open(store, (message, context) -> {
            Plan plan = scripted.getAndSet(null);
            return plan != null ? plan : offline.plan(message, context);
        });
        runner = Runner.builder()
                .store(store)
                .time(new TimeSource() {
                    @Override
                    public Instant now() {
                        return NOW;
                    }

                    @Override
                    public void sleep(Duration duration) {}
                })
                .build();
    }

    @AfterEach
    void close() {
        store.close();
    }

    private Memo.Reply ask(String user, String message) {
        return memo.ask(runner, new Memo.Request(user, message, JERUSALEM, PlanMode.AUTO));
    }

    /** Asks {@code message} with a one-step calendar plan written by hand. */
    private Memo.Reply step(String user, String message, String action, String constraints, String changes) {
        scripted.set(new Plan(
                "operation",
                0.9,
                List.of(new PlanStep(
                        "A",
                        "calendar",
                        action,
                        (ObjectNode) Json.parse(constraints, "constraints"),
                        (ObjectNode) Json.parse(changes, "changes"),
                        List.of()))));
        return ask(user, message);
    }

    private List<String> summaries(String user) {
        return memo.data().events().all(user).stream().map(Event::summary).toList();
    }

    private static JsonNode args(Memo.Reply reply) {
        return reply.json().get("resolutions").get(0).get("args");
    }

    @Test
    void schedulesAMeetingInEnglishAndListsIt() {
        Memo.Reply made = ask("dana", "schedule a meeting with Dana tomorrow at 3pm");
        Memo.Reply listed = ask("dana", "what's on my calendar tomorrow?");

        assertThat(made.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(made.text()).isEqualTo("Scheduled \"meeting with Dana\" — Wed 25 Nov, 15:00–16:00.");
        assertThat(args(made).get("operation").asText()).isEqualTo("create");
        assertThat(args(made).get("start").asText()).isEqualTo("2026-11-25T15:00:00+02:00");
        assertThat(args(listed).get("operation").asText()).isEqualTo("getEvents");
        assertThat(listed.text()).isEqualTo("You have 1 event:\n1. meeting with Dana (Wed 25 Nov, 15:00–16:00)");
    }

    @Test
    void findsAnEventNamedInEnglishByItsHebrewName() {
        ask("dana", "schedule a dentist appointment on Friday at 9");

        Memo.Reply moved = ask("dana", "תזיז את רופא השיניים לשבע בערב");

        assertThat(args(moved).get("operation").asText()).isEqualTo("update");
        assertThat(moved.text()).contains("dentist appointment").contains("19:00");
    }

    @Test
    void aHebrewNameInAnEnglishReminderLeavesItEnglish() {
        Memo.Reply made = ask("dana", "remind me tomorrow at 9 to call דנה");

        assertThat(made.text()).contains("call דנה").doesNotContain("remind me");
        assertThat(memo.data().tasks().all("dana").get(0).text()).isEqualTo("call דנה");
    }

    @Test
    void schedulesAMeetingInHebrewAndListsIt() {
        Memo.Reply made = ask("omer", "תקבע פגישה עם דנה מחר ב-15:00");
        Memo.Reply listed = ask("omer", "מה יש לי ביומן מחר?");
        Memo.Reply empty = ask("omer", "מה יש לי ביומן ביום שלישי הבא?");

        assertThat(made.language()).isEqualTo("he");
        assertThat(made.text()).isEqualTo("קבעתי \"פגישה עם דנה\" — 25.11 בשעה 15:00–16:00.");
        assertThat(listed.text()).isEqualTo("יש לך אירוע אחד:\n1. פגישה עם דנה (25.11 בשעה 15:00–16:00)");
        assertThat(empty.text()).isEqualTo("אין לך כלום ביומן, ואין משימות או תזכורות בזמן הזה.");
    }

    @Test
    void listsTodayAndTheSixDaysAfterItWhenNoTimeIsGiven() {
        Memo.Reply empty = ask("dana", "what's on my calendar?");
        ask("dana", "schedule a dentist appointment on Friday at 9");
        Memo.Reply listed = ask("dana", "what's on my calendar?");

        assertThat(args(empty).get("timeMin").asText()).isEqualTo("2026-11-24T00:00:00+02:00");
        assertThat(args(empty).get("timeMax").asText()).isEqualTo("2026-12-01T00:00:00+02:00");
        assertThat(empty.text()).isEqualTo("Nothing on your calendar, and no tasks or reminders due then.");
        assertThat(listed.text()).isEqualTo("You have 1 event:\n1. dentist appointment (Fri 27 Nov, 09:00–10:00)");
    }

    @Test
    void saysWhatANewEventOverlaps() {
        ask("dana", "schedule a meeting with Dana tomorrow at 3pm");

        Memo.Reply call = ask("dana", "schedule a call with Omer tomorrow at 3:30pm");

        assertThat(call.text())
                .isEqualTo(
                        "Scheduled \"call with Omer\" — Wed 25 Nov, 15:30–16:30. It overlaps \"meeting with Dana\".");
        assertThat(summaries("dana")).hasSize(2);
    }

    @Test
    void asksWhichMeetingWhenSeveralMatchAndTheAnswerDeletesIt() {
        ask("dana", "schedule a meeting with Dana tomorrow at 3pm");
        ask("dana", "schedule a meeting with Omer on Friday at 9");

        Memo.Reply question = ask("dana", "delete the meeting");
        assertThat(question.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(question.json().get("resolutions").get(0).get("type").asText())
                .isEqualTo("clarify");
        assertThat(question.text())
                .isEqualTo("Which one did you mean?\n1. meeting with Dana — Wed 25 Nov, 15:00–16:00\n"
                        + "2. meeting with Omer — Fri 27 Nov, 09:00–10:00");

        Memo.Reply done = memo.answer(runner, question.run().runId(), "dana", "2");
        assertThat(done.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(done.text()).isEqualTo("Deleted \"meeting with Omer\" (Fri 27 Nov, 09:00–10:00).");
        assertThat(summaries("dana")).containsExactly("meeting with Dana");
    }

    @Test
    void asksWhichOneInHebrewAndWordsOfTheAnswerPickIt() {
        ask("omer", "תקבע פגישה עם דנה מחר ב-15:00");
        ask("omer", "תקבע פגישה עם עומר ביום שישי ב-9");

        Memo.Reply question = ask("omer", "תבטל את הפגישה");
        assertThat(question.text())
                .isEqualTo(
                        "למה התכוונת?\n1. פגישה עם דנה — 25.11 בשעה 15:00–16:00\n2. פגישה עם עומר — 27.11 בשעה 09:00–10:00");

        Memo.Reply done = memo.answer(runner, question.run().runId(), "omer", "עם עומר");
        assertThat(done.text()).isEqualTo("מחקתי את \"פגישה עם עומר\" (27.11 בשעה 09:00–10:00).");
        assertThat(summaries("omer")).containsExactly("פגישה עם דנה");
    }

    @Test
    void saysSoWhenNoEventMatchesInTheUsersLanguage() {
        Memo.Reply en = ask("dana", "cancel my meeting with Dana");
        Memo.Reply he = ask("omer", "תבטל את הפגישה עם דנה");

        assertThat(en.text()).isEqualTo("I couldn't find an event matching \"meeting with Dana\".");
        assertThat(en.json().get("results").get(0).get("error").get("code").asText())
                .isEqualTo("E_NOT_FOUND");
        assertThat(he.text()).isEqualTo("לא מצאתי אירוע שמתאים ל\"פגישה עם דנה\".");
    }

    @Test
    void aWeeklyMeetingIsOnNextTuesday() {
        Memo.Reply made = ask("dana", "set up a team meeting every Tuesday at 10");
        Memo.Reply listed = ask("dana", "what's on my calendar next Tuesday?");

        assertThat(args(made).get("operation").asText()).isEqualTo("createRecurring");
        assertThat(args(made).get("rrule").asText()).isEqualTo("FREQ=WEEKLY;BYDAY=TU");
        assertThat(args(made).get("startTime").asText()).isEqualTo("10:00");
        assertThat(args(made).get("startDate").asText()).isEqualTo("2026-11-24");
        assertThat(made.text()).isEqualTo("Scheduled \"team meeting\" — every Tuesday at 10:00.");
        assertThat(listed.text()).isEqualTo("You have 1 event:\n1. team meeting (Tue 1 Dec, 10:00–11:00)");
    }

    @Test
    void aWeeklyMeetingInHebrew() {
        Memo.Reply made = ask("omer", "תקבע פגישת צוות כל יום שלישי ב-10");

        assertThat(made.text()).isEqualTo("קבעתי \"פגישת צוות\" — כל יום שלישי בשעה 10:00.");
    }

    @Test
    void aSeriesEndsOnTheDayGiven() {
        ask("dana", "set up a team meeting every Tuesday at 10");

        Memo.Reply ended = step("dana", "stop the team meeting after 15 Dec", "end_recurring", """
                        {"summary": "team meeting", "until": "2026-12-15"}""", "{}");
        Memo.Reply listed = ask("dana", "what's on my calendar on 22 December?");

        assertThat(args(ended).get("operation").asText()).isEqualTo("truncateRecurring");
        assertThat(ended.text()).isEqualTo("\"team meeting\" now ends on Tue 15 Dec.");
        assertThat(listed.text()).isEqualTo("Nothing on your calendar, and no tasks or reminders due then.");
    }

    @Test
    void aRangeDeleteWaitsForApprovalAndThenDeletes() {
        ask("dana", "schedule a meeting with Dana tomorrow at 3pm");
        ask("dana", "schedule a call with Omer tomorrow at 5pm");
        ask("dana", "schedule a dentist appointment on Friday at 9");

        Memo.Reply waiting = step("dana", "clear my calendar tomorrow", "delete_events", """
                {"timeMin": "2026-11-25T00:00:00+02:00", "timeMax": "2026-11-25T23:59:59+02:00"}""", "{}");
        assertThat(waiting.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(waiting.text())
                .isEqualTo("This will delete every event on Wed 25 Nov: meeting with Dana, call with Omer. Shall I go"
                        + " ahead? (yes/no)");
        assertThat(summaries("dana")).hasSize(3);

        Memo.Reply done = memo.approve(runner, waiting.run().runId(), "dana", List.of());
        assertThat(done.text()).isEqualTo("Deleted 2 events.");
        assertThat(summaries("dana")).containsExactly("dentist appointment");

        memo.executor().undo(runner, waiting.run().runId(), "dana");
        assertThat(summaries("dana")).hasSize(3);
    }

    @Test
    void undoingTheRunRemovesTheEventItCreated() {
        Memo.Reply made = ask("dana", "schedule a meeting with Dana tomorrow at 3pm");
        assertThat(summaries("dana")).containsExactly("meeting with Dana");

        memo.executor().undo(runner, made.run().runId(), "dana");

        assertThat(summaries("dana")).isEmpty();
    }

    @Test
    void aNewTimeAloneKeepsTheDayAndTheLength() {
        ask("dana", "schedule a meeting with Dana tomorrow at 3pm");

        Memo.Reply moved = step("dana", "move the meeting with Dana to 4pm", "update_event", """
                {"summary": "meeting with Dana"}""", """
                {"start": "16:00"}""");

        JsonNode args = args(moved);
        assertThat(args.get("operation").asText()).isEqualTo("update");
        assertThat(args.get("eventId").asText()).startsWith("ev-");
        assertThat(args.get("searchCriteria").get("summary").asText()).isEqualTo("meeting with Dana");
        assertThat(args.get("updateFields").get("start").asText()).isEqualTo("2026-11-25T16:00:00+02:00");
        assertThat(args.get("updateFields").get("end").asText()).isEqualTo("2026-11-25T17:00:00+02:00");
        assertThat(moved.text()).isEqualTo("Moved \"meeting with Dana\" to Wed 25 Nov, 16:00–17:00.");
    }

    @Test
    void aNewDayAloneKeepsTheTimeOfDay() {
        step("dana", "schedule the review", "create_event", """
                {"summary": "design review", "start": "2026-11-25T15:00:00+02:00",
                 "end": "2026-11-25T16:30:00+02:00"}""", "{}");

        Memo.Reply moved = step("dana", "move the review to Thursday", "update_event", """
                {"summary": "review"}""", """
                {"start": "2026-11-26"}""");
        Memo.Reply again = step("dana", "move the review to Friday at 9", "update_event", """
                {"summary": "review"}""", """
                {"start": "2026-11-27T09:00:00+02:00"}""");

        assertThat(moved.text()).isEqualTo("Moved \"design review\" to Thu 26 Nov, 15:00–16:30.");
        assertThat(again.text()).isEqualTo("Moved \"design review\" to Fri 27 Nov, 09:00–10:30.");
    }

    @Test
    void aRepeatingEventMovesToAnotherTimeOfDayAndCanBeRenamed() {
        ask("dana", "set up a team meeting every Tuesday at 10");

        Memo.Reply moved = step("dana", "move the team meeting to 11", "update_event", """
                {"summary": "team meeting"}""", """
                {"start": "11:00"}""");
        Memo.Reply renamed = step("dana", "call the team meeting standup", "update_event", """
                {"summary": "team meeting"}""", """
                {"summary": "standup"}""");

        assertThat(args(moved).get("updateFields").get("startTime").asText()).isEqualTo("11:00");
        assertThat(moved.text()).isEqualTo("Moved \"team meeting\" to every Tuesday at 11:00.");
        assertThat(renamed.text()).isEqualTo("Renamed \"team meeting\" to \"standup\" — every Tuesday at 11:00.");
    }

    @Test
    void aMoveInHebrew() {
        ask("omer", "תקבע פגישה עם דנה מחר ב-15:00");

        Memo.Reply moved = step("omer", "תזיז את הפגישה עם דנה ל-16:00", "update_event", """
                {"summary": "הפגישה עם דנה"}""", """
                {"start": "16:00"}""");

        assertThat(moved.text()).isEqualTo("הזזתי את \"פגישה עם דנה\" ל-25.11 בשעה 16:00–17:00.");
    }

    @Test
    void findsAnEventAndChecksATimeForConflicts() {
        ask("dana", "schedule a meeting with Dana tomorrow at 3pm");

        Memo.Reply found = step("dana", "when is my meeting with Dana?", "find_event", """
                {"summary": "Dana"}""", "{}");
        Memo.Reply busy = step("dana", "am I free tomorrow at 3:30?", "check_conflicts", """
                {"timeMin": "2026-11-25T15:30:00+02:00", "timeMax": "2026-11-25T16:30:00+02:00"}""", "{}");
        Memo.Reply free = step("dana", "am I free tomorrow at 5?", "check_conflicts", """
                {"timeMin": "2026-11-25T17:00:00+02:00", "timeMax": "2026-11-25T18:00:00+02:00"}""", "{}");

        assertThat(args(found).get("operation").asText()).isEqualTo("get");
        assertThat(found.text()).isEqualTo("\"meeting with Dana\" — Wed 25 Nov, 15:00–16:00.");
        assertThat(busy.text()).isEqualTo("That time is taken:\n1. meeting with Dana (Wed 25 Nov, 15:00–16:00)");
        assertThat(free.text()).isEqualTo("You're free then.");
    }

    @Test
    void oneUserNeitherFindsNorDeletesAnothersEvents() {
        ask("dana", "schedule a meeting with Dana tomorrow at 3pm");

        Memo.Reply listed = ask("omer", "what's on my calendar tomorrow?");
        Memo.Reply cancel = ask("omer", "cancel my meeting with Dana");
        Memo.Reply move = step("omer", "move the meeting with Dana to 4pm", "update_event", """
                {"summary": "meeting with Dana"}""", """
                {"start": "16:00"}""");

        assertThat(listed.text()).isEqualTo("Nothing on your calendar, and no tasks or reminders due then.");
        assertThat(cancel.text()).contains("I couldn't find");
        assertThat(move.text()).contains("I couldn't find");
        assertThat(summaries("dana")).containsExactly("meeting with Dana");
        assertThat(memo.data().events().all("dana").get(0).start()).isEqualTo(Instant.parse("2026-11-25T13:00:00Z"));
    }

    @Test
    void helpAndTheFallbackAnswerMentionTheCalendar() {
        assertThat(ask("dana", "what can you do?").text()).contains("calendar");
        assertThat(ask("omer", "מה אתה יודע לעשות?").text()).contains("יומן");
        assertThat(ask("dana", "hi").text()).contains("calendar");
    }
}
