package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.Event;
import dev.weft.memo.data.Task;
import dev.weft.plan.PlanMode;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Follow-ups about "it" — what the user's last request made, changed or found — in English and
 * Hebrew: moved, shifted, lengthened, renamed, completed and deleted, and nothing else touched.
 */
final class FollowUpTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    private static final ZoneId ZONE = ZoneId.of("Asia/Jerusalem");

    @TempDir
    Path dir;

    private RunStore store;
    private Memo memo;
    private Runner runner;
    private final AtomicReference<Instant> clock = new AtomicReference<>(NOW);

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        memo = Memo.open(store);
        runner = Runner.builder()
                .store(store)
                .time(new TimeSource() {
                    @Override
                    public Instant now() {
                        return clock.get();
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
        Memo.Reply reply = memo.ask(runner, new Memo.Request(user, message, Optional.of(ZONE), PlanMode.AUTO));
        clock.set(clock.get().plusSeconds(20));
        return reply;
    }

    private Task onlyTask(String user) {
        List<Task> tasks = memo.data().tasks().all(user);
        assertThat(tasks).hasSize(1);
        return tasks.get(0);
    }

    private Event onlyEvent(String user) {
        List<Event> events = memo.data().events().all(user);
        assertThat(events).hasSize(1);
        return events.get(0);
    }

    private static String local(Instant at) {
        return at.atZone(ZONE).toLocalDateTime().toString();
    }

    @Test
    void aReminderIsMovedShiftedRenamedAndCompletedByWhatItIs() {
        ask("dana", "remind me tomorrow at 9 to call the bank");

        Memo.Reply moved = ask("dana", "move it to 10");
        assertThat(moved.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(local(onlyTask("dana").dueAt().orElseThrow())).isEqualTo("2026-11-25T10:00");
        assertThat(moved.text()).contains("call the bank").contains("10:00");

        // A typo in the correction's word is still a correction.
        ask("dana", "actualy make it 11 instead");
        assertThat(local(onlyTask("dana").dueAt().orElseThrow())).isEqualTo("2026-11-25T11:00");

        ask("dana", "push it by an hour");
        assertThat(local(onlyTask("dana").dueAt().orElseThrow())).isEqualTo("2026-11-25T12:00");

        ask("dana", "no, 8:30");
        assertThat(local(onlyTask("dana").dueAt().orElseThrow())).isEqualTo("2026-11-25T08:30");

        ask("dana", "call it call the bank about the loan");
        assertThat(onlyTask("dana").text()).isEqualTo("call the bank about the loan");

        // A reminder that is done is gone (seed 002); a plain task would be kept, ticked.
        Memo.Reply done = ask("dana", "mark it done");
        assertThat(done.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(memo.data().tasks().all("dana")).isEmpty();
    }

    @Test
    void anEventKeepsItsDayWhenOnlyAnHourIsSaid_andTheHourNearestItsOwnIsMeant() {
        ask("noa", "add lunch with Noa on Thursday at 1pm");
        Event lunch = onlyEvent("noa");
        assertThat(local(lunch.start())).isEqualTo("2026-11-26T13:00");

        ask("noa", "move it to 2");
        Event moved = onlyEvent("noa");
        assertThat(local(moved.start())).isEqualTo("2026-11-26T14:00");
        assertThat(Duration.between(moved.start(), moved.end())).isEqualTo(Duration.ofHours(1));

        ask("noa", "make it 90 minutes long");
        Event longer = onlyEvent("noa");
        assertThat(local(longer.start())).isEqualTo("2026-11-26T14:00");
        assertThat(Duration.between(longer.start(), longer.end())).isEqualTo(Duration.ofMinutes(90));

        ask("noa", "move it to Friday");
        assertThat(local(onlyEvent("noa").start())).isEqualTo("2026-11-27T14:00");

        ask("noa", "delete it");
        assertThat(memo.data().events().all("noa")).isEmpty();
    }

    @Test
    void inHebrew() {
        Memo.Reply set = ask("yael", "תזכיר לי מחר בשמונה בערב לקנות פרחים");
        assertThat(local(onlyTask("yael").dueAt().orElseThrow())).isEqualTo("2026-11-25T20:00");

        Memo.Reply moved = ask("yael", "תעביר את זה ל-9");
        assertThat(local(onlyTask("yael").dueAt().orElseThrow())).isEqualTo("2026-11-25T21:00");
        assertThat(moved.text()).contains("לקנות פרחים");

        ask("yael", "בעצם ב-10");
        assertThat(local(onlyTask("yael").dueAt().orElseThrow())).isEqualTo("2026-11-25T22:00");

        ask("yael", "תדחה אותה בחצי שעה");
        assertThat(local(onlyTask("yael").dueAt().orElseThrow())).isEqualTo("2026-11-25T22:30");

        ask("yael", "תקרא לזה לקנות פרחים לאמא");
        assertThat(onlyTask("yael").text()).isEqualTo("לקנות פרחים לאמא");

        ask("yael", "תמחק את זה");
        assertThat(memo.data().tasks().all("yael")).isEmpty();
        assertThat(set.run().status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void aRequestThatNamesNoneOfAQuestionsOptionsIsANewMessage_andTheQuestionWaits() {
        ask("dana", "remind me tomorrow at 9 to call Dana about the contract");
        ask("dana", "remind me tomorrow at 10 to call Dana about the invoice");
        Memo.Reply which = memo.converse(
                runner,
                new Memo.Request("dana", "delete the reminder to call Dana", Optional.of(ZONE), PlanMode.AUTO),
                memo.waiting(runner, "dana"));
        assertThat(which.run().status()).isEqualTo(RunStatus.WAITING);

        Memo.Reply other = memo.converse(
                runner,
                new Memo.Request("dana", "what do I have tomorrow?", Optional.of(ZONE), PlanMode.AUTO),
                memo.waiting(runner, "dana"));
        assertThat(other.run().runId()).isNotEqualTo(which.run().runId());
        assertThat(memo.data().tasks().all("dana")).hasSize(2);

        // Words of an option answer it, as a number does.
        Memo.Reply answered = memo.converse(
                runner,
                new Memo.Request("dana", "the invoice one", Optional.of(ZONE), PlanMode.AUTO),
                Optional.of(runner.result(which.run().runId())));
        assertThat(answered.run().runId()).isEqualTo(which.run().runId());
        assertThat(memo.data().tasks().all("dana"))
                .extracting(Task::text)
                .containsExactly("call Dana about the contract");
    }

    @Test
    void anEmptyAnswerSaysWhatWasAskedFor() {
        assertThat(ask("dana", "what are my reminders?").text()).isEqualTo("You have no reminders.");
        assertThat(ask("dana", "what do I have to do tomorrow?").text()).isEqualTo("You have no open tasks then.");
        assertThat(ask("yael", "אילו תזכורות יש לי?").text()).isEqualTo("אין לך תזכורות.");
    }

    @Test
    void aFollowUpIsUndoneLikeAnyChange() {
        ask("dana", "remind me tomorrow at 9 to call the bank");
        ask("dana", "move it to 10");
        ask("dana", "undo");
        assertThat(local(onlyTask("dana").dueAt().orElseThrow())).isEqualTo("2026-11-25T09:00");
    }

    @Test
    void whatIsNotAFollowUpIsReadAsAnyOtherRequest_andItsThingIsLeftAlone() {
        ask("dana", "remind me tomorrow at 9 to call the bank");
        ZonedDateTime due = onlyTask("dana").dueAt().orElseThrow().atZone(ZONE);

        // A question with a time in it asks; "that meeting" names another thing.
        ask("dana", "wait, what's on tomorrow?");
        ask("dana", "move that meeting to 3");
        ask("dana", "no thanks");

        assertThat(onlyTask("dana").dueAt().orElseThrow().atZone(ZONE)).isEqualTo(due);
        assertThat(onlyTask("dana").text()).isEqualTo("call the bank");
    }

    @Test
    void itMeansNothingForAnotherUser_norAfterHalfAnHour() {
        ask("dana", "remind me tomorrow at 9 to call the bank");
        ask("omer", "delete it");
        assertThat(onlyTask("dana").text()).isEqualTo("call the bank");

        clock.set(clock.get().plus(Duration.ofMinutes(31)));
        Memo.Reply late = ask("dana", "move it to 10");
        assertThat(local(onlyTask("dana").dueAt().orElseThrow())).isEqualTo("2026-11-25T09:00");
        assertThat(late.text()).startsWith("I'm not sure what \"it\" is here. Say its name");
        assertThat(ask("yael", "תמחק אותה").text()).startsWith("לא ברור לי");
    }

    @Test
    void aBareHourInAnyMoveIsTheOneNearerTheThingsOwnTime() {
        ask("dana", "add dentist on Monday at 4pm");
        ask("dana", "remind me tomorrow at 9 to call the bank");
        clock.set(clock.get().plus(Duration.ofHours(1)));

        ask("dana", "move the dentist to 5");
        assertThat(local(onlyEvent("dana").start())).isEqualTo("2026-11-30T17:00");
        ask("dana", "move the call the bank reminder to 10");
        assertThat(local(onlyTask("dana").dueAt().orElseThrow())).isEqualTo("2026-11-25T10:00");

        ask("yael", "תקבע פגישה עם דנה ביום שני ב-16:00");
        clock.set(clock.get().plus(Duration.ofHours(1)));
        ask("yael", "תעביר את הפגישה עם דנה ל-5");
        assertThat(local(onlyEvent("yael").start())).isEqualTo("2026-11-30T17:00");
    }

    @Test
    void itIsTheOneThingTheLastRequestFound() {
        ask("dana", "add dentist on Monday at 4pm");
        ask("dana", "what's on Monday?");
        ask("dana", "push it to 5pm");
        assertThat(local(onlyEvent("dana").start())).isEqualTo("2026-11-30T17:00");
    }
}
