package dev.weft.concierge.shop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.spi.RunStore;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The demo shop loads on SQLite and PostgreSQL, the same every time, big enough to exercise every policy. */
final class DemoShopTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    @TempDir
    Path dir;

    private RunStore open(String kind) {
        return Stores.open(
                kind.equals("postgresql") ? EmbeddedPostgres.shared().freshUrl() : "sqlite:" + dir.resolve("shop.db"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void loadsTheSameShopEveryTimeAndDropsWhatChangedMeanwhile(String kind) {
        try (RunStore store = open(kind)) {
            Shop shop = Shop.open(store);
            DemoShop.load(shop, NOW);
            ObjectNode first = DemoShop.toJson(shop);
            ObjectNode firstSnapshot = shop.snapshot();
            shop.cancel("W1002", "changed my mind", NOW);
            assertThat(shop.snapshot()).isNotEqualTo(firstSnapshot);

            DemoShop.load(shop, NOW);

            assertThat(DemoShop.toJson(shop)).isEqualTo(first);
            assertThat(shop.snapshot()).isEqualTo(firstSnapshot);
            assertThat(shop.refunds()).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite"})
    void isBigEnoughToExerciseEveryPolicy(String kind) {
        try (RunStore store = open(kind)) {
            Shop shop = Shop.open(store);
            DemoShop.load(shop, NOW);
            JsonNode json = DemoShop.toJson(shop);

            assertThat(json.get("customers")).hasSizeGreaterThanOrEqualTo(20);
            List<JsonNode> orders = new ArrayList<>();
            json.get("customers").forEach(c -> c.get("orders").forEach(orders::add));
            assertThat(orders).hasSizeGreaterThanOrEqualTo(50);
            assertThat(orders.stream().filter(o -> o.get("status").asText().equals("pending")))
                    .hasSizeGreaterThanOrEqualTo(8);
            assertThat(orders.stream().filter(o -> o.get("status").asText().equals("delivered")))
                    .hasSizeGreaterThanOrEqualTo(8);
            assertThat(StreamSupport.stream(json.get("customers").spliterator(), false))
                    .allSatisfy(c -> assertThat(c.get("orders")).isNotEmpty());

            Map<String, Product> byVariant = new java.util.HashMap<>();
            shop.products().forEach(p -> p.variants().forEach(v -> byVariant.put(v.id(), p)));
            int exchangeable = 0;
            for (Order order : shop.orders()) {
                if (order.status() != OrderStatus.DELIVERED) {
                    continue;
                }
                for (OrderItem item : order.items()) {
                    Product product = byVariant.get(item.variantId());
                    if (product.variants().stream().anyMatch(v -> !v.id().equals(item.variantId()) && v.inStock())) {
                        exchangeable++;
                    }
                }
            }
            assertThat(exchangeable)
                    .as("delivered items with another variant in stock")
                    .isGreaterThanOrEqualTo(5);
            assertThat(shop.products().stream().filter(p -> !p.inStock()))
                    .as("products out of stock")
                    .hasSizeGreaterThanOrEqualTo(2);
            Set<String> emails = new HashSet<>();
            shop.customers().forEach(c -> emails.add(c.email()));
            assertThat(emails).hasSize(shop.customers().size());
        }
    }
}
