package dev.weft.core;

import static dev.weft.core.Nodes.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.TextNode;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A run carries its user: stored, seen by its nodes, inherited by its child runs, kept by its forks. */
final class RunUserTest {
    private final Runner runner = Runner.create();
    private final List<Optional<String>> seen = new CopyOnWriteArrayList<>();

    private Node recordingUser() {
        return context -> {
            seen.add(context.user());
            return NodeResult.output(TextNode.valueOf(context.user().orElse("nobody")));
        };
    }

    @Test
    void aRunsUserIsStoredAndSeenByItsNodesAndItsChildRuns() {
        Graph child = Graph.builder("child")
                .node("inner", recordingUser())
                .edge(Graph.START, "inner")
                .compile();
        Graph graph = Graph.builder("parent")
                .node("outer", recordingUser())
                .subgraph("sub", context -> child)
                .edge(Graph.START, "outer")
                .edge("outer", "sub")
                .compile();

        RunResult result = runner.run(
                graph, RunRequest.builder().input(json("1")).user("dana").build());

        assertThat(result.run().user()).contains("dana");
        assertThat(seen).containsExactly(Optional.of("dana"), Optional.of("dana"));
        assertThat(runner.store().listRuns(Optional.empty(), Optional.of("dana")))
                .hasSize(2);
        assertThat(runner.store().listRuns(Optional.empty(), Optional.of("omer")))
                .isEmpty();
    }

    @Test
    void aRunOfNobodyInParticularHasNoUserAndIsAnyones() {
        Graph graph = Graph.builder("g")
                .node("n", recordingUser())
                .edge(Graph.START, "n")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("1")));

        assertThat(result.run().user()).isEmpty();
        assertThat(seen).containsExactly(Optional.empty());
        assertThat(result.run().requireUser("anyone")).isSameAs(result.run());
    }

    @Test
    void aForkKeepsTheUserAndAnotherUserIsForbidden() {
        Graph graph = Graph.builder("g")
                .node("a", recordingUser())
                .node("b", recordingUser())
                .edge(Graph.START, "a")
                .edge("a", "b")
                .compile();
        RunResult first = runner.run(graph, RunRequest.builder().user("dana").build());

        RunResult fork = runner.fork(graph, first.runId(), 1);

        assertThat(fork.run().user()).contains("dana");
        assertThat(first.run().requireUser("dana")).isNotNull();
        assertThatThrownBy(() -> first.run().requireUser("omer"))
                .isInstanceOf(ForbiddenException.class)
                .hasMessageContaining("not a run of user 'omer'")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_FORBIDDEN);
    }

    @Test
    void aBlankOrUnprintableUserIsRefusedAtOnce() {
        assertThatThrownBy(() -> RunRequest.builder().user(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("was ' '");
        assertThatThrownBy(() -> RunRequest.builder().user("a\nb")).isInstanceOf(IllegalArgumentException.class);
    }
}
