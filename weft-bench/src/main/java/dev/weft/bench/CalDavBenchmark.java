package dev.weft.bench;

import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.Memo;
import dev.weft.memo.Radicale;
import dev.weft.memo.data.CalDavSync;
import dev.weft.memo.data.CalendarAccounts;
import dev.weft.plan.PlanMode;
import dev.weft.store.Stores;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code weft-bench caldav [--events N] [--changes C] [--rounds R] [--interval S]}: Memo's CalDAV sync
 * against Debian's Radicale on the loopback. The time of a first sync of a calendar of N events (1,000
 * by default) into a fresh SQLite store, and of a sync after C of them changed on the server (10),
 * each beside the floor: the same requests (PROPFIND, calendar-multiget in batches of 200; sync-collection
 * and a multiget of the changed) made with the JDK's HTTP client alone, nothing parsed or stored. Then
 * the time from an event put on the server to Memo answering "what do I have tomorrow?" with it, with
 * the background sync every S seconds (5 by default; Memo's default is 30). Median and worst of R
 * rounds. Results go to stdout, progress to stderr.
 */
public final class CalDavBenchmark {
    private static final String USAGE =
            "usage: weft-bench caldav [--events N] [--changes C] [--rounds R] [--interval S]"
                    + "   (defaults 1000, 10, 5, 5)";
    private static final String USER = "bench";
    private static final String PASSWORD = "bench-pw";
    private static final String CALENDAR = "work";
    private static final ZoneId ZONE = ZoneId.of("Asia/Jerusalem");
    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'");
    private static final Pattern HREF = Pattern.compile("<(?:[A-Za-z]+:)?href>([^<]+\\.ics)</(?:[A-Za-z]+:)?href>");
    private static final Pattern TOKEN = Pattern.compile("<(?:[A-Za-z]+:)?sync-token>([^<]+)</");

    private static final Map<String, NumericOptions.Option> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("events", new NumericOptions.Option(1000, 10));
        OPTIONS.put("changes", new NumericOptions.Option(10, 1));
        OPTIONS.put("rounds", new NumericOptions.Option(5, 1));
        OPTIONS.put("interval", new NumericOptions.Option(5, 1));
    }

    private CalDavBenchmark() {}

    public static void run(String[] args) {
        NumericOptions options = NumericOptions.parse(args, OPTIONS, USAGE);
        int events = options.intValue("events");
        int changes = Math.min(options.intValue("changes"), events);
        int rounds = options.intValue("rounds");
        int interval = options.intValue("interval");
        Path dir;
        try {
            dir = Files.createTempDirectory("weft-bench-caldav");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        try (Radicale radicale = Radicale.start(dir.resolve("radicale"), Map.of(USER, PASSWORD))) {
            radicale.makeCalendar(USER, "Work");
            System.err.println("caldav: putting " + events + " events on Radicale...");
            Instant first = Instant.parse("2026-12-01T07:00:00Z");
            for (int i = 0; i < events; i++) {
                radicale.put(
                        USER,
                        CALENDAR,
                        "e" + i + ".ics",
                        event("e" + i, "Event " + i, first.plus(Duration.ofHours(i))));
            }
            Floor floor = new Floor(radicale.calendar(USER, CALENDAR));
            List<Double> memoFirst = new ArrayList<>();
            List<Double> bareFirst = new ArrayList<>();
            List<Double> memoNext = new ArrayList<>();
            List<Double> bareNext = new ArrayList<>();
            List<Double> answered = new ArrayList<>();
            for (int round = 0; round < rounds + 1; round++) {
                System.err.println("caldav: round " + round + (round == 0 ? " (warm-up)" : ""));
                Path db = dir.resolve("memo-" + round + ".db");
                try (RunStore store = Stores.open("sqlite:" + db)) {
                    Memo memo = Memo.open(store);
                    memo.data().calendars().secrets().useKeyFile(dir.resolve("mail.key"));
                    memo.data().user(USER, "en", ZONE, Instant.now());
                    memo.data()
                            .caldav()
                            .connect(
                                    USER,
                                    radicale.url().toString(),
                                    USER,
                                    CalendarAccounts.Auth.PASSWORD,
                                    PASSWORD,
                                    Optional.of("Work"),
                                    ZONE,
                                    Instant.now());
                    long start = System.nanoTime();
                    CalDavSync.Report report = memo.calendar().sync(USER);
                    double memoFull = millis(start);
                    if (report.pulled() != events) {
                        throw new IllegalStateException("the first sync took " + report.pulled() + " of " + events);
                    }
                    start = System.nanoTime();
                    String token = floor.full();
                    double bareFull = millis(start);

                    for (int i = 0; i < changes; i++) {
                        int which = (round * changes + i) % events;
                        radicale.put(
                                USER,
                                CALENDAR,
                                "e" + which + ".ics",
                                event(
                                        "e" + which,
                                        "Event " + which + " moved " + round,
                                        first.plus(Duration.ofHours(which + 1))));
                    }
                    start = System.nanoTime();
                    report = memo.calendar().sync(USER);
                    double memoIncremental = millis(start);
                    if (report.full() || report.pulled() != changes) {
                        throw new IllegalStateException("the incremental sync was " + report);
                    }
                    start = System.nanoTime();
                    floor.since(token);
                    double bareIncremental = millis(start);

                    double latency = changeToAnswer(radicale, memo, store, interval, round);
                    radicale.delete(USER, CALENDAR, "fresh" + round + ".ics");
                    if (round > 0) {
                        memoFirst.add(memoFull);
                        bareFirst.add(bareFull);
                        memoNext.add(memoIncremental);
                        bareNext.add(bareIncremental);
                        answered.add(latency);
                    }
                }
            }
            System.out.printf(
                    "caldav on Debian's Radicale (loopback), %d events, %d changed, %d rounds (median / worst, ms)%n",
                    events, changes, rounds);
            System.out.printf("%-44s %10s %10s%n", "", "median", "worst");
            line("first sync, Memo (into SQLite)", memoFirst);
            line("first sync, bare HTTP client (floor)", bareFirst);
            line("incremental sync, Memo", memoNext);
            line("incremental sync, bare HTTP client (floor)", bareNext);
            line("server change -> Memo's answer (sync every " + interval + " s)", answered);
        } finally {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                // a temporary folder left behind
            }
        }
    }

    /** Puts a new event for tomorrow on the server and waits for Memo's answer to name it. */
    private static double changeToAnswer(Radicale radicale, Memo memo, RunStore store, int interval, int round) {
        Runner runner = Runner.builder().store(store).time(TimeSource.system()).build();
        ZonedDateTime tomorrow = ZonedDateTime.now(ZONE)
                .plusDays(1)
                .withHour(12)
                .withMinute(0)
                .withSecond(0)
                .withNano(0);
        String summary = "Fresh " + round;
        AutoCloseable sync = memo.calendar().start(Duration.ofSeconds(interval), () -> List.of(USER), (u, e) -> {
            System.err.println("caldav: sync failed: " + e.getMessage());
        });
        try {
            Thread.sleep(200 + (long) (Math.random() * interval * 1000));
            long start = System.nanoTime();
            radicale.put(
                    USER, CALENDAR, "fresh" + round + ".ics", event("fresh" + round, summary, tomorrow.toInstant()));
            while (memo.data().events().find(USER, "fresh" + round).isEmpty()) {
                Thread.sleep(5);
            }
            String reply = memo.ask(
                            runner,
                            new Memo.Request(USER, "what do I have tomorrow?", Optional.of(ZONE), PlanMode.AUTO))
                    .text();
            double took = millis(start);
            if (!reply.contains(summary)) {
                throw new IllegalStateException("Memo's answer does not name the new event: " + reply);
            }
            return took;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            try {
                sync.close();
            } catch (Exception e) {
                System.err.println("caldav: the sync did not stop: " + e);
            }
        }
    }

    private static String event(String uid, String summary, Instant start) {
        return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Bench//EN\r\nBEGIN:VEVENT\r\nUID:" + uid
                + "\r\nDTSTAMP:20261124T080000Z\r\nDTSTART:" + UTC.format(start.atZone(java.time.ZoneOffset.UTC))
                + "\r\nDTEND:" + UTC.format(start.plus(Duration.ofHours(1)).atZone(java.time.ZoneOffset.UTC))
                + "\r\nSUMMARY:" + summary + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
    }

    private static double millis(long start) {
        return (System.nanoTime() - start) / 1e6;
    }

    private static void line(String what, List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        System.out.printf("%-44s %10.1f %10.1f%n", what, sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1));
    }

    /** The same requests as Memo's sync, with the JDK's HTTP client alone: nothing parsed but the hrefs, nothing stored. */
    private static final class Floor {
        private final URI calendar;
        private final HttpClient http = HttpClient.newHttpClient();
        private final String auth =
                "Basic " + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));

        Floor(URI calendar) {
            this.calendar = calendar;
        }

        /** PROPFIND the ETags and token, then calendar-multiget every object in batches of 200; the token. */
        String full() {
            String listing = send(
                    "PROPFIND",
                    "<?xml version=\"1.0\"?><d:propfind xmlns:d=\"DAV:\"><d:prop><d:getetag/><d:sync-token/>"
                            + "<d:resourcetype/></d:prop></d:propfind>",
                    "1");
            multiget(hrefs(listing));
            Matcher token = TOKEN.matcher(listing);
            return token.find() ? token.group(1) : "";
        }

        /** sync-collection from {@code token}, then a multiget of what changed. */
        void since(String token) {
            String changed = send(
                    "REPORT",
                    "<?xml version=\"1.0\"?><d:sync-collection xmlns:d=\"DAV:\"><d:sync-token>" + token
                            + "</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop>"
                            + "</d:sync-collection>",
                    "1");
            multiget(hrefs(changed));
        }

        private void multiget(List<String> hrefs) {
            for (int i = 0; i < hrefs.size(); i += 200) {
                StringBuilder body = new StringBuilder("<?xml version=\"1.0\"?><c:calendar-multiget xmlns:d=\"DAV:\""
                        + " xmlns:c=\"urn:ietf:params:xml:ns:caldav\"><d:prop><d:getetag/><c:calendar-data/></d:prop>");
                hrefs.subList(i, Math.min(hrefs.size(), i + 200))
                        .forEach(h -> body.append("<d:href>").append(h).append("</d:href>"));
                send("REPORT", body.append("</c:calendar-multiget>").toString(), "1");
            }
        }

        private static List<String> hrefs(String multistatus) {
            List<String> found = new ArrayList<>();
            Matcher href = HREF.matcher(multistatus);
            while (href.find()) {
                found.add(href.group(1));
            }
            return found;
        }

        private String send(String method, String body, String depth) {
            HttpRequest request = HttpRequest.newBuilder(calendar)
                    .header("Authorization", auth)
                    .header("Depth", depth)
                    .header("Content-Type", "application/xml; charset=utf-8")
                    .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                    .build();
            try {
                try {
                    return http.send(request, HttpResponse.BodyHandlers.ofString())
                            .body();
                } catch (IOException stale) {
                    // Radicale closes each connection (HTTP/1.0), as Memo's client also allows for
                    return http.send(request, HttpResponse.BodyHandlers.ofString())
                            .body();
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
