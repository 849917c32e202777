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
        boolean cancelRequested = store.apply(runId, owner, batch);
        for (Event event : held) {
            EventSink.notify(listeners, event);
        }
        return cancelRequested;
    }
}
