package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /v1/responses} on the wire, as any client of OpenAI's Responses API sees it. */
final class ResponsesApiTest {
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

    private ServerFixture.Answer create(String key, ObjectNode body) {
        return fixture.post("v1/responses", key, Json.write(body));
    }

    private static ObjectNode ask(String text) {
        return Json.object().put("model", "memo").put("input", text);
    }

    private static String outputText(JsonNode response) {
        return response.path("output")
                .get(0)
                .path("content")
                .get(0)
                .path("text")
                .asText();
    }

    @Test
    void aStringInputIsAnsweredWithACompletedResponseItsUsageAndItsRun() {
        ServerFixture.Answer answer = create(fixture.dana, ask("remind me tomorrow at 9 to call the bank"));

        assertThat(answer.status()).as(answer.raw().body()).isEqualTo(200);
        JsonNode response = answer.body();
        assertThat(response.path("id").asText()).startsWith("resp_");
        assertThat(response.path("object").asText()).isEqualTo("response");
        assertThat(response.path("status").asText()).isEqualTo("completed");
        assertThat(response.path("model").asText()).isEqualTo("memo");
        assertThat(response.path("output").get(0).path("type").asText()).isEqualTo("message");
        assertThat(response.path("output").get(0).path("role").asText()).isEqualTo("assistant");
        assertThat(outputText(response)).startsWith("I'll remind you: \"call the bank\"");
        assertThat(response.path("usage").path("total_tokens").isIntegralNumber())
                .isTrue();
        assertThat(response.path("weft").path("status").asText()).isEqualTo("COMPLETED");
        assertThat(fixture.get("api/runs/" + response.path("weft").path("runId").asText(), fixture.dana)
                        .status())
                .isEqualTo(200);
    }

    @Test
    void aListOfMessagesIsAnsweredByItsLastUserMessageAndWhatElseWasSentIsKeptAndEchoed() {
        ObjectNode body = Json.object().put("model", "memo").put("instructions", "Answer like a pirate.");
        body.putArray("input")
                .add(Json.object().put("role", "system").put("content", "You are terse."))
                .add(Json.object().put("role", "user").put("content", "what are my tasks?"))
                .add(Json.object().put("role", "assistant").put("content", "You have none."))
                .add(Json.object()
                        .put("type", "message")
                        .put("role", "user")
                        .set(
                                "content",
                                Json.mapper()
                                        .createArrayNode()
                                        .add(Json.object()
                                                .put("type", "input_text")
                                                .put("text", "צור רשימת קניות עם חלב, ביצים ולחם"))));

        JsonNode response = create(fixture.omer, body).body();
        JsonNode stored = fixture.get("v1/responses/" + response.path("id").asText(), fixture.omer)
                .body();

        assertThat(outputText(response)).startsWith("יצרתי את הרשימה \"קניות\":");
        assertThat(response.path("instructions").asText()).isEqualTo("Answer like a pirate.");
        assertThat(stored).isEqualTo(response);
        assertThat(stored.path("weft").path("input")).isEqualTo(body.path("input"));
    }

    @Test
    void aPreviousResponseIdContinuesItsConversationAndTheYesCarriesOutWhatItAsked() {
        create(fixture.dana, ask("remind me tomorrow at 9 to call the bank"));
        JsonNode asked = create(fixture.dana, ask("delete all my reminders")).body();
        assertThat(asked.path("weft").path("status").asText()).isEqualTo("WAITING");

        ObjectNode yes = ask("yes").put("previous_response_id", asked.path("id").asText());
        JsonNode done = create(fixture.dana, yes).body();

        assertThat(done.path("previous_response_id").asText())
                .isEqualTo(asked.path("id").asText());
        assertThat(done.path("weft").path("runId").asText())
                .isEqualTo(asked.path("weft").path("runId").asText());
        assertThat(done.path("weft").path("status").asText()).isEqualTo("COMPLETED");
        assertThat(fixture.get("api/memo/reminders", fixture.dana).body().toString())
                .doesNotContain("call the bank");
    }

    @Test
    void anotherUsersResponseIsNotFoundToReadOrToContinue() {
        String id = create(fixture.dana, ask("remind me tomorrow at 9 to call the bank"))
                .body()
                .path("id")
                .asText();

        ServerFixture.Answer read = fixture.get("v1/responses/" + id, fixture.omer);
        ServerFixture.Answer continued = create(fixture.omer, ask("yes").put("previous_response_id", id));

        assertThat(read.status()).isEqualTo(404);
        assertThat(read.body().path("error").path("type").asText()).isEqualTo("not_found_error");
        assertThat(continued.status()).isEqualTo(404);
        assertThat(continued.body().path("error").path("param").asText()).isEqualTo("previous_response_id");
        assertThat(fixture.get("v1/responses/" + id, fixture.dana).status()).isEqualTo(200);
    }

    @Test
    void badRequestsAreRefusedInOpenAisErrorShapeNamingTheFieldAndKeepNothing() {
        ServerFixture.Answer unknownModel = create(fixture.dana, ask("hi").put("model", "gpt-4o"));
        ServerFixture.Answer noInput = create(fixture.dana, Json.object().put("model", "memo"));
        ServerFixture.Answer noUser = create(
                fixture.dana,
                Json.object()
                        .put("model", "memo")
                        .set(
                                "input",
                                Json.mapper()
                                        .createArrayNode()
                                        .add(Json.object()
                                                .put("role", "assistant")
                                                .put("content", "hi"))));
        ServerFixture.Answer wrongKey = fixture.post("v1/responses", "weft_nope", Json.write(ask("hi")));

        assertThat(unknownModel.status()).isEqualTo(404);
        assertThat(unknownModel.body().path("error").path("param").asText()).isEqualTo("model");
        assertThat(unknownModel.body().path("error").path("code").asText()).isEqualTo("E_NOT_FOUND");
        assertThat(noInput.status()).isEqualTo(400);
        assertThat(noInput.body().path("error").path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(noInput.body().path("error").path("param").asText()).isEqualTo("input");
        assertThat(noUser.body().path("error").path("message").asText()).contains("no message of role \"user\"");
        assertThat(wrongKey.status()).isEqualTo(401);
        assertThat(wrongKey.body().path("error").path("type").asText()).isEqualTo("authentication_error");
        assertThat(wrongKey.body().path("error").has("param")).isTrue();
        assertThat(fixture.get("api/runs", fixture.dana).body().path("runs")).isEmpty();
    }

    @Test
    void aStreamIsOpenAisTypedEventsNumberedInOrderAndEndsWithTheCompletedResponse() {
        String raw = fixture.raw(fixture.request("v1/responses", Optional.of(fixture.dana))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(Json.write(
                                ask("remind me tomorrow at 9 to call the bank").put("stream", true))))
                        .build())
                .body();
        List<String> types = new ArrayList<>();
        List<JsonNode> events = new ArrayList<>();
        for (String block : raw.split("\n\n")) {
            if (block.isBlank()) {
                continue;
            }
            List<String> lines = block.lines().toList();
            assertThat(lines.get(0)).startsWith("event: ");
            assertThat(lines.get(1)).startsWith("data: ");
            types.add(lines.get(0).substring(7));
            events.add(Json.parse(lines.get(1).substring(6), "event"));
        }

        assertThat(types)
                .startsWith(
                        "response.created",
                        "response.in_progress",
                        "response.output_item.added",
                        "response.content_part.added",
                        "response.output_text.delta")
                .endsWith(
                        "response.output_text.done",
                        "response.content_part.done",
                        "response.output_item.done",
                        "response.completed");
        for (int i = 0; i < events.size(); i++) {
            assertThat(events.get(i).path("sequence_number").asInt()).isEqualTo(i);
            assertThat(events.get(i).path("type").asText()).isEqualTo(types.get(i));
        }
        String deltas = events.stream()
                .filter(e -> e.path("type").asText().equals("response.output_text.delta"))
                .map(e -> e.path("delta").asText())
                .reduce("", String::concat);
        JsonNode completed = events.get(events.size() - 1).path("response");
        assertThat(deltas).startsWith("I'll remind you: \"call the bank\"").isEqualTo(outputText(completed));
        assertThat(completed.path("status").asText()).isEqualTo("completed");
        assertThat(fixture.get("v1/responses/" + completed.path("id").asText(), fixture.dana)
                        .body())
                .isEqualTo(completed);
    }
}
