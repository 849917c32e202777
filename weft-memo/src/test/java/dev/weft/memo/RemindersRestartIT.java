package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Notifications.Notification;
import dev.weft.memo.data.OperationContext;
import dev.weft.memo.data.TaskOperations;
import dev.weft.store.Stores;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real restart: a process firing reminders is killed, one reminder falls due while none runs, and
 * the next process fires it, late, without firing again the one that fired before the kill.
 */
final class RemindersRestartIT {
    @TempDir
    Path dir;

    @Test
    void aReminderDueWhileTheProcessWasDeadFiresLateOnRestartAndNoneFiresTwice() throws Exception {
        String url = "sqlite:" + dir.resolve("memo.db");
        try (RunStore store = Stores.open(url)) {
            MemoData.open(store).user("dana", "en", ZoneOffset.UTC, Instant.now());
        }
        // The reminders are set once the first process runs, so how long a JVM takes to start (long,
        // on a loaded machine) does not make the first one late.
        Worker first = Worker.start(url);
        Instant t0 = Instant.now();
        String soon;
        String later;
        try (RunStore store = Stores.open(url)) {
            MemoData data = MemoData.open(store);
            Reminders reminders = new Reminders(data, Instant::now);
            soon = create(data, reminders, "stretch", t0.plusSeconds(3), "k1");
            later = create(data, reminders, "call mom", t0.plusSeconds(10), "k2");
        }
        assertThat(first.next(Duration.ofSeconds(30))).isEqualTo("fired " + soon + " late=false");
        first.process.destroyForcibly();
        assertThat(first.process.waitFor(30, TimeUnit.SECONDS)).isTrue();

        while (Instant.now().isBefore(t0.plusSeconds(13))) {
            Thread.sleep(200);
        }
        Worker second = Worker.start(url);
        assertThat(second.next(Duration.ofSeconds(30))).isEqualTo("fired " + later + " late=true");
        assertThat(second.next(Duration.ofSeconds(3))).as("nothing fires twice").isNull();
        second.process.destroyForcibly();
        second.process.waitFor(30, TimeUnit.SECONDS);

        try (RunStore store = Stores.open(url)) {
            List<Notification> kept = MemoData.open(store).notifications().recent("dana", 10);
            assertThat(kept).extracting(Notification::sourceId).containsExactly(soon, later);
            assertThat(kept).extracting(Notification::late).containsExactly(false, true);
        }
    }

    private static String create(MemoData data, Reminders reminders, String text, Instant due, String key) {
        ObjectNode args = Json.object();
        args.put("operation", "create");
        args.put("text", text);
        args.put("dueDate", due.atOffset(ZoneOffset.UTC).toString());
        args.put("reminder", "0 minutes");
        ObjectNode result =
                new TaskOperations(data).apply(args, new OperationContext("dana", ZoneOffset.UTC, Instant.now(), key));
        String id = result.path("task").path("id").asText();
        reminders.sync("dana", Set.of(id), Instant.now());
        return id;
    }

    /** A {@link ReminderWorker} process and the lines it prints after "started". */
    private record Worker(Process process, BlockingQueue<String> lines) {
        static Worker start(String url) throws Exception {
            Process process = new ProcessBuilder(
                            ProcessHandle.current().info().command().orElse("java"),
                            "--enable-native-access=ALL-UNNAMED",
                            "-cp",
                            System.getProperty("java.class.path"),
                            ReminderWorker.class.getName(),
                            url)
                    .redirectErrorStream(true)
                    .start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null && !line.equals("started")) {
                // the JVM's start-up chatter
            }
            assertThat(line).as("worker output before it died").isEqualTo("started");
            Thread.ofPlatform().daemon().start(() -> {
                try {
                    for (String l; (l = in.readLine()) != null; ) {
                        if (l.startsWith("fired ")) {
                            lines.add(l);
                        }
                    }
                } catch (java.io.IOException ended) {
                    // the process was killed
                }
            });
            return new Worker(process, lines);
        }

        /** The next "fired" line within {@code wait}, or null. */
        String next(Duration wait) throws InterruptedException {
            return lines.poll(wait.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
