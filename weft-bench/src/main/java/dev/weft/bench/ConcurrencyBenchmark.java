package dev.weft.bench;

import com.fasterxml.jackson.databind.node.NullNode;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.store.InMemoryRunStore;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.PlanSummary;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code weft-bench concurrency [--plans N]}: N plans started at once from one thread with {@link
 * PlanExecutor#start}, each of three steps whose tool sleeps {@value #STEP_MILLIS} ms on a virtual
 * thread — A and B in parallel, then C, which depends on both — so a plan alone needs {@value
 * #IDEAL_MILLIS} ms. Prints the wall time (before the first start to the last completion) over that
 * ideal, and the peak heap, then whether they meet the targets. The headline runs with the runner's
 * default durable checkpoint after every step; a second line, labelled, runs with it off. Before
 * measuring, it runs the same N plans in rounds until the JIT compiler is quiet ({@link #warmUp}).
 * Results go to stdout, progress to stderr.
 *
 * <p>The peak heap is the most heap in use at any sample ({@link HeapPeakMonitor}): live data and the
 * garbage the collector had not yet reclaimed, so it grows with the heap it is given. What the plans
 * really keep alive is weighed apart, in a third, untimed run stopped twice for a full collection.
 */
public final class ConcurrencyBenchmark {
    static final long STEP_MILLIS = 200;
    /** Two steps on the critical path: A (or B), then C. */
    static final long IDEAL_MILLIS = 2 * STEP_MILLIS;

    static final double TARGET_WALL_OVER_IDEAL = 1.1;
    static final long TARGET_PEAK_HEAP_MB = 512;

    private static final int DEFAULT_PLANS = 10_000;
    /** Plans on bare virtual threads run before measuring them. */
    private static final int WARMUP_PLANS = 2_000;
    /** The most warm-up rounds (each the measurement's plans, with and without checkpoints). */
    static final int MAX_WARMUP_ROUNDS = 12;

    private static final String USAGE = "usage: weft-bench concurrency [--plans N]   (N >= 1, default 10000)";
    private static final Map<String, NumericOptions.Option> OPTIONS =
            Map.of("plans", new NumericOptions.Option(DEFAULT_PLANS, 1));
    private static final long MB = 1024 * 1024;

    private ConcurrencyBenchmark() {}

    /** A and B in parallel, then C after both: a fan-in of three steps. */
    static Plan fanIn() {
        return new Plan(
                "bench-fan-in",
                1.0,
                List.of(
                        SleepingPlans.step("A", STEP_MILLIS, List.of()),
                        SleepingPlans.step("B", STEP_MILLIS, List.of()),
                        SleepingPlans.step("C", STEP_MILLIS, List.of("A", "B"))));
    }

    /** One measurement: how long all plans took, how long starting them took, and the heap. */
    record Measurement(
            boolean checkpointEveryStep,
            int plans,
            long startAllNanos,
            long wallNanos,
            long peakUsedBytes,
            long peakAfterGcBytes,
            long collections,
            long baselineBytes,
            long cpuNanos,
            long gcPauseMillis,
            long allocatedBytes) {
        double wallOverIdeal() {
            return wallNanos / 1e6 / IDEAL_MILLIS;
        }

        long peakHeapMb() {
            return peakUsedBytes / MB;
        }

        boolean meetsTarget() {
            return wallOverIdeal() <= TARGET_WALL_OVER_IDEAL && peakHeapMb() < TARGET_PEAK_HEAP_MB;
        }

        String line() {
            return String.format(
                    Locale.ROOT,
                    "concurrency %splans=%d wall_over_ideal=%.3f peak_heap_mb=%d",
                    checkpointEveryStep ? "" : "checkpoint_every_step=false ",
                    plans,
                    wallOverIdeal(),
                    peakHeapMb());
        }

        String detail() {
            return String.format(
                    Locale.ROOT,
                    "detail checkpoint_every_step=%s wall_ms=%.0f ideal_ms=%d start_all_ms=%.0f"
                            + " cpu_ms_per_plan=%.3f allocated_kb_per_plan=%.1f gc_pause_ms=%d"
                            + " peak_heap_mb=sampled-used-every-%dms"
                            + " peak_after_gc_mb=%d collections=%d heap_before_mb=%d",
                    checkpointEveryStep,
                    wallNanos / 1e6,
                    IDEAL_MILLIS,
                    startAllNanos / 1e6,
                    cpuNanos / 1e6 / plans,
                    allocatedBytes / 1024.0 / plans,
                    gcPauseMillis,
                    HeapPeakMonitor.SAMPLE_MILLIS,
                    peakAfterGcBytes / MB,
                    collections,
                    baselineBytes / MB);
        }
    }

    /**
     * Runs the benchmark with the arguments that follow {@code concurrency} on the command line.
     *
     * @throws UsageException if the arguments are not {@code [--plans N]}
     */
    public static void run(String[] args) {
        int plans = NumericOptions.parse(args, OPTIONS, USAGE).intValue("plans");
        PrintStream out = System.out;
        PrintStream progress = System.err;
        long maxHeap = Runtime.getRuntime().maxMemory();
        progress.printf(
                Locale.ROOT,
                "weft-bench concurrency: Java %s, %d cores, max heap %d MB, %d plans%n",
                Runtime.version(),
                Runtime.getRuntime().availableProcessors(),
                maxHeap / MB,
                plans);
        PlanExecutor executor = new SleepingPlans(SleepingPlans.SleepLog.NONE).executor();
        Plan plan = fanIn();

        // Before the warm-up: one plan driven on this platform thread takes paths the measured plans do
        // not (its tools run on threads of their own), and compiled code that meets them is recompiled.
        long single = singlePlanNanos(executor, plan);
        WarmUp warmUp = warmUp(executor, plan, plans, MAX_WARMUP_ROUNDS, JitCompiler::millis, progress);

        progress.printf("weft-bench concurrency: %d plans, a checkpoint after every step...%n", plans);
        long compilingBefore = JitCompiler.millis();
        Measurement durable = measure(executor, plan, plans, true);
        long compilingDuring = JitCompiler.millis() - compilingBefore;
        progress.printf("weft-bench concurrency: %d plans, checkpoints only when a run stops...%n", plans);
        Measurement relaxed = measure(executor, plan, plans, false);
        progress.printf("weft-bench concurrency: %d plans again, untimed, to weigh their live data...%n", plans);
        LiveHeap live = weighLiveHeap(executor, plan, plans);
        progress.printf("weft-bench concurrency: %d fan-ins on bare virtual threads, no runtime...%n", plans);
        bareFanIns(WARMUP_PLANS);
        Bare bare = bareFanIns(plans);

        out.printf(
                Locale.ROOT,
                "method shape=fan-in(A,B->C) step_ms=%d tool=Thread.sleep on a virtual thread ideal_ms=%d"
                        + " started_from=one-thread store=InMemoryRunStore.latestCheckpointOnly max_heap_mb=%d"
                        + " single_plan_ms=%.0f%n",
                STEP_MILLIS,
                IDEAL_MILLIS,
                maxHeap / MB,
                single / 1e6);
        out.println(durable.line());
        out.println(durable.detail());
        out.println(warmUp.line(compilingDuring));
        out.println(relaxed.line());
        out.println(relaxed.detail());
        out.println(live.line());
        out.println(bare.line());
        out.println(String.format(
                        Locale.ROOT,
                        "target wall_over_ideal<=%.2f peak_heap_mb<%d (checkpoint after every step) ",
                        TARGET_WALL_OVER_IDEAL,
                        TARGET_PEAK_HEAP_MB)
                + (durable.meetsTarget() ? "met=yes" : "met=no")
                + String.format(
                        Locale.ROOT,
                        " (wall %s, peak heap %s)",
                        durable.wallOverIdeal() <= TARGET_WALL_OVER_IDEAL ? "met" : "missed",
                        durable.peakHeapMb() < TARGET_PEAK_HEAP_MB ? "met" : "missed"));
        out.printf(
                Locale.ROOT,
                "detail load_average_1m=%.2f%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    /** How the warm-up went: its rounds, and the JIT compiler's time in the last one. */
    record WarmUp(int rounds, int plansPerRound, long lastRoundCompilingMillis, long lastRoundNanos) {
        String line(long compilingDuringMeasurementMillis) {
            return String.format(
                    Locale.ROOT,
                    "detail warm_up rounds=%d plans_per_round=%d jit_ms_last_round=%d last_round_ms=%.0f"
                            + " jit_ms_during_measurement=%d",
                    rounds,
                    plansPerRound,
                    lastRoundCompilingMillis,
                    lastRoundNanos / 1e6,
                    compilingDuringMeasurementMillis);
        }
    }

    /**
     * Runs rounds of {@code plans} plans (with a checkpoint after every step, then without) until the
     * JIT compiler was quiet during a whole round ({@link JitCompiler#busy}, its time read from {@code
     * compilingMillis}), at most {@code maxRounds} rounds. Measured before it is quiet, this benchmark measured the compiler: on two cores it took
     * one for seconds, and code it had not finished with ran slower and allocated more.
     */
    static WarmUp warmUp(
            PlanExecutor executor,
            Plan plan,
            int plans,
            int maxRounds,
            java.util.function.LongSupplier compilingMillis,
            PrintStream progress) {
        int round = 0;
        long compiling;
        long nanos;
        do {
            round++;
            long compilingBefore = compilingMillis.getAsLong();
            long start = System.nanoTime();
            measure(executor, plan, plans, true);
            measure(executor, plan, plans, false);
            nanos = System.nanoTime() - start;
            compiling = compilingMillis.getAsLong() - compilingBefore;
            progress.printf(
                    Locale.ROOT,
                    "weft-bench concurrency: warm-up round %d of %d plans: the JIT compiler worked %d ms of %.0f%n",
                    round,
                    plans,
                    compiling,
                    nanos / 1e6);
        } while (round < maxRounds && JitCompiler.busy(compiling, nanos));
        return new WarmUp(round, plans, compiling, nanos);
    }

    /** The same fan-ins with no runtime at all: what this machine's JVM needs for the sleeps alone. */
    record Bare(int plans, long wallNanos, long cpuNanos) {
        String line() {
            return String.format(
                    Locale.ROOT,
                    "baseline bare_virtual_threads plans=%d wall_over_ideal=%.3f cpu_ms_per_plan=%.3f",
                    plans,
                    wallNanos / 1e6 / IDEAL_MILLIS,
                    cpuNanos / 1e6 / plans);
        }
    }

    /**
     * {@code plans} fan-ins of plain virtual threads started from this thread: A and B each sleep
     * {@value #STEP_MILLIS} ms on a thread of their own, and C sleeps on a third once both are done.
     * No runtime, no events, no store: the floor any runtime of these plans stands on here.
     */
    static Bare bareFanIns(int plans) {
        settleHeap();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        List<CompletableFuture<Void>> done = new ArrayList<>(plans);
        long cpuBefore = os.getProcessCpuTime();
        long start = System.nanoTime();
        try (var threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < plans; i++) {
                CompletableFuture<Void> a = CompletableFuture.runAsync(ConcurrencyBenchmark::sleepStep, threads);
                CompletableFuture<Void> b = CompletableFuture.runAsync(ConcurrencyBenchmark::sleepStep, threads);
                done.add(CompletableFuture.allOf(a, b).thenRunAsync(ConcurrencyBenchmark::sleepStep, threads));
            }
            CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).join();
        }
        return new Bare(plans, System.nanoTime() - start, os.getProcessCpuTime() - cpuBefore);
    }

    private static void sleepStep() {
        try {
            Thread.sleep(STEP_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The live heap (what a full collection leaves) with the plans in flight, and once they are done
     * and only the store holds them.
     *
     * @param afterLastStartBytes just after the last start: the plans started in its last {@value
     *     #IDEAL_MILLIS} ms are still running, the earlier ones are done and kept in the store
     */
    record LiveHeap(int plans, long afterLastStartBytes, long afterAllDoneBytes) {
        String line() {
            return String.format(
                    Locale.ROOT,
                    "detail live_heap_mb (after a full GC, untimed run, checkpoint after every step)"
                            + " after_last_start=%d after_all_done=%d",
                    afterLastStartBytes / MB,
                    afterAllDoneBytes / MB);
        }
    }

    /** Runs {@code plans} plans again, untimed, stopping the world twice to weigh what is live. */
    static LiveHeap weighLiveHeap(PlanExecutor executor, Plan plan, int plans) {
        settleHeap();
        Runner runner =
                Runner.builder().store(InMemoryRunStore.latestCheckpointOnly()).build();
        PlanRequest request = PlanRequest.auto(NullNode.getInstance());
        List<CompletableFuture<RunResult>> results = new ArrayList<>(plans);
        for (int i = 0; i < plans; i++) {
            results.add(executor.start(runner, plan, request).result());
        }
        long afterLastStart = liveBytes();
        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).join();
        long afterAllDone = liveBytes();
        forget(runner);
        return new LiveHeap(plans, afterLastStart, afterAllDone);
    }

    private static long liveBytes() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static long singlePlanNanos(PlanExecutor executor, Plan plan) {
        Runner runner =
                Runner.builder().store(InMemoryRunStore.latestCheckpointOnly()).build();
        long start = System.nanoTime();
        RunResult result = executor.run(runner, plan, PlanRequest.auto(NullNode.getInstance()));
        long nanos = System.nanoTime() - start;
        check(result, 0);
        forget(runner);
        return nanos;
    }

    /** Starts {@code plans} runs of {@code plan} from this thread, on a fresh runner and store, and waits for all. */
    static Measurement measure(PlanExecutor executor, Plan plan, int plans, boolean checkpointEveryStep) {
        settleHeap();
        long baseline = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        Runner runner = Runner.builder()
                .store(InMemoryRunStore.latestCheckpointOnly())
                .checkpointEveryStep(checkpointEveryStep)
                .build();
        PlanRequest request = PlanRequest.auto(NullNode.getInstance());
        List<CompletableFuture<RunResult>> results = new ArrayList<>(plans);
        AtomicLong lastCompletion = new AtomicLong(Long.MIN_VALUE);
        Measurement measurement;
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (HeapPeakMonitor heap = HeapPeakMonitor.start()) {
            long cpuBefore = os.getProcessCpuTime();
            long allocatedBefore = allocatedBytes();
            long gcBefore = gcPauseMillis();
            long start = System.nanoTime();
            for (int i = 0; i < plans; i++) {
                CompletableFuture<RunResult> result =
                        executor.start(runner, plan, request).result();
                result.whenComplete((r, e) -> lastCompletion.accumulateAndGet(System.nanoTime(), Math::max));
                results.add(result);
            }
            long startedAll = System.nanoTime();
            CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).join();
            long wall = lastCompletion.get() - start;
            long cpu = os.getProcessCpuTime() - cpuBefore;
            long allocated = allocatedBytes() - allocatedBefore;
            long gc = gcPauseMillis() - gcBefore;
            measurement = new Measurement(
                    checkpointEveryStep,
                    plans,
                    startedAll - start,
                    wall,
                    heap.peakUsedBytes(),
                    heap.peakAfterGcBytes(),
                    heap.collections(),
                    baseline,
                    cpu,
                    gc,
                    allocated);
        }
        for (int i = 0; i < results.size(); i++) {
            check(results.get(i).join(), i);
        }
        forget(runner);
        return measurement;
    }

    /**
     * Deletes every run {@code runner}'s store holds, so that the next measurement starts on a heap
     * without them, whatever may still refer to the runner.
     */
    private static void forget(Runner runner) {
        runner.store().pruneRuns(Instant.MAX);
    }

    /** Bytes allocated on the heap by every thread so far (virtual threads count on their carriers). */
    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getTotalThreadAllocatedBytes();
    }

    /**
     * Milliseconds the collectors have stopped the application so far; G1's concurrent cycles run
     * beside it and are left out.
     */
    private static long gcPauseMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .filter(collector -> !collector.getName().contains("Concurrent"))
                .mapToLong(collector -> Math.max(0, collector.getCollectionTime()))
                .sum();
    }

    private static void check(RunResult result, int index) {
        PlanSummary summary = PlanExecutor.summary(result).orElse(null);
        if (result.status() != RunStatus.COMPLETED || summary == null || summary.successfulSteps() != 3) {
            throw new IllegalStateException("plan " + index + " did not complete its 3 steps: " + result.status() + " "
                    + result.error() + " " + summary);
        }
    }

    /** Collects what earlier measurements left, so that each starts from the same heap. */
    private static void settleHeap() {
        for (int i = 0; i < 2; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
