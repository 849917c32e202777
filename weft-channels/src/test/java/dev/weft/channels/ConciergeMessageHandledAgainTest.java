package dev.weft.channels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.assistant.Assistants;
import dev.weft.concierge.Concierge;
import dev.weft.concierge.ConciergeAssistant;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.OrderStatus;
import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.core.Json;
import dev.weft.core.RunRequest;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A paired chat's message to the concierge handled a second time, as after a crash between the turn and
 * the outbox (real SQLite): the turn's run is not run again, and the reply is the one the turn gave. On
 * {@code main} before the concierge gave its turns again, the second handling answered "Done.".
 */
final class ConciergeMessageHandledAgainTest {
    private static final String MASON = "mason.martinez@example.com";

    @TempDir
    Path dir;

    RunStore store;
    Concierge concierge;
    Runner runner;
    Conversations conversations;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("weft.db"));
        concierge = Concierge.open(store, Optional.empty(), ShopPolicy.demo());
        DemoShop.load(concierge.shop(), Instant.now());
        ChannelStore chats = ChannelStore.open(store);
        MutableClock clock = new MutableClock(Instant.now());
        runner = Runner.builder().store(store).build();
        conversations = Conversations.builder(chats, Assistants.of(new ConciergeAssistant(concierge)), runner)
                .clock(clock)
                .build();
        chats.addPairing(
                new ChannelStore.Pairing(
                        "CODE-31",
                        "telegram",
                        "31",
                        "Mason",
                        clock.instant(),
                        clock.instant().plusSeconds(600)),
                10);
        chats.approve("CODE-31", "shop", "concierge", clock.instant()).orElseThrow();
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static Conversations.Inbound message(String id, String text) {
        return new Conversations.Inbound("telegram", "31", "31:" + id, text, "Mason");
    }

    @Test
    void aMessageHandledTwiceRunsOneTurnAndGetsTheSameReply() {
        Conversations.Inbound cancel = message("1", "cancel order W1002, my email is " + MASON);

        String first = conversations.reply(cancel).orElseThrow();
        String again = conversations.reply(cancel).orElseThrow();

        assertThat(first).contains("W1002").isNotEqualTo("Done.");
        assertThat(again).isEqualTo(first);
        assertThat(store.listRuns(Optional.empty(), Optional.of("shop"))).hasSize(1);
        assertThat(conversations.reply(message("2", "yes")).orElseThrow()).contains("cancelled");
        assertThat(concierge.shop().order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void aTurnWhoseProcessDiedBeforeTheConversationKeptItIsStillTheOneAYesContinues() {
        Conversations.Inbound cancel = message("1", "cancel order W1002, my email is " + MASON);
        // The dead process ran the turn under the message's run id and died before keeping what was said.
        runner.run(
                concierge.graph(),
                RunRequest.builder()
                        .runId(Conversations.runIdOf(cancel))
                        .user("shop")
                        .input(Json.object().put("session", "telegram:31").put("text", cancel.text()))
                        .source(Json.object().put("kind", Concierge.NAME))
                        .build());

        String asked = conversations.reply(cancel).orElseThrow();
        String done = conversations.reply(message("2", "yes")).orElseThrow();

        assertThat(asked).contains("W1002").isNotEqualTo("Done.");
        assertThat(done).contains("cancelled");
        assertThat(concierge.shop().order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(store.listRuns(Optional.empty(), Optional.of("shop")))
                .as("the yes continued the turn rather than starting one")
                .hasSize(1);
    }
}
