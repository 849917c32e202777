package dev.weft.core;

import dev.weft.core.spi.RunStore;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's writes since the last commit: steps, events and the checkpoint that goes with them. The
 * coordinator commits them in one {@link RunStore#apply} before it starts a node and when the run
 * stops, so a step's result and the checkpoint that records it land together. Thread-safe: steps
 * running in parallel add their own writes.
 */
final class WriteBuffer {
    private final RunStore store;
    private final String runId;
    private final String owner;
    private final List<RunListener> listeners;
    // Plain lists under this buffer's lock: nearly every write comes from the coordinator's own
    // thread, so the lock is uncontended, and cheaper than a concurrent queue's node per write.
    private List<RunStore.Change> changes = new ArrayList<>();
    private List<Event> heldEvents = new ArrayList<>();

    WriteBuffer(RunStore store, String runId, String owner, List<RunListener> listeners) {
        this.store = store;
        this.runId = runId;
        this.owner = owner;
        this.listeners = listeners;
    }

    synchronized void add(RunStore.Change change) {
        changes.add(change);
    }

    /** An event listeners hear of only once it is committed (a step's completion, the run's end). */
    synchronized void holdForCommit(Event event) {
        heldEvents.add(event);
    }

    /**
     * Commits everything written so far.
     *
     * @return whether the run has been asked to stop
     * @throws LeaseLostException if another process has taken the run over
     */
    boolean commit() {
        List<RunStore.Change> batch;
        List<Event> held;
        synchronized (this) {
            batch = changes;
            held = heldEvents;
            changes = new ArrayList<>(batch.size() + 4);
            heldEvents = new ArrayList<>(held.size() + 2);
        }
        boolean cancelRequested = store.apply(runId, owner, coalesce(batch));
        for (Event event : held) {
            EventSink.notify(listeners, event);
        }
        return cancelRequested;
    }

    /**
     * The batch with fewer step writes: an update of a step that an earlier update in the batch
     * (started, then finished) leads into is written once, in its last state, expecting either
     * update's statuses: from a status the first expects both would apply; from one only the second
     * expects, the second alone would. Nothing sees the states in between of one atomic batch.
     * Everything else keeps its order; every checkpoint is kept, so a run can be forked from any
     * step.
     */
    static List<RunStore.Change> coalesce(List<RunStore.Change> batch) {
        if (batch.size() < 2) {
            return batch;
        }
        List<RunStore.Change> out = new ArrayList<>(batch.size());
        java.util.Map<Integer, Integer> updateAt = new java.util.HashMap<>();
        for (RunStore.Change change : batch) {
            if (change instanceof RunStore.Change.UpdateStep update) {
                Integer at = updateAt.get(update.step().order());
                if (at != null
                        && out.get(at) instanceof RunStore.Change.UpdateStep earlier
                        && update.expected().contains(earlier.step().status())) {
                    java.util.Set<StepStatus> expected = java.util.EnumSet.noneOf(StepStatus.class);
                    expected.addAll(earlier.expected());
                    expected.addAll(update.expected());
                    out.set(at, new RunStore.Change.UpdateStep(update.step(), expected));
                    continue;
                }
                updateAt.put(update.step().order(), out.size());
            } else if (change instanceof RunStore.Change.InsertStep insert) {
                // A step inserted after an update of the same order ends that update's run of merges.
                updateAt.remove(insert.step().order());
            }
            out.add(change);
        }
        return out;
    }
}
