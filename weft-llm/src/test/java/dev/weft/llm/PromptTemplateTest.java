package dev.weft.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.Runner;
import dev.weft.llm.internal.JsonExtraction;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class PromptTemplateTest {
    @Test
    void rendersPathsWithoutHtmlEscapingAndObjectsAsJson() {
        PromptTemplate template =
                PromptTemplate.of("Rules: {{vars.rules}}", "{{input.who}} said <{{input.text}}> {{input.meta}}");

        Prompt prompt = template.render(Map.of(
                "vars", Map.of("rules", "be kind & brief"),
                "input", Map.of("who", "Dana", "text", "a & b", "meta", Map.of("lang", "en"))));

        assertThat(prompt.system()).isEqualTo("Rules: be kind & brief");
        assertThat(prompt.user()).isEqualTo("Dana said <a & b> {\"lang\":\"en\"}");
    }

    @Test
    void rendersSectionsOverLists() {
        PromptTemplate template = PromptTemplate.user("{{#input.items}}- {{name}}\n{{/input.items}}");

        Prompt prompt =
                template.render(Map.of("input", Map.of("items", List.of(Map.of("name", "a"), Map.of("name", "b")))));

        assertThat(prompt.user()).isEqualTo("- a\n- b\n");
    }

    @Test
    void aMissingVariableFailsTheStepNamingTheNode() {
        Runner runner = Runner.create();
        var graph = dev.weft.core.Graph.builder("g")
                .node(ModelNodes.prompt("ask", PromptTemplate.user("Hello {{input.name}}")))
                .edge("START", "ask")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(Json.parse("{\"nom\": \"x\"}", "in")));

        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_NODE_FAILED);
        assertThat(result.error().orElseThrow().message())
                .contains("node 'ask'")
                .contains("prompt.user")
                .contains("name");
    }

    @Test
    void aTemplateThatDoesNotCompileFailsAtOnce() {
        assertThatThrownBy(() -> PromptTemplate.of("{{#open}}", "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("prompt.system does not compile");
    }

    @Test
    void extractsJsonFromTheWholeReplyAFenceOrProse() {
        assertThat(JsonExtraction.extract("{\"a\": 1}")).contains(Json.parse("{\"a\": 1}", "j"));
        assertThat(JsonExtraction.extract("```json\n[1, 2]\n```")).contains(Json.parse("[1, 2]", "j"));
        assertThat(JsonExtraction.extract("The answer is {\"a\": \"}\"} as asked."))
                .contains(Json.parse("{\"a\": \"}\"}", "j"));
        assertThat(JsonExtraction.extract("no json {here")).isEmpty();
        assertThat(JsonExtraction.extract("")).isEmpty();
    }
}
