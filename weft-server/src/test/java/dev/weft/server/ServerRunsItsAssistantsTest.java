package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.BackgroundService;
import dev.weft.assistant.Message;
import dev.weft.assistant.Notices;
import dev.weft.assistant.Turn;
import dev.weft.core.Graph;
import dev.weft.core.Run;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.ToolRegistry;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server names no assistant: it serves those it is given, or those on the class path, and starts
 * what each does in the background and the notices each makes through the {@link Assistant} interface,
 * stopping them when it stops.
 */
final class ServerRunsItsAssistantsTest {
    @TempDir
    Path dir;

    @Test
    void withNoAssistantsNamedItServesThoseOnTheClassPathAndRunsTheirServices() {
        try (RunStore store = Stores.open("sqlite:" + dir.resolve("weft.db"))) {
            WeftServer server = WeftServer.builder()
                    .store(store)
                    .port(0)
                    .reminders(false)
                    .recoveryInterval(Duration.ZERO)
                    .webhookInterval(Duration.ZERO)
                    .housekeeping(Duration.ZERO)
                    .start();
            try {
                String key = ApiKeys.open(store)
                        .create("dana", false, java.time.Instant.now())
                        .secret();
                ServerFixture.Answer listed = get(server, "api/assistants", key);

                assertThat(listed.body().path("assistants").findValuesAsText("name"))
                        .contains("memo", "concierge");
                assertThat(server.services()).contains("memo/calendar-sync").doesNotContain("memo/mail-watch");
            } finally {
                server.close();
            }
        }
    }

    @Test
    void aServiceWhoseIntervalIsZeroIsNotStarted() {
        Recorder recorder = new Recorder();
        try (ServerFixture fixture = new ServerFixture(
                dir, builder -> builder.assistants(Assistants.of(recorder)).serviceInterval("tidy", Duration.ZERO))) {
            assertThat(fixture.server.services()).isEmpty();
        }
        assertThat(recorder.events).isEmpty();
    }

    @Test
    void itStartsEachAssistantsServicesForEveryoneAndItsNoticesAndStopsThemWhenItStops() {
        Recorder recorder = new Recorder();
        WeftServer server;
        try (RunStore store = Stores.open("sqlite:" + dir.resolve("weft.db"))) {
            server = WeftServer.builder()
                    .store(store)
                    .assistants(Assistants.of(recorder))
                    .serviceInterval("tidy", Duration.ofMinutes(5))
                    .port(0)
                    .recoveryInterval(Duration.ZERO)
                    .webhookInterval(Duration.ZERO)
                    .housekeeping(Duration.ZERO)
                    .start();
            List<String> whileServing = List.copyOf(recorder.events);
            server.close();

            assertThat(whileServing)
                    .containsExactlyInAnyOrder("notices started", "tidy started every PT5M for Everyone[]");
            assertThat(server.services()).containsExactly("recorder/tidy");
            assertThat(recorder.events).contains("notices stopped", "tidy stopped");
            assertThat(recorder.events).doesNotContain("watch started");
        }
    }

    @Test
    void itWarmsEachAssistantUpWhenItStarts() throws InterruptedException {
        Recorder recorder = new Recorder();
        ServerFixture fixture = new ServerFixture(dir, builder -> builder.assistants(Assistants.of(recorder)));
        try {
            assertThat(recorder.warmed.await(30, java.util.concurrent.TimeUnit.SECONDS))
                    .as("the server asked the assistant to warm up")
                    .isTrue();
        } finally {
            fixture.close();
        }
    }

    private static ServerFixture.Answer get(WeftServer server, String path, String key) {
        try {
            java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
                    .send(
                            java.net.http.HttpRequest.newBuilder(server.uri().resolve(path))
                                    .header("Authorization", "Bearer " + key)
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
            return new ServerFixture.Answer(
                    response.statusCode(), dev.weft.core.Json.parse(response.body(), "the answer"), response);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** An assistant that records what is started and stopped of it: a service, one on request, notices. */
    private static final class Recorder implements Assistant {
        final List<String> events = new CopyOnWriteArrayList<>();
        final java.util.concurrent.CountDownLatch warmed = new java.util.concurrent.CountDownLatch(1);

        @Override
        public void warmUp() {
            warmed.countDown();
        }

        @Override
        public String name() {
            return "recorder";
        }

        @Override
        public String description() {
            return "records what the server starts";
        }

        @Override
        public List<BackgroundService> services() {
            return List.of(
                    new BackgroundService("tidy", "tidies", Duration.ofSeconds(30), false, (every, scope, tell) -> {
                        events.add("tidy started every " + every + " for " + scope);
                        return () -> events.add("tidy stopped");
                    }),
                    new BackgroundService("watch", "watches", Duration.ofSeconds(30), true, (every, scope, tell) -> {
                        events.add("watch started");
                        return () -> {};
                    }));
        }

        @Override
        public Optional<Notices> notices() {
            return Optional.of(new Notices() {
                @Override
                public List<Notices.Notice> recent(String user, int count) {
                    return List.of();
                }

                @Override
                public void onNotice(Runnable listener) {}

                @Override
                public AutoCloseable start(String processName) {
                    events.add("notices started");
                    return () -> events.add("notices stopped");
                }
            });
        }

        @Override
        public Turn converse(Runner runner, Message message) {
            throw new UnsupportedOperationException("nobody talks to the recorder");
        }

        @Override
        public Turn approve(Runner runner, String user, String runId, List<String> steps) {
            throw new UnsupportedOperationException("nobody talks to the recorder");
        }

        @Override
        public Turn reject(Runner runner, String user, String runId) {
            throw new UnsupportedOperationException("nobody talks to the recorder");
        }

        @Override
        public Turn answer(Runner runner, String user, String runId, String text) {
            throw new UnsupportedOperationException("nobody talks to the recorder");
        }

        @Override
        public ToolRegistry tools() {
            return ToolRegistry.of();
        }

        @Override
        public boolean owns(Run run) {
            return false;
        }

        @Override
        public Optional<Graph> graphOf(Run run) {
            return Optional.empty();
        }
    }
}
