package dev.weft.channels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.assistant.Assistants;
import dev.weft.core.LeaseOwner;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.Memo;
import dev.weft.memo.MemoAssistant;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a process finds in the inbox and outbox that a dead one left, against a fake Bot API at the
 * wire: each left-over message answered once, a reply cut while it was sent never sent again. On
 * {@code main} before the inbox, a message whose process died between its dedupe row and its reply was
 * never answered (the first two tests), and the offset lived in memory.
 */
final class InboxWorkerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    RunStore store;
    FakeBotApi api;
    Memo memo;
    ChannelStore chats;
    MutableClock clock;
    Conversations conversations;
    TelegramChannel telegram;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("weft.db"));
        api = new FakeBotApi();
        memo = Memo.open(store);
        chats = ChannelStore.open(store);
        clock = new MutableClock(Instant.now());
        conversations = Conversations.builder(
                        chats,
                        Assistants.of(new MemoAssistant(memo)),
                        Runner.builder().store(store).build())
                .clock(clock)
                .build();
    }

    @AfterEach
    void close() {
        if (telegram != null) {
            telegram.close();
        }
        api.close();
        store.close();
    }

    private void start() {
        telegram = TelegramChannel.create(api.url(), FakeBotApi.TOKEN, conversations, Duration.ofSeconds(1));
        telegram.start();
    }

    /** Chat {@code chat}, let in as {@code user}. */
    private void paired(long chat, String user) {
        String code = "CODE-" + chat;
        chats.addPairing(
                new ChannelStore.Pairing(
                        code,
                        "telegram",
                        Long.toString(chat),
                        user,
                        clock.instant(),
                        clock.instant().plusSeconds(600)),
                10);
        chats.approve(code, user, "", clock.instant()).orElseThrow();
    }

    /** {@code text} from {@code chat}, kept and claimed by a process of this host that has since died. */
    private Conversations.Inbound keptByADeadProcess(long chat, String id, String text) throws Exception {
        Conversations.Inbound message =
                new Conversations.Inbound("telegram", Long.toString(chat), chat + ":" + id, text, "Dana");
        chats.keepAndAdvance("telegram", "123456", List.of(message), 1, clock.instant());
        ChannelStore.Kept kept = chats.open("telegram", 10).stream()
                .filter(k -> k.message().equals(message))
                .findFirst()
                .orElseThrow();
        assertThat(chats.claim(kept, deadOwner(), clock.instant().plus(Duration.ofMinutes(10)), clock.instant()))
                .isTrue();
        return message;
    }

    /** The lease owner of a process of this host that ran and ended. */
    private static String deadOwner() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        return new LeaseOwner(LeaseOwner.localHost(), gone.pid(), Optional.empty(), "dead").format();
    }

    private long sentTo(long chat) {
        return api.sent().stream()
                .filter(m -> m.chatId().equals(Long.toString(chat)))
                .count();
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime())
                    .as("the condition held within " + WAIT)
                    .isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void aMessageADeadProcessHadClaimedIsAnsweredOnceByTheNextProcess() throws Exception {
        paired(21, "dana");
        keptByADeadProcess(21, "1", "remind me tomorrow at 9 to call Dana");

        start();

        assertThat(api.await(m -> m.chatId().equals("21"), WAIT).text()).contains("call Dana");
        api.say(21, "Dana", "what are my tasks?");
        api.await(m -> m.chatId().equals("21") && m.text().contains("call Dana") && sentTo(21) >= 2, WAIT);
        assertThat(sentTo(21)).as("each message answered once").isEqualTo(2);
        assertThat(memo.data().tasks().all("dana")).hasSize(1);
    }

    @Test
    void aMessageWhoseTurnRanBeforeTheCrashIsAnsweredWithoutASecondTurn() throws Exception {
        paired(22, "omer");
        Conversations.Inbound message = keptByADeadProcess(22, "1", "remind me tomorrow at 10 to water the plants");
        // The dead process ran the turn and died before its reply was kept.
        conversations.reply(message);
        assertThat(store.listRuns(Optional.empty(), Optional.of("omer"))).hasSize(1);

        start();

        assertThat(api.await(m -> m.chatId().equals("22"), WAIT).text()).contains("water the plants");
        assertThat(memo.data().tasks().all("omer")).as("no second task").hasSize(1);
        assertThat(store.listRuns(Optional.empty(), Optional.of("omer")))
                .as("no second run")
                .hasSize(1);
        await(() ->
                chats.reply("telegram", message.messageId()).orElseThrow().status() == ChannelStore.OutboxStatus.SENT);
    }

    @Test
    void aReplyKeptButNotSentIsSentOnceOnStart() throws Exception {
        paired(23, "maya");
        Conversations.Inbound message = keptByADeadProcess(23, "1", "hello");
        chats.answer(message, Optional.of("the reply a dead process kept"), clock.instant());

        start();

        api.await(m -> m.chatId().equals("23") && m.text().equals("the reply a dead process kept"), WAIT);
        api.say(23, "Maya", "what are my tasks?");
        api.await(m -> m.chatId().equals("23") && sentTo(23) >= 2, WAIT);
        assertThat(api.sent().stream().filter(m -> m.text().equals("the reply a dead process kept")))
                .hasSize(1);
    }

    @Test
    void aReplyCutWhileItWasSentIsNeverSentAgainAndIsListedAsUnknown() throws Exception {
        paired(24, "noa");
        Conversations.Inbound message = keptByADeadProcess(24, "1", "hello");
        chats.answer(message, Optional.of("maybe sent"), clock.instant());
        ChannelStore.Reply pending =
                chats.reply("telegram", message.messageId()).orElseThrow();
        assertThat(chats.move(
                        pending,
                        ChannelStore.OutboxStatus.PENDING,
                        ChannelStore.OutboxStatus.SENDING,
                        deadOwner(),
                        "",
                        clock.instant()))
                .isTrue();

        start();

        await(() -> chats.reply("telegram", message.messageId()).orElseThrow().status()
                == ChannelStore.OutboxStatus.UNKNOWN);
        api.say(24, "Noa", "what are my tasks?");
        api.await(m -> m.chatId().equals("24"), WAIT);
        assertThat(api.sent()).extracting(FakeBotApi.Sent::text).doesNotContain("maybe sent");
        assertThat(chats.unsent()).extracting(ChannelStore.Reply::messageId).containsExactly(message.messageId());
    }

    @Test
    void theUpdateOffsetIsKeptInTheStoreAndANewPollerStartsFromIt() throws Exception {
        paired(25, "lior");
        start();
        api.say(25, "Lior", "remind me tomorrow at 9 to call the bank");
        api.await(m -> m.chatId().equals("25"), WAIT);
        long offset = chats.cursor("telegram", "123456");
        assertThat(offset).as("past the one update").isEqualTo(2);
        telegram.close();

        api.say(25, "Lior", "what are my tasks?");
        start();
        api.await(m -> m.chatId().equals("25") && sentTo(25) >= 2, WAIT);
        assertThat(chats.cursor("telegram", "123456")).isEqualTo(3);
        assertThat(memo.data().tasks().all("lior")).hasSize(1);
        assertThat(store.listRuns(Optional.empty(), Optional.of("lior"))).hasSize(2);
    }

    @Test
    void finishedRowsArePrunedOnceOlderThanTheRetentionAndOpenOnesAreKept() {
        paired(26, "gal");
        Conversations.Inbound answered = new Conversations.Inbound("telegram", "26", "26:1", "one", "Gal");
        Conversations.Inbound waiting = new Conversations.Inbound("telegram", "26", "26:2", "two", "Gal");
        chats.keep(List.of(answered, waiting), clock.instant());
        chats.answer(answered, Optional.of("done"), clock.instant());
        ChannelStore.Reply reply = chats.reply("telegram", "26:1").orElseThrow();
        chats.move(
                reply, ChannelStore.OutboxStatus.PENDING, ChannelStore.OutboxStatus.SENDING, "me", "", clock.instant());
        chats.move(
                chats.reply("telegram", "26:1").orElseThrow(),
                ChannelStore.OutboxStatus.SENDING,
                ChannelStore.OutboxStatus.SENT,
                "me",
                "",
                clock.instant());
        ChannelStore.Chat chat = chats.chat("telegram", "26").orElseThrow();
        assertThat(chats.enqueueNotice("gal", "reminder-1", chat, "⏰ Reminder: call", clock.instant()))
                .isTrue();
        assertThat(chats.enqueueNotice("gal", "reminder-2", chat, "⏰ Reminder: not sent yet", clock.instant()))
                .isTrue();
        ChannelStore.Reply notice = chats.reply("telegram", ChannelStore.noticeKey("gal", "reminder-1"))
                .orElseThrow();
        chats.move(
                notice,
                ChannelStore.OutboxStatus.PENDING,
                ChannelStore.OutboxStatus.SENDING,
                "me",
                "",
                clock.instant());
        chats.move(
                chats.reply("telegram", notice.messageId()).orElseThrow(),
                ChannelStore.OutboxStatus.SENDING,
                ChannelStore.OutboxStatus.SENT,
                "me",
                "",
                clock.instant());
        telegram = TelegramChannel.create(
                api.url(), FakeBotApi.TOKEN, conversations, Duration.ofSeconds(1), Duration.ofDays(3));
        InboxWorker worker = telegram.inbox();

        clock.advance(Duration.ofDays(2));
        assertThat(worker.prune()).isEqualTo(new ChannelStore.Pruned(0, 0));
        clock.advance(Duration.ofDays(2));
        assertThat(worker.prune())
                .as("the answered message; the sent reply, the sent reminder and its claim")
                .isEqualTo(new ChannelStore.Pruned(1, 3));
        assertThat(chats.open("telegram", 10))
                .extracting(k -> k.message().messageId())
                .containsExactly("26:2");
        assertThat(chats.reply("telegram", "26:1")).isEmpty();
        assertThat(chats.reply("telegram", ChannelStore.noticeKey("gal", "reminder-2")))
                .as("a reminder not yet sent is kept")
                .isPresent();
        assertThat(chats.enqueueNotice("gal", "reminder-2", chat, "⏰ again", clock.instant()))
                .as("and still claimed")
                .isFalse();
    }

    @Test
    void theRetentionIsReadFromTheEnvironmentAndABadOneIsRefused() {
        assertThat(InboxWorker.retentionFromEnvironment(Map.of())).isEqualTo(Duration.ofDays(14));
        assertThat(InboxWorker.retentionFromEnvironment(Map.of("WEFT_CHANNELS_RETENTION", "36h")))
                .isEqualTo(Duration.ofHours(36));
        assertThat(InboxWorker.retentionFromEnvironment(Map.of("WEFT_CHANNELS_RETENTION", "P7D")))
                .isEqualTo(Duration.ofDays(7));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> InboxWorker.retentionFromEnvironment(Map.of("WEFT_CHANNELS_RETENTION", "0d")))
                .isInstanceOf(dev.weft.core.WeftException.class)
                .hasMessageContaining("WEFT_CHANNELS_RETENTION=0d");
    }

    @Test
    void aChannelsProcessAlonePrunesTheIdempotencyResultsOfFinishedRunsAsWeftServeDoes() throws Exception {
        String key = dev.weft.store.RunFixtures.run(store, dev.weft.core.RunStatus.COMPLETED) + "/step:a/send";
        dev.weft.store.RunFixtures.agedResult(store, key, Duration.ofDays(8));

        start();

        await(() -> store.idempotentResult(key).isEmpty());
    }
}
