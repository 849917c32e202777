package dev.weft.core.spi;

import dev.weft.core.StepStatus;
import dev.weft.core.spi.RunStore.Change;
import java.util.ArrayList;
import java.util.List;

/** Helpers for {@link RunStore} implementations that write a batch of {@link Change}s. */
public final class Changes {
    private Changes() {}

    /**
     * The batch with fewer step writes, for a store where each write costs a statement: an update of a step that an earlier update in the batch
     * (started, then finished) leads into is written once, in its last state, expecting either
     * update's statuses: from a status the first expects both would apply; from one only the second
     * expects, the second alone would. Nothing sees the states in between of one atomic batch.
     * Everything else keeps its order; every checkpoint is kept, so a run can be forked from any
     * step.
     */
    public static List<Change> coalesce(List<Change> batch) {
        // Batches hold a handful of changes: a backwards scan costs less than any index.
        List<Change> out = null;
        for (int i = 0; i < batch.size(); i++) {
            Change change = batch.get(i);
            List<Change> sofar = out == null ? batch.subList(0, i) : out;
            int at = change instanceof Change.UpdateStep update ? mergeTarget(sofar, update) : -1;
            if (at >= 0) {
                if (out == null) {
                    out = new ArrayList<>(batch.subList(0, i));
                }
                Change.UpdateStep earlier = (Change.UpdateStep) out.get(at);
                Change.UpdateStep later = (Change.UpdateStep) change;
                java.util.Set<StepStatus> expected = java.util.EnumSet.noneOf(StepStatus.class);
                expected.addAll(earlier.expected());
                expected.addAll(later.expected());
                out.set(at, new Change.UpdateStep(later.step(), expected));
            } else if (out != null) {
                out.add(change);
            }
        }
        return out == null ? batch : out;
    }

    /**
     * Where the latest earlier write of {@code update}'s step is, if it is an update that leads into
     * {@code update} (writes a status {@code update} expects); otherwise -1.
     */
    private static int mergeTarget(List<Change> earlier, Change.UpdateStep update) {
        int order = update.step().order();
        for (int i = earlier.size() - 1; i >= 0; i--) {
            Change change = earlier.get(i);
            if (change instanceof Change.UpdateStep previous && previous.step().order() == order) {
                return update.expected().contains(previous.step().status()) ? i : -1;
            }
            if (change instanceof Change.InsertStep insert && insert.step().order() == order) {
                return -1;
            }
        }
        return -1;
    }
}
