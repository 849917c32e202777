package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.nio.file.Path;
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
}
