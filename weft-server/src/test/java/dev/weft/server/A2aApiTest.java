package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The A2A endpoints on the wire: cards, JSON-RPC and its errors, tasks as runs of their user's. */
final class A2aApiTest {
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

    private JsonNode rpc(String key, String method, ObjectNode params) {
        ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", 7).put("method", method);
        request.set("params", params);
        ServerFixture.Answer answer = fixture.post("a2a/memo", key, Json.write(request));
        assertThat(answer.status()).as(answer.raw().body()).isEqualTo(200);
        return answer.body();
    }

    private static ObjectNode send(String text) {
        ObjectNode message = Json.object()
                .put("kind", "message")
                .put("messageId", "m-" + text.hashCode())
                .put("role", "user");
        message.putArray("parts").addObject().put("kind", "text").put("text", text);
        ObjectNode params = Json.object();
        params.set("message", message);
        return params;
    }

    @Test
    void theCardIsReadWithoutAKeyAndNamesTheEndpointTheSkillsAndTheBearerScheme() {
        ServerFixture.Answer root = fixture.get(".well-known/agent-card.json", Optional.empty());
        ServerFixture.Answer memo = fixture.get("a2a/memo/.well-known/agent-card.json", Optional.empty());

        assertThat(root.status()).isEqualTo(200);
        assertThat(root.body()).isEqualTo(memo.body());
        assertThat(root.body().path("url").asText())
                .isEqualTo(fixture.base.resolve("a2a/memo").toString());
        assertThat(root.body().path("skills"))
                .extracting(s -> s.path("id").asText())
                .contains("taskOperations");
        assertThat(root.body().path("security").get(0).has("bearer")).isTrue();
        assertThat(fixture.get("a2a/nobody/.well-known/agent-card.json", Optional.empty())
                        .status())
                .isEqualTo(404);
    }

    @Test
    void aMessageIsATaskWhoseIdIsItsRunAndTasksGetReadsItAgain() {
        JsonNode sent = rpc(fixture.dana, "message/send", send("remind me tomorrow at 9 to call the bank"));
        String taskId = sent.path("result").path("id").asText();

        JsonNode got = rpc(fixture.dana, "tasks/get", Json.object().put("id", taskId));

        assertThat(sent.path("id").asInt()).isEqualTo(7);
        assertThat(sent.path("result").path("kind").asText()).isEqualTo("task");
        assertThat(sent.path("result").path("status").path("state").asText()).isEqualTo("completed");
        assertThat(fixture.get("api/runs/" + taskId, fixture.dana).status()).isEqualTo(200);
        assertThat(got.path("result").path("status").path("state").asText()).isEqualTo("completed");
        assertThat(got.path("result").path("history")).hasSize(2);
        assertThat(got.path("result")
                        .path("artifacts")
                        .get(0)
                        .path("parts")
                        .get(0)
                        .path("text")
                        .asText())
                .startsWith("I'll remind you");
    }

    @Test
    void anotherUsersTaskIsNotFoundToReadToCancelOrToAnswer() {
        rpc(fixture.dana, "message/send", send("remind me tomorrow at 9 to call the bank"));
        String taskId = rpc(fixture.dana, "message/send", send("delete all my reminders"))
                .path("result")
                .path("id")
                .asText();
        ObjectNode answer = send("yes");
        ((ObjectNode) answer.path("message")).put("taskId", taskId);

        assertThat(rpc(fixture.omer, "tasks/get", Json.object().put("id", taskId))
                        .path("error")
                        .path("code")
                        .asInt())
                .isEqualTo(-32001);
        assertThat(rpc(fixture.omer, "tasks/cancel", Json.object().put("id", taskId))
                        .path("error")
                        .path("code")
                        .asInt())
                .isEqualTo(-32001);
        assertThat(rpc(fixture.omer, "message/send", answer)
                        .path("error")
                        .path("code")
                        .asInt())
                .isEqualTo(-32001);
        assertThat(rpc(fixture.dana, "tasks/get", Json.object().put("id", taskId))
                        .path("result")
                        .path("status")
                        .path("state")
                        .asText())
                .isEqualTo("input-required");
    }

    @Test
    void aFinishedTaskTakesNoMoreMessagesAndCannotBeCancelled() {
        String taskId = rpc(fixture.dana, "message/send", send("remind me tomorrow at 9 to call the bank"))
                .path("result")
                .path("id")
                .asText();
        ObjectNode more = send("yes");
        ((ObjectNode) more.path("message")).put("taskId", taskId);

        assertThat(rpc(fixture.dana, "message/send", more)
                        .path("error")
                        .path("code")
                        .asInt())
                .isEqualTo(-32602);
        assertThat(rpc(fixture.dana, "tasks/cancel", Json.object().put("id", taskId))
                        .path("error")
                        .path("code")
                        .asInt())
                .isEqualTo(-32002);
    }

    @Test
    void requestsThatAreNotJsonRpcAreAnsweredWithItsErrorsAndAWrongKeyWith401() {
        ServerFixture.Answer notJson = fixture.post("a2a/memo", fixture.dana, "{nope");
        ServerFixture.Answer notRpc = fixture.post("a2a/memo", fixture.dana, "{\"id\": 1}");
        JsonNode unknown = rpc(fixture.dana, "tasks/list", Json.object());
        JsonNode noText = rpc(fixture.dana, "message/send", Json.object());
        ServerFixture.Answer wrongKey = fixture.post(
                "a2a/memo",
                "weft_nope",
                Json.write(Json.object().put("jsonrpc", "2.0").put("id", 1).put("method", "tasks/get")));

        assertThat(notJson.body().path("error").path("code").asInt()).isEqualTo(-32700);
        assertThat(notRpc.body().path("error").path("code").asInt()).isEqualTo(-32600);
        assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32601);
        assertThat(noText.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(wrongKey.status()).isEqualTo(401);
        assertThat(fixture.get("api/runs", fixture.dana).body().path("runs")).isEmpty();
    }

    /** A 1.0 request ({@code A2A-Version: 1.0}) and its answer. */
    private JsonNode rpcV1(String key, String method, ObjectNode params) {
        ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", 9).put("method", method);
        request.set("params", params);
        ServerFixture.Answer answer = fixture.send(fixture.request("a2a/memo", Optional.of(key))
                .header("Content-Type", "application/json")
                .header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(request)))
                .build());
        assertThat(answer.status()).as(answer.raw().body()).isEqualTo(200);
        return answer.body();
    }

    private static ObjectNode sendV1(String text) {
        ObjectNode message =
                Json.object().put("messageId", "m1-" + text.hashCode()).put("role", "ROLE_USER");
        message.putArray("parts").addObject().put("text", text);
        ObjectNode params = Json.object();
        params.set("message", message);
        return params;
    }

    @Test
    void theCardOffersTheSameEndpointToA10AndA03Client() {
        JsonNode card = fixture.get("a2a/memo/.well-known/agent-card.json", Optional.empty())
                .body();
        String endpoint = fixture.base.resolve("a2a/memo").toString();

        assertThat(card.path("supportedInterfaces"))
                .extracting(i ->
                        i.path("url").asText() + " " + i.path("protocolBinding").asText() + " "
                                + i.path("protocolVersion").asText())
                .containsExactly(endpoint + " JSONRPC 1.0", endpoint + " JSONRPC 0.3.0");
        assertThat(card.path("url").asText()).isEqualTo(endpoint);
        assertThat(card.path("protocolVersion").asText()).isEqualTo("0.3.0");
        assertThat(card.path("securityRequirements").get(0).path("schemes").has("bearer"))
                .isTrue();
    }

    @Test
    void aClientAskingFor10GetsTheCardIn10sShapeItsBearerSchemeAsTheProtocolsOneof() {
        String endpoint = fixture.base.resolve("a2a/memo").toString();
        ServerFixture.Answer v1 = fixture.send(fixture.request("a2a/memo/.well-known/agent-card.json", Optional.empty())
                .header("A2A-Version", "1.0")
                .GET()
                .build());
        JsonNode legacy = fixture.get("a2a/memo/.well-known/agent-card.json", Optional.empty())
                .body();

        JsonNode card = v1.body();
        assertThat(v1.raw().headers().firstValue("Vary")).hasValue("A2A-Version");
        JsonNode bearer = card.path("securitySchemes").path("bearer");
        assertThat(bearer.path("httpAuthSecurityScheme").path("scheme").asText())
                .isEqualTo("Bearer");
        assertThat(bearer.path("httpAuthSecurityScheme").path("description").asText())
                .contains("weft keys create");
        assertThat(bearer.has("type")).isFalse();
        assertThat(card.path("securityRequirements")
                        .get(0)
                        .path("schemes")
                        .path("bearer")
                        .path("list")
                        .isArray())
                .isTrue();
        assertThat(card.path("supportedInterfaces").get(0).path("url").asText()).isEqualTo(endpoint);
        assertThat(card.path("supportedInterfaces")
                        .get(0)
                        .path("protocolVersion")
                        .asText())
                .isEqualTo("1.0");
        assertThat(card.path("skills")).isNotEmpty();
        assertThat(card.path("capabilities").path("streaming").asBoolean()).isTrue();
        assertThat(card.has("url") || card.has("protocolVersion") || card.has("security"))
                .as("0.3's fields are not on 1.0's card: %s", card)
                .isFalse();
        // A client without the header is a 0.3 client, and keeps 0.3's card.
        assertThat(legacy.path("securitySchemes").path("bearer").path("type").asText())
                .isEqualTo("http");
        assertThat(legacy.path("securitySchemes").path("bearer").path("scheme").asText())
                .isEqualTo("bearer");
        assertThat(legacy.path("security").get(0).has("bearer")).isTrue();
    }

    @Test
    void a10SendMessageAnswersInTheShapesOf10AndAWaitingTaskIsAnsweredByItsNextMessage() {
        JsonNode asked = rpcV1(fixture.dana, "SendMessage", sendV1("delete all my reminders"))
                .path("result");
        String taskId = asked.path("task").path("id").asText();
        ObjectNode yes = sendV1("yes");
        ((ObjectNode) yes.path("message")).put("taskId", taskId);

        JsonNode approved = rpcV1(fixture.dana, "SendMessage", yes).path("result");
        JsonNode got = rpcV1(fixture.dana, "GetTask", Json.object().put("id", taskId));

        assertThat(asked.path("task").path("status").path("state").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        JsonNode question = asked.path("task").path("status").path("message");
        assertThat(question.path("role").asText()).isEqualTo("ROLE_AGENT");
        assertThat(question.path("parts").get(0).has("kind")).isFalse();
        assertThat(question.path("parts").get(0).path("text").asText()).isNotBlank();
        assertThat(asked.path("task").has("kind")).isFalse();
        assertThat(approved.path("task").path("id").asText()).isEqualTo(taskId);
        assertThat(approved.path("task").path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(got.path("result").path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(got.path("result").path("history"))
                .extracting(m -> m.path("role").asText())
                .containsExactly("ROLE_USER", "ROLE_AGENT", "ROLE_USER", "ROLE_AGENT");
        assertThat(got.path("result")
                        .path("artifacts")
                        .get(0)
                        .path("parts")
                        .get(0)
                        .has("text"))
                .isTrue();
    }

    @Test
    void a10CallForAnotherUsersTaskIsNotFoundAndCancelTaskEndsAWaitingOne() {
        String taskId = rpcV1(fixture.dana, "SendMessage", sendV1("delete all my reminders"))
                .path("result")
                .path("task")
                .path("id")
                .asText();

        JsonNode omers = rpcV1(fixture.omer, "CancelTask", Json.object().put("id", taskId));
        JsonNode cancelled = rpcV1(fixture.dana, "CancelTask", Json.object().put("id", taskId));

        assertThat(omers.path("error").path("code").asInt()).isEqualTo(-32001);
        assertThat(cancelled.path("result").path("status").path("state").asText())
                .isEqualTo("TASK_STATE_CANCELED");
    }

    @Test
    void aMessagePartWithNothingInItIsRefusedAndStartsNoTask() {
        ObjectNode params = sendV1("ignored");
        ((ObjectNode) params.path("message")).putArray("parts").addObject().put("mediaType", "text/plain");

        JsonNode refused = rpcV1(fixture.dana, "SendMessage", params);

        assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(refused.path("error").path("message").asText()).contains("\"text\"");
        assertThat(fixture.get("api/runs", fixture.dana).body().path("runs")).isEmpty();
    }

    @Test
    void anA2aVersionThatIsNotServedIsRefusedWithVersionNotSupported() {
        ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", 3).put("method", "SendMessage");
        request.set("params", sendV1("remind me tomorrow at 9 to call the bank"));

        ServerFixture.Answer answer = fixture.send(fixture.request("a2a/memo", Optional.of(fixture.dana))
                .header("Content-Type", "application/json")
                .header("A2A-Version", "2.0")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(request)))
                .build());

        assertThat(answer.body().path("error").path("code").asInt()).isEqualTo(-32009);
        assertThat(answer.body().path("error").path("message").asText()).contains("1.0 and 0.3");
        assertThat(answer.body().path("id").asInt()).isEqualTo(3);
        assertThat(answer.body().path("error").path("data").path("code").asText())
                .isEqualTo("E_BAD_INPUT");
        assertThat(fixture.get("api/runs", fixture.dana).body().path("runs")).isEmpty();
    }

    @Test
    void a10StreamSendsTheTaskThenItsStatusUpdatesEachWrappedAsIn10() {
        ObjectNode request = Json.object().put("jsonrpc", "2.0").put("id", 5).put("method", "SendStreamingMessage");
        request.set("params", sendV1("remind me tomorrow at 9 to call the bank"));

        String stream = fixture.raw(fixture.request("a2a/memo", Optional.of(fixture.dana))
                        .header("Content-Type", "application/json")
                        .header("Accept", "text/event-stream")
                        .header("A2A-Version", "1.0")
                        .POST(HttpRequest.BodyPublishers.ofString(Json.write(request)))
                        .build())
                .body();
        List<JsonNode> events = stream.lines()
                .filter(l -> l.startsWith("data:"))
                .map(l -> Json.parse(l.substring("data:".length()).strip(), "event"))
                .toList();

        assertThat(events).allSatisfy(e -> assertThat(e.path("id").asInt()).isEqualTo(5));
        assertThat(events.getFirst()
                        .path("result")
                        .path("task")
                        .path("status")
                        .path("state")
                        .asText())
                .isEqualTo("TASK_STATE_WORKING");
        JsonNode last = events.getLast().path("result").path("statusUpdate");
        assertThat(last.path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(last.has("final")).as("1.0 ends a stream by closing it").isFalse();
        assertThat(last.has("kind")).isFalse();
    }

    @Test
    void aTaskStartedIn03IsAnsweredIn10AndReadBackIn03() {
        String taskId = rpc(fixture.dana, "message/send", send("delete all my reminders"))
                .path("result")
                .path("id")
                .asText();
        ObjectNode yes = sendV1("yes");
        ((ObjectNode) yes.path("message")).put("taskId", taskId);

        JsonNode approved = rpcV1(fixture.dana, "SendMessage", yes).path("result");
        JsonNode got = rpc(fixture.dana, "tasks/get", Json.object().put("id", taskId));

        assertThat(approved.path("task").path("id").asText()).isEqualTo(taskId);
        assertThat(approved.path("task").path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(got.path("result").path("kind").asText()).isEqualTo("task");
        assertThat(got.path("result").path("status").path("state").asText()).isEqualTo("completed");
    }
}
