package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.llm.ModelSettings;
import dev.weft.llm.Models;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.llm.workflow.AgentNodeType;
import dev.weft.workflow.NodeTypes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workflows with an {@code agent} node started over HTTP: the server rebuilds their graphs with the node
 * types it accepted them with, so they are approved, resumed and re-run like any other, by the server
 * that started them or another on the same store.
 */
final class AgentWorkflowsTest {
    /** A model's summary, then a person's approval, then the answer. */
    static final String WORKFLOW = """
            {"id": "triage", "nodes": [
              {"id": "in", "type": "trigger"},
              {"id": "summarise", "type": "agent", "config": {
                "prompt": {"system": "Summarise the customer's message in one sentence.", "user": "{{input.text}}"},
                "schema": {"type": "object", "properties": {"summary": {"type": "string"}},
                           "required": ["summary"], "additionalProperties": false}}},
              {"id": "check", "type": "approval", "config": {"message": "send this summary?"}},
              {"id": "send", "type": "transform", "config": {"output": {"sent": "nodes.summarise.summary"}}}],
             "connections": [
              {"source": "in", "target": "summarise"},
              {"source": "summarise", "target": "check"},
              {"source": "check", "target": "send"}]}
            """;

    @TempDir
    Path dir;

    private final FakeModelServer model = FakeModelServer.start();
    private ServerFixture fixture;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(dir, builder -> builder.nodeTypes(types()));
    }

    @AfterEach
    void stop() {
        fixture.close();
        model.close();
    }

    private NodeTypes types() {
        Models models = Models.resolve(
                ModelSettings.flags("openai:gpt-4o-mini", model.openAiBaseUrl()),
                Map.of("OPENAI_API_KEY", "sk-test", "WEFT_HOME", dir.toString()));
        return NodeTypes.standard().with(AgentNodeType.create(models));
    }

    private JsonNode startWaiting() {
        model.enqueue(FakeModelServer.Reply.text("{\"summary\": \"The checkout fails for every customer.\"}"));
        assertThat(fixture.post("api/workflows", fixture.dana, WORKFLOW).status())
                .isEqualTo(201);
        JsonNode run = fixture.post(
                        "api/workflows/triage/runs",
                        fixture.dana,
                        "{\"input\": {\"text\": \"Nobody can pay since this morning!\"}}")
                .body();
        assertThat(run.path("status").asText()).as("%s", run).isEqualTo("WAITING");
        return run;
    }

    @Test
    void anAgentWorkflowStartedOverHttpIsApprovedOverHttp() {
        String runId = startWaiting().path("runId").asText();

        ServerFixture.Answer approved = fixture.post("api/runs/" + runId + "/approve", fixture.dana, "{}");

        assertThat(approved.status()).as("%s", approved.body()).isEqualTo(200);
        assertThat(approved.body().path("status").asText()).isEqualTo("COMPLETED");
        assertThat(approved.body().path("outputs").path("send").path("sent").asText())
                .isEqualTo("The checkout fails for every customer.");
        assertThat(model.requests())
                .as("the agent's answer is kept, not asked again")
                .hasSize(1);
    }

    @Test
    void anotherServerOnTheSameStoreResumesItAndReRunsItWithTheAgentPinned() {
        String runId = startWaiting().path("runId").asText();
        fixture.server.close();

        try (WeftServer second = WeftServer.builder()
                .store(fixture.store)
                .nodeTypes(types())
                .port(0)
                .reminders(false)
                .recoveryInterval(Duration.ZERO)
                .webhookInterval(Duration.ZERO)
                .start()) {
            ServerFixture.Answer resumed =
                    fixture.send(fixture.request("api/runs/" + runId + "/resume", java.util.Optional.of(fixture.dana))
                            .uri(second.uri().resolve("api/runs/" + runId + "/resume"))
                            .header("Content-Type", "application/json")
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"input\": {\"by\": \"maya\"}}"))
                            .build());
            ServerFixture.Answer rerun =
                    fixture.send(fixture.request("api/runs/" + runId + "/rerun", java.util.Optional.of(fixture.dana))
                            .uri(second.uri().resolve("api/runs/" + runId + "/rerun"))
                            .header("Content-Type", "application/json")
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"pin\": [\"summarise\"]}"))
                            .build());

            assertThat(resumed.status()).as("%s", resumed.body()).isEqualTo(200);
            assertThat(resumed.body().path("status").asText()).isEqualTo("COMPLETED");
            assertThat(resumed.body().path("outputs").path("send").path("sent").asText())
                    .isEqualTo("The checkout fails for every customer.");
            assertThat(rerun.status()).as("%s", rerun.body()).isEqualTo(200);
            assertThat(rerun.body().path("status").asText()).isEqualTo("WAITING");
            assertThat(model.requests()).hasSize(1);
        }
    }

    @Test
    void aServerWithItsDefaultNodeTypesTakesAgentWorkflowsOnTheOfflineModel() throws java.io.IOException {
        try (ServerFixture plain = new ServerFixture(java.nio.file.Files.createDirectories(dir.resolve("plain")))) {
            ServerFixture.Answer created = plain.post("api/workflows", plain.dana, WORKFLOW);

            assertThat(created.status()).as("%s", created.body()).isEqualTo(201);
        }
    }
}
