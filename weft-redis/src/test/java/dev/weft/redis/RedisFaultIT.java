package dev.weft.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.Event;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanParser;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.StepOutcome;
import dev.weft.redis.testing.RedisServer;
import dev.weft.redis.testing.ServerMain;
import dev.weft.redis.testing.TestExecutors;
import dev.weft.store.Stores;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;

/**
 * The queue's edges killed at their worst moment, against a real redis-server and a real SQLite store:
 * Redis killed for good while steps wait on its stream (on {@code main} before the take-back, those
 * runs waited forever: {@code RedisSteps.requeueIfLost} returned while Redis did not answer), Redis
 * back with the old entries after they were taken back, and a server killed with SIGKILL while its
 * steps are at a worker. Each counts the effects: every step's effect made once.
 */
final class RedisFaultIT {
    private static final int STEPS = 3;

    @TempDir
    Path dir;

    private RedisServer redis;
    private RunStore store;
    private String db;
    private Path effects;
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final List<String> workerLog = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void start() {
        redis = RedisServer.start();
        db = "sqlite:" + dir.resolve("runs.db");
        store = Stores.open(Optional.of(db), Map.of());
        effects = dir.resolve("effects.log");
    }

    @AfterEach
    void stop() throws Exception {
        Collections.reverse(closing);
        for (AutoCloseable closeable : closing) {
            closeable.close();
        }
        store.close();
        redis.close();
    }

    private RedisSteps queue(Duration takeBack) {
        RedisSteps steps = RedisSteps.builder(RedisUrl.parse(redis.url()), store)
                .sweepInterval(Duration.ofMillis(200))
                .retryAfter(Duration.ofMillis(300))
                .takeBack(takeBack)
                .executors(name ->
                        name.equals(TestExecutors.NAME) ? Optional.of(TestExecutors.executor()) : Optional.empty())
                .build();
        closing.add(steps);
        return steps;
    }

    private Runner runner(RedisSteps steps) {
        return Runner.builder()
                .store(store)
                .dispatcher(steps)
                .listener(steps.events())
                .build();
    }

    private Worker worker() {
        Worker worker = Worker.builder(RedisUrl.parse(redis.url()), store)
                .executors(name ->
                        name.equals(TestExecutors.NAME) ? Optional.of(TestExecutors.executor()) : Optional.empty())
                .lease(Duration.ofSeconds(2))
                .concurrency(8)
                .log(workerLog::add)
                .build()
                .start();
        closing.add(() -> worker.stop(Duration.ofSeconds(1)));
        return worker;
    }

    private Runner.RunHandle startRun(Runner runner, long ms) {
        return TestExecutors.executor()
                .start(
                        runner,
                        PlanParser.fromJson(TestExecutors.sleepingPlan(STEPS, ms, effects)),
                        PlanRequest.auto(Json.object()));
    }

    private long events(String runId, String type) {
        return store.events(runId).stream().filter(e -> e.type().equals(type)).count();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    private List<String> lines(Path file) throws Exception {
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    /** Each step of each run completed once, and made its effect once. */
    private void completedOnce(List<RunResult> results) throws Exception {
        Set<String> expected = new HashSet<>();
        for (RunResult result : results) {
            assertThat(result.status()).as(result.runId() + "\n" + workerLog).isEqualTo(RunStatus.COMPLETED);
            assertThat(PlanExecutor.outcomes(result).values())
                    .hasSize(STEPS)
                    .extracting(StepOutcome::status)
                    .containsOnly(StepOutcome.Status.SUCCEEDED);
            assertThat(events(result.runId(), "tool.succeeded"))
                    .as("each step's result committed once")
                    .isEqualTo(STEPS);
            for (int i = 1; i <= STEPS; i++) {
                expected.add(result.runId() + "/s" + i);
            }
        }
        assertThat(lines(effects)).as("effects made once each").doesNotHaveDuplicates();
        assertThat(new HashSet<>(lines(effects))).isEqualTo(expected);
    }

    /** Fails on main before the take-back: the run waited for its queued steps forever. */
    @Test
    void stepsQueuedWhenRedisDiesForGoodAreTakenBackAndRunHereOnce() throws Exception {
        RedisSteps steps = queue(Duration.ofSeconds(1));
        Runner.RunHandle handle = startRun(runner(steps), 10);
        await("every step queued, with no worker to take it", () -> events(handle.runId(), Event.STEP_QUEUED) == STEPS);

        redis.kill();
        RunResult result = handle.result().get(60, TimeUnit.SECONDS);

        completedOnce(List.of(result));
        assertThat(events(result.runId(), Event.STEP_TAKEN_BACK)).isEqualTo(STEPS);
        assertThat(store.events(result.runId()).stream()
                        .filter(e -> e.type().equals(Event.STEP_TAKEN_BACK))
                        .map(e -> e.data().path("reason").asText()))
                .allSatisfy(reason -> assertThat(reason)
                        .isEqualTo("Redis at " + redis.url() + " has not answered for 1000 ms; the step was"
                                + " taken back from the queue and run in this process"));
        assertThat(steps.waiting()).isZero();
        assertThat(lines(Path.of(effects + ".calls")))
                .as("each tool called once")
                .hasSize(STEPS);
    }

    @Test
    void redisBackWithTheOldEntriesAfterATakeBackDoublesNothing() throws Exception {
        RedisSteps steps = queue(Duration.ofSeconds(1));
        Runner.RunHandle handle = startRun(runner(steps), 10);
        await("every step queued", () -> events(handle.runId(), Event.STEP_QUEUED) == STEPS);
        redis.kill();
        RunResult result = handle.result().get(60, TimeUnit.SECONDS);
        Worker worker;

        redis.restart();
        try (RedisClient client = RedisClient.create(URI.create(redis.url()))) {
            assertThat(client.xlen(StreamNames.DEFAULT.stream()))
                    .as("Redis came back with the old entries")
                    .isEqualTo(STEPS);
            worker = worker();
            await("the old entries acknowledged", () -> client.xlen(StreamNames.DEFAULT.stream()) == 0);
        }

        completedOnce(List.of(result));
        assertThat(worker.status().done())
                .as("the worker ran none of the old entries")
                .isZero();
        assertThat(lines(Path.of(effects + ".calls")))
                .as("no tool called again")
                .hasSize(STEPS);
    }

    @Test
    void aServerKilledWhileItsStepsAreAtAWorkerIsRecoveredByAnotherAndEachEffectIsMadeOnce() throws Exception {
        Worker worker = worker();
        Process server = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        ServerMain.class.getName(),
                        redis.url(),
                        db,
                        "4",
                        Integer.toString(STEPS),
                        "1500",
                        effects.toString())
                .redirectErrorStream(true)
                .start();
        closing.add(server::destroyForcibly);
        BufferedReader output =
                new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = output.readLine()) != null && !line.startsWith("queued ")) {
            // the JVM's start-up chatter
        }
        assertThat(line).as("the server queued its runs' steps").startsWith("queued ");
        List<String> runIds = Arrays.asList(line.substring("queued ".length()).split(" "));
        await("steps in the worker's hands", () -> worker.status().inHand() > 0);

        server.destroyForcibly();
        assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
        RedisSteps steps = queue(Duration.ofSeconds(30));
        Runner runner = runner(steps);
        PlanExecutor executor = TestExecutors.executor();
        List<Run> recoverable = runner.recoverable();
        assertThat(recoverable).extracting(Run::id).containsExactlyInAnyOrderElementsOf(runIds);
        List<RunResult> results = new ArrayList<>();
        for (Run run : recoverable) {
            results.add(runner.recover(executor.graphOf(run).orElseThrow(), run.id()));
        }

        completedOnce(results);
        assertThat(events(results.get(0).runId(), Event.STEP_TAKEN_BACK)).isZero();
    }
}
