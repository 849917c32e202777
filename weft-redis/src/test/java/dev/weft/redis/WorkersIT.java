package dev.weft.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.Event;
import dev.weft.core.Json;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanParser;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.StepOutcome;
import dev.weft.redis.testing.RedisServer;
import dev.weft.redis.testing.TestExecutors;
import dev.weft.redis.testing.WorkerMain;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker processes (JVMs of their own) sharing the steps of many runs on PostgreSQL and Redis, one of
 * them killed with SIGKILL in the middle, and Redis killed and started again in the middle: every step
 * completes once, its effect made once, nothing lost.
 */
final class WorkersIT {
    private static final int WORKERS = 3;

    @TempDir
    Path dir;

    private RedisServer redis;
    private RunStore store;
    private String db;
    private RedisSteps steps;
    private Runner runner;
    private final List<Process> workers = new ArrayList<>();
    private final List<String> output = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void start() throws Exception {
        redis = RedisServer.start();
        db = EmbeddedPostgres.shared().freshUrl();
        store = Stores.open(Optional.of(db), Map.of());
        steps = RedisSteps.builder(RedisUrl.parse(redis.url()), store)
                .sweepInterval(Duration.ofMillis(300))
                .lostAfter(Duration.ofSeconds(3))
                .build();
        runner = Runner.builder()
                .store(store)
                .dispatcher(steps)
                .listener(steps.events())
                .build();
        for (int i = 0; i < WORKERS; i++) {
            workers.add(worker(i));
        }
    }

    @AfterEach
    void stop() {
        workers.forEach(Process::destroyForcibly);
        steps.close();
        store.close();
        redis.close();
    }

    /** Starts a worker JVM and waits until it reads. */
    private Process worker(int index) throws Exception {
        Process process = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        WorkerMain.class.getName(),
                        redis.url(),
                        db,
                        "8",
                        "1500",
                        "5")
                .redirectErrorStream(true)
                .start();
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String first = lines.readLine();
        assertThat(first).as("worker " + index + " starts").startsWith("ready ");
        Thread.ofVirtual().start(() -> lines.lines().forEach(line -> output.add("worker " + index + ": " + line)));
        return process;
    }

    private List<Runner.RunHandle> startRuns(int runs, int stepsEach, long ms, Path effects) {
        PlanExecutor executor = TestExecutors.executor();
        List<Runner.RunHandle> handles = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            handles.add(executor.start(
                    runner,
                    PlanParser.fromJson(TestExecutors.sleepingPlan(stepsEach, ms, effects)),
                    PlanRequest.auto(Json.object())));
        }
        return handles;
    }

    /** Waits for every run, and checks each step completed once and made its effect once. */
    private List<RunResult> finishedOnce(List<Runner.RunHandle> handles, int stepsEach, Path effects) throws Exception {
        List<RunResult> results = new ArrayList<>();
        for (Runner.RunHandle handle : handles) {
            RunResult result = handle.result().get(120, TimeUnit.SECONDS);
            assertThat(result.status())
                    .as("run " + result.runId() + "\n" + output)
                    .isEqualTo(RunStatus.COMPLETED);
            assertThat(PlanExecutor.outcomes(result).values())
                    .hasSize(stepsEach)
                    .extracting(StepOutcome::status)
                    .containsOnly(StepOutcome.Status.SUCCEEDED);
            assertThat(store.events(result.runId()).stream()
                            .filter(e -> e.type().equals("tool.succeeded"))
                            .count())
                    .as("each step's result committed once")
                    .isEqualTo(stepsEach);
            results.add(result);
        }
        List<String> made = Files.readAllLines(effects);
        Set<String> expected = new HashSet<>();
        for (RunResult result : results) {
            for (int i = 1; i <= stepsEach; i++) {
                expected.add(result.runId() + "/s" + i);
            }
        }
        assertThat(made).as("effects made once each").doesNotHaveDuplicates();
        assertThat(new HashSet<>(made)).isEqualTo(expected);
        List<String> calls = Files.readAllLines(Path.of(effects + ".calls"));
        assertThat(new HashSet<>(calls)).as("no step left uncalled").isEqualTo(expected);
        System.out.println("WorkersIT: " + expected.size() + " steps, " + calls.size() + " tool calls ("
                + (calls.size() - expected.size()) + " made again after a worker died; their effect was not)");
        return results;
    }

    @Test
    void threeWorkersShareTheStepsOfManyRunsAndOneKilledMidStepLosesNothingAndDoublesNothing() throws Exception {
        Path effects = dir.resolve("effects.log");
        List<Runner.RunHandle> handles = startRuns(40, 5, 200, effects);
        Thread.sleep(700);

        workers.get(0).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        List<RunResult> results = finishedOnce(handles, 5, effects);

        assertThat(results).hasSize(40);
        List<String> claims =
                output.stream().filter(l -> l.contains("claimed entry")).toList();
        assertThat(claims)
                .as("the killed worker's steps were claimed by the others\n" + output)
                .isNotEmpty();
        long queued = results.stream()
                .flatMap(r -> store.events(r.runId()).stream())
                .filter(e -> e.type().equals(Event.STEP_QUEUED))
                .count();
        assertThat(queued).isEqualTo(200);
    }

    @Test
    void redisKilledAndStartedAgainMidRunLosesNothingAndRunsNothingTwice() throws Exception {
        Path effects = dir.resolve("effects.log");
        List<Runner.RunHandle> handles = startRuns(30, 4, 300, effects);
        Thread.sleep(500);

        redis.kill();
        Thread.sleep(1500);
        List<RunResult> whileAway = new ArrayList<>();
        for (Runner.RunHandle handle : startRuns(5, 2, 10, dir.resolve("during.log"))) {
            whileAway.add(handle.result().get(120, TimeUnit.SECONDS));
        }
        redis.restart();
        List<RunResult> results = finishedOnce(handles, 4, effects);

        assertThat(results).hasSize(30);
        assertThat(whileAway).extracting(RunResult::status).containsOnly(RunStatus.COMPLETED);
        long inline = whileAway.stream()
                .flatMap(r -> store.events(r.runId()).stream())
                .filter(e -> e.type().equals(Event.STEP_INLINE))
                .count();
        assertThat(inline)
                .as("steps started while Redis was away ran here, and said so")
                .isEqualTo(10);
        assertThat(output.stream().filter(l -> l.contains("answers again"))).isNotEmpty();
    }
}
