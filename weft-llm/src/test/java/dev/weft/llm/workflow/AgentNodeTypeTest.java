package dev.weft.llm.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.core.WeftException;
import dev.weft.llm.FakeTime;
import dev.weft.llm.ModelNodes;
import dev.weft.llm.ModelSettings;
import dev.weft.llm.Models;
import dev.weft.llm.OfflineModel;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.llm.test.FakeModelServer.Reply;
import dev.weft.workflow.NodeTypes;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowParser;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class AgentNodeTypeTest {
    private static final Path EXAMPLE = Path.of("../examples/agent/summarise.json");

    @TempDir
    Path home;

    private final FakeModelServer server = FakeModelServer.start();
    private final Runner runner = Runner.builder().time(new FakeTime()).build();

    @AfterEach
    void stopServer() {
        server.close();
    }

    private Models openAi() {
        return Models.resolve(
                ModelSettings.flags("openai:gpt-4o-mini", server.openAiBaseUrl()),
                Map.of("OPENAI_API_KEY", "sk-test", "WEFT_HOME", home.toString()));
    }

    private NodeTypes types(Models models) {
        return NodeTypes.standard().with(AgentNodeType.create(models));
    }

    private Workflow compile(String json, Models models) {
        return Workflow.compile(WorkflowParser.parse(json, "wf.json"), types(models));
    }

    private static String agentWorkflow(String config) {
        return """
                {"id": "wf", "nodes": [
                  {"id": "in", "type": "trigger"},
                  {"id": "ask", "type": "agent", "config": %s}],
                 "connections": [{"source": "in", "target": "ask"}]}
                """.formatted(config);
    }

    private static Step step(RunResult result, String nodeId) {
        return result.steps().stream()
                .filter(s -> s.nodeId().equals(nodeId))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theSummariseExampleRunsAgainstAProviderAndRecordsThePromptTokensAndTiming() {
        server.enqueue(Reply.text("{\"summary\": \"The checkout page fails for every customer.\", \"urgent\": true}")
                .withUsage(210, 18, 128));
        Workflow workflow = Workflow.compile(WorkflowParser.read(EXAMPLE), types(openAi()));

        RunResult result = runner.run(
                workflow.graph(),
                RunRequest.of(Json.parse(
                        "{\"from\": \"dana@example.com\", \"text\": \"Nobody can pay since 9am!\"}", "input")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.output())
                .isEqualTo(Json.parse(
                        "{\"action\": \"page on-call\", \"summary\": \"The checkout page fails for every customer.\"}",
                        "o"));
        Step agent = step(result, "summarise");
        assertThat(agent.type()).isEqualTo("agent");
        assertThat(agent.details().get("prompt").get("system").asText())
                .startsWith("You summarise customer messages")
                .contains("in a plain tone");
        assertThat(agent.details().get("prompt").get("user").asText())
                .isEqualTo("Message from dana@example.com:\nNobody can pay since 9am!");
        assertThat(agent.details().get("tokens"))
                .isEqualTo(Json.parse("{\"input\":210,\"output\":18,\"cached\":128}", "t"));
        assertThat(agent.details().get("model").asText()).isEqualTo("openai:gpt-4o-mini");
        assertThat(agent.details()).containsKeys("latencyMs", "attempts", "repaired");
        JsonNode sent = server.lastRequest().body();
        assertThat(sent.get("response_format").get("json_schema").get("schema").get("required"))
                .isEqualTo(Json.parse("[\"summary\", \"urgent\"]", "r"));
        assertThat(runner.store().events(result.runId())).anyMatch(e -> e.type().equals(ModelNodes.DELTA_EVENT));
    }

    @Test
    void withoutASchemaTheOutputIsTheReplyText() {
        server.enqueue(Reply.text("Hello, Dana."));
        Workflow workflow = compile(agentWorkflow("{\"prompt\": {\"user\": \"Greet {{input.name}}\"}}"), openAi());

        RunResult result = runner.run(workflow.graph(), RunRequest.of(Json.parse("{\"name\": \"Dana\"}", "in")));

        assertThat(result.output()).isEqualTo(Json.parse("{\"text\": \"Hello, Dana.\"}", "o"));
        assertThat(server.lastRequest().body().get("messages")).hasSize(1);
    }

    @Test
    void aNodesModelOverridesTheConfiguredOne() {
        server.enqueue(Reply.text("ok"));
        Workflow workflow =
                compile(agentWorkflow("{\"prompt\": {\"user\": \"hi\"}, \"model\": \"openai:gpt-4.1\"}"), openAi());

        RunResult result = runner.run(workflow.graph(), RunRequest.of(Json.object()));

        assertThat(server.lastRequest().body().get("model").asText()).isEqualTo("gpt-4.1");
        assertThat(step(result, "ask").details().get("model").asText()).isEqualTo("openai:gpt-4.1");
    }

    @Test
    void anOverrideWhoseProviderHasNoKeyFailsWhenTheWorkflowCompiles() {
        assertThatThrownBy(() -> compile(
                        agentWorkflow("{\"prompt\": {\"user\": \"hi\"}, \"model\": \"anthropic:claude-haiku-4-5\"}"),
                        openAi()))
                .isInstanceOfSatisfying(
                        WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_MODEL_UNAVAILABLE))
                .hasMessageContaining("node 'ask'")
                .hasMessageContaining("ANTHROPIC_API_KEY");
    }

    @Test
    void aMalformedModelIsAGraphError() {
        assertThatThrownBy(() ->
                        compile(agentWorkflow("{\"prompt\": {\"user\": \"hi\"}, \"model\": \"gpt-4o\"}"), openAi()))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("node 'ask': config.model")
                .hasMessageContaining("must be provider:model");
    }

    @Test
    void badConfigurationIsAGraphErrorNamingTheField() {
        assertThatThrownBy(() -> compile(agentWorkflow("{\"schema\": {}}"), openAi()))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("config.prompt is missing");
        assertThatThrownBy(() -> compile(agentWorkflow("{\"prompt\": {\"usr\": \"hi\"}}"), openAi()))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("config.prompt.usr is not a prompt part");
        assertThatThrownBy(() -> compile(agentWorkflow("{\"prompt\": {\"user\": \"{{#x}}\"}}"), openAi()))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("config.prompt");
        assertThatThrownBy(() -> compile(agentWorkflow("{\"prompt\": {\"user\": \"hi\"}, \"schema\": [1]}"), openAi()))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("config.schema must be a JSON Schema object");
        assertThatThrownBy(
                        () -> compile(agentWorkflow("{\"prompt\": {\"user\": \"hi\"}, \"temperature\": 1}"), openAi()))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("config.temperature is not a setting of type 'agent'");
    }

    @Test
    void runsOfflineWithTheRulesGiven() {
        Models offline = Models.resolve(ModelSettings.flags(null, null), Map.of("WEFT_HOME", home.toString()))
                .withOffline(OfflineModel.builder()
                        .rule(OfflineModel.Rule.text(r -> Optional.of("{\"summary\": \"offline\", \"urgent\": false}")))
                        .build());
        Workflow workflow = Workflow.compile(WorkflowParser.read(EXAMPLE), types(offline));

        RunResult result =
                runner.run(workflow.graph(), RunRequest.of(Json.parse("{\"from\": \"a\", \"text\": \"b\"}", "in")));

        assertThat(result.output()).isEqualTo(Json.parse("{\"action\": \"queue\", \"summary\": \"offline\"}", "o"));
        assertThat(step(result, "summarise").details().get("model").asText()).isEqualTo("offline:rules");
    }
}
