package dev.weft.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.data.Notifications;
import dev.weft.memo.data.Notifications.Notification;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Sends each user's reminders to their webhook, if they set one: every notification fired since the
 * webhook was set is claimed once in the database (so never sent twice, by any process, even after
 * a restart), then POSTed as JSON signed with HMAC-SHA256 of the body under the webhook's secret
 * ({@code X-Weft-Signature: sha256=<hex>}), and retried with doubling waits until the receiver
 * answers 2xx or the attempts run out. Thread-safe.
 */
final class WebhookDispatcher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WebhookDispatcher.class.getName());
    /** Attempts per notification before it is recorded as failed. */
    static final int ATTEMPTS = 5;

    private final Webhooks webhooks;
    private final Notifications notifications;
    private final Function<Notification, String> notice;
    private final Duration interval;
    private final Duration backoff;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Set<Thread> sending = ConcurrentHashMap.newKeySet();
    private final Thread loop;
    private volatile boolean stopped;

    private WebhookDispatcher(
            Webhooks webhooks,
            Notifications notifications,
            Function<Notification, String> notice,
            Duration interval,
            Duration backoff) {
        this.webhooks = webhooks;
        this.notifications = notifications;
        this.notice = notice;
        this.interval = interval;
        this.backoff = backoff;
        this.loop = Thread.ofVirtual().name("weft-webhooks").unstarted(this::run);
    }

    /** Starts looking for notifications to send every {@code interval}; the first retry waits {@code backoff}. */
    static WebhookDispatcher start(
            Webhooks webhooks,
            Notifications notifications,
            Function<Notification, String> notice,
            Duration interval,
            Duration backoff) {
        WebhookDispatcher dispatcher = new WebhookDispatcher(webhooks, notifications, notice, interval, backoff);
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
        for (Webhooks.Webhook webhook : webhooks.all()) {
            for (Notification n : notifications.recent(webhook.user(), 50)) {
                if (!n.firedAt().isBefore(webhook.createdAt())
                        && webhooks.claim(webhook.user(), n.id(), Instant.now())) {
                    Thread thread = Thread.ofVirtual()
                            .name("weft-webhook-" + n.id())
                            .unstarted(() -> {
                                try {
                                    deliver(webhook, n);
                                } finally {
                                    sending.remove(Thread.currentThread());
                                }
                            });
                    sending.add(thread);
                    thread.start();
                }
            }
        }
    }

    private void deliver(Webhooks.Webhook webhook, Notification n) {
        ObjectNode body = n.toJson();
        body.put("notice", notice.apply(n));
        byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(webhook.url())
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("User-Agent", "weft-serve")
                .header("X-Weft-Event", n.type())
                .header("X-Weft-Delivery", n.id())
                .header("X-Weft-Signature", "sha256=" + sign(webhook.secret(), bytes))
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                .build();
        Duration wait = backoff;
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                int status = http.send(request, HttpResponse.BodyHandlers.discarding())
                        .statusCode();
                if (status / 100 == 2) {
                    webhooks.finish(webhook.user(), n.id(), Webhooks.Status.DELIVERED, attempt, Instant.now());
                    return;
                }
            } catch (IOException e) {
                // unreachable for now: tried again below
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                webhooks.finish(webhook.user(), n.id(), Webhooks.Status.FAILED, attempt, Instant.now());
                return;
            }
            if (attempt < ATTEMPTS) {
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    webhooks.finish(webhook.user(), n.id(), Webhooks.Status.FAILED, attempt, Instant.now());
                    return;
                }
                wait = wait.multipliedBy(2);
            }
        }
        webhooks.finish(webhook.user(), n.id(), Webhooks.Status.FAILED, ATTEMPTS, Instant.now());
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

    /** Stops looking; sends under way are interrupted (recorded as failed, never sent again). */
    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(loop);
        sending.forEach(Thread::interrupt);
        try {
            loop.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
