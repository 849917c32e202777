package dev.weft.bench;

/**
 * The graphs the graph benchmark runs on every engine: trivial nodes, each adding one to a counter,
 * so that what is measured is the engine's cost per step, not the nodes' work.
 */
enum GraphShape {
    /** Ten nodes in a row, from start to end. */
    CHAIN10("chain10", 10),
    /** One node that loops back to itself until it has run a hundred times. */
    LOOP100("loop100", 100);

    private final String label;
    private final int stepsPerRun;

    GraphShape(String label, int stepsPerRun) {
        this.label = label;
        this.stepsPerRun = stepsPerRun;
    }

    /** The name printed in result lines ({@code graph=<label>}). */
    String label() {
        return label;
    }

    /** The node executions one run performs, and so the counter's value at the end of a run. */
    int stepsPerRun() {
        return stepsPerRun;
    }
}
