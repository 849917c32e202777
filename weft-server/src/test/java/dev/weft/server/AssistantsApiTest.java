package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /api/assistants}: every assistant by name, through its interface, on the wire. */
final class AssistantsApiTest {
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

    private ServerFixture.Answer say(String key, String name, String body) {
        return fixture.post("api/assistants/" + name + "/messages", key, body);
    }

    @Test
    void theListNamesEveryAssistantWithItsTools() {
        JsonNode list = fixture.get("api/assistants", fixture.dana).body();

        assertThat(list.path("assistants"))
                .extracting(a -> a.path("name").asText())
                .contains("memo", "concierge");
        // The page opens on the user's own assistant: the one that serves no shop's customers.
        assertThat(list.path("assistants"))
                .extracting(a -> a.path("name").asText() + " "
                        + a.path("servesCustomers").asBoolean())
                .contains("memo false", "concierge true");
        assertThat(list.path("assistants").get(0).path("tools")).isNotEmpty();
        assertThat(list.path("assistants")
                        .get(0)
                        .path("tools")
                        .get(0)
                        .path("risk")
                        .asText())
                .isNotBlank();
    }

    @Test
    void eachAssistantAnswersItsMessageWithTheReplyItsRunItsStatusAndItsLanguage() {
        ServerFixture.Answer memo =
                say(fixture.dana, "memo", "{\"text\": \"remind me tomorrow at 9 to call the bank\"}");
        ServerFixture.Answer concierge =
                say(fixture.dana, "concierge", "{\"text\": \"מה שעות הפתיחה שלכם?\", \"session\": \"web-1\"}");

        assertThat(memo.status()).as(memo.raw().body()).isEqualTo(200);
        assertThat(memo.body().path("reply").asText()).startsWith("I'll remind you: \"call the bank\"");
        assertThat(memo.body().path("status").asText()).isEqualTo("COMPLETED");
        assertThat(memo.body().path("language").asText()).isEqualTo("en");
        assertThat(fixture.get("api/runs/" + memo.body().path("runId").asText(), fixture.dana)
                        .status())
                .isEqualTo(200);
        assertThat(concierge.status()).as(concierge.raw().body()).isEqualTo(200);
        assertThat(concierge.body().path("language").asText()).isEqualTo("he");
        assertThat(concierge.body().path("reply").asText()).isNotBlank();
    }

    @Test
    void aWaitingTurnIsContinuedByTheNextMessageOfItsConversation() {
        say(fixture.dana, "memo", "{\"text\": \"remind me tomorrow at 9 to call the bank\"}");
        JsonNode asked = say(fixture.dana, "memo", "{\"text\": \"delete all my reminders\"}")
                .body();
        JsonNode yes = say(fixture.dana, "memo", "{\"text\": \"yes\"}").body();

        assertThat(asked.path("status").asText()).isEqualTo("WAITING");
        assertThat(yes.path("runId").asText()).isEqualTo(asked.path("runId").asText());
        assertThat(yes.path("status").asText()).isEqualTo("COMPLETED");
    }

    @Test
    void badMessagesAreRefusedWithACodeAndStartNothing() {
        ServerFixture.Answer unknown = say(fixture.dana, "clippy", "{\"text\": \"hi\"}");
        ServerFixture.Answer empty = say(fixture.dana, "memo", "{\"text\": \"  \"}");
        ServerFixture.Answer unknownField = say(fixture.dana, "memo", "{\"txt\": \"hi\"}");
        ServerFixture.Answer both = say(fixture.dana, "memo", "{\"text\": \"hi\", \"message\": \"hi\"}");
        ServerFixture.Answer badZone = say(fixture.dana, "memo", "{\"text\": \"hi\", \"zone\": \"Mars/Olympus\"}");

        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body().path("error").path("message").asText()).contains("memo", "concierge");
        assertThat(empty.code()).isEqualTo("E_BAD_INPUT");
        assertThat(unknownField.code()).isEqualTo("E_BAD_INPUT");
        assertThat(both.code()).isEqualTo("E_BAD_INPUT");
        assertThat(badZone.code()).isEqualTo("E_BAD_INPUT");
        assertThat(fixture.get("api/runs", fixture.dana).body().path("runs")).isEmpty();
    }
}
