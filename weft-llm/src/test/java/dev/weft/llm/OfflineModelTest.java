package dev.weft.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class OfflineModelTest {
    private final Runner runner = Runner.builder().time(new FakeTime()).build();
    private final PromptTemplate template = PromptTemplate.of("You label tickets.", "{{input.text}}");

    @Test
    void answersWithTheFirstRuleThatGivesAnAnswer() {
        OfflineModel offline = OfflineModel.builder()
                .rule(OfflineModel.Rule.when(r -> OfflineModel.lastUserText(r).contains("fire"), "urgent"))
                .rule(OfflineModel.Rule.text(r -> Optional.of("normal")))
                .build();

        assertThat(offline.chat("the printer is on fire")).isEqualTo("urgent");
        assertThat(offline.chat("toner is low")).isEqualTo("normal");
    }

    @Test
    void runsAStructuredGraphDeterministically() {
        Model model = Model.offline(OfflineModel.builder()
                .rule(OfflineModel.Rule.text(r ->
                        Optional.of("{\"priority\": \"high\", \"reason\": \"" + OfflineModel.lastUserText(r) + "\"}")))
                .build());

        RunResult result = runner.run(
                ModelNodes.structuredGraph("g", template, model, ModelProviderContract.SCHEMA),
                RunRequest.of(Json.parse("{\"text\": \"fire\"}", "in")));

        assertThat(result.output()).isEqualTo(Json.parse("{\"priority\": \"high\", \"reason\": \"fire\"}", "o"));
        assertThat(result.steps().get(1).details().get("model").asText()).isEqualTo("offline:rules");
        assertThat(result.steps().get(1).details().get("tokens"))
                .isEqualTo(Json.parse("{\"input\":0,\"output\":0,\"cached\":null}", "t"));
    }

    @Test
    void rulesSeeTheSchemaAsTheResponseFormat() {
        Model model = Model.offline(OfflineModel.builder()
                .rule(r -> r.responseFormat() != null && r.responseFormat().jsonSchema() != null
                        ? Optional.of(OfflineModel.response("{\"priority\": \"low\", \"reason\": \"schema seen\"}"))
                        : Optional.empty())
                .build());

        RunResult result = runner.run(
                ModelNodes.structuredGraph("g", template, model, ModelProviderContract.SCHEMA),
                RunRequest.of(Json.parse("{\"text\": \"x\"}", "in")));

        assertThat(result.output().get("reason").asText()).isEqualTo("schema seen");
    }

    @Test
    void withoutARuleFailsWithModelUnavailableSayingHowToConfigureARealModel() {
        RunResult result = runner.run(
                ModelNodes.textGraph("g", template, Model.offline(OfflineModel.empty())),
                RunRequest.of(Json.parse("{\"text\": \"hello\"}", "in")));

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_MODEL_UNAVAILABLE);
        assertThat(result.error().orElseThrow().message())
                .contains("the offline model has no rule for this request")
                .contains("WEFT_MODEL=openai:gpt-4o-mini and OPENAI_API_KEY");
    }

    @Test
    void emitsTheWholeReplyAsOneDelta() {
        Model model = Model.offline(OfflineModel.builder()
                .rule(OfflineModel.Rule.text(r -> Optional.of("hi there")))
                .build());

        RunResult result = runner.run(
                ModelNodes.textGraph("g", template, model), RunRequest.of(Json.parse("{\"text\": \"x\"}", "in")));

        assertThat(runner.store().events(result.runId()))
                .filteredOn(e -> e.type().equals(ModelNodes.DELTA_EVENT))
                .extracting(e -> e.data().get("text").asText())
                .containsExactly("hi there");
    }
}
