package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.concierge.shop.CustomerTokens;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft concierge ask --customer-token JWT} outside the demo: the storefront's token acts for its
 * customer only, a forged one is refused with its code, and knowing an email changes nothing. {@code weft
 * keys create --customer} makes a key for one customer.
 */
final class ConciergeCustomerTokenTest {
    private static final String SECRET = "the-shop-key-of-at-least-thirty-two-bytes";
    private static final Map<String, String> SHOP = Map.of("WEFT_SHOP_SECRET", SECRET);
    private static final String MASON = "mason.martinez@example.com";

    @TempDir
    Path dir;

    private String db;

    @BeforeEach
    void database() {
        db = "sqlite:" + dir.resolve("concierge.db");
        weft(SHOP, "concierge", "seed");
    }

    private CommandRunner.Outcome weft(Map<String, String> env, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--db");
        all.add(db);
        return CommandRunner.weftWith(env, all.toArray(String[]::new));
    }

    private String status(String order) {
        for (JsonNode customer :
                weft(SHOP, "concierge", "shop", "--json").json().get("customers")) {
            for (JsonNode o : customer.get("orders")) {
                if (o.get("id").asText().equals(order)) {
                    return o.get("status").asText();
                }
            }
        }
        throw new AssertionError("no order " + order);
    }

    private static String token(String secret, String email) {
        return CustomerTokens.hs256(secret).sign(email, Instant.now().plus(Duration.ofMinutes(10)));
    }

    @Test
    void aTokenTheShopSignedActsForItsCustomer() {
        String mason = token(SECRET, MASON);

        CommandRunner.Outcome asked = weft(
                SHOP, "concierge", "ask", "--session", "t1", "--customer-token", mason, "--json", "cancel order W1002");
        CommandRunner.Outcome yes =
                weft(SHOP, "concierge", "ask", "--session", "t1", "--customer-token", mason, "--json", "yes");

        assertThat(asked.exitCode()).as(asked.err()).isZero();
        assertThat(asked.json().get("reply").asText()).contains("Shall I go ahead?");
        assertThat(yes.json().get("reply").asText()).contains("cancelled");
        assertThat(status("W1002")).isEqualTo("cancelled");
    }

    @Test
    void aForgedTokenIsRefusedWithItsCodeAndChangesNothing() {
        String forged = token("another-key-of-at-least-thirty-two-bytes", MASON);

        CommandRunner.Outcome refused = weft(
                SHOP,
                "concierge",
                "ask",
                "--session",
                "t2",
                "--customer-token",
                forged,
                "--json",
                "cancel order W1002");

        assertThat(refused.exitCode()).isEqualTo(1);
        assertThat(refused.json().get("error").get("code").asText()).isEqualTo("E_CUSTOMER_TOKEN_INVALID");
        assertThat(status("W1002")).isEqualTo("pending");
    }

    @Test
    void aStrangerWhoKnowsTheEmailCancelsNothing() {
        weft(SHOP, "concierge", "ask", "--user", "eve", "--session", "s1", "cancel order W1002, my email is " + MASON);
        CommandRunner.Outcome yes = weft(SHOP, "concierge", "ask", "--user", "eve", "--session", "s1", "--json", "yes");

        assertThat(yes.json().get("reply").asText()).doesNotContain("cancelled");
        assertThat(status("W1002")).isEqualTo("pending");
    }

    @Test
    void aShortShopKeyIsAClearErrorAtStart() {
        CommandRunner.Outcome refused =
                weft(Map.of("WEFT_SHOP_SECRET", "short"), "concierge", "ask", "--session", "t3", "--json", "hello");

        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.out() + refused.err()).contains("E_SHOP_CONFIG_INVALID", "at least 32 bytes");
    }

    @Test
    void aKeyIsMadeForOneCustomer() {
        CommandRunner.Outcome created = weft(
                Map.of(), "keys", "create", "--user", "shop", "--customer", "Mason.Martinez@example.com", "--json");
        CommandRunner.Outcome bad = weft(Map.of(), "keys", "create", "--user", "shop", "--customer", "not-an-email");

        assertThat(created.json().get("customer").asText()).isEqualTo(MASON);
        assertThat(weft(Map.of(), "keys", "list", "--json")
                        .json()
                        .get(0)
                        .get("customer")
                        .asText())
                .isEqualTo(MASON);
        assertThat(bad.exitCode()).isEqualTo(2);
        assertThat(bad.err()).contains("E_BAD_INPUT");
    }
}
