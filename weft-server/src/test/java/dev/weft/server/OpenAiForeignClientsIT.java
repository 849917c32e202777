package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAI-compatible endpoint called by clients nobody here wrote, which send {@code Accept:
 * application/json} on streamed requests as the official Python SDK does: curl, and the official
 * OpenAI client from npm (beside {@link OpenAiClientIT}, the Java SDK).
 */
final class OpenAiForeignClientsIT {
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

    private List<String> curlArgs(String key, String body) {
        return List.of(
                "-H",
                "Authorization: Bearer " + key,
                "-H",
                "Content-Type: application/json",
                "-H",
                "Accept: application/json",
                "-D",
                "-",
                "--data-binary",
                body,
                fixture.base.resolve("v1/chat/completions").toString());
    }

    private static String body(boolean stream, String text) {
        return Json.write(Json.object()
                .put("model", "memo")
                .put("stream", stream)
                .set(
                        "messages",
                        Json.mapper()
                                .createArrayNode()
                                .add(Json.object().put("role", "user").put("content", text))));
    }

    @Test
    void curlAcceptingJsonGetsAStreamOfChunksEndingWithDone() {
        String out = ExternalClients.curl(
                        curlArgs(fixture.dana, body(true, "remind me tomorrow at 9 to call the bank")))
                .stdout();
        String headers = out.substring(0, out.indexOf("\r\n\r\n"));
        List<String> data = out.substring(out.indexOf("\r\n\r\n") + 4)
                .lines()
                .filter(line -> !line.isEmpty())
                .toList();

        assertThat(headers).startsWith("HTTP/1.1 200").containsIgnoringCase("content-type: text/event-stream");
        assertThat(data).allSatisfy(line -> assertThat(line).startsWith("data: "));
        assertThat(data.get(data.size() - 1)).isEqualTo("data: [DONE]");
        String content = data.stream()
                .map(line -> line.substring(6))
                .filter(line -> !line.equals("[DONE]"))
                .map(line -> Json.parse(line, "chunk").path("choices"))
                .filter(choices -> !choices.isEmpty())
                .map(choices -> choices.get(0).path("delta").path("content").asText(""))
                .reduce("", String::concat);
        assertThat(content).startsWith("I'll remind you: \"call the bank\"");
    }

    @Test
    void curlAcceptingJsonWithoutStreamGetsOneCompletion() {
        String out = ExternalClients.curl(curlArgs(fixture.omer, body(false, "צור רשימת קניות עם חלב, ביצים ולחם")))
                .stdout();
        JsonNode completion = Json.parse(out.substring(out.indexOf("\r\n\r\n") + 4), "completion");

        assertThat(out).startsWith("HTTP/1.1 200");
        assertThat(completion.path("object").asText()).isEqualTo("chat.completion");
        assertThat(completion
                        .path("choices")
                        .get(0)
                        .path("message")
                        .path("content")
                        .asText())
                .startsWith("יצרתי את הרשימה \"קניות\":");
    }

    @Test
    void theOpenAiNpmClientGetsAPlainAnswerInEnglishAndHebrew() {
        JsonNode english = ExternalClients.openAiNode(
                fixture.base, fixture.dana, false, "memo", "remind me tomorrow at 9 to call the bank");
        JsonNode hebrew = ExternalClients.openAiNode(
                fixture.base, fixture.omer, false, "memo", "צור רשימת קניות עם חלב, ביצים ולחם");

        assertThat(english.path("error").isMissingNode()).as("%s", english).isTrue();
        assertThat(english.path("content").asText()).startsWith("I'll remind you: \"call the bank\"");
        assertThat(english.path("finish").asText()).isEqualTo("stop");
        assertThat(english.path("usage").path("total_tokens").asInt(-1)).isZero();
        assertThat(hebrew.path("content").asText())
                .startsWith("יצרתי את הרשימה \"קניות\":")
                .contains("חלב");
    }

    @Test
    void theOpenAiNpmClientStreamsTheSameReplyEndingWithStop() {
        JsonNode english = ExternalClients.openAiNode(
                fixture.base, fixture.dana, true, "memo", "remind me tomorrow at 9 to call the bank");
        JsonNode hebrew = ExternalClients.openAiNode(
                fixture.base, fixture.omer, true, "memo", "צור רשימת קניות עם חלב, ביצים ולחם");

        assertThat(english.path("error").isMissingNode()).as("%s", english).isTrue();
        assertThat(english.path("content").asText()).startsWith("I'll remind you: \"call the bank\"");
        assertThat(english.path("finish").asText()).isEqualTo("stop");
        assertThat(english.path("chunks").asInt()).isGreaterThan(2);
        assertThat(hebrew.path("content").asText())
                .startsWith("יצרתי את הרשימה \"קניות\":")
                .contains("☐ ביצים");
    }

    @Test
    void theOpenAiNpmClientSeesAnUnknownModelAsNotFound() {
        JsonNode answer = ExternalClients.openAiNode(fixture.base, fixture.dana, true, "gpt-4o", "hi");

        assertThat(answer.path("error").path("status").asInt()).isEqualTo(404);
        assertThat(answer.path("error").path("name").asText()).isEqualTo("NotFoundError");
    }
}
