package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The OpenAI-compatible endpoint on the wire, as any client sees it. */
final class OpenAiApiTest {
    @TempDir
    Path dir;

    private ServerFixture fixture;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(dir);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private ServerFixture.Answer complete(String body) {
        return fixture.post("v1/chat/completions", fixture.dana, body);
    }

    @Test
    void aStreamIsDataLinesOfChunksEndingWithDone() {
        String raw = fixture.raw(fixture.request("v1/chat/completions", Optional.of(fixture.dana))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"model\": \"memo\", \"stream\": true, \"messages\":"
                                        + " [{\"role\": \"user\", \"content\": \"what are my tasks?\"}]}"))
                        .build())
                .body();
        List<String> lines = raw.lines().filter(line -> !line.isEmpty()).toList();

        assertThat(lines).allSatisfy(line -> assertThat(line).startsWith("data: "));
        assertThat(lines.get(lines.size() - 1)).isEqualTo("data: [DONE]");
        JsonNode first = Json.parse(lines.get(0).substring(6), "chunk");
        JsonNode last = Json.parse(lines.get(lines.size() - 2).substring(6), "chunk");
        assertThat(first.path("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(first.path("choices").get(0).path("delta").path("role").asText())
                .isEqualTo("assistant");
        assertThat(last.path("choices").get(0).path("finish_reason").asText()).isEqualTo("stop");
        assertThat(lines.stream().map(line -> line.substring(6)).filter(l -> !l.equals("[DONE]")))
                .extracting(l -> Json.parse(l, "chunk").path("id").asText())
                .containsOnly(first.path("id").asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "*/*", "text/event-stream", "application/json, text/plain"})
    void aStreamIsAnsweredWhateverTheRequestAccepts(String accept) {
        java.net.http.HttpResponse<String> answer = fixture.raw(fixture.request(
                        "v1/chat/completions", Optional.of(fixture.dana))
                .header("Content-Type", "application/json")
                .header("Accept", accept)
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\": \"memo\", \"stream\": true, \"messages\":"
                        + " [{\"role\": \"user\", \"content\": \"remind me tomorrow at 9 to call the bank\"}]}"))
                .build());

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        assertThat(answer.body()).contains("I'll remind you").endsWith("data: [DONE]\n\n");
    }

    @Test
    void aStreamEndsWithWhatTheReplySaysBesidesTheWordsAlreadyStreamed() {
        assertThat(OpenAiApi.remainder("", "Added milk.")).isEqualTo("Added milk.");
        assertThat(OpenAiApi.remainder(" I'm well", "I'm well.")).isEqualTo(".");
        assertThat(OpenAiApi.remainder("I'm well.", "I'm well.")).isEmpty();
        assertThat(OpenAiApi.remainder("I'm well.", "Added milk.\nI'm well.")).isEqualTo("\n\nAdded milk.");
        assertThat(OpenAiApi.remainder("I'm well.", "Added milk.\nI'm well.\nAnything else?"))
                .isEqualTo("\nAnything else?\n\nAdded milk.");
        assertThat(OpenAiApi.remainder("something else", "Added milk.")).isEqualTo("\n\nAdded milk.");
    }

    @Test
    void readsTheLastUserMessageWhetherTextOrParts() {
        ServerFixture.Answer answer = complete("{\"model\": \"memo\", \"temperature\": 0.2, \"messages\": ["
                + "{\"role\": \"system\", \"content\": \"be brief\"},"
                + "{\"role\": \"user\", \"content\": \"hello\"},"
                + "{\"role\": \"assistant\", \"content\": \"hi\"},"
                + "{\"role\": \"user\", \"content\": [{\"type\": \"text\", \"text\": \"remind me tomorrow at 9 to"
                + " call the bank\"}]}]}");

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body().path("object").asText()).isEqualTo("chat.completion");
        assertThat(answer.body()
                        .path("choices")
                        .get(0)
                        .path("message")
                        .path("content")
                        .asText())
                .startsWith("I'll remind you: \"call the bank\"");
        assertThat(answer.body().path("weft").path("status").asText()).isEqualTo("COMPLETED");
    }

    @Test
    void aRequestWithoutAUserMessageOrModelIsRefused() {
        ServerFixture.Answer noUser =
                complete("{\"model\": \"memo\", \"messages\": [{\"role\": \"system\", \"content\": \"be brief\"}]}");
        ServerFixture.Answer noMessages = complete("{\"model\": \"memo\", \"messages\": []}");
        ServerFixture.Answer noModel = complete("{\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}");
        ServerFixture.Answer notJson = complete("{\"model\": ");

        assertThat(noUser.code()).isEqualTo("E_BAD_INPUT");
        assertThat(noMessages.code()).isEqualTo("E_BAD_INPUT");
        assertThat(noModel.status()).isEqualTo(404);
        assertThat(notJson.status()).isEqualTo(400);
    }
}
