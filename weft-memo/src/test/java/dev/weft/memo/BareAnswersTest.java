package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A line that only says no, yes, "ok" or thanks, talked to Memo through the assistant interface: with
 * nothing waiting it gets a short answer in the user's language and changes nothing; with a question
 * or an approval waiting, "no" still turns it down.
 */
final class BareAnswersTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    @TempDir
    Path dir;

    private RunStore store;
    private Runner runner;
    private Assistant memo;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        runner = Runner.builder().store(store).time(TimeSource.of(() -> NOW)).build();
        memo = Assistants.openAll(AssistantEnvironment.offline(store, dir)).get("memo");
    }

    @AfterEach
    void close() {
        store.close();
    }

    @ParameterizedTest(name = "\"{0}\" → \"{1}\"")
    @CsvSource(
            delimiter = '|',
            value = {
                "no | OK.",
                "No. | OK.",
                "nope | OK.",
                "cancel | OK.",
                "never mind | OK.",
                "stop | OK.",
                "no thanks | OK.",
                "ok | OK.",
                "great | OK.",
                "לא | בסדר.",
                "עזוב | בסדר.",
                "לא משנה | בסדר.",
                "בטל | בסדר.",
                "לא תודה | בסדר.",
                "סבבה | בסדר.",
                "thanks | You're welcome!",
                "תודה | בשמחה!",
            })
    void aBareNoOrOkWithNothingWaitingIsAcknowledgedAndChangesNothing(String line, String answer) {
        memo.converse(runner, Message.of("dana", "remind me tomorrow at 9 to call the bank"));

        Turn turn = memo.converse(runner, Message.of("dana", line));

        assertThat(turn.text()).isEqualTo(answer);
        assertThat(turn.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(tasksOf("dana")).hasSize(1);
    }

    @Test
    void aBareYesWithNothingWaitingSaysSoInTheUsersLanguage() {
        Turn english = memo.converse(runner, Message.of("dana", "yes"));
        Turn hebrew = memo.converse(runner, Message.of("omer", "כן"));

        assertThat(english.text())
                .isEqualTo("OK — nothing is waiting for a yes right now. What would you like me to do?");
        assertThat(hebrew.text()).isEqualTo("בסדר — אין כרגע שום דבר שמחכה לאישור. מה תרצה שאעשה?");
        assertThat(tasksOf("dana")).isEmpty();
        assertThat(tasksOf("omer")).isEmpty();
    }

    @Test
    void aNoStillTurnsDownTheApprovalTheConversationWaitsFor() {
        memo.converse(runner, Message.of("dana", "remind me tomorrow at 9 to call the bank"));
        Turn asked = memo.converse(runner, Message.of("dana", "delete all my reminders"));

        Turn declined = memo.converse(runner, Message.of("dana", "no"));

        assertThat(asked.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(declined.run().runId()).isEqualTo(asked.run().runId());
        assertThat(declined.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(declined.text()).isEqualTo("OK, I left it as it was. Nothing was changed.");
        assertThat(tasksOf("dana")).hasSize(1);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @org.junit.jupiter.params.provider.ValueSource(
            strings = {"no thanks", "nah", "forget it", "stop", "undo", "cancel it", "לא תודה", "עזוב", "לא צריך"})
    void everyWayOfSayingNoTurnsDownTheApprovalAndChangesNothing(String no) {
        memo.converse(runner, Message.of("dana", "remind me tomorrow at 9 to call the bank"));
        Turn asked = memo.converse(runner, Message.of("dana", "delete all my reminders"));

        Turn declined = memo.converse(runner, Message.of("dana", no));

        assertThat(asked.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(declined.run().runId()).isEqualTo(asked.run().runId());
        assertThat(declined.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(tasksOf("dana")).hasSize(1);
    }

    @Test
    void aHebrewNoStillTurnsDownTheApprovalTheConversationWaitsFor() {
        memo.converse(runner, Message.of("omer", "תזכיר לי מחר ב-9 להתקשר לבנק"));
        Turn asked = memo.converse(runner, Message.of("omer", "תמחק את כל התזכורות שלי"));

        Turn declined = memo.converse(runner, Message.of("omer", "לא"));

        assertThat(asked.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(declined.run().runId()).isEqualTo(asked.run().runId());
        assertThat(declined.text()).isEqualTo("בסדר, השארתי את זה כמו שהיה. לא שיניתי כלום.");
        assertThat(tasksOf("omer")).hasSize(1);
    }

    @Test
    void neverMindToWhichOneDropsTheRequestAndTheNextNoIsJustAnOk() {
        memo.converse(runner, Message.of("dana", "remind me tomorrow at 9 to call the bank"));
        memo.converse(runner, Message.of("dana", "remind me tomorrow at 10 to buy milk"));
        Turn which = memo.converse(runner, Message.of("dana", "delete the reminder"));

        Turn dropped = memo.converse(runner, Message.of("dana", "never mind"));
        Turn after = memo.converse(runner, Message.of("dana", "no"));

        assertThat(which.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(which.text()).contains("call the bank", "buy milk");
        assertThat(dropped.run().runId()).isEqualTo(which.run().runId());
        assertThat(dropped.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(dropped.text()).isEqualTo("OK, I left it as it was. Nothing was changed.");
        assertThat(after.run().runId()).isNotEqualTo(which.run().runId());
        assertThat(after.text()).isEqualTo("OK.");
        assertThat(tasksOf("dana")).hasSize(2);
    }

    private java.util.List<?> tasksOf(String user) {
        return ((MemoAssistant) memo).memo().data().tasks().all(user);
    }
}
