package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.testhelper.ManualScheduler;
import com.github.kagkarlsson.scheduler.testhelper.SettableClock;
import com.github.kagkarlsson.scheduler.testhelper.TestHelper;
import dev.weft.core.Json;
import dev.weft.core.RunStatus;
import dev.weft.core.spi.RunStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Housekeeping on a real SQLite store, on a clock the test moves: the idempotency results of finished
 * runs go after their retention, those of runs still running or waiting stay, and the recurring task
 * in {@code weft_scheduled_tasks} prunes once per period. On main before this, nothing ever deleted an
 * idempotency row.
 */
final class HousekeepingTest {
    @TempDir
    Path dir;

    private RunStore store;

    @BeforeEach
    void open() {
        store = Stores.open(Optional.of("sqlite:" + dir.resolve("runs.db")), Map.of());
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** A clock standing where the test puts it. */
    private static final class MovableClock extends Clock {
        private final AtomicReference<Instant> now;

        MovableClock(Instant start) {
            this.now = new AtomicReference<>(start);
        }

        void advance(Duration by) {
            now.updateAndGet(t -> t.plus(by));
        }

        @Override
        public Instant instant() {
            return now.get();
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }
    }

    private String run(RunStatus status) {
        return RunFixtures.run(store, status);
    }

    private void keys(String runId) {
        store.saveIdempotentResult(runId + "/step:a/send", Json.object().put("sent", true));
        store.saveIdempotentResult("weft.queued:" + runId + "/2", Json.object().put("value", 1));
    }

    private boolean kept(String runId) {
        return store.idempotentResult(runId + "/step:a/send").isPresent()
                && store.idempotentResult("weft.queued:" + runId + "/2").isPresent();
    }

    private boolean gone(String runId) {
        return store.idempotentResult(runId + "/step:a/send").isEmpty()
                && store.idempotentResult("weft.queued:" + runId + "/2").isEmpty();
    }

    @Test
    void theIdempotencyResultsOfAFinishedRunGoAfterTheirRetentionAndNotBefore() {
        String finished = run(RunStatus.COMPLETED);
        keys(finished);
        MovableClock clock = new MovableClock(Instant.now());
        Housekeeping housekeeping = Housekeeping.builder(store)
                .idempotencyRetention(Duration.ofDays(7))
                .clock(clock)
                .build();

        assertThat(housekeeping.runOnce()).containsEntry("idempotency", 0);
        assertThat(kept(finished)).isTrue();
        clock.advance(Duration.ofDays(7).plusMinutes(1));

        assertThat(housekeeping.runOnce()).containsEntry("idempotency", 2);
        assertThat(gone(finished)).isTrue();
    }

    @Test
    void onPostgresqlTooOnlyTheResultsOfFinishedRunsGo() {
        try (RunStore postgres = Stores.open(EmbeddedPostgres.shared().freshUrl())) {
            RunStore sqlite = store;
            store = postgres;
            try {
                String finished = run(RunStatus.COMPLETED);
                String waiting = run(RunStatus.WAITING);
                keys(finished);
                keys(waiting);

                int deleted = Housekeeping.builder(postgres)
                        .clock(new MovableClock(Instant.now().plus(Duration.ofDays(8))))
                        .build()
                        .runOnce()
                        .get("idempotency");

                assertThat(deleted).isEqualTo(2);
                assertThat(gone(finished)).isTrue();
                assertThat(kept(waiting)).isTrue();
            } finally {
                store = sqlite;
            }
        }
    }

    @Test
    void theResultsOfARunStillRunningOrWaitingStayWhateverTheirAge() {
        String running = run(RunStatus.RUNNING);
        String waiting = run(RunStatus.WAITING);
        String failed = run(RunStatus.FAILED);
        keys(running);
        keys(waiting);
        keys(failed);
        store.saveIdempotentResult("no-such-run/step:x/once", Json.object());
        MovableClock clock = new MovableClock(Instant.now().plus(Duration.ofDays(30)));

        int deleted = Housekeeping.builder(store).clock(clock).build().runOnce().get("idempotency");

        assertThat(deleted).isEqualTo(3);
        assertThat(kept(running)).isTrue();
        assertThat(kept(waiting)).isTrue();
        assertThat(gone(failed)).isTrue();
        assertThat(store.idempotentResult("no-such-run/step:x/once")).isEmpty();
    }

    @Test
    void aSweepThatFailsIsReportedAndTheOthersRunAllTheSame() {
        String finished = run(RunStatus.CANCELLED);
        keys(finished);
        List<String> log = new java.util.ArrayList<>();
        Housekeeping housekeeping = Housekeeping.builder(store)
                .sweep(new Housekeeping.Sweep("broken", Duration.ofDays(1), cutoff -> {
                    throw new IllegalStateException("table gone");
                }))
                .clock(new MovableClock(Instant.now().plus(Duration.ofDays(8))))
                .log(log::add)
                .build();

        assertThat(housekeeping.runOnce()).containsEntry("idempotency", 2).containsEntry("broken", -1);
        assertThat(log).contains("housekeeping: pruning broken failed: table gone");
    }

    @Test
    void theRecurringTaskPrunesOncePerPeriodOnTheSchedulersClock() {
        SettableClock schedulerClock = new SettableClock();
        AtomicReference<ManualScheduler> driving = new AtomicReference<>();
        Clock clock = new Clock() {
            @Override
            public Instant instant() {
                // The scheduler's own clock, which its tick moves.
                return driving.get().getClock().now();
            }

            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }
        };
        java.util.concurrent.atomic.AtomicInteger sweeps = new java.util.concurrent.atomic.AtomicInteger();
        Housekeeping housekeeping = Housekeeping.builder(store)
                .every(Duration.ofHours(1))
                .clock(clock)
                .sweep(new Housekeeping.Sweep("counted", Duration.ofDays(1), cutoff -> {
                    sweeps.incrementAndGet();
                    return 0;
                }))
                .build();
        ManualScheduler scheduler = TestHelper.createManualScheduler(
                        AppDatabase.of(store).dataSource(), List.of())
                .clock(schedulerClock)
                .tableName(Housekeeping.tableName())
                .startTasks(List.of(housekeeping.task()))
                .build();
        driving.set(scheduler);
        // The rows are stored at the real time: the scheduler's clock starts there.
        scheduler.setTime(Instant.now());
        scheduler.start();
        String finished = run(RunStatus.COMPLETED);
        keys(finished);

        scheduler.runAnyDueExecutions();
        int afterStart = sweeps.get();
        scheduler.tick(Duration.ofMinutes(30));
        scheduler.runAnyDueExecutions();
        assertThat(sweeps.get()).as("not again within the period").isEqualTo(afterStart);
        scheduler.tick(Duration.ofDays(8));
        scheduler.runAnyDueExecutions();

        assertThat(sweeps.get()).isEqualTo(afterStart + 1);
        assertThat(gone(finished)).as("pruned by the task").isTrue();
        scheduler.stop();
    }
}
