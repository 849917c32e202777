package dev.weft.concierge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.OrderStatus;
import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.concierge.spi.MemoryFact;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The concierge as an assistant found by name: a change waits in a run that another process continues,
 * what the shop learns of a customer informs their next conversation, and one API user's conversations
 * are theirs alone.
 */
final class ConciergeTest {
    @TempDir
    Path dir;

    private RunStore store;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("concierge.db"));
        DemoShop.load(Concierge.open(store).shop(), Instant.parse("2026-11-24T08:00:00Z"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static Assistant concierge(RunStore store, Path home) {
        return Assistants.open(
                Concierge.NAME, AssistantEnvironment.offline(store, home).env(Map.of("WEFT_SHOP_VERIFY", "demo")));
    }

    @Test
    void aWaitingChangeIsContinuedByAnotherProcessThatRebuildsTheGraph() {
        Assistant first = concierge(store, dir);
        Turn waiting = first.converse(
                Runner.builder().store(store).build(),
                Message.of("web", "cancel W1002 please, mason.martinez@example.com")
                        .session("s1"));

        // Another process: its own concierge and runner on the same store.
        Assistant second = concierge(store, dir);
        Runner elsewhere = Runner.builder().store(store).build();
        assertThat(second.owns(waiting.run().run())).isTrue();
        assertThat(second.graphOf(waiting.run().run()).orElseThrow().nodes()).hasSize(10);
        Turn done = second.converse(elsewhere, Message.of("web", "yes").session("s1"));

        assertThat(waiting.run().status()).isEqualTo(RunStatus.WAITING);
        assertThat(done.run().runId()).isEqualTo(waiting.run().runId());
        assertThat(done.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(((ConciergeAssistant) second)
                        .concierge()
                        .shop()
                        .order("W1002")
                        .orElseThrow()
                        .status())
                .isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void theSizeACustomerTookIsRememberedForTheirNextOrder() {
        Concierge concierge = Concierge.open(store, Optional.empty(), ShopPolicy.demo());
        Runner runner = Runner.builder().store(store).build();
        concierge.converse(
                runner,
                "web",
                "first",
                "I'd like to order a blue linen shirt in size M, emma.johnson@example.com",
                Optional.empty());
        concierge.converse(runner, "web", "first", "yes", Optional.empty());

        // A new conversation: once the customer is verified, what the shop remembers of them is read
        // before each plan.
        concierge.converse(runner, "web", "second", "hi, it's emma.johnson@example.com", Optional.empty());
        Concierge.Reply next =
                concierge.converse(runner, "web", "second", "I want to buy a black cotton t-shirt", Optional.empty());

        assertThat(concierge.conversations().memory("C01")).contains(new MemoryFact("size", "apparel", "M"));
        assertThat(next.waiting()).isTrue();
        assertThat(next.text()).contains("Cotton T-Shirt (black, M)");
    }

    @Test
    void aConversationOfOneApiUserIsNotAnothersEvenUnderTheSameName() {
        Concierge concierge = Concierge.open(store, Optional.empty(), ShopPolicy.demo());
        Runner runner = Runner.builder().store(store).build();
        concierge.converse(runner, "dana", "shared", "cancel W1002, mason.martinez@example.com", Optional.empty());

        Concierge.Reply omer = concierge.converse(runner, "omer", "shared", "yes", Optional.empty());
        Concierge.Reply omerAgain =
                concierge.converse(runner, "omer", "shared", "what's the status of W1002?", Optional.empty());

        assertThat(omer.goal()).isEqualTo("smalltalk");
        assertThat(omerAgain.text()).contains("email");
        assertThat(concierge.shop().order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.PENDING);
        assertThat(concierge.waiting(runner, "dana", "shared")).isPresent();
        assertThat(concierge.conversations().recent("omer", "shared", 10))
                .extracting(Conversations.Line::text)
                .noneMatch(text -> text.contains("W1002 (Linen Shirt"));
        assertThat(List.of(omer.run().run().user().orElseThrow())).containsExactly("omer");
    }
}
