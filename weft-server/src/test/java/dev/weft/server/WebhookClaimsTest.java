package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.spi.RunStore;
import dev.weft.store.AppDatabase;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Webhook deliveries claimed under a lease, on SQLite and PostgreSQL alike. */
final class WebhookClaimsTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    @TempDir
    Path dir;

    private String url(String kind) {
        return kind.equals("sqlite")
                ? "sqlite:" + dir.resolve("hooks.db")
                : EmbeddedPostgres.shared().freshUrl();
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aClaimHoldsWhileItsLeaseDoesAndIsThenTakenOverWithItsAttempts(String kind) {
        try (RunStore store = Stores.open(url(kind))) {
            ApiKeys.open(store);
            Webhooks webhooks = new Webhooks(AppDatabase.of(store));

            Webhooks.Claim first =
                    webhooks.claim("dana", "n1", "a", NOW, NOW.plusSeconds(30)).orElseThrow();
            boolean renewed = webhooks.renew(first, "a", 2, NOW.plusSeconds(10), NOW.plusSeconds(40));
            boolean heldByA = webhooks.claim("dana", "n1", "b", NOW.plusSeconds(39), NOW.plusSeconds(99))
                    .isEmpty();
            Webhooks.Claim takenOver = webhooks.claim("dana", "n1", "b", NOW.plusSeconds(41), NOW.plusSeconds(99))
                    .orElseThrow();
            boolean lateRenewalOfA = webhooks.renew(first, "a", 3, NOW.plusSeconds(42), NOW.plusSeconds(80));
            boolean lateFinishOfA = webhooks.finish(first, "a", Webhooks.Status.DELIVERED, 3, NOW.plusSeconds(42));
            boolean finishedByB = webhooks.finish(takenOver, "b", Webhooks.Status.DELIVERED, 3, NOW.plusSeconds(43));

            assertThat(first).isEqualTo(new Webhooks.Claim("dana", "n1", 0));
            assertThat(renewed).isTrue();
            assertThat(heldByA).isTrue();
            assertThat(takenOver.attempts()).isEqualTo(2);
            assertThat(lateRenewalOfA).isFalse();
            assertThat(lateFinishOfA).isFalse();
            assertThat(finishedByB).isTrue();
            assertThat(webhooks.status("dana", "n1")).contains(Webhooks.Status.DELIVERED);
            assertThat(webhooks.claim("dana", "n1", "c", NOW.plusSeconds(999), NOW.plusSeconds(1999)))
                    .isEmpty();
            assertThat(webhooks.abandoned(NOW.plusSeconds(999))).isEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aReleasedOrExpiredClaimIsAbandonedAndAnotherUsersIsTheirsAlone(String kind) {
        try (RunStore store = Stores.open(url(kind))) {
            ApiKeys.open(store);
            Webhooks webhooks = new Webhooks(AppDatabase.of(store));
            Webhooks.Claim released =
                    webhooks.claim("dana", "n1", "a", NOW, NOW.plusSeconds(30)).orElseThrow();
            webhooks.claim("omer", "n1", "a", NOW, NOW.plusSeconds(30)).orElseThrow();
            webhooks.claim("omer", "n2", "a", NOW, NOW.plusSeconds(5)).orElseThrow();

            assertThat(webhooks.release(released, "a", 1, NOW.plusSeconds(1))).isTrue();

            assertThat(webhooks.abandoned(NOW.plusSeconds(6)))
                    .containsExactlyInAnyOrder(
                            new Webhooks.Claim("dana", "n1", 1), new Webhooks.Claim("omer", "n2", 0));
            assertThat(webhooks.claim("dana", "n1", "b", NOW.plusSeconds(2), NOW.plusSeconds(60)))
                    .contains(new Webhooks.Claim("dana", "n1", 1));
            assertThat(webhooks.status("omer", "n1")).contains(Webhooks.Status.SENDING);
        }
    }

    /** On main before the housekeeping, these records were never deleted. */
    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void endedDeliveriesArePrunedAfterTheirRetentionButThoseOfEachUsersLatestNotificationsAndInFlightStay(String kind) {
        try (RunStore store = Stores.open(url(kind))) {
            ApiKeys.open(store);
            Webhooks webhooks = new Webhooks(AppDatabase.of(store));
            // Dana's notifications, oldest first; the two latest are what her senders still look at.
            List<String> dana = List.of("old-delivered", "old-failed", "old-sending", "recent", "latest", "new");
            for (int i = 0; i < dana.size(); i++) {
                String id = dana.get(i);
                Instant at = id.equals("new") ? NOW.plus(Duration.ofDays(40)) : NOW;
                Webhooks.Claim claim = webhooks.claim("dana", id, NOW.plusSeconds(i), "a", at, at.plusSeconds(30))
                        .orElseThrow();
                if (!id.equals("old-sending")) {
                    webhooks.finish(
                            claim,
                            "a",
                            id.equals("old-failed") ? Webhooks.Status.FAILED : Webhooks.Status.DELIVERED,
                            1,
                            at);
                }
            }
            webhooks.finish(
                    webhooks.claim("omer", "old", NOW, "a", NOW, NOW.plusSeconds(30))
                            .orElseThrow(),
                    "a",
                    Webhooks.Status.DELIVERED,
                    1,
                    NOW);

            int pruned = webhooks.pruneEnded(NOW.plus(Duration.ofDays(30)), 2);

            assertThat(pruned).isEqualTo(3);
            assertThat(webhooks.status("dana", "old-delivered")).isEmpty();
            assertThat(webhooks.status("dana", "old-failed")).isEmpty();
            assertThat(webhooks.status("dana", "recent"))
                    .as("two later notifications: not looked at")
                    .isEmpty();
            assertThat(webhooks.status("dana", "latest")).contains(Webhooks.Status.DELIVERED);
            assertThat(webhooks.status("dana", "old-sending")).contains(Webhooks.Status.SENDING);
            assertThat(webhooks.status("dana", "new")).contains(Webhooks.Status.DELIVERED);
            assertThat(webhooks.status("omer", "old"))
                    .as("his latest, another user's later ones not counted")
                    .contains(Webhooks.Status.DELIVERED);
        }
    }
}
