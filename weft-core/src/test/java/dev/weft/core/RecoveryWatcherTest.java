package dev.weft.core;

import static dev.weft.core.Nodes.echo;
import static dev.weft.core.Nodes.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.store.InMemoryRunStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A long-running process recovers abandoned runs by itself. A process's death is played by a runner
 * whose step never returns; the watching runner's clock is an hour ahead, so that lease has expired.
 */
final class RecoveryWatcherTest {
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private final InMemoryRunStore store = InMemoryRunStore.create();
    private final CountDownLatch stuck = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger secondCalls = new AtomicInteger();

    private static TimeSource at(Instant instant) {
        return FakeTime.frozenAt(instant);
    }

    private final Graph graph = Graph.builder("watched")
            .node("first", echo())
            .node("second", context -> {
                if (secondCalls.incrementAndGet() == 1) {
                    stuck.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return NodeResult.output(context.input());
            })
            .edge(Graph.START, "first")
            .edge("first", "second")
            .compile();

    /** Starts a run on a runner that then "dies" in its second step; returns the run's id. */
    private String abandonedRun() throws InterruptedException {
        Runner dying = Runner.builder().store(store).time(at(T0)).build();
        String runId = dying.start(graph, RunRequest.of(json("7"))).runId();
        assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
        return runId;
    }

    private RunStatus awaitFinished(String runId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            RunStatus status = store.findRun(runId).orElseThrow().status();
            if (status.isFinished()) {
                return status;
            }
            Thread.sleep(10);
        }
        return store.findRun(runId).orElseThrow().status();
    }

    @Test
    void recoversAnAbandonedRunWithoutBeingAsked() throws Exception {
        String runId = abandonedRun();
        try {
            Runner survivor = Runner.builder()
                    .store(store)
                    .time(at(T0.plus(Duration.ofHours(1))))
                    .build();
            try (RecoveryWatcher watcher =
                    RecoveryWatcher.start(survivor, Duration.ofMillis(20), run -> Optional.of(graph))) {
                assertThat(awaitFinished(runId)).isEqualTo(RunStatus.COMPLETED);
                assertThat(watcher.scan()).as("nothing is left to recover").isEmpty();
            }
            assertThat(store.findRun(runId).orElseThrow().output()).isEqualTo(json("7"));
            assertThat(secondCalls).as("the step in flight ran again").hasValue(2);
            assertThat(store.events(runId)).extracting(Event::type).contains(Event.RUN_RECOVERED);
        } finally {
            release.countDown();
        }
    }

    @Test
    void leavesARunWhoseGraphItDoesNotKnowToAnotherProcess() throws Exception {
        String runId = abandonedRun();
        try {
            Runner survivor = Runner.builder()
                    .store(store)
                    .time(at(T0.plus(Duration.ofHours(1))))
                    .build();
            try (RecoveryWatcher watcher =
                    RecoveryWatcher.start(survivor, Duration.ofMillis(20), run -> Optional.empty())) {
                assertThat(watcher.scan()).isEmpty();
            }
            assertThat(store.findRun(runId).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
            assertThat(survivor.recoverable()).extracting(Run::id).containsExactly(runId);
        } finally {
            release.countDown();
        }
    }

    @Test
    void aLiveProcesssRunsAreNotTaken() throws Exception {
        Runner live = Runner.builder().store(store).time(at(T0)).build();
        String runId = live.start(graph, RunRequest.of(json("1"))).runId();
        assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
        try {
            Runner other =
                    Runner.builder().store(store).time(at(T0.plusSeconds(5))).build();
            try (RecoveryWatcher watcher =
                    RecoveryWatcher.start(other, Duration.ofMillis(20), run -> Optional.of(graph))) {
                assertThat(watcher.scan()).isEmpty();
            }
        } finally {
            release.countDown();
        }
        assertThat(awaitFinished(runId)).isEqualTo(RunStatus.COMPLETED);
        assertThat(secondCalls).hasValue(1);
    }

    @Test
    void rejectsAnIntervalThatIsNotPositive() {
        Runner runner = Runner.create();
        assertThatThrownBy(() -> RecoveryWatcher.start(runner, Duration.ZERO, run -> Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be positive");
    }
}
