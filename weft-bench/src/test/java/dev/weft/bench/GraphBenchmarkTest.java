package dev.weft.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.bench.GraphBenchmark.Attempt;
import dev.weft.bench.GraphBenchmark.Configuration;
import dev.weft.bench.GraphBenchmark.Measurement;
import dev.weft.bench.GraphBenchmark.Ratio;
import dev.weft.core.RunResult;
import dev.weft.core.StepStatus;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.StreamSupport;
import org.bsc.langgraph4j.CompiledGraph;
import org.bsc.langgraph4j.NodeOutput;
import org.bsc.langgraph4j.state.AgentState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

final class GraphBenchmarkTest {
    private static final long SECOND = 1_000_000_000L;

    @ParameterizedTest
    @EnumSource(GraphShape.class)
    void everyConfigurationRunsTheGraphToItsEndAgainAndAgain(GraphShape shape) {
        for (Configuration configuration : GraphBenchmark.configurations()) {
            try (GraphHarness harness = configuration.harness().apply(shape)) {
                for (int batch = 0; batch < 2; batch++) {
                    harness.forgetRuns();
                    for (int run = 0; run < 3; run++) {
                        assertThat(harness.runOnce())
                                .as("%s/%s on %s", configuration.engine(), configuration.checkpoint(), shape)
                                .isEqualTo(shape.stepsPerRun());
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GraphShape.class)
    void weftRecordsOneCompletedStepPerNodeExecution(GraphShape shape) {
        try (WeftGraphHarness harness = WeftGraphHarness.checkpointingInMemory(shape)) {
            RunResult result = harness.runToResult();

            assertThat(result.steps()).hasSize(shape.stepsPerRun());
            assertThat(result.steps()).allMatch(step -> step.status() == StepStatus.COMPLETED);
            assertThat(result.output().asInt()).isEqualTo(shape.stepsPerRun());
        }
    }

    @ParameterizedTest
    @EnumSource(GraphShape.class)
    void langGraph4jExecutesOneNodePerStep(GraphShape shape) {
        CompiledGraph<AgentState> graph = LangGraph4jGraphHarness.compile(shape, false);

        List<NodeOutput<AgentState>> outputs = StreamSupport.stream(
                        graph.stream(Map.of(LangGraph4jGraphHarness.COUNT, 0)).spliterator(), false)
                .filter(output -> !output.isSTART() && !output.isEND())
                .toList();

        assertThat(outputs).hasSize(shape.stepsPerRun());
    }

    @Test
    void pairsEachWeftMeasurementWithLangGraph4jsOnTheSameGraphAndCheckpointSetting() {
        List<Configuration> configurations = GraphBenchmark.configurations();
        List<Measurement> measurements = configurations.stream()
                .map(c -> new Measurement(
                        c, GraphShape.CHAIN10, 1_000, c.engine().equals(GraphBenchmark.WEFT) ? 100_000 : 1_000_000))
                .toList();

        List<Ratio> ratios = GraphBenchmark.ratios(measurements);

        assertThat(ratios)
                .extracting(Ratio::line)
                .containsExactly(
                        "ratio graph=chain10 checkpoint=none weft_over_langgraph4j=0.100",
                        "ratio graph=chain10 checkpoint=memory weft_over_langgraph4j=0.100");
        assertThat(ratios).allMatch(Ratio::meetsTarget);
    }

    @ParameterizedTest
    @EnumSource(GraphShape.class)
    void theBareSqliteFloorWritesOneRowPerStepAndForgetsThem(GraphShape shape) {
        for (BareSqliteHarness harness :
                List.of(BareSqliteHarness.committingEveryStep(shape), BareSqliteHarness.committingOncePerRun(shape))) {
            try (harness) {
                harness.runOnce();
                harness.runOnce();
                assertThat(harness.rows()).isEqualTo(2L * shape.stepsPerRun());

                harness.forgetRuns();
                assertThat(harness.rows()).isZero();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(GraphShape.class)
    void theBareSqliteFloorCommitsEveryStepOrOncePerRun(GraphShape shape) {
        try (BareSqliteHarness everyStep = BareSqliteHarness.committingEveryStep(shape);
                BareSqliteHarness oncePerRun = BareSqliteHarness.committingOncePerRun(shape)) {
            assertThat(everyStep.walFramesOfOneRun()).isGreaterThanOrEqualTo(shape.stepsPerRun());
            assertThat(oncePerRun.walFramesOfOneRun()).isLessThan(shape.stepsPerRun() / 2);
        }
    }

    @Test
    void setsEachSqliteFloorAgainstLangGraph4jInMemoryAndWeftAgainstTheFloor() {
        Map<String, Configuration> byName = GraphBenchmark.configurations().stream()
                .collect(java.util.stream.Collectors.toMap(c -> c.engine() + "/" + c.checkpoint(), c -> c));
        List<Measurement> measurements = List.of(
                new Measurement(byName.get("langgraph4j/memory"), GraphShape.LOOP100, 1_000, 30_000_000),
                new Measurement(byName.get("weft/sqlite-async"), GraphShape.LOOP100, 1_000, 40_000_000),
                new Measurement(byName.get("bare-sqlite/sqlite-async"), GraphShape.LOOP100, 1_000, 10_000_000),
                new Measurement(byName.get("bare-sqlite/sqlite"), GraphShape.CHAIN10, 1_000, 60_000_000));

        assertThat(GraphBenchmark.floorLines(measurements))
                .containsExactly(
                        "floor graph=loop100 checkpoint=sqlite-async bare_sqlite_over_langgraph4j_memory=0.333"
                                + " weft_over_bare_sqlite=4.000",
                        "floor graph=chain10 checkpoint=sqlite bare_sqlite_over_langgraph4j_memory=n/a"
                                + " weft_over_bare_sqlite=n/a");
    }

    @ParameterizedTest
    @EnumSource(GraphShape.class)
    void theBarePostgresFloorWritesOneRowPerStepAndForgetsThem(GraphShape shape) {
        for (BarePostgresHarness harness : List.of(
                BarePostgresHarness.committingEveryStep(shape), BarePostgresHarness.committingOncePerRun(shape))) {
            try (harness) {
                harness.runOnce();
                harness.runOnce();
                assertThat(harness.rows()).isEqualTo(2L * shape.stepsPerRun());

                harness.forgetRuns();
                assertThat(harness.rows()).isZero();
            }
        }
    }

    @Test
    void theBarePostgresFloorCommitsEveryStepOrOncePerRun() {
        GraphShape shape = GraphShape.CHAIN10;
        try (BarePostgresHarness everyStep = BarePostgresHarness.committingEveryStep(shape);
                BarePostgresHarness oncePerRun = BarePostgresHarness.committingOncePerRun(shape)) {
            // One transaction per written row (or per run), and one for reading the counter itself.
            assertThat(everyStep.transactionsOfOneRun()).isEqualTo(shape.stepsPerRun() + 1L);
            assertThat(oncePerRun.transactionsOfOneRun()).isEqualTo(2L);
        }
    }

    @Test
    void langGraph4jsFileSaverKeepsOneFilePerRunUntilTheRunsAreForgotten() {
        try (LangGraph4jGraphHarness harness = LangGraph4jGraphHarness.checkpointingToFiles(GraphShape.CHAIN10)) {
            harness.runOnce();
            harness.runOnce();
            assertThat(harness.files()).isEqualTo(2);

            harness.forgetRuns();
            assertThat(harness.files()).isZero();
        }
    }

    @Test
    void setsThePostgresFloorAgainstLangGraph4jInMemoryAndWeftAgainstTheFloor() {
        Map<String, Configuration> byName = byName();
        List<Measurement> measurements = List.of(
                new Measurement(byName.get("langgraph4j/memory"), GraphShape.CHAIN10, 1_000, 20_000_000),
                new Measurement(byName.get("weft/postgres"), GraphShape.CHAIN10, 1_000, 150_000_000),
                new Measurement(byName.get("bare-postgres/postgres"), GraphShape.CHAIN10, 1_000, 100_000_000));

        assertThat(GraphBenchmark.floorLines(measurements))
                .containsExactly("floor graph=chain10 checkpoint=postgres bare_postgres_over_langgraph4j_memory=5.000"
                        + " weft_over_bare_postgres=1.500");
    }

    @Test
    void setsEachDurableWeftLineAgainstLangGraph4jsFileSaverOnTheSameGraph() {
        Map<String, Configuration> byName = byName();
        List<Measurement> measurements = List.of(
                new Measurement(byName.get("langgraph4j/file"), GraphShape.LOOP100, 1_000, 200_000_000),
                new Measurement(byName.get("weft/sqlite"), GraphShape.LOOP100, 1_000, 50_000_000),
                new Measurement(byName.get("weft/memory"), GraphShape.LOOP100, 1_000, 5_000_000),
                new Measurement(byName.get("weft/postgres"), GraphShape.CHAIN10, 1_000, 50_000_000));

        assertThat(GraphBenchmark.durablePeerLines(measurements))
                .containsExactly("ratio graph=loop100 weft_sqlite_over_langgraph4j_file=0.250");
    }

    private static Map<String, Configuration> byName() {
        return GraphBenchmark.configurations().stream()
                .collect(java.util.stream.Collectors.toMap(c -> c.engine() + "/" + c.checkpoint(), c -> c));
    }

    @Test
    void readsTheMeasuringTimeAndRejectsAnythingElse() {
        assertThat(GraphBenchmark.parseSeconds(new String[0])).isEqualTo(5.0);
        assertThat(GraphBenchmark.parseSeconds(new String[] {"--seconds", "2.5"}))
                .isEqualTo(2.5);
        assertThatThrownBy(() -> GraphBenchmark.parseSeconds(new String[] {"--seconds", "0"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("must be positive, was 0");
        assertThatThrownBy(() -> GraphBenchmark.parseSeconds(new String[] {"--fast"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("unknown argument '--fast'");
    }

    @Test
    void measuresOnlyTheNamedConfigurationAndRejectsAnUnknownName() {
        GraphBenchmark.Options options = GraphBenchmark.parseOptions(new String[] {"--only", "weft/sqlite"});

        assertThat(options.chosen(GraphBenchmark.configurations()))
                .singleElement()
                .satisfies(c -> assertThat(c.engine() + "/" + c.checkpoint()).isEqualTo("weft/sqlite"));
        assertThat(GraphBenchmark.parseOptions(new String[0]).chosen(GraphBenchmark.configurations()))
                .hasSameSizeAs(GraphBenchmark.configurations());
        assertThatThrownBy(() -> GraphBenchmark.parseOptions(new String[] {"--only", "weft/redis"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("--only names no configuration, was 'weft/redis'");
    }

    @Test
    void aMeasurementDuringWhichTheCompilerWasQuietIsKeptAtOnce() {
        List<Attempt> retried = new ArrayList<>();

        Attempt kept = GraphBenchmark.quietest(taking(attempt(20)), retried::add);

        assertThat(kept.compilingMillis()).isEqualTo(20);
        assertThat(retried).isEmpty();
    }

    @Test
    void aMeasurementDuringWhichTheCompilerWasBusyIsTakenAgainUntilOneIsQuiet() {
        List<Attempt> retried = new ArrayList<>();

        Attempt kept = GraphBenchmark.quietest(taking(attempt(310), attempt(25), attempt(5)), retried::add);

        assertThat(kept.compilingMillis()).isEqualTo(5);
        assertThat(retried).extracting(Attempt::compilingMillis).containsExactly(310L, 25L);
    }

    @Test
    void whenEveryMeasurementFindsTheCompilerBusyTheOneWithTheLeastCompilingIsKept() {
        List<Attempt> retried = new ArrayList<>();

        Attempt kept = GraphBenchmark.quietest(taking(attempt(90), attempt(40), attempt(60), attempt(0)), retried::add);

        assertThat(GraphBenchmark.MAX_MEASUREMENTS).isEqualTo(3);
        assertThat(kept.compilingMillis()).isEqualTo(40);
        assertThat(retried).extracting(Attempt::compilingMillis).containsExactly(90L, 40L);
    }

    /** A measurement of one second during which the compiler worked {@code compilingMillis}. */
    private static Attempt attempt(long compilingMillis) {
        return new Attempt(new GraphBenchmark.Timed(1_000, SECOND), compilingMillis, SECOND);
    }

    /** Hands out {@code attempts} in order, and fails if asked for more. */
    private static Supplier<Attempt> taking(Attempt... attempts) {
        Iterator<Attempt> next = List.of(attempts).iterator();
        return next::next;
    }
}
