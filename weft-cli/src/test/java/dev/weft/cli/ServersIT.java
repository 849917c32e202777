package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.redis.testing.RedisServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two {@code bin/weft serve --redis} on one PostgreSQL and Redis, with a {@code bin/weft worker}: a
 * run started on one server whose queued nodes run on the worker streams its events from the other,
 * every one once and in order; a cancel sent to the other server stops it before its next step.
 */
final class ServersIT {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private EmbeddedPostgres postgres;
    private RedisServer redis;
    private Path home;
    private String db;
    private final List<Process> processes = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();
    private String key;
    private URI first;
    private URI second;

    @BeforeEach
    void start() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        redis = RedisServer.start();
        home = Files.createTempDirectory("weft-home");
        db = postgres.getJdbcUrl("postgres", "postgres");
        Process keys = weft("keys", "create", "--user", "dana", "--db", db);
        key = new String(keys.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(keys.waitFor(60, TimeUnit.SECONDS)).isTrue();
        first = listening(weft("serve", "--port", "0", "--db", db, "--redis", redis.url()));
        second = listening(weft("serve", "--port", "0", "--db", db, "--redis", redis.url()));
        Process worker = weft("worker", "--redis", redis.url(), "--db", db, "--concurrency", "4");
        String line =
                new BufferedReader(new InputStreamReader(worker.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(line).contains("reading redis://127.0.0.1:" + redis.port());
    }

    @AfterEach
    void stop() throws Exception {
        processes.forEach(Process::destroyForcibly);
        redis.close();
        postgres.close();
    }

    private static String chain(String id, int nodes, long ms) {
        StringBuilder json =
                new StringBuilder("{\"id\": \"" + id + "\", \"nodes\": [{\"id\": \"in\", \"type\": \"trigger\"}");
        StringBuilder connections = new StringBuilder();
        String previous = "in";
        for (int i = 1; i <= nodes; i++) {
            json.append(", {\"id\": \"w")
                    .append(i)
                    .append("\", \"type\": \"delay\", \"queued\": true, \"config\": {\"ms\": ")
                    .append(ms)
                    .append("}}");
            connections
                    .append(connections.isEmpty() ? "" : ", ")
                    .append("{\"source\": \"")
                    .append(previous)
                    .append("\", \"target\": \"w")
                    .append(i)
                    .append("\"}");
            previous = "w" + i;
        }
        return json.append("], \"connections\": [")
                .append(connections)
                .append("]}")
                .toString();
    }

    private String start(String workflow, String id) throws Exception {
        assertThat(post(first, "api/workflows", workflow).statusCode()).isEqualTo(201);
        HttpResponse<String> started = post(first, "api/workflows/" + id + "/runs", "{\"wait\": false}");
        assertThat(started.statusCode()).as(started.body()).isBetween(200, 202);
        return Json.parse(started.body(), "started").path("runId").asText();
    }

    @Test
    void aClientStreamingFromTheOtherServerSeesEveryEventOnceAndInOrder() throws Exception {
        String runId = start(chain("queued-chain", 4, 300), "queued-chain");

        List<Long> ids = new ArrayList<>();
        List<String> types = new ArrayList<>();
        try (BufferedReader stream = events(second, runId)) {
            String line;
            while ((line = stream.readLine()) != null) {
                if (line.startsWith("id:")) {
                    ids.add(Long.parseLong(line.substring(3).strip()));
                } else if (line.startsWith("event:")) {
                    types.add(line.substring(6).strip());
                }
            }
        }

        assertThat(types).startsWith("run.started").endsWith("run.completed");
        assertThat(types.stream().filter("step.queued"::equals)).hasSize(4);
        List<Long> expected = new ArrayList<>();
        for (long i = 1; i <= ids.size(); i++) {
            expected.add(i);
        }
        assertThat(ids).as("every event once, in order").isEqualTo(expected);
        JsonNode stored = Json.parse(get(first, "api/runs/" + runId + "/events").body(), "events");
        assertThat(stored.path("events")).hasSize(ids.size());
    }

    @Test
    void aCancelSentToTheOtherServerStopsTheRunBeforeItsNextStep() throws Exception {
        String runId = start(chain("long-chain", 10, 400), "long-chain");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (completedSteps(runId) < 2 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }

        HttpResponse<String> cancelled = post(second, "api/runs/" + runId + "/cancel", "{}");
        assertThat(cancelled.statusCode()).as(cancelled.body()).isLessThan(300);
        String status = "";
        while (System.nanoTime() < deadline) {
            status = Json.parse(get(first, "api/runs/" + runId).body(), "run")
                    .path("status")
                    .asText();
            if (status.equals("CANCELLED")) {
                break;
            }
            Thread.sleep(100);
        }

        assertThat(status).isEqualTo("CANCELLED");
        JsonNode run = Json.parse(get(second, "api/runs/" + runId).body(), "run");
        long started = 0;
        for (JsonNode step : run.path("steps")) {
            if (!step.path("status").asText().equals("PENDING")) {
                started++;
            }
        }
        assertThat(started).as("steps started of 11: " + run.path("steps")).isLessThan(8);
    }

    /**
     * Redis killed for good while a run's queued nodes wait on its stream (the worker is gone too): the
     * server takes them back after {@code WEFT_REDIS_TAKEBACK} and the run completes, each node once.
     * On main before the take-back, the run waited forever.
     */
    @Test
    void redisKilledForGoodMidRunTheServerTakesBackTheQueuedNodesAndTheRunCompletes() throws Exception {
        processes.get(processes.size() - 1).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        String runId = start(chain("stranded-chain", 3, 100), "stranded-chain");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!queued(runId) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(queued(runId)).as("a node waits on the stream").isTrue();

        redis.kill();
        String status = "";
        while (System.nanoTime() < deadline + TimeUnit.SECONDS.toNanos(60)) {
            status = Json.parse(get(second, "api/runs/" + runId).body(), "run")
                    .path("status")
                    .asText();
            if (status.equals("COMPLETED") || status.equals("FAILED")) {
                break;
            }
            Thread.sleep(200);
        }

        assertThat(status).isEqualTo("COMPLETED");
        JsonNode events = Json.parse(get(first, "api/runs/" + runId + "/events").body(), "events")
                .path("events");
        List<String> types = new ArrayList<>();
        events.forEach(e -> types.add(e.path("type").asText()));
        assertThat(types.stream().filter("step.taken_back"::equals)).hasSize(1);
        assertThat(types.stream().filter("step.completed"::equals)).hasSize(4);
    }

    private boolean queued(String runId) throws Exception {
        JsonNode run = Json.parse(get(first, "api/runs/" + runId).body(), "run");
        for (JsonNode step : run.path("steps")) {
            // A step's details are fields of the step in the API's JSON.
            if (step.path("status").asText().equals("RUNNING") && step.has("queued")) {
                return true;
            }
        }
        return false;
    }

    private int completedSteps(String runId) throws Exception {
        JsonNode run = Json.parse(get(first, "api/runs/" + runId).body(), "run");
        int completed = 0;
        for (JsonNode step : run.path("steps")) {
            if (step.path("status").asText().equals("COMPLETED")) {
                completed++;
            }
        }
        return completed;
    }

    private HttpResponse<String> post(URI base, String path, String json) throws Exception {
        return http.send(
                HttpRequest.newBuilder(base.resolve(path))
                        .header("Authorization", "Bearer " + key)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(URI base, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(base.resolve(path))
                        .header("Authorization", "Bearer " + key)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private BufferedReader events(URI base, String runId) throws Exception {
        HttpResponse<java.io.InputStream> response = http.send(
                HttpRequest.newBuilder(base.resolve("api/runs/" + runId + "/events"))
                        .header("Authorization", "Bearer " + key)
                        .header("Accept", "text/event-stream")
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }

    private static URI listening(Process serve) throws Exception {
        BufferedReader lines =
                new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
        String line = lines.readLine();
        Matcher url = Pattern.compile("listening on (http://\\S+/)").matcher(line == null ? "" : line);
        assertThat(url.find()).as("first line: " + line).isTrue();
        Thread.ofVirtual().start(() -> {
            try {
                lines.lines().forEach(l -> {});
            } catch (java.io.UncheckedIOException e) {
                // stopped
            }
        });
        return URI.create(url.group(1));
    }

    private Process weft(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ROOT.resolve("bin/weft").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile());
        builder.environment().put("WEFT_HOME", home.toString());
        builder.environment().put("WEFT_REDIS_TAKEBACK", "2s");
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        process.getOutputStream().close();
        processes.add(process);
        return process;
    }
}
