package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.workflow.A2aNodeType;
import dev.weft.workflow.NodeTypes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The other way: a workflow's {@code a2a} node asks a remote A2A agent — here Memo, served as an agent by
 * a real server on an ephemeral port, reached over HTTP with the token its node names.
 */
final class A2aWorkflowNodeTest {
    @TempDir
    Path dir;

    private final Map<String, String> settings = new ConcurrentHashMap<>();
    private ServerFixture fixture;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(
                dir,
                builder -> builder.nodeTypes(NodeTypes.standard()
                        .with(A2aNodeType.create(
                                name -> Optional.ofNullable(settings.get(name)), Duration.ofSeconds(30)))));
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private String workflow(String agent) {
        return """
                {"id": "ask-memo",
                 "nodes": [{"id": "in", "type": "trigger"},
                           {"id": "ask", "type": "a2a",
                            "config": {"agent": "%s", "message": "'remind me tomorrow at 9 to ' + input.todo",
                                       "tokenEnv": "MEMO_A2A_TOKEN"}}],
                 "connections": [{"source": "in", "target": "ask"}]}
                """.formatted(agent);
    }

    @Test
    void anA2aNodeSendsItsMessageToTheAgentAndOutputsTheTasksAnswer() {
        settings.put("MEMO_A2A_TOKEN", fixture.omer);
        assertThat(fixture.post(
                                "api/workflows",
                                fixture.dana,
                                workflow(fixture.base.resolve("a2a/memo").toString()))
                        .status())
                .isEqualTo(201);

        JsonNode run = fixture.post(
                        "api/workflows/ask-memo/runs", fixture.dana, "{\"input\": {\"todo\": \"call the bank\"}}")
                .body();

        assertThat(run.path("status").asText()).as("%s", run).isEqualTo("COMPLETED");
        JsonNode answer = run.path("outputs").path("ask");
        assertThat(answer.path("state").asText()).as("%s", run).isEqualTo("completed");
        assertThat(answer.path("text").asText()).startsWith("I'll remind you: \"call the bank\"");
        // The agent acted as the token's user, omer, not as the workflow's.
        assertThat(fixture.get("api/memo/reminders", fixture.omer).body().toString())
                .contains("call the bank");
        assertThat(fixture.get("api/memo/reminders", fixture.dana).body().toString())
                .doesNotContain("call the bank");
    }

    @Test
    void aWrongTokenFailsTheStepSayingSoAndNothingIsDone() {
        settings.put("MEMO_A2A_TOKEN", "weft_not-a-key");
        fixture.post(
                "api/workflows",
                fixture.dana,
                workflow(fixture.base.resolve("a2a/memo").toString()));

        JsonNode run = fixture.post(
                        "api/workflows/ask-memo/runs", fixture.dana, "{\"input\": {\"todo\": \"call the bank\"}}")
                .body();

        assertThat(run.path("status").asText()).as("%s", run).isEqualTo("FAILED");
        assertThat(run.toString()).contains("401", "tokenEnv");
    }

    @Test
    void anAgentThatIsNotAUrlIsRefusedWhenTheWorkflowIsUploaded() {
        ServerFixture.Answer upload = fixture.post("api/workflows", fixture.dana, workflow("memo"));

        assertThat(upload.status()).isEqualTo(400);
        assertThat(upload.code()).isEqualTo("E_GRAPH_INVALID");
        assertThat(upload.body().toString()).contains("agent");
    }
}
