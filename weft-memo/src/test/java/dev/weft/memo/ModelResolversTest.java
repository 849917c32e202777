package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.Model;
import dev.weft.llm.ModelConfig;
import dev.weft.llm.Provider;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.llm.test.FakeModelServer.Reply;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanMode;
import dev.weft.plan.PlanParser;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memo's resolvers on the model path, against a provider faked at the wire: a fixed prompt per
 * resolver with its tool's schema, the model's arguments used as they are, lookups kept offline,
 * General answering with the model, and offline resolution when the model cannot be reached.
 */
final class ModelResolversTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");
    private static final TimeSource NO_WAITING = new TimeSource() {
        @Override
        public Instant now() {
            return NOW;
        }

        @Override
        public void sleep(Duration duration) {}
    };

    @TempDir
    Path dir;

    private final FakeModelServer server = FakeModelServer.start();
    private RunStore store;
    private Memo memo;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        Model model = Model.create(new ModelConfig(
                Provider.OPENAI,
                "gpt-4o-mini",
                Optional.of(server.openAiBaseUrl()),
                Optional.of("sk-test"),
                Duration.ofSeconds(10)));
        memo = Memo.open(store, model, NO_WAITING);
    }

    @AfterEach
    void close() {
        server.close();
        store.close();
    }

    private static String plan(String step) {
        return "{\"intentType\": \"operation\", \"confidence\": 0.9, \"plan\": [" + step + "]}";
    }

    private Memo.Reply ask(String message) {
        Runner runner = Runner.builder().store(store).time(NO_WAITING).build();
        return memo.ask(
                runner, new Memo.Request("dana", message, Optional.of(ZoneId.of("Asia/Jerusalem")), PlanMode.AUTO));
    }

    private static String system(JsonNode body) {
        return body.get("messages").get(0).get("content").asText();
    }

    @Test
    void eachResolverHasAFixedPromptWithItsToolsSchema() {
        String tasks = ModelResolvers.systemPrompt("DatabaseTaskResolver", "create_task");
        String calendar = ModelResolvers.systemPrompt("CalendarMutateResolver", "create_event");

        assertThat(tasks)
                .isEqualTo(ModelResolvers.systemPrompt("DatabaseTaskResolver", "create_task"))
                .contains("DatabaseTaskResolver")
                .contains("\"reminderRecurrence\"")
                .contains("reminder \"0 minutes\"");
        assertThat(calendar).contains("CalendarMutateResolver").contains("\"createRecurring\"");
    }

    @Test
    void aFindStepsPromptShowsTheModelOnlyTheFindOperation() {
        String prompt = ModelResolvers.systemPrompt("CalendarFindResolver", "list_events");
        JsonNode schema = Json.parse(
                prompt.substring(prompt.indexOf("(any other operation is refused):") + 33), "the prompt's schema");

        assertThat(schema.path("properties").path("operation").path("enum"))
                .extracting(JsonNode::asText)
                .containsExactly("getEvents");
        assertThat(schema.path("properties").has("eventId")).isFalse();
        assertThat(ModelResolvers.systemPrompt("CalendarFindResolver", "list_events"))
                .as("the same bytes for every such step")
                .isEqualTo(prompt);
    }

    @Test
    void aCreatedEventTakesTheModelsArguments() {
        server.enqueue(
                Reply.text(plan("{\"id\": \"A\", \"capability\": \"calendar\", \"action\": \"create_event\","
                        + " \"constraints\": {\"summary\": \"lunch with Avi\", \"start\": \"2026-11-25T13:00:00+02:00\"},"
                        + " \"changes\": {}, \"dependsOn\": []}")),
                Reply.text(
                        "{\"operation\": \"create\", \"summary\": \"lunch with Avi\", \"start\":"
                                + " \"2026-11-25T13:00:00+02:00\", \"end\": \"2026-11-25T14:30:00+02:00\", \"location\": \"Cafe Noir\"}"));

        Memo.Reply reply = ask("lunch with Avi tomorrow at 1 for an hour and a half at Cafe Noir");

        assertThat(reply.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(system(server.requests().get(1).body()))
                .isEqualTo(ModelResolvers.systemPrompt("CalendarMutateResolver", "create_event"));
        assertThat(memo.data().events().all("dana")).singleElement().satisfies(e -> {
            assertThat(e.location()).contains("Cafe Noir");
            assertThat(e.end()).isEqualTo(Instant.parse("2026-11-25T12:30:00Z"));
        });
    }

    @Test
    void aStepThatNamesATaskByItsWordsIsLookedUpOfflineNeverByTheModel() {
        server.enqueue(
                Reply.text(plan("{\"id\": \"A\", \"capability\": \"database\", \"action\": \"create_task\","
                        + " \"constraints\": {\"text\": \"call the bank\"}, \"changes\": {}, \"dependsOn\": []}")),
                Reply.text("{\"operation\": \"create\", \"text\": \"call the bank\"}"),
                Reply.text(plan("{\"id\": \"A\", \"capability\": \"database\", \"action\": \"delete_task\","
                        + " \"constraints\": {\"query\": \"the bank\"}, \"changes\": {}, \"dependsOn\": []}")));

        ask("add a task to call the bank");
        Memo.Reply deleted = ask("delete the task about the bank");

        assertThat(deleted.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(server.requests()).hasSize(3);
        assertThat(memo.data().tasks().all("dana")).isEmpty();
    }

    @Test
    void generalAnswersWithTheModel() {
        server.enqueue(
                Reply.text(plan("{\"id\": \"A\", \"capability\": \"general\", \"action\": \"respond\","
                        + " \"constraints\": {\"message\": \"מה נשמע?\"}, \"changes\": {}, \"dependsOn\": []}")),
                Reply.text("הכול טוב, תודה! במה אפשר לעזור?"));

        Memo.Reply reply = ask("מה נשמע?");

        assertThat(reply.text()).isEqualTo("הכול טוב, תודה! במה אפשר לעזור?");
        assertThat(system(server.requests().get(1).body())).contains("Memo, a personal assistant");
    }

    @Test
    void aStepTheModelCannotBeReachedForIsResolvedOfflineAndSaysSo() {
        Plan plan = PlanParser.fromJson(Json.parse(
                plan("{\"id\": \"A\", \"capability\": \"database\", \"action\": \"create_task\", \"constraints\":"
                        + " {\"text\": \"water the plants\", \"dueDate\": \"2026-11-25T09:00:00+02:00\", \"reminder\":"
                        + " \"0 minutes\"}, \"changes\": {}, \"dependsOn\": []}"),
                "plan"));
        server.enqueue(Reply.text(plan.toJson().toString()));
        server.fallback(Reply.error(503, "overloaded"));

        Memo.Reply reply = ask("remind me tomorrow at 9 to water the plants");

        assertThat(reply.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(memo.data().tasks().all("dana")).extracting(t -> t.text()).containsExactly("water the plants");
        assertThat(reply.run().steps().stream()
                        .anyMatch(s -> String.valueOf(s.details().get("resolvedOffline"))
                                .contains("503")))
                .isTrue();
    }
}
