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
            assertThat(store.firstDelivery("telegram", "1:10", now)).isTrue();
            assertThat(store.firstDelivery("telegram", "1:10", now)).isFalse();
            assertThat(store.firstDelivery("whatsapp", "1:10", now)).isTrue();

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
            assertThat(store.claim("dana", "n1", chat, now)).isTrue();
            assertThat(store.claim("dana", "n1", chat, now)).isFalse();
            store.delivered("dana", "n1", "SENT", now);
            assertThat(store.forget("telegram", "1")).isTrue();
            assertThat(store.chat("telegram", "1")).isEqualTo(Optional.empty());
        }
    }
}
