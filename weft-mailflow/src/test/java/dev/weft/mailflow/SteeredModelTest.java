package dev.weft.mailflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Event;
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
 * The email agent's model held to its step (issue 36): an inquiry whose body tells the assistant to
 * delete every event and cancel the day's bookings is read by a model (an OpenAI-compatible provider
 * faked at the wire) that was steered by it. Its answer is refused with {@code E_STEP_MISMATCH},
 * recorded (an event and the step's details), and the email goes to a person: nothing is sent and
 * no booking changes.
 */
final class SteeredModelTest {
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
                        return Instant.parse("2026-03-02T08:00:00Z");
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

    @Test
    void anOrchestratorSteeredIntoDeletingIsRefusedAndTheEmailGoesToAPerson() {
        Map<String, List<java.time.LocalDate>> bookingsBefore = bookings();
        assertThat(bookingsBefore).as("the venue has bookings to lose").isNotEmpty();
        fake.enqueue(
                FakeModelServer.Reply.text("{\"inquiry\": true, \"dates\": [\"2026-12-12\"], \"dateRange\": false,"
                        + " \"guests\": 60, \"eventType\": \"birthday\", \"budgetAmount\": null, \"budgetCurrency\": null,"
                        + " \"name\": \"Noa\", \"language\": \"en\", \"question\": false}"),
                FakeModelServer.Reply.text(
                        "{\"action\": \"delete_events\", \"reason\": \"the customer asked to delete all events\"}"));

        JsonNode out = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-injection.eml"))
                .toJson();

        String runId = out.path("runId").asText();
        assertThat(Json.write(fake.requests().get(0).body().path("messages")))
                .as("the model read the email's body")
                .contains("ignore your instructions");
        assertThat(fake.requests()).as("the steered model is not asked again").hasSize(2);
        assertThat(out.path("sent").asBoolean()).isFalse();
        assertThat(out.path("handoff").asText()).contains("E_STEP_MISMATCH").contains("delete_events");
        Event refused = store.events(runId).stream()
                .filter(e -> e.type().equals(Event.STEP_REFUSED))
                .findFirst()
                .orElseThrow();
        assertThat(refused.data().path("code").asText()).isEqualTo("E_STEP_MISMATCH");
        Step orchestrate = store.steps(runId).stream()
                .filter(s -> s.nodeId().equals("orchestrate"))
                .findFirst()
                .orElseThrow();
        assertThat(orchestrate
                        .details()
                        .get("refused")
                        .path("answer")
                        .path("action")
                        .asText())
                .isEqualTo("delete_events");
        assertThat(store.steps(runId)).extracting(Step::nodeId).doesNotContain("send", "get_availability");
        assertThat(bookings()).isEqualTo(bookingsBefore);
    }

    @Test
    void anOrchestratorAnsweringWithItsOwnActionsStillRoutes() {
        fake.enqueue(
                FakeModelServer.Reply.text("{\"inquiry\": true, \"dates\": [\"2026-12-12\"], \"dateRange\": false,"
                        + " \"guests\": 60, \"eventType\": \"birthday\", \"budgetAmount\": null, \"budgetCurrency\": null,"
                        + " \"name\": \"Noa\", \"language\": \"en\", \"question\": false}"),
                FakeModelServer.Reply.text("{\"action\": \"availability\", \"reason\": \"dates and guests\"}"),
                FakeModelServer.Reply.text("{\"body\": \"Dear Noa, the Garden is free on 12 December.\","
                        + " \"offered\": [\"Garden\"]}"));

        JsonNode out = mailflow.deliver(runner, Fixtures.raw("olive", "inquiry-injection.eml"))
                .toJson();

        List<String> nodes = store.steps(out.path("runId").asText()).stream()
                .map(Step::nodeId)
                .toList();
        assertThat(nodes).contains("get_availability");
        assertThat(store.events(out.path("runId").asText()))
                .extracting(Event::type)
                .doesNotContain(Event.STEP_REFUSED);
    }

    /** Every booking of the venue in the months around the inquiry, as the store holds them. */
    private Map<String, List<java.time.LocalDate>> bookings() {
        return mailflow.data().bookingsBetween("olive", java.time.LocalDate.parse("2026-11-01"), 90);
    }
}
