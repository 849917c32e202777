package dev.weft.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Notices;
import dev.weft.core.Json;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Sends each user's reminders to their webhook, if they set one, at least once: every notification
 * fired since the webhook was set is claimed in the database by one sender at a time, under a lease it
 * renews while it tries; then POSTed as JSON signed with HMAC-SHA256 of the body under the webhook's
 * secret ({@code X-Weft-Signature: sha256=<hex>}), with the notification's id as {@code
 * X-Weft-Delivery}, and retried with doubling waits until the receiver answers 2xx or the attempts run
 * out. A sender that dies (its process killed) leaves its claim to expire, and the next sender — this
 * process's next look, or another process on the store — sends the notification again with the same
 * delivery id, counting on from the attempts made; a receiver deduplicates by that id. Thread-safe.
 */
final class WebhookDispatcher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WebhookDispatcher.class.getName());
    /**
     * How many of a user's latest notifications each look considers: their delivery records are kept
     * whatever their age, since they alone keep them from being sent again.
     */
    static final int RECENT = 50;

    /** Attempts per notification, across senders, before it is recorded as failed. */
    static final int ATTEMPTS = 5;
    /** How long one attempt may take: the receiver must answer within it. */
    static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(10);

    private final Webhooks webhooks;
    private final Notices notices;
    private final Duration interval;
    private final Duration backoff;
    private final Duration lease;
    private final Clock clock;
    private final String sender;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Set<Thread> sending = ConcurrentHashMap.newKeySet();
    private final Thread loop;
    private volatile boolean stopped;

    private WebhookDispatcher(
            Webhooks webhooks, Notices notices, Duration interval, Duration backoff, Duration lease, Clock clock) {
        this.webhooks = webhooks;
        this.notices = notices;
        this.interval = interval;
        this.backoff = backoff;
        this.lease = lease;
        this.clock = clock;
        this.sender = "weft-serve-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID();
        this.loop = Thread.ofVirtual().name("weft-webhooks").unstarted(this::run);
    }

    /**
     * Starts looking for notifications to send every {@code interval}; the first retry waits {@code
     * backoff}; a claim lasts {@code lease} past each attempt (a dead sender's is taken over after it).
     */
    static WebhookDispatcher start(
            Webhooks webhooks, Notices notices, Duration interval, Duration backoff, Duration lease, Clock clock) {
        WebhookDispatcher dispatcher = new WebhookDispatcher(webhooks, notices, interval, backoff, lease, clock);
        dispatcher.loop.start();
        return dispatcher;
    }

    /** Looks now, rather than at the next interval (a reminder was just fired). */
    void wake() {
        LockSupport.unpark(loop);
    }

    private void run() {
        while (!stopped) {
            try {
                scan();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "webhooks: cannot look for notifications to send", e);
            }
            LockSupport.parkNanos(interval.toNanos());
        }
    }

    private void scan() {
        Map<String, Webhooks.Webhook> byUser = new HashMap<>();
        for (Webhooks.Webhook webhook : webhooks.all()) {
            byUser.put(webhook.user(), webhook);
            for (Notices.Notice n : notices.recent(webhook.user(), RECENT)) {
                if (!n.at().isBefore(webhook.createdAt())) {
                    Instant now = clock.instant();
                    webhooks.claim(webhook.user(), n.id(), n.at(), sender, now, leaseAfter(now, Duration.ZERO))
                            .ifPresent(claim -> send(webhook, n.id(), claim));
                }
            }
        }
        // Claims whose sender died, of notifications no longer among their user's latest.
        for (Webhooks.Claim abandoned : webhooks.abandoned(clock.instant())) {
            Webhooks.Webhook webhook = byUser.get(abandoned.user());
            String id = abandoned.notificationId();
            if (webhook != null && notices.describe(abandoned.user(), id).isPresent()) {
                Instant now = clock.instant();
                webhooks.claim(webhook.user(), id, sender, now, leaseAfter(now, Duration.ZERO))
                        .ifPresent(claim -> send(webhook, id, claim));
            }
        }
    }

    private Instant leaseAfter(Instant now, Duration wait) {
        return now.plus(ATTEMPT_TIMEOUT).plus(wait).plus(lease);
    }

    private void send(Webhooks.Webhook webhook, String id, Webhooks.Claim claim) {
        Thread thread = Thread.ofVirtual().name("weft-webhook-" + id).unstarted(() -> {
            try {
                deliver(webhook, id, claim);
            } catch (RuntimeException e) {
                // The store failed mid-delivery: the claim expires, and the next look sends it again.
                LOG.log(System.Logger.Level.WARNING, "webhooks: cannot record delivery " + id, e);
            } finally {
                sending.remove(Thread.currentThread());
            }
        });
        sending.add(thread);
        thread.start();
    }

    private void deliver(Webhooks.Webhook webhook, String id, Webhooks.Claim claim) {
        Optional<ObjectNode> described = notices.describe(webhook.user(), id);
        if (described.isEmpty()) {
            // The notice is no longer kept: there is nothing to send, now or later.
            webhooks.finish(claim, sender, Webhooks.Status.FAILED, claim.attempts(), clock.instant());
            return;
        }
        ObjectNode body = described.get();
        byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(webhook.url())
                .timeout(ATTEMPT_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("User-Agent", "weft-serve")
                .header("X-Weft-Event", body.path("type").asText("notice"))
                .header("X-Weft-Delivery", id)
                .header("X-Weft-Signature", "sha256=" + sign(webhook.secret(), bytes))
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                .build();
        Duration wait = backoff.multipliedBy(1L << Math.min(claim.attempts(), 20));
        for (int attempt = claim.attempts() + 1; attempt <= ATTEMPTS; attempt++) {
            if (stopped) {
                webhooks.release(claim, sender, attempt - 1, clock.instant());
                return;
            }
            try {
                int status = http.send(request, HttpResponse.BodyHandlers.discarding())
                        .statusCode();
                if (status / 100 == 2) {
                    webhooks.finish(claim, sender, Webhooks.Status.DELIVERED, attempt, clock.instant());
                    return;
                }
            } catch (IOException e) {
                // unreachable for now: tried again below
            } catch (InterruptedException e) {
                // Stopping: the receiver may or may not have it; the next sender sends it again.
                Thread.currentThread().interrupt();
                webhooks.release(claim, sender, attempt, clock.instant());
                return;
            }
            if (attempt < ATTEMPTS) {
                Instant now = clock.instant();
                if (!webhooks.renew(claim, sender, attempt, now, leaseAfter(now, wait))) {
                    return; // another sender took it over while this one was slow
                }
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    webhooks.release(claim, sender, attempt, clock.instant());
                    return;
                }
                wait = wait.multipliedBy(2);
            }
        }
        webhooks.finish(claim, sender, Webhooks.Status.FAILED, ATTEMPTS, clock.instant());
    }

    /** HMAC-SHA256 of {@code body} under {@code secret}, as lower-case hex. */
    static String sign(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java platform has HmacSHA256", e);
        }
    }

    /**
     * Stops looking; sends under way are interrupted and their claims given up unsent, so the next
     * sender (this server started again, or another on the store) sends them at once.
     */
    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(loop);
        sending.forEach(Thread::interrupt);
        try {
            loop.join(Duration.ofSeconds(5));
            for (Thread thread : List.copyOf(sending)) {
                thread.join(Duration.ofSeconds(5));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
