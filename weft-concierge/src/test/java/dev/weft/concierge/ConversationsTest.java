package dev.weft.concierge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline concierge through the conversations corpus ({@link ConversationSuite}): each conversation,
 * in English or Hebrew, ends with the shop exactly as it must, and says what it must.
 */
final class ConversationsTest {
    @TempDir
    static Path dir;

    private static RunStore store;
    private static Concierge concierge;
    private static Runner runner;

    @BeforeAll
    static void open() {
        store = Stores.open("sqlite:" + dir.resolve("conversations.db"));
        concierge = Concierge.open(store);
        runner = Runner.builder().store(store).build();
    }

    @AfterAll
    static void close() {
        store.close();
    }

    @Test
    void theCorpusHasAtLeastFortyConversationsHalfOfThemInHebrew() {
        List<ConversationSuite.Conversation> corpus = ConversationSuite.corpus();

        assertThat(corpus).hasSizeGreaterThanOrEqualTo(40);
        assertThat(corpus.stream().filter(c -> c.language().equals("he")).count() * 2)
                .isGreaterThanOrEqualTo(corpus.size());
        assertThat(corpus.stream().map(ConversationSuite.Conversation::id).distinct())
                .hasSize(corpus.size());
    }

    @TestFactory
    Stream<DynamicTest> everyConversationEndsWithTheShopAsItMustBe() {
        return ConversationSuite.corpus().stream()
                .map(conversation -> DynamicTest.dynamicTest(conversation.id(), () -> {
                    ConversationSuite.Outcome outcome = ConversationSuite.run(
                            concierge, runner, conversation, "shop-web", "test-" + conversation.id());
                    assertThat(outcome.problems()).as(conversation.id()).isEmpty();
                }));
    }
}
