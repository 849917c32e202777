package dev.weft.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.WeftException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

final class WorkflowParserTest {

    private static GraphInvalidException invalid(String json) {
        try {
            WorkflowParser.parse(json, "wf.json");
        } catch (GraphInvalidException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.E_GRAPH_INVALID);
            return e;
        }
        throw new AssertionError("expected the workflow to be rejected");
    }

    @Test
    void readsNodesConnectionsAndVariablesWithDefaults() {
        WorkflowDefinition definition = WorkflowParser.parse("""
                {"id": "w", "variables": {"t": 3},
                 "nodes": [{"id": "in", "type": "trigger"},
                           {"id": "c", "type": "condition", "name": "urgent", "config": {"expression": "true"}}],
                 "connections": [{"source": "in", "target": "c"}]}
                """, "wf.json");

        assertThat(definition.id()).isEqualTo("w");
        assertThat(definition.variables()).containsKey("t");
        assertThat(definition.nodes().get(0).name()).isEqualTo("in");
        assertThat(definition.nodes().get(1).name()).isEqualTo("urgent");
        assertThat(definition.connections().get(0).sourceHandle()).isEqualTo("output");
    }

    @Test
    void rejectsMalformedJsonWithItsLocation() {
        assertThat(invalid("{\"id\": \"w\",\n \"nodes\": [").getMessage())
                .startsWith("wf.json: malformed JSON: ")
                .contains("line 2");
    }

    @Test
    void rejectsANonObjectDocument() {
        assertThat(invalid("[1, 2]").getMessage()).isEqualTo("wf.json: a workflow must be a JSON object");
    }

    @Test
    void rejectsMissingFieldsNamingThem() {
        GraphInvalidException e = invalid(
                "{\"nodes\": [{\"type\": \"trigger\"}, {\"id\": \"x\"}]," + " \"connections\": [{\"source\": \"x\"}]}");
        assertThat(e.problems())
                .containsExactly(
                        "wf.json: id: missing field",
                        "wf.json: nodes[0].id: missing field",
                        "wf.json: node 'x': type: missing field",
                        "wf.json: connections[0].target: missing field");
    }

    @Test
    void rejectsFieldsOfTheWrongType() {
        GraphInvalidException e =
                invalid("{\"id\": 5, \"variables\": [], \"nodes\": {}," + " \"connections\": \"none\"}");
        assertThat(e.problems())
                .containsExactly(
                        "wf.json: id: must be a non-empty string",
                        "wf.json: variables: must be an object",
                        "wf.json: nodes: must be an array",
                        "wf.json: connections: must be an array");
    }

    @Test
    void rejectsUnknownFieldsSoTyposDoNotPassSilently() {
        GraphInvalidException e = invalid("{\"id\": \"w\", \"nodes\": [{\"id\": \"a\", \"type\": \"trigger\","
                + " \"confg\": {}}], \"conections\": []}");
        assertThat(e.getMessage()).contains("conections: unknown field").contains("nodes[0].confg: unknown field");
    }

    @Test
    void rejectsAnUnreadableFile() {
        assertThatThrownBy(() -> WorkflowParser.read(Path.of("/no/such/workflow.json")))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessage("/no/such/workflow.json: no such file")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_GRAPH_INVALID);
    }
}
