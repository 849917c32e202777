package dev.weft.bench;

import dev.weft.core.Durability;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@code weft-bench graph [--seconds N]}: the per-step overhead of Weft's runner against
 * LangGraph4j's, in the same JVM, on the same graphs of trivial nodes, with and without each engine's
 * in-memory checkpointing. Prints one line per measurement, then Weft's µs per step over
 * LangGraph4j's for every pairing, then whether that ratio is at most {@value #TARGET_RATIO}
 * everywhere. With a durable checkpoint after every step (SQLite, PostgreSQL) it prints Weft's µs per
 * step over LangGraph4j's in memory, and beside SQLite the floor of plain JDBC writing one row per
 * step ({@link BareSqliteHarness}), so that what the disk costs and what Weft costs can be told apart.
 * Results go to stdout, progress to stderr.
 *
 * <p>Each configuration is warmed up for half the measuring time (longer while the JIT compiler is
 * still busy, up to {@value #MAX_WARMUP_FACTOR} times that), then measured on one thread in
 * batches of runs (again, up to {@value #MAX_MEASUREMENTS} times in all, while the compiler was busy
 * during the measurement); between batches (untimed) the harness drops the runs its store kept, so a store
 * that grows with every run does not turn the measurement into one of the garbage collector.
 */
public final class GraphBenchmark {
    static final String WEFT = "weft";
    static final String LANGGRAPH4J = "langgraph4j";
    /** No engine: plain JDBC writing one row per step into SQLite ({@link BareSqliteHarness}). */
    static final String BARE_SQLITE = "bare-sqlite";
    /** No engine: plain JDBC writing one row per step into PostgreSQL ({@link BarePostgresHarness}). */
    static final String BARE_POSTGRES = "bare-postgres";
    /** Weft's µs per step may be at most this fraction of LangGraph4j's, in every pairing. */
    static final double TARGET_RATIO = 0.25;

    private static final double DEFAULT_SECONDS = 5;
    // About ten thousand node executions per batch: long enough that reading the clock costs nothing,
    // short enough that a batch's runs stay a few megabytes in an in-memory store.
    private static final int STEPS_PER_BATCH = 10_000;
    private static final String USAGE = "usage: weft-bench graph [--seconds N] [--only ENGINE/CHECKPOINT]"
            + "   (N > 0, default 5; --only measures that one configuration, e.g. weft/sqlite, to profile it)";
    /** The longest warm-up, in multiples of the planned one, while the JIT compiler is still busy. */
    static final int MAX_WARMUP_FACTOR = 4;
    /** The most measurements of one line, taken again while the JIT compiler was busy during the last. */
    static final int MAX_MEASUREMENTS = 3;

    private GraphBenchmark() {}

    /** Checkpoint settings that commit to a database: before each step, or in the background. */
    static final List<String> DURABLE_CHECKPOINTS =
            List.of("sqlite", "sqlite-async", "postgres", "postgres-async", "file");

    /**
     * An engine with a checkpoint setting, and how to set it up for a graph. A checkpoint store to
     * compare is one more entry in {@link #configurations()}; ratios are printed for every graph and
     * checkpoint setting that both engines have.
     */
    record Configuration(String engine, String checkpoint, Function<GraphShape, GraphHarness> harness) {}

    /** Engines of one checkpoint setting sit side by side, so that each pair is measured close in time. */
    static List<Configuration> configurations() {
        return List.of(
                new Configuration(WEFT, "none", WeftGraphHarness::withoutCheckpoints),
                new Configuration(LANGGRAPH4J, "none", LangGraph4jGraphHarness::withoutCheckpoints),
                new Configuration(WEFT, "memory", WeftGraphHarness::checkpointingInMemory),
                new Configuration(LANGGRAPH4J, "memory", LangGraph4jGraphHarness::checkpointingInMemory),
                new Configuration(
                        WEFT,
                        "sqlite",
                        shape -> WeftGraphHarness.checkpointingDurably(shape, DurableStores.sqlite(), Durability.SYNC)),
                new Configuration(BARE_SQLITE, "sqlite", BareSqliteHarness::committingEveryStep),
                new Configuration(
                        WEFT,
                        "sqlite-async",
                        shape ->
                                WeftGraphHarness.checkpointingDurably(shape, DurableStores.sqlite(), Durability.ASYNC)),
                new Configuration(BARE_SQLITE, "sqlite-async", BareSqliteHarness::committingOncePerRun),
                new Configuration(
                        WEFT,
                        "postgres",
                        shape -> WeftGraphHarness.checkpointingDurably(
                                shape, DurableStores.postgres(), Durability.SYNC)),
                new Configuration(BARE_POSTGRES, "postgres", BarePostgresHarness::committingEveryStep),
                new Configuration(
                        WEFT,
                        "postgres-async",
                        shape -> WeftGraphHarness.checkpointingDurably(
                                shape, DurableStores.postgres(), Durability.ASYNC)),
                new Configuration(BARE_POSTGRES, "postgres-async", BarePostgresHarness::committingOncePerRun),
                // LangGraph4j's durable saver in its core; its PostgreSQL saver is a separate
                // artifact (docs/benchmarks.md says why it is not measured here).
                new Configuration(LANGGRAPH4J, "file", LangGraph4jGraphHarness::checkpointingToFiles));
    }

    /** The µs per step of one configuration on one graph. */
    record Measurement(Configuration configuration, GraphShape shape, long steps, long nanos) {
        double microsPerStep() {
            return nanos / 1_000.0 / steps;
        }

        boolean pairsWith(Measurement other) {
            return shape == other.shape && configuration.checkpoint().equals(other.configuration.checkpoint());
        }

        String line() {
            return String.format(
                    Locale.ROOT,
                    "engine=%s graph=%s checkpoint=%s us_per_step=%.3f",
                    configuration.engine(),
                    shape.label(),
                    configuration.checkpoint(),
                    microsPerStep());
        }
    }

    /** Weft's µs per step over LangGraph4j's, for one graph and checkpoint setting. */
    record Ratio(Measurement weft, Measurement langGraph4j) {
        double value() {
            return weft.microsPerStep() / langGraph4j.microsPerStep();
        }

        boolean meetsTarget() {
            return value() <= TARGET_RATIO;
        }

        String pairing() {
            return weft.shape().label() + "/" + weft.configuration().checkpoint();
        }

        String line() {
            return String.format(
                    Locale.ROOT,
                    "ratio graph=%s checkpoint=%s weft_over_langgraph4j=%.3f",
                    weft.shape().label(),
                    weft.configuration().checkpoint(),
                    value());
        }
    }

    /**
     * Runs the benchmark with the arguments that follow {@code graph} on the command line.
     *
     * @throws UsageException if the arguments are not {@code [--seconds N]}
     */
    public static void run(String[] args) {
        Options options = parseOptions(args);
        double seconds = options.seconds();
        long measureNanos = (long) (seconds * 1e9);
        long warmupNanos = measureNanos / 2;
        PrintStream out = System.out;
        PrintStream progress = System.err;
        progress.printf(
                Locale.ROOT,
                "weft-bench graph: Java %s (%s), warm-up %.1f s and measurement %.1f s per line%n",
                Runtime.version(),
                System.getProperty("java.vm.name"),
                warmupNanos / 1e9,
                measureNanos / 1e9);

        List<Measurement> measurements = new ArrayList<>();
        // In-memory configurations first, durable ones last: a database server started for one
        // measurement keeps working in the background (writing back, vacuuming) and would slow the
        // in-memory measurements after it on a small machine.
        List<Configuration> ordered = new ArrayList<>();
        List<Configuration> chosen = options.chosen(configurations());
        chosen.stream().filter(c -> !isDurable(c)).forEach(ordered::add);
        chosen.stream().filter(GraphBenchmark::isDurable).forEach(ordered::add);
        for (boolean durablePass : new boolean[] {false, true})
            for (GraphShape shape : GraphShape.values()) {
                for (Configuration configuration : ordered) {
                    if (isDurable(configuration) != durablePass) {
                        continue;
                    }
                    progress.printf(
                            "weft-bench graph: engine=%s graph=%s checkpoint=%s...%n",
                            configuration.engine(), shape.label(), configuration.checkpoint());
                    Measurement measurement = measure(configuration, shape, warmupNanos, measureNanos, progress);
                    out.println(measurement.line());
                    out.flush();
                    measurements.add(measurement);
                }
            }

        List<Ratio> ratios = ratios(measurements);
        for (Ratio ratio : ratios) {
            out.println(ratio.line());
        }
        List<String> missed = ratios.stream()
                .filter(ratio -> !ratio.meetsTarget())
                .map(Ratio::pairing)
                .toList();
        // With --only no pairing is measured, and a target without a pairing says nothing.
        boolean everything = options.only().isEmpty();
        if (everything) {
            out.println(String.format(Locale.ROOT, "target weft_over_langgraph4j<=%.2f ", TARGET_RATIO)
                    + (missed.isEmpty() ? "met=yes" : "met=no missed=" + String.join(",", missed)));
        }
        // Issue 4: Weft with a durable checkpoint after every step against LangGraph4j in memory.
        java.util.Map<String, List<String>> durableMissed = new java.util.LinkedHashMap<>();
        durableMissed.put("sqlite", new ArrayList<>());
        durableMissed.put("sqlite-async", new ArrayList<>());
        for (Measurement durable : measurements) {
            if (!durable.configuration().engine().equals(WEFT)
                    || !DURABLE_CHECKPOINTS.contains(durable.configuration().checkpoint())) {
                continue;
            }
            Optional<Measurement> peer = find(measurements, LANGGRAPH4J, "memory", durable.shape());
            if (peer.isEmpty()) {
                continue;
            }
            double ratio = durable.microsPerStep() / peer.get().microsPerStep();
            out.println(String.format(
                    Locale.ROOT,
                    "ratio graph=%s weft_%s_over_langgraph4j_memory=%.3f",
                    durable.shape().label(),
                    durable.configuration().checkpoint(),
                    ratio));
            List<String> missedHere = durableMissed.get(durable.configuration().checkpoint());
            if (missedHere != null && ratio > 1.0) {
                missedHere.add(durable.shape().label());
            }
        }
        if (everything) {
            durableMissed.forEach((checkpoint, missedShapes) -> out.println("target weft_" + checkpoint
                    + "_over_langgraph4j_memory<=1.00 "
                    + (missedShapes.isEmpty() ? "met=yes" : "met=no missed=" + String.join(",", missedShapes))));
        }
        for (String line : floorLines(measurements)) {
            out.println(line);
        }
        for (String line : durablePeerLines(measurements)) {
            out.println(line);
        }
    }

    /**
     * For every bare measurement (SQLite, PostgreSQL): what the floor itself costs against
     * LangGraph4j in memory on the same graph, and Weft's cost over the floor with the same commits.
     */
    static List<String> floorLines(List<Measurement> measurements) {
        List<String> lines = new ArrayList<>();
        for (Measurement floor : measurements) {
            String engine = floor.configuration().engine();
            if (!engine.equals(BARE_SQLITE) && !engine.equals(BARE_POSTGRES)) {
                continue;
            }
            String name = engine.replace('-', '_');
            Optional<Measurement> peer = find(measurements, LANGGRAPH4J, "memory", floor.shape());
            Optional<Measurement> weft =
                    find(measurements, WEFT, floor.configuration().checkpoint(), floor.shape());
            lines.add(String.format(
                    Locale.ROOT,
                    "floor graph=%s checkpoint=%s %s_over_langgraph4j_memory=%s weft_over_%s=%s",
                    floor.shape().label(),
                    floor.configuration().checkpoint(),
                    name,
                    over(floor, peer),
                    name,
                    weft.map(w -> over(w, Optional.of(floor))).orElse("n/a")));
        }
        return lines;
    }

    /**
     * For every Weft measurement with a durable checkpoint, its µs per step over those of
     * LangGraph4j's own durable saver ({@code checkpoint=file}) on the same graph.
     */
    static List<String> durablePeerLines(List<Measurement> measurements) {
        List<String> lines = new ArrayList<>();
        for (Measurement weft : measurements) {
            String checkpoint = weft.configuration().checkpoint();
            if (!weft.configuration().engine().equals(WEFT) || !isDurable(weft.configuration())) {
                continue;
            }
            find(measurements, LANGGRAPH4J, "file", weft.shape())
                    .ifPresent(file -> lines.add(String.format(
                            Locale.ROOT,
                            "ratio graph=%s weft_%s_over_langgraph4j_file=%s",
                            weft.shape().label(),
                            checkpoint,
                            over(weft, Optional.of(file)))));
        }
        return lines;
    }

    private static String over(Measurement measurement, Optional<Measurement> base) {
        return base.map(b -> String.format(Locale.ROOT, "%.3f", measurement.microsPerStep() / b.microsPerStep()))
                .orElse("n/a");
    }

    private static Optional<Measurement> find(
            List<Measurement> measurements, String engine, String checkpoint, GraphShape shape) {
        return measurements.stream()
                .filter(m -> m.configuration().engine().equals(engine)
                        && m.configuration().checkpoint().equals(checkpoint)
                        && m.shape() == shape)
                .findFirst();
    }

    static boolean isDurable(Configuration configuration) {
        return DURABLE_CHECKPOINTS.contains(configuration.checkpoint());
    }

    static Measurement measure(
            Configuration configuration, GraphShape shape, long warmupNanos, long measureNanos, PrintStream progress) {
        try (GraphHarness harness = configuration.harness().apply(shape)) {
            long warmedNanos = warmUp(harness, shape, warmupNanos);
            progress.printf(Locale.ROOT, "weft-bench graph:   warmed up for %.1f s%n", warmedNanos / 1e9);
            Attempt kept = quietest(
                    () -> {
                        long compilingBefore = JitCompiler.millis();
                        long start = System.nanoTime();
                        Timed timed = runFor(harness, shape, measureNanos);
                        return new Attempt(timed, JitCompiler.millis() - compilingBefore, System.nanoTime() - start);
                    },
                    attempt -> progress.printf(
                            Locale.ROOT,
                            "weft-bench graph:   the JIT compiler worked %d ms during the measurement: measuring again%n",
                            attempt.compilingMillis()));
            progress.printf(
                    Locale.ROOT,
                    "weft-bench graph:   the JIT compiler worked %d ms during the measurement%n",
                    kept.compilingMillis());
            return new Measurement(
                    configuration, shape, kept.timed().steps(), kept.timed().nanos());
        }
    }

    /** One measurement, with how long the JIT compiler worked during it and how long it took in all. */
    record Attempt(Timed timed, long compilingMillis, long elapsedNanos) {
        boolean quiet() {
            return !JitCompiler.busy(compilingMillis, elapsedNanos);
        }
    }

    /**
     * Takes a measurement, and again while the JIT compiler was busy during the last one, up to
     * {@value #MAX_MEASUREMENTS} in all; keeps the first quiet one, or else the one during which the
     * compiler worked least. A compiler that starts on some late method after the warm-up (on two
     * cores the first line of a run showed it) takes a core from the measurement and measures the
     * warm-up instead of the engine. {@code retrying} hears of each measurement that is taken again.
     */
    static Attempt quietest(Supplier<Attempt> measurement, Consumer<Attempt> retrying) {
        Attempt kept = null;
        for (int taken = 1; ; taken++) {
            Attempt attempt = measurement.get();
            if (kept == null || attempt.compilingMillis() < kept.compilingMillis()) {
                kept = attempt;
            }
            if (attempt.quiet()) {
                return attempt;
            }
            if (taken == MAX_MEASUREMENTS) {
                return kept;
            }
            retrying.accept(attempt);
        }
    }

    /**
     * Runs the graph for {@code warmupNanos}, then in slices of a quarter of that for as long as the
     * JIT compiler was busy in the last one ({@link JitCompiler#busy}), up to {@value #MAX_WARMUP_FACTOR}
     * times {@code warmupNanos} in all. On a small machine a compiler still at work takes a core from
     * the measurement, and how long it stays at work depends on the configuration (a database driver
     * brings much code of its own), so a fixed warm-up would favour some lines over others.
     *
     * @return how long the warm-up ran
     */
    private static long warmUp(GraphHarness harness, GraphShape shape, long warmupNanos) {
        long start = System.nanoTime();
        runFor(harness, shape, warmupNanos);
        long sliceNanos = warmupNanos / 4;
        while (System.nanoTime() - start < MAX_WARMUP_FACTOR * warmupNanos) {
            long compiling = JitCompiler.millis();
            long sliceStart = System.nanoTime();
            runFor(harness, shape, sliceNanos);
            if (!JitCompiler.busy(JitCompiler.millis() - compiling, System.nanoTime() - sliceStart)) {
                break;
            }
        }
        return System.nanoTime() - start;
    }

    record Timed(long steps, long nanos) {}

    /** Runs batches until their summed time reaches {@code budgetNanos}; only the runs are timed. */
    private static Timed runFor(GraphHarness harness, GraphShape shape, long budgetNanos) {
        int runsPerBatch = Math.max(1, STEPS_PER_BATCH / shape.stepsPerRun());
        long steps = 0;
        long nanos = 0;
        while (nanos < budgetNanos) {
            harness.forgetRuns();
            long batchSteps = 0;
            long start = System.nanoTime();
            for (int i = 0; i < runsPerBatch; i++) {
                batchSteps += harness.runOnce();
            }
            nanos += System.nanoTime() - start;
            if (batchSteps != (long) runsPerBatch * shape.stepsPerRun()) {
                throw new IllegalStateException("a batch of " + runsPerBatch + " runs of " + shape.label()
                        + " performed " + batchSteps + " steps, expected " + shape.stepsPerRun() + " per run");
            }
            steps += batchSteps;
        }
        return new Timed(steps, nanos);
    }

    /** Every pairing of a Weft measurement with LangGraph4j's on the same graph and checkpoint setting. */
    static List<Ratio> ratios(List<Measurement> measurements) {
        List<Ratio> ratios = new ArrayList<>();
        for (Measurement weft : measurements) {
            if (!weft.configuration().engine().equals(WEFT)) {
                continue;
            }
            Optional<Measurement> peer = measurements.stream()
                    .filter(m -> m.configuration().engine().equals(LANGGRAPH4J) && m.pairsWith(weft))
                    .findFirst();
            peer.ifPresent(langGraph4j -> ratios.add(new Ratio(weft, langGraph4j)));
        }
        return ratios;
    }

    /** The command line: how long to measure each line, and the one configuration to measure, if any. */
    record Options(double seconds, Optional<String> only) {
        /** {@code all}, or the one whose {@code engine/checkpoint} is {@link #only}. */
        List<Configuration> chosen(List<Configuration> all) {
            if (only.isEmpty()) {
                return all;
            }
            List<Configuration> chosen = all.stream()
                    .filter(c -> (c.engine() + "/" + c.checkpoint()).equals(only.get()))
                    .toList();
            if (chosen.isEmpty()) {
                throw new UsageException("--only names no configuration, was '" + only.get() + "'; one of "
                        + all.stream()
                                .map(c -> c.engine() + "/" + c.checkpoint())
                                .toList() + "\n" + USAGE);
            }
            return chosen;
        }
    }

    static double parseSeconds(String[] args) {
        return parseOptions(args).seconds();
    }

    static Options parseOptions(String[] args) {
        double seconds = DEFAULT_SECONDS;
        Optional<String> only = Optional.empty();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--only")) {
                if (i + 1 == args.length) {
                    throw new UsageException("--only needs ENGINE/CHECKPOINT\n" + USAGE);
                }
                only = Optional.of(args[++i]);
                continue;
            }
            if (!args[i].equals("--seconds")) {
                throw new UsageException("unknown argument '" + args[i] + "'\n" + USAGE);
            }
            if (i + 1 == args.length) {
                throw new UsageException("--seconds needs a number\n" + USAGE);
            }
            String value = args[++i];
            try {
                seconds = Double.parseDouble(value);
            } catch (NumberFormatException e) {
                throw new UsageException("--seconds must be a number, was '" + value + "'\n" + USAGE);
            }
            if (!(seconds > 0) || Double.isInfinite(seconds)) {
                throw new UsageException("--seconds must be positive, was " + value + "\n" + USAGE);
            }
        }
        Options options = new Options(seconds, only);
        options.chosen(configurations()); // an unknown name fails here, before anything starts
        return options;
    }
}
