package dev.weft.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanParser;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.StepOutcome;
import dev.weft.redis.testing.RedisServer;
import dev.weft.redis.testing.TestExecutors;
import dev.weft.store.Stores;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.resps.StreamEntry;

/**
 * The queue with a real Redis and a real store (SQLite): plan steps and queued nodes run by a worker,
 * outcomes once, dead letters, Redis away, cancellation from another process, a graceful stop, events
 * announced, and what a worker reports.
 */
final class RedisStepsTest {
    private static final AtomicInteger PREFIXES = new AtomicInteger();
    private static RedisServer redis;

    @TempDir
    Path dir;

    private final StreamNames names = new StreamNames("t" + PREFIXES.incrementAndGet());
    private final List<String> workerLog = Collections.synchronizedList(new ArrayList<>());
    private final List<AutoCloseable> closing = new ArrayList<>();
    private RunStore store;
    private RedisSteps steps;
    private Runner runner;
    private Path effects;

    @BeforeAll
    static void startRedis() {
        redis = RedisServer.start();
    }

    @AfterAll
    static void stopRedis() {
        redis.close();
    }

    @BeforeEach
    void open() {
        store = Stores.open(Optional.of("sqlite:" + dir.resolve("runs.db")), Map.of());
        effects = dir.resolve("effects.log");
        steps = queue(redis.url());
        runner = Runner.builder()
                .store(store)
                .dispatcher(steps)
                .listener(steps.events())
                .build();
    }

    private RedisSteps queue(String url) {
        RedisSteps queue = RedisSteps.builder(RedisUrl.parse(url), store)
                .names(names)
                .sweepInterval(Duration.ofMillis(200))
                .retryAfter(Duration.ofMillis(300))
                .build();
        closing.add(queue);
        return queue;
    }

    @AfterEach
    void close() throws Exception {
        Collections.reverse(closing);
        for (AutoCloseable closeable : closing) {
            closeable.close();
        }
        store.close();
    }

    private Worker.Builder workerBuilder() {
        return Worker.builder(RedisUrl.parse(redis.url()), store)
                .names(names)
                .executors(name ->
                        name.equals(TestExecutors.NAME) ? Optional.of(TestExecutors.executor()) : Optional.empty())
                .lease(Duration.ofMillis(600))
                .maxTries(2)
                .log(workerLog::add);
    }

    private Worker worker(Worker.Builder builder) {
        Worker worker = builder.build().start();
        closing.add(() -> worker.stop(Duration.ofSeconds(1)));
        return worker;
    }

    private static JsonNode plan(String steps) {
        return Json.parse("{\"intentType\": \"test\", \"confidence\": 1, \"plan\": [" + steps + "]}", "plan");
    }

    private String sleeping(String id, long ms) {
        return "{\"id\": \"" + id + "\", \"capability\": \"test\", \"action\": \"sleep\", \"constraints\": {\"ms\": "
                + ms + ", \"log\": " + Json.write(Json.mapper().valueToTree(effects.toString())) + "}}";
    }

    private RunResult runPlan(JsonNode plan) {
        return TestExecutors.executor().run(runner, PlanParser.fromJson(plan), PlanRequest.auto(Json.object()));
    }

    private List<String> effects() throws Exception {
        return Files.exists(effects) ? Files.readAllLines(effects) : List.of();
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(10);
        }
    }

    private RedisClient client() {
        RedisClient client = RedisClient.create(URI.create(redis.url()));
        closing.add(client);
        return client;
    }

    @Test
    void everyStepOfAPlanIsRunByAWorkerAndEachEffectIsMadeOnce() throws Exception {
        Worker worker = worker(workerBuilder());

        RunResult result = runPlan(plan(String.join(", ", sleeping("a", 20), sleeping("b", 20), sleeping("c", 20))));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(PlanExecutor.outcomes(result).values())
                .extracting(StepOutcome::status)
                .containsOnly(StepOutcome.Status.SUCCEEDED);
        assertThat(effects()).hasSize(3).doesNotHaveDuplicates();
        assertThat(result.steps().stream().filter(s -> s.nodeId().startsWith("step:")))
                .allMatch(s -> s.details().containsKey("queued"));
        assertThat(store.events(result.runId()).stream().map(Event::type)).contains("step.queued");
        assertThat(worker.status().done()).isEqualTo(3);
        assertThat(steps.waiting()).isZero();
    }

    @Test
    void aQueuedWorkflowNodeRunsOnAWorker() throws Exception {
        Graph graph = Graph.builder("queued-node")
                .node(NodeSpec.builder(
                                "double",
                                context -> NodeResult.output(Json.object()
                                        .put("n", context.input().path("n").asInt() * 2)
                                        .put("pid", ProcessHandle.current().pid())))
                        .queued(true)
                        .build())
                .edge(Graph.START, "double")
                .edge("double", Graph.END)
                .compile();
        worker(workerBuilder().graphs(run -> Optional.of(graph)));

        RunResult result = runner.run(graph, RunRequest.of(Json.parse("{\"n\": 21}", "input")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.run().output().path("n").asInt()).isEqualTo(42);
        assertThat(result.steps().get(0).details()).containsKey("queued");
    }

    @Test
    void entriesThatAreNotStepsAreDeadLetteredWithAReasonAndTheWorkerGoesOn() throws Exception {
        RedisClient client = client();
        client.xadd(names.stream(), StreamEntryID.NEW_ENTRY, Map.of("garbage", "1"));
        client.xadd(
                names.stream(),
                StreamEntryID.NEW_ENTRY,
                Map.of("run", "no-such-run", "step", "1", "node", "x", "kind", "weft.plan", "work", "{}"));
        client.xadd(
                names.stream(),
                StreamEntryID.NEW_ENTRY,
                Map.of("run", "r", "step", "one", "node", "x", "kind", "weft.plan", "work", "{}"));
        worker(workerBuilder());

        RunResult result = runPlan(plan(sleeping("a", 1)));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        await("three dead letters", () -> client.xlen(names.deadLetters()) == 3);
        List<String> reasons = client.xrange(names.deadLetters(), (StreamEntryID) null, (StreamEntryID) null).stream()
                .map(e -> e.getFields().get("reason"))
                .toList();
        assertThat(reasons)
                .containsExactlyInAnyOrder(
                        "not a step: it has no 'run' field (fields: [garbage])",
                        "no run 'no-such-run' in the store",
                        "not a step: its 'step' is not a step number: 'one'");
        assertThat(client.xlen(names.stream())).isZero();
    }

    @Test
    void aPoisonStepIsDeadLetteredAfterItsTriesAndFailsWithAClearErrorWhileTheRestOfThePlanRunsOn() throws Exception {
        worker(workerBuilder());

        RunResult result = runPlan(plan(sleeping("good", 1)
                + ", {\"id\": \"bad\", \"capability\": \"test\", \"action\": \"poison\", \"constraints\": {}}"));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        StepOutcome bad = PlanExecutor.outcomes(result).get("bad");
        assertThat(bad.status()).isEqualTo(StepOutcome.Status.FAILED);
        assertThat(bad.error().orElseThrow().code()).isEqualTo(ErrorCode.E_DEAD_LETTER);
        assertThat(bad.error().orElseThrow().message())
                .startsWith("step 'bad': node 'step:bad': workers took its queue entry ")
                .endsWith(" 3 times and never finished it; it was moved to the dead-letter stream "
                        + names.deadLetters());
        assertThat(PlanExecutor.outcomes(result).get("good").status()).isEqualTo(StepOutcome.Status.SUCCEEDED);
        List<StreamEntry> dead = client().xrange(names.deadLetters(), (StreamEntryID) null, (StreamEntryID) null);
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).getFields().get("reason"))
                .isEqualTo("taken by workers 3 times and never finished (at most 2)");
        assertThat(dead.get(0).getFields().get("run")).isEqualTo(result.runId());
    }

    @Test
    void aStepQueuedTwiceIsRunOnceAndMakesItsEffectOnce() throws Exception {
        PlanExecutor executor = TestExecutors.executor();
        Runner.RunHandle handle =
                executor.start(runner, PlanParser.fromJson(plan(sleeping("a", 50))), PlanRequest.auto(Json.object()));
        RedisClient client = client();
        await("the step on the stream", () -> client.xlen(names.stream()) == 1);
        StreamEntry entry = client.xrange(names.stream(), (StreamEntryID) null, (StreamEntryID) null)
                .get(0);
        // As a second process that recovered the run and queued it again before any marker.
        client.xadd(names.stream(), StreamEntryID.NEW_ENTRY, entry.getFields());
        worker(workerBuilder().concurrency(4));

        RunResult result = handle.result().get(20, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(effects()).hasSize(1);
        await("both entries done", () -> client.xlen(names.stream()) == 0);
    }

    @Test
    void aRecoveredRunThatQueuesAStepAgainDoesNotAddASecondEntry() throws Exception {
        PlanExecutor executor = TestExecutors.executor();
        executor.start(runner, PlanParser.fromJson(plan(sleeping("a", 1))), PlanRequest.auto(Json.object()));
        RedisClient client = client();
        await("the step on the stream", () -> client.xlen(names.stream()) == 1);
        StreamEntry entry = client.xrange(names.stream(), (StreamEntryID) null, (StreamEntryID) null)
                .get(0);
        String runId = entry.getFields().get("run");
        int order = Integer.parseInt(entry.getFields().get("step"));

        var again = steps.dispatch(new dev.weft.core.spi.StepDispatcher.DispatchedStep(
                runId, Optional.empty(), "g", order, "step:a", PlanExecutor.QUEUED_KIND, Json.object()));

        assertThat(again).isInstanceOf(dev.weft.core.spi.StepDispatcher.Dispatch.Queued.class);
        assertThat(((dev.weft.core.spi.StepDispatcher.Dispatch.Queued) again).where())
                .contains("(queued before)");
        assertThat(client.xlen(names.stream())).isEqualTo(1);
    }

    @Test
    void whenRedisDoesNotAnswerNewStepsRunHereAndTheRunsLogSaysSo() throws Exception {
        RedisServer gone = RedisServer.start();
        RedisSteps away = queue(gone.url());
        Runner here = Runner.builder().store(store).dispatcher(away).build();
        gone.kill();

        RunResult result = TestExecutors.executor()
                .run(
                        here,
                        PlanParser.fromJson(plan(sleeping("a", 1) + ", " + sleeping("b", 1))),
                        PlanRequest.auto(Json.object()));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(effects()).hasSize(2);
        List<Event> inline = store.events(result.runId()).stream()
                .filter(e -> e.type().equals(Event.STEP_INLINE))
                .toList();
        assertThat(inline).hasSize(2);
        assertThat(inline.get(0).data().path("reason").asText())
                .startsWith("Redis at redis://127.0.0.1:" + gone.port() + " is not answering")
                .endsWith("steps run in this process until it answers");
        assertThat(away.redisUp()).isFalse();

        gone.restart();
        Thread.sleep(400);
        Worker worker = worker(Worker.builder(RedisUrl.parse(gone.url()), store)
                .names(names)
                .executors(name -> Optional.of(TestExecutors.executor())));
        RunResult later = TestExecutors.executor()
                .run(here, PlanParser.fromJson(plan(sleeping("c", 1))), PlanRequest.auto(Json.object()));
        assertThat(later.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(store.events(later.runId()).stream().map(Event::type)).contains("step.queued");
        assertThat(worker.status().done()).isEqualTo(1);
        gone.close();
    }

    @Test
    void aCancelSentToAnotherProcessStopsARunWhoseStepWaitsInTheQueue() throws Exception {
        PlanExecutor executor = TestExecutors.executor();
        Runner.RunHandle handle =
                executor.start(runner, PlanParser.fromJson(plan(sleeping("a", 1))), PlanRequest.auto(Json.object()));
        await(
                "the step queued",
                () -> store.steps(handle.runId()).stream()
                        .anyMatch(s -> s.details().containsKey("queued")));

        Runner.builder().store(store).build().cancel(handle.runId());
        RunResult result = handle.result().get(10, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        Worker worker = worker(workerBuilder());
        RedisClient client = client();
        await("the entry skipped", () -> client.xlen(names.stream()) == 0);
        assertThat(effects()).isEmpty();
        assertThat(worker.status().done()).isZero();
    }

    @Test
    void aWorkerStoppedGracefullyHandsBackWhatItHoldsAndAnotherFinishesIt() throws Exception {
        Worker first = worker(workerBuilder().concurrency(1).lease(Duration.ofSeconds(5)));
        PlanExecutor executor = TestExecutors.executor();
        Runner.RunHandle handle = executor.start(
                runner, PlanParser.fromJson(plan(sleeping("long", 3000))), PlanRequest.auto(Json.object()));
        await("the step in hand", () -> first.status().inHand() == 1);

        assertThat(first.stop(Duration.ofMillis(100))).isEqualTo(1);
        worker(workerBuilder().lease(Duration.ofSeconds(5)));
        RunResult result = handle.result().get(20, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(PlanExecutor.outcomes(result).get("long").status()).isEqualTo(StepOutcome.Status.SUCCEEDED);
        assertThat(effects()).hasSize(1);
    }

    @Test
    void theRunsOfOneProcessAreAnnouncedToAnotherSoItsStreamsShowThemAtOnce() throws Exception {
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        queue(redis.url()).onRunEvents(heard::add);
        Thread.sleep(300);
        worker(workerBuilder());

        RunResult result = runPlan(plan(sleeping("a", 1)));

        assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo(result.runId());
    }

    @Test
    void aWorkerReportsItsHealthAndTheQueueOverHttpAndItsStepsAsMetrics() throws Exception {
        InMemoryMetricReader metrics = InMemoryMetricReader.create();
        OpenTelemetrySdk telemetry = OpenTelemetrySdk.builder()
                .setMeterProvider(
                        SdkMeterProvider.builder().registerMetricReader(metrics).build())
                .build();
        closing.add(telemetry);
        Worker worker = worker(workerBuilder().openTelemetry(telemetry));
        WorkerHealth health = WorkerHealth.start(worker, "127.0.0.1", 0);
        closing.add(health);

        runPlan(plan(sleeping("a", 1) + ", " + sleeping("b", 1)));
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> ready = http.send(
                HttpRequest.newBuilder(health.uri().resolve("readyz")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(ready.statusCode()).isEqualTo(200);
        JsonNode body = Json.parse(ready.body(), "readyz");
        assertThat(body.path("status").asText()).isEqualTo("ok");
        assertThat(body.path("done").asLong()).isEqualTo(2);
        assertThat(body.path("queue").has("waiting")).isTrue();
        MetricData steps = metrics.collectAllMetrics().stream()
                .filter(m -> m.getName().equals("weft.worker.steps"))
                .findFirst()
                .orElseThrow();
        assertThat(steps.getLongSumData().getPoints())
                .anySatisfy(point -> assertThat(point.getValue()).isEqualTo(2));

        worker.stop(Duration.ofSeconds(1));
        HttpResponse<String> stopped = http.send(
                HttpRequest.newBuilder(health.uri().resolve("readyz")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(stopped.statusCode()).isEqualTo(503);
        assertThat(Json.parse(stopped.body(), "readyz").path("reason").asText()).isEqualTo("the worker has stopped");
    }

    @Test
    void aRunWaitingForItsQueuedStepsHoldsNoThreadOfItsRunner() throws Exception {
        dev.weft.core.CountingExecutor threads = new dev.weft.core.CountingExecutor();
        Runner counted = Runner.builder()
                .store(store)
                .dispatcher(steps)
                .executor(threads)
                .build();
        Runner.RunHandle handle = TestExecutors.executor()
                .start(
                        counted,
                        PlanParser.fromJson(plan(sleeping("a", 1) + ", " + sleeping("b", 1))),
                        PlanRequest.auto(Json.object()));
        await(
                "both steps queued",
                () -> store.steps(handle.runId()).stream()
                                .filter(s -> s.details().containsKey("queued"))
                                .count()
                        == 2);
        await("the runner's threads to let go", () -> threads.busy() == 0);
        Thread.sleep(200);

        assertThat(threads.busy()).isZero();
        assertThat(store.steps(handle.runId()).stream().filter(s -> s.details().containsKey("queued")))
                .extracting(Step::status)
                .containsOnly(StepStatus.RUNNING);
        worker(workerBuilder());
        assertThat(handle.result().get(20, TimeUnit.SECONDS).status()).isEqualTo(RunStatus.COMPLETED);
    }
}
