package dev.weft.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.channels.ChannelStore;
import dev.weft.channels.Conversations;
import dev.weft.core.RunStatus;
import dev.weft.core.spi.RunStore;
import dev.weft.redis.testing.RedisServer;
import dev.weft.store.AppDatabase;
import dev.weft.store.RunFixtures;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A deployment where only workers run ({@code weft worker}, no {@code weft serve}) still prunes what is
 * kept only for a while: the idempotency results of finished runs and the channels' finished inbox rows
 * (whose sweep the worker finds on its class path, as the shipped command does), each after its own
 * retention and not before.
 */
final class WorkerHousekeepingTest {
    private static RedisServer redis;

    @TempDir
    Path dir;

    private RunStore store;
    private Worker worker;

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
    }

    @AfterEach
    void close() {
        if (worker != null) {
            worker.stop(Duration.ofSeconds(1));
        }
        store.close();
    }

    private String run(RunStatus status) {
        return RunFixtures.run(store, status);
    }

    /** An idempotency result of {@code runId}, kept {@code age} ago. */
    private void result(String runId, Duration age) {
        RunFixtures.agedResult(store, runId + "/step:a/send", age);
    }

    private boolean hasResult(String runId) {
        return store.idempotentResult(runId + "/step:a/send").isPresent();
    }

    private int inbound(String messageId) {
        return AppDatabase.of(store).read("count inbound", c -> {
            try (PreparedStatement select =
                    c.prepareStatement("SELECT COUNT(*) FROM channel_inbound WHERE message_id = ?")) {
                select.setString(1, messageId);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    return row.getInt(1);
                }
            }
        });
    }

    private Worker startWorker(Map<String, String> env) {
        worker = Worker.builder(RedisUrl.parse(redis.url()), store)
                .names(new StreamNames("housekeeping-" + UUID.randomUUID()))
                .environment(env)
                .build()
                .start();
        return worker;
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 30 s for the housekeeping").isLessThan(deadline);
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    @Test
    void aWorkerAlonePrunesFinishedRunsResultsAndTheChannelsFinishedInboxAfterTheirRetentions()
            throws InterruptedException {
        String oldFinished = run(RunStatus.COMPLETED);
        result(oldFinished, Duration.ofDays(3));
        String recentFinished = run(RunStatus.COMPLETED);
        result(recentFinished, Duration.ofHours(1));
        String oldWaiting = run(RunStatus.WAITING);
        result(oldWaiting, Duration.ofDays(30));
        ChannelStore channels = ChannelStore.open(store);
        Conversations.Inbound old = new Conversations.Inbound("telegram", "42", "m-old", "hi", "Dana");
        Conversations.Inbound recent = new Conversations.Inbound("telegram", "42", "m-recent", "hi", "Dana");
        Instant longAgo = Instant.now().minus(Duration.ofDays(20));
        channels.keep(List.of(old), longAgo);
        channels.answer(old, Optional.empty(), longAgo);
        channels.keep(List.of(recent), Instant.now());
        channels.answer(recent, Optional.empty(), Instant.now());

        startWorker(Map.of("WEFT_RETAIN_IDEMPOTENCY", "2d", "WEFT_CHANNELS_RETENTION", "14d"));

        await(() -> !hasResult(oldFinished) && inbound("m-old") == 0);
        assertThat(hasResult(recentFinished)).isTrue();
        assertThat(hasResult(oldWaiting)).isTrue();
        assertThat(inbound("m-recent")).isEqualTo(1);
    }

    @Test
    void aWorkerWithHousekeepingOffSchedulesNoPruning() {
        String oldFinished = run(RunStatus.COMPLETED);
        result(oldFinished, Duration.ofDays(30));

        startWorker(Map.of("WEFT_HOUSEKEEPING_EVERY", "off"));

        assertThat(hasResult(oldFinished)).isTrue();
        int scheduled = AppDatabase.of(store).read("count the schedule", c -> {
            try (PreparedStatement select =
                    c.prepareStatement("SELECT COUNT(*) FROM weft_scheduled_tasks WHERE task_name = ?")) {
                select.setString(1, dev.weft.store.ProcessHousekeeping.TASK_NAME);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    return row.getInt(1);
                }
            }
        });
        assertThat(scheduled).isZero();
    }
}
