package dev.weft.channels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistants;
import dev.weft.concierge.Concierge;
import dev.weft.concierge.ConciergeAssistant;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.OrderStatus;
import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.core.Event;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunRequest;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
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
    void aYesHandledAgainAfterItApprovedTheTurnGetsTheSameReplyAndApprovesNothingTwice() {
        conversations.reply(message("1", "cancel order W1002, my email is " + MASON));
        Conversations.Inbound yes = message("2", "yes");

        String first = conversations.reply(yes).orElseThrow();
        // The process died after the approval and before the outbox kept the reply: the yes comes again.
        String again = conversations.reply(yes).orElseThrow();

        assertThat(first).contains("cancelled");
        assertThat(again).isEqualTo(first);
        List<Run> runs = store.listRuns(Optional.empty(), Optional.of("shop"));
        assertThat(runs).as("the yes started no turn of its own").hasSize(1);
        assertThat(store.events(runs.get(0).id()).stream().filter(e -> e.type().equals(Event.RUN_RESUMED)))
                .as("one approval")
                .hasSize(1);
        assertThat(concierge.conversations().recent("shop", "telegram:31", 10))
                .extracting(dev.weft.concierge.Conversations.Line::text)
                .filteredOn("yes"::equals)
                .hasSize(1);
    }

    @Test
    void aYesHandledAgainWhoseProcessDiedBeforeTheConversationKeptItIsKeptOnce() {
        conversations.reply(message("1", "cancel order W1002, my email is " + MASON));
        Conversations.Inbound yes = message("2", "yes");
        String waiting =
                store.listRuns(Optional.empty(), Optional.of("shop")).get(0).id();
        // The dead process approved the turn with the message's id and died before keeping what was said.
        ObjectNode decision = Json.object().put("approved", true).put("reason", "confirmed");
        decision.put("message", Conversations.runIdOf(yes));
        runner.resume(concierge.graph(), waiting, decision);

        String again = conversations.reply(yes).orElseThrow();

        assertThat(again).contains("cancelled");
        assertThat(store.listRuns(Optional.empty(), Optional.of("shop"))).hasSize(1);
        assertThat(concierge.conversations().recent("shop", "telegram:31", 10))
                .extracting(dev.weft.concierge.Conversations.Line::text)
                .containsSubsequence("yes", again);
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
