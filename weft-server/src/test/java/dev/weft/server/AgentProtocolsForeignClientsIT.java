package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The protocols clients and agents speak now, called by clients nobody here wrote, run as processes:
 * the official OpenAI client from npm against {@code /v1/responses}, and the A2A JavaScript SDK against
 * the assistants' A2A endpoints, both its 0.3 line (protocol 0.3) and its current line with default
 * options (protocol 1.0), at the same endpoints.
 */
final class AgentProtocolsForeignClientsIT {
    @TempDir
    Path dir;

    private ServerFixture fixture;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(
                dir,
                (builder, store) -> builder.assistants(Assistants.openAll(AssistantEnvironment.offline(store, dir))));
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void theOpenAiNpmClientHoldsAConversationOverTheResponsesApiPlainStreamedAndContinued() {
        JsonNode out = ExternalClients.openAiResponses(fixture.base, fixture.dana, fixture.omer, "memo");

        assertThat(out.path("error").isMissingNode()).as("%s", out).isTrue();
        assertThat(out.path("plain").path("status").asText()).isEqualTo("completed");
        assertThat(out.path("plain").path("text").asText()).startsWith("I'll remind you: \"call the bank\"");
        assertThat(out.path("plain").path("instructions").asText()).isEqualTo("Be brief.");
        assertThat(out.path("plain").path("usage").path("total_tokens").isNumber())
                .isTrue();
        List<String> types = new ArrayList<>();
        out.path("stream").path("types").forEach(t -> types.add(t.asText()));
        assertThat(types)
                .startsWith("response.created", "response.in_progress", "response.output_item.added")
                .contains("response.content_part.added", "response.output_text.delta", "response.output_text.done")
                .endsWith("response.content_part.done", "response.output_item.done", "response.completed");
        List<Integer> sequence = new ArrayList<>();
        out.path("stream").path("sequence").forEach(n -> sequence.add(n.asInt()));
        assertThat(sequence).isSorted().doesNotHaveDuplicates().startsWith(0);
        assertThat(out.path("stream").path("deltas").asText())
                .isEqualTo(out.path("stream").path("text").asText())
                .isNotBlank();
        assertThat(out.path("stream").path("weft").path("status").asText()).isEqualTo("WAITING");
        assertThat(out.path("yes").path("previous").asText())
                .isEqualTo(out.path("stream").path("id").asText());
        assertThat(out.path("yes").path("weft").path("status").asText()).isEqualTo("COMPLETED");
        assertThat(out.path("yes").path("weft").path("runId").asText())
                .isEqualTo(out.path("stream").path("weft").path("runId").asText());
        assertThat(out.path("retrieved").path("text").asText())
                .isEqualTo(out.path("plain").path("text").asText());
        assertThat(out.path("otherUser").path("status").asInt()).isEqualTo(404);
        assertThat(out.path("otherUser").path("name").asText()).isEqualTo("NotFoundError");
        assertThat(out.path("wrongKey").path("status").asInt()).isEqualTo(401);
        assertThat(out.path("wrongKey").path("name").asText()).isEqualTo("AuthenticationError");
    }

    @Test
    void theA2aJavaScriptSdkTalksToTheAssistantsAsAgents() {
        JsonNode out = ExternalClients.a2aNode(fixture.base, fixture.dana, fixture.omer);

        assertThat(out.path("error").isMissingNode()).as("%s", out).isTrue();
        JsonNode card = out.path("card");
        assertThat(card.path("name").asText()).isEqualTo("memo");
        assertThat(card.path("url").asText())
                .isEqualTo(fixture.base.resolve("a2a/memo").toString());
        assertThat(card.path("protocolVersion").asText()).isEqualTo("0.3.0");
        assertThat(card.path("streaming").asBoolean()).isTrue();
        assertThat(card.path("skills")).isNotEmpty();
        assertThat(card.path("securitySchemes").path("bearer").path("scheme").asText())
                .isEqualTo("bearer");
        assertThat(out.path("sent").path("kind").asText()).isEqualTo("task");
        assertThat(out.path("sent").path("state").asText()).isEqualTo("completed");
        assertThat(out.path("sent").path("text").asText()).startsWith("I'll remind you: \"call the bank\"");
        assertThat(out.path("stream").path("events").get(0).asText()).isEqualTo("task");
        assertThat(out.path("stream").path("state").asText()).isEqualTo("completed");
        assertThat(out.path("stream").path("text").asText()).contains("call the bank");
        assertThat(out.path("approval").path("asked").asText()).isEqualTo("input-required");
        assertThat(out.path("approval").path("sameTask").asBoolean()).isTrue();
        assertThat(out.path("approval").path("approved").asText()).isEqualTo("completed");
        assertThat(out.path("cancel").path("waiting").asText()).isEqualTo("input-required");
        assertThat(out.path("cancel").path("cancelled").asText()).isEqualTo("canceled");
        assertThat(out.path("cancel").path("afterCancel").asText()).isEqualTo("canceled");
        assertThat(out.path("wrongKey").path("message").asText()).contains("401");
        assertThat(out.path("otherUser").path("code").asInt()).isEqualTo(-32001);
        assertThat(out.path("concierge").path("name").asText()).isEqualTo("concierge");
        assertThat(out.path("concierge").path("url").asText())
                .isEqualTo(fixture.base.resolve("a2a/concierge").toString());
    }

    @Test
    void theCurrentA2aJavaScriptSdkWithDefaultOptionsTalksA2a10ToTheSameAgents() {
        JsonNode out = ExternalClients.a2aNodeV1(fixture.base, fixture.dana, fixture.omer);

        assertThat(out.path("error").isMissingNode()).as("%s", out).isTrue();
        String endpoint = fixture.base.resolve("a2a/memo").toString();
        JsonNode card = out.path("card");
        assertThat(card.path("name").asText()).isEqualTo("memo");
        assertThat(card.path("interfaces").get(0).path("url").asText()).isEqualTo(endpoint);
        assertThat(card.path("interfaces").get(0).path("protocolVersion").asText())
                .isEqualTo("1.0");
        assertThat(card.path("protocolVersion").asText())
                .as("the version the client chose")
                .isEqualTo("1.0");
        assertThat(card.path("streaming").asBoolean()).isTrue();
        assertThat(card.path("skills")).isNotEmpty();
        // The SDK read the 1.0 card's scheme as the protocol's oneof, not 0.3's "type".
        JsonNode bearer = card.path("securitySchemes").path("bearer").path("scheme");
        assertThat(bearer.path("$case").asText()).as("%s", card).isEqualTo("httpAuthSecurityScheme");
        assertThat(bearer.path("value").path("scheme").asText()).isEqualTo("Bearer");
        assertThat(card.path("securityRequirements").get(0).path("schemes").has("bearer"))
                .isTrue();
        List<String> methods = new ArrayList<>();
        out.path("methods").forEach(m -> methods.add(m.asText()));
        assertThat(methods).containsExactlyInAnyOrder("SendMessage", "SendStreamingMessage", "GetTask", "CancelTask");
        assertThat(out.path("versions")).containsExactly(TextNode.valueOf("1.0"));
        assertThat(out.path("sent").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(out.path("sent").path("text").asText()).startsWith("I'll remind you: \"call the bank\"");
        assertThat(out.path("stream").path("events").get(0).asText()).isEqualTo("task");
        assertThat(out.path("stream").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(out.path("stream").path("text").asText()).contains("call the bank");
        assertThat(out.path("approval").path("asked").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        assertThat(out.path("approval").path("askedText").asText()).contains("Shall I go ahead?");
        assertThat(out.path("approval").path("sameTask").asBoolean()).isTrue();
        assertThat(out.path("approval").path("approved").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(out.path("approval").path("approvedText").asText()).startsWith("Deleted 1");
        assertThat(out.path("approval").path("got").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(out.path("approval").path("history").asInt())
                .as("two messages asked and answered, two agreed and done")
                .isEqualTo(4);
        assertThat(out.path("cancel").path("waiting").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        assertThat(out.path("cancel").path("cancelled").asText()).isEqualTo("TASK_STATE_CANCELED");
        assertThat(out.path("cancel").path("afterCancel").asText()).isEqualTo("TASK_STATE_CANCELED");
        assertThat(out.path("wrongKey").path("message").asText()).contains("401");
        assertThat(out.path("otherUser").path("name").asText()).isEqualTo("JsonRpcTaskNotFoundError");
        assertThat(out.path("otherUser").path("code").asInt()).isEqualTo(-32001);
        assertThat(out.path("concierge").path("name").asText()).isEqualTo("concierge");
        assertThat(out.path("concierge").path("url").asText())
                .isEqualTo(fixture.base.resolve("a2a/concierge").toString());
    }
}
