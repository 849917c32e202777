package dev.weft.core;

import static dev.weft.core.Nodes.echo;
import static dev.weft.core.Nodes.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** Declared input and output types are checked along the edges when a graph compiles. */
final class GraphTypesTest {
    private static final ObjectNode EMAILS = (ObjectNode) json(
            "{\"type\": \"object\", \"properties\": {\"emails\": {\"type\": \"array\"}}, \"required\": [\"emails\"]}");
    private static final ObjectNode NEEDS_EMAILS = EMAILS;
    private static final ObjectNode COUNT = (ObjectNode) json(
            "{\"type\": \"object\", \"properties\": {\"count\": {\"type\": \"integer\"}}, \"required\": [\"count\"]}");

    private static NodeSpec node(String id, ObjectNode input, ObjectNode output) {
        NodeSpec.Builder builder = NodeSpec.builder(id, echo());
        if (input != null) {
            builder.inputSchema(input);
        }
        if (output != null) {
            builder.outputSchema(output);
        }
        return builder.build();
    }

    @Test
    void aGraphWhoseDeclaredTypesFitCompilesAndRuns() {
        Graph graph = Graph.builder("fits")
                .node(node("fetch", null, EMAILS))
                .node(node("summarize", NEEDS_EMAILS, null))
                .edge(Graph.START, "fetch")
                .edge("fetch", "summarize")
                .compile();

        assertThat(Runner.create()
                        .run(graph, RunRequest.of(json("{\"emails\": []}")))
                        .status())
                .isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void anOutputThatDoesNotFitTheNextInputIsRejectedNamingBothNodes() {
        assertThatThrownBy(() -> Graph.builder("misfit")
                        .node(node("count", null, COUNT))
                        .node(node("summarize", NEEDS_EMAILS, null))
                        .edge(Graph.START, "count")
                        .edge("count", "summarize")
                        .compile())
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining(
                        "connection 'count' → 'summarize': the output of 'count' has no property 'emails', which is"
                                + " required by the input of 'summarize'")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_GRAPH_INVALID);
    }

    @Test
    void aJoinsInputIsTheMergeOfWhatLeadsToIt() {
        ObjectNode both = (ObjectNode) json("{\"type\": \"object\", \"required\": [\"emails\", \"count\"]}");
        Graph.Builder fits = Graph.builder("join")
                .node(node("a", null, EMAILS))
                .node(node("b", null, COUNT))
                .node(node("both", both, null))
                .edge(Graph.START, "a")
                .edge(Graph.START, "b")
                .edge("a", "both")
                .edge("b", "both");
        ObjectNode three =
                (ObjectNode) json("{\"type\": \"object\", \"required\": [\"emails\", \"count\", \"extra\"]}");
        Graph.Builder misfit = Graph.builder("join")
                .node(node("a", null, EMAILS))
                .node(node("b", null, COUNT))
                .node(node("both", three, null))
                .edge(Graph.START, "a")
                .edge(Graph.START, "b")
                .edge("a", "both")
                .edge("b", "both");

        assertThat(fits.compile().id()).isEqualTo("join");
        assertThatThrownBy(misfit::compile)
                .hasMessageContaining("connections [a, b] → 'both'")
                .hasMessageContaining("no property 'extra'");
    }

    @Test
    void undeclaredNodesAreNotChecked() {
        Graph graph = Graph.builder("open")
                .node(node("any", null, null))
                .node(node("summarize", NEEDS_EMAILS, null))
                .edge(Graph.START, "any")
                .edge("any", "summarize")
                .compile();

        assertThat(graph.id()).isEqualTo("open");
    }

    @Test
    void aSchemaWithATypeThatIsNoJsonTypeIsRefusedAtOnce() {
        assertThatThrownBy(() -> NodeSpec.builder("n", echo()).outputSchema((ObjectNode) json("{\"type\": \"text\"}")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("node 'n'")
                .hasMessageContaining("\"text\"");
    }
}
