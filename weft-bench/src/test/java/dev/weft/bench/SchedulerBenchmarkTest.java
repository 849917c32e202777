package dev.weft.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.bench.GroupBarrierScheduler.Execution;
import dev.weft.bench.GroupBarrierScheduler.StepSpan;
import dev.weft.bench.SchedulerBenchmark.Case;
import dev.weft.bench.SchedulerBenchmark.Measurement;
import dev.weft.plan.ExecutionGroups;
import dev.weft.plan.PlanExecutor;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

final class SchedulerBenchmarkTest {
    /** a(10) and b(30) first; c(5) after a; d(20) after a and b; e(1) after c and d. */
    private static final LatencyDag HAND_MADE = new LatencyDag(
            0,
            List.of(
                    new LatencyDag.Step("a", 10, List.of()),
                    new LatencyDag.Step("b", 30, List.of()),
                    new LatencyDag.Step("c", 5, List.of("a")),
                    new LatencyDag.Step("d", 20, List.of("a", "b")),
                    new LatencyDag.Step("e", 1, List.of("c", "d"))));

    @Test
    void randomDagsAreAcyclicWithinTheSizeRangeAndOnlyDependOnEarlierSteps() {
        List<LatencyDag> dags = LatencyDag.random(500, 7);

        assertThat(dags).hasSize(500);
        Set<Integer> sizes = new HashSet<>();
        for (LatencyDag dag : dags) {
            sizes.add(dag.steps().size());
            assertThat(dag.steps().size()).isBetween(LatencyDag.MIN_STEPS, LatencyDag.MAX_STEPS);
            Set<String> earlier = new HashSet<>();
            for (LatencyDag.Step step : dag.steps()) {
                assertThat(step.latencyMillis()).isPositive();
                assertThat(step.dependsOn()).doesNotHaveDuplicates().hasSizeLessThanOrEqualTo(3);
                assertThat(earlier).containsAll(step.dependsOn());
                earlier.add(step.id());
            }
            // Rejecting cycles throws for any cycle, so passing proves the plan is a DAG.
            ExecutionGroups groups = ExecutionGroups.of(SleepingPlans.planOf(dag), true);
            assertThat(groups.brokenCycles()).isEmpty();
        }
        assertThat(sizes).contains(LatencyDag.MIN_STEPS, LatencyDag.MAX_STEPS);
    }

    @Test
    void theSameSeedGivesTheSameDags() {
        assertThat(LatencyDag.random(20, 42)).isEqualTo(LatencyDag.random(20, 42));
        assertThat(LatencyDag.random(20, 42)).isNotEqualTo(LatencyDag.random(20, 43));
    }

    @Test
    void latenciesAreLogNormalAroundTheirMedian() {
        double[] latencies = LatencyDag.random(1_000, 3).stream()
                .flatMap(dag -> dag.steps().stream())
                .mapToDouble(LatencyDag.Step::latencyMillis)
                .toArray();

        assertThat(SchedulerBenchmark.percentile(latencies, 0.5)).isBetween(18.0, 22.0);
    }

    @Test
    void criticalPathIsTheLongestPathOfLatencies() {
        // b → d → e: 30 + 20 + 1; the paths through a or c are shorter.
        assertThat(HAND_MADE.criticalPathMillis()).isEqualTo(51);
        assertThat(HAND_MADE.longestPath(step -> 1)).isEqualTo(3);
    }

    @Test
    void groupBarrierModelSumsTheSlowestStepOfEachGroup() {
        ExecutionGroups groups = ExecutionGroups.of(SleepingPlans.planOf(HAND_MADE), false);

        assertThat(groups.groups())
                .extracting(ExecutionGroups.Group::steps)
                .containsExactly(List.of("a", "b"), List.of("c", "d"), List.of("e"));
        // max(10, 30) + max(5, 20) + 1
        assertThat(HAND_MADE.groupBarrier(groups, LatencyDag.Step::latencyMillis))
                .isEqualTo(51);
    }

    @Test
    void groupBarrierStartsNoStepBeforeTheWholePreviousGroupHasFinished() throws InterruptedException {
        // c needs only b, yet waits for a too, because a is in b's group: 40 + 5 ms instead of 40.
        LatencyDag dag = new LatencyDag(
                0,
                List.of(
                        new LatencyDag.Step("a", 40, List.of()),
                        new LatencyDag.Step("b", 5, List.of()),
                        new LatencyDag.Step("c", 5, List.of("b"))));
        SleepingPlans plans = new SleepingPlans(SleepingPlans.SleepLog.NONE);
        GroupBarrierScheduler scheduler =
                new GroupBarrierScheduler(step -> plans.invokeDirectly("test", step), System::nanoTime);

        Execution execution = scheduler.run(SleepingPlans.planOf(dag));

        Map<String, StepSpan> spans = execution.byStep();
        assertThat(spans).containsOnlyKeys("a", "b", "c");
        assertThat(spans.get("a").group()).isEqualTo(spans.get("b").group());
        assertThat(spans.get("c").startNanos())
                .isGreaterThanOrEqualTo(spans.get("a").endNanos());
        assertThat(spans.get("c").startNanos())
                .isGreaterThanOrEqualTo(spans.get("b").endNanos());
        // Sleeps never end early, so the makespan is at least the sum of the groups' slowest steps.
        assertThat(execution.makespanNanos()).isGreaterThanOrEqualTo(45_000_000L);
        assertThat(dag.criticalPathMillis()).isEqualTo(40);
    }

    @Test
    void groupBarrierMakespanIsTheSumOfGroupMaximaOnASimulatedClock() throws InterruptedException {
        // The clock reads the latest end of any step so far; a step that starts at t ends at t plus its
        // latency. Both steps of the first group read their start before either ends (the latch), as
        // parallel steps would, so the run is the same every time.
        LatencyDag dag = new LatencyDag(
                0,
                List.of(
                        new LatencyDag.Step("a", 7, List.of()),
                        new LatencyDag.Step("b", 3, List.of()),
                        new LatencyDag.Step("c", 2, List.of("b"))));
        Map<String, Long> latency = Map.of("a", 7L, "b", 3L, "c", 2L);
        AtomicLong latestEnd = new AtomicLong();
        CountDownLatch firstGroupStarted = new CountDownLatch(2);
        GroupBarrierScheduler scheduler = new GroupBarrierScheduler(
                step -> {
                    long start = latestEnd.get();
                    if (!step.id().equals("c")) {
                        firstGroupStarted.countDown();
                        awaitOrFail(firstGroupStarted);
                    }
                    latestEnd.accumulateAndGet(start + latency.get(step.id()), Math::max);
                },
                latestEnd::get);

        Execution execution = scheduler.run(SleepingPlans.planOf(dag));

        // max(7, 3) + 2, where dataflow would finish at max(7, 3 + 2) = 7.
        assertThat(execution.makespanNanos()).isEqualTo(9);
        assertThat(execution.byStep().get("c").startNanos()).isEqualTo(7);
    }

    private static void awaitOrFail(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("the steps of one group did not run in parallel");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    @Test
    void bothSchedulersRunAHandfulOfDagsToCompletion() {
        List<Case> cases = LatencyDag.random(4, 11).stream().map(Case::of).toList();

        List<Measurement> measurements =
                SchedulerBenchmark.runAll(new SchedulerBenchmark.Schedulers(), cases, 2, System.err);

        assertThat(measurements).hasSize(8);
        assertThat(measurements)
                .extracting(Measurement::scheduler)
                .containsOnly(SchedulerBenchmark.DATAFLOW, SchedulerBenchmark.GROUPS);
        for (Measurement measurement : measurements) {
            assertThat(measurement.floorNanos())
                    .isGreaterThanOrEqualTo(measurement.subject().criticalPathMillis() * 1_000_000);
            assertThat(measurement.makespanNanos()).isGreaterThanOrEqualTo(measurement.floorNanos());
            assertThat(measurement.sleepOvershootNanos())
                    .hasSize(measurement.subject().dag().steps().size());
        }
    }

    @Test
    void percentileIsTheNearestRank() {
        double[] values = IntStream.rangeClosed(1, 20).asDoubleStream().toArray();

        assertThat(SchedulerBenchmark.percentile(values, 0.5)).isEqualTo(10);
        assertThat(SchedulerBenchmark.percentile(values, 0.95)).isEqualTo(19);
        assertThat(SchedulerBenchmark.percentile(new double[] {3}, 0.95)).isEqualTo(3);
    }

    @Test
    void optionsRejectUnknownNamesAndValuesBelowTheirMinimum() {
        Map<String, NumericOptions.Option> options = Map.of("dags", new NumericOptions.Option(1_000, 1));

        assertThat(NumericOptions.parse(new String[] {"--dags", "12"}, options, "usage")
                        .intValue("dags"))
                .isEqualTo(12);
        assertThat(NumericOptions.parse(new String[0], options, "usage").intValue("dags"))
                .isEqualTo(1_000);
        assertThatThrownBy(() -> NumericOptions.parse(new String[] {"--dag", "12"}, options, "usage"))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("unknown argument '--dag'");
        assertThatThrownBy(() -> NumericOptions.parse(new String[] {"--dags", "0"}, options, "usage"))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("--dags must be at least 1, was 0");
        assertThatThrownBy(() -> NumericOptions.parse(new String[] {"--dags"}, options, "usage"))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("needs a number");
    }

    @Test
    void concurrencyRunsEveryFanInPlanToCompletion() {
        ConcurrencyBenchmark.Measurement measurement = ConcurrencyBenchmark.measure(
                new SleepingPlans(SleepingPlans.SleepLog.NONE).executor(), ConcurrencyBenchmark.fanIn(), 20, true);

        assertThat(measurement.plans()).isEqualTo(20);
        // A and B, then C: no plan can finish sooner than two sleeps.
        assertThat(measurement.wallNanos()).isGreaterThanOrEqualTo(ConcurrencyBenchmark.IDEAL_MILLIS * 1_000_000);
        assertThat(measurement.startAllNanos()).isPositive();
        assertThat(measurement.peakUsedBytes()).isPositive();
    }

    @Test
    void theConcurrencyWarmUpRunsRoundsUntilTheCompilerIsQuietOrTheLimitIsReached() {
        java.io.ByteArrayOutputStream progress = new java.io.ByteArrayOutputStream();
        PlanExecutor executor = new SleepingPlans(SleepingPlans.SleepLog.NONE).executor();
        // The compiler's clock, read before and after each round: 10 s in the first round, none after.
        java.util.Iterator<Long> quietAfterOne =
                List.of(0L, 10_000L, 10_000L, 10_000L).iterator();

        ConcurrencyBenchmark.WarmUp settles = ConcurrencyBenchmark.warmUp(
                executor,
                ConcurrencyBenchmark.fanIn(),
                3,
                5,
                quietAfterOne::next,
                new java.io.PrintStream(progress, true, java.nio.charset.StandardCharsets.UTF_8));
        AtomicLong alwaysBusy = new AtomicLong();
        ConcurrencyBenchmark.WarmUp limited = ConcurrencyBenchmark.warmUp(
                executor,
                ConcurrencyBenchmark.fanIn(),
                3,
                2,
                () -> alwaysBusy.addAndGet(10_000),
                new java.io.PrintStream(
                        new java.io.ByteArrayOutputStream(), true, java.nio.charset.StandardCharsets.UTF_8));

        assertThat(settles.rounds()).isEqualTo(2);
        assertThat(settles.lastRoundCompilingMillis()).isZero();
        assertThat(settles.plansPerRound()).isEqualTo(3);
        // a round is two measurements of plans that each need the ideal time at least
        assertThat(settles.lastRoundNanos()).isGreaterThanOrEqualTo(2 * ConcurrencyBenchmark.IDEAL_MILLIS * 1_000_000);
        assertThat(progress.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("warm-up round 1 of 3 plans: the JIT compiler worked 10000 ms")
                .contains("warm-up round 2 of 3 plans: the JIT compiler worked 0 ms");
        assertThat(limited.rounds()).isEqualTo(2);
        assertThat(new ConcurrencyBenchmark.WarmUp(7, 10_000, 9, 2_500_000_000L).line(3))
                .isEqualTo("detail warm_up rounds=7 plans_per_round=10000 jit_ms_last_round=9 last_round_ms=2500"
                        + " jit_ms_during_measurement=3");
    }

    @Test
    void theBareBaselineSleepsTwiceOnTheCriticalPath() {
        ConcurrencyBenchmark.Bare bare = ConcurrencyBenchmark.bareFanIns(20);

        assertThat(bare.wallNanos()).isGreaterThanOrEqualTo(ConcurrencyBenchmark.IDEAL_MILLIS * 1_000_000);
        assertThat(bare.line()).startsWith("baseline bare_virtual_threads plans=20 wall_over_ideal=");
    }

    @Test
    void onASimulatedClockWeftFinishesEachDagExactlyOnItsCriticalPath() {
        Case handMade = Case.of(HAND_MADE);
        SimulatedScheduling simulation = new SimulatedScheduling();

        // b(30) then d(20) then e(1): 51; the group barrier waits for b before c, so c..e: 30 + 20 + 1.
        assertThat(simulation.dataflowMillis(handMade)).isEqualTo(51);
        assertThat(SimulatedScheduling.groupsMillis(handMade)).isEqualTo(handMade.groupBarrierMillis());
        for (LatencyDag dag : LatencyDag.random(30, 11)) {
            Case subject = Case.of(dag);
            assertThat(simulation.dataflowMillis(subject))
                    .as("DAG %d", dag.index())
                    .isEqualTo(subject.criticalPathMillis());
            assertThat(SimulatedScheduling.groupsMillis(subject))
                    .as("DAG %d", dag.index())
                    .isEqualTo(subject.groupBarrierMillis());
        }
    }

    @Test
    void aSimulatedClockShowsAStepStartedLate() {
        SimulatedClock clock = new SimulatedClock();
        // b waits for a, then, as a barrier would, for an unrelated 40 ms step before it starts.
        // Every task is started by a task of the clock, as a runner's are.
        java.util.concurrent.CompletableFuture.runAsync(
                        () -> {
                            var a = java.util.concurrent.CompletableFuture.runAsync(
                                    () -> SimulatedScheduling.sleep(10), clock);
                            var unrelated = java.util.concurrent.CompletableFuture.runAsync(
                                    () -> SimulatedScheduling.sleep(40), clock);
                            a.thenCombine(unrelated, (x, y) -> x)
                                    .thenRunAsync(() -> SimulatedScheduling.sleep(5), clock);
                        },
                        clock)
                .join();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (clock.now() < 45 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }

        assertThat(clock.now()).isEqualTo(45);
        clock.shutdown();
    }

    @Test
    void sleepingOnASimulatedClockOutsideItsThreadsIsRefused() {
        assertThatThrownBy(() -> SimulatedClock.sleepOnCurrent(1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("simulated clock");
    }

    @Test
    void rejectsAClockThatIsNeitherRealNorSimulated() {
        assertThatThrownBy(() -> SchedulerBenchmark.run(new String[] {"--clock", "fast"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("--clock must be 'real' or 'simulated'");
        assertThatThrownBy(() -> SchedulerBenchmark.run(new String[] {"--clock"}))
                .isInstanceOf(UsageException.class);
    }
}
