package dev.weft.core;

/**
 * When a run's writes (its steps, events and checkpoints) are committed to the store, relative to the
 * run's progress. Set with {@link Runner.Builder#durability}.
 *
 * <p>Under both, every step and every checkpoint is written, the run's final status is committed only
 * after everything before it, a run that stops (completes, fails, is cancelled, or waits for input)
 * has all its writes committed before its result is returned, and listeners hear of a lifecycle event
 * (a step's completion, the run's end) only once it is committed.
 */
public enum Durability {
    /**
     * Before a node starts, everything the run has written so far is committed (the default). A
     * crash re-runs only the nodes that were in flight; a cancellation or a lost lease is noticed
     * before the next node.
     */
    SYNC,

    /**
     * Nodes start without waiting for the writes before them: a background writer commits them while
     * the run goes on, several steps to a transaction when the store is slower than the run. The
     * writer starts its first transaction a commit delay after the writes that woke it ({@link
     * Runner.Builder#commitDelay}, 1 ms by default), so that the writes made meanwhile share it; a run
     * that stops sooner commits everything itself, with its end, in one transaction. The writer's
     * first transaction also creates the run, so until then the run is not in the store, and a crash
     * loses it whole; a run whose id the caller chose, or that is part of another, is created before
     * it starts all the same. A crash re-runs
     * every node since the last committed checkpoint (their tools are called again with the same
     * idempotency keys, and an idempotent tool's stored result is still returned); a cancellation or
     * a lost lease is noticed when the writer's transaction that learns of it commits, typically one
     * or two nodes, or the commit delay, later. Listeners may hear of a step's completion after the
     * next step has started; event sequence numbers keep the order. The writer never falls more than
     * {@value WriteBuffer#MAX_BACKLOG} writes behind: a run that outpaces it waits.
     */
    ASYNC
}
