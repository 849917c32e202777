package dev.weft.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.spi.RunStore;
import dev.weft.server.ApiKeys;
import dev.weft.server.WeftServer;
import dev.weft.store.Stores;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowParser;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code weft-bench server [--seconds N] [--subscribers S] [--chats C]}: {@code weft serve} under load,
 * on SQLite, over real HTTP on 127.0.0.1. S clients each hold a live event stream of a run that waits
 * for approval, while C clients talk to Memo as fast as they are answered, for N seconds, each as its
 * own user: half of them over OpenAI's chat completions ({@code /v1/chat/completions}), half over its
 * Responses API ({@code /v1/responses}), half of each streamed. Then every waiting run is approved
 * through the API, and each stream must show its run's completion. Prints each route's latency (p50,
 * p99, max) and completions per second side by side, each client's first turn (a cold server) apart
 * from the later turns over both routes, the streams that saw their run end, and peak heap. Results go to stdout, progress to stderr.
 */
public final class ServerBenchmark {
    private static final String USAGE =
            "usage: weft-bench server [--seconds N] [--subscribers S] [--chats C]" + "   (defaults 60, 200, 50)";

    private static final Map<String, NumericOptions.Option> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("seconds", new NumericOptions.Option(60, 1));
        OPTIONS.put("subscribers", new NumericOptions.Option(200, 1));
        OPTIONS.put("chats", new NumericOptions.Option(50, 1));
    }

    /** Messages that Memo answers without waiting for anyone, in both languages. */
    private static final List<String> MESSAGES = List.of(
            "remind me tomorrow at 9 to call Dana",
            "תזכיר לי מחר ב-9 להתקשר לדנה",
            "what are my tasks for today?",
            "מה המשימות שלי להיום?",
            "create a shopping list with milk, eggs and bread",
            "תוסיף גבינה לרשימת הקניות",
            "hi");

    private static final String APPROVAL = """
            {"id": "bench-approval",
             "nodes": [{"id": "in", "type": "trigger"},
                       {"id": "approve", "type": "approval", "config": {"message": "approve?"}},
                       {"id": "done", "type": "transform", "config": {"output": {"ok": "true"}}}],
             "connections": [{"source": "in", "target": "approve"}, {"source": "approve", "target": "done"}]}
            """;

    private ServerBenchmark() {}

    public static void run(String[] args) {
        NumericOptions options = NumericOptions.parse(args, OPTIONS, USAGE);
        int seconds = options.intValue("seconds");
        int subscribers = options.intValue("subscribers");
        int chats = options.intValue("chats");
        Path dir;
        try {
            dir = Files.createTempDirectory("weft-bench-server");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (RunStore store = Stores.open("sqlite:" + dir.resolve("weft.db"));
                HeapPeakMonitor heap = HeapPeakMonitor.start()) {
            WeftServer server = WeftServer.builder()
                    .store(store)
                    .port(0)
                    .reminders(false)
                    .recoveryInterval(Duration.ZERO)
                    .webhookInterval(Duration.ZERO)
                    .start();
            try {
                measure(store, server, heap, seconds, subscribers, chats);
            } finally {
                server.close();
            }
        }
    }

    private static void measure(
            RunStore store, WeftServer server, HeapPeakMonitor heap, int seconds, int subscribers, int chats) {
        URI base = server.uri();
        ApiKeys keys = ApiKeys.open(store);
        String watcher = keys.create("watcher", false, Instant.now()).secret();
        Workflow workflow =
                Workflow.compile(WorkflowParser.parse(APPROVAL, "bench"), dev.weft.workflow.NodeTypes.standard());
        List<String> waiting = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            RunResult run = server.runner()
                    .run(
                            workflow.graph(),
                            RunRequest.builder()
                                    .source(workflow.definition().toJson())
                                    .user("watcher")
                                    .build());
            waiting.add(run.runId());
        }
        System.err.println("server: " + subscribers + " waiting runs made; opening their streams");
        HttpClient http = HttpClient.newBuilder()
                .executor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor())
                .build();

        CountDownLatch opened = new CountDownLatch(subscribers);
        AtomicInteger sawEnd = new AtomicInteger();
        List<Thread> streams = new ArrayList<>();
        for (String runId : waiting) {
            streams.add(Thread.ofVirtual().start(() -> follow(http, base, watcher, runId, opened, sawEnd)));
        }
        try {
            if (!opened.await(60, TimeUnit.SECONDS)) {
                System.err.println("server: only " + (subscribers - opened.getCount()) + " streams opened in 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }

        System.err.println("server: " + chats + " chat clients for " + seconds + " s");
        List<String> chatKeys = new ArrayList<>();
        for (int i = 0; i < chats; i++) {
            chatKeys.add(keys.create("chat-" + i, false, Instant.now()).secret());
        }
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        AtomicLong failures = new AtomicLong();
        ConcurrentLinkedQueue<Long> responseLatencies = new ConcurrentLinkedQueue<>();
        AtomicLong responseFailures = new AtomicLong();
        // A client's first turn meets a cold server (Memo's models are loaded on first use, the JIT
        // has compiled nothing yet): kept apart as well, so the tail under steady load shows alone.
        ConcurrentLinkedQueue<Long> firstTurns = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> laterTurns = new ConcurrentLinkedQueue<>();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < chats; i++) {
            String key = chatKeys.get(i);
            boolean stream = i % 2 == 1;
            boolean responses = (i / 2) % 2 == 1;
            ConcurrentLinkedQueue<Long> timed = responses ? responseLatencies : latencies;
            AtomicLong failed = responses ? responseFailures : failures;
            int first = i;
            clients.add(Thread.ofVirtual().start(() -> {
                int n = first;
                while (System.nanoTime() < end) {
                    String message = MESSAGES.get(n++ % MESSAGES.size());
                    long started = System.nanoTime();
                    boolean answered = responses
                            ? respond(http, base, key, message, stream)
                            : chat(http, base, key, message, stream);
                    if (answered) {
                        long took = System.nanoTime() - started;
                        timed.add(took);
                        (n == first + 1 ? firstTurns : laterTurns).add(took);
                    } else {
                        failed.incrementAndGet();
                    }
                }
            }));
        }
        long wallStart = System.nanoTime();
        join(clients);
        double wall = (System.nanoTime() - wallStart) / 1e9;

        System.err.println("server: approving the " + subscribers + " waiting runs");
        for (String runId : waiting) {
            post(http, base.resolve("api/runs/" + runId + "/resume"), watcher, "{\"input\": {\"by\": \"bench\"}}");
        }
        join(streams);

        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        List<Long> sortedResponses = new ArrayList<>(responseLatencies);
        Collections.sort(sortedResponses);
        System.out.printf(
                "%-44s %16s %16s%n", "weft-bench server (SQLite, 127.0.0.1)", "chat/completions", "responses");
        System.out.printf("%-44s %16d%n", "seconds", seconds);
        System.out.printf("%-44s %16d%n", "event streams held open", subscribers);
        System.out.printf("%-44s %16d%n", "clients (half of each route streamed)", chats);
        long onResponses = java.util.stream.IntStream.range(0, chats)
                .filter(i -> (i / 2) % 2 == 1)
                .count();
        System.out.printf("%-44s %16d %16d%n", "clients on the route", chats - onResponses, onResponses);
        System.out.printf("%-44s %16d %16d%n", "answered", sorted.size(), sortedResponses.size());
        System.out.printf("%-44s %16d %16d%n", "failed", failures.get(), responseFailures.get());
        System.out.printf(
                "%-44s %16.1f %16.1f%n", "completions / s", sorted.size() / wall, sortedResponses.size() / wall);
        System.out.printf(
                "%-44s %16.1f %16.1f%n", "latency p50 ms", percentile(sorted, 0.50), percentile(sortedResponses, 0.50));
        System.out.printf(
                "%-44s %16.1f %16.1f%n", "latency p99 ms", percentile(sorted, 0.99), percentile(sortedResponses, 0.99));
        System.out.printf(
                "%-44s %16.1f %16.1f%n", "latency max ms", percentile(sorted, 1.0), percentile(sortedResponses, 1.0));
        List<Long> sortedFirst = new ArrayList<>(firstTurns);
        Collections.sort(sortedFirst);
        List<Long> sortedLater = new ArrayList<>(laterTurns);
        Collections.sort(sortedLater);
        System.out.printf(
                "%-44s %16.1f %16.1f%n",
                "both routes: first turns p50, max ms", percentile(sortedFirst, 0.50), percentile(sortedFirst, 1.0));
        System.out.printf(
                "%-44s %16.1f %16.1f%n",
                "both routes, later turns: p50, p99 ms", percentile(sortedLater, 0.50), percentile(sortedLater, 0.99));
        System.out.printf("%-44s %16s%n", "streams that saw their run complete", sawEnd.get() + " / " + subscribers);
        System.out.printf("%-44s %16.0f%n", "peak heap MiB", heap.peakUsedBytes() / 1048576.0);
    }

    /** Holds a run's event stream open until the run completes; counts it if the stream showed that. */
    private static void follow(
            HttpClient http, URI base, String key, String runId, CountDownLatch opened, AtomicInteger sawEnd) {
        HttpRequest request = HttpRequest.newBuilder(base.resolve("api/runs/" + runId + "/events"))
                .header("Authorization", "Bearer " + key)
                .header("Accept", "text/event-stream")
                .GET()
                .build();
        boolean counted = false;
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader lines =
                    new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (!counted && line.startsWith("event:")) {
                        opened.countDown();
                        counted = true;
                    }
                    if (line.equals("event:run.completed")) {
                        sawEnd.incrementAndGet();
                    }
                }
            }
        } catch (IOException e) {
            System.err.println("server: a stream failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!counted) {
                opened.countDown();
            }
        }
    }

    private static boolean chat(HttpClient http, URI base, String key, String message, boolean stream) {
        String body = Json.write(Json.object()
                .put("model", "memo")
                .put("stream", stream)
                .set(
                        "messages",
                        Json.mapper()
                                .createArrayNode()
                                .add(Json.object().put("role", "user").put("content", message))));
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(base.resolve("v1/chat/completions"))
                            .header("Authorization", "Bearer " + key)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (response.statusCode() != 200) {
                return false;
            }
            if (stream) {
                return response.body().strip().endsWith("data: [DONE]");
            }
            JsonNode answer = Json.parse(response.body(), "completion");
            return !answer.path("choices")
                    .path(0)
                    .path("message")
                    .path("content")
                    .asText()
                    .isEmpty();
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * One turn over {@code /v1/responses}: answered when a plain response is completed with its text,
     * or a stream ends with {@code response.completed}.
     */
    private static boolean respond(HttpClient http, URI base, String key, String message, boolean stream) {
        String body = Json.write(
                Json.object().put("model", "memo").put("stream", stream).put("input", message));
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(base.resolve("v1/responses"))
                            .header("Authorization", "Bearer " + key)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (response.statusCode() != 200) {
                return false;
            }
            if (stream) {
                return response.body().contains("event: response.completed");
            }
            JsonNode answer = Json.parse(response.body(), "response");
            return answer.path("status").asText().equals("completed")
                    && !answer.path("output_text").asText().isEmpty();
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void post(HttpClient http, URI uri, String key, String json) {
        try {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(uri)
                            .header("Authorization", "Bearer " + key)
                            .POST(HttpRequest.BodyPublishers.ofString(json))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200
                    || !Json.parse(response.body(), "run")
                            .path("status")
                            .asText()
                            .equals(RunStatus.COMPLETED.name())) {
                System.err.println("server: resuming " + uri + " answered " + response.statusCode());
            }
        } catch (IOException e) {
            System.err.println("server: resuming " + uri + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(List<Thread> threads) {
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static double percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int index = (int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1);
        return sorted.get(Math.max(0, index)) / 1e6;
    }
}
