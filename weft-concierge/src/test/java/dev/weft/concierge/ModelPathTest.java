package dev.weft.concierge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.OrderStatus;
import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.core.ErrorCode;
import dev.weft.core.RetryPolicy;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.Model;
import dev.weft.llm.ModelConfig;
import dev.weft.llm.Provider;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.llm.test.FakeModelServer.Reply;
import dev.weft.llm.test.FakeModelServer.ToolCall;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The concierge with a model, faked at the wire (OpenAI's protocol, through LangChain4j's real client):
 * the planner's structured output, the specialist's tool calls in its first pass and its structured answer
 * in its second, the change still waiting for the customer's yes — and a model that asks for tools in its
 * second pass, or for a tool it may not use, or that cannot be reached, failing the turn with its own code.
 */
final class ModelPathTest {
    private static final String CANCEL_PLAN = "{\"goal\": \"support.cancel\", \"slots\": {\"email\":"
            + " \"mason.martinez@example.com\", \"name\": null, \"postcode\": null, \"orderId\": \"w1002\", \"item\": null,"
            + " \"to\": null, \"toVariantId\": null, \"query\": null, \"items\": null, \"reason\": null, \"refundTo\": null,"
            + " \"address\": null, \"account\": null, \"details\": null}}";

    @TempDir
    Path dir;

    private final FakeModelServer server = FakeModelServer.start();
    private RunStore store;
    private Concierge concierge;
    private Runner runner;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("concierge.db"));
        Model model = Model.create(new ModelConfig(
                        Provider.OPENAI,
                        "gpt-4o-mini",
                        Optional.of(server.openAiBaseUrl()),
                        Optional.of("sk-test"),
                        Duration.ofSeconds(10)))
                .withRetry(RetryPolicy.attempts(1));
        concierge = Concierge.open(store, Optional.of(model), ShopPolicy.demo());
        DemoShop.load(concierge.shop(), Instant.parse("2026-11-24T08:00:00Z"));
        runner = Runner.builder().store(store).time(TimeSource.of(Instant::now)).build();
    }

    @AfterEach
    void close() {
        server.close();
        store.close();
    }

    private Concierge.Reply say(String text) {
        return concierge.converse(runner, "web", "s1", text, Optional.empty());
    }

    @Test
    void theModelPlansCallsToolsAndAnswersFromTheirResultsAndTheChangeWaitsForAYes() {
        server.enqueue(
                Reply.text(CANCEL_PLAN),
                Reply.toolCalls(
                        new ToolCall("find_customer_by_email", "{\"email\": \"mason.martinez@example.com\"}"),
                        new ToolCall("cancel_order", "{\"orderId\": \"W1002\", \"reason\": \"ordered by mistake\"}")),
                Reply.text(
                        "{\"message\": \"Done: order W1002 is cancelled, refunded to your Mastercard.\", \"awaiting\":"
                                + " \"nothing\", \"done\": true, \"memory\": []}"));

        Concierge.Reply asked = say("Cancel W1002 please, I'm mason.martinez@example.com");
        assertThat(concierge.shop().order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.PENDING);
        Concierge.Reply done = say("yes");

        assertThat(asked.waiting()).isTrue();
        assertThat(asked.goal()).isEqualTo("support.cancel");
        assertThat(asked.text()).contains("W1002", "Shall I go ahead?");
        assertThat(done.text()).isEqualTo("Done: order W1002 is cancelled, refunded to your Mastercard.");
        assertThat(concierge.shop().order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.CANCELLED);
        assertThat(server.requests()).hasSize(3);
        JsonNode planner = server.requests().get(0).body();
        assertThat(planner.path("response_format").path("type").asText()).isEqualTo("json_schema");
        JsonNode firstPass = server.requests().get(1).body();
        assertThat(firstPass.path("tools"))
                .extracting(t -> t.path("function").path("name").asText())
                .containsExactly(
                        "find_customer_by_email",
                        "find_customer_by_name_postcode",
                        "list_orders",
                        "get_order",
                        "cancel_order");
        assertThat(firstPass.toString()).doesNotContain("\"session\"", "dryRun");
        JsonNode secondPass = server.requests().get(2).body().path("messages");
        assertThat(secondPass.get(secondPass.size() - 1).path("role").asText()).isEqualTo("tool");
        assertThat(secondPass.get(secondPass.size() - 1).path("content").asText())
                .contains("cancelled");
        assertThat(concierge
                        .conversations()
                        .load("web", "s1")
                        .orElseThrow()
                        .state()
                        .path("customer")
                        .path("id")
                        .asText())
                .isEqualTo("C08");
    }

    @Test
    void aModelThatAsksForToolsInItsSecondPassFailsTheTurnAndTheToolsAreNotCalled() {
        server.enqueue(
                Reply.text(CANCEL_PLAN.replace("support.cancel", "support.order_status")),
                Reply.toolCalls(new ToolCall("find_customer_by_email", "{\"email\": \"mason.martinez@example.com\"}")),
                Reply.toolCalls(new ToolCall("cancel_order", "{\"orderId\": \"W1002\"}")));

        assertThatThrownBy(() -> say("where is W1002? mason.martinez@example.com"))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("cancel_order")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_PASS2_TOOL_REQUEST);
        assertThat(concierge.shop().order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.PENDING);
        assertThat(concierge.conversations().load("web", "s1")).isEmpty();
    }

    @Test
    void aModelThatAsksForAToolItMayNotUseFailsTheTurnBeforeAnyToolRuns() {
        server.enqueue(
                Reply.text(CANCEL_PLAN.replace("support.cancel", "sales.find_product")),
                Reply.toolCalls(new ToolCall("cancel_order", "{\"orderId\": \"W1002\"}")));

        assertThatThrownBy(() -> say("do you have mugs?"))
                .hasMessageContaining("cancel_order")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_TOOL_NOT_ALLOWED);
        assertThat(concierge.shop().order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void aFirstPassThatAnswersInWordsIsTheReply() {
        server.enqueue(
                Reply.text(CANCEL_PLAN
                        .replace("mason.martinez@example.com", "")
                        .replace("\"email\": \"\"", "\"email\": null")),
                Reply.text("Of course. What is the email address on your account?"));

        Concierge.Reply reply = say("I want to cancel an order");

        assertThat(reply.text()).isEqualTo("Of course. What is the email address on your account?");
        assertThat(reply.toolCalls()).isEmpty();
    }

    @Test
    void aModelThatCannotBeReachedFailsTheTurnWithNoFallback() {
        server.enqueue(Reply.error(401, "invalid api key"));

        assertThatThrownBy(() -> say("hello"))
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_MODEL_UNAVAILABLE);
        assertThat(concierge.conversations().load("web", "s1")).isEmpty();
    }
}
