package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.llm.Model;
import dev.weft.llm.ModelConfig;
import dev.weft.llm.Provider;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.llm.test.FakeModelServer.Reply;
import dev.weft.memo.internal.MemoResolvers;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanStep;
import dev.weft.workflow.A2aAgents;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Memo's planners and a request to ask a remote A2A agent the user configured: read without a model in
 * English and Hebrew, only for an agent that is configured, the rest of the request being what is sent;
 * with a model, the system prompt lists the agents and an {@code a2a/send} step is accepted only then.
 */
final class AgentRequestsTest {
    private static final ZonedDateTime NOW = ZonedDateTime.parse("2026-11-24T10:00:00+02:00[Asia/Jerusalem]");

    private static final TimeSource NO_WAITING = new TimeSource() {
        @Override
        public Instant now() {
            return NOW.toInstant();
        }

        @Override
        public void sleep(Duration duration) {}
    };

    private static final List<A2aAgents.Entry> AGENTS = List.of(A2aAgents.entry(
            "travel",
            "https://travel.example/a2a/concierge",
            Optional.of("TRAVEL_KEY"),
            Optional.empty(),
            List.of("travel agent", "סוכן הנסיעות")));

    private static final String ASK_TRAVEL = "{\"intentType\": \"operation\", \"confidence\": 0.95, \"plan\": [{\"id\":"
            + " \"A\", \"capability\": \"a2a\", \"action\": \"send\", \"constraints\": {\"agent\": \"travel\", \"text\":"
            + " \"find a flight to Rome on Friday\"}, \"changes\": {}, \"dependsOn\": []}]}";

    private final FakeModelServer server = FakeModelServer.start();

    @AfterEach
    void stop() {
        server.close();
    }

    private static Plan offline(String message, String language) {
        return AgentRequests.planner(new OfflinePlanner(), AGENTS).plan(message, new Planner.Context(language, NOW));
    }

    private static PlanStep onlyStep(Plan plan) {
        assertThat(plan.steps()).hasSize(1);
        return plan.steps().get(0);
    }

    @Test
    void askingTheTravelAgentInEnglishSendsTheRestOfTheRequestToIt() {
        PlanStep step = onlyStep(offline("ask the travel agent to find a flight to Rome on Friday", "en"));

        assertThat(step.capability() + "/" + step.action()).isEqualTo("a2a/send");
        assertThat(step.constraints().path("agent").asText()).isEqualTo("travel");
        assertThat(step.constraints().path("text").asText()).isEqualTo("find a flight to Rome on Friday");
    }

    @Test
    void tellingAnAgentByItsNameSendsWhatFollowsIt() {
        PlanStep step = onlyStep(offline("tell travel: I'll be an hour late", "en"));

        assertThat(step.constraints().path("agent").asText()).isEqualTo("travel");
        assertThat(step.constraints().path("text").asText()).isEqualTo("I'll be an hour late");
    }

    @Test
    void askingTheTravelAgentInHebrewSendsTheHebrewRest() {
        PlanStep asked = onlyStep(offline("תשאל את סוכן הנסיעות למצוא טיסה לרומא ביום שישי", "he"));
        PlanStep requested = onlyStep(offline("תבקש מסוכן הנסיעות להזמין מלון ברומא", "he"));
        PlanStep told = onlyStep(offline("תגיד לסוכן הנסיעות שאני מאחר בשעה", "he"));

        assertThat(asked.capability()).isEqualTo("a2a");
        assertThat(asked.constraints().path("agent").asText()).isEqualTo("travel");
        assertThat(asked.constraints().path("text").asText()).isEqualTo("למצוא טיסה לרומא ביום שישי");
        assertThat(requested.constraints().path("text").asText()).isEqualTo("להזמין מלון ברומא");
        assertThat(told.constraints().path("text").asText()).isEqualTo("שאני מאחר בשעה");
    }

    @Test
    void anAgentNobodyConfiguredGetsNoStepButTheUsualPlan() {
        Plan plumber = offline("ask the plumber to find a flight to Rome on Friday", "en");
        Plan hebrew = offline("תשאל את השרברב מתי הוא מגיע", "he");

        assertThat(plumber.steps()).noneMatch(s -> s.capability().equals("a2a"));
        assertThat(hebrew.steps()).noneMatch(s -> s.capability().equals("a2a"));
    }

    @Test
    void withoutAgentsTheOfflinePlannerPlansNoStepForAnyAgent() {
        Plan plan = new OfflinePlanner()
                .plan("ask the travel agent to find a flight to Rome on Friday", new Planner.Context("en", NOW));

        assertThat(plan.steps()).noneMatch(s -> s.capability().equals("a2a"));
    }

    private Model model() {
        return Model.create(new ModelConfig(
                Provider.OPENAI,
                "gpt-4o-mini",
                Optional.of(server.openAiBaseUrl()),
                Optional.of("sk-test"),
                Duration.ofSeconds(10)));
    }

    @Test
    void theModelIsToldTheConfiguredAgentsAndItsStepToOneIsTaken() {
        server.enqueue(Reply.text(ASK_TRAVEL));
        Planner planner =
                AgentRequests.planner(new ModelPlanner(model(), NO_WAITING, new MemoResolvers(null).actions()), AGENTS);

        Plan plan =
                planner.plan("ask the travel agent to find a flight to Rome on Friday", new Planner.Context("en", NOW));

        String system = server.requests()
                .get(0)
                .body()
                .get("messages")
                .get(0)
                .get("content")
                .asText();
        assertThat(system)
                .startsWith(ModelPlanner.SYSTEM_PROMPT)
                .contains("a2a.send")
                .contains("- travel (called: travel agent, סוכן הנסיעות)");
        PlanStep step = onlyStep(plan);
        assertThat(step.capability() + "/" + step.action()).isEqualTo("a2a/send");
        assertThat(step.constraints().path("text").asText()).isEqualTo("find a flight to Rome on Friday");
    }

    @Test
    void aModelWithNoAgentsConfiguredIsRefusedAnAgentStep() {
        // Its plan does not fit the schema (no capability "a2a"), nor does the repaired one.
        server.enqueue(Reply.text(ASK_TRAVEL), Reply.text(ASK_TRAVEL));
        ModelPlanner planner = new ModelPlanner(model(), NO_WAITING, new MemoResolvers(null).actions());

        assertThatThrownBy(() -> planner.plan(
                        "ask the travel agent to find a flight to Rome on Friday", new Planner.Context("en", NOW)))
                .isInstanceOf(WeftException.class)
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_MODEL_OUTPUT_INVALID);
        assertThat(server.requests().get(0).body().toString()).doesNotContain("a2a.send");
    }
}
