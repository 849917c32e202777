package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.Durability;
import dev.weft.core.Run;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import dev.weft.workflow.NodeTypes;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowParser;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process running a workflow of delays and idempotent side effects with SIGKILL at a
 * different point each time, then recovers the run in this process and checks that nothing was lost
 * or done twice.
 */
final class CrashRecoveryIT {
    private static final int KILL_POINTS = 20;
    /** Milliseconds over which the kills are spread: from before a run's first step to after its last. */
    private static final long KILL_SPAN_MILLIS = 19L * KILL_POINTS;

    private static final Path WORKFLOW = Path.of("src/test/resources/crash/crash.json");

    @TempDir
    Path dir;

    @Test
    void recoversRunsKilledAtTwentyPointsOnSqlite() throws Exception {
        crashAndRecover("sqlite:" + dir.resolve("crash.db"), Durability.SYNC, KILL_POINTS);
    }

    /**
     * Under {@link Durability#ASYNC} a crash may lose the last few steps' writes: they run again, and
     * still make each idempotent effect once. Fewer points than the synchronous tests, for time.
     */
    @Test
    void recoversAsynchronousRunsKilledAtTenPointsOnSqlite() throws Exception {
        crashAndRecover("sqlite:" + dir.resolve("crash-async.db"), Durability.ASYNC, KILL_POINTS / 2);
    }

    @Test
    void recoversRunsKilledAtTwentyPointsOnPostgres() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            crashAndRecover(postgres.getJdbcUrl("postgres", "postgres"), Durability.SYNC, KILL_POINTS);
        }
    }

    /**
     * After SIGKILL, the run is taken over at once, with the real clock and the default 30 s lease:
     * its holder was a process of this host, and it is gone.
     */
    @Test
    void aRunWhoseProcessWasKilledIsTakenOverAtOnceWithoutWaitingForItsLease() throws Exception {
        String url = "sqlite:" + dir.resolve("takeover.db");
        Path marks = dir.resolve("takeover-marks.txt");
        Path calls = dir.resolve("takeover-calls.txt");
        Files.createFile(marks);
        Files.createFile(calls);
        Workflow workflow = Workflow.compile(
                WorkflowParser.read(WORKFLOW), NodeTypes.standard().with(new MarkNodeType(marks, calls)));
        String runId = "takeover-" + UUID.randomUUID();
        Process worker = startedWorker(url, runId, marks, calls, Durability.SYNC);
        Thread.sleep(KILL_SPAN_MILLIS / 4);
        worker.destroyForcibly();
        assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();

        try (RunStore store = Stores.open(Optional.of(url), Map.of())) {
            Runner runner = Runner.builder().store(store).build();
            long started = System.nanoTime();

            assertThat(runner.recoverable()).extracting(Run::id).containsExactly(runId);
            RunResult result = runner.recover(workflow.graph(), runId);

            assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
            assertThat(Duration.ofNanos(System.nanoTime() - started))
                    .as("taken over without waiting out the 30 s lease")
                    .isLessThan(Duration.ofSeconds(25));
        }
    }

    /** A {@link CrashWorker} process running run {@code runId}, once it has said the run started. */
    private static Process startedWorker(String url, String runId, Path marks, Path calls, Durability durability)
            throws java.io.IOException {
        Process worker = new ProcessBuilder(
                        ProcessHandle.current().info().command().orElse("java"),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        CrashWorker.class.getName(),
                        url,
                        runId,
                        WORKFLOW.toString(),
                        marks.toString(),
                        calls.toString(),
                        durability.name())
                .redirectErrorStream(true)
                .start();
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = lines.readLine()) != null && !line.equals("started")) {
            // the JVM's start-up chatter
        }
        assertThat(line).as("worker output before it died").isEqualTo("started");
        return worker;
    }

    private void crashAndRecover(String url, Durability durability, int killPoints) throws Exception {
        Path marks = dir.resolve("marks-" + UUID.randomUUID() + ".txt");
        Path calls = dir.resolve("calls-" + UUID.randomUUID() + ".txt");
        Files.createFile(marks);
        Files.createFile(calls);
        Workflow workflow = Workflow.compile(
                WorkflowParser.read(WORKFLOW), NodeTypes.standard().with(new MarkNodeType(marks, calls)));
        List<String> runIds = new ArrayList<>();
        for (int point = 0; point < killPoints; point++) {
            String runId = "crash-" + point + "-" + UUID.randomUUID();
            runIds.add(runId);
            Process worker = startedWorker(url, runId, marks, calls, durability);
            // Spread the kills across the run: from before its first step to after its last.
            Thread.sleep(point * KILL_SPAN_MILLIS / killPoints);
            worker.destroyForcibly();
            assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }

        try (RunStore store = Stores.open(Optional.of(url), Map.of())) {
            // A clock an hour ahead: every dead worker's lease has expired.
            Instant later = Instant.now().plus(Duration.ofHours(1));
            Runner runner = Runner.builder()
                    .store(store)
                    .time(new TimeSource() {
                        @Override
                        public Instant now() {
                            return later;
                        }

                        @Override
                        public void sleep(Duration duration) throws InterruptedException {
                            TimeSource.system().sleep(duration);
                        }
                    })
                    .build();
            for (Run run : runner.recoverable()) {
                runner.recover(workflow.graph(), run.id());
            }
            int nodes = workflow.graph().nodes().size();
            for (String runId : runIds) {
                RunResult result = runner.result(runId);
                assertThat(result.status()).as(runId).isEqualTo(RunStatus.COMPLETED);
                List<Step> steps = result.steps();
                assertThat(steps).as(runId).hasSize(nodes).allMatch(s -> s.status() == StepStatus.COMPLETED);
                Map<String, Long> perNode =
                        steps.stream().collect(Collectors.groupingBy(Step::nodeId, Collectors.counting()));
                assertThat(perNode)
                        .as(runId)
                        .hasSize(nodes)
                        .allSatisfy((node, count) -> assertThat(count).isEqualTo(1));
                assertThat(result.outputs().get("count8").get("n").asInt()).isEqualTo(8);
            }
        }
        // The effect happened once per step (it honours the key), so every recovered step passed the
        // key it had before the crash.
        Map<String, Long> effects = Files.readAllLines(marks).stream()
                .filter(l -> !l.isBlank())
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(effects)
                .hasSize(killPoints * 8)
                .allSatisfy((key, count) -> assertThat(count).isEqualTo(1));
        // The runtime made a call again only when a process died between the call and storing its
        // result: never twice in one process, never more than once after a crash.
        Map<String, List<String>> callers = Files.readAllLines(calls).stream()
                .filter(l -> !l.isBlank())
                .map(l -> l.split(" "))
                .collect(Collectors.groupingBy(
                        parts -> parts[0], Collectors.mapping(parts -> parts[1], Collectors.toList())));
        assertThat(callers).hasSize(killPoints * 8).allSatisfy((key, pids) -> {
            assertThat(pids).hasSizeLessThanOrEqualTo(2);
            assertThat(pids).doesNotHaveDuplicates();
        });
        long repeated = callers.values().stream().filter(p -> p.size() > 1).count();
        System.out.println("crash recovery on " + url.replaceAll("password=[^&]*", "password=***") + " (" + durability
                + "): " + killPoints + " kills, " + repeated + " calls made again after dying between call and store");
    }
}
