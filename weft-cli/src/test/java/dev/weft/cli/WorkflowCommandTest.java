package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weft;
import static dev.weft.cli.CommandRunner.weftWith;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class WorkflowCommandTest {
    private static final String EXAMPLES = "../examples/workflows/";

    @TempDir
    Path dir;

    private String file(String name, String content) throws IOException {
        Path path = dir.resolve(name);
        Files.writeString(path, content);
        return path.toString();
    }

    private static List<String> fieldNames(JsonNode node) {
        return StreamSupport.stream(((Iterable<String>) () -> node.fieldNames()).spliterator(), false)
                .toList();
    }

    @Test
    void runPrintsOneJsonObjectInTheStableShape() {
        var outcome = triageWith(Map.of());

        assertThat(outcome.exitCode()).isZero();
        JsonNode result = outcome.json();
        assertThat(fieldNames(result)).containsExactly("runId", "status", "error", "steps", "outputs");
        assertThat(result.get("status").asText()).isEqualTo("COMPLETED");
        assertThat(result.get("error").isNull()).isTrue();
        JsonNode step = result.get("steps").get(2);
        assertThat(fieldNames(step))
                .startsWith("order", "nodeId", "name", "type", "status", "attempt", "pinned", "output");
        assertThat(step.get("nodeId").asText()).isEqualTo("hi");
        assertThat(step.get("name").asText()).isEqualTo("label");
        assertThat(step.get("type").asText()).isEqualTo("transform");
        assertThat(step.get("order").asInt()).isEqualTo(3);
        assertThat(result.get("outputs").get("label"))
                .isEqualTo(Json.parse("{\"label\":\"urgent\",\"ticket\":\"down\"}", "x"));
    }

    @Test
    void runWithoutJsonPrintsEachStepThenTheResult() {
        var outcome =
                weft("workflow", "run", EXAMPLES + "triage.json", "--input", "{\"priority\": 1, \"subject\": \"s\"}");

        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.out())
                .contains("#1 in started")
                .contains("#2 check completed")
                .contains("#3 lo completed")
                .contains("COMPLETED")
                .contains("label: {\"label\":\"normal\",\"ticket\":\"s\"}");
    }

    @Test
    void varsOverrideWorkflowVariables() {
        var outcome = weft(
                "workflow",
                "run",
                EXAMPLES + "triage.json",
                "--input",
                "{\"priority\": 5, \"subject\": \"s\"}",
                "--var",
                "threshold=9",
                "--json");

        assertThat(outcome.json().get("outputs").get("label").get("label").asText())
                .isEqualTo("normal");
    }

    @Test
    void pinsReplaceANodesOutputAndMarkItsStep() {
        var outcome = weft(
                "workflow",
                "run",
                EXAMPLES + "triage.json",
                "--input",
                "{\"priority\": 1, \"subject\": \"s\"}",
                "--pin",
                "check={\"result\": true}",
                "--json");

        JsonNode steps = outcome.json().get("steps");
        assertThat(steps.get(1).get("pinned").asBoolean()).isTrue();
        assertThat(steps.get(2).get("nodeId").asText()).isEqualTo("hi");
    }

    @Test
    void aFailedRunExitsOne() {
        var outcome = weft("workflow", "run", EXAMPLES + "guardrail-visit-limit.json", "--json");

        assertThat(outcome.exitCode()).isEqualTo(1);
        assertThat(outcome.json().get("status").asText()).isEqualTo("FAILED");
        assertThat(outcome.json().get("error").get("code").asText()).isEqualTo("E_VISIT_LIMIT");
    }

    @Test
    void runsWithTheDurabilityTheEnvironmentAsksFor() {
        var synchronous = triageWith(Map.of("WEFT_DURABILITY", "sync"));
        var asynchronous = triageWith(Map.of("WEFT_DURABILITY", "ASYNC"));

        assertThat(asynchronous.exitCode()).isZero();
        assertThat(asynchronous.json().get("outputs"))
                .isEqualTo(synchronous.json().get("outputs"));
        assertThat(asynchronous.json().get("steps").size())
                .isEqualTo(synchronous.json().get("steps").size());
        // The runner the commands build takes the mode asked for; the default is SYNC.
        try (var store = dev.weft.core.store.InMemoryRunStore.create()) {
            Env.use(Map.of("WEFT_DURABILITY", " Async "));
            assertThat(Storage.runner(store).build().durability()).isEqualTo(dev.weft.core.Durability.ASYNC);
            Env.use(Map.of());
            assertThat(Storage.runner(store).build().durability()).isEqualTo(dev.weft.core.Durability.SYNC);
        }
    }

    /** {@code workflow run} of the triage example on a priority-5 input, as JSON, with {@code env} added. */
    private static CommandRunner.Outcome triageWith(Map<String, String> env) {
        return weftWith(
                env,
                "workflow",
                "run",
                EXAMPLES + "triage.json",
                "--input",
                "{\"priority\": 5, \"subject\": \"down\"}",
                "--json");
    }

    @Test
    void aBadDurabilityOrLeaseInTheEnvironmentIsBadInputAndRunsNothing() {
        int runsBefore = weft("runs", "list", "--json").json().size();
        var durability =
                weftWith(Map.of("WEFT_DURABILITY", "later"), "workflow", "run", EXAMPLES + "triage.json", "--json");
        var lease = weftWith(Map.of("WEFT_LEASE_MS", "soon"), "workflow", "run", EXAMPLES + "triage.json");

        assertThat(durability.exitCode()).isEqualTo(2);
        assertThat(durability.json().get("error").get("code").asText()).isEqualTo("E_BAD_INPUT");
        assertThat(durability.json().get("error").get("message").asText())
                .contains("WEFT_DURABILITY")
                .contains("later");
        assertThat(lease.exitCode()).isEqualTo(2);
        assertThat(lease.err())
                .startsWith("weft: E_BAD_INPUT")
                .contains("WEFT_LEASE_MS")
                .doesNotContain("\tat ");
        assertThat(weft("runs", "list", "--json").json().size()).isEqualTo(runsBefore);
    }

    @Test
    void aWaitingRunExitsThree() {
        var outcome = weft("workflow", "run", EXAMPLES + "approval.json", "--input", "{\"amount\": 500}", "--json");

        assertThat(outcome.exitCode()).isEqualTo(3);
        assertThat(outcome.json().get("status").asText()).isEqualTo("WAITING");
        assertThat(outcome.json()
                        .get("interrupts")
                        .get("approve")
                        .get("message")
                        .asText())
                .isEqualTo("refund over 100 needs a manager");
    }

    @Test
    void everyExampleCompiles() throws IOException {
        try (var files = Files.list(Path.of(EXAMPLES))) {
            for (Path file : files.toList()) {
                assertThat(weft("workflow", "check", file.toString()).exitCode())
                        .as(file.toString())
                        .isZero();
            }
        }
    }

    @Test
    void checkPrintsMermaid() {
        var outcome = weft("workflow", "check", EXAMPLES + "triage.json", "--mermaid");

        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.out()).startsWith("flowchart TD").contains("n_check -->|positive| n_hi");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            malformed JSON             | {"id": "w", "nodes": [                                                    | malformed JSON
            unknown node type          | {"id": "w", "nodes": [{"id": "a", "type": "trigger"}, {"id": "b", "type": "warp"}], "connections": [{"source": "a", "target": "b"}]} | node 'b': unknown type 'warp'
            missing field              | {"id": "w", "nodes": [{"type": "trigger"}]}                                 | nodes[0].id: missing field
            CEL that does not compile  | {"id": "w", "nodes": [{"id": "a", "type": "trigger"}, {"id": "b", "type": "condition", "config": {"expression": "1 +"}}], "connections": [{"source": "a", "target": "b"}]} | node 'b': config.expression does not compile
            graph that does not compile | {"id": "w", "nodes": [{"id": "a", "type": "trigger"}], "connections": [{"source": "a", "target": "nowhere"}]} | leads to unknown node 'nowhere'
            """)
    void anInvalidFileExitsTwoWithItsCode(String title, String content, String message) throws IOException {
        String path = file("wf.json", content);

        var json = weft("workflow", "run", path, "--json");
        var text = weft("workflow", "run", path);
        var check = weft("workflow", "check", path);

        assertThat(json.exitCode()).isEqualTo(2);
        assertThat(json.json().get("status").asText()).isEqualTo("INVALID");
        assertThat(json.json().get("error").get("code").asText()).isEqualTo("E_GRAPH_INVALID");
        assertThat(json.json().get("error").get("message").asText()).contains(message);
        assertThat(text.exitCode()).isEqualTo(2);
        assertThat(text.err())
                .startsWith("weft: E_GRAPH_INVALID")
                .contains(message)
                .doesNotContain("\tat ");
        assertThat(text.out()).isEmpty();
        assertThat(check.exitCode()).isEqualTo(2);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unreadable file     | /no/such/file.json | --json                  |                     | no such file
            bad --input         | triage.json        | --input                 | {oops               | --input: not valid JSON
            bad --var           | triage.json        | --var                   | threshold           | --var threshold: expected NAME=JSON
            bad --var JSON      | triage.json        | --var                   | threshold={         | --var threshold: not valid JSON
            unknown pinned node | triage.json        | --pin                   | ghost=1             | --pin ghost: the workflow has no node 'ghost'
            unknown option      | triage.json        | --colour                |                     | Unknown option: '--colour'
            """)
    void badArgumentsExitTwoWithAClearMessage(String title, String file, String option, String value, String message) {
        String path = file.startsWith("/") ? file : EXAMPLES + file;
        List<String> args = new java.util.ArrayList<>(List.of("workflow", "run", path, "--json"));
        if (!option.equals("--json")) {
            args.add(option);
        }
        if (value != null) {
            args.add(value);
        }

        var outcome = weft(args.toArray(String[]::new));

        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.json().get("status").asText()).isEqualTo("INVALID");
        assertThat(outcome.json().get("error").get("code").asText()).isEqualTo("E_GRAPH_INVALID");
        assertThat(outcome.json().get("error").get("message").asText()).contains(message);
    }

    @Test
    void aMissingFileArgumentIsAUsageError() {
        var outcome = weft("workflow", "run");

        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.err()).contains("Missing required parameter: 'FILE'");
    }
}
