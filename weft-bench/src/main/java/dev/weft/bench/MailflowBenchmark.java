package dev.weft.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.mailflow.Mailflow;
import dev.weft.mailflow.Venue;
import dev.weft.server.WeftServer;
import dev.weft.store.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code weft-bench mailflow [--emails N] [--clients C] [--duplicates D]}: the email agent from webhook
 * to reply, on SQLite, over real HTTP on 127.0.0.1 with the offline agent. N distinct inquiries (English
 * and Hebrew) are posted to {@code /webhook/imap}, signed, first one at a time and then by C clients at
 * once; each answer is the run's result with its reply (the venue has no mailbox, so nothing is sent
 * over SMTP). Prints emails per second and the latency from request to reply (p50, p99, max). Then D
 * clients post one and the same email at the same moment, and the store must hold exactly one run of
 * it. Results go to stdout, progress to stderr.
 */
public final class MailflowBenchmark {
    private static final String USAGE =
            "usage: weft-bench mailflow [--emails N] [--clients C] [--duplicates D]   (defaults 500, 8, 100)";

    private static final Map<String, NumericOptions.Option> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("emails", new NumericOptions.Option(500, 1));
        OPTIONS.put("clients", new NumericOptions.Option(8, 1));
        OPTIONS.put("duplicates", new NumericOptions.Option(100, 2));
    }

    private static final List<String> TEXTS = List.of(
            "Hi, we are planning our wedding on Saturday, 12 December 2026 for about 120 guests. Is anything free?",
            "Do you have availability on the 14th of May for around 50 people? Budget is $5,000.",
            "Is the venue free on either June 5 or June 12? We'd be about 150.",
            "שלום, אנחנו מתכננים חתונה ב-12 בדצמבר 2026, כ-120 אורחים. יש לכם מקום?",
            "היי, מעוניינים לערוך בר מצווה ביום שישי הבא לכ-80 איש.",
            "Hi there, could you tell me if you have space for a birthday party? There will be 25 of us.");

    private MailflowBenchmark() {}

    public static void run(String[] args) {
        NumericOptions options = NumericOptions.parse(args, OPTIONS, USAGE);
        int emails = options.intValue("emails");
        int clients = options.intValue("clients");
        int duplicates = options.intValue("duplicates");
        Path dir;
        try {
            dir = Files.createTempDirectory("weft-bench-mailflow");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (RunStore store = Stores.open("sqlite:" + dir.resolve("weft.db"))) {
            Mailflow mailflow = Mailflow.builder()
                    .store(store)
                    .keyFile(dir.resolve("mail.key"))
                    .build();
            String secret = mailflow.addVenue(new Mailflow.VenueSettings(
                            "bench",
                            Optional.of("bench-org"),
                            "Olive Grove",
                            "events@olivegrove.example",
                            Optional.of(ZoneId.of("Asia/Jerusalem")),
                            Optional.of("en"),
                            Optional.empty(),
                            Optional.of(List.of(new Venue.Room("Garden", 150), new Venue.Room("Hall", 200))),
                            Optional.of(List.of(new Venue.Booking("Hall", LocalDate.parse("2026-12-12")))),
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty()))
                    .webhookSecret()
                    .orElseThrow();
            WeftServer server = WeftServer.builder()
                    .store(store)
                    .mailflow(s -> mailflow)
                    .port(0)
                    .reminders(false)
                    .recoveryInterval(Duration.ZERO)
                    .webhookInterval(Duration.ZERO)
                    .start();
            try {
                HttpClient http = HttpClient.newBuilder()
                        .executor(Executors.newVirtualThreadPerTaskExecutor())
                        .build();
                URI hook = server.uri().resolve("webhook/imap?venue=bench");
                // warm up the JIT and the connection pool on emails that are not measured
                for (int i = 0; i < Math.min(200, emails); i++) {
                    post(http, hook, secret, email("warm-" + i, i));
                }
                System.err.println("mailflow: warmed up; measuring " + emails + " emails one at a time");
                List<Long> serial = new ArrayList<>();
                long start = System.nanoTime();
                for (int i = 0; i < emails; i++) {
                    long t = System.nanoTime();
                    post(http, hook, secret, email("serial-" + i, i));
                    serial.add(System.nanoTime() - t);
                }
                double serialSeconds = (System.nanoTime() - start) / 1e9;
                System.err.println("mailflow: measuring " + emails + " emails from " + clients + " clients");
                List<Long> parallel = Collections.synchronizedList(new ArrayList<>());
                AtomicInteger next = new AtomicInteger();
                long pstart = System.nanoTime();
                try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
                    for (int c = 0; c < clients; c++) {
                        pool.submit(() -> {
                            int i;
                            while ((i = next.getAndIncrement()) < emails) {
                                long t = System.nanoTime();
                                post(http, hook, secret, email("parallel-" + i, i));
                                parallel.add(System.nanoTime() - t);
                            }
                            return null;
                        });
                    }
                }
                double parallelSeconds = (System.nanoTime() - pstart) / 1e9;
                System.err.println("mailflow: " + duplicates + " deliveries of one email at once");
                byte[] same = email("the-same-one", 0);
                CountDownLatch go = new CountDownLatch(1);
                Set<String> runIds = Collections.synchronizedSet(new HashSet<>());
                long dstart;
                try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                    List<Future<?>> all = new ArrayList<>();
                    for (int d = 0; d < duplicates; d++) {
                        all.add(pool.submit(() -> {
                            go.await();
                            runIds.add(
                                    post(http, hook, secret, same).path("runId").asText());
                            return null;
                        }));
                    }
                    dstart = System.nanoTime();
                    go.countDown();
                    for (Future<?> f : all) {
                        f.get();
                    }
                } catch (Exception e) {
                    throw new IllegalStateException("a duplicate delivery failed: " + e.getMessage(), e);
                }
                double duplicateMillis = (System.nanoTime() - dstart) / 1e6;
                long runsOfIt = store.listRuns(Optional.empty()).stream()
                        .filter(r -> r.input()
                                .path("email")
                                .path("messageId")
                                .asText()
                                .contains("the-same-one"))
                        .count();
                System.out.println("weft-bench mailflow: offline venue agent, SQLite, POST /webhook/imap on 127.0.0.1");
                System.out.printf("%-34s %10s %10s %10s %10s%n", "", "emails/s", "p50 ms", "p99 ms", "max ms");
                row("one at a time (" + emails + ")", emails / serialSeconds, serial);
                row(clients + " clients (" + emails + ")", emails / parallelSeconds, parallel);
                System.out.printf(
                        "%d deliveries of one email at once: %d run(s) (distinct run ids answered: %d), %.0f ms%n",
                        duplicates, runsOfIt, runIds.size(), duplicateMillis);
                if (runsOfIt != 1 || runIds.size() != 1) {
                    throw new IllegalStateException(
                            "one email delivered " + duplicates + " times started " + runsOfIt + " runs");
                }
            } finally {
                server.close();
            }
        }
    }

    private static void row(String label, double perSecond, List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        System.out.printf(
                "%-34s %10.1f %10.2f %10.2f %10.2f%n",
                label,
                perSecond,
                sorted.get(sorted.size() / 2) / 1e6,
                sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1)) / 1e6,
                sorted.get(sorted.size() - 1) / 1e6);
    }

    private static byte[] email(String id, int i) {
        String text = TEXTS.get(i % TEXTS.size());
        return ("Message-ID: <" + id + "@bench.example>\r\nFrom: Guest " + i + " <guest" + i + "@example.com>\r\n"
                        + "To: events@olivegrove.example\r\nSubject: Inquiry " + i + "\r\nMIME-Version: 1.0\r\n"
                        + "Content-Type: text/plain; charset=UTF-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + text
                        + "\r\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode post(HttpClient http, URI hook, String secret, byte[] body) {
        HttpRequest request = HttpRequest.newBuilder(hook)
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "message/rfc822")
                .header("X-Weft-Signature", Mailflow.signature(secret, body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException(
                        "the webhook answered " + response.statusCode() + ": " + response.body());
            }
            JsonNode answer = Json.parse(response.body(), "the webhook's answer");
            if (answer.path("reply").isNull() && !answer.path("duplicate").asBoolean()) {
                throw new IllegalStateException("no reply was written: " + response.body());
            }
            return answer;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
