package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.Json;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The safety invariants held after planning, whichever planner planned, with the language layer's real
 * words: a question yields no change, a delete the message does not name is never planned, and any
 * other change the message's words did not ask for is held for a person.
 */
final class ChangeGuardTest {
    /** Steps named find_* read, create_* add, update_* change, delete_* delete; the rest send. */
    private final ChangeGuard guard = ChangeGuard.of(
            step -> switch (step.action().substring(0, step.action().indexOf('_'))) {
                case "find" -> ChangeGuard.Effect.NONE;
                case "create" -> ChangeGuard.Effect.CREATE;
                case "update" -> ChangeGuard.Effect.UPDATE;
                case "delete" -> ChangeGuard.Effect.DELETE;
                default -> ChangeGuard.Effect.SEND;
            },
            Set.of("payments"),
            step -> step.action().startsWith("delete_") || step.action().startsWith("update_")
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
        ChangeGuard.Guarded guarded = guard.guard(plan(step("A", "delete_tasks")), "what are my alarms?");

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
                plan(step("A", "find_task"), step("B", "send_email", "A"), step("C", "find_task", "A", "B")),
                "is my morning alarm on?");

        assertThat(guarded.plan().steps()).extracting(PlanStep::id).containsExactly("A", "C");
        assertThat(guarded.plan().step("C").orElseThrow().dependsOn()).containsExactly("A");
    }

    @Test
    void changeTheWordsAskForRunsAsPlanned() {
        Plan planned = plan(step("A", "delete_tasks"));

        ChangeGuard.Guarded guarded = guard.guard(planned, "delete my reminders");

        assertThat(guarded.untouched()).isTrue();
        assertThat(guarded.plan()).isSameAs(planned);
    }

    @Test
    void changeTheWordsDoNotAskForIsHeldForAPerson() {
        ChangeGuard.Guarded guarded = guard.guard(
                plan(step("A", "find_task"), step("B", "send_email", "A")), "the quarterly report for dana");

        assertThat(guarded.held()).containsExactly("B");
        assertThat(guarded.plan().steps()).hasSize(2);
    }

    @Test
    void deleteTheWordsDoNotNameIsNeverPlannedButReadInstead() {
        ChangeGuard.Guarded guarded = guard.guard(plan(step("A", "delete_tasks")), "turn my morning alarm on");

        assertThat(guarded.plan().steps()).extracting(PlanStep::action).containsExactly("find_task");
        assertThat(guarded.withdrawn()).extracting(PlanStep::action).containsExactly("delete_tasks");
        assertThat(guarded.held()).isEmpty();
    }

    @Test
    void updateSaidAsTheDeleteOfItsOldPartRunsAsPlanned() {
        Plan planned = plan(step("A", "update_task"));

        assertThat(guard.guard(planned, "cancel the 5pm one, make it 6").untouched())
                .isTrue();
    }

    @Test
    void updateTheWordsDoNotAskForIsHeldNotWithdrawn() {
        ChangeGuard.Guarded guarded = guard.guard(plan(step("A", "update_task")), "the dentist at 5 tomorrow");

        assertThat(guarded.held()).containsExactly("A");
        assertThat(guarded.withdrawn()).isEmpty();
    }

    @Test
    void hebrewQuestionPlannedAsADeleteBecomesARead() {
        ChangeGuard.Guarded guarded = guard.guard(plan(step("A", "delete_tasks")), "ספר לי על התזכורות שלי");

        assertThat(guarded.plan().steps()).extracting(PlanStep::action).containsExactly("find_task");
    }

    @Test
    void topicTheLanguageLayerHasNoWordsForIsRefusedWhenTheGuardIsMade() {
        assertThatThrownBy(() -> ChangeGuard.of(
                        step -> ChangeGuard.Effect.NONE, Set.of("teleportation"), step -> Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("teleportation");
    }

    @Test
    void requestTheAssistantDoesNotDoLosesEveryStepThatChangesAnything() {
        ChangeGuard.Guarded guarded =
                guard.guard(plan(step("A", "find_task"), step("B", "delete_tasks", "A")), "pay the electricity bill");

        assertThat(guarded.outOfScope()).contains("payments");
        assertThat(guarded.plan().steps()).extracting(PlanStep::action).containsExactly("find_task");
        assertThat(guarded.withdrawn()).extracting(PlanStep::action).containsExactly("delete_tasks");
    }
}
