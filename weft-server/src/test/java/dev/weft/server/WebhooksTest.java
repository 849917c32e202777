package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.weft.core.Json;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Notifications;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's reminders sent to their webhook: signed, retried, never twice. */
final class WebhooksTest {
    /** What the receiver got: the body and the Weft headers. */
    record Received(String body, String signature, String delivery, int answered) {}

    @TempDir
    Path dir;

    private ServerFixture fixture;
    private HttpServer receiver;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger failFirst = new AtomicInteger(1);

    @BeforeEach
    void start() throws IOException {
        fixture = new ServerFixture(dir);
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            int status = failFirst.getAndDecrement() > 0 ? 500 : 204;
            received.add(new Received(
                    body,
                    exchange.getRequestHeaders().getFirst("X-Weft-Signature"),
                    exchange.getRequestHeaders().getFirst("X-Weft-Delivery"),
                    status));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stop() {
        fixture.close();
        receiver.stop(0);
    }

    private String hook() {
        return "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook";
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(condition.getAsBoolean()).as("within 10 s").isTrue();
    }

    private static Notifications.Notification fired(String user, String task, String text, Instant at) {
        return new Notifications.Notification(
                user,
                Notifications.Notification.idOf("task", task, at),
                Notifications.REMINDER_DUE,
                "task",
                task,
                text,
                at,
                at,
                false);
    }

    @Test
    void aReminderIsSentSignedRetriedUntilAcceptedAndNeverTwice() throws Exception {
        fixture.ask(fixture.dana, "remind me tomorrow at 9 to call the bank");
        Notifications notifications = MemoData.open(fixture.store).notifications();
        notifications.add(
                fired("dana", "old", "before the webhook", Instant.now().minusSeconds(60)));
        JsonNode set = fixture.post("api/memo/webhook", fixture.dana, Json.write(Map.of("url", hook())))
                .body();
        String secret = set.path("secret").asText();

        Notifications.Notification first = fired("dana", "t1", "call the bank", Instant.now());
        notifications.add(first);
        await(() -> received.size() == 2);
        Notifications.Notification second = fired("dana", "t2", "water the plants", Instant.now());
        notifications.add(second);
        await(() -> received.size() == 3);

        assertThat(received).extracting(Received::answered).containsExactly(500, 204, 204);
        assertThat(received).extracting(Received::delivery).containsExactly(first.id(), first.id(), second.id());
        for (Received r : received) {
            assertThat(r.signature())
                    .isEqualTo(
                            "sha256=" + WebhookDispatcher.sign(secret, r.body().getBytes(StandardCharsets.UTF_8)));
        }
        JsonNode body = Json.parse(received.get(1).body(), "webhook body");
        assertThat(body.path("type").asText()).isEqualTo("reminder.due");
        assertThat(body.path("text").asText()).isEqualTo("call the bank");
        assertThat(body.path("notice").asText()).contains("call the bank");
        Webhooks webhooks = new Webhooks(dev.weft.store.AppDatabase.of(fixture.store));
        assertThat(webhooks.status("dana", first.id())).contains(Webhooks.Status.DELIVERED);
        assertThat(webhooks.status(
                        "dana", fired("dana", "old", "", Instant.EPOCH).id()))
                .isEmpty();
    }

    @Test
    void aClaimWhoseSenderDiedIsTakenOverOnceItsLeaseEndsAndSentWithTheSameDeliveryId() throws Exception {
        failFirst.set(0);
        fixture.ask(fixture.dana, "what are my tasks?");
        fixture.post("api/memo/webhook", fixture.dana, Json.write(Map.of("url", hook())));
        Webhooks webhooks = new Webhooks(dev.weft.store.AppDatabase.of(fixture.store));
        Notifications.Notification n = fired("dana", "t1", "call the bank", Instant.now());
        // A sender claimed it and died before sending: nothing but its claim is left.
        Instant leaseEnd = Instant.now().plusMillis(400);
        assertThat(webhooks.claim("dana", n.id(), "dead-sender", Instant.now(), leaseEnd))
                .contains(new Webhooks.Claim("dana", n.id(), 0));

        MemoData.open(fixture.store).notifications().add(n);
        Thread.sleep(150);
        assertThat(received).as("not while the dead sender's lease holds").isEmpty();
        await(() -> received.size() == 1);
        Instant sent = Instant.now();
        Thread.sleep(300);

        assertThat(sent).isAfterOrEqualTo(leaseEnd);
        assertThat(received).extracting(Received::delivery).containsExactly(n.id());
        assertThat(webhooks.status("dana", n.id())).contains(Webhooks.Status.DELIVERED);
        assertThat(webhooks.claim(
                        "dana", n.id(), "another", Instant.now(), Instant.now().plusSeconds(60)))
                .as("a delivered notification is never claimed again")
                .isEmpty();
    }

    @Test
    void aServerStoppedMidDeliveryGivesItsClaimUpAndTheNextServerSendsItAgain() throws Exception {
        java.util.concurrent.CountDownLatch hanging = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        List<String> deliveries = new CopyOnWriteArrayList<>();
        HttpServer slow = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        slow.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        slow.createContext("/hook", exchange -> {
            exchange.getRequestBody().readAllBytes();
            deliveries.add(exchange.getRequestHeaders().getFirst("X-Weft-Delivery"));
            if (deliveries.size() == 1) {
                hanging.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        slow.start();
        try {
            fixture.ask(fixture.dana, "what are my tasks?");
            fixture.post(
                    "api/memo/webhook",
                    fixture.dana,
                    Json.write(Map.of(
                            "url", "http://127.0.0.1:" + slow.getAddress().getPort() + "/hook")));
            Notifications.Notification n = fired("dana", "t1", "call the bank", Instant.now());
            MemoData.open(fixture.store).notifications().add(n);
            assertThat(hanging.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

            fixture.server.close();
            Webhooks webhooks = new Webhooks(dev.weft.store.AppDatabase.of(fixture.store));
            assertThat(webhooks.status("dana", n.id())).contains(Webhooks.Status.SENDING);
            try (WeftServer next = WeftServer.builder()
                    .store(fixture.store)
                    .port(0)
                    .reminders(false)
                    .recoveryInterval(Duration.ZERO)
                    .webhookInterval(Duration.ofMillis(50))
                    .start()) {
                assertThat(next.routes()).isNotEmpty();
                await(() -> deliveries.size() == 2);
                await(() -> webhooks.status("dana", n.id()).equals(java.util.Optional.of(Webhooks.Status.DELIVERED)));
            }
            assertThat(deliveries).containsExactly(n.id(), n.id());
        } finally {
            release.countDown();
            slow.stop(0);
        }
    }

    @Test
    void theWebhookIsTheCallersOwnAndAUrlMustBeHttp() {
        assertThat(fixture.get("api/memo/webhook", fixture.dana).status()).isEqualTo(404);
        assertThat(fixture.post("api/memo/webhook", fixture.dana, "{\"url\": \"ftp://example.com/x\"}")
                        .code())
                .isEqualTo("E_BAD_INPUT");

        fixture.post("api/memo/webhook", fixture.dana, Json.write(Map.of("url", hook())));

        ServerFixture.Answer shown = fixture.get("api/memo/webhook", fixture.dana);
        assertThat(shown.body().path("url").asText()).isEqualTo(hook());
        assertThat(shown.body().has("secret")).isFalse();
        assertThat(fixture.get("api/memo/webhook", fixture.omer).status()).isEqualTo(404);
        assertThat(fixture.delete("api/memo/webhook", fixture.omer).status()).isEqualTo(404);
        assertThat(fixture.delete("api/memo/webhook", fixture.dana).status()).isEqualTo(200);
        assertThat(fixture.get("api/memo/webhook", fixture.dana).status()).isEqualTo(404);
    }
}
