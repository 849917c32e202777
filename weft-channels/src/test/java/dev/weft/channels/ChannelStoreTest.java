package dev.weft.channels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.spi.RunStore;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The channels' tables on SQLite and on PostgreSQL: the same answers on both. */
final class ChannelStoreTest {
    @TempDir
    Path dir;

    private RunStore open(String kind) {
        return Stores.open(
                kind.equals("postgresql") ? EmbeddedPostgres.shared().freshUrl() : "sqlite:" + dir.resolve("c.db"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void pairsChatsDropsDuplicatesAndClaimsNoticesOnce(String kind) {
        Instant now = Instant.parse("2026-11-26T10:00:00Z");
        try (RunStore runs = open(kind)) {
            ChannelStore store = ChannelStore.open(runs);
            Conversations.Inbound hello = new Conversations.Inbound("telegram", "1", "1:10", "hello", "Dana");
            assertThat(store.keep(List.of(hello), now)).isOne();
            assertThat(store.keep(List.of(hello), now)).as("a second delivery").isZero();
            assertThat(store.keep(List.of(new Conversations.Inbound("whatsapp", "1", "1:10", "hi", "Dana")), now))
                    .isOne();

            ChannelStore.Pairing a =
                    new ChannelStore.Pairing("AAAA-AAAA", "telegram", "1", "Dana", now, now.plusSeconds(60));
            assertThat(store.addPairing(a, 2)).isTrue();
            assertThat(store.addPairing(
                            new ChannelStore.Pairing("BBBB-BBBB", "telegram", "1", "Dana", now, now.plusSeconds(60)),
                            2))
                    .as("one code per chat")
                    .isFalse();
            assertThat(store.addPairing(
                            new ChannelStore.Pairing("CCCC-CCCC", "telegram", "2", "Omer", now, now.plusSeconds(60)),
                            2))
                    .isTrue();
            assertThat(store.addPairing(
                            new ChannelStore.Pairing("DDDD-DDDD", "telegram", "3", "Maya", now, now.plusSeconds(60)),
                            2))
                    .as("a newcomer is kept; the oldest code makes room")
                    .isTrue();
            assertThat(store.pending(now))
                    .extracting(ChannelStore.Pairing::code)
                    .containsExactly("CCCC-CCCC", "DDDD-DDDD");
            assertThat(store.pending(now.plus(Duration.ofMinutes(2)))).isEmpty();

            assertThat(store.addPairing(
                            new ChannelStore.Pairing("EEEE-EEEE", "telegram", "1", "Dana", now, now.plusSeconds(600)),
                            2))
                    .isTrue();
            ChannelStore.Chat chat = store.approve("EEEE-EEEE", "dana", "", now).orElseThrow();
            assertThat(store.approve("EEEE-EEEE", "dana", "", now)).isEmpty();
            assertThat(store.chat("telegram", "1")).contains(chat);
            assertThat(store.chats()).containsExactly(chat);

            store.subjects(chat, List.of("task-1"), now);
            assertThat(store.chatOf("dana", "task-1")).contains(chat);
            assertThat(store.chatOf("omer", "task-1")).isEmpty();
            assertThat(store.enqueueNotice("dana", "n1", chat, "⏰ Reminder: call", now))
                    .isTrue();
            assertThat(store.enqueueNotice("dana", "n1", chat, "⏰ Reminder: call", now))
                    .isFalse();
            assertThat(store.reply("telegram", ChannelStore.noticeKey("dana", "n1")))
                    .get()
                    .extracting(ChannelStore.Reply::text, ChannelStore.Reply::status)
                    .containsExactly("⏰ Reminder: call", ChannelStore.OutboxStatus.PENDING);
            assertThat(store.forget("telegram", "1")).isTrue();
            assertThat(store.chat("telegram", "1")).isEqualTo(Optional.empty());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void keepsMessagesWithTheCursorClaimsThemOnceAndKeysTheReplyByTheMessage(String kind) {
        Instant now = Instant.parse("2026-11-26T10:00:00Z");
        try (RunStore runs = open(kind)) {
            ChannelStore store = ChannelStore.open(runs);
            Conversations.Inbound first = new Conversations.Inbound("telegram", "7", "7:1", "one", "Dana");
            Conversations.Inbound second = new Conversations.Inbound("telegram", "7", "7:2", "two", "Dana");
            assertThat(store.cursor("telegram", "123")).isZero();
            assertThat(store.keepAndAdvance("telegram", "123", List.of(first, second), 41, now))
                    .isEqualTo(2);
            assertThat(store.keepAndAdvance("telegram", "123", List.of(), 40, now))
                    .as("an offset never moves back")
                    .isZero();
            assertThat(store.cursor("telegram", "123")).isEqualTo(41);

            List<ChannelStore.Kept> open = store.open("telegram", 10);
            assertThat(open).extracting(k -> k.message().text()).containsExactly("one", "two");
            ChannelStore.Kept kept = open.get(0);
            assertThat(store.claim(kept, "a", now.plusSeconds(60), now)).isTrue();
            assertThat(store.claim(kept, "b", now.plusSeconds(60), now))
                    .as("taken already")
                    .isFalse();
            ChannelStore.Kept held = store.open("telegram", 10).get(0);
            assertThat(held.status()).isEqualTo(ChannelStore.InboxStatus.HANDLING);
            assertThat(held.owner()).contains("a");

            store.answer(first, Optional.of("reply one"), now);
            store.answer(first, Optional.of("a second reply"), now);
            assertThat(store.open("telegram", 10))
                    .extracting(k -> k.message().messageId())
                    .containsExactly("7:2");
            ChannelStore.Reply reply = store.reply("telegram", "7:1").orElseThrow();
            assertThat(reply.text()).as("the first reply is kept").isEqualTo("reply one");
            assertThat(reply.status()).isEqualTo(ChannelStore.OutboxStatus.PENDING);

            assertThat(store.move(
                            reply, ChannelStore.OutboxStatus.PENDING, ChannelStore.OutboxStatus.SENDING, "a", "", now))
                    .isTrue();
            assertThat(store.move(
                            reply, ChannelStore.OutboxStatus.PENDING, ChannelStore.OutboxStatus.SENDING, "b", "", now))
                    .as("one sender")
                    .isFalse();
            ChannelStore.Reply sending = store.reply("telegram", "7:1").orElseThrow();
            assertThat(sending.attempts()).isOne();
            assertThat(store.move(
                            reply, ChannelStore.OutboxStatus.SENDING, ChannelStore.OutboxStatus.SENT, "b", "", now))
                    .as("only its holder marks it sent")
                    .isFalse();
            assertThat(store.move(
                            sending,
                            ChannelStore.OutboxStatus.SENDING,
                            ChannelStore.OutboxStatus.UNKNOWN,
                            "a",
                            "cut",
                            now))
                    .isTrue();
            assertThat(store.unsent()).extracting(ChannelStore.Reply::messageId).containsExactly("7:1");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void prunesOnlyFinishedRowsOlderThanTheCutOff(String kind) {
        Instant old = Instant.parse("2026-11-01T10:00:00Z");
        Instant recent = Instant.parse("2026-11-26T10:00:00Z");
        try (RunStore runs = open(kind)) {
            ChannelStore store = ChannelStore.open(runs);
            Conversations.Inbound answered = new Conversations.Inbound("whatsapp", "9", "w1", "one", "Omer");
            Conversations.Inbound waiting = new Conversations.Inbound("whatsapp", "9", "w2", "two", "Omer");
            Conversations.Inbound fresh = new Conversations.Inbound("whatsapp", "9", "w3", "three", "Omer");
            store.keep(List.of(answered, waiting), old);
            store.answer(answered, Optional.of("done"), old);
            store.keep(List.of(fresh), recent);
            store.answer(fresh, Optional.of("done too"), recent);

            assertThat(store.prune(Instant.parse("2026-11-12T10:00:00Z"))).isEqualTo(new ChannelStore.Pruned(1, 0));
            assertThat(store.open("whatsapp", 10))
                    .as("a message still waiting is kept whatever its age")
                    .extracting(k -> k.message().messageId())
                    .containsExactly("w2");
            assertThat(store.reply("whatsapp", "w1"))
                    .as("its reply is not sent yet")
                    .isPresent();
            assertThat(store.keep(List.of(fresh), recent))
                    .as("a recent message is still known")
                    .isZero();
        }
    }
}
