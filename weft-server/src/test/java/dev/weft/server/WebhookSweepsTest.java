package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.AppDatabase;
import dev.weft.store.ProcessHousekeeping;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Webhook deliveries pruned by a process that is not {@code weft serve} ({@code weft worker}, {@code weft
 * channels telegram}: any that takes part in {@link ProcessHousekeeping}), on a real SQLite store. On
 * {@code main} before the sweep was found on the class path, only {@code weft serve} pruned them.
 */
final class WebhookSweepsTest {
    @TempDir
    Path dir;

    @Test
    void aProcessThatIsNotTheServerPrunesEndedDeliveriesButKeepsThoseOfTheLatestNotifications() throws Exception {
        try (RunStore store = Stores.open("sqlite:" + dir.resolve("weft.db"))) {
            ApiKeys.open(store);
            Webhooks webhooks = new Webhooks(AppDatabase.of(store));
            Instant longAgo = Instant.now().minus(Duration.ofDays(40));
            int made = WebhookDispatcher.RECENT + 2;
            for (int i = 0; i < made; i++) {
                webhooks.finish(
                        webhooks.claim("dana", "n" + i, longAgo.plusSeconds(i), "a", longAgo, longAgo.plusSeconds(30))
                                .orElseThrow(),
                        "a",
                        Webhooks.Status.DELIVERED,
                        1,
                        longAgo);
            }

            ProcessHousekeeping.Part worker = ProcessHousekeeping.join(store, Map.of(), "weft-worker-1", l -> {});
            try {
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (webhooks.status("dana", "n1").isPresent()) {
                    assertThat(System.nanoTime()).as("pruned within 30 s").isLessThan(deadline);
                    Thread.sleep(20);
                }
            } finally {
                worker.close();
            }

            assertThat(webhooks.status("dana", "n0")).isEmpty();
            assertThat(webhooks.status("dana", "n1")).isEmpty();
            for (int i = 2; i < made; i++) {
                assertThat(webhooks.status("dana", "n" + i))
                        .as("n" + i + ", among the latest " + WebhookDispatcher.RECENT)
                        .contains(Webhooks.Status.DELIVERED);
            }
        }
    }

    @Test
    void aStoreThatNeverServedGetsItsWebhookTablesAtTheFirstSweepAndPrunesNothing() {
        try (RunStore store = Stores.open("sqlite:" + dir.resolve("fresh.db"))) {
            List<dev.weft.store.Housekeeping.Sweep> sweeps = new WebhookSweeps().sweeps(store, Map.of());

            assertThat(sweeps).singleElement().satisfies(sweep -> {
                assertThat(sweep.name()).isEqualTo(WebhookSweeps.NAME);
                assertThat(sweep.retention()).isEqualTo(WeftServer.DEFAULT_WEBHOOK_DELIVERY_RETENTION);
                assertThat(sweep.prune().applyAsInt(Instant.now())).isZero();
            });
        }
    }

    @Test
    void theRetentionIsReadFromTheEnvironmentAndABadOneIsRefusedNamingTheSetting() {
        try (RunStore store = Stores.open("sqlite:" + dir.resolve("weft.db"))) {
            assertThat(new WebhookSweeps()
                            .sweeps(store, Map.of(WebhookSweeps.RETENTION, "3d"))
                            .get(0)
                            .retention())
                    .isEqualTo(Duration.ofDays(3));
            assertThatThrownBy(() -> new WebhookSweeps().sweeps(store, Map.of(WebhookSweeps.RETENTION, "soon")))
                    .isInstanceOfSatisfying(
                            WeftException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_BAD_INPUT))
                    .hasMessageContaining("WEFT_RETAIN_WEBHOOK_DELIVERIES=soon");
        }
    }
}
