package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import dev.weft.concierge.ConciergeAssistant;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.OrderStatus;
import dev.weft.concierge.shop.Shop;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The concierge, a second assistant on the class path, reached as the server reaches any assistant: the
 * OpenAI endpoint's model {@code concierge} (a conversation per request {@code user} or {@code
 * X-Weft-Session}, of the key's user only), and the runs API continuing and drawing its turns.
 */
final class ConciergeOverHttpTest {
    /** These tests are about the conversation, so they take the demo's word for who a customer is. */
    private static final java.util.Map<String, String> DEMO = java.util.Map.of("WEFT_SHOP_VERIFY", "demo");

    @TempDir
    Path dir;

    private ServerFixture fixture;
    private Shop shop;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(
                dir,
                (builder, store) -> builder.assistants(Assistants.openAll(
                        AssistantEnvironment.offline(store, dir).env(DEMO))));
        shop = ((ConciergeAssistant) Assistants.open(
                        "concierge",
                        AssistantEnvironment.offline(fixture.store, dir).env(DEMO)))
                .concierge()
                .shop();
        DemoShop.load(shop, Instant.now());
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private ServerFixture.Answer say(String key, String session, String text) {
        return fixture.post(
                "v1/chat/completions",
                key,
                "{\"model\": \"concierge\", \"user\": \"" + session
                        + "\", \"messages\": [{\"role\": \"user\", \"content\": " + dev.weft.core.Json.write(text)
                        + "}]}");
    }

    private static String reply(ServerFixture.Answer answer) {
        return answer.body()
                .path("choices")
                .get(0)
                .path("message")
                .path("content")
                .asText();
    }

    @Test
    void theModelsListTheConciergeBesideMemo() {
        JsonNode models = fixture.get("v1/models", fixture.dana).body();

        assertThat(models.path("data")).extracting(m -> m.path("id").asText()).contains("memo", "concierge");
    }

    @Test
    void aConversationPerUserFieldWaitsForTheCustomersYesAndTheYesCarriesItOut() {
        ServerFixture.Answer asked = say(fixture.dana, "web-1", "Please cancel W1002, I'm mason.martinez@example.com");
        ServerFixture.Answer yes = say(fixture.dana, "web-1", "yes");

        assertThat(asked.status()).as(asked.raw().body()).isEqualTo(200);
        assertThat(reply(asked)).contains("W1002", "Shall I go ahead?");
        assertThat(asked.body().path("weft").path("status").asText()).isEqualTo("WAITING");
        assertThat(reply(yes)).contains("cancelled");
        assertThat(shop.order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void anotherKeysUserCannotContinueAConversationOfTheSameName() {
        say(fixture.dana, "shared", "Please cancel W1002, I'm mason.martinez@example.com");

        ServerFixture.Answer omer = say(fixture.omer, "shared", "yes");
        ServerFixture.Answer omerCancels = say(fixture.omer, "shared", "cancel order W1002");

        assertThat(reply(omer)).doesNotContain("cancelled");
        assertThat(reply(omerCancels)).contains("email");
        assertThat(shop.order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void theSessionHeaderNamesTheConversationTooAndInHebrewTheReplyIsHebrew() {
        ServerFixture.Answer answer = fixture.send(fixture.request("v1/chat/completions", Optional.of(fixture.dana))
                .header("Content-Type", "application/json")
                .header("X-Weft-Session", "tab-7")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\": \"concierge\", \"messages\": [{\"role\": \"user\","
                                + " \"content\": \"מה הסטטוס של הזמנה W1052? המייל שלי ronit.dahan@example.co.il\"}]}"))
                .build());

        assertThat(reply(answer)).contains("W1052", "ממתינה");
    }

    @Test
    void theRunsApiApprovesAWaitingTurnThroughItsAssistantAndDrawsItsTenNodes() {
        ServerFixture.Answer asked =
                say(fixture.dana, "web-2", "I want to return the wool scarf from W1054. daniel.cohen@example.com");
        String runId = asked.body().path("weft").path("runId").asText();

        ServerFixture.Answer graph = fixture.get("api/runs/" + runId + "/graph", fixture.dana);
        ServerFixture.Answer othersApproval = fixture.post("api/runs/" + runId + "/approve", fixture.omer, "{}");
        ServerFixture.Answer approved = fixture.post("api/runs/" + runId + "/approve", fixture.dana, "{}");

        assertThat(graph.body().path("graphId").asText()).isEqualTo("concierge.handle_message");
        assertThat(graph.body().path("nodes")).hasSize(10);
        assertThat(othersApproval.status()).isEqualTo(404);
        assertThat(approved.status()).as(approved.raw().body()).isEqualTo(200);
        assertThat(approved.body().path("reply").asText()).contains("return");
        assertThat(shop.returns())
                .singleElement()
                .satisfies(r -> assertThat(r.orderId()).isEqualTo("W1054"));
    }
}
