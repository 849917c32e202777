package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.weft.core.Json;
import dev.weft.mailflow.Mailflow;
import dev.weft.mailflow.Venue;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 003's webhooks over real HTTP: signed per venue (a bad or missing signature is 401 and starts
 * nothing), one run per email however often it is delivered, Outlook's handshake and notifications
 * with the message fetched from a fake Graph at the wire, and each organization seeing only its own
 * venues and executions.
 */
final class MailflowApiTest {
    private static final String INQUIRY = "Message-ID: <api-1@example.com>\r\nFrom: Dana Cohen <dana@example.com>\r\n"
            + "To: events@olivegrove.example\r\nSubject: Wedding\r\nDate: Mon, 2 Mar 2026 09:00:00 +0200\r\n\r\n"
            + "Hello, we'd like to book our wedding on 12 December 2026 for 120 guests.\r\n";

    @TempDir
    Path dir;

    private ServerFixture fixture;
    private final AtomicReference<Mailflow> mailflow = new AtomicReference<>();
    private String oliveSecret;
    private String cedarSecret;
    private String omerKey;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(
                dir,
                builder -> builder.mailflow(store -> {
                    Mailflow made = Mailflow.builder()
                            .store(store)
                            .keyFile(dir.resolve("mail.key"))
                            .build();
                    mailflow.set(made);
                    return made;
                }));
        oliveSecret = add("olive", "dana", Optional.empty());
        cedarSecret = add("cedar", "omer", Optional.empty());
        omerKey = fixture.omer;
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private String add(String id, String organization, Optional<Mailflow.GraphSettings> graph) {
        return mailflow.get()
                .addVenue(new Mailflow.VenueSettings(
                        id,
                        Optional.of(organization),
                        id.equals("olive") ? "Olive Grove" : "Cedar Hall",
                        "events@" + id + ".example",
                        Optional.of(ZoneId.of("Asia/Jerusalem")),
                        Optional.of("en"),
                        Optional.empty(),
                        Optional.of(List.of(new Venue.Room("Garden", 150), new Venue.Room("Hall", 200))),
                        Optional.of(List.of(new Venue.Booking("Hall", LocalDate.parse("2026-12-12")))),
                        Optional.empty(),
                        graph,
                        Optional.empty()))
                .webhookSecret()
                .orElse("");
    }

    private ServerFixture.Answer webhook(String path, String body, Optional<String> signature, String contentType) {
        HttpRequest.Builder request = fixture.request(path, Optional.empty())
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        signature.ifPresent(s -> request.header("X-Weft-Signature", s));
        return fixture.send(request.build());
    }

    private static String sign(String secret, String body) {
        return Mailflow.signature(secret, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aSignedRawEmailIsAnsweredAndABadOrMissingSignatureStartsNothing() {
        ServerFixture.Answer unsigned =
                webhook("webhook/imap?venue=olive", INQUIRY, Optional.empty(), "message/rfc822");
        assertThat(unsigned.status()).isEqualTo(401);
        assertThat(unsigned.code()).isEqualTo("E_UNAUTHORIZED");
        ServerFixture.Answer forged =
                webhook("webhook/imap?venue=olive", INQUIRY, Optional.of(sign(cedarSecret, INQUIRY)), "message/rfc822");
        assertThat(forged.status()).isEqualTo(401);
        ServerFixture.Answer garbage =
                webhook("webhook/imap?venue=olive", INQUIRY, Optional.of("sha256=zz"), "message/rfc822");
        assertThat(garbage.status()).isEqualTo(401);
        assertThat(fixture.store.listRuns(Optional.empty())).isEmpty();

        ServerFixture.Answer answered =
                webhook("webhook/imap?venue=olive", INQUIRY, Optional.of(sign(oliveSecret, INQUIRY)), "message/rfc822");
        assertThat(answered.status()).isEqualTo(200);
        assertThat(answered.body().path("status").asText()).isEqualTo("COMPLETED");
        assertThat(answered.body().path("reply").path("offered"))
                .extracting(JsonNode::asText)
                .containsExactly("Garden");
        String json = Json.write(Json.object().put("raw", INQUIRY));
        ServerFixture.Answer again =
                webhook("webhook/imap?venue=olive", json, Optional.of(sign(oliveSecret, json)), "application/json");
        assertThat(again.body().path("duplicate").asBoolean()).isTrue();
        assertThat(again.body().path("runId").asText())
                .isEqualTo(answered.body().path("runId").asText());
        assertThat(fixture.store.listRuns(Optional.empty())).hasSize(1);
    }

    @Test
    void badInputIsAClearErrorThatStartsNothing() {
        String malformed = "Subject: no sender\r\n\r\nhello";
        ServerFixture.Answer bad = webhook(
                "webhook/imap?venue=olive", malformed, Optional.of(sign(oliveSecret, malformed)), "message/rfc822");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.code()).isEqualTo("E_EMAIL_INVALID");
        ServerFixture.Answer unknown = webhook(
                "webhook/imap?venue=nowhere", INQUIRY, Optional.of(sign(oliveSecret, INQUIRY)), "message/rfc822");
        assertThat(unknown.status()).isEqualTo(404);
        ServerFixture.Answer noVenue =
                webhook("webhook/imap", INQUIRY, Optional.of(sign(oliveSecret, INQUIRY)), "message/rfc822");
        assertThat(noVenue.status()).isEqualTo(400);
        String huge = "x".repeat(Http.MAX_BODY + 10);
        ServerFixture.Answer tooLarge =
                webhook("webhook/imap?venue=olive", huge, Optional.of(sign(oliveSecret, huge)), "message/rfc822");
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.code()).isEqualTo("E_TOO_LARGE");
        assertThat(fixture.store.listRuns(Optional.empty())).isEmpty();
    }

    @Test
    void processTakesANormalizedEmail() {
        String body = Json.write(Json.object()
                .put("from", "noa@example.com")
                .put("subject", "Birthday")
                .put("text", "Hi, is 20 June free for a birthday party of 60 people?"));
        ServerFixture.Answer answer =
                webhook("process?venue=olive", body, Optional.of(sign(oliveSecret, body)), "application/json");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body().path("parsed").path("guests").asInt()).isEqualTo(60);
        ServerFixture.Answer wrong = webhook(
                "process?venue=olive",
                "{\"subject\": \"x\"}",
                Optional.of(sign(oliveSecret, "{\"subject\": \"x\"}")),
                "application/json");
        assertThat(wrong.status()).isEqualTo(400);
        assertThat(wrong.code()).isEqualTo("E_EMAIL_INVALID");
    }

    @Test
    void aHundredConcurrentDeliveriesOfOneEmailStartOneRun() throws Exception {
        String signature = sign(oliveSecret, INQUIRY);
        ExecutorService pool = Executors.newFixedThreadPool(20);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<ServerFixture.Answer>> answers = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            answers.add(pool.submit(() -> {
                go.await();
                return webhook("webhook/imap?venue=olive", INQUIRY, Optional.of(signature), "message/rfc822");
            }));
        }
        go.countDown();
        List<String> runIds = Collections.synchronizedList(new ArrayList<>());
        for (Future<ServerFixture.Answer> answer : answers) {
            ServerFixture.Answer a = answer.get();
            assertThat(a.status()).isEqualTo(200);
            runIds.add(a.body().path("runId").asText());
        }
        pool.shutdown();
        assertThat(runIds).containsOnly(runIds.get(0));
        assertThat(fixture.store.listRuns(Optional.empty())).hasSize(1);
    }

    @Test
    void outlookHandshakeAndNotificationsFetchTheMessageFromGraph() throws Exception {
        AtomicInteger fetched = new AtomicInteger();
        HttpServer graph = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        graph.createContext("/v1.0/users/events@cedar.example/messages/AAMk1/$value", exchange -> {
            boolean authorized =
                    "Bearer graph-token".equals(exchange.getRequestHeaders().getFirst("Authorization"));
            byte[] body =
                    authorized ? INQUIRY.replace("api-1", "outlook-1").getBytes(StandardCharsets.UTF_8) : new byte[0];
            if (authorized) {
                fetched.incrementAndGet();
            }
            exchange.sendResponseHeaders(authorized ? 200 : 401, authorized ? body.length : -1);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        graph.start();
        try {
            String base = "http://127.0.0.1:" + graph.getAddress().getPort() + "/v1.0";
            add("cedar", "omer", Optional.of(new Mailflow.GraphSettings(base, "graph-token")));
            var handshake = fixture.raw(
                    fixture.request("webhook/outlook?venue=cedar&validationToken=abc%20123", Optional.empty())
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build());
            assertThat(handshake.statusCode()).isEqualTo(200);
            assertThat(handshake.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
            assertThat(handshake.body()).isEqualTo("abc 123");

            String forged = Json.write(Json.parse(
                    "{\"value\": [{\"clientState\": \"guess\", \"changeType\": \"created\","
                            + " \"resource\": \"users/events@cedar.example/messages/AAMk1\"}]}",
                    "n"));
            assertThat(webhook("webhook/outlook?venue=cedar", forged, Optional.empty(), "application/json")
                            .status())
                    .isEqualTo(401);
            assertThat(fetched.get()).isZero();

            String notification = forged.replace("guess", cedarSecret);
            ServerFixture.Answer accepted =
                    webhook("webhook/outlook?venue=cedar", notification, Optional.empty(), "application/json");
            assertThat(accepted.status()).isEqualTo(202);
            assertThat(accepted.body().path("processed").get(0).path("reply").path("offered"))
                    .extracting(JsonNode::asText)
                    .containsExactly("Garden");
            webhook("webhook/outlook?venue=cedar", notification, Optional.empty(), "application/json");
            assertThat(fetched.get()).isEqualTo(2);
            assertThat(fixture.store.listRuns(Optional.empty())).hasSize(1);
        } finally {
            graph.stop(0);
        }
    }

    @Test
    void anOrganizationsKeySeesItsOwnVenuesAndExecutionsAndNothingOfAnothers() {
        ServerFixture.Answer delivered =
                webhook("webhook/imap?venue=olive", INQUIRY, Optional.of(sign(oliveSecret, INQUIRY)), "message/rfc822");
        String runId = delivered.body().path("runId").asText();

        ServerFixture.Answer mine = fixture.get("api/mailflow/venues", fixture.dana);
        assertThat(mine.body().path("venues"))
                .extracting(v -> v.path("id").asText())
                .containsExactly("olive");
        ServerFixture.Answer executions = fixture.get("api/mailflow/venues/olive/executions", fixture.dana);
        assertThat(executions
                        .body()
                        .path("workflow_executions")
                        .get(0)
                        .path("id")
                        .asText())
                .isEqualTo(runId);
        ServerFixture.Answer execution = fixture.get("api/mailflow/executions/" + runId, fixture.dana);
        assertThat(execution.status()).isEqualTo(200);
        assertThat(execution.body().path("organization_id").asText()).isEqualTo("dana");
        JsonNode parse = execution.body().path("steps").get(1);
        assertThat(parse.path("node_id").asText()).isEqualTo("parse");
        assertThat(parse.path("resolved_prompt").path("user").asText()).contains("120 guests");
        assertThat(parse.path("output_pinned").asBoolean()).isFalse();
        assertThat(parse.has("processing_time_ms")).isTrue();

        assertThat(fixture.get("api/mailflow/venues", omerKey).body().path("venues"))
                .extracting(v -> v.path("id").asText())
                .containsExactly("cedar");
        assertThat(fixture.get("api/mailflow/venues/olive", omerKey).status()).isEqualTo(404);
        assertThat(fixture.get("api/mailflow/venues/olive/executions", omerKey).status())
                .isEqualTo(404);
        assertThat(fixture.get("api/mailflow/executions/" + runId, omerKey).status())
                .isEqualTo(404);
        assertThat(fixture.get("api/runs/" + runId, omerKey).status()).isEqualTo(404);
        assertThat(fixture.get("api/runs", omerKey).body().path("runs")).isEmpty();
    }

    @Test
    void anExecutionIsRerunWithParsePinnedAndDrawnThroughTheRunsApi() {
        ServerFixture.Answer delivered =
                webhook("webhook/imap?venue=olive", INQUIRY, Optional.of(sign(oliveSecret, INQUIRY)), "message/rfc822");
        String runId = delivered.body().path("runId").asText();
        ServerFixture.Answer rerun =
                fixture.post("api/runs/" + runId + "/rerun", fixture.dana, "{\"pin\": [\"parse\"]}");
        assertThat(rerun.status()).isEqualTo(200);
        assertThat(rerun.body().path("status").asText()).isEqualTo("COMPLETED");
        JsonNode parse = null;
        for (JsonNode step : rerun.body().path("steps")) {
            if (step.path("nodeId").asText().equals("parse")) {
                parse = step;
            }
        }
        assertThat(parse).isNotNull();
        assertThat(parse.path("pinned").asBoolean()).isTrue();
        ServerFixture.Answer graph = fixture.get("api/runs/" + runId + "/graph", fixture.dana);
        assertThat(graph.status()).isEqualTo(200);
        assertThat(graph.body().path("edges"))
                .anySatisfy(e -> assertThat(e.path("handle").asText()).isEqualTo("negative"));
    }
}
