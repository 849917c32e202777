package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.BackgroundService;
import dev.weft.assistant.ConversationLine;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import dev.weft.core.NotFoundException;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Memo found by name, as the command line and the server find it, and talked to through the interface. */
final class MemoAssistantTest {
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

    @Test
    void memoIsFoundByNameOnTheClassPath() {
        assertThat(Assistants.available()).contains("memo");
        assertThat(memo).isInstanceOf(MemoAssistant.class);
        assertThatThrownBy(() -> Assistants.open("nobody", AssistantEnvironment.offline(store, dir)))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("no assistant 'nobody'")
                .hasMessageContaining("memo");
    }

    @Test
    void aMalformedAgentsFileDoesNotStopMemoOpeningAndAnAgentAddedLaterIsAskedWithoutARestart() throws Exception {
        java.nio.file.Path file = dir.resolve("home").resolve(dev.weft.workflow.A2aAgents.FILE);
        java.nio.file.Files.createDirectories(file.getParent());
        java.nio.file.Files.writeString(file, "{\"agents\": [", java.nio.charset.StandardCharsets.UTF_8);

        Assistant opened = Assistants.openAll(AssistantEnvironment.offline(store, file.getParent()))
                .get("memo");

        assertThat(opened.tools().find("a2a.send")).as("no agents read yet").isEmpty();
        dev.weft.workflow.A2aAgents.none()
                .with(dev.weft.workflow.A2aAgents.entry(
                        "travel",
                        "http://127.0.0.1:9/a2a/travel",
                        java.util.Optional.empty(),
                        java.util.Optional.empty(),
                        List.of("travel agent")))
                .writeFile(file);
        assertThat(opened.tools().find("a2a.send"))
                .as("the agent added while Memo runs")
                .isPresent();
        Turn asked = opened.converse(runner, Message.of("dana", "ask the travel agent to find a flight to Rome"));
        assertThat(asked.run().status()).as(asked.text()).isEqualTo(RunStatus.WAITING);
        assertThat(asked.text()).contains("travel");
    }

    @Test
    void warmingUpPlansNothingThatRunsAndWritesNothing() {
        memo.warmUp();

        assertThat(store.listRuns(java.util.Optional.empty())).isEmpty();
        assertThat(((MemoAssistant) memo).memo().data().tasks().all("dana")).isEmpty();
        assertThat(memo.history("dana", "dana", 4)).isEmpty();
        // Warmed or not, the first turn is answered as ever.
        Turn first = memo.converse(runner, Message.of("dana", "remind me tomorrow at 9 to call the bank"));
        assertThat(first.text()).contains("call the bank");
    }

    @Test
    void turnOfGivesTheReplyOfARunConverseStartedWithoutRunningItAgain() {
        Turn first = memo.converse(
                runner,
                Message.of("dana", "remind me tomorrow at 9 to call the bank").runId("chat-telegram-1"));

        Turn again = memo.turnOf(runner, "dana", "chat-telegram-1").orElseThrow();

        assertThat(again.text()).isEqualTo(first.text());
        assertThat(again.run().runId()).isEqualTo("chat-telegram-1");
        assertThat(((MemoAssistant) memo).memo().data().tasks().all("dana")).hasSize(1);
        assertThat(store.listRuns(java.util.Optional.empty())).hasSize(1);
        assertThatThrownBy(() -> memo.turnOf(runner, "omer", "chat-telegram-1"))
                .isInstanceOf(dev.weft.core.WeftException.class)
                .hasMessageContaining("not a run of user 'omer'");
        assertThatThrownBy(() -> memo.turnOf(runner, "dana", "no-such-run")).isInstanceOf(NotFoundException.class);
    }

    @Test
    void aTurnActsForItsUserAndItsRunIsMemos() {
        Turn turn = memo.converse(
                runner,
                Message.of("dana", "remind me tomorrow at 9 to call the bank").zone(ZoneId.of("Asia/Jerusalem")));

        assertThat(turn.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(turn.text()).isEqualTo("I'll remind you: \"call the bank\" — Wed 25 Nov, 09:00.");
        assertThat(turn.language()).isEqualTo("en");
        assertThat(turn.usage()).isEqualTo(Turn.Usage.NONE);
        assertThat(memo.owns(turn.run().run())).isTrue();
        assertThat(memo.graphOf(turn.run().run())).isPresent();
        assertThat(((MemoAssistant) memo).memo().data().tasks().all("dana")).hasSize(1);
        assertThat(((MemoAssistant) memo).memo().data().tasks().all("omer")).isEmpty();
    }

    @Test
    void aYesApprovesWhatTheConversationWaitsFor() {
        memo.converse(runner, Message.of("dana", "remind me tomorrow at 9 to call the bank"));
        Turn asked = memo.converse(runner, Message.of("dana", "delete all my reminders"));
        Turn approved = memo.converse(runner, Message.of("dana", "yes"));

        assertThat(asked.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(approved.run().runId()).isEqualTo(asked.run().runId());
        assertThat(approved.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(((MemoAssistant) memo).memo().data().tasks().all("dana")).isEmpty();
    }

    @Test
    void itsToolsAreMemosWithTheirSchemas() {
        assertThat(memo.tools().all()).extracting(t -> t.name()).contains("calendarOperations", "taskOperations");
        assertThat(memo.tools().all())
                .allSatisfy(t -> assertThat(t.inputSchema().isObject()).isTrue());
    }

    @Test
    void askStartsARunOfItsOwnWhateverTheConversationWaitsOn() {
        memo.converse(runner, Message.of("dana", "remind me tomorrow at 9 to call the bank"));
        Turn waiting = memo.converse(runner, Message.of("dana", "delete all my reminders"));

        Turn asked = memo.ask(runner, Message.of("dana", "what are my tasks?"));

        assertThat(asked.run().runId()).isNotEqualTo(waiting.run().runId());
        assertThat(runner.result(waiting.run().runId()).status()).isEqualTo(RunStatus.WAITING);
        assertThat(((MemoAssistant) memo).memo().data().tasks().all("dana")).hasSize(1);
    }

    @Test
    void askKeepsThePreviewModeOfItsMessage() {
        Turn previewed = memo.ask(
                runner,
                Message.of("dana", "remind me tomorrow at 9 to call the bank").mode(dev.weft.plan.PlanMode.PREVIEW));

        assertThat(previewed.run().runId()).isNotBlank();
        assertThat(((MemoAssistant) memo).memo().data().tasks().all("dana")).isEmpty();
    }

    @Test
    void historyIsTheLastLinesOfTheUsersConversationOldestFirst() {
        memo.converse(runner, Message.of("dana", "remind me tomorrow at 9 to call the bank"));
        memo.converse(runner, Message.of("omer", "remind me tomorrow at 10 to water the plants"));

        List<ConversationLine> lines = memo.history("dana", "dana", 4);

        assertThat(lines)
                .extracting(ConversationLine::speaker)
                .containsExactly(ConversationLine.Speaker.PERSON, ConversationLine.Speaker.ASSISTANT);
        assertThat(lines.get(0).text()).isEqualTo("remind me tomorrow at 9 to call the bank");
        assertThat(lines.get(1).text()).contains("call the bank");
        assertThat(lines).noneMatch(l -> l.text().contains("plants"));
    }

    @Test
    void itsBackgroundServicesAreTheCalendarSyncAndTheMailWatchOnRequest() {
        assertThat(memo.services())
                .extracting(BackgroundService::name, BackgroundService::onRequest)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(MemoAssistant.CALENDAR_SYNC, false),
                        org.assertj.core.groups.Tuple.tuple(MemoAssistant.MAIL_WATCH, true));
        assertThat(memo.service("nothing")).isEmpty();
    }

    @Test
    void theCalendarSyncOfAUserWithNoCalendarDoesNothingAndSaysNothing() throws Exception {
        List<String> told = new CopyOnWriteArrayList<>();
        AutoCloseable sync = memo.service(MemoAssistant.CALENDAR_SYNC)
                .orElseThrow()
                .start(BackgroundService.Scope.of("dana"), told::add);
        sync.close();

        assertThat(told).isEmpty();
    }

    @Test
    void theMailWatchOfAUserWithNoMailboxSaysHowToAddOne() throws Exception {
        List<String> told = new CopyOnWriteArrayList<>();
        AutoCloseable watch = memo.service(MemoAssistant.MAIL_WATCH)
                .orElseThrow()
                .start(BackgroundService.Scope.of("dana"), told::add);
        watch.close();
        AutoCloseable everyone = memo.service(MemoAssistant.MAIL_WATCH)
                .orElseThrow()
                .start(BackgroundService.Scope.everyone(), told::add);
        everyone.close();

        assertThat(told).hasSize(2);
        assertThat(told.get(0)).contains("weft memo mail add");
        assertThat(told.get(1)).contains("one user's inbox");
    }

    @Test
    void aServiceRefusesAnIntervalThatIsNotPositive() {
        BackgroundService sync = memo.service(MemoAssistant.CALENDAR_SYNC).orElseThrow();

        assertThatThrownBy(() -> sync.start(java.time.Duration.ZERO, BackgroundService.Scope.everyone(), line -> {}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("calendar-sync")
                .hasMessageContaining("PT0S");
    }
}
