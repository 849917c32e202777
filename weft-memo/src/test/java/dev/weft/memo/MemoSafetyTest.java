package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.Task;
import dev.weft.plan.PlanMode;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Memo's safety invariants, with the offline planner on a real SQLite file (issue 37): a message that
 * asks to read, confirm or be told changes nothing; "delete the reminder" with three asks which; what
 * Memo does not do yields no step; a question before a change names what it touches, in the user's
 * language; and a yes/no question answered with something else is asked again.
 */
final class MemoSafetyTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    private static final Optional<ZoneId> JERUSALEM = Optional.of(ZoneId.of("Asia/Jerusalem"));

    @org.junit.jupiter.api.io.TempDir
    Path dir;

    private RunStore store;
    private Memo memo;
    private Runner runner;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        memo = Memo.open(store);
        runner = Runner.builder().store(store).time(TimeSource.of(() -> NOW)).build();
        ask("remind me to call Dana at 5pm");
        ask("remind me to take my pills at 9pm");
        ask("remind me to stretch at 7pm");
        assertThat(reminders()).hasSize(3);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private Memo.Reply ask(String message) {
        return memo.ask(runner, new Memo.Request("dana", message, JERUSALEM, PlanMode.AUTO));
    }

    private Memo.Reply say(String message) {
        return memo.converse(
                runner, new Memo.Request("dana", message, JERUSALEM, PlanMode.AUTO), memo.waiting(runner, "dana"));
    }

    private java.util.List<String> reminders() {
        return memo.data().tasks().all("dana").stream().map(Task::text).toList();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "tell me about my alarms",
                "confirm my alarm settings",
                "what reminders do I have",
                "is my morning alarm on?",
                "did I set a reminder for tonight",
                "let me know which reminders I have today",
                "ספר לי על התזכורות שלי",
                "תאשר לי את הגדרות השעון המעורר",
                "אילו תזכורות יש לי?"
            })
    void aMessageThatAsksToReadChangesNothing(String message) {
        Memo.Reply reply = ask(message);

        assertThat(reply.plan().steps())
                .as("planned for \"%s\"", message)
                .allSatisfy(step -> assertThat(UnderstandingScore.writes(step.capability() + "/" + step.action()))
                        .isFalse());
        assertThat(reply.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(reminders()).hasSize(3);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"turn my morning alarm on", "switch the 7pm reminder back on", "תדליק את השעון המעורר של הבוקר"})
    void aChangeThatNamesNoDeleteNeverDeletesNorAsksToDelete(String message) {
        ask("wake me up at 6:30 tomorrow");

        Memo.Reply reply = ask(message);

        assertThat(reply.plan().steps())
                .as("planned for \"%s\"", message)
                .noneSatisfy(step -> assertThat(step.action()).startsWith("delete"));
        assertThat(reply.text()).doesNotContain("delete").doesNotContain("למחוק");
        assertThat(reminders()).hasSize(4);
    }

    @Test
    void deleteTheReminderWithThreeAsksWhichOneNotABulkDelete() {
        Memo.Reply reply = ask("delete the reminder");

        assertThat(reply.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(reply.text())
                .contains("Which one")
                .contains("call Dana")
                .contains("take my pills")
                .contains("stretch");
        assertThat(reminders()).hasSize(3);
        String second = reply.text()
                .lines()
                .filter(line -> line.startsWith("2. "))
                .findFirst()
                .orElseThrow()
                .substring(3);

        say("2");

        assertThat(reminders()).hasSize(2).doesNotContain(second);
    }

    @Test
    void aBulkDeleteNamesWhatItWillDeleteBeforeItDoes() {
        Memo.Reply reply = ask("delete all my reminders");

        assertThat(reply.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(reply.text())
                .startsWith("This will delete your 3 reminders: ")
                .contains("call Dana")
                .contains("take my pills")
                .contains("stretch")
                .endsWith("Shall I go ahead? (yes/no)");
        assertThat(reminders()).hasSize(3);
    }

    @Test
    void aCalendarBulkDeleteNamesTheEventsItWillDelete() {
        ask("dentist on Thursday at 10");
        ask("lunch with Avi on Thursday at 13");
        ask("yoga on Friday at 8");

        Memo.Reply reply = ask("cancel everything on Thursday");

        assertThat(reply.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(reply.text()).contains("dentist").contains("lunch with Avi").doesNotContain("yoga");
        assertThat(memo.data().events().all("dana")).hasSize(3);
    }

    @Test
    void theQuestionIsAskedInHebrewToAHebrewRequest() {
        Memo.Reply reply = ask("תמחק את כל התזכורות שלי");

        assertThat(reply.text()).startsWith("זה עומד למחוק את 3 התזכורות שלך: ").contains("call Dana");
        assertThat(reply.text()).endsWith("להמשיך? (כן/לא)");
    }

    @Test
    void aYesNoQuestionAnsweredWithSomethingElseIsAskedAgainNamingTheChoices() {
        ask("delete all my reminders");

        for (String unclear : new String[] {"2", "maybe", "what?"}) {
            Memo.Reply again = say(unclear);

            assertThat(again.text())
                    .as("answered \"%s\"", unclear)
                    .startsWith("Please answer yes or no")
                    .contains("This will delete your 3 reminders")
                    .doesNotContain("not sure how to help");
            assertThat(again.run().status()).isEqualTo(RunStatus.WAITING);
            assertThat(reminders()).hasSize(3);
        }

        say("yes");

        assertThat(reminders()).isEmpty();
    }

    @Test
    void aHebrewYesNoQuestionIsAskedAgainInHebrew() {
        ask("תמחק את כל התזכורות שלי");

        Memo.Reply again = say("אולי");

        assertThat(again.text()).startsWith("נא לענות כן או לא");
        assertThat(reminders()).hasSize(3);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Pay the electricity bill with my Visa",
                "schedule an uber for tomorrow at six",
                "תשלם את חשבון החשמל עם הויזה",
                "תזמין לי מונית למחר בשש",
                "order pizza for dinner at 8",
                "play some jazz at 7",
                "turn the lights off at 11",
                "buy two tickets for the concert on friday",
                "תזמין לי סושי לשמונה",
                "תכבה את האורות באחת עשרה"
            })
    void whatMemoDoesNotDoYieldsNoStepThatWrites(String message) {
        Memo.Reply reply = ask(message);

        assertThat(reply.plan().steps())
                .allSatisfy(step -> assertThat(step.capability()).isIn("general", "meta"));
        assertThat(memo.data().events().all("dana")).isEmpty();
        assertThat(reminders()).hasSize(3);
    }

    @Test
    void turningAnAlarmOnNeverDeletesItWithoutThePerson() {
        ask("wake me up tomorrow at 7");
        int before = reminders().size();

        ask("turn my morning alarm on");

        assertThat(reminders()).hasSize(before);
    }
}
