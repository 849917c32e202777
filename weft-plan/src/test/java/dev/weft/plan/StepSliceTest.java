package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static dev.weft.plan.Fixtures.object;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.plan.Fixtures.Calls;
import dev.weft.plan.Fixtures.FakeTime;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A resolver's call is held to its step (issue 36): a call of another tool, of an operation the step's
 * action does not allow, or naming a target the step did not, is refused with {@code E_STEP_MISMATCH}
 * and recorded before anything runs; a held step waits for a person whatever its tool's risk.
 */
final class StepSliceTest {
    private static final ObjectNode CALENDAR_INPUT = object("{\"type\": \"object\", \"properties\": {"
            + "\"operation\": {\"type\": \"string\", \"enum\": [\"getEvents\", \"create\", \"update\", \"delete\"]},"
            + "\"eventId\": {\"type\": \"string\"}, \"timeMin\": {\"type\": \"string\"},"
            + " \"timeMax\": {\"type\": \"string\"}}, \"required\": [\"operation\"]}");

    private final Calls calls = new Calls();
    private final Runner runner = Runner.builder().time(new FakeTime()).build();
    private final Tool calendar = Tool.json(
                    "calendarOperations",
                    "The user's calendar",
                    CALENDAR_INPUT,
                    object("{\"type\": \"object\"}"),
                    (args, ctx) -> {
                        calls.add("calendar:" + args.path("operation").asText());
                        return json("{\"events\": []}");
                    })
            .build();
    private final Tool tasks = Tool.json(
                    "taskOperations",
                    "The user's tasks",
                    object("{\"type\": \"object\"}"),
                    object("{\"type\": \"object\"}"),
                    (args, ctx) -> {
                        calls.add("tasks:" + args.path("operation").asText());
                        return json("{}");
                    })
            .build();

    /** What the "model" answers for the next step, as a model steered by what it read would. */
    private final AtomicReference<Resolution> answer = new AtomicReference<>();

    private final Resolver calendarFind = new Resolver() {
        @Override
        public String name() {
            return "CalendarFindResolver";
        }

        @Override
        public String capability() {
            return "calendar";
        }

        @Override
        public Set<String> actions() {
            return Set.of("list_events");
        }

        @Override
        public Optional<StepSlice> slice(PlanStep step) {
            return Optional.of(StepSlice.of("calendarOperations", "getEvents").locking("eventId"));
        }

        @Override
        public Resolution resolve(PlanStep step, ResolveContext context) {
            return answer.get();
        }
    };

    private final PlanExecutor executor = PlanExecutor.builder()
            .resolvers(ResolverRegistry.of(calendarFind))
            .tools(ToolRegistry.of(calendar, tasks))
            .build();

    private static Plan listEvents() {
        return Plan.fromJson(json("{\"intentType\": \"operation\", \"confidence\": 0.9, \"plan\": [{\"id\": \"A\","
                + " \"capability\": \"calendar\", \"action\": \"list_events\", \"constraints\": {}, \"changes\": {},"
                + " \"dependsOn\": []}]}"));
    }

    private RunResult run(String args) {
        answer.set(Resolution.execute("calendarOperations", object(args)));
        return executor.run(runner, listEvents(), PlanRequest.auto(json("null")));
    }

    private List<String> eventTypes(RunResult result) {
        return runner.store().events(result.runId()).stream().map(Event::type).toList();
    }

    @Test
    void findStepAnsweredWithADeleteIsRefusedBeforeAnythingRuns() {
        RunResult result = run("{\"operation\": \"delete\", \"timeMin\": \"2026-11-01T00:00:00Z\","
                + " \"timeMax\": \"2027-01-01T00:00:00Z\"}");

        StepOutcome a = PlanExecutor.outcomes(result).get("A");
        assertThat(a.status()).isEqualTo(StepOutcome.Status.FAILED);
        assertThat(a.error().orElseThrow().code()).isEqualTo(ErrorCode.E_STEP_MISMATCH);
        assertThat(a.error().orElseThrow().message())
                .contains("calendar/list_events")
                .contains("operation is 'delete'")
                .contains("[getEvents]");
        assertThat(calls.snapshot()).isEmpty();
        assertThat(eventTypes(result))
                .contains(PlanEvents.STEP_REFUSED)
                .doesNotContain(PlanEvents.TOOL_CALLED, PlanEvents.APPROVAL_AWAITING);
    }

    @Test
    void refusalIsRecordedWithTheCallAndItsReason() {
        RunResult result = run("{\"operation\": \"update\", \"eventId\": \"ev-1\"}");

        Event refused = runner.store().events(result.runId()).stream()
                .filter(e -> e.type().equals(PlanEvents.STEP_REFUSED))
                .findFirst()
                .orElseThrow();
        assertThat(refused.data().path("stepId").asText()).isEqualTo("A");
        assertThat(refused.data().path("resolver").asText()).isEqualTo("CalendarFindResolver");
        assertThat(refused.data().path("args").path("operation").asText()).isEqualTo("update");
        assertThat(refused.data().path("reason").asText()).contains("is not for");
    }

    @Test
    void callToAnotherCapabilitysToolIsRefused() {
        answer.set(Resolution.execute("taskOperations", object("{\"operation\": \"deleteAll\"}")));

        RunResult result = executor.run(runner, listEvents(), PlanRequest.auto(json("null")));

        assertThat(PlanExecutor.outcomes(result).get("A").error().orElseThrow().code())
                .isEqualTo(ErrorCode.E_STEP_MISMATCH);
        assertThat(PlanExecutor.outcomes(result).get("A").error().orElseThrow().message())
                .contains("tool 'taskOperations'");
        assertThat(calls.snapshot()).isEmpty();
    }

    @Test
    void callNamingATargetTheStepDidNotNameIsRefused() {
        RunResult result = run("{\"operation\": \"getEvents\", \"eventId\": \"someone-elses\"}");

        assertThat(PlanExecutor.outcomes(result).get("A").error().orElseThrow().message())
                .contains("names its own target ('eventId')");
        assertThat(calls.snapshot()).isEmpty();
    }

    @Test
    void callWithinTheSliceRuns() {
        RunResult result = run("{\"operation\": \"getEvents\", \"timeMin\": \"2026-11-21T00:00:00Z\"}");

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(calls.snapshot()).containsExactly("calendar:getEvents");
        assertThat(eventTypes(result)).doesNotContain(PlanEvents.STEP_REFUSED);
    }

    @Test
    void sliceShowsAModelOnlyTheOperationsOfItsStep() {
        ObjectNode slice = StepSlice.of("calendarOperations", "getEvents")
                .locking("eventId")
                .slice(CALENDAR_INPUT);

        assertThat(slice.path("properties").path("operation").path("enum"))
                .extracting(n -> n.asText())
                .containsExactly("getEvents");
        assertThat(slice.path("properties").has("eventId")).isFalse();
        assertThat(slice.path("properties").has("timeMin")).isTrue();
        assertThat(CALENDAR_INPUT.path("properties").path("operation").path("enum"))
                .as("the tool's own schema is not changed")
                .hasSize(4);
    }

    @Test
    void heldStepWaitsForAPersonEvenWhenItsToolIsLowRisk() {
        answer.set(Resolution.execute("calendarOperations", object("{\"operation\": \"getEvents\"}")));

        RunResult waiting = executor.run(
                runner, listEvents(), PlanRequest.auto(json("null")).holding(Set.of("A")));

        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        assertThat(waiting.interrupts().get("step:A").path("held").asBoolean()).isTrue();
        assertThat(calls.snapshot()).isEmpty();

        RunResult done = executor.resume(runner, waiting.runId(), PlanDecision.approve("A"));

        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(calls.snapshot()).containsExactly("calendar:getEvents");
    }

    @Test
    void heldStepThatIsRejectedNeverRuns() {
        answer.set(Resolution.execute("calendarOperations", object("{\"operation\": \"getEvents\"}")));
        RunResult waiting = executor.run(
                runner, listEvents(), PlanRequest.auto(json("null")).holding(Set.of("A")));

        executor.resume(runner, waiting.runId(), PlanDecision.reject("A"));

        assertThat(calls.snapshot()).isEmpty();
    }
}
