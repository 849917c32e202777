package dev.weft.channels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Assistants;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.Memo;
import dev.weft.memo.MemoAssistant;
import dev.weft.plan.ToolContext;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Telegram against a fake Bot API at the wire: the real channel code polls and sends over loopback. */
final class TelegramChannelTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    RunStore store;
    FakeBotApi api;
    Memo memo;
    Assistants assistants;
    ChannelStore chats;
    MutableClock clock;
    TelegramChannel telegram;

    @BeforeEach
    void start() {
        store = Stores.open("sqlite:" + dir.resolve("weft.db"));
        api = new FakeBotApi();
        memo = Memo.open(store);
        assistants = Assistants.of(new MemoAssistant(memo));
        chats = ChannelStore.open(store);
        clock = new MutableClock(Instant.now());
        Conversations conversations = Conversations.builder(
                        chats, assistants, Runner.builder().store(store).build())
                .clock(clock)
                .maxPending(3)
                .build();
        telegram = TelegramChannel.create(api.url(), FakeBotApi.TOKEN, conversations, Duration.ofSeconds(1));
        telegram.start();
    }

    @AfterEach
    void stop() {
        telegram.close();
        api.close();
        store.close();
    }

    private String pair(long chat, String name) {
        api.say(chat, name, "hello");
        String text = api.await(
                        m -> m.chatId().equals(Long.toString(chat)) && m.text().contains("pairing code"), WAIT)
                .text();
        String code = text.replaceAll("(?s).*pairing code is ([A-Z0-9-]+).*", "$1");
        Conversations.approve(chats, code, Optional.empty(), Optional.empty(), clock);
        return "telegram:" + chat;
    }

    @Test
    void anUnknownChatGetsAPairingCodeAndNothingElseRuns() {
        api.say(41, "Dana", "remind me tomorrow at 9 to call Dana");
        String first = api.await(m -> m.chatId().equals("41"), WAIT).text();
        assertThat(first).contains("pairing code").contains("weft channels approve");
        assertThat(store.listRuns(Optional.empty())).isEmpty();

        api.say(41, "Dana", "hello?");
        api.await(m -> api.sent().size() >= 2, WAIT);
        assertThat(api.sent().get(1).text()).isEqualTo(first);
        assertThat(chats.pending(clock.instant())).hasSize(1);
        assertThat(chats.pending(clock.instant()).get(0).name()).isEqualTo("Dana");
    }

    @Test
    void aFloodOfStrangersNeverLocksTheOwnerOutOfPairingAndCodesExpire() {
        for (long chat = 1; chat <= 10; chat++) {
            api.say(chat, "stranger " + chat, "hi");
            long c = chat;
            api.await(m -> m.chatId().equals(Long.toString(c)), WAIT);
        }
        api.say(99, "Owner", "שלום");
        String text = api.await(m -> m.chatId().equals("99"), WAIT).text();
        assertThat(text).contains("קוד החיבור", "weft channels approve");
        String code = text.replaceAll("(?s).*([A-Z0-9]{4}-[A-Z0-9]{4}).*", "$1");

        assertThat(chats.pending(clock.instant()))
                .as("the pending codes stay bounded")
                .hasSize(3);
        ChannelStore.Chat owner = Conversations.approve(chats, code, Optional.of("owner"), Optional.empty(), clock);
        assertThat(owner.chatId()).isEqualTo("99");

        String stale = chats.pending(clock.instant()).get(0).code();
        clock.advance(Duration.ofMinutes(61));
        assertThatThrownBy(() -> Conversations.approve(chats, stale, Optional.empty(), Optional.empty(), clock))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("expire");
        assertThat(chats.pending(clock.instant())).isEmpty();
    }

    @Test
    void anApprovedChatTalksToMemoInBothLanguages() {
        String user = pair(7, "Dana");
        api.say(7, "Dana", "remind me tomorrow at 9 to call Dana");
        assertThat(api.await(m -> m.chatId().equals("7") && m.text().contains("call Dana"), WAIT)
                        .text())
                .contains("remind");
        api.say(7, "Dana", "צור רשימת קניות עם חלב וביצים");
        assertThat(api.await(m -> m.chatId().equals("7") && m.text().contains("חלב"), WAIT)
                        .text())
                .contains("קניות");
        assertThat(memo.data().tasks().all(user)).hasSize(1);
        assertThat(store.listRuns(Optional.empty(), Optional.of(user))).hasSize(2);
    }

    @Test
    void aDuplicateDeliveryIsHandledOnce() {
        String user = pair(8, "Omer");
        api.sayAs(8, 5000, "Omer", "remind me tomorrow at 10 to water the plants");
        api.sayAs(8, 5000, "Omer", "remind me tomorrow at 10 to water the plants");
        api.say(8, "Omer", "what are my tasks?");
        api.await(
                m -> m.chatId().equals("8")
                        && m.text().contains("water the plants")
                        && m.text() != null
                        && api.sent().stream()
                                        .filter(s -> s.chatId().equals("8"))
                                        .count()
                                >= 3,
                WAIT);
        assertThat(memo.data().tasks().all(user)).hasSize(1);
        assertThat(store.listRuns(Optional.empty(), Optional.of(user))).hasSize(2);
    }

    @Test
    void anApprovalNamesWhatItDeletesIsAskedAgainAfterAnUnclearAnswerAndIsGivenByYesInHebrew() {
        String user = pair(9, "Maya");
        api.say(9, "Maya", "remind me tomorrow at 9 to call Dana");
        api.await(m -> m.chatId().equals("9") && m.text().contains("call Dana"), WAIT);
        api.say(9, "Maya", "delete all my reminders");
        assertThat(api.await(m -> m.chatId().equals("9") && m.text().contains("yes/no"), WAIT)
                        .text())
                .contains("This will delete your reminder \"call Dana\"")
                .contains("go ahead");
        assertThat(memo.data().tasks().all(user)).hasSize(1);
        api.say(9, "Maya", "maybe");
        assertThat(api.await(m -> m.chatId().equals("9") && m.text().startsWith("Please answer yes or no"), WAIT)
                        .text())
                .contains("call Dana");
        assertThat(memo.data().tasks().all(user)).hasSize(1);
        api.say(9, "Maya", "כן");
        api.await(m -> m.chatId().equals("9") && m.text().startsWith("Deleted"), WAIT);
        assertThat(memo.data().tasks().all(user)).isEmpty();
    }

    @Test
    void aQuestionIsAnsweredByReplyingItsNumber() {
        String user = pair(12, "Lior");
        api.say(12, "Lior", "remind me tomorrow at 9 to call Dana about the contract");
        api.await(m -> m.chatId().equals("12") && m.text().contains("contract"), WAIT);
        api.say(12, "Lior", "remind me tomorrow at 10 to call Dana about the invoice");
        api.await(m -> m.chatId().equals("12") && m.text().contains("invoice"), WAIT);
        api.say(12, "Lior", "delete the reminder to call Dana");
        String question = api.await(
                        m -> m.chatId().equals("12")
                                && m.text().contains("1. ")
                                && m.text().contains("2. ")
                                && m.text().contains("invoice"),
                        WAIT)
                .text();
        assertThat(question).contains("contract").contains("invoice");
        String second = question.indexOf("contract") < question.indexOf("invoice") ? "invoice" : "contract";
        api.say(12, "Lior", "2");
        api.await(m -> m.chatId().equals("12") && m.text().startsWith("Deleted"), WAIT);
        assertThat(memo.data().tasks().all(user))
                .extracting(dev.weft.memo.data.Task::text)
                .singleElement()
                .asString()
                .doesNotContain(second);
    }

    @Test
    void aReminderThatFallsDueIsSentToTheChatItWasSetFrom() throws Exception {
        String user = pair(11, "Noa");
        api.say(11, "Noa", "remind me tomorrow at 9 to call the bank");
        api.await(m -> m.chatId().equals("11") && m.text().contains("call the bank"), WAIT);
        String taskId = memo.data().tasks().all(user).get(0).id();

        Assistant assistant = assistants.get("memo");
        ObjectNode soon = Json.object();
        soon.put("operation", "update");
        soon.put("taskId", taskId);
        soon.put("dueDate", Instant.now().plusSeconds(2).toString());
        assistant
                .tools()
                .call(
                        "taskOperations",
                        soon,
                        ToolContext.detached("test-run", Optional.of(user), "move", TimeSource.system()));

        AutoCloseable firing = assistant
                .notices()
                .orElseThrow()
                .start("test-" + ProcessHandle.current().pid());
        try (NoticeDelivery delivery =
                NoticeDelivery.start(chats, assistants, List.of(telegram), Duration.ofMillis(200), Clock.systemUTC())) {
            FakeBotApi.Sent reminder =
                    api.await(m -> m.text().startsWith("⏰") && m.text().contains("call the bank"), WAIT);
            assertThat(reminder.chatId()).isEqualTo("11");
            Thread.sleep(500);
            assertThat(api.sent().stream().filter(m -> m.text().startsWith("⏰")).count())
                    .isEqualTo(1);
            assertThat(delivery.deliverDue()).isZero();
        } finally {
            firing.close();
        }
    }
}
