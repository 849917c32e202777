package dev.weft.bench;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.core.store.InMemoryRunStore;
import dev.weft.plan.ExecutionGroups;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.PlanSummary;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * {@code weft-bench scheduler [--dags N] [--seed S] [--parallel K] [--clock real|simulated]}: how close each scheduler comes
 * to a plan's critical path. The same random DAGs ({@link LatencyDag}) run, in the same process and
 * interleaved in time, through Weft's {@link PlanExecutor} (dataflow: a step starts when its own
 * dependencies are done) and through seed 000's group barrier ({@link GroupBarrierScheduler}); each
 * step is a tool call that really sleeps its latency on a virtual thread. Prints, per scheduler, the
 * median and p95 of makespan ÷ critical path, then whether Weft's are at most {@value
 * #TARGET_RATIO}. Results go to stdout, progress to stderr.
 *
 * <p>Makespan is the wall time of the whole call: for Weft, {@code executor.run(...)} from compiling
 * the plan's graph to the run's result (plan node, join, store writes and checkpoints included); for
 * the group barrier, from building the groups to the end of the last group. The critical path is the
 * DAG's longest path of nominal latencies, so sleep overshoot and every scheduling cost count against
 * the scheduler. {@code K} DAG runs are in flight at a time (both schedulers drawing from one queue)
 * so that a thousand DAGs take a minute or two; the printed CPU share tells whether that crowded the
 * two cores.
 *
 * <p>The {@code detail} lines tell the machine's share from the scheduler's: how late the sleeps
 * woke, and each makespan over the best any scheduler of its kind could have done with the sleeps as
 * they really went.
 *
 * <p>With {@code --clock simulated} the same DAGs run one at a time on a {@link SimulatedClock}
 * instead ({@link SimulatedScheduling}): the tools sleep in virtual milliseconds, so the ratios show
 * each scheduler's decisions alone, free of the machine's timer and load, and the code's own time
 * does not count.
 */
public final class SchedulerBenchmark {
    static final String DATAFLOW = "dataflow";
    static final String GROUPS = "groups";
    /** Weft's median and p95 of makespan ÷ critical path may be at most this. */
    static final double TARGET_RATIO = 1.02;

    private static final long DEFAULT_SEED = 42;
    private static final int DEFAULT_DAGS = 1_000;
    private static final int DEFAULT_PARALLEL = 8;
    /** DAGs run through both schedulers before measuring, so the JIT has compiled the hot paths. */
    private static final int WARMUP_DAGS = 200;

    private static final String USAGE = "usage: weft-bench scheduler [--dags N] [--seed S] [--parallel K]"
            + " [--clock real|simulated]   (defaults: 1000 DAGs, seed " + DEFAULT_SEED + ", " + DEFAULT_PARALLEL
            + " runs in flight, real sleeps)";
    static final String REAL = "real";
    static final String SIMULATED = "simulated";
    private static final Map<String, NumericOptions.Option> OPTIONS = Map.of(
            "dags", new NumericOptions.Option(DEFAULT_DAGS, 1),
            "seed", new NumericOptions.Option(DEFAULT_SEED, Long.MIN_VALUE),
            "parallel", new NumericOptions.Option(DEFAULT_PARALLEL, 1));

    private SchedulerBenchmark() {}

    /** A DAG ready to run: its plan, the plan's execution groups, and its critical path. */
    record Case(LatencyDag dag, Plan plan, ExecutionGroups groups, long criticalPathMillis) {
        static Case of(LatencyDag dag) {
            Plan plan = SleepingPlans.planOf(dag);
            return new Case(dag, plan, ExecutionGroups.of(plan, false), dag.criticalPathMillis());
        }

        /** The group barrier's makespan with no overhead and exact sleeps: the sum of each group's slowest step. */
        long groupBarrierMillis() {
            return dag.groupBarrier(groups, LatencyDag.Step::latencyMillis);
        }
    }

    /**
     * One run of one DAG by one scheduler.
     *
     * @param inRunNanos for Weft, from the run's creation to its last step's end (no graph compile,
     *     no join); the makespan otherwise
     * @param floorNanos the least this scheduler could have taken with the sleeps as they really
     *     went: for dataflow, the longest path of the actual sleeps; for the group barrier, the sum of
     *     each group's longest actual sleep
     * @param sleepOvershootNanos by how much each step's sleep overran its latency
     * @param stepOverheadNanos for Weft, each step node's time beyond its tool's sleep (resolve,
     *     validate, events, the tool's thread hand-off); empty for the group barrier
     */
    record Measurement(
            Case subject,
            String scheduler,
            long makespanNanos,
            long inRunNanos,
            long floorNanos,
            long[] sleepOvershootNanos,
            long[] stepOverheadNanos) {
        double ratio() {
            return makespanNanos / 1e6 / subject.criticalPathMillis();
        }

        double inRunRatio() {
            return inRunNanos / 1e6 / subject.criticalPathMillis();
        }

        double overFloor() {
            return (double) makespanNanos / floorNanos;
        }

        double excessMillis() {
            return makespanNanos / 1e6 - subject.criticalPathMillis();
        }
    }

    /** Both schedulers, each able to run any case on the calling thread. Thread-safe. */
    static final class Schedulers {
        private static final String STEP_PREFIX = "step:";

        /** What each step really slept, by run id and step id; a run's entry goes once it is measured. */
        private final Map<String, Map<String, Long>> slept = new ConcurrentHashMap<>();

        private final SleepingPlans plans = new SleepingPlans((runId, stepId, nanos) ->
                slept.computeIfAbsent(runId, id -> new ConcurrentHashMap<>()).put(stepId, nanos));
        private final PlanExecutor executor = plans.executor();
        private final Runner runner =
                Runner.builder().store(InMemoryRunStore.latestCheckpointOnly()).build();
        private final AtomicLong barrierRuns = new AtomicLong();
        private final PlanRequest request = PlanRequest.auto(NullNode.getInstance());

        Measurement dataflow(Case subject) {
            long start = System.nanoTime();
            RunResult result = executor.run(runner, subject.plan(), request);
            long makespan = System.nanoTime() - start;
            int steps = subject.dag().steps().size();
            PlanSummary summary = PlanExecutor.summary(result).orElse(null);
            if (result.status() != RunStatus.COMPLETED || summary == null || summary.successfulSteps() != steps) {
                throw new IllegalStateException(
                        "Weft's run of DAG " + subject.dag().index() + " did not complete all " + steps + " steps: "
                                + result.status() + " " + result.error() + " " + summary);
            }
            Map<String, Long> sleeps = sleepsOf(result.runId(), subject);
            Instant lastStepEnd = Instant.MIN;
            long[] overheads = new long[steps];
            int i = 0;
            for (Step step : result.steps()) {
                if (step.nodeId().startsWith(STEP_PREFIX)) {
                    Instant started = step.startedAt().orElseThrow();
                    Instant ended = step.endedAt().orElseThrow();
                    if (ended.isAfter(lastStepEnd)) {
                        lastStepEnd = ended;
                    }
                    String id = step.nodeId().substring(STEP_PREFIX.length());
                    overheads[i++] = Duration.between(started, ended).toNanos() - sleeps.get(id);
                }
            }
            long inRun = Duration.between(result.run().createdAt(), lastStepEnd).toNanos();
            // Measured: drop the finished runs, so the heap (and the collector's pauses, which delay
            // every sleeper's wake-up) does not grow with the number of DAGs run so far.
            runner.store().pruneRuns(Instant.MAX);
            long floor = subject.dag().longestPath(step -> sleeps.get(step.id()));
            return new Measurement(subject, DATAFLOW, makespan, inRun, floor, overshoots(subject, sleeps), overheads);
        }

        /**
         * Deletes the runs Weft's store holds: a runner that has driven a run keeps a lease-renewing
         * thread alive for good, so its store outlives it unless emptied.
         */
        void forgetRuns() {
            runner.store().pruneRuns(Instant.MAX);
        }

        Measurement groups(Case subject) throws InterruptedException {
            String runId = "group-barrier-" + barrierRuns.incrementAndGet();
            GroupBarrierScheduler scheduler =
                    new GroupBarrierScheduler(step -> plans.invokeDirectly(runId, step), System::nanoTime);
            long makespan = scheduler.run(subject.plan()).makespanNanos();
            Map<String, Long> sleeps = sleepsOf(runId, subject);
            long floor = subject.dag().groupBarrier(subject.groups(), step -> sleeps.get(step.id()));
            return new Measurement(
                    subject, GROUPS, makespan, makespan, floor, overshoots(subject, sleeps), new long[0]);
        }

        private Map<String, Long> sleepsOf(String runId, Case subject) {
            Map<String, Long> sleeps = slept.remove(runId);
            if (sleeps == null || sleeps.size() != subject.dag().steps().size()) {
                throw new IllegalStateException("run '" + runId + "' of DAG "
                        + subject.dag().index() + " slept in " + (sleeps == null ? 0 : sleeps.size()) + " of its "
                        + subject.dag().steps().size() + " steps");
            }
            return sleeps;
        }

        private static long[] overshoots(Case subject, Map<String, Long> sleeps) {
            return subject.dag().steps().stream()
                    .mapToLong(step -> sleeps.get(step.id()) - step.latencyMillis() * 1_000_000)
                    .toArray();
        }
    }

    /** The distribution of one scheduler's ratios over the DAGs. */
    record Summary(String scheduler, List<Measurement> measurements) {
        Summary {
            measurements = List.copyOf(measurements);
        }

        double median(ToDoubleFunction<Measurement> metric) {
            return percentile(measurements.stream().mapToDouble(metric).toArray(), 0.50);
        }

        double p95(ToDoubleFunction<Measurement> metric) {
            return percentile(measurements.stream().mapToDouble(metric).toArray(), 0.95);
        }

        String line() {
            return SchedulerBenchmark.line(
                    scheduler, measurements.size(), median(Measurement::ratio), p95(Measurement::ratio));
        }

        /** A percentile over the steps of every measurement, of a per-step figure. */
        double stepPercentile(Function<Measurement, long[]> perStep, double fraction) {
            return percentile(
                    measurements.stream()
                            .flatMapToLong(m -> Arrays.stream(perStep.apply(m)))
                            .asDoubleStream()
                            .toArray(),
                    fraction);
        }

        boolean meetsTarget() {
            return median(Measurement::ratio) <= TARGET_RATIO && p95(Measurement::ratio) <= TARGET_RATIO;
        }
    }

    /** The stable result line: {@code scheduler=<name> dags=<n> median=<x> p95=<y>}, whatever the clock. */
    static String line(String scheduler, int dags, double median, double p95) {
        return String.format(Locale.ROOT, "scheduler=%s dags=%d median=%.3f p95=%.3f", scheduler, dags, median, p95);
    }

    /** The nearest-rank percentile: the smallest value with at least {@code fraction} of them at or below it. */
    static double percentile(double[] values, double fraction) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values to take a percentile of");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(fraction * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    /**
     * Runs the benchmark with the arguments that follow {@code scheduler} on the command line.
     *
     * @throws UsageException if the arguments are not {@code [--dags N] [--seed S] [--parallel K]}
     */
    public static void run(String[] args) {
        String clock = REAL;
        List<String> numeric = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].equals("--clock")) {
                numeric.add(args[i]);
            } else if (i + 1 < args.length && (args[i + 1].equals(REAL) || args[i + 1].equals(SIMULATED))) {
                clock = args[++i];
            } else {
                throw new UsageException("--clock must be 'real' or 'simulated'\n" + USAGE);
            }
        }
        NumericOptions options = NumericOptions.parse(numeric.toArray(String[]::new), OPTIONS, USAGE);
        int dagCount = options.intValue("dags");
        long seed = options.value("seed");
        int parallel = options.intValue("parallel");
        PrintStream out = System.out;
        PrintStream progress = System.err;
        progress.printf(
                Locale.ROOT,
                "weft-bench scheduler: Java %s, %d cores, %d DAGs from seed %d, %d runs in flight%n",
                Runtime.version(),
                Runtime.getRuntime().availableProcessors(),
                dagCount,
                seed,
                parallel);

        List<Case> cases =
                LatencyDag.random(dagCount, seed).stream().map(Case::of).toList();
        if (clock.equals(SIMULATED)) {
            runSimulated(cases, out, progress);
            return;
        }
        // Warm-up DAGs come from another seed, so the measured ones run exactly once per scheduler.
        List<Case> warmup = LatencyDag.random(Math.min(WARMUP_DAGS, dagCount), seed ^ 0x5EED_5EEDL).stream()
                .map(Case::of)
                .toList();
        progress.printf("weft-bench scheduler: warming up on %d DAGs...%n", warmup.size());
        Schedulers warm = new Schedulers();
        runAll(warm, warmup, parallel, progress);
        warm.forgetRuns();

        progress.printf("weft-bench scheduler: measuring %d DAGs x 2 schedulers...%n", cases.size());
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpuBefore = os.getProcessCpuTime();
        long wallBefore = System.nanoTime();
        List<Measurement> measurements = runAll(new Schedulers(), cases, parallel, progress);
        double wallSeconds = (System.nanoTime() - wallBefore) / 1e9;
        double cpuShare = (os.getProcessCpuTime() - cpuBefore) / 1e9 / wallSeconds / os.getAvailableProcessors();

        Summary dataflow = summary(DATAFLOW, measurements);
        Summary groups = summary(GROUPS, measurements);
        out.printf(
                Locale.ROOT,
                "method clock=real-sleeps threads=virtual latency=lognormal(median=%.0fms,sigma=%.1f) rounded to whole"
                        + " ms, steps=%d-%d deps<=%d, makespan=wall time of the whole call, critical_path=nominal"
                        + " latencies, percentile=nearest-rank, in_flight=%d%n",
                LatencyDag.MEDIAN_LATENCY_MILLIS,
                LatencyDag.LATENCY_SIGMA,
                LatencyDag.MIN_STEPS,
                LatencyDag.MAX_STEPS,
                LatencyDag.MAX_DEPENDENCIES,
                parallel);
        out.println(dataflow.line());
        out.println(groups.line());
        out.println(String.format(
                        Locale.ROOT, "target scheduler=dataflow median<=%.2f p95<=%.2f ", TARGET_RATIO, TARGET_RATIO)
                + (dataflow.meetsTarget() ? "met=yes" : "met=no"));
        out.printf(
                Locale.ROOT,
                "detail scheduler=dataflow excess_ms median=%.2f p95=%.2f;"
                        + " run_created_to_last_step_end/critical_path median=%.3f p95=%.3f;"
                        + " makespan/longest_path_of_actual_sleeps median=%.3f p95=%.3f;"
                        + " step_overhead_ms median=%.2f p95=%.2f%n",
                dataflow.median(Measurement::excessMillis),
                dataflow.p95(Measurement::excessMillis),
                dataflow.median(Measurement::inRunRatio),
                dataflow.p95(Measurement::inRunRatio),
                dataflow.median(Measurement::overFloor),
                dataflow.p95(Measurement::overFloor),
                dataflow.stepPercentile(Measurement::stepOverheadNanos, 0.50) / 1e6,
                dataflow.stepPercentile(Measurement::stepOverheadNanos, 0.95) / 1e6);
        out.printf(
                Locale.ROOT,
                "detail scheduler=groups excess_ms median=%.2f p95=%.2f;"
                        + " sum_of_group_maxima/critical_path (no overhead, exact sleeps) median=%.3f p95=%.3f;"
                        + " makespan/sum_of_group_maxima_of_actual_sleeps median=%.3f p95=%.3f%n",
                groups.median(Measurement::excessMillis),
                groups.p95(Measurement::excessMillis),
                groups.median(m ->
                        (double) m.subject().groupBarrierMillis() / m.subject().criticalPathMillis()),
                groups.p95(m ->
                        (double) m.subject().groupBarrierMillis() / m.subject().criticalPathMillis()),
                groups.median(Measurement::overFloor),
                groups.p95(Measurement::overFloor));
        Summary all = new Summary("all", measurements);
        out.printf(
                Locale.ROOT,
                "detail sleep_overshoot_ms (every step, both schedulers) median=%.2f p95=%.2f;"
                        + " critical_path_ms median=%.0f p95=%.0f; measured in %.1f s, process cpu busy %.0f%% of %d"
                        + " cores, load average (1 min) %.2f%n",
                all.stepPercentile(Measurement::sleepOvershootNanos, 0.50) / 1e6,
                all.stepPercentile(Measurement::sleepOvershootNanos, 0.95) / 1e6,
                dataflow.median(m -> m.subject().criticalPathMillis()),
                dataflow.p95(m -> m.subject().criticalPathMillis()),
                wallSeconds,
                cpuShare * 100,
                os.getAvailableProcessors(),
                os.getSystemLoadAverage());
    }

    /**
     * The simulated clock's run: every DAG through both schedulers, one at a time, each on a clock of
     * its own ({@link SimulatedScheduling}); ratios of virtual makespan to critical path.
     */
    static void runSimulated(List<Case> cases, PrintStream out, PrintStream progress) {
        progress.printf("weft-bench scheduler: %d DAGs x 2 schedulers on a simulated clock...%n", cases.size());
        SimulatedScheduling simulation = new SimulatedScheduling();
        double[] dataflow = new double[cases.size()];
        double[] groups = new double[cases.size()];
        long start = System.nanoTime();
        for (int i = 0; i < cases.size(); i++) {
            Case subject = cases.get(i);
            dataflow[i] = (double) simulation.dataflowMillis(subject) / subject.criticalPathMillis();
            groups[i] = (double) SimulatedScheduling.groupsMillis(subject) / subject.criticalPathMillis();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(
                Locale.ROOT,
                "method clock=simulated (virtual ms: time moves only when every thread of the run is done or"
                        + " asleep in a tool, so the code's own time does not count) threads=virtual"
                        + " latency=lognormal(median=%.0fms,sigma=%.1f) rounded to whole ms, steps=%d-%d deps<=%d,"
                        + " makespan=virtual time of the whole run, critical_path=nominal latencies,"
                        + " percentile=nearest-rank, in_flight=1%n",
                LatencyDag.MEDIAN_LATENCY_MILLIS,
                LatencyDag.LATENCY_SIGMA,
                LatencyDag.MIN_STEPS,
                LatencyDag.MAX_STEPS,
                LatencyDag.MAX_DEPENDENCIES);
        double dataflowMedian = percentile(dataflow, 0.50);
        double dataflowP95 = percentile(dataflow, 0.95);
        out.println(line(DATAFLOW, cases.size(), dataflowMedian, dataflowP95));
        out.println(line(GROUPS, cases.size(), percentile(groups, 0.50), percentile(groups, 0.95)));
        out.println(String.format(
                        Locale.ROOT,
                        "target scheduler=dataflow median<=%.2f p95<=%.2f (simulated clock) ",
                        TARGET_RATIO,
                        TARGET_RATIO)
                + (dataflowMedian <= TARGET_RATIO && dataflowP95 <= TARGET_RATIO ? "met=yes" : "met=no"));
        out.printf(
                Locale.ROOT,
                "detail scheduler=dataflow worst=%.3f; scheduler=groups worst=%.3f; simulated in %.1f s%n",
                Arrays.stream(dataflow).max().orElseThrow(),
                Arrays.stream(groups).max().orElseThrow(),
                seconds);
    }

    private static Summary summary(String scheduler, List<Measurement> measurements) {
        return new Summary(
                scheduler,
                measurements.stream()
                        .filter(m -> m.scheduler().equals(scheduler))
                        .toList());
    }

    /**
     * Runs every case through both schedulers, {@code parallel} runs at a time. The two runs of a DAG
     * are queued next to each other, in alternating order, so both schedulers see the same load.
     */
    static List<Measurement> runAll(Schedulers schedulers, List<Case> cases, int parallel, PrintStream progress) {
        record Task(Case subject, boolean dataflow) {}
        List<Task> tasks = new ArrayList<>(cases.size() * 2);
        for (Case subject : cases) {
            boolean dataflowFirst = subject.dag().index() % 2 == 0;
            tasks.add(new Task(subject, dataflowFirst));
            tasks.add(new Task(subject, !dataflowFirst));
        }
        Measurement[] results = new Measurement[tasks.size()];
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int reportEvery = Math.max(1, tasks.size() / 10);
        List<Thread> workers = new ArrayList<>(parallel);
        for (int w = 0; w < parallel; w++) {
            workers.add(Thread.ofVirtual().name("scheduler-bench-" + w).start(() -> {
                int i;
                while (failure.get() == null && (i = next.getAndIncrement()) < tasks.size()) {
                    Task task = tasks.get(i);
                    try {
                        results[i] = task.dataflow()
                                ? schedulers.dataflow(task.subject())
                                : schedulers.groups(task.subject());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        failure.compareAndSet(null, e);
                        return;
                    } catch (RuntimeException | Error e) {
                        failure.compareAndSet(null, e);
                        return;
                    }
                    if ((i + 1) % reportEvery == 0) {
                        progress.printf("weft-bench scheduler: %d of %d runs%n", i + 1, tasks.size());
                    }
                }
            }));
        }
        for (Thread worker : workers) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the benchmark's runs", e);
            }
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a benchmark run failed", failure.get());
        }
        return List.of(results);
    }
}
