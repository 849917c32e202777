package dev.weft.core;

import static dev.weft.core.Nodes.constant;
import static dev.weft.core.Nodes.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.spi.Checkpoint;
import dev.weft.core.store.InMemoryRunStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A checkpoint copies only what changed since the one before and shares the rest with it: what each
 * checkpoint holds is still the run's state at its step, never an earlier one's.
 */
final class CheckpointSharingTest {
    private final InMemoryRunStore store = InMemoryRunStore.create();
    private final Runner runner =
            Runner.builder().store(store).time(new FakeTime()).build();

    private final Graph chain = Graph.builder("chain")
            .node("a", constant("{\"n\": 1}"))
            .node("b", constant("{\"m\": 2}"))
            .edge(Graph.START, "a")
            .edge("a", "b")
            .compile();

    @Test
    void everyCheckpointHoldsTheStateAfterItsOwnStep() {
        RunResult result = runner.run(chain, RunRequest.of(json("{\"x\": 1}")));

        List<Checkpoint> checkpoints = store.checkpoints(result.runId());
        assertThat(checkpoints).extracting(Checkpoint::afterStep).containsExactly(0, 1, 2, 2);
        Checkpoint started = checkpoints.get(0);
        Checkpoint afterA = checkpoints.get(1);
        Checkpoint afterB = checkpoints.get(2);
        assertThat(started.outputs()).isEmpty();
        assertThat(started.visits()).isEmpty();
        assertThat(started.pending()).extracting(Checkpoint.Activation::nodeId).containsExactly("a");
        assertThat(afterA.outputs()).isEqualTo(Map.of("a", json("{\"n\": 1}")));
        assertThat(afterA.visits()).isEqualTo(Map.of("a", 1));
        assertThat(afterA.pending()).extracting(Checkpoint.Activation::nodeId).containsExactly("b");
        assertThat(afterA.ended()).isEmpty();
        assertThat(afterB.outputs()).isEqualTo(Map.of("a", json("{\"n\": 1}"), "b", json("{\"m\": 2}")));
        assertThat(afterB.visits()).isEqualTo(Map.of("a", 1, "b", 1));
        assertThat(afterB.pending()).isEmpty();
        assertThat(afterB.ended()).isEqualTo(Map.of("b", json("{\"m\": 2}")));
    }

    @Test
    void theCheckpointThatEndsARunSharesWhatTheLastStepsLeftUnchanged() {
        RunResult result = runner.run(chain, RunRequest.of(json("{\"x\": 1}")));

        List<Checkpoint> checkpoints = store.checkpoints(result.runId());
        Checkpoint afterB = checkpoints.get(2);
        Checkpoint end = checkpoints.get(3);
        assertThat(end.outputs()).isSameAs(afterB.outputs());
        assertThat(end.visits()).isSameAs(afterB.visits());
        assertThat(end.ended()).isSameAs(afterB.ended());
        assertThat(checkpoints.get(1).outputs()).isNotSameAs(afterB.outputs());
    }
}
