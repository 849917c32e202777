package dev.weft.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.weft.core.Event;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.spi.RunStore.Change;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A batch reaches the store with each step written once, in its last state. */
final class ChangesTest {
    private static final Instant T = Instant.parse("2026-11-21T10:00:00Z");

    private static Step pending(int order) {
        return new Step(
                "run",
                order,
                "n" + order,
                "n" + order,
                "node",
                StepStatus.PENDING,
                0,
                false,
                NullNode.getInstance(),
                NullNode.getInstance(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Map.of());
    }

    private static Step running(int order) {
        return pending(order).running(1, IntNode.valueOf(order), T);
    }

    private static Step completed(int order) {
        return running(order).finished(StepStatus.COMPLETED, IntNode.valueOf(order), Optional.empty(), T, Map.of());
    }

    private static Change event(long sequence) {
        return new Change.AppendEvent(
                new Event("run", sequence, "step.completed", Optional.empty(), 0, T, NullNode.getInstance()));
    }

    private static Change checkpoint(int afterStep) {
        return new Change.SaveCheckpoint(
                new Checkpoint("run", afterStep, afterStep, T, Map.of(), Map.of(), List.of(), List.of(), Map.of(), ""));
    }

    @Test
    void aStepStartedAndFinishedInOneBatchIsWrittenOnceExpectingEitherUpdatesStatuses() {
        Set<StepStatus> startable = Set.of(StepStatus.PENDING, StepStatus.WAITING);
        List<Change> batch = List.of(
                new Change.UpdateStep(running(1), startable),
                event(1),
                new Change.UpdateStep(completed(1), Set.of(StepStatus.RUNNING)),
                event(2));

        assertThat(Changes.coalesce(batch))
                .containsExactly(
                        new Change.UpdateStep(
                                completed(1), Set.of(StepStatus.PENDING, StepStatus.WAITING, StepStatus.RUNNING)),
                        event(1),
                        event(2));
    }

    @Test
    void anInsertIsKeptAsItIsAndTheUpdatesAfterItMerge() {
        List<Change> batch = List.of(
                new Change.InsertStep(pending(2)),
                new Change.UpdateStep(running(2), Set.of(StepStatus.PENDING)),
                new Change.UpdateStep(completed(2), Set.of(StepStatus.RUNNING)));

        assertThat(Changes.coalesce(batch))
                .containsExactly(
                        new Change.InsertStep(pending(2)),
                        new Change.UpdateStep(completed(2), Set.of(StepStatus.PENDING, StepStatus.RUNNING)));
    }

    @Test
    void aMergedUpdateEndsAsTheTwoWouldFromAnyStoredStatus() {
        Change.UpdateStep first = new Change.UpdateStep(running(6), Set.of(StepStatus.PENDING));
        Change.UpdateStep second = new Change.UpdateStep(completed(6), Set.of(StepStatus.RUNNING));
        Change.UpdateStep merged =
                (Change.UpdateStep) Changes.coalesce(List.of(first, second)).get(0);
        for (StepStatus stored : StepStatus.values()) {
            StepStatus afterBoth = stored;
            if (first.expected().contains(afterBoth)) {
                afterBoth = first.step().status();
            }
            if (second.expected().contains(afterBoth)) {
                afterBoth = second.step().status();
            }
            StepStatus afterMerged =
                    merged.expected().contains(stored) ? merged.step().status() : stored;
            assertThat(afterMerged).as("from %s", stored).isEqualTo(afterBoth);
        }
    }

    @Test
    void anUpdateWhosePreconditionTheEarlierWriteDoesNotMeetIsKeptApart() {
        List<Change> batch = List.of(
                new Change.UpdateStep(running(3), Set.of(StepStatus.PENDING)),
                new Change.UpdateStep(completed(3), Set.of(StepStatus.WAITING)));

        assertThat(Changes.coalesce(batch)).isEqualTo(batch);
    }

    @Test
    void everyCheckpointAndEventKeepsItsPlace() {
        List<Change> batch = List.of(
                checkpoint(1),
                new Change.InsertStep(pending(4)),
                event(3),
                checkpoint(2),
                new Change.UpdateStep(running(5), Set.of(StepStatus.PENDING)));

        assertThat(Changes.coalesce(batch)).isEqualTo(batch);
    }
}
