package dev.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class PlanParserTest {

    @Test
    void readsSeed000PlannerOutputAndWritesItBack() {
        String json = """
                {"intentType": "multi_task", "confidence": 0.92, "plan": [
                  {"id": "A", "capability": "calendar", "action": "create", "constraints": {"title": "x"},
                   "changes": {}, "dependsOn": []},
                  {"id": "B", "capability": "database", "action": "create", "constraints": {},
                   "changes": {}, "dependsOn": ["A"]}]}
                """;

        Plan plan = PlanParser.parse(json);

        assertThat(plan.intentType()).isEqualTo("multi_task");
        assertThat(plan.confidence()).isEqualTo(0.92);
        assertThat(plan.steps()).extracting(PlanStep::id).containsExactly("A", "B");
        assertThat(plan.step("B").orElseThrow().dependsOn()).containsExactly("A");
        assertThat(PlanParser.fromJson(plan.toJson())).isEqualTo(plan);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            malformed JSON        | {"plan": [                                                                            | plan is not valid JSON
            not an object         | [1]                                                                                   | a plan must be a JSON object
            no plan field         | {"intentType": "x"}                                                                   | plan: missing field
            plan not an array     | {"plan": {}}                                                                          | plan must be an array of steps
            empty plan            | {"plan": []}                                                                          | plan has no steps
            step not an object    | {"plan": [3]}                                                                         | plan[0] must be an object
            missing id            | {"plan": [{"capability": "c", "action": "a"}]}                                        | plan[0].id: missing
            id of the wrong type  | {"plan": [{"id": 7, "capability": "c", "action": "a"}]}                               | plan[0].id must be a non-empty string, was 7
            missing capability    | {"plan": [{"id": "A", "action": "a"}]}                                                | step 'A': capability: missing
            constraints wrong type | {"plan": [{"id": "A", "capability": "c", "action": "a", "constraints": []}]}         | step 'A': constraints must be an object, was []
            dependsOn wrong type  | {"plan": [{"id": "A", "capability": "c", "action": "a", "dependsOn": "B"}]}           | step 'A': dependsOn must be an array of step ids
            unknown step field    | {"plan": [{"id": "A", "capability": "c", "action": "a", "depends": []}]}              | step 'A': unknown field 'depends'
            confidence wrong type | {"confidence": "high", "plan": [{"id": "A", "capability": "c", "action": "a"}]}      | confidence must be a number, was "high"
            duplicate ids         | {"plan": [{"id": "A", "capability": "c", "action": "a"}, {"id": "A", "capability": "c", "action": "b"}]} | step 'A' appears more than once in the plan
            self dependency       | {"plan": [{"id": "A", "capability": "c", "action": "a", "dependsOn": ["A"]}]}         | step 'A' depends on itself
            missing dependency    | {"plan": [{"id": "A", "capability": "c", "action": "a", "dependsOn": ["Z"]}]}         | step 'A' depends on step 'Z', which is not in the plan
            """)
    void rejectsBadPlansWithPlanInvalid(String title, String json, String message) {
        assertThatThrownBy(() -> PlanParser.parse(json))
                .isInstanceOf(PlanInvalidException.class)
                .hasMessageContaining(message)
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_PLAN_INVALID);
    }

    @Test
    void computesSeed000ExecutionGroups() {
        Plan plan = Fixtures.plan("""
                {"plan": [
                  {"id": "A", "capability": "c", "action": "a"},
                  {"id": "B", "capability": "c", "action": "a"},
                  {"id": "C", "capability": "c", "action": "a", "dependsOn": ["A"]},
                  {"id": "D", "capability": "c", "action": "a", "dependsOn": ["C", "B"]}]}
                """);

        ExecutionGroups groups = ExecutionGroups.of(plan, false);

        assertThat(groups.groups())
                .containsExactly(
                        new ExecutionGroups.Group(0, java.util.List.of("A", "B"), true),
                        new ExecutionGroups.Group(1, java.util.List.of("C"), false),
                        new ExecutionGroups.Group(2, java.util.List.of("D"), false));
        assertThat(groups.brokenCycles()).isEmpty();
    }

    @Test
    void breaksACycleByRunningItsFirstStepInPlanOrderFirst() {
        Plan plan = Fixtures.plan("""
                {"plan": [
                  {"id": "X", "capability": "c", "action": "a"},
                  {"id": "A", "capability": "c", "action": "a", "dependsOn": ["B"]},
                  {"id": "B", "capability": "c", "action": "a", "dependsOn": ["A"]}]}
                """);

        ExecutionGroups groups = ExecutionGroups.of(plan, false);

        assertThat(groups.brokenCycles())
                .containsExactly(new ExecutionGroups.BrokenCycle(java.util.List.of("A", "B", "A"), "A"));
        assertThat(groups.dependencies().get("A")).isEmpty();
        assertThat(groups.dependencies().get("B")).containsExactly("A");
        assertThat(groups.groups())
                .extracting(ExecutionGroups.Group::steps)
                .containsExactly(java.util.List.of("X"), java.util.List.of("A"), java.util.List.of("B"));
    }

    @Test
    void rejectsACycleWhenAskedTo() {
        Plan plan = Fixtures.plan("""
                {"plan": [
                  {"id": "A", "capability": "c", "action": "a", "dependsOn": ["C"]},
                  {"id": "B", "capability": "c", "action": "a", "dependsOn": ["A"]},
                  {"id": "C", "capability": "c", "action": "a", "dependsOn": ["B"]}]}
                """);

        assertThatThrownBy(() -> ExecutionGroups.of(plan, true))
                .hasMessage("the plan's steps depend on each other in a cycle: A -> C -> B -> A")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_PLAN_CYCLE);
    }
}
