package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.ForbiddenException;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Talking to Memo in English and Hebrew, on real SQLite: it plans, acts for its user, and answers. */
final class MemoTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    private static final Optional<ZoneId> JERUSALEM = Optional.of(ZoneId.of("Asia/Jerusalem"));

    @TempDir
    Path dir;

    private RunStore store;
    private Memo memo;
    private Runner runner;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        memo = Memo.open(store);
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

    @Test
    void aRequestNotToBeRemindedOrWokenCancels_andNeverSetsOne() {
        ask("dana", "wake me up tomorrow at 6");
        ask("dana", "remind me tomorrow at 9 to call mom");
        ask("dana", "remind me tomorrow at 10 to pay rent");
        assertThat(memo.data().tasks().all("dana")).hasSize(3);

        Memo.Reply alarm = ask("dana", "don't wake me up tomorrow at 6");
        Memo.Reply mom = ask("dana", "don't remind me to call mom");

        assertThat(alarm.run().status()).as(alarm.json().toString()).isEqualTo(RunStatus.COMPLETED);
        assertThat(mom.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(memo.data().tasks().all("dana"))
                .extracting(dev.weft.memo.data.Task::text)
                .containsExactly("pay rent");

        ask("yael", "תעיר אותי מחר ב-7");
        ask("yael", "אל תעיר אותי מחר ב-7");
        assertThat(memo.data().tasks().all("yael")).isEmpty();

        // Nothing due then: said so, and no other reminder is offered in its place.
        Memo.Reply none = ask("dana", "don't wake me up tomorrow at 7");
        assertThat(none.text()).isEqualTo("You have no alarm or reminder due then.");
        assertThat(memo.data().tasks().all("dana")).hasSize(1);
    }

    @Test
    void wordsAboutAChangeThatAskForNoneChangeNothing() {
        ask("dana", "add dentist on Monday at 4pm");
        ask("dana", "remind me tomorrow at 9 to call the bank");

        Memo.Reply negated = ask("dana", "don't delete the dentist appointment");
        Memo.Reply hebrew = ask("dana", "אל תמחק את הפגישה");
        Memo.Reply question = ask("dana", "should I cancel the dentist?");
        Memo.Reply past = ask("dana", "I deleted the wrong reminder yesterday");
        Memo.Reply never = ask("dana", "forget it");

        assertThat(negated.text()).isEqualTo("OK, I won't. Nothing was changed.");
        assertThat(hebrew.text()).startsWith("בסדר, לא אעשה את זה");
        assertThat(question.text()).startsWith("I didn't change anything.");
        assertThat(past.text()).contains("\"undo\" takes back your last change");
        assertThat(never.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(memo.data().events().all("dana")).hasSize(1);
        assertThat(memo.data().tasks().all("dana")).hasSize(1);
    }

    @Test
    void aTimerIsAReminderThatLongFromNow() {
        ask("omer", "set a timer for 10 minutes");
        ask("noa", "תפעיל טיימר לעשרים דקות");
        assertThat(memo.data().tasks().all("omer").get(0).dueAt()).contains(NOW.plus(Duration.ofMinutes(10)));
        assertThat(memo.data().tasks().all("noa").get(0).dueAt()).contains(NOW.plus(Duration.ofMinutes(20)));
        assertThat(memo.data().tasks().all("noa").get(0).text()).isEqualTo("טיימר");
    }

    @Test
    void anAlarmIsTurnedOffByItsTime() {
        ask("omer", "wake me up tomorrow at 7am");
        ask("omer", "wake me up tomorrow at 8am");
        ask("omer", "turn off the 7am alarm");
        assertThat(memo.data().tasks().all("omer"))
                .extracting(t -> t.dueAt()
                        .orElseThrow()
                        .atZone(ZoneId.of("Asia/Jerusalem"))
                        .getHour())
                .containsExactly(8);

        ask("noa", "תעיר אותי ב-6:30");
        ask("noa", "תעיר אותי ב-7");
        ask("noa", "תכבה את השעון של 7");
        assertThat(memo.data().tasks().all("noa"))
                .extracting(t -> t.dueAt()
                        .orElseThrow()
                        .atZone(ZoneId.of("Asia/Jerusalem"))
                        .getMinute())
                .containsExactly(30);
    }

    @Test
    void setsAReminderInEnglishAndListsIt() {
        Memo.Reply set = ask("dana", "remind me tomorrow at 9 to call the bank");
        Memo.Reply listed = ask("dana", "what are my tasks for tomorrow?");

        assertThat(set.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(set.text()).isEqualTo("I'll remind you: \"call the bank\" — Wed 25 Nov, 09:00.");
        assertThat(set.json()
                        .get("resolutions")
                        .get(0)
                        .get("args")
                        .get("dueDate")
                        .asText())
                .isEqualTo("2026-11-25T09:00:00+02:00");
        assertThat(listed.text()).isEqualTo("You have 1 task:\n1. call the bank (Wed 25 Nov, 09:00)");
    }

    @Test
    void answersInHebrewAndKeepsAHebrewList() {
        Memo.Reply created = ask("omer", "צור רשימת קניות עם חלב, ביצים ולחם");
        Memo.Reply added = ask("omer", "תוסיף גבינה לרשימת הקניות");

        assertThat(created.language()).isEqualTo("he");
        assertThat(created.text()).startsWith("יצרתי את הרשימה \"קניות\":");
        assertThat(added.text()).contains("☐ גבינה").contains("☐ חלב");
        assertThat(memo.data().lists().all("omer")).hasSize(1);
    }

    @Test
    void runsIndependentPartsInParallelAndSaysHonestlyWhatItCannotDo() {
        Memo.Reply reply = ask("dana", "check my email and also send me my tasks");

        assertThat(reply.plan().steps()).hasSize(2);
        assertThat(reply.plan().steps().get(1).dependsOn()).isEmpty();
        assertThat(reply.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(reply.text())
                .contains("I can't reach your email: no mailbox is connected. Connect one with: weft memo mail add"
                        + " --user dana")
                .contains("You have no open tasks");
        assertThat(reply.json().get("summary").get("partialFailure").asBoolean())
                .isTrue();
    }

    @Test
    void aPreviewResolvesEveryStepAndChangesNothing() {
        Memo.Reply preview = memo.ask(
                runner,
                new Memo.Request("dana", "remind me every day at 8 to take my pills", JERUSALEM, PlanMode.PREVIEW));

        JsonNode resolution = preview.json().get("resolutions").get(0);
        assertThat(resolution.get("functionName").asText()).isEqualTo("taskOperations");
        assertThat(resolution.get("args").get("reminderRecurrence").get("type").asText())
                .isEqualTo("daily");
        assertThat(preview.json().get("results")).isEmpty();
        assertThat(memo.data().tasks().all("dana")).isEmpty();
    }

    @Test
    void aBulkDeleteWaitsForApprovalAndCanBeUndone() {
        ask("dana", "remind me tomorrow at 9 to call the bank");
        ask("dana", "remind me on Friday to water the plants");

        Memo.Reply waiting = ask("dana", "delete all my reminders");
        assertThat(waiting.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(waiting.text()).contains("Shall I go ahead?");
        assertThat(memo.data().tasks().all("dana")).hasSize(2);

        Memo.Reply done = memo.approve(runner, waiting.run().runId(), "dana", List.of());
        assertThat(done.text()).isEqualTo("Deleted 2 tasks.");
        assertThat(memo.data().tasks().all("dana")).isEmpty();

        memo.executor().undo(runner, waiting.run().runId(), "dana");
        assertThat(memo.data().tasks().all("dana")).hasSize(2);
    }

    @Test
    void aYesInEitherLanguageApprovesWhatTheConversationWaitsForAndANewMessageDoesNot() {
        ask("dana", "remind me tomorrow at 9 to call the bank");
        Memo.Reply waiting = ask("dana", "delete all my reminders");
        assertThat(memo.waiting(runner, "dana").map(r -> r.runId()))
                .contains(waiting.run().runId());

        Memo.Reply other = memo.converse(runner, request("dana", "what are my tasks?"), memo.waiting(runner, "dana"));
        assertThat(other.run().runId()).isNotEqualTo(waiting.run().runId());
        assertThat(memo.waiting(runner, "dana")).isEmpty();
        assertThat(memo.data().tasks().all("dana")).hasSize(1);

        Memo.Reply again = ask("dana", "delete all my reminders");
        Memo.Reply done = memo.converse(runner, request("dana", "כן"), memo.waiting(runner, "dana"));
        assertThat(done.run().runId()).isEqualTo(again.run().runId());
        assertThat(done.text()).isEqualTo("Deleted 1 task.");
        assertThat(memo.data().tasks().all("dana")).isEmpty();
        assertThat(memo.waiting(runner, "dana")).isEmpty();
    }

    @Test
    void aNoRejectsWhatTheConversationWaitsForAndAQuestionTakesAnyLineAsItsAnswer() {
        ask("dana", "remind me tomorrow at 9 to call Dana about the report");
        ask("dana", "remind me on Friday to call Dana about the trip");
        ask("dana", "delete all my reminders");
        Memo.Reply rejected = memo.converse(runner, request("dana", "no"), memo.waiting(runner, "dana"));
        assertThat(rejected.run().status()).isNotEqualTo(RunStatus.WAITING);
        assertThat(memo.data().tasks().all("dana")).hasSize(2);

        ask("dana", "delete the reminder to call Dana");
        Memo.Reply done = memo.converse(runner, request("dana", "2"), memo.waiting(runner, "dana"));
        assertThat(done.text()).isEqualTo("Deleted \"call Dana about the trip\".");
    }

    private static Memo.Request request(String user, String message) {
        return new Memo.Request(user, message, JERUSALEM, PlanMode.AUTO);
    }

    @Test
    void asksWhichOneWhenSeveralMatchAndTheAnswerResumesTheRun() {
        ask("dana", "remind me tomorrow at 9 to call Dana about the report");
        ask("dana", "remind me on Friday to call Dana about the trip");

        Memo.Reply question = ask("dana", "delete the reminder to call Dana");
        assertThat(question.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(question.json().get("resolutions").get(0).get("type").asText())
                .isEqualTo("clarify");
        assertThat(question.text()).contains("Which one did you mean?").contains("2. call Dana about the trip");

        Memo.Reply done = memo.answer(runner, question.run().runId(), "dana", "2");
        assertThat(done.text()).isEqualTo("Deleted \"call Dana about the trip\".");
        assertThat(memo.data().tasks().all("dana"))
                .extracting(t -> t.text())
                .containsExactly("call Dana about the report");
    }

    @Test
    void saysSoWhenNothingMatchesInTheUsersLanguage() {
        Memo.Reply en = ask("dana", "delete the reminder to feed the cat");
        Memo.Reply he = ask("omer", "מחק את התזכורת להאכיל את החתול");

        assertThat(en.text()).contains("I couldn't find a task matching \"feed the cat\"");
        assertThat(he.text()).contains("לא מצאתי משימה שמתאימה ל\"להאכיל את החתול\"");
    }

    @Test
    void oneUserNeitherSeesNorTouchesAnothersTasksOrRuns() {
        ask("dana", "remind me tomorrow at 9 to call the bank");
        Memo.Reply waiting = ask("dana", "delete all my reminders");

        Memo.Reply omer = ask("omer", "what are my tasks?");
        Memo.Reply guess = ask("omer", "delete the reminder to call the bank");

        assertThat(omer.text()).isEqualTo("You have no open tasks.");
        assertThat(guess.text()).contains("I couldn't find");
        assertThatThrownBy(() -> memo.approve(runner, waiting.run().runId(), "omer", List.of()))
                .isInstanceOf(ForbiddenException.class);
        assertThat(memo.data().tasks().all("dana")).hasSize(1);
    }

    @Test
    void asksWhatToRemindOfWhenTheMessageDoesNotSayAndTheAnswerIsTheReminder() {
        Memo.Reply question = ask("dana", "remind me tomorrow at 9");
        Memo.Reply he = ask("omer", "תוסיף לרשימת הקניות");

        assertThat(question.text()).isEqualTo("What should I remind you about?");
        assertThat(he.text()).isEqualTo("מה להוסיף ל\"קניות\"?");
        Memo.Reply done = memo.answer(runner, question.run().runId(), "dana", "call the bank");
        Memo.Reply added = memo.answer(runner, he.run().runId(), "omer", "חלב");
        assertThat(done.text()).isEqualTo("I'll remind you: \"call the bank\" — Wed 25 Nov, 09:00.");
        assertThat(added.text()).contains("☐ חלב");
    }

    @Test
    void keepsEachUsersConversationInTheStore() {
        Memo.Reply first = ask("dana", "remind me tomorrow at 9 to call the bank");
        ask("omer", "היי");

        assertThat(memo.data().conversation().recent("dana", 10))
                .extracting(m -> m.role() + ": " + m.text())
                .containsExactly(
                        "USER: remind me tomorrow at 9 to call the bank",
                        "MEMO: I'll remind you: \"call the bank\" — Wed 25 Nov, 09:00.");
        assertThat(memo.data().conversation().recent("dana", 10).get(1).runId())
                .contains(first.run().runId());
        assertThat(memo.data().conversation().recent("omer", 1))
                .extracting(m -> m.text())
                .containsExactly("היי! איך אפשר לעזור? אני יכול לנהל את היומן, לקבוע תזכורות ולנהל משימות ורשימות.");
    }

    @Test
    void greetsAndHelpsWithoutAModel() {
        assertThat(ask("dana", "hi").text()).startsWith("Hi! How can I help?");
        assertThat(ask("omer", "היי").text()).startsWith("היי! איך אפשר לעזור?");
        assertThat(ask("dana", "what can you do?").text()).startsWith("I'm Memo. I can:");
    }

    @Test
    void anEmptyMessageIsRefusedAndChangesNothing() {
        assertThatThrownBy(() -> ask("dana", "   "))
                .isInstanceOf(WeftException.class)
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_BAD_INPUT);
        assertThat(memo.data().findUser("dana")).isEmpty();
    }

    @Test
    void undoInWordsUndoesTheUsersLastChange_andSaysSoInTheirLanguage() {
        ask("dana", "remind me tomorrow at 9 to call the bank");
        ask("dana", "what are my tasks?");
        Memo.Reply undone = ask("dana", "undo");
        Memo.Reply again = ask("dana", "undo");

        assertThat(undone.text()).isEqualTo("Undone: \"remind me tomorrow at 9 to call the bank\".");
        assertThat(undone.json().at("/plan/plan/0/action").asText()).isEqualTo("undo");
        assertThat(memo.data().tasks().all("dana")).isEmpty();
        assertThat(again.text()).isEqualTo("There's nothing of yours for me to undo.");

        ask("omer", "תזכיר לי מחר ב-9 להתקשר לבנק");
        Memo.Reply hebrew = ask("omer", "בטל את זה");
        assertThat(hebrew.text()).isEqualTo("ביטלתי את \"תזכיר לי מחר ב-9 להתקשר לבנק\".");
        assertThat(memo.data().tasks().all("omer")).isEmpty();
    }

    @Test
    void undoingARunNamesOnlyTheUsersOwnRuns() {
        String danas =
                ask("dana", "remind me tomorrow at 9 to call the bank").run().runId();

        assertThatThrownBy(() -> memo.undo(runner, "omer", Optional.of(danas)))
                .isInstanceOf(dev.weft.core.NotFoundException.class)
                .hasMessageContaining(danas);
        assertThatThrownBy(() -> memo.undo(runner, "dana", Optional.of("no-such-run")))
                .isInstanceOf(dev.weft.core.NotFoundException.class);
        assertThat(memo.data().tasks().all("dana")).hasSize(1);
        assertThat(memo.undo(runner, "dana", Optional.of(danas)).text()).startsWith("Undone:");
        assertThat(memo.data().tasks().all("dana")).isEmpty();
    }

    @Test
    void aPreviewOfUndoUndoesNothing() {
        ask("dana", "remind me tomorrow at 9 to call the bank");
        Memo.Reply preview = memo.ask(runner, new Memo.Request("dana", "undo that", JERUSALEM, PlanMode.PREVIEW));

        assertThat(preview.text()).contains("I would undo \"remind me tomorrow at 9 to call the bank\"");
        assertThat(memo.data().tasks().all("dana")).hasSize(1);
    }

    @Test
    void aRequestMemoDoesNotDoGetsAnHonestAnswerAndNoStep() {
        Memo.Reply pizza = ask("dana", "order me a pizza for tonight");
        Memo.Reply rain = ask("dana", "יירד גשם ביום שישי?");

        assertThat(pizza.plan().steps())
                .extracting(s -> s.capability() + "/" + s.action())
                .containsExactly("general/respond");
        assertThat(pizza.text()).startsWith("I can't order food");
        assertThat(rain.text()).startsWith("אני לא יכול לבדוק את מזג האוויר");
        assertThat(memo.data().events().all("dana")).isEmpty();
        assertThat(memo.data().tasks().all("dana")).isEmpty();
    }

    @Test
    void aPlanMemoIsUnsureOfAsksBeforeItChangesAnything() {
        Plan unsure = new Plan(
                "operation",
                0.3,
                List.of(new PlanStep(
                        "A",
                        "database",
                        "delete_tasks",
                        dev.weft.core.Json.object().put("window", "all"),
                        dev.weft.core.Json.object(),
                        List.of())));
        Memo guessing = Memo.open(store, (message, context) -> unsure);
        guessing.ask(
                runner, new Memo.Request("dana", "remind me tomorrow at 9 to call the bank", JERUSALEM, PlanMode.AUTO));
        Memo.Reply asked = guessing.ask(runner, new Memo.Request("dana", "zap them", JERUSALEM, PlanMode.AUTO));

        assertThat(asked.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(asked.run().interrupts()).containsKey("plan");
        assertThat(asked.text()).contains("Shall I go ahead");
    }
}
