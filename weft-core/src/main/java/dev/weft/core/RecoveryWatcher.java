package dev.weft.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Recovers, in a long-running process, the runs that a dead process left {@code RUNNING}: every
 * {@code interval} it asks the store for runs whose lease expired and continues each one whose graph
 * it can find, from its latest checkpoint, on a virtual thread (see {@link Runner#recover}). Several
 * processes may watch one store: the lease decides which of them takes a run. Close it to stop.
 */
public final class RecoveryWatcher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(RecoveryWatcher.class.getName());

    private final Runner runner;
    private final Function<Run, Optional<Graph>> graphs;
    private final ScheduledExecutorService clock;
    /** Runs this watcher is recovering now, so a slow recovery is not started twice. */
    private final java.util.Set<String> recovering = ConcurrentHashMap.newKeySet();

    private RecoveryWatcher(Runner runner, Function<Run, Optional<Graph>> graphs) {
        this.runner = runner;
        this.graphs = graphs;
        this.clock = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("weft-recovery").daemon().factory());
    }

    /**
     * Starts watching: a first scan at once, then one every {@code interval}.
     *
     * @param graphs the graph of a run, or empty for runs this process cannot run (they are left to
     *     another process)
     */
    public static RecoveryWatcher start(Runner runner, Duration interval, Function<Run, Optional<Graph>> graphs) {
        Objects.requireNonNull(runner, "runner");
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(graphs, "graphs");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("recovery interval must be positive, was " + interval);
        }
        RecoveryWatcher watcher = new RecoveryWatcher(runner, graphs);
        watcher.clock.scheduleWithFixedDelay(watcher::scanQuietly, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
        return watcher;
    }

    /**
     * One scan now: starts recovering every abandoned run whose graph is known, and returns their ids.
     * A run another process took first is skipped.
     */
    public List<String> scan() {
        List<String> started = new ArrayList<>();
        for (Run run : runner.recoverable()) {
            Optional<Graph> graph = graphs.apply(run);
            if (graph.isEmpty() || !recovering.add(run.id())) {
                continue;
            }
            started.add(run.id());
            Thread.ofVirtual().name("weft-recover-" + run.id()).start(() -> recover(graph.get(), run));
        }
        return started;
    }

    private void recover(Graph graph, Run run) {
        try {
            RunResult result = runner.recover(graph, run.id());
            LOG.log(System.Logger.Level.INFO, "recovered run " + run.id() + ": " + result.status());
        } catch (RunStateException e) {
            // Another process recovered it first, or it finished meanwhile.
            LOG.log(System.Logger.Level.DEBUG, "run " + run.id() + " not recovered here: " + e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "recovering run " + run.id() + " failed", e);
        } finally {
            recovering.remove(run.id());
        }
    }

    private void scanQuietly() {
        try {
            scan();
        } catch (RuntimeException e) {
            // A store briefly unreachable: the next scan tries again.
            LOG.log(System.Logger.Level.WARNING, "scanning for abandoned runs failed", e);
        }
    }

    /** Stops scanning; recoveries already started run on. */
    @Override
    public void close() {
        clock.shutdownNow();
    }
}
