package dev.weft.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.llm.test.FakeModelServer.RecordedRequest;
import dev.weft.llm.test.FakeModelServer.Reply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class OpenAiProviderTest extends ModelProviderContract {
    @Override
    Model model(Duration timeout) {
        return Model.create(new ModelConfig(
                        Provider.OPENAI,
                        "gpt-4o-mini",
                        Optional.of(server.openAiBaseUrl()),
                        Optional.of("sk-test"),
                        timeout))
                .withRetry(RETRY)
                .withJitter(FakeTime.NO_JITTER);
    }

    @Override
    String label() {
        return "openai:gpt-4o-mini";
    }

    @Override
    List<String> conversation(RecordedRequest request) {
        List<String> lines = new ArrayList<>();
        for (JsonNode message : request.body().get("messages")) {
            lines.add(message.get("role").asText() + ": " + text(message.get("content")));
        }
        return lines;
    }

    private static String text(JsonNode content) {
        if (content.isTextual()) {
            return content.asText();
        }
        StringBuilder text = new StringBuilder();
        content.forEach(part -> text.append(part.path("text").asText()));
        return text.toString();
    }

    @Override
    List<String> offeredTools(RecordedRequest request) {
        List<String> names = new ArrayList<>();
        request.body()
                .get("tools")
                .forEach(t -> names.add(t.get("function").get("name").asText()));
        return names;
    }

    @Test
    void sendsTheSchemaAsAStrictJsonSchemaResponseFormat() {
        server.enqueue(Reply.text("{\"priority\": \"high\", \"reason\": \"fire\"}"));

        run(ModelNodes.structuredGraph("g", TEMPLATE, model(), SCHEMA), "printer on fire");

        JsonNode format = server.lastRequest().body().get("response_format");
        assertThat(format.get("type").asText()).isEqualTo("json_schema");
        assertThat(format.get("json_schema").get("strict").asBoolean()).isTrue();
        assertThat(format.get("json_schema").get("name").asText()).isEqualTo("output");
        assertThat(format.get("json_schema").get("schema")).isEqualTo(SCHEMA);
        assertThat(conversation(server.lastRequest()).get(0)).doesNotContain("JSON Schema");
    }

    @Test
    void sendsNoResponseFormatForFreeText() {
        server.enqueue(Reply.text("ok"));

        run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        assertThat(server.lastRequest().body().has("response_format")).isFalse();
        assertThat(server.lastRequest().body().get("model").asText()).isEqualTo("gpt-4o-mini");
    }

    @Test
    void sendsTheKeyAsABearerToken() {
        server.enqueue(Reply.text("ok"));

        run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        assertThat(server.lastRequest().header("Authorization")).contains("Bearer sk-test");
        assertThat(server.lastRequest().path()).isEqualTo("/v1/chat/completions");
    }

    @Test
    void aCompatibleServerIsCalledWithoutAKeyWhenNoneIsSet() {
        server.enqueue(Reply.text("ok"));
        Model local = Model.create(new ModelConfig(
                Provider.OPENAI,
                "llama3.1:8b",
                Optional.of(server.openAiBaseUrl()),
                Optional.empty(),
                Duration.ofSeconds(10)));

        var result = run(ModelNodes.textGraph("g", TEMPLATE, local), "printer");

        assertThat(result.output().get("text").asText()).isEqualTo("ok");
        assertThat(server.lastRequest().header("Authorization")).isEmpty();
        assertThat(server.lastRequest().body().get("model").asText()).isEqualTo("llama3.1:8b");
    }

    @Test
    void aStepRecordsItsTokensWithoutStreamingToo() {
        server.enqueue(Reply.text("{\"priority\": \"low\", \"reason\": \"x\"}").withUsage(50, 9, 32));
        Model plain = model().withoutStreaming();

        var result = run(ModelNodes.structuredGraph("g", TEMPLATE, plain, SCHEMA), "toner");

        assertThat(server.lastRequest().streamed()).isFalse();
        assertThat(step(result, "model").details().get("tokens"))
                .isEqualTo(Json.parse("{\"input\":50,\"output\":9,\"cached\":32}", "t"));
    }
}
