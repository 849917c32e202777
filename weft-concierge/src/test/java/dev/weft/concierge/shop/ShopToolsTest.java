package dev.weft.concierge.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.ToolContext;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shop's policy, enforced by the tools themselves whatever asks them: identity first, a customer's
 * own orders only, pending orders cancelled or changed, delivered items returned (to the original
 * payment) or exchanged for another variant of the same product, and every change waiting for a yes.
 */
final class ShopToolsTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");
    private static final TimeSource CLOCK = TimeSource.of(() -> NOW);

    @TempDir
    Path dir;

    private RunStore store;
    private Shop shop;
    private ShopTools tools;
    private final AtomicInteger calls = new AtomicInteger();

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("shop.db"));
        shop = Shop.open(store);
        DemoShop.load(shop, NOW);
        tools = new ShopTools(shop, ShopPolicy.demo());
    }

    @AfterEach
    void close() {
        store.close();
    }

    private ToolContext approved(String user) {
        return ToolContext.detached("run-" + calls.incrementAndGet(), Optional.of(user), "A", CLOCK);
    }

    private JsonNode call(String user, String tool, String json) {
        return tools.registry().call(tool, (ObjectNode) Json.parse(json, "args"), approved(user));
    }

    private Refusal refusal(String user, String tool, String json) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> call(user, tool, json));
        assertThat(thrown).isInstanceOf(Refusal.class);
        return (Refusal) thrown;
    }

    private void verifyByEmail(String user, String session, String email) {
        JsonNode found =
                call(user, ShopTools.FIND_BY_EMAIL, "{\"session\": \"" + session + "\", \"email\": \"" + email + "\"}");
        assertThat(found.get("customerId").asText()).startsWith("C");
    }

    @Test
    void cancelsAPendingOrderOfTheVerifiedCustomerAndRefundsTheOriginalPayment() {
        verifyByEmail("web", "s1", "Mason.Martinez@example.com ");
        int mugs = stock("V1402");

        JsonNode done = call(
                "web",
                ShopTools.CANCEL,
                "{\"session\": \"s1\", \"orderId\": \"W1002\", \"reason\": \"ordered by mistake\"}");

        assertThat(done.get("status").asText()).isEqualTo("cancelled");
        assertThat(shop.order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(shop.refunds()).singleElement().satisfies(r -> {
            assertThat(r.orderId()).isEqualTo("W1002");
            assertThat(r.amountCents()).isEqualTo(5700);
            assertThat(r.method()).isEqualTo("Mastercard ending 4444");
        });
        assertThat(stock("V1402")).isEqualTo(mugs + 1);
    }

    @Test
    void refusesToCancelOrChangeAnOrderThatIsNotPendingAndChangesNothing() {
        verifyByEmail("web", "s1", "mason.martinez@example.com");
        ObjectNode before = shop.snapshot();

        Refusal delivered = refusal("web", ShopTools.CANCEL, "{\"session\": \"s1\", \"orderId\": \"W1031\"}");
        Refusal address = refusal(
                "web",
                ShopTools.ORDER_ADDRESS,
                "{\"session\": \"s1\", \"orderId\": \"W1036\", \"address\": \"1 Main Street, Boston\"}");

        assertThat(delivered.code()).isEqualTo(ErrorCode.E_POLICY);
        assertThat(delivered.reason()).isEqualTo("not_pending");
        assertThat(delivered.getMessage()).contains("W1031 is delivered", "only pending orders");
        assertThat(address.reason()).isEqualTo("not_pending");
        assertThat(shop.snapshot()).isEqualTo(before);
    }

    @Test
    void oneCustomerNeverSeesOrChangesAnothersOrders() {
        verifyByEmail("web", "s1", "emma.johnson@example.com");
        ObjectNode before = shop.snapshot();

        Refusal read = refusal("web", ShopTools.GET_ORDER, "{\"session\": \"s1\", \"orderId\": \"W1002\"}");
        Refusal cancel = refusal("web", ShopTools.CANCEL, "{\"session\": \"s1\", \"orderId\": \"W1002\"}");
        Refusal ret = refusal(
                "web", ShopTools.RETURN, "{\"session\": \"s1\", \"orderId\": \"W1031\", \"item\": \"yoga mat\"}");
        JsonNode listed = call("web", ShopTools.LIST_ORDERS, "{\"session\": \"s1\"}");

        assertThat(read.code()).isEqualTo(ErrorCode.E_NOT_FOUND);
        assertThat(read.getMessage()).doesNotContain("Mason", "delivered", "pending");
        assertThat(cancel.code()).isEqualTo(ErrorCode.E_NOT_FOUND);
        assertThat(ret.code()).isEqualTo(ErrorCode.E_NOT_FOUND);
        assertThat(listed.get("orders"))
                .extracting(o -> o.get("id").asText())
                .containsExactly("W1001", "W1030", "W1046", "W1056");
        assertThat(shop.snapshot()).isEqualTo(before);
    }

    @Test
    void aSessionCannotActForACustomerItHasNotVerified() {
        verifyByEmail("web", "verified", "mason.martinez@example.com");
        ObjectNode before = shop.snapshot();

        // Another session of the same API user, and the same session id under another user: neither verified.
        Refusal otherSession = refusal("web", ShopTools.CANCEL, "{\"session\": \"other\", \"orderId\": \"W1002\"}");
        Refusal otherUser = refusal("mallory", ShopTools.CANCEL, "{\"session\": \"verified\", \"orderId\": \"W1002\"}");
        Refusal list = refusal("mallory", ShopTools.LIST_ORDERS, "{\"session\": \"verified\"}");
        Refusal wrongName = refusal(
                "web",
                ShopTools.FIND_BY_NAME,
                "{\"session\": \"other\", \"name\": \"Emma Johnson\", \"postcode\": \"94103\"}");

        assertThat(otherSession.code()).isEqualTo(ErrorCode.E_FORBIDDEN);
        assertThat(otherSession.reason()).isEqualTo("not_verified");
        assertThat(otherUser.reason()).isEqualTo("not_verified");
        assertThat(list.reason()).isEqualTo("not_verified");
        assertThat(wrongName.code()).isEqualTo(ErrorCode.E_NOT_FOUND);
        assertThat(shop.verifiedCustomer("web", "other")).isEmpty();
        assertThat(shop.snapshot()).isEqualTo(before);
    }

    @Test
    void verifiesByFullNameAndPostcodeInEitherScript() {
        JsonNode daniel = call(
                "web",
                ShopTools.FIND_BY_NAME,
                "{\"session\": \"a\", \"name\": \"daniel cohen\", \"postcode\": \"10001\"}");
        JsonNode noa = call(
                "web",
                ShopTools.FIND_BY_NAME,
                "{\"session\": \"b\", \"name\": \"נועה כהן\", \"postcode\": \"6473921\"}");
        Refusal firstNameOnly = refusal(
                "web", ShopTools.FIND_BY_NAME, "{\"session\": \"c\", \"name\": \"Emma\", \"postcode\": \"10001\"}");

        assertThat(daniel.get("customerId").asText()).isEqualTo("C12");
        assertThat(noa.get("customerId").asText()).isEqualTo("C13");
        assertThat(firstNameOnly.reason()).isEqualTo("no_customer");
        assertThat(shop.verifiedCustomer("web", "b").orElseThrow().name()).isEqualTo("נועה כהן");
    }

    @Test
    void everyChangeWaitsForAPersonsYesAndADryRunChangesNothing() {
        verifyByEmail("web", "s1", "mason.martinez@example.com");
        ObjectNode before = shop.snapshot();
        ToolContext unapproved = approved("web").unapproved();

        assertThatThrownBy(() -> tools.registry()
                        .call(
                                ShopTools.CANCEL,
                                (ObjectNode) Json.parse("{\"session\": \"s1\", \"orderId\": \"W1002\"}", "a"),
                                unapproved))
                .isInstanceOf(WeftException.class)
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_APPROVAL_REQUIRED);
        JsonNode preview = tools.registry()
                .call(
                        ShopTools.CANCEL,
                        (ObjectNode) Json.parse("{\"session\": \"s1\", \"orderId\": \"W1002\", \"dryRun\": true}", "a"),
                        approved("web").unapproved());

        assertThat(preview.get("dryRun").asBoolean()).isTrue();
        assertThat(preview.get("refundTo").asText()).isEqualTo("Mastercard ending 4444");
        assertThat(shop.snapshot()).isEqualTo(before);
    }

    @Test
    void returnsDeliveredItemsRefundingTheOriginalPaymentOnly() {
        verifyByEmail("web", "s1", "daniel.cohen@example.com");

        Refusal giftCard = refusal(
                "web",
                ShopTools.RETURN,
                "{\"session\": \"s1\", \"item\": \"the wool scarf\", \"refundTo\": \"a gift card\"}");
        JsonNode done = call("web", ShopTools.RETURN, "{\"session\": \"s1\", \"item\": \"the wool scarf\"}");
        Refusal again =
                refusal("web", ShopTools.RETURN, "{\"session\": \"s1\", \"orderId\": \"W1054\", \"item\": \"scarf\"}");

        assertThat(giftCard.reason()).isEqualTo("refund_original_only");
        assertThat(done.get("orderId").asText()).isEqualTo("W1054");
        assertThat(done.get("refundTo").asText()).isEqualTo("Visa ending 7777");
        assertThat(shop.returns()).singleElement().satisfies(r -> {
            assertThat(r.items()).containsExactly(2);
            assertThat(r.refundCents()).isEqualTo(2500);
        });
        assertThat(again.reason()).isIn("which_item", "already_settled");
    }

    @Test
    void refusesToReturnWhatIsNotDelivered() {
        verifyByEmail("web", "s1", "isabella.anderson@example.com");

        Refusal pending = refusal(
                "web", ShopTools.RETURN, "{\"session\": \"s1\", \"orderId\": \"W1042\", \"item\": \"backpack\"}");

        assertThat(pending.reason()).isEqualTo("not_delivered");
        assertThat(shop.returns()).isEmpty();
    }

    @Test
    void exchangesADeliveredItemOnlyForAnotherVariantOfTheSameProductInStock() {
        verifyByEmail("web", "s1", "daniel.cohen@example.com");

        Refusal headphones = refusal(
                "web",
                ShopTools.EXCHANGE,
                "{\"session\": \"s1\", \"item\": \"linen shirt\", \"to\": \"the wireless headphones\"}");
        Refusal soldOut = refusal(
                "web", ShopTools.EXCHANGE, "{\"session\": \"s1\", \"item\": \"linen shirt\", \"to\": \"white in M\"}");
        JsonNode done = call(
                "web", ShopTools.EXCHANGE, "{\"session\": \"s1\", \"item\": \"the linen shirt\", \"to\": \"blue\"}");

        assertThat(headphones.reason()).isEqualTo("other_product");
        assertThat(soldOut.reason()).isEqualTo("out_of_stock");
        assertThat(done.get("to").get("variantId").asText()).isEqualTo("V0106");
        assertThat(shop.exchanges()).singleElement().satisfies(x -> {
            assertThat(x.orderId()).isEqualTo("W1054");
            assertThat(x.fromVariant()).isEqualTo("V0109");
            assertThat(x.toVariant()).isEqualTo("V0106");
        });
    }

    @Test
    void changesAnItemOfAPendingOrderToAnotherVariant() {
        verifyByEmail("web", "s1", "liam.smith@example.com");

        call(
                "web",
                ShopTools.EXCHANGE,
                "{\"session\": \"s1\", \"orderId\": \"W1050\", \"item\": \"linen shirt\", \"to\": \"size S\"}");

        assertThat(shop.order("W1050").orElseThrow().items())
                .extracting(OrderItem::variantId)
                .containsExactly("V0304", "V0101", "V0702");
        assertThat(shop.exchanges()).isEmpty();
    }

    @Test
    void placesAnOrderOfVariantsInStockOnly() {
        verifyByEmail("web", "s1", "emma.johnson@example.com");

        Refusal espresso = refusal(
                "web",
                ShopTools.PLACE_ORDER,
                "{\"session\": \"s1\", \"items\": [{\"query\": \"espresso machine\", \"quantity\": 1}]}");
        Refusal which = refusal(
                "web",
                ShopTools.PLACE_ORDER,
                "{\"session\": \"s1\", \"items\": [{\"query\": \"linen shirt\", \"quantity\": 1}]}");
        JsonNode placed = call(
                "web",
                ShopTools.PLACE_ORDER,
                "{\"session\": \"s1\", \"items\": [{\"query\": \"blue linen shirt size M\", \"quantity\": 2}]}");

        assertThat(espresso.reason()).isEqualTo("out_of_stock");
        assertThat(which.reason()).isEqualTo("choose_variant");
        assertThat(placed.get("orderId").asText()).isEqualTo("W1061");
        assertThat(shop.order("W1061").orElseThrow().items())
                .extracting(OrderItem::variantId)
                .containsExactly("V0105", "V0105");
        assertThat(stock("V0105")).isEqualTo(3);
    }

    @Test
    void changesTheAddressOfTheOnlyPendingOrder() {
        verifyByEmail("web", "s1", "mason.martinez@example.com");

        call("web", ShopTools.ORDER_ADDRESS, "{\"session\": \"s1\", \"address\": \"9 Elm Street, Denver, CO 80203\"}");

        assertThat(shop.order("W1002").orElseThrow().address()).isEqualTo("9 Elm Street, Denver, CO 80203");
    }

    private int stock(String variantId) {
        return shop.productOfVariant(variantId)
                .orElseThrow()
                .variant(variantId)
                .orElseThrow()
                .stock();
    }
}
