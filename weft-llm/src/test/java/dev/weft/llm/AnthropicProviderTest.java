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

final class AnthropicProviderTest extends ModelProviderContract {
    @Override
    Model model(Duration timeout) {
        return Model.create(new ModelConfig(
                        Provider.ANTHROPIC,
                        "claude-sonnet-4-5",
                        Optional.of(server.anthropicBaseUrl()),
                        Optional.of("sk-ant-test"),
                        timeout))
                .withRetry(RETRY)
                .withJitter(FakeTime.NO_JITTER);
    }

    @Override
    String label() {
        return "anthropic:claude-sonnet-4-5";
    }

    @Override
    List<String> conversation(RecordedRequest request) {
        List<String> lines = new ArrayList<>();
        JsonNode system = request.body().path("system");
        if (system.isTextual()) {
            lines.add("system: " + system.asText());
        } else if (system.isArray() && !system.isEmpty()) {
            StringBuilder text = new StringBuilder();
            system.forEach(part -> text.append(part.path("text").asText()));
            lines.add("system: " + text);
        }
        for (JsonNode message : request.body().get("messages")) {
            JsonNode content = message.get("content");
            StringBuilder text = new StringBuilder();
            if (content.isTextual()) {
                text.append(content.asText());
            } else {
                content.forEach(part -> text.append(part.path("text").asText()));
            }
            lines.add(message.get("role").asText() + ": " + text);
        }
        return lines;
    }

    @Override
    List<String> offeredTools(RecordedRequest request) {
        List<String> names = new ArrayList<>();
        request.body().get("tools").forEach(t -> names.add(t.get("name").asText()));
        return names;
    }

    @Test
    void marksTheFixedSystemPromptForCaching() {
        server.enqueue(Reply.text("ok"));

        run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        JsonNode system = server.lastRequest().body().get("system");
        assertThat(system.isArray()).isTrue();
        assertThat(system.get(0).get("text").asText()).isEqualTo("You triage support tickets. Be brief.");
        assertThat(system.get(0).get("cache_control")).isEqualTo(Json.parse("{\"type\": \"ephemeral\"}", "c"));
        JsonNode user = server.lastRequest().body().get("messages").get(0);
        assertThat(user.toString()).doesNotContain("cache_control");
    }

    @Test
    void putsTheSchemaInTheSystemPromptAndParsesTheReply() {
        server.enqueue(Reply.text("{\"priority\": \"high\", \"reason\": \"fire\"}"));

        var result = run(ModelNodes.structuredGraph("g", TEMPLATE, model(), SCHEMA), "printer on fire");

        JsonNode body = server.lastRequest().body();
        assertThat(body.has("output_config")).isFalse();
        assertThat(body.has("output_format")).isFalse();
        String system = conversation(server.lastRequest()).get(0);
        assertThat(system)
                .startsWith("system: You triage support tickets. Be brief.")
                .contains("matches this JSON Schema")
                .contains("\"enum\":[\"low\",\"high\"]");
        assertThat(result.output().get("priority").asText()).isEqualTo("high");
    }

    @Test
    void sendsTheKeyAsXApiKey() {
        server.enqueue(Reply.text("ok"));

        run(ModelNodes.textGraph("g", TEMPLATE, model()), "printer");

        assertThat(server.lastRequest().header("x-api-key")).contains("sk-ant-test");
        assertThat(server.lastRequest().path()).isEqualTo("/v1/messages");
        assertThat(server.lastRequest().body().get("max_tokens").asInt()).isEqualTo(Model.ANTHROPIC_MAX_TOKENS);
    }
}
