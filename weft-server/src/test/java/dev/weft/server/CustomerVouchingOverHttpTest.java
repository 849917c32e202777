package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import dev.weft.concierge.ConciergeAssistant;
import dev.weft.concierge.shop.CustomerTokens;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.OrderStatus;
import dev.weft.concierge.shop.Shop;
import dev.weft.core.Json;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Over HTTP, the concierge acts for the customer the storefront vouches for ({@code X-Weft-Customer}, a
 * token signed with the shop's key, or a key made for one customer) and for nobody else: a forged token
 * is refused, knowing an email changes nothing, and requests that name no conversation never share one.
 */
final class CustomerVouchingOverHttpTest {
    private static final String SECRET = "the-shop-key-of-at-least-thirty-two-bytes";
    private static final String MASON = "mason.martinez@example.com";
    private static final String EMMA = "emma.johnson@example.com";

    @TempDir
    Path dir;

    private ServerFixture fixture;
    private Shop shop;
    private final CustomerTokens tokens = CustomerTokens.hs256(SECRET);

    @BeforeEach
    void start() {
        Map<String, String> env = Map.of("WEFT_SHOP_SECRET", SECRET);
        fixture = new ServerFixture(
                dir,
                (builder, store) -> builder.assistants(Assistants.openAll(
                        AssistantEnvironment.offline(store, dir).env(env))));
        shop = ((ConciergeAssistant) Assistants.open(
                        "concierge",
                        AssistantEnvironment.offline(fixture.store, dir).env(env)))
                .concierge()
                .shop();
        DemoShop.load(shop, Instant.now());
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private ServerFixture.Answer say(String key, Optional<String> session, Optional<String> token, String text) {
        HttpRequest.Builder request =
                fixture.request("v1/chat/completions", Optional.of(key)).header("Content-Type", "application/json");
        session.ifPresent(s -> request.header("X-Weft-Session", s));
        token.ifPresent(t -> request.header("X-Weft-Customer", t));
        return fixture.send(request.POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\": \"concierge\", \"messages\": [{\"role\": \"user\", \"content\": "
                                + Json.write(text) + "}]}"))
                .build());
    }

    private static String reply(ServerFixture.Answer answer) {
        return answer.body()
                .path("choices")
                .path(0)
                .path("message")
                .path("content")
                .asText();
    }

    private String token(String email) {
        return tokens.sign(email, Instant.now().plus(Duration.ofMinutes(10)));
    }

    private OrderStatus w1002() {
        return shop.order("W1002").orElseThrow().status();
    }

    @Test
    void aVouchedCustomerCancelsTheirOrderThroughV1() {
        Optional<String> mason = Optional.of(token(MASON));

        ServerFixture.Answer asked = say(fixture.dana, Optional.of("web-1"), mason, "Please cancel W1002");
        ServerFixture.Answer yes = say(fixture.dana, Optional.of("web-1"), mason, "yes");

        assertThat(asked.status()).as(asked.raw().body()).isEqualTo(200);
        assertThat(reply(asked)).contains("W1002", "Shall I go ahead?");
        assertThat(reply(yes)).contains("cancelled");
        assertThat(w1002()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void aTokenSignedWithAnotherKeyIsRefusedWithItsCode() {
        String forged = CustomerTokens.hs256("some-other-key-of-at-least-32-bytes!!")
                .sign(MASON, Instant.now().plus(Duration.ofMinutes(10)));

        ServerFixture.Answer refused = say(fixture.dana, Optional.of("web-2"), Optional.of(forged), "cancel W1002");
        ServerFixture.Answer yes = say(fixture.dana, Optional.of("web-2"), Optional.of(forged), "yes");

        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.code()).isEqualTo("E_CUSTOMER_TOKEN_INVALID");
        assertThat(yes.code()).isEqualTo("E_CUSTOMER_TOKEN_INVALID");
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void anotherCustomersTokenCannotActOnTheFirstsOrder() {
        Optional<String> emma = Optional.of(token(EMMA));

        say(fixture.dana, Optional.of("web-3"), emma, "cancel W1002, my email is " + MASON);
        say(fixture.dana, Optional.of("web-3"), emma, "yes");

        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void withoutAVouchKnowingTheEmailChangesNothing() {
        ServerFixture.Answer asked =
                say(fixture.dana, Optional.of("web-4"), Optional.empty(), "cancel W1002, my email is " + MASON);
        say(fixture.dana, Optional.of("web-4"), Optional.empty(), "yes");

        assertThat(asked.status()).isEqualTo(200);
        assertThat(reply(asked)).doesNotContain("Shall I go ahead?");
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void aVouchedCustomerWhoNamesNoConversationContinuesTheirOwn() {
        ServerFixture.Answer asked =
                say(fixture.dana, Optional.empty(), Optional.of(token(MASON)), "Please cancel W1002");
        ServerFixture.Answer yes = say(fixture.dana, Optional.empty(), Optional.of(token(MASON)), "yes");

        assertThat(asked.raw().headers().firstValue("X-Weft-Session")).contains("customer:" + MASON);
        assertThat(reply(asked)).contains("Shall I go ahead?");
        assertThat(reply(yes)).contains("cancelled");
        assertThat(w1002()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void anUnvouchedRequestCannotReachAVouchedCustomersConversation() {
        say(fixture.dana, Optional.empty(), Optional.of(token(MASON)), "Please cancel W1002");

        ServerFixture.Answer stranger = say(fixture.dana, Optional.of("customer:" + MASON), Optional.empty(), "yes");

        assertThat(stranger.code()).isEqualTo("E_CUSTOMER_TOKEN_INVALID");
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void requestsThatNameNoConversationNeverShareOne() {
        ServerFixture.Answer vouched = say(fixture.dana, Optional.empty(), Optional.of(token(MASON)), "cancel W1002");
        ServerFixture.Answer stranger = say(fixture.dana, Optional.empty(), Optional.empty(), "yes");

        String first = vouched.raw().headers().firstValue("X-Weft-Session").orElseThrow();
        String second = stranger.raw().headers().firstValue("X-Weft-Session").orElseThrow();
        assertThat(first).isNotEqualTo(second).isNotEqualTo("dana");
        assertThat(reply(vouched)).contains("Shall I go ahead?");
        assertThat(reply(stranger)).doesNotContain("cancelled");
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void aKeyMadeForOneCustomerActsForThemOnlyAndReachesOnlyTheChat() {
        String emmasKey = ApiKeys.open(fixture.store)
                .create("dana", false, Optional.of(EMMA), Instant.now())
                .secret();

        say(emmasKey, Optional.of("k-1"), Optional.empty(), "cancel W1002, my email is " + MASON);
        say(emmasKey, Optional.of("k-1"), Optional.empty(), "yes");
        ServerFixture.Answer runs = fixture.get("api/runs", emmasKey);
        ServerFixture.Answer withToken = say(emmasKey, Optional.of("k-2"), Optional.of(token(MASON)), "cancel W1002");

        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
        assertThat(runs.status()).isEqualTo(403);
        assertThat(runs.code()).isEqualTo("E_FORBIDDEN");
        assertThat(withToken.status()).isEqualTo(400);
        ServerFixture.Answer memo = fixture.post(
                "v1/chat/completions",
                emmasKey,
                "{\"model\": \"memo\", \"messages\": [{\"role\": \"user\", \"content\": \"show my tasks\"}]}");
        assertThat(memo.status()).as("Memo would act as the shop's own user").isEqualTo(403);
    }

    @Test
    void overMcpKnowingAnotherCustomersEmailChangesNothingAndChatsDoNotShareAConversation() {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(fixture.base.toString())
                .endpoint("/mcp")
                .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + fixture.dana))
                .build();
        try (McpSyncClient client =
                McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
            client.initialize();
            McpSchema.CallToolResult asked = client.callTool(McpSchema.CallToolRequest.builder("concierge_chat")
                    .arguments(Map.of("message", "cancel W1002, my email is " + MASON))
                    .build());
            @SuppressWarnings("unchecked")
            Map<String, Object> first = (Map<String, Object>) asked.structuredContent();
            String session = (String) first.get("session");
            McpSchema.CallToolResult yes = client.callTool(McpSchema.CallToolRequest.builder("concierge_chat")
                    .arguments(Map.of("message", "yes", "session", session))
                    .build());
            McpSchema.CallToolResult unnamed = client.callTool(McpSchema.CallToolRequest.builder("concierge_chat")
                    .arguments(Map.of("message", "yes"))
                    .build());

            assertThat(asked.isError()).isFalse();
            assertThat((String) first.get("status")).isEqualTo("COMPLETED");
            assertThat(yes.isError()).isFalse();
            @SuppressWarnings("unchecked")
            Map<String, Object> other = (Map<String, Object>) unnamed.structuredContent();
            assertThat(other.get("session")).isNotEqualTo(session);
        }
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void theAssistantsMessagesRouteActsForTheVouchedCustomerOnly() {
        ServerFixture.Answer asked = fixture.send(fixture.request(
                        "api/assistants/concierge/messages", Optional.of(fixture.dana))
                .header("Content-Type", "application/json")
                .header("X-Weft-Customer", token(MASON))
                .POST(HttpRequest.BodyPublishers.ofString("{\"message\": \"cancel W1002\", \"session\": \"r-1\"}"))
                .build());
        ServerFixture.Answer forged =
                fixture.send(fixture.request("api/assistants/concierge/messages", Optional.of(fixture.dana))
                        .header("Content-Type", "application/json")
                        .header(
                                "X-Weft-Customer",
                                CustomerTokens.hs256("some-other-key-of-at-least-32-bytes!!")
                                        .sign(MASON, Instant.now().plus(Duration.ofMinutes(10))))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"message\": \"yes\", \"session\": \"r-1\"}"))
                        .build());
        ServerFixture.Answer unvouched = fixture.post(
                "api/assistants/concierge/messages", fixture.dana, "{\"message\": \"yes\", \"session\": \"r-1\"}");

        assertThat(asked.status()).as(asked.raw().body()).isEqualTo(200);
        assertThat(asked.body().path("reply").asText()).contains("Shall I go ahead?");
        assertThat(forged.code()).isEqualTo("E_CUSTOMER_TOKEN_INVALID");
        assertThat(unvouched.code()).isEqualTo("E_CUSTOMER_TOKEN_INVALID");
        assertThat(w1002()).isEqualTo(OrderStatus.PENDING);
    }
}
