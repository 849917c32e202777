package dev.weft.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.RetryPolicy;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.llm.test.FakeModelServer.RecordedRequest;
import dev.weft.llm.test.FakeModelServer.Reply;
import dev.weft.llm.test.FakeModelServer.ToolCall;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What every HTTP provider must do, driven through the real LangChain4j clients against {@link
 * FakeModelServer}: one subclass per provider says how to build its model and where its request
 * keeps messages.
 */
abstract class ModelProviderContract {
    static final JsonNode SCHEMA = Json.parse("""
            {"type": "object",
             "properties": {"priority": {"type": "string", "enum": ["low", "high"]},
                            "reason": {"type": "string"}},
             "required": ["priority", "reason"], "additionalProperties": false}
            """, "schema");
    static final PromptTemplate TEMPLATE =
            PromptTemplate.of("You triage support tickets. Be brief.", "Ticket: {{input.text}}");
    static final RetryPolicy RETRY =
            RetryPolicy.attempts(3).withBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 2.0);

    final FakeModelServer server = FakeModelServer.start();
    final FakeTime time = new FakeTime();
    final Runner runner = Runner.builder().time(time).build();

    @AfterEach
    void stopServer() {
        server.close();
    }

    /** The provider's model against the fake server, with {@link #RETRY} and no jitter. */
    abstract Model model(Duration timeout);

    /** The messages of a recorded request as {@code role: text} lines, the system part included. */
    abstract List<String> conversation(RecordedRequest request);

    /** The label under which the step records the model. */
    abstract String label();

    Model model() {
        return model(Duration.ofSeconds(10));
    }

    RunResult run(Graph graph, String text) {
        return runner.run(graph, RunRequest.of(Json.parse("{\"text\": " + Json.write(text) + "}", "input")));
    }

    static Step step(RunResult result, String nodeId) {
        return result.steps().stream()
                .filter(s -> s.nodeId().equals(nodeId))
                .reduce((a, b) -> b)
                .orElseThrow();
    }

    List<Event> events(RunResult result, String type) {
        return runner.store().events(result.runId()).stream()
                .filter(e -> e.type().equals(type))
                .toList();
    }

    @Test
    void sendsTheFixedPromptFirstAndTheRequestLast() {
        server.enqueue(Reply.text("Noted."));

        RunResult result = run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer on fire");

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(conversation(server.lastRequest()))
                .containsExactly("system: You triage support tickets. Be brief.", "user: Ticket: printer on fire");
    }

    @Test
    void streamsTokenDeltasAsAssistantDeltaEventsThenOutputsTheWholeReply() {
        server.enqueue(Reply.text("The printer is on fire.").withChunkSize(5));

        RunResult result = run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        assertThat(server.lastRequest().streamed()).isTrue();
        assertThat(events(result, ModelNodes.DELTA_EVENT))
                .extracting(e -> e.data().get("text").asText())
                .containsExactly("The p", "rinte", "r is ", "on fi", "re.");
        assertThat(result.output().get("text").asText()).isEqualTo("The printer is on fire.");
    }

    @Test
    void recordsThePromptTokensAndModelOnTheStep() {
        server.enqueue(Reply.text("ok").withUsage(120, 7, 100));

        RunResult result = run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        Step model = step(result, "model");
        assertThat(model.details().get("prompt"))
                .isEqualTo(Json.parse(
                        "{\"system\": \"You triage support tickets. Be brief.\", \"user\": \"Ticket: printer\"}", "p"));
        assertThat(model.details().get("tokens"))
                .isEqualTo(Json.parse("{\"input\":120,\"output\":7,\"cached\":100}", "t"));
        assertThat(model.details().get("model").asText()).isEqualTo(label());
        assertThat(model.details()).containsKeys("latencyMs", "attempts");
        assertThat(step(result, "prompt").details().get("prompt"))
                .isEqualTo(model.details().get("prompt"));
    }

    @Test
    void parsesValidJson() {
        server.enqueue(Reply.text("{\"priority\": \"high\", \"reason\": \"fire\"}"));

        RunResult result = run(ModelNodes.structuredGraph("g", TEMPLATE, model(), SCHEMA), "printer on fire");

        assertThat(result.output()).isEqualTo(Json.parse("{\"priority\": \"high\", \"reason\": \"fire\"}", "o"));
        assertThat(server.requests()).hasSize(1);
        assertThat(step(result, "parse_json").details().get("repaired").asBoolean())
                .isFalse();
    }

    @Test
    void findsJsonInsideProse() {
        server.enqueue(
                Reply.text(
                        "Sure! Here it is:\n```json\n{\"priority\": \"low\", \"reason\": \"a {braced} note\"}\n```\nAnything else?"));

        RunResult result = run(ModelNodes.structuredGraph("g", TEMPLATE, model(), SCHEMA), "toner low");

        assertThat(result.output().get("priority").asText()).isEqualTo("low");
        assertThat(result.output().get("reason").asText()).isEqualTo("a {braced} note");
    }

    @Test
    void asksOnceMoreWithTheValidationErrorThenAcceptsTheRepair() {
        server.enqueue(
                Reply.text("{\"priority\": \"urgent\", \"reason\": \"fire\"}"),
                Reply.text("{\"priority\": \"high\", \"reason\": \"fire\"}").withUsage(30, 4, 0));

        RunResult result = run(ModelNodes.structuredGraph("g", TEMPLATE, model(), SCHEMA), "printer on fire");

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.output().get("priority").asText()).isEqualTo("high");
        List<String> repair = conversation(server.requests().get(1));
        assertThat(repair).hasSize(4);
        assertThat(repair.get(0)).startsWith("system: You triage support tickets.");
        assertThat(repair.get(1)).isEqualTo("user: Ticket: printer on fire");
        assertThat(repair.get(2)).isEqualTo("assistant: {\"priority\": \"urgent\", \"reason\": \"fire\"}");
        assertThat(repair.get(3)).startsWith("user: Your reply could not be used: breaks the schema at /priority");
        Step parse = step(result, "parse_json");
        assertThat(parse.details().get("repaired").asBoolean()).isTrue();
        assertThat(parse.details().get("tokens").get("input").asInt()).isEqualTo(30);
    }

    @Test
    void failsNamingTheBadPathWhenTheRepairFailsToo() {
        server.enqueue(
                Reply.text("{\"priority\": \"urgent\", \"reason\": \"fire\"}"), Reply.text("{\"priority\": \"high\"}"));

        RunResult result = run(ModelNodes.structuredGraph("g", TEMPLATE, model(), SCHEMA), "printer on fire");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_MODEL_OUTPUT_INVALID);
        assertThat(result.error().orElseThrow().message())
                .contains("/reason")
                .contains("node 'parse_json'")
                .contains("second reply failed too");
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void replyWithoutJsonIsRepairedToo() {
        server.enqueue(
                Reply.text("I think it is urgent."), Reply.text("{\"priority\": \"high\", \"reason\": \"fire\"}"));

        RunResult result = run(ModelNodes.structuredGraph("g", TEMPLATE, model(), SCHEMA), "printer on fire");

        assertThat(result.output().get("priority").asText()).isEqualTo("high");
        assertThat(conversation(server.requests().get(1)).get(3)).contains("holds no JSON");
    }

    @Test
    void waitsAtLeastRetryAfterOnA429ThenSucceeds() {
        server.enqueue(Reply.rateLimited(Duration.ofSeconds(7)), Reply.text("ok"));

        RunResult result = run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(7));
        assertThat(server.requests()).hasSize(2);
        assertThat(step(result, "model").details().get("attempts").asInt()).isEqualTo(2);
        assertThat(events(result, "model.retrying"))
                .singleElement()
                .satisfies(e -> assertThat(e.data().get("error").asText()).contains("429"));
    }

    @Test
    void waitsThePolicyDelayWhenItIsLongerThanRetryAfter() {
        server.enqueue(Reply.rateLimited(Duration.ZERO), Reply.rateLimited(Duration.ofSeconds(1)), Reply.text("ok"));

        RunResult result = run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    @Test
    void retriesAServerErrorThenSucceeds() {
        server.enqueue(Reply.error(500, "internal error"), Reply.text("ok"));

        RunResult result = run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.output().get("text").asText()).isEqualTo("ok");
        assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(1));
    }

    @Test
    void givesUpAfterThePolicysAttemptsOnServerErrors() {
        server.fallback(Reply.error(503, "overloaded"));

        RunResult result = run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_MODEL_UNAVAILABLE);
        assertThat(result.error().orElseThrow().message()).contains("503").contains("overloaded");
        assertThat(server.requests()).hasSize(3);
        assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    @Test
    void retriesATimeout() {
        server.enqueue(Reply.text("late").withDelay(Duration.ofSeconds(30)), Reply.text("ok"));

        RunResult result = run(ModelNodes.textGraph("g", TEMPLATE, model(Duration.ofMillis(300))), "printer");

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.output().get("text").asText()).isEqualTo("ok");
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void aRejectedKeyFailsAtOnceWithoutRetrying() {
        server.requireKey("the-right-key");

        RunResult result = run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_MODEL_UNAVAILABLE);
        assertThat(result.error().orElseThrow().message()).contains("rejected the API key (401)");
        assertThat(server.requests()).hasSize(1);
        assertThat(time.sleeps()).isEmpty();
    }

    @Test
    void aBadRequestFailsAtOnceWithoutRetrying() {
        server.enqueue(Reply.error(400, "unsupported parameter"));

        RunResult result = run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_BAD_INPUT);
        assertThat(result.error().orElseThrow().message()).contains("(400)").contains("unsupported parameter");
        assertThat(server.requests()).hasSize(1);
    }

    static final List<ToolDefinition> TOOLS = List.of(
            new ToolDefinition(
                    "lookup_order",
                    "Finds an order by its number.",
                    Json.parse(
                            "{\"type\":\"object\",\"properties\":{\"number\":{\"type\":\"string\"}},\"required\":[\"number\"]}",
                            "s")),
            new ToolDefinition(
                    "refund",
                    "Refunds an order.",
                    Json.parse(
                            "{\"type\":\"object\",\"properties\":{\"number\":{\"type\":\"string\"},\"amount\":{\"type\":\"number\"}},\"required\":[\"number\",\"amount\"]}",
                            "s")));

    /** The tool names a recorded request offered. */
    abstract List<String> offeredTools(RecordedRequest request);

    @Test
    void offersTheToolsAndReturnsTheToolCalls() {
        server.enqueue(Reply.toolCalls(new ToolCall("lookup_order", "{\"number\": \"A-17\"}")));

        RunResult result = run(ModelNodes.toolPlanningGraph("g", TEMPLATE, model(), TOOLS), "where is A-17?");

        assertThat(offeredTools(server.lastRequest())).containsExactly("lookup_order", "refund");
        assertThat(result.output().get("type").asText()).isEqualTo("tool_calls");
        JsonNode call = result.output().get("toolCalls").get(0);
        assertThat(call.get("name").asText()).isEqualTo("lookup_order");
        assertThat(call.get("arguments")).isEqualTo(Json.parse("{\"number\": \"A-17\"}", "a"));
    }

    @Test
    void returnsContentWhenTheModelCallsNoTool() {
        server.enqueue(Reply.text("Which order do you mean?"));

        RunResult result = run(ModelNodes.toolPlanningGraph("g", TEMPLATE, model(), TOOLS), "my order");

        assertThat(result.output())
                .isEqualTo(Json.parse("{\"type\":\"content\",\"text\":\"Which order do you mean?\"}", "o"));
    }

    @Test
    void rejectsACallToAToolThatWasNotOffered() {
        server.enqueue(Reply.toolCalls(new ToolCall("delete_account", "{}")));

        RunResult result = run(ModelNodes.toolPlanningGraph("g", TEMPLATE, model(), TOOLS), "close it");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_MODEL_OUTPUT_INVALID);
        assertThat(result.error().orElseThrow().message())
                .contains("'delete_account', which was not offered (offered: lookup_order, refund)");
    }

    @Test
    void rejectsToolArgumentsThatBreakTheToolsSchema() {
        server.enqueue(Reply.toolCalls(new ToolCall("refund", "{\"number\": \"A-17\"}")));

        RunResult result = run(ModelNodes.toolPlanningGraph("g", TEMPLATE, model(), TOOLS), "refund A-17");

        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_MODEL_OUTPUT_INVALID);
        assertThat(result.error().orElseThrow().message()).contains("/amount");
    }

    static Optional<JsonNode> field(JsonNode node, String name) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value);
    }
}
