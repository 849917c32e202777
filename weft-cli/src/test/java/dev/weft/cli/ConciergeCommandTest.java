package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weft concierge} and {@code weft chat --assistant concierge}: the contracts a held-out evaluation
 * drives — {@code seed --json} and {@code ask --session ID --json} — each command its own store, as
 * separate processes would be.
 */
final class ConciergeCommandTest {
    @TempDir
    Path dir;

    private String db;

    @BeforeEach
    void database() {
        db = "sqlite:" + dir.resolve("concierge.db");
    }

    private CommandRunner.Outcome weftDb(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--db");
        all.add(db);
        // These tests are about the conversation: they take the demo's word for who a customer is.
        return CommandRunner.weftWith(java.util.Map.of("WEFT_SHOP_VERIFY", "demo"), all.toArray(String[]::new));
    }

    private CommandRunner.Outcome ask(String session, String message) {
        return weftDb("concierge", "ask", "--session", session, "--json", message);
    }

    @Test
    void seedPrintsTheShopInTheContractsShapeTheSameEveryTime() {
        CommandRunner.Outcome first = weftDb("concierge", "seed", "--json");
        ask("s1", "please cancel W1002, my email is mason.martinez@example.com");
        ask("s1", "yes");
        CommandRunner.Outcome again = weftDb("concierge", "seed", "--json");

        assertThat(first.exitCode()).isZero();
        JsonNode shop = first.json();
        assertThat(shop.fieldNames()).toIterable().containsExactly("customers", "products");
        JsonNode customer = shop.get("customers").get(0);
        assertThat(customer.fieldNames()).toIterable().containsExactly("id", "name", "email", "postcode", "orders");
        assertThat(customer.get("orders").get(0).fieldNames()).toIterable().containsExactly("id", "status", "items");
        assertThat(customer.get("orders").get(0).get("items").get(0).fieldNames())
                .toIterable()
                .containsExactly("product", "variant", "price");
        assertThat(shop.get("products").get(0).get("variants").get(0).fieldNames())
                .toIterable()
                .containsExactly("id", "options", "price", "stock");
        assertThat(again.json()).isEqualTo(shop);
    }

    @Test
    void askPrintsTheTurnAndAChangeWaitsForTheNextAsksYes() {
        weftDb("concierge", "seed");

        CommandRunner.Outcome waiting =
                ask("s1", "I want to cancel order W1002. My email is mason.martinez@example.com");
        CommandRunner.Outcome done = ask("s1", "yes");
        CommandRunner.Outcome status = ask("s1", "what's the status of W1002?");

        assertThat(waiting.exitCode()).isZero();
        JsonNode turn = waiting.json();
        assertThat(turn.fieldNames())
                .toIterable()
                .containsExactly("session", "runId", "goal", "reply", "language", "toolCalls");
        assertThat(turn.get("session").asText()).isEqualTo("s1");
        assertThat(turn.get("goal").asText()).isEqualTo("support.cancel");
        assertThat(turn.get("language").asText()).isEqualTo("en");
        assertThat(turn.get("reply").asText()).contains("W1002", "Shall I go ahead?");
        assertThat(turn.get("toolCalls").get(0).fieldNames()).toIterable().containsExactly("name", "args", "ok");
        assertThat(done.json().get("runId").asText())
                .isEqualTo(turn.get("runId").asText());
        assertThat(done.json().get("toolCalls").get(0).get("name").asText()).isEqualTo("cancel_order");
        assertThat(done.json().get("toolCalls").get(0).get("ok").asBoolean()).isTrue();
        assertThat(status.json().get("reply").asText()).contains("cancelled");
        assertThat(weftDb("concierge", "shop", "--json")
                        .json()
                        .get("refunds")
                        .get(0)
                        .get("order")
                        .asText())
                .isEqualTo("W1002");
    }

    @Test
    void askAnswersInHebrewToHebrew() {
        weftDb("concierge", "seed");

        JsonNode turn = ask("he", "מה הסטטוס של הזמנה W1052? המייל שלי ronit.dahan@example.co.il")
                .json();

        assertThat(turn.get("language").asText()).isEqualTo("he");
        assertThat(turn.get("goal").asText()).isEqualTo("support.order_status");
        assertThat(turn.get("reply").asText()).contains("W1052", "ממתינה");
    }

    @Test
    void badInputIsExitTwoWithItsCodeAndRunsNothing() {
        weftDb("concierge", "seed");

        CommandRunner.Outcome empty = ask("s1", "   ");
        CommandRunner.Outcome tooLong = ask("s1", "x".repeat(2001));
        CommandRunner.Outcome noSession = weftDb("concierge", "ask", "--json", "hello");

        assertThat(empty.exitCode()).isEqualTo(2);
        assertThat(empty.json().get("error").get("code").asText()).isEqualTo("E_BAD_INPUT");
        assertThat(tooLong.exitCode()).isEqualTo(2);
        assertThat(tooLong.json().get("error").get("message").asText()).contains("at most 2000");
        assertThat(noSession.exitCode()).isEqualTo(2);
        assertThat(weftDb("runs", "list", "--json").json()).isEmpty();
    }

    @Test
    void chatTalksToTheConciergeByNameAndTheYesCarriesTheChangeOut() {
        weftDb("concierge", "seed");
        String lines = String.join(
                "\n", "hi", "I'd like to return the wool scarf from order W1054, daniel.cohen@example.com", "yes", "");
        InputStream stdin = System.in;
        CommandRunner.Outcome out;
        try {
            System.setIn(new ByteArrayInputStream(lines.getBytes(StandardCharsets.UTF_8)));
            out = weftDb("chat", "--assistant", "concierge", "--user", "shop-web", "--session", "chat-1");
        } finally {
            System.setIn(stdin);
        }

        assertThat(out.exitCode()).isZero();
        assertThat(out.out())
                .contains("concierge> Hi! I'm the shop's concierge")
                .contains("concierge> Thanks, Daniel. To confirm: return Wool Scarf (gray) from order W1054")
                .contains("concierge> Done — the return of Wool Scarf (gray)")
                .contains("→ ")
                .doesNotContain("memo>");
    }

    @Test
    void watchingMailIsRefusedForAnAssistantThatWatchesNoMailbox() {
        CommandRunner.Outcome out = weftDb("chat", "--assistant", "concierge", "--watch-mail");

        assertThat(out.exitCode()).isEqualTo(2);
        assertThat(out.err()).contains("E_BAD_INPUT", "--watch-mail", "'concierge' watches no mailbox");
    }

    @Test
    void chatWithAnAssistantThereIsNotNamesThoseThereAre() {
        CommandRunner.Outcome out = weftDb("chat", "--assistant", "butler");

        assertThat(out.exitCode()).isEqualTo(2);
        assertThat(out.err()).contains("E_NOT_FOUND", "no assistant 'butler'", "concierge", "memo");
    }
}
