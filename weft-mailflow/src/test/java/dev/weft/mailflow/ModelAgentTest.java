package dev.weft.mailflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.ModelSettings;
import dev.weft.llm.Models;
import dev.weft.llm.test.FakeModelServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The venue agent with a model configured: each agent node asks the model (an OpenAI-compatible
 * provider faked at the wire) for structured output with its role's schema, the step keeping the
 * resolved prompt and the tokens; the reply guardrail sends a reply back to the model when it offers
 * a room that is not free, within the visit limit.
 */
final class ModelAgentTest {
    @TempDir
    Path dir;

    private FakeModelServer fake;
    private RunStore store;
    private Mailflow mailflow;
    private Runner runner;

    @BeforeEach
    void open() {
        fake = FakeModelServer.start();
        store = Fixtures.sqlite(dir);
        Models models = Models.resolve(
                ModelSettings.flags("openai:gpt-4o-mini", fake.openAiBaseUrl()), Map.of("OPENAI_API_KEY", "sk-test"));
        mailflow = Mailflow.builder()
                .store(store)
                .keyFile(dir.resolve("mail.key"))
                .models(models)
                .build();
        mailflow.addVenue(Fixtures.oliveGrove("olive", Optional.empty()));
        runner = Runner.builder()
                .store(store)
                .time(new TimeSource() {
                    @Override
                    public Instant now() {
                        return Instant.now();
                    }

                    @Override
                    public void sleep(Duration duration) {}
                })
                .build();
    }

    @AfterEach
    void close() {
        store.close();
        fake.close();
    }

    private static FakeModelServer.Reply json(String text) {
        return FakeModelServer.Reply.text(text).withUsage(120, 30, 0);
    }

    @Test
    void eachAgentAsksTheModelForItsSchemaAndTheGuardrailSendsABadReplyBack() {
        fake.enqueue(
                json("{\"inquiry\": true, \"dates\": [\"2026-12-12\"], \"dateRange\": false, \"guests\": 120,"
                        + " \"eventType\": \"wedding\", \"budgetAmount\": null, \"budgetCurrency\": null, \"name\": \"Dana\","
                        + " \"language\": \"en\", \"question\": false}"),
                json("{\"action\": \"availability\", \"reason\": \"dates and guests given\"}"),
                // offers the Hall, which is booked that day: the guardrail sends it back
                json("{\"body\": \"Dear Dana, the Hall is yours on 12 December.\", \"offered\": [\"Hall\"]}"),
                json("{\"body\": \"Dear Dana, the Garden is free on Saturday 12 December for your 120 guests.\","
                        + " \"offered\": [\"Garden\"]}"));
        JsonNode out = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"))
                .toJson();
        assertThat(out.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(out.path("parsed").path("dates").get(0).asText()).isEqualTo("2026-12-12");
        assertThat(out.path("reply").path("offered"))
                .extracting(JsonNode::asText)
                .containsExactly("Garden");
        assertThat(out.path("reply").path("body").asText()).contains("Garden is free");
        assertThat(fake.pending()).isZero();

        List<FakeModelServer.RecordedRequest> requests = fake.requests();
        assertThat(requests).hasSize(4);
        JsonNode parseRequest = requests.get(0).body();
        assertThat(parseRequest.path("response_format").path("type").asText()).isEqualTo("json_schema");
        assertThat(Json.write(parseRequest.path("messages")))
                .contains("Olive Grove")
                .contains("about 120 guests");
        assertThat(Json.write(requests.get(3).body().path("messages"))).contains("Your previous reply was rejected");

        List<Step> steps = store.steps(out.path("runId").asText());
        assertThat(steps)
                .extracting(Step::nodeId)
                .containsExactly(
                        "email",
                        "parse",
                        "enough",
                        "orchestrate",
                        "get_availability",
                        "execution",
                        "reply_ok",
                        "execution",
                        "reply_ok",
                        "send");
        Step parse = steps.get(1);
        assertThat(parse.details().get("model").asText()).isEqualTo("openai:gpt-4o-mini");
        assertThat(parse.details().get("tokens").path("input").asInt()).isEqualTo(120);
        assertThat(parse.details().get("prompt").path("user").asText()).contains("about 120 guests");
        JsonNode execution = Executions.of(runner.result(out.path("runId").asText()))
                .path("steps")
                .get(1);
        assertThat(execution.path("tokens_consumed").asLong()).isEqualTo(150);
    }

    /** Before issue #35 the run failed with no reply and no word to anyone; now it is handed to a person. */
    @Test
    void aModelThatKeepsOfferingABookedRoomMeetsTheVisitLimitAndTheEmailIsHandedToAPerson() {
        fake.enqueue(
                json("{\"inquiry\": true, \"dates\": [\"2026-12-12\"], \"dateRange\": false, \"guests\": 120,"
                        + " \"eventType\": null, \"budgetAmount\": null, \"budgetCurrency\": null, \"name\": null,"
                        + " \"language\": \"en\", \"question\": false}"),
                json("{\"action\": \"availability\", \"reason\": \"\"}"));
        fake.fallback(json("{\"body\": \"The Hall is yours.\", \"offered\": [\"Hall\"]}"));
        JsonNode out = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"))
                .toJson();
        assertThat(out.path("status").asText()).isEqualTo("FAILED");
        assertThat(out.path("error").path("code").asText()).isEqualTo("E_VISIT_LIMIT");
        assertThat(out.path("sent").asBoolean()).isFalse();
        assertThat(out.path("handoff").asText()).contains("a person should answer this email");
        assertThat(runner.store().events(out.path("runId").asText()))
                .filteredOn(e -> e.type().equals(Mailflow.HANDOFF_EVENT))
                .singleElement()
                .satisfies(e -> assertThat(e.data().path("code").asText()).isEqualTo("E_VISIT_LIMIT"));
        // the same email delivered again flags nothing twice
        mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-en-plain.eml"));
        assertThat(runner.store().events(out.path("runId").asText()))
                .filteredOn(e -> e.type().equals(Mailflow.HANDOFF_EVENT))
                .hasSize(1);
    }
}
