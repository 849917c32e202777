package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.Model;
import dev.weft.llm.ModelConfig;
import dev.weft.llm.Provider;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.plan.PlanMode;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Talking to Memo's second brain in English and Hebrew on real SQLite: thoughts kept, found again by
 * words or meaning and cited with their day, changed, forgotten and summarized, mixed with other
 * requests in one message, never another user's.
 */
final class MemoSecondBrainTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    private static final Optional<ZoneId> JERUSALEM = Optional.of(ZoneId.of("Asia/Jerusalem"));

    @TempDir
    Path dir;

    private RunStore store;
    private Memo memo;
    private Runner runner;
    private Instant now = NOW;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        memo = Memo.open(store);
        runner = runner();
    }

    private Runner runner() {
        return Runner.builder().store(store).time(TimeSource.of(() -> now)).build();
    }

    @AfterEach
    void close() {
        store.close();
    }

    private Memo.Reply ask(String user, String message) {
        now = now.plusSeconds(60);
        return memo.ask(runner, new Memo.Request(user, message, JERUSALEM, PlanMode.AUTO));
    }

    @Test
    void keepsAThoughtAndAnswersWhatWasSaidCitingTheDay() {
        Memo.Reply kept = ask("dana", "I think the project is running late because of the vendor");
        ask("dana", "remember that Dana prefers morning meetings");

        Memo.Reply answer = ask("dana", "what did I say about the project?");

        assertThat(kept.text())
                .isEqualTo("Got it, I'll remember: \"I think the project is running late because of the vendor\".");
        assertThat(answer.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(answer.text())
                .startsWith("Here's what you told me about \"the project\":\n"
                        + "1. \"I think the project is running late because of the vendor\" (24 Nov)");
    }

    @Test
    void findsByMeaningWhenNoWordIsShared() {
        ask("dana", "fyi the launch is behind schedule and will slip to March");
        ask("dana", "remember that the office coffee machine is broken");

        Memo.Reply answer = ask("dana", "what do I know about delays?");

        assertThat(answer.text().lines().skip(1).findFirst().orElseThrow())
                .startsWith("1. \"the launch is behind schedule");
    }

    @Test
    void hebrew_findsAMemoryThroughPrefixesAndAnswersInHebrew() {
        Memo.Reply kept = ask("omer", "אני חושב שהפרויקט מתעכב בגלל הספק");

        Memo.Reply answer = ask("omer", "מה אמרתי על הפרויקט?");

        assertThat(kept.text()).isEqualTo("שמרתי: \"אני חושב שהפרויקט מתעכב בגלל הספק\".");
        assertThat(answer.language()).isEqualTo("he");
        assertThat(answer.text())
                .isEqualTo("זה מה שסיפרת לי על \"הפרויקט\":\n1. \"אני חושב שהפרויקט מתעכב בגלל הספק\" (24.11)");
    }

    @Test
    void aQuestionNamingNothing_getsTheLatestMemories() {
        ask("dana", "remember that Dana likes tea");
        ask("dana", "idea: a weekly demo day");

        assertThat(ask("dana", "what did I say about?").text())
                .isEqualTo(
                        "Here's what you told me:\n1. \"a weekly demo day\" (24 Nov)\n2. \"Dana likes tea\" (24 Nov)");
        assertThat(ask("omer", "מה אמרתי על").text()).isEqualTo("עוד לא סיפרת לי על זה כלום.");
    }

    @Test
    void saysPlainlyWhenNothingWasSaid() {
        assertThat(ask("dana", "what did I say about the budget?").text())
                .isEqualTo("You haven't told me anything about \"the budget\" yet.");
        assertThat(ask("omer", "מה אמרתי על התקציב?").text()).isEqualTo("עוד לא סיפרת לי כלום על \"התקציב\".");
    }

    @Test
    void forgetsAndChangesAMemoryByItsWords() {
        ask("dana", "remember that the budget review is on Monday");
        ask("dana", "remember that Avi likes tea");

        Memo.Reply changed =
                ask("dana", "update what I said about the budget review to the budget review moved to Thursday");
        Memo.Reply forgotten = ask("dana", "forget what I said about Avi");

        assertThat(changed.text()).isEqualTo("Updated what I keep: \"the budget review moved to Thursday\".");
        assertThat(forgotten.text()).isEqualTo("Forgotten: \"Avi likes tea\".");
        assertThat(memo.data().memories().all("dana"))
                .extracting(m -> m.content())
                .containsExactly("the budget review moved to Thursday");
    }

    @Test
    void aCorrectionChangesWhatIsKept_neverDeletesIt_andIsKeptWhenNothingWasBefore() {
        ask("dana", "remember that my locker code is 1234");
        ask("dana", "remember that the gate code is 9999");

        Memo.Reply corrected = ask("dana", "actually my locker code is 5678 now");
        Memo.Reply set = ask("dana", "update the gate code to 4455");
        Memo.Reply fresh = ask("dana", "correction: the plumber is Avi, not Moshe");

        assertThat(corrected.text()).isEqualTo("Updated what I keep: \"my locker code is 5678 now\".");
        assertThat(set.text()).isEqualTo("Updated what I keep: \"the gate code: 4455\".");
        assertThat(fresh.run().status()).isEqualTo(dev.weft.core.RunStatus.COMPLETED);
        assertThat(memo.data().memories().all("dana"))
                .extracting(m -> m.content())
                .containsExactlyInAnyOrder(
                        "my locker code is 5678 now", "the gate code: 4455", "the plumber is Avi, not Moshe");

        ask("yael", "תזכור שהקוד של השער הוא 1111");
        Memo.Reply hebrew = ask("yael", "בעצם הקוד של השער הוא עכשיו 2222");
        assertThat(hebrew.text()).startsWith("עדכנתי");
        assertThat(memo.data().memories().all("yael"))
                .extracting(m -> m.content())
                .containsExactly("הקוד של השער הוא עכשיו 2222");
        ask("yael", "תשכח את הקוד של השער");
        assertThat(memo.data().memories().all("yael")).isEmpty();
    }

    @Test
    void summarizesWhatWasSaidAboutAProject() {
        ask("dana", "remember that the vendor for Apollo is late again.");
        ask("dana", "remember that I had a great lunch");
        ask("dana", "remember that Apollo needs a new vendor before March.");

        Memo.Reply summary = ask("dana", "summarize what I said about Apollo");

        assertThat(summary.text())
                .startsWith(
                        "In short, from 2 things you told me about \"Apollo\":\n- the vendor for Apollo is late again")
                .contains("Apollo needs a new vendor")
                .doesNotContain("lunch");
    }

    @Test
    void summarizesTheMemoriesOfATag() {
        ask("dana", "remember that we ship the beta on Friday #work");
        ask("dana", "remember that the new pasta place is great #food");
        ask("dana", "remember that the beta needs a release note #work");

        Memo.Reply summary = ask("dana", "summarize what I said about #work");

        assertThat(summary.text())
                .startsWith("In short, from 2 things you told me")
                .contains("ship the beta")
                .contains("release note")
                .doesNotContain("pasta");
    }

    @Test
    void storesAThoughtAndSetsAReminderInOneMessage() {
        Memo.Reply reply = ask("dana", "store that the project is late and also remind me Sunday to raise it");

        assertThat(reply.plan().steps())
                .extracting(s -> s.capability() + "/" + s.action())
                .containsExactly("second-brain/store_thought", "database/create_task");
        assertThat(reply.text())
                .contains("I'll remember: \"the project is late\"")
                .contains("I'll remind you:");
        assertThat(memo.data().memories().all("dana")).hasSize(1);
        assertThat(memo.data().tasks().all("dana")).hasSize(1);
    }

    @Test
    void oneUserNeverHearsAnotherUsersMemories() {
        ask("dana", "remember that the secret code is 4711");

        Memo.Reply other = ask("omer", "what did I say about the secret code?");

        assertThat(other.text()).doesNotContain("4711");
        assertThat(memo.data().memories().all("omer")).isEmpty();
    }

    @Test
    void withAModel_answersFromTheMemoriesFoundAndCitesThem() {
        try (FakeModelServer fake = FakeModelServer.start()) {
            Model model = Model.create(new ModelConfig(
                    Provider.OPENAI,
                    "gpt-test",
                    Optional.of(fake.openAiBaseUrl()),
                    Optional.of("k"),
                    Duration.ofSeconds(5)));
            memo = Memo.open(store, new OfflinePlanner(), model, runner.time());
            ask("dana", "I think the project is running late because of the vendor");
            fake.enqueue(FakeModelServer.Reply.text("You said the project is running late because of the vendor [1]."));

            Memo.Reply answer = ask("dana", "what did I say about the project?");

            assertThat(answer.text()).isEqualTo("You said the project is running late because of the vendor [1].");
            JsonNode request = fake.lastRequest().body();
            List<String> contents = new ArrayList<>();
            request.get("messages").forEach(m -> contents.add(m.path("content").asText()));
            assertThat(contents.get(0)).contains("Answer only from");
            assertThat(contents.get(contents.size() - 1))
                    .contains("what did I say about the project?")
                    .contains("[1] (2026-11-24) I think the project is running late because of the vendor");
        }
    }
}
