package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.memo.Memo;
import dev.weft.workflow.A2aAgents;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person asks Memo on one Weft server ({@code POST /api/assistants/memo/messages}) to ask a remote
 * agent they configured: the remote is Memo on a second Weft server, reached over A2A with omer's key
 * (the setting {@code HELPER_KEY}). The message waits for the person's yes (the agent's risk is high by
 * default), the remote's answer comes back in the reply, and a question the remote asks back becomes
 * Memo's question, the person's answer going on the same remote task.
 */
final class AskingARemoteAgentTest {
    @TempDir
    Path dir;

    private ServerFixture remote;
    private ServerFixture local;

    @BeforeEach
    void start() {
        remote = new ServerFixture(dir.resolve("remote"));
        A2aAgents agents = new A2aAgents(List.of(A2aAgents.entry(
                "helper",
                remote.base.resolve("a2a/memo").toString(),
                Optional.of("HELPER_KEY"),
                Optional.empty(),
                List.of("remote memo", "העוזר"))));
        Map<String, String> settings = Map.of("HELPER_KEY", remote.omer);
        local = new ServerFixture(
                dir.resolve("local"),
                (builder, store) -> builder.assistants(ServerFixture.memo(
                        Memo.open(store).withAgents(agents, name -> Optional.ofNullable(settings.get(name))))));
    }

    @AfterEach
    void stop() {
        local.close();
        remote.close();
    }

    private JsonNode say(String text) {
        ServerFixture.Answer answer = local.post(
                "api/assistants/memo/messages",
                local.dana,
                Json.object().put("text", text).toString());
        assertThat(answer.status()).as("%s", answer.body()).isEqualTo(200);
        return answer.body();
    }

    private String omersReminders() {
        return remote.get("api/memo/reminders", remote.omer).body().toString();
    }

    @Test
    void askingTheConfiguredAgentWaitsForAYesThenRepliesWithItsAnswer() {
        JsonNode asked = say("ask the remote memo to remind me tomorrow at 9 to call the bank");

        assertThat(asked.path("status").asText()).isEqualTo("WAITING");
        assertThat(asked.path("reply").asText())
                .as("the question names the agent and the words it will be sent")
                .contains("This will ask helper: \"")
                .contains("call the bank\". Shall I go ahead?");
        assertThat(omersReminders()).as("nothing is sent before the yes").doesNotContain("call the bank");

        JsonNode done = say("yes");

        assertThat(done.path("status").asText()).as("%s", done).isEqualTo("COMPLETED");
        assertThat(done.path("reply").asText()).contains("helper: I'll remind you: \"call the bank\"");
        assertThat(omersReminders()).contains("call the bank");
        assertThat(local.get("api/memo/reminders", local.dana).body().toString())
                .as("the remote agent did it, not the local Memo")
                .doesNotContain("call the bank");
    }

    @Test
    void theRemoteAgentsQuestionBecomesMemosAndTheAnswerGoesToTheSameTask() {
        say("ask helper to remind me on Friday at 10 to water the plants");
        say("yes");
        assertThat(omersReminders()).contains("water the plants");

        say("תגיד לעוזר delete all my reminders");
        JsonNode question = say("yes");

        assertThat(question.path("status").asText()).as("%s", question).isEqualTo("WAITING");
        assertThat(question.path("reply").asText()).contains("helper asks:").contains("Shall I go ahead?");
        assertThat(omersReminders()).as("the remote waits too").contains("water the plants");

        JsonNode done = say("yes");

        assertThat(done.path("status").asText()).as("%s", done).isEqualTo("COMPLETED");
        assertThat(done.path("reply").asText()).contains("helper: Deleted 1");
        assertThat(omersReminders()).doesNotContain("water the plants");
    }

    @Test
    void anAgentNobodyConfiguredGetsNoStepAndNothingIsSent() {
        JsonNode reply = say("ask the plumber to remind me tomorrow at 9 to call the bank");

        assertThat(reply.toString()).doesNotContain("a2a.send");
        assertThat(omersReminders()).doesNotContain("call the bank");
    }
}
