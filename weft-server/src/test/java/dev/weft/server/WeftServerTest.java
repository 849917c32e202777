package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server as a whole: health checks, keys on every route, errors, the OpenAPI description, stopping. */
final class WeftServerTest {
    @TempDir
    Path dir;

    private ServerFixture fixture;

    @BeforeEach
    void start() {
        fixture = new ServerFixture(dir);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void healthChecksAnswerWithoutAKey() {
        ServerFixture.Answer health = fixture.get("healthz", Optional.empty());
        ServerFixture.Answer ready = fixture.get("readyz", Optional.empty());

        assertThat(health.status()).isEqualTo(200);
        assertThat(health.body().path("status").asText()).isEqualTo("ok");
        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.body().path("status").asText()).isEqualTo("ready");
    }

    @Test
    void thePageAndItsAssetsAreServedFromTheJarWithoutAKeyAndNothingElseIs() {
        HttpResponse<String> index =
                fixture.raw(fixture.request("", Optional.empty()).GET().build());
        HttpResponse<String> script = fixture.raw(
                fixture.request("assets/app.js", Optional.empty()).GET().build());
        HttpResponse<String> style = fixture.raw(
                fixture.request("assets/app.css", Optional.empty()).GET().build());

        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.headers().firstValue("Content-Type")).contains("text/html; charset=utf-8");
        assertThat(index.headers().firstValue("Content-Security-Policy"))
                .hasValueSatisfying(policy -> assertThat(policy).contains("script-src 'self'"));
        assertThat(index.body()).contains("src=\"/assets/app.js\"").doesNotContain("http://", "https://");
        assertThat(script.statusCode()).isEqualTo(200);
        assertThat(script.headers().firstValue("Content-Type")).contains("text/javascript; charset=utf-8");
        assertThat(style.headers().firstValue("Content-Type")).contains("text/css; charset=utf-8");
        assertThat(fixture.get("assets/nothing.js", Optional.empty()).code()).isEqualTo("E_NOT_FOUND");
        assertThat(fixture.get("assets/..%2Fopenapi.json", Optional.empty()).status())
                .isEqualTo(404);
        assertThat(fixture.get("assets/", Optional.empty()).status()).isIn(401, 404);
        assertThat(fixture.get("api/runs", Optional.empty()).status()).isEqualTo(401);
    }

    @Test
    void everyOtherRouteAnswers401WithoutAKeyOrWithAWrongOne() {
        for (String route : fixture.server.routes()) {
            String[] parts = route.split(" ", 2);
            if (parts[1].equals("/healthz")
                    || parts[1].equals("/readyz")
                    || WebPage.isPage(parts[1])
                    || MailflowApi.isWebhook(parts[1])
                    || ChannelRoutes.isWebhook(parts[1])
                    || A2aApi.isCard(parts[1])) {
                // the webhooks are signed with their own secrets instead (MailflowApiTest, WhatsAppWebhookTest);
                // agent cards are public, as A2A clients read them before they have a key (A2aApiTest)
                continue;
            }
            // Every path parameter ({id}, {name}) gets a value: the key is checked before any is read.
            String path = parts[1].substring(1).replaceAll("\\{[a-z]+\\}", "some-run");
            for (Optional<String> key : List.of(Optional.<String>empty(), Optional.of("weft_not-a-key"))) {
                HttpRequest.Builder request = fixture.request(path, key);
                ServerFixture.Answer answer = fixture.send(
                        switch (parts[0]) {
                            case "GET" -> request.GET().build();
                            case "DELETE" -> request.DELETE().build();
                            default ->
                                request.POST(HttpRequest.BodyPublishers.ofString("{}"))
                                        .build();
                        });
                assertThat(answer.status()).as(route + " with " + key).isEqualTo(401);
                assertThat(answer.code()).as(route).isEqualTo("E_UNAUTHORIZED");
                assertThat(answer.raw().headers().firstValue("WWW-Authenticate"))
                        .contains("Bearer");
            }
        }
    }

    @Test
    void aRevokedKeyIsRefused() {
        ApiKeys keys = ApiKeys.open(fixture.store);
        ApiKeys.Created made = keys.create("maya", false, java.time.Instant.now());
        assertThat(fixture.get("api/runs", made.secret()).status()).isEqualTo(200);

        keys.revoke(made.key().id(), java.time.Instant.now());

        assertThat(fixture.get("api/runs", made.secret()).status()).isEqualTo(401);
    }

    @Test
    void anUnknownRouteIsA404InTheErrorShape() {
        ServerFixture.Answer answer = fixture.get("api/nothing-here", fixture.dana);

        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.code()).isEqualTo("E_NOT_FOUND");
        assertThat(answer.body().path("error").path("message").asText()).contains("/api/nothing-here");
    }

    @Test
    void badJsonAndUnknownFieldsAre400WithACode() {
        ServerFixture.Answer broken = fixture.post("api/memo/messages", fixture.dana, "{\"message\": ");
        ServerFixture.Answer unknown =
                fixture.post("api/memo/messages", fixture.dana, "{\"message\": \"hi\", \"colour\": \"red\"}");
        ServerFixture.Answer wrongType = fixture.post("api/memo/messages", fixture.dana, "{\"message\": [1]}");
        ServerFixture.Answer missing = fixture.post("api/memo/messages", fixture.dana, "{}");

        assertThat(List.of(broken, unknown, wrongType, missing)).allSatisfy(answer -> {
            assertThat(answer.status()).isEqualTo(400);
            assertThat(answer.code()).isEqualTo("E_BAD_INPUT");
        });
        assertThat(unknown.body().path("error").path("message").asText()).contains("colour");
    }

    @Test
    void aBodyOverOneMebibyteIs413() {
        String big = "{\"message\": \"" + "a".repeat(Http.MAX_BODY) + "\"}";

        // A client that sends a large body asks first (Expect: 100-continue), and is told before it sends it.
        ServerFixture.Answer answer = fixture.send(fixture.request("api/memo/messages", Optional.of(fixture.dana))
                .expectContinue(true)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(big))
                .build());

        assertThat(answer.status()).isEqualTo(413);
        assertThat(answer.code()).isEqualTo("E_TOO_LARGE");
    }

    @Test
    void theOpenApiDescriptionDescribesEveryRouteAndNoOther() throws IOException {
        ServerFixture.Answer served = fixture.get("openapi.json", fixture.dana);
        JsonNode spec;
        try (InputStream in = WeftServer.class.getResourceAsStream("openapi.json")) {
            spec = Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "openapi.json");
        }
        List<String> described = new ArrayList<>();
        spec.path("paths")
                .properties()
                .forEach(path -> path.getValue()
                        .fieldNames()
                        .forEachRemaining(
                                method -> described.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey())));

        assertThat(served.status()).isEqualTo(200);
        assertThat(served.body()).isEqualTo(spec);
        assertThat(spec.path("openapi").asText()).startsWith("3.1");
        assertThat(described).containsExactlyInAnyOrderElementsOf(fixture.server.routes());
    }

    @Test
    void closingEndsTheEventStreamsOfWaitingRunsAndThenStops() throws Exception {
        fixture.ask(fixture.dana, "remind me tomorrow at 9 to call the bank");
        String runId = fixture.ask(fixture.dana, "delete all my reminders")
                .path("runId")
                .asText();
        java.net.http.HttpResponse<java.io.InputStream> stream = fixture.http.send(
                fixture.request("api/runs/" + runId + "/events", Optional.of(fixture.dana))
                        .header("Accept", "text/event-stream")
                        .GET()
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofInputStream());
        java.io.InputStream body = stream.body();
        assertThat(body.read()).isNotEqualTo(-1);
        assertThat(fixture.server.inFlight()).isEqualTo(1);

        fixture.server.close();

        assertThat(body.readAllBytes()).isNotNull();
        assertThat(fixture.server.inFlight()).isZero();
    }

    @Test
    void afterCloseItRefusesConnections() {
        fixture.server.close();

        assertThat(fixture.server.inFlight()).isZero();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> fixture.get("healthz", Optional.empty()))
                .isInstanceOf(java.io.UncheckedIOException.class);
    }

    /** On main before the housekeeping, the server never pruned anything. */
    @Test
    void theServerPrunesTheIdempotencyResultsOfFinishedRunsOnItsSchedule() throws Exception {
        fixture.close();
        fixture = new ServerFixture(
                dir,
                builder -> builder.housekeeping(java.time.Duration.ofMillis(300))
                        .idempotencyRetention(java.time.Duration.ofSeconds(2)));
        java.util.concurrent.atomic.AtomicReference<String> key = new java.util.concurrent.atomic.AtomicReference<>();
        dev.weft.core.RunResult finished = fixture.server
                .runner()
                .run(
                        dev.weft.core.Graph.builder("once")
                                .node(dev.weft.core.NodeSpec.builder("call", context -> {
                                            key.set(context.idempotencyKey() + "/effect");
                                            return dev.weft.core.NodeResult.output(context.once(
                                                    "effect",
                                                    () -> Json.object().put("made", true)));
                                        })
                                        .build())
                                .edge(dev.weft.core.Graph.START, "call")
                                .edge("call", dev.weft.core.Graph.END)
                                .compile(),
                        dev.weft.core.RunRequest.of(Json.object()));
        assertThat(finished.status()).isEqualTo(dev.weft.core.RunStatus.COMPLETED);
        assertThat(fixture.store.idempotentResult(key.get()))
                .as("kept while younger than its retention")
                .isPresent();

        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (fixture.store.idempotentResult(key.get()).isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }

        assertThat(fixture.store.idempotentResult(key.get()))
                .as("the result under " + key.get() + " pruned")
                .isEmpty();
    }
}
