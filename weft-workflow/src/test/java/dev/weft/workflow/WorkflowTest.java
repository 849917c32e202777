package dev.weft.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.TimeSource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class WorkflowTest {
    private static final Path EXAMPLES = Path.of("../examples/workflows");

    private final List<Duration> sleeps = new ArrayList<>();
    private final Runner runner = Runner.builder()
            .time(new TimeSource() {
                @Override
                public Instant now() {
                    return Instant.EPOCH;
                }

                @Override
                public void sleep(Duration duration) {
                    synchronized (sleeps) {
                        sleeps.add(duration);
                    }
                }
            })
            .build();

    private static JsonNode json(String text) {
        return Json.parse(text, "test JSON");
    }

    private static Workflow compile(String json) {
        return Workflow.compile(WorkflowParser.parse(json, "wf.json"), NodeTypes.standard());
    }

    private static GraphInvalidException invalid(String json) {
        try {
            compile(json);
        } catch (GraphInvalidException e) {
            return e;
        }
        throw new AssertionError("expected the workflow not to compile");
    }

    private static String single(String type, String config) {
        return """
                {"id": "w", "nodes": [{"id": "in", "type": "trigger"}, {"id": "n", "type": "%s", "config": %s}],
                 "connections": [{"source": "in", "target": "n"}]}
                """.formatted(type, config);
    }

    private RunResult run(Workflow workflow, String input) {
        return runner.run(workflow.graph(), RunRequest.of(json(input)));
    }

    private static List<String> path(RunResult result) {
        return result.steps().stream().map(Step::nodeId).toList();
    }

    @Test
    void triageRoutesByTheConditionsHandle() {
        Workflow triage = Workflow.load(EXAMPLES.resolve("triage.json"));

        RunResult urgent = run(triage, "{\"priority\": 5, \"subject\": \"down\"}");
        RunResult normal = run(triage, "{\"priority\": 1, \"subject\": \"typo\"}");

        assertThat(path(urgent)).containsExactly("in", "check", "hi");
        assertThat(urgent.outputs().get("urgent")).isEqualTo(json("{\"result\": true}"));
        assertThat(urgent.output()).isEqualTo(json("{\"label\": \"urgent\", \"ticket\": \"down\"}"));
        assertThat(path(normal)).containsExactly("in", "check", "lo");
        assertThat(normal.outputs().get("label")).isEqualTo(json("{\"label\": \"normal\", \"ticket\": \"typo\"}"));
    }

    @Test
    void variablesCanBeOverriddenPerRun() {
        Workflow triage = Workflow.load(EXAMPLES.resolve("triage.json"));

        RunResult result = runner.run(
                triage.graph(),
                RunRequest.builder()
                        .input(json("{\"priority\": 5, \"subject\": \"x\"}"))
                        .variable("threshold", json("10"))
                        .build());

        assertThat(path(result)).containsExactly("in", "check", "lo");
    }

    @Test
    void theGuardrailLoopRetriesUntilItsCheckPasses() {
        RunResult result = run(Workflow.load(EXAMPLES.resolve("guardrail-loop.json")), "null");

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.output()).isEqualTo(json("{\"sent\": \"draft 3\", \"attempts\": 3}"));
        assertThat(result.steps().stream().filter(s -> s.nodeId().equals("check")))
                .extracting(Step::output)
                .containsExactly(
                        json("{\"passed\": false, \"message\": \"draft not good enough yet\"}"),
                        json("{\"passed\": false, \"message\": \"draft not good enough yet\"}"),
                        json("{\"passed\": true}"));
    }

    @Test
    void theSameLoopHitsItsVisitLimit() {
        RunResult result = run(Workflow.load(EXAMPLES.resolve("guardrail-visit-limit.json")), "null");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_VISIT_LIMIT);
        assertThat(result.error().orElseThrow().message()).contains("node 'check' reached its visit limit of 4");
    }

    @Test
    void theFanOutRunsBothBranchesAndJoinsThem() {
        RunResult result = run(
                Workflow.load(EXAMPLES.resolve("fan-out-join.json")), "{\"city\": \"Haifa\", \"meetings\": [1, 2]}");

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.output()).isEqualTo(json("{\"text\": \"sunny in Haifa, 2 meetings\"}"));
        assertThat(result.steps().stream().filter(s -> s.nodeId().equals("brief")))
                .hasSize(1);
        assertThat(sleeps).containsExactly(Duration.ofMillis(300), Duration.ofMillis(300));
    }

    @Test
    void theApprovalPausesAndItsOutputIsTheResumeInput() {
        Workflow approval = Workflow.load(EXAMPLES.resolve("approval.json"));

        RunResult waiting = run(approval, "{\"amount\": 150}");
        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        assertThat(waiting.interrupts().get("approve").path("message").asText())
                .isEqualTo("refund over 100 needs a manager");

        RunResult done = runner.resume(waiting.runId(), json("{\"by\": \"maya\"}"));
        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(done.outputs().get("approve")).isEqualTo(json("{\"by\": \"maya\"}"));
        assertThat(done.output()).isEqualTo(json("{\"refunded\": 150, \"approvedBy\": \"maya\"}"));

        RunResult small = run(approval, "{\"amount\": 20}");
        assertThat(small.output()).isEqualTo(json("{\"refunded\": 20, \"approvedBy\": \"auto\"}"));
    }

    @Test
    void transformEvaluatesNestedExpressionsAndKeepsLiterals() {
        Workflow workflow = compile(
                single(
                        "transform",
                        "{\"output\": {\"sum\": \"input.a + input.b\", \"nested\": {\"list\": [\"input.a\", 7]}, \"flag\": true}}"));

        assertThat(run(workflow, "{\"a\": 2, \"b\": 3}").output())
                .isEqualTo(json("{\"sum\": 5, \"nested\": {\"list\": [2, 7]}, \"flag\": true}"));
    }

    @Test
    void expressionsSeeEarlierOutputsByNodeName() {
        Workflow workflow = compile("""
                {"id": "w", "nodes": [
                  {"id": "in", "type": "trigger"},
                  {"id": "a", "type": "transform", "name": "first", "config": {"output": {"v": "input * 2"}}},
                  {"id": "b", "type": "transform", "config": {"output": {"w": "nodes.first.v + 1"}}}],
                 "connections": [{"source": "in", "target": "a"}, {"source": "a", "target": "b"}]}
                """);

        assertThat(run(workflow, "20").output()).isEqualTo(json("{\"w\": 41}"));
    }

    @Test
    void aConditionThatIsNotBooleanFailsTheStep() {
        RunResult result = run(compile(single("condition", "{\"expression\": \"input.x\"}")), "{\"x\": 3}");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_NODE_FAILED);
        assertThat(result.error().orElseThrow().message()).contains("must give a boolean, gave number 3");
    }

    @Test
    void anExpressionThatFailsAtRunTimeNamesTheNodeAndField() {
        RunResult result = run(compile(single("condition", "{\"expression\": \"input.missing > 1\"}")), "{}");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow().message())
                .startsWith("node 'n': config.expression (input.missing > 1) failed:")
                .contains("missing");
        assertThat(result.steps().get(1).status()).isEqualTo(StepStatus.FAILED);
    }

    @Test
    void aDelayWaitsAndPassesItsInputOn() {
        RunResult result = run(compile(single("delay", "{\"ms\": 250}")), "{\"k\": 1}");

        assertThat(result.output()).isEqualTo(json("{\"k\": 1}"));
        assertThat(sleeps).containsExactly(Duration.ofMillis(250));
    }

    @Test
    void rejectsAnExpressionThatDoesNotCompile() {
        assertThat(invalid(single("condition", "{\"expression\": \"input.x >\"}"))
                        .getMessage())
                .startsWith("node 'n': config.expression does not compile:");
    }

    @Test
    void rejectsAnExpressionOfAnUndeclaredVariable() {
        assertThat(invalid(single("transform", "{\"output\": {\"a\": \"secrets.key\"}}"))
                        .getMessage())
                .startsWith("node 'n': config.output.a does not compile:")
                .contains("secrets");
    }

    @Test
    void rejectsUnknownNodeTypesListingTheKnownOnes() {
        assertThat(invalid(single("teleport", "{}")).getMessage())
                .isEqualTo("node 'n': unknown type 'teleport' (known: approval, condition, delay, guardrail,"
                        + " transform, trigger)");
    }

    @Test
    void rejectsMissingAndMistypedConfiguration() {
        assertThat(invalid(single("condition", "{}")).getMessage()).isEqualTo("node 'n': config.expression is missing");
        assertThat(invalid(single("delay", "{\"ms\": -5}")).getMessage())
                .isEqualTo("node 'n': config.ms must be at least 0, was -5");
        assertThat(invalid(single("delay", "{\"ms\": \"soon\"}")).getMessage())
                .isEqualTo("node 'n': config.ms must be a whole number");
        assertThat(invalid(single("transform", "{\"output\": \"input\"}")).getMessage())
                .isEqualTo("node 'n': config.output must be an object whose values are CEL expressions");
        assertThat(invalid(single("delay", "{\"ms\": 5, \"maxVisits\": 0}")).getMessage())
                .isEqualTo("node 'n': config.maxVisits must be at least 1, was 0");
    }

    @Test
    void rejectsConfigurationAFieldTheTypeDoesNotHave() {
        assertThat(invalid(single("delay", "{\"ms\": 5, \"msec\": 5}")).getMessage())
                .isEqualTo("node 'n': config.msec is not a setting of type 'delay' (its settings: maxVisits, ms,"
                        + " queued, retry)");
    }

    @Test
    void rejectsAWorkflowWithoutExactlyOneTrigger() {
        assertThat(invalid(
                                "{\"id\": \"w\", \"nodes\": [{\"id\": \"d\", \"type\": \"delay\", \"config\": {\"ms\": 1}}]}")
                        .getMessage())
                .contains("the workflow has no trigger node");
        assertThat(invalid("{\"id\": \"w\", \"nodes\": [{\"id\": \"a\", \"type\": \"trigger\"},"
                                + " {\"id\": \"b\", \"type\": \"trigger\"}],"
                                + " \"connections\": [{\"source\": \"a\", \"target\": \"b\"}]}")
                        .getMessage())
                .contains("the workflow has 2 trigger nodes [a, b]; it needs exactly one");
    }

    @Test
    void rejectsGraphRuleViolationsNamingTheNode() {
        GraphInvalidException e = invalid("""
                {"id": "w", "nodes": [
                  {"id": "in", "type": "trigger"},
                  {"id": "c", "type": "condition", "config": {"expression": "true"}},
                  {"id": "a", "type": "transform", "config": {"output": {}}},
                  {"id": "lonely", "type": "transform", "config": {"output": {}}}],
                 "connections": [{"source": "in", "target": "c"},
                                 {"source": "c", "target": "a", "sourceHandle": "positive"},
                                 {"source": "a", "target": "ghost"}]}
                """);

        assertThat(e.problems())
                .contains("connection a -> ghost leads to unknown node 'ghost'")
                .contains("node 'c': handle 'negative' leads nowhere (connect it to a node or to END)");
        assertThat(invalid("""
                {"id": "w", "nodes": [{"id": "in", "type": "trigger"},
                  {"id": "lonely", "type": "transform", "config": {"output": {}}}], "connections": []}
                """).problems()).containsExactly("node 'lonely' cannot be reached from START");
    }

    @Test
    void acceptsAConnectionToEnd() {
        Workflow workflow = compile("""
                {"id": "w", "nodes": [{"id": "in", "type": "trigger"},
                  {"id": "c", "type": "condition", "config": {"expression": "input > 1"}},
                  {"id": "big", "type": "transform", "config": {"output": {"big": "true"}}}],
                 "connections": [{"source": "in", "target": "c"},
                   {"source": "c", "target": "big", "sourceHandle": "positive"},
                   {"source": "c", "target": "END", "sourceHandle": "negative"}]}
                """);

        assertThat(run(workflow, "0").output()).isEqualTo(json("{\"result\": false}"));
        assertThat(run(workflow, "5").output()).isEqualTo(json("{\"big\": true}"));
    }

    @Test
    void retrySettingsAreCheckedAndApplied() {
        Workflow workflow = compile(
                single("delay", "{\"ms\": 1, \"retry\": {\"maxAttempts\": 4, \"initialDelayMs\": 50, \"jitter\": 0}}"));
        assertThat(workflow.graph().node("n").orElseThrow().retryPolicy().maxAttempts())
                .isEqualTo(4);
        assertThat(invalid(single("delay", "{\"ms\": 1, \"retry\": {\"tries\": 4}}"))
                        .getMessage())
                .startsWith("node 'n': config.retry.tries is not a retry setting");
        assertThatThrownBy(() -> compile(single("delay", "{\"ms\": 1, \"retry\": {\"jitter\": 2}}")))
                .hasMessageContaining("jitter must be between 0.0 and 1.0, was 2.0");
    }
}
