package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.Model;
import dev.weft.llm.ModelConfig;
import dev.weft.llm.Provider;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.llm.test.FakeModelServer.Reply;
import dev.weft.memo.internal.MemoResolvers;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanMode;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memo's model planner against a provider faked at the wire (OpenAI's protocol, through LangChain4j's
 * real client): a fixed, cacheable system prompt with the schema slice, the plan as structured output
 * with one repair, a clear error after that, and Memo acting on the model's plan.
 */
final class ModelPlannerTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final ZonedDateTime NOW = ZonedDateTime.parse("2026-11-24T10:00:00+02:00[Asia/Jerusalem]");

    private static final TimeSource NO_WAITING = new TimeSource() {
        @Override
        public Instant now() {
            return NOW.toInstant();
        }

        @Override
        public void sleep(Duration duration) {}
    };

    private static final String CALL_THE_BANK =
            "{\"intentType\": \"operation\", \"confidence\": 0.9, \"plan\": [{\"id\":"
                    + " \"A\", \"capability\": \"database\", \"action\": \"create_task\", \"constraints\": {\"text\": \"call the"
                    + " bank\", \"dueDate\": \"2026-11-25T09:00:00+02:00\", \"reminder\": \"0 minutes\", \"isReminder\": true},"
                    + " \"changes\": {}, \"dependsOn\": []}]}";

    private static final String HEBREW_TWO_STEPS = "{\"intentType\": \"multi_task\", \"confidence\": 0.85, \"plan\": ["
            + "{\"id\": \"A\", \"capability\": \"calendar\", \"action\": \"find_event\", \"constraints\": {\"summary\":"
            + " \"פגישה עם דנה\"}, \"changes\": {}, \"dependsOn\": []},"
            + "{\"id\": \"B\", \"capability\": \"calendar\", \"action\": \"update_event\", \"constraints\": {\"summary\":"
            + " \"פגישה עם דנה\"}, \"changes\": {\"startTime\": \"17:00\"}, \"dependsOn\": [\"A\"]}]}";

    @TempDir
    Path dir;

    private final FakeModelServer server = FakeModelServer.start();
    private RunStore store;

    @AfterEach
    void stop() {
        server.close();
        if (store != null) {
            store.close();
        }
    }

    private Model model() {
        return Model.create(new ModelConfig(
                Provider.OPENAI,
                "gpt-4o-mini",
                Optional.of(server.openAiBaseUrl()),
                Optional.of("sk-test"),
                Duration.ofSeconds(10)));
    }

    private ModelPlanner planner() {
        return new ModelPlanner(model(), NO_WAITING, new MemoResolvers(null).actions());
    }

    private static String system(JsonNode body) {
        return body.get("messages").get(0).get("content").asText();
    }

    private static String user(JsonNode body) {
        JsonNode messages = body.get("messages");
        return messages.get(messages.size() - 1).get("content").asText();
    }

    @Test
    void theSystemPromptIsTheSameBytesForEveryMessageAndCarriesTheSchemaSlice() {
        server.enqueue(Reply.text(CALL_THE_BANK), Reply.text(HEBREW_TWO_STEPS));

        planner().plan("remind me tomorrow at 9 to call the bank", new Planner.Context("en", NOW));
        planner().plan("תמצא את הפגישה עם דנה ואז תעביר אותה ל-17:00", new Planner.Context("he", NOW));

        List<FakeModelServer.RecordedRequest> requests = server.requests();
        assertThat(system(requests.get(0).body()))
                .isEqualTo(system(requests.get(1).body()))
                .isEqualTo(ModelPlanner.SYSTEM_PROMPT)
                .contains("create_task {text, dueDate?, reminder?")
                .contains("update_event {summary")
                .contains("reminder \"0 minutes\"")
                .contains("nudge");
        assertThat(user(requests.get(0).body()))
                .contains("remind me tomorrow at 9 to call the bank")
                .contains("2026-11-24T10:00+02:00")
                .contains("Asia/Jerusalem");
        assertThat(requests.get(0).body().path("response_format").path("type").asText())
                .isEqualTo("json_schema");
    }

    @Test
    void theModelsAnswerIsThePlanInEnglishAndInHebrew() {
        server.enqueue(Reply.text(CALL_THE_BANK), Reply.text(HEBREW_TWO_STEPS));

        Plan english = planner().plan("remind me tomorrow at 9 to call the bank", new Planner.Context("en", NOW));
        Planner.Context hebrewContext = new Planner.Context("he", NOW);
        Plan hebrew = planner().plan("תמצא את הפגישה עם דנה ואז תעביר אותה ל-17:00", hebrewContext);

        assertThat(english.intentType()).isEqualTo("operation");
        assertThat(english.steps().get(0).constraints().get("dueDate").asText()).isEqualTo("2026-11-25T09:00:00+02:00");
        assertThat(hebrew.steps()).extracting(s -> s.action()).containsExactly("find_event", "update_event");
        assertThat(hebrew.steps().get(1).dependsOn()).containsExactly("A");
        assertThat(hebrew.steps().get(1).changes().get("startTime").asText()).isEqualTo("17:00");
        assertThat(hebrewContext.facts().get("planner").asText()).isEqualTo("model");
        assertThat(hebrewContext.facts().get("repaired").asBoolean()).isFalse();
    }

    @Test
    void aMalformedAnswerIsRepairedOnce() {
        server.enqueue(
                Reply.text("{\"intentType\": \"operation\", \"plan\": \"call the bank\"}"), Reply.text(CALL_THE_BANK));
        Planner.Context context = new Planner.Context("en", NOW);

        Plan plan = planner().plan("remind me tomorrow at 9 to call the bank", context);

        assertThat(plan.steps()).hasSize(1);
        assertThat(server.requests()).hasSize(2);
        assertThat(user(server.requests().get(1).body()))
                .isNotEqualTo(user(server.requests().get(0).body()));
        assertThat(context.facts().get("repaired").asBoolean()).isTrue();
    }

    @Test
    void twoMalformedAnswersAreAClearError() {
        server.enqueue(Reply.text("not json at all"), Reply.text("{\"intentType\": \"operation\"}"));

        assertThatThrownBy(() -> planner().plan("remind me to call the bank", new Planner.Context("en", NOW)))
                .isInstanceOf(WeftException.class)
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_MODEL_OUTPUT_INVALID));
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void aPlanWithAnActionMemoCannotDoIsRefused() {
        server.enqueue(Reply.text(CALL_THE_BANK.replace("create_task", "launch_rocket")));

        assertThatThrownBy(() -> planner().plan("launch a rocket", new Planner.Context("en", NOW)))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("database/launch_rocket")
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_MODEL_OUTPUT_INVALID));
    }

    private Memo.Reply ask(Memo memo, String message) {
        Runner runner = Runner.builder().store(store).time(NO_WAITING).build();
        return memo.ask(
                runner, new Memo.Request("dana", message, Optional.of(ZoneId.of("Asia/Jerusalem")), PlanMode.AUTO));
    }

    @Test
    void memoActsOnTheModelsPlanWithItsOwnResolversAndTools() {
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        Memo memo = Memo.open(store, model(), NO_WAITING);
        server.enqueue(
                Reply.text(CALL_THE_BANK),
                Reply.text("{\"operation\": \"create\", \"text\": \"call the bank\", \"dueDate\":"
                        + " \"2026-11-25T09:00:00+02:00\", \"reminder\": \"0 minutes\"}"));

        Memo.Reply reply = ask(memo, "remind me tomorrow at 9 to call the bank");

        assertThat(reply.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(system(server.requests().get(1).body()))
                .isEqualTo(ModelResolvers.systemPrompt("DatabaseTaskResolver", "create_task"))
                .contains("\"createMultiple\"");
        assertThat(user(server.requests().get(1).body())).contains("\"action\":\"create_task\"");
        assertThat(reply.text()).isEqualTo("I'll remind you: \"call the bank\" — Wed 25 Nov, 09:00.");
        assertThat(memo.data().tasks().all("dana")).extracting(t -> t.text()).containsExactly("call the bank");
        assertThat(reply.run()
                        .run()
                        .input()
                        .path("input")
                        .path("planner")
                        .path("planner")
                        .asText())
                .isEqualTo("model");
    }

    @Test
    void whenTheModelCannotBeReachedTheMessageIsPlannedOfflineAndTheRunSaysSo() {
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        Memo memo = Memo.open(store, model(), NO_WAITING);
        server.fallback(Reply.error(503, "overloaded"));

        Memo.Reply reply = ask(memo, "remind me tomorrow at 9 to call the bank");

        assertThat(reply.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(memo.data().tasks().all("dana")).extracting(t -> t.text()).containsExactly("call the bank");
        JsonNode planner = reply.run().run().input().path("input").path("planner");
        assertThat(planner.path("planner").asText()).isEqualTo("offline");
        assertThat(planner.path("fallbackFrom").asText()).isEqualTo("model");
        assertThat(planner.path("fallbackReason").asText()).contains("503");
    }
}
