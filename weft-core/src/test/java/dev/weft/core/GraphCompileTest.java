package dev.weft.core;

import static dev.weft.core.Nodes.echo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class GraphCompileTest {

    private static NodeSpec branch(String id) {
        return NodeSpec.builder(id, echo()).booleanBranch("ok").build();
    }

    private static GraphInvalidException invalid(Graph.Builder builder) {
        try {
            builder.compile();
        } catch (GraphInvalidException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.E_GRAPH_INVALID);
            return e;
        }
        throw new AssertionError("expected the graph not to compile");
    }

    @Test
    void compilesAValidGraphWithBranchesAndLoops() {
        Graph graph = Graph.builder("ok")
                .node("a", echo())
                .node(branch("check"))
                .node("b", echo())
                .edge(Graph.START, "a")
                .edge("a", "check")
                .edge("check", Graph.POSITIVE, "b")
                .edge("check", Graph.NEGATIVE, "a")
                .compile();
        assertThat(graph.entries()).containsExactly("a");
        assertThat(graph.targets("check", Graph.NEGATIVE)).containsExactly("a");
        assertThat(graph.canReach("b", "a")).isFalse();
        assertThat(graph.canReach("a", "a")).isTrue();
    }

    @Test
    void rejectsDuplicateNodes() {
        var e = invalid(Graph.builder("g").node("a", echo()).node("a", echo()).edge(Graph.START, "a"));
        assertThat(e.problems()).containsExactly("node 'a' is defined more than once");
    }

    @Test
    void rejectsReservedNodeIds() {
        var e = invalid(Graph.builder("g").node("END", echo()).node("a", echo()).edge(Graph.START, "a"));
        assertThat(e.getMessage()).contains("node 'END': the ids START and END are reserved");
    }

    @Test
    void rejectsConnectionsFromUnknownNodes() {
        var e = invalid(
                Graph.builder("g").node("a", echo()).edge(Graph.START, "a").edge("ghost", "a"));
        assertThat(e.getMessage()).contains("starts at unknown node 'ghost'");
    }

    @Test
    void rejectsConnectionsToNowhere() {
        var e = invalid(
                Graph.builder("g").node("a", echo()).edge(Graph.START, "a").edge("a", "ghost"));
        assertThat(e.getMessage()).contains("connection a -> ghost leads to unknown node 'ghost'");
    }

    @Test
    void rejectsAGraphWithoutEntry() {
        var e = invalid(Graph.builder("g").node("a", echo()));
        assertThat(e.getMessage()).contains("the graph has no entry");
    }

    @Test
    void rejectsAnEmptyGraph() {
        assertThat(invalid(Graph.builder("g")).getMessage()).contains("the graph has no nodes");
    }

    @Test
    void rejectsUnreachableNodes() {
        var e = invalid(
                Graph.builder("g").node("a", echo()).node("island", echo()).edge(Graph.START, "a"));
        assertThat(e.problems()).containsExactly("node 'island' cannot be reached from START");
    }

    @Test
    void rejectsNodesThatCannotReachAnEnd() {
        var e = invalid(Graph.builder("g")
                .node("a", echo())
                .node("b", echo())
                .node("c", echo())
                .edge(Graph.START, "a")
                .edge("a", "b")
                .edge("b", "c")
                .edge("c", "b"));
        assertThat(e.problems())
                .anyMatch(p -> p.startsWith("node 'a' cannot reach END"))
                .anyMatch(p -> p.startsWith("node 'b' cannot reach END"))
                .anyMatch(p -> p.startsWith("node 'c' cannot reach END"));
    }

    @Test
    void acceptsALoopWithAnExitToEnd() {
        Graph graph = Graph.builder("g")
                .node("a", echo())
                .node(branch("b"))
                .edge(Graph.START, "a")
                .edge("a", "b")
                .edge("b", Graph.POSITIVE, Graph.END)
                .edge("b", Graph.NEGATIVE, "a")
                .compile();
        assertThat(graph.targets("b", Graph.POSITIVE)).containsExactly(Graph.END);
    }

    @Test
    void rejectsAHandleTheNodeDoesNotHave() {
        var e = invalid(Graph.builder("g")
                .node(branch("check"))
                .node("b", echo())
                .edge(Graph.START, "check")
                .edge("check", "positiv", "b")
                .edge("check", Graph.POSITIVE, "b")
                .edge("check", Graph.NEGATIVE, "b"));
        assertThat(e.problems())
                .containsExactly("node 'check' has no handle 'positiv' (its handles: positive, negative)");
    }

    @Test
    void rejectsABranchHandleThatLeadsNowhere() {
        var e = invalid(Graph.builder("g")
                .node(branch("check"))
                .node("b", echo())
                .edge(Graph.START, "check")
                .edge("check", Graph.POSITIVE, "b"));
        assertThat(e.problems())
                .containsExactly("node 'check': handle 'negative' leads nowhere (connect it to a node or to END)");
    }

    @Test
    void acceptsABranchNodeWithNoConnectionsAtAll() {
        Graph graph = Graph.builder("g")
                .node(branch("check"))
                .edge(Graph.START, "check")
                .compile();
        assertThat(graph.nodes()).containsKey("check");
    }

    @Test
    void rejectsDuplicateConnectionsAndEdgesIntoStartOrOutOfEnd() {
        var e = invalid(Graph.builder("g")
                .node("a", echo())
                .edge(Graph.START, "a")
                .edge(Graph.START, "a")
                .edge("a", Graph.START)
                .edge(Graph.END, "a"));
        assertThat(e.problems())
                .contains("connection START -> a is declared twice")
                .contains("connection a -> START: nothing may lead into START")
                .contains("connection END -> a: END has no outgoing connections");
    }

    @Test
    void reportsEveryProblemAtOnce() {
        var e = invalid(Graph.builder("g")
                .node("a", echo())
                .node("a", echo())
                .edge(Graph.START, "a")
                .edge("a", "ghost")
                .edge("phantom", "a"));
        assertThat(e.problems()).hasSize(3);
    }

    @Test
    void buildersFailFastOnBadValues() {
        assertThatThrownBy(() -> NodeSpec.builder("a", echo()).maxVisits(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("visit limit of node 'a' must be positive, was 0");
        assertThatThrownBy(() -> NodeSpec.builder(" ", echo())).hasMessage("node id must not be blank");
        assertThatThrownBy(() -> NodeSpec.builder("a", echo()).handles("x", "x"))
                .hasMessage("handle 'x' is declared twice");
    }

    @Test
    void rendersMermaid() {
        Graph graph = Graph.builder("g")
                .node("a", echo())
                .node(branch("check"))
                .node("b", echo())
                .edge(Graph.START, "a")
                .edge("a", "check")
                .edge("check", Graph.POSITIVE, "b")
                .edge("check", Graph.NEGATIVE, Graph.END)
                .compile();
        assertThat(graph.toMermaid())
                .startsWith("flowchart TD\n")
                .contains("n_check{\"check (node)\"}")
                .contains("n_check -->|positive| n_b")
                .contains("n_check -->|negative| END")
                .contains("START --> n_a");
    }
}
