package dev.weft.bench;

/**
 * One engine with one checkpoint configuration, ready to run one {@link GraphShape} again and
 * again. Used by one thread.
 */
interface GraphHarness extends AutoCloseable {

    /**
     * Runs the graph once, from its input to its end.
     *
     * @return the node executions the run performed, as counted by the nodes themselves
     * @throws IllegalStateException if the run did not complete
     */
    int runOnce();

    /**
     * Drops whatever earlier runs left in the engine's store, so that a store which keeps every run
     * does not grow through a measurement. Called between batches of runs, outside the timed part.
     */
    void forgetRuns();

    @Override
    void close();
}
