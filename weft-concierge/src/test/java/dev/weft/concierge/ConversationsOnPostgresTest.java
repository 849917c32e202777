package dev.weft.concierge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The concierge's tables and turns on PostgreSQL (a real server from zonky's embedded artifacts): a
 * conversation of each kind of change, in both languages, ends as it must there too.
 */
final class ConversationsOnPostgresTest {
    private static final List<String> CHOSEN = List.of(
            "cancel-pending-by-email",
            "return-named-item-by-name-and-postcode",
            "exchange-for-another-color",
            "change-order-address",
            "order-two-shirts",
            "he-cancel-which-of-two-by-name",
            "he-return-gift-card-refused-then-original",
            "he-change-item-of-pending-order",
            "he-ticket-broken-item",
            "he-order-blue-mugs");

    @Test
    void conversationsOfEveryKindOfChangeEndAsTheyMustOnPostgresql() {
        try (RunStore store = Stores.open(EmbeddedPostgres.shared().freshUrl())) {
            Concierge concierge = Concierge.open(store, Optional.empty(), ShopPolicy.demo());
            Runner runner = Runner.builder().store(store).build();
            List<ConversationSuite.Conversation> chosen = ConversationSuite.corpus().stream()
                    .filter(c -> CHOSEN.contains(c.id()))
                    .toList();

            assertThat(chosen).hasSize(CHOSEN.size());
            for (ConversationSuite.Conversation conversation : chosen) {
                ConversationSuite.Outcome outcome =
                        ConversationSuite.run(concierge, runner, conversation, "pg", "pg-" + conversation.id());
                assertThat(outcome.problems()).as(conversation.id()).isEmpty();
            }
        }
    }
}
