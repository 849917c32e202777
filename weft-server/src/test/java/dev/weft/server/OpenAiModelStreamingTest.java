package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.TimeSource;
import dev.weft.llm.Model;
import dev.weft.llm.ModelConfig;
import dev.weft.llm.Provider;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.llm.test.FakeModelServer.Reply;
import dev.weft.memo.Memo;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OpenAI-compatible endpoint with Memo planning and answering on a model (faked at the wire): the
 * model's words reach the client as the model writes them, while Memo's run goes on, and the usage is
 * the tokens the turn's model calls used.
 */
final class OpenAiModelStreamingTest {
    private static final String PLAN = "{\"intentType\": \"conversation\", \"confidence\": 0.9, \"plan\": [{\"id\":"
            + " \"A\", \"capability\": \"general\", \"action\": \"respond\", \"constraints\": {\"message\": \"how are"
            + " you?\"}, \"changes\": {}, \"dependsOn\": []}]}";
    private static final String ANSWER = "I'm well, thank you for asking! How can I help today?";

    @TempDir
    Path dir;

    private final FakeModelServer model = FakeModelServer.start();
    private ServerFixture fixture;

    @BeforeEach
    void start() {
        Model configured = Model.create(new ModelConfig(
                Provider.OPENAI,
                "gpt-4o-mini",
                Optional.of(model.openAiBaseUrl()),
                Optional.of("sk-test"),
                Duration.ofSeconds(10)));
        fixture = new ServerFixture(
                dir,
                (builder, store) ->
                        builder.assistants(ServerFixture.memo(Memo.open(store, configured, TimeSource.system()))));
        model.enqueue(
                Reply.text(PLAN).withUsage(300, 40, 0),
                Reply.text(ANSWER).withChunkSize(6).withUsage(120, 9, 0));
    }

    @AfterEach
    void stop() {
        fixture.close();
        model.close();
    }

    private static String body(boolean stream) {
        return "{\"model\": \"memo\", \"stream\": " + stream + ", \"stream_options\": {\"include_usage\": true},"
                + " \"messages\": [{\"role\": \"user\", \"content\": \"how are you?\"}]}";
    }

    @Test
    void theModelsWordsAreStreamedAsItWritesThemAndTheUsageIsTheTurnsTokens() throws Exception {
        CountDownLatch resume = new CountDownLatch(1);
        model.pauseStreamsAfterFirstEvent(resume);
        HttpResponse<InputStream> response = fixture.http.send(
                fixture.request("v1/chat/completions", Optional.of(fixture.dana))
                        .header("Content-Type", "application/json")
                        .header("Accept", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body(true)))
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());

        List<JsonNode> chunks = new ArrayList<>();
        StringBuilder content = new StringBuilder();
        boolean modelWasStillWriting = false;
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                if (!line.startsWith("data: ") || line.equals("data: [DONE]")) {
                    continue;
                }
                JsonNode chunk = Json.parse(line.substring(6), "chunk");
                chunks.add(chunk);
                String words = chunk.path("choices")
                        .path(0)
                        .path("delta")
                        .path("content")
                        .asText("");
                if (!words.isEmpty() && content.isEmpty()) {
                    // The fake model holds the rest of its answer until this line has been read.
                    modelWasStillWriting = resume.getCount() == 1;
                    resume.countDown();
                }
                content.append(words);
            }
        }

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(modelWasStillWriting)
                .as("the first words arrived while the model was writing")
                .isTrue();
        assertThat(content.toString()).isEqualTo(ANSWER);
        assertThat(chunks.stream()
                        .filter(c -> !c.path("choices")
                                .path(0)
                                .path("delta")
                                .path("content")
                                .asText("")
                                .isEmpty())
                        .count())
                .as("one chunk per streamed delta")
                .isEqualTo((ANSWER.length() + 5) / 6);
        JsonNode usage = chunks.get(chunks.size() - 1).path("usage");
        assertThat(usage.path("prompt_tokens").asInt()).isEqualTo(420);
        assertThat(usage.path("completion_tokens").asInt()).isEqualTo(49);
        assertThat(usage.path("total_tokens").asInt()).isEqualTo(469);
        assertThat(model.lastRequest().streamed()).isTrue();
        assertThat(model.requests().get(0).streamed())
                .as("the plan is not words to the user")
                .isFalse();
    }

    @Test
    void aPlainAnswerReportsTheTokensOfThePlannerAndTheAnswer() {
        ServerFixture.Answer answer = fixture.post("v1/chat/completions", fixture.dana, body(false));

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()
                        .path("choices")
                        .path(0)
                        .path("message")
                        .path("content")
                        .asText())
                .isEqualTo(ANSWER);
        assertThat(answer.body().path("usage").path("prompt_tokens").asInt()).isEqualTo(420);
        assertThat(answer.body().path("usage").path("completion_tokens").asInt())
                .isEqualTo(49);
    }
}
