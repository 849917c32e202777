package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.Json;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The safety invariants held after planning, whichever planner planned: a question yields no change,
 * and a change the message's words did not ask for is held for a person.
 */
final class ChangeGuardTest {
    /** Questions end in "?"; a change is asked for when the message has its action's verb. */
    private static final RequestActs ACTS = new RequestActs() {
        @Override
        public boolean asksOnlyToRead(String message, String language) {
            return message.endsWith("?");
        }

        @Override
        public Optional<String> outsideScope(String message, String language) {
            return message.startsWith("pay ") ? Optional.of("payments") : Optional.empty();
        }

        @Override
        public boolean asksFor(String message, String language, PlanStep step) {
            return message.contains(step.action().substring(0, step.action().indexOf('_')));
        }
    };

    private final ChangeGuard guard = ChangeGuard.of(
            ACTS,
            step -> !step.action().startsWith("find_"),
            step -> step.action().startsWith("delete_")
                    ? Optional.of(new PlanStep(
                            step.id(),
                            step.capability(),
                            "find_task",
                            step.constraints(),
                            Json.object(),
                            step.dependsOn()))
                    : Optional.empty());

    private static Plan plan(String... steps) {
        return Plan.fromJson(json(
                "{\"intentType\": \"operation\", \"confidence\": 0.9, \"plan\": [" + String.join(",", steps) + "]}"));
    }

    private static String step(String id, String action, String... deps) {
        return "{\"id\": \"" + id + "\", \"capability\": \"database\", \"action\": \"" + action + "\","
                + " \"constraints\": {\"type\": \"reminder\"}, \"changes\": {}, \"dependsOn\": "
                + Json.write(List.of(deps)) + "}";
    }

    @Test
    void questionPlannedAsADeleteBecomesTheReadOfTheSameThings() {
        ChangeGuard.Guarded guarded = guard.guard(plan(step("A", "delete_tasks")), "what are my alarms?", "en");

        assertThat(guarded.plan().steps()).singleElement().satisfies(s -> {
            assertThat(s.action()).isEqualTo("find_task");
            assertThat(s.constraints().path("type").asText()).isEqualTo("reminder");
        });
        assertThat(guarded.withdrawn()).extracting(PlanStep::action).containsExactly("delete_tasks");
        assertThat(guarded.held()).isEmpty();
    }

    @Test
    void questionPlannedAsAChangeWithNoReadLosesTheStepAndItsDependentsKeepTheirOtherDependencies() {
        ChangeGuard.Guarded guarded = guard.guard(
                plan(step("A", "find_task"), step("B", "update_task", "A"), step("C", "find_task", "A", "B")),
                "is my morning alarm on?",
                "en");

        assertThat(guarded.plan().steps()).extracting(PlanStep::id).containsExactly("A", "C");
        assertThat(guarded.plan().step("C").orElseThrow().dependsOn()).containsExactly("A");
    }

    @Test
    void changeTheWordsAskForRunsAsPlanned() {
        Plan planned = plan(step("A", "delete_tasks"));

        ChangeGuard.Guarded guarded = guard.guard(planned, "delete my reminders", "en");

        assertThat(guarded.untouched()).isTrue();
        assertThat(guarded.plan()).isSameAs(planned);
    }

    @Test
    void changeTheWordsDoNotAskForIsHeldForAPerson() {
        ChangeGuard.Guarded guarded =
                guard.guard(plan(step("A", "find_task"), step("B", "delete_tasks", "A")), "summarize my inbox", "en");

        assertThat(guarded.held()).containsExactly("B");
        assertThat(guarded.plan().steps()).hasSize(2);
    }

    @Test
    void requestTheAssistantDoesNotDoLosesEveryStepThatChangesAnything() {
        ChangeGuard.Guarded guarded = guard.guard(
                plan(step("A", "find_task"), step("B", "delete_tasks", "A")), "pay the electricity bill", "en");

        assertThat(guarded.outOfScope()).contains("payments");
        assertThat(guarded.plan().steps()).extracting(PlanStep::action).containsExactly("find_task");
        assertThat(guarded.withdrawn()).extracting(PlanStep::action).containsExactly("delete_tasks");
    }
}
