package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
 * the assistants' A2A endpoints.
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
}
