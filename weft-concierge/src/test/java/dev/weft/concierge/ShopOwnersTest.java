package dev.weft.concierge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.assistant.Vouch;
import dev.weft.concierge.shop.Customer;
import dev.weft.concierge.shop.CustomerTokens;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.Order;
import dev.weft.concierge.shop.OrderItem;
import dev.weft.concierge.shop.OrderStatus;
import dev.weft.concierge.shop.Payment;
import dev.weft.concierge.shop.Product;
import dev.weft.concierge.shop.Shop;
import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.concierge.shop.Variant;
import dev.weft.core.ErrorCode;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shop's data belongs to its owner (the user of the shop's keys): the default demo shop and a second
 * shop owned by {@code acme} live side by side, and neither's users see anything of the other's — even in
 * the demo's policy, even with a token the other shop's customer holds.
 */
final class ShopOwnersTest {
    private static final String SECRET = "a-shop-secret-of-at-least-32-bytes!!";
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");
    private static final String ANN = "ann@acme.test";

    @TempDir
    Path dir;

    private RunStore store;
    private Concierge concierge;
    private Runner runner;
    private Shop shop;
    private final CustomerTokens tokens = CustomerTokens.hs256(SECRET);

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("concierge.db"));
        concierge = Concierge.open(store, Optional.empty(), ShopPolicy.demo().tokens(tokens));
        runner = Runner.builder().store(store).build();
        shop = concierge.shop();
        DemoShop.load(shop, NOW);
        shop.load(acme(), "acme", NOW);
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** Acme's shop: one product, one customer, one pending order. */
    private static DemoShop.Data acme() {
        Variant lamp = new Variant("V9001", "P901", Map.of("color", "green"), 4_500, 10);
        Product product =
                new Product("P901", "Desk Lamp", "מנורת שולחן", "home", List.of("lamp"), "A desk lamp.", List.of(lamp));
        Customer ann = new Customer(
                "C901",
                "Ann Acme",
                ANN,
                "99999",
                "1 Acme Road, Springfield",
                new Payment("credit_card", "Visa 1111"),
                "en");
        Order order = new Order(
                "W9001",
                "C901",
                OrderStatus.PENDING,
                ann.address(),
                ann.payment(),
                Optional.empty(),
                NOW,
                NOW,
                List.of(new OrderItem(1, "V9001", 4_500)));
        return new DemoShop.Data(List.of(product), List.of(ann), List.of(order));
    }

    private Concierge.Reply say(String user, String session, String text) {
        return concierge.converse(runner, user, session, text, Optional.empty());
    }

    @Test
    void eachShopsUserFindsOnlyItsOwnCustomersAndProducts() {
        assertThat(shop.ownerOf("acme")).isEqualTo("acme");
        assertThat(shop.ownerOf("web")).isEqualTo(Shop.DEFAULT_OWNER);
        assertThat(shop.customerByEmail("acme", "mason.martinez@example.com")).isEmpty();
        assertThat(shop.customerByEmail(Shop.DEFAULT_OWNER, ANN)).isEmpty();
        assertThat(shop.products("acme")).extracting(Product::id).containsExactly("P901");
        assertThat(shop.products()).extracting(Product::id).doesNotContain("P901");
    }

    @Test
    void anotherShopsKeyCannotActOnTheDefaultShopsCustomerEvenInTheDemosPolicy() {
        Concierge.Reply asked = say("acme", "a1", "cancel order W1002, my email is mason.martinez@example.com");
        say("acme", "a1", "yes");

        assertThat(asked.waiting()).isFalse();
        assertThat(shop.order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void theDefaultShopsUsersCannotActOnAcmesCustomer() {
        Vouch ann = new Vouch.SignedToken(tokens.sign(ANN, Instant.now().plus(Duration.ofMinutes(5))));

        Concierge.Reply byEmail = say("web", "w1", "cancel order W9001, my email is " + ANN);
        say("web", "w1", "yes");
        Concierge.Reply byToken =
                concierge.converse(runner, "web", "w2", "cancel order W9001", Optional.empty(), Optional.of(ann));

        assertThat(byEmail.waiting()).isFalse();
        assertThat(byToken.waiting()).isFalse();
        assertThat(shop.order("W9001").orElseThrow().status()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void acmesKeyActsForAcmesVouchedCustomer() {
        Vouch ann = new Vouch.SignedToken(tokens.sign(ANN, Instant.now().plus(Duration.ofMinutes(5))));

        Concierge.Reply asked =
                concierge.converse(runner, "acme", "a2", "cancel order W9001", Optional.empty(), Optional.of(ann));
        concierge.converse(runner, "acme", "a2", "yes", Optional.empty(), Optional.of(ann));

        assertThat(asked.waiting()).as(asked.text()).isTrue();
        assertThat(shop.order("W9001").orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void theSameDataCannotBeLoadedForTwoOwnersAndLoadingOneOwnersShopLeavesTheOthers() {
        assertThatThrownBy(() -> DemoShop.load(shop, "globex", NOW))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_BAD_INPUT))
                .hasMessageContaining("default shop");
        assertThat(shop.ownerOf("globex")).isEqualTo(Shop.DEFAULT_OWNER);

        shop.load(acme(), "acme", NOW);

        assertThat(shop.customers()).hasSize(24);
        assertThat(shop.customers("acme")).extracting(Customer::email).containsExactly(ANN);
    }
}
