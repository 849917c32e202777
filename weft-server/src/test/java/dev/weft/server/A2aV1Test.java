package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import io.a2a.spec.InvalidParamsError;
import org.junit.jupiter.api.Test;

/** A2A 1.0's wire shapes to and from 0.3's, part by part. */
final class A2aV1Test {
    @Test
    void aMessageOf10BecomesA03MessageWithEveryKindOfPart() {
        JsonNode params = Json.parse("""
                {"message": {"messageId": "m1", "taskId": "t1", "role": "ROLE_USER", "parts": [
                  {"text": "hi"},
                  {"data": {"a": 1}},
                  {"url": "https://example.org/f.pdf", "mediaType": "application/pdf", "filename": "f.pdf"},
                  {"raw": "aGk=", "mediaType": "text/plain"}]},
                 "configuration": {"historyLength": 2, "returnImmediately": true}}
                """, "params");

        JsonNode legacy = A2aV1.sendParams(params);

        JsonNode message = legacy.path("message");
        assertThat(message.path("kind").asText()).isEqualTo("message");
        assertThat(message.path("role").asText()).isEqualTo("user");
        assertThat(message.path("taskId").asText()).isEqualTo("t1");
        assertThat(message.path("parts"))
                .extracting(p -> p.path("kind").asText())
                .containsExactly("text", "data", "file", "file");
        assertThat(message.path("parts").get(2).path("file").path("uri").asText())
                .isEqualTo("https://example.org/f.pdf");
        assertThat(message.path("parts").get(2).path("file").path("mimeType").asText())
                .isEqualTo("application/pdf");
        assertThat(message.path("parts").get(3).path("file").path("bytes").asText())
                .isEqualTo("aGk=");
        assertThat(legacy.path("configuration").path("historyLength").asInt()).isEqualTo(2);
        assertThat(legacy.path("configuration").has("returnImmediately")).isFalse();
    }

    @Test
    void aRoleThat10DoesNotKnowIsRefused() {
        JsonNode params = Json.parse(
                "{\"message\": {\"messageId\": \"m1\", \"role\": \"ROLE_ROBOT\", \"parts\": [{\"text\": \"hi\"}]}}",
                "params");

        assertThatThrownBy(() -> A2aV1.sendParams(params))
                .isInstanceOf(InvalidParamsError.class)
                .hasMessageContaining("ROLE_ROBOT");
    }

    @Test
    void a03TaskBecomesA10TaskWithoutKindsAndWithProtoJsonEnums() {
        JsonNode task = Json.parse("""
                {"kind": "task", "id": "t1", "contextId": "c1",
                 "status": {"state": "input-required", "message": {"kind": "message", "messageId": "m2",
                   "role": "agent", "parts": [{"kind": "text", "text": "Shall I?"}]}},
                 "artifacts": [{"artifactId": "reply", "parts": [{"kind": "file",
                   "file": {"uri": "https://example.org/r", "mimeType": "text/plain", "name": "r.txt"}}]}]}
                """, "task");

        JsonNode wrapped = A2aV1.wrapped(task);

        JsonNode out = wrapped.path("task");
        assertThat(out.has("kind")).isFalse();
        assertThat(out.path("status").path("state").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        assertThat(out.path("status").path("message").path("role").asText()).isEqualTo("ROLE_AGENT");
        assertThat(out.path("status").path("message").path("parts").get(0).toString())
                .isEqualTo("{\"text\":\"Shall I?\"}");
        assertThat(out.path("artifacts").get(0).path("parts").get(0).toString())
                .isEqualTo("{\"url\":\"https://example.org/r\",\"mediaType\":\"text/plain\",\"filename\":\"r.txt\"}");
    }

    @Test
    void everyTaskStateOf03HasItsNameIn10() {
        assertThat(A2aV1.state("submitted")).isEqualTo("TASK_STATE_SUBMITTED");
        assertThat(A2aV1.state("working")).isEqualTo("TASK_STATE_WORKING");
        assertThat(A2aV1.state("input-required")).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        assertThat(A2aV1.state("completed")).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(A2aV1.state("canceled")).isEqualTo("TASK_STATE_CANCELED");
        assertThat(A2aV1.state("failed")).isEqualTo("TASK_STATE_FAILED");
        assertThat(A2aV1.state("auth-required")).isEqualTo("TASK_STATE_AUTH_REQUIRED");
        assertThat(A2aV1.state("unknown")).isEqualTo("TASK_STATE_UNSPECIFIED");
    }
}
