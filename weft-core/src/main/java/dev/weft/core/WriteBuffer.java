package dev.weft.core;

import dev.weft.core.spi.RunStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A run's writes since the last commit: steps, events and the checkpoint that goes with them, applied
 * in one {@link RunStore#apply} so a step's result and the checkpoint that records it land together.
 * The coordinator calls {@link #commit} before it starts a node and {@link #flush} when the run stops.
 * Under {@link Durability#SYNC} both commit at once. Under {@link Durability#ASYNC}, {@link #commit}
 * has the JVM's {@link CommitTimer} start a writer task on the runner's executor after the runner's
 * commit delay (if anything is left to write by then), and returns; the
 * writer applies whatever has gathered since its last transaction, so a run that outpaces the store
 * gets several steps to a transaction; its first transaction also creates the run, unless the run
 * had to be in the store before it started ({@link #createRun}). {@link #flush} does not wait for a
 * writer that has not begun a transaction: it commits everything itself, so a run that stops within
 * the delay is created, or commits its steps, together with its end, in one transaction. Thread-safe: steps running in parallel add their own writes.
 */
final class WriteBuffer {
    /** The most writes an asynchronous run may have waiting for the writer before it waits too. */
    static final int MAX_BACKLOG = 4096;

    private final Runner runner;
    private final RunStore store;
    private final String runId;
    private final String owner;
    private final List<RunListener> listeners;
    private final Durability durability;
    private final Executor executor;
    /** How long a writer waits before its first transaction; zero starts it at once. */
    private final long commitDelayNanos;

    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled whenever a transaction ends, so that waiters for the writer can look again. */
    private final Condition progress = lock.newCondition();
    // Plain lists under the lock: nearly every write comes from the run's driver thread, so the lock
    // is uncontended, and cheaper than a concurrent queue's node per write.
    private List<RunStore.Change> changes = new ArrayList<>();
    private List<Event> heldEvents = new ArrayList<>();
    /** Whether a writer task has been started and has not yet found the buffer empty; at most one has. */
    private boolean writerActive;
    /** The writer's start, while it waits for the commit delay. */
    private CommitTimer.@Nullable Due delayedWriter;
    /** Whether a transaction is being applied (by the writer task, or by {@link #flush}); one at a time. */
    private boolean applying;
    /**
     * The run's creation, while it waits for the first transaction (see {@link #createRun}). Set
     * under the lock before any transaction starts, and read and cleared only by the one transaction
     * under way ({@link #applying}), so the lock orders every access.
     */
    private @Nullable Creation uncreated;
    /**
     * The thread that created the run in this buffer's last transaction, while nothing has been
     * written since; else null. A commit on that thread before the run's first node would write
     * nothing, and could only tell of a cancellation requested in the moments since the creation
     * (which found none, and claimed a fresh lease): no more than the commit before the next node
     * tells, as for a request that comes while any node runs. A run driven on another thread (one
     * started in the background, which may wait its turn) still commits before its first node.
     * Under the lock.
     */
    private @Nullable Thread creator;
    /** Whether a transaction has told of a cancellation request. */
    private volatile boolean cancelRequested;
    /** The failure of the writer's last transaction, thrown to the run at its next commit. */
    private @Nullable RuntimeException failure;

    /** The writes of run {@code runId}, committed to {@code runner}'s store as its durability says. */
    WriteBuffer(Runner runner, String runId) {
        this.runner = runner;
        this.store = runner.store();
        this.runId = runId;
        this.owner = runner.owner();
        this.listeners = runner.listeners();
        this.durability = runner.durability();
        this.executor = runner.executor();
        this.commitDelayNanos = runner.commitDelay().toNanos();
    }

    void add(RunStore.Change change) {
        lock.lock();
        try {
            creator = null;
            changes.add(change);
        } finally {
            lock.unlock();
        }
    }

    /** An event listeners hear of only once it is committed (a step's completion, the run's end). */
    void holdForCommit(Event event) {
        lock.lock();
        try {
            creator = null;
            heldEvents.add(event);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Commits everything written so far, or under {@link Durability#ASYNC} has it committed in the
     * background.
     *
     * @return whether the run has been asked to stop, as far as the last commit knows
     * @throws LeaseLostException if another process has taken the run over
     */
    boolean commit() {
        if (durability == Durability.SYNC) {
            return flush();
        }
        lock.lock();
        try {
            throwFailure();
            if (!writerActive && !changes.isEmpty()) {
                writerActive = true;
                if (commitDelayNanos == 0) {
                    try {
                        executor.execute(this::writeInBackground);
                    } catch (RejectedExecutionException e) {
                        // No writer after all (the executor was shut down): nothing may wait for one.
                        writerActive = false;
                        throw e;
                    }
                } else {
                    delayedWriter = CommitTimer.SHARED.schedule(commitDelayNanos, this::writerDue);
                }
            }
            while (changes.size() > MAX_BACKLOG && failure == null) {
                progress.awaitUninterruptibly();
            }
            throwFailure();
            return cancelRequested;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Commits everything written so far and returns once it is committed, after any transaction the
     * writer has under way (but without waiting for a writer still in its commit delay).
     *
     * @return whether the run has been asked to stop
     * @throws LeaseLostException if another process has taken the run over
     */
    boolean flush() {
        List<RunStore.Change> batch;
        List<Event> held;
        lock.lock();
        try {
            while (applying) {
                progress.awaitUninterruptibly();
            }
            throwFailure();
            if (creator == Thread.currentThread()) {
                // Before the run's first node, right after its creation on this thread: nothing to make
                // a transaction of.
                return cancelRequested;
            }
            batch = takeChanges();
            held = takeHeldEvents();
            applying = true;
        } finally {
            lock.unlock();
        }
        try {
            apply(batch, held);
        } finally {
            lock.lock();
            try {
                applying = false;
                // Nothing left for a writer still in its delay: take it back, so the timer need not
                // wake for it (the run has typically stopped).
                CommitTimer.Due waiting = delayedWriter;
                if (waiting != null && changes.isEmpty() && CommitTimer.SHARED.cancel(waiting)) {
                    delayedWriter = null;
                    writerActive = false;
                }
                progress.signalAll();
            } finally {
                lock.unlock();
            }
        }
        return cancelRequested;
    }

    /**
     * Creates the run, claimed by {@code lease}, together with everything written so far (its first
     * events and checkpoint), in one transaction; then the run's later writes are committed as usual.
     * Under {@link Durability#ASYNC}, if {@code deferrable}, the run is created by the first
     * transaction of the writer instead, with whatever it has done by then: a run that ends within
     * the commit delay takes one transaction in all.
     */
    void createRun(Run run, RunStore.Lease lease, boolean deferrable) {
        if (deferrable && durability == Durability.ASYNC) {
            lock.lock();
            try {
                uncreated = new Creation(run, lease);
            } finally {
                lock.unlock();
            }
            runner.creating(run.id(), this);
            commit();
            return;
        }
        List<RunStore.Change> batch;
        List<Event> held;
        lock.lock();
        try {
            batch = takeChanges();
            held = takeHeldEvents();
        } finally {
            lock.unlock();
        }
        store.createRun(run, lease, batch);
        lock.lock();
        try {
            creator = changes.isEmpty() && heldEvents.isEmpty() ? Thread.currentThread() : null;
        } finally {
            lock.unlock();
        }
        for (Event event : held) {
            EventSink.notify(listeners, event);
        }
    }

    /** Whether anything has been written since the last transaction took the writes. */
    boolean hasChanges() {
        lock.lock();
        try {
            return !changes.isEmpty() || !heldEvents.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Tells the run, at its next commit, that it has been asked to stop. */
    void cancelRequested() {
        cancelRequested = true;
    }

    /**
     * Once the commit delay is over (on the timer's thread, so it must not block): hands the writer
     * to the runner's executor if anything is left to write. A run that stopped within the delay has
     * committed everything itself, and needs no writer at all. An executor that refuses the writer
     * fails the run's next commit.
     */
    private void writerDue() {
        lock.lock();
        try {
            delayedWriter = null;
            if (changes.isEmpty()) {
                writerActive = false;
                progress.signalAll();
                return;
            }
        } finally {
            lock.unlock();
        }
        try {
            executor.execute(this::writeInBackground);
        } catch (RejectedExecutionException e) {
            lock.lock();
            try {
                writerActive = false;
                if (failure == null) {
                    failure = e;
                }
                progress.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** The writer task: applies what has gathered, again and again, until nothing is left. */
    private void writeInBackground() {
        while (true) {
            List<RunStore.Change> batch;
            List<Event> held;
            lock.lock();
            try {
                while (applying) {
                    progress.awaitUninterruptibly();
                }
                if (changes.isEmpty()) {
                    writerActive = false;
                    progress.signalAll();
                    return;
                }
                batch = takeChanges();
                held = takeHeldEvents();
                applying = true;
            } finally {
                lock.unlock();
            }
            RuntimeException failed = null;
            try {
                apply(batch, held);
            } catch (RuntimeException e) {
                failed = e;
            }
            lock.lock();
            try {
                applying = false;
                if (failed != null) {
                    failure = failed;
                    writerActive = false;
                }
                progress.signalAll();
                if (failed != null) {
                    return;
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private void apply(List<RunStore.Change> batch, List<Event> held) {
        Creation creation = uncreated;
        if (creation != null) {
            // Nobody can have asked to cancel a run that is not in the store yet.
            store.createRun(creation.run(), creation.lease(), batch);
            uncreated = null;
            runner.created(runId);
        } else if (store.apply(runId, owner, batch)) {
            cancelRequested = true;
        }
        for (Event event : held) {
            EventSink.notify(listeners, event);
        }
    }

    private record Creation(Run run, RunStore.Lease lease) {}

    private List<RunStore.Change> takeChanges() {
        List<RunStore.Change> batch = changes;
        changes = new ArrayList<>(Math.min(batch.size(), MAX_BACKLOG) + 4);
        return batch;
    }

    private List<Event> takeHeldEvents() {
        if (heldEvents.isEmpty()) {
            return List.of();
        }
        List<Event> held = heldEvents;
        heldEvents = new ArrayList<>(held.size() + 2);
        return held;
    }

    private void throwFailure() {
        if (failure != null) {
            throw failure;
        }
    }
}
