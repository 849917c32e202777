package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.workflow.Workflow;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code /api/runs} over real HTTP: listing, showing, following, continuing, and one user never seeing another's. */
final class RunsApiTest {
    private static final Path APPROVAL = Path.of("../examples/workflows/approval.json");

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

    private String waitingMemoRun() {
        fixture.ask(fixture.dana, "remind me tomorrow at 9 to call the bank");
        JsonNode waiting = fixture.ask(fixture.dana, "delete all my reminders");
        assertThat(waiting.path("status").asText()).isEqualTo("WAITING");
        return waiting.path("runId").asText();
    }

    private RunResult waitingWorkflowRun(String user) {
        Workflow workflow = Workflow.load(APPROVAL);
        return fixture.server
                .runner()
                .run(
                        workflow.graph(),
                        RunRequest.builder()
                                .input(Json.parse("{\"amount\": 150}", "input"))
                                .source(workflow.definition().toJson())
                                .user(user)
                                .build());
    }

    @Test
    void listsTheCallersRunsNewestFirstWithFiltersAndPages() {
        String waiting = waitingMemoRun();
        fixture.ask(fixture.omer, "what are my tasks?");

        JsonNode all = fixture.get("api/runs", fixture.dana).body();
        JsonNode onlyWaiting =
                fixture.get("api/runs?status=waiting", fixture.dana).body();
        JsonNode firstPage = fixture.get("api/runs?limit=1", fixture.dana).body();
        JsonNode secondPage =
                fixture.get("api/runs?limit=1&offset=1", fixture.dana).body();

        assertThat(all.path("total").asInt()).isEqualTo(2);
        assertThat(all.path("runs"))
                .allSatisfy(run -> assertThat(run.path("user").asText()).isEqualTo("dana"));
        assertThat(all.path("runs").get(0).path("runId").asText()).isEqualTo(waiting);
        assertThat(onlyWaiting.path("runs")).hasSize(1);
        assertThat(firstPage.path("runs")).hasSize(1);
        assertThat(firstPage.path("nextOffset").asInt()).isEqualTo(1);
        assertThat(secondPage.path("nextOffset").isNull()).isTrue();
        assertThat(fixture.get("api/runs?user=omer", fixture.dana).body().path("runs"))
                .isEmpty();
        assertThat(fixture.get("api/runs", fixture.admin).body().path("total").asInt())
                .isEqualTo(3);
        assertThat(fixture.get("api/runs?user=omer", fixture.admin)
                        .body()
                        .path("total")
                        .asInt())
                .isEqualTo(1);
        assertThat(fixture.get("api/runs?status=sleeping", fixture.dana).code()).isEqualTo("E_BAD_INPUT");
        assertThat(fixture.get("api/runs?limit=0", fixture.dana).code()).isEqualTo("E_BAD_INPUT");
    }

    @Test
    void showsARunWithItsStepsAndAPageOfItsEvents() {
        String runId = waitingMemoRun();

        JsonNode run = fixture.get("api/runs/" + runId, fixture.dana).body();
        JsonNode events =
                fixture.get("api/runs/" + runId + "/events", fixture.dana).body();
        JsonNode later = fixture.get("api/runs/" + runId + "/events?after=2&limit=1", fixture.dana)
                .body();

        assertThat(run.path("status").asText()).isEqualTo("WAITING");
        assertThat(run.path("user").asText()).isEqualTo("dana");
        assertThat(run.path("steps")).isNotEmpty();
        assertThat(run.path("interrupts").isObject()).isTrue();
        assertThat(events.path("events").get(0).path("sequence").asLong()).isEqualTo(1);
        assertThat(events.path("events").get(0).path("type").asText()).isEqualTo("run.started");
        assertThat(later.path("events")).hasSize(1);
        assertThat(later.path("events").get(0).path("sequence").asLong()).isEqualTo(3);
        assertThat(later.path("nextAfter").asLong()).isEqualTo(3);
    }

    @Test
    void approvingAWaitingMemoRunCarriesItOutAndAnswersWithMemosReply() {
        String runId = waitingMemoRun();

        ServerFixture.Answer done = fixture.post("api/runs/" + runId + "/approve", fixture.dana, "{}");

        assertThat(done.status()).isEqualTo(200);
        assertThat(done.body().path("status").asText()).isEqualTo("COMPLETED");
        assertThat(done.body().path("reply").asText()).isEqualTo("Deleted 1 task.");
        assertThat(fixture.post("api/runs/" + runId + "/approve", fixture.dana, "{}")
                        .code())
                .isEqualTo("E_RUN_STATE");
    }

    @Test
    void rejectingAWaitingMemoRunDoesNothingOfIt() {
        String runId = waitingMemoRun();

        ServerFixture.Answer rejected = fixture.post("api/runs/" + runId + "/reject", fixture.dana, "");

        assertThat(rejected.status()).isEqualTo(200);
        assertThat(rejected.body().path("status").asText()).isNotEqualTo("WAITING");
        assertThat(fixture.get("api/memo/tasks", fixture.dana).body().path("tasks"))
                .hasSize(1);
    }

    @Test
    void aQuestionIsAnsweredThroughTheApi() {
        fixture.ask(fixture.dana, "remind me tomorrow at 9 to call Dana about the report");
        fixture.ask(fixture.dana, "remind me in two weeks to call Dana about the trip");
        String runId = fixture.ask(fixture.dana, "delete the reminder to call Dana")
                .path("runId")
                .asText();

        ServerFixture.Answer done = fixture.post("api/runs/" + runId + "/answer", fixture.dana, "{\"text\": \"2\"}");

        assertThat(done.body().path("reply").asText()).isEqualTo("Deleted \"call Dana about the trip\".");
    }

    @Test
    void aWaitingWorkflowRunIsResumedApprovedAndCancelledThroughTheApi() {
        RunResult first = waitingWorkflowRun("dana");
        RunResult second = waitingWorkflowRun("dana");
        assertThat(first.status().name()).isEqualTo("WAITING");

        ServerFixture.Answer resumed =
                fixture.post("api/runs/" + first.runId() + "/resume", fixture.dana, "{\"input\": {\"by\": \"maya\"}}");
        ServerFixture.Answer cancelled = fixture.post("api/runs/" + second.runId() + "/cancel", fixture.dana, "{}");

        assertThat(resumed.status()).isEqualTo(200);
        assertThat(resumed.body().path("status").asText()).isEqualTo("COMPLETED");
        assertThat(resumed.body()
                        .path("outputs")
                        .path("refund")
                        .path("approvedBy")
                        .asText())
                .isEqualTo("maya");
        assertThat(cancelled.body().path("status").asText()).isEqualTo("CANCELLED");
        assertThat(fixture.post("api/runs/" + second.runId() + "/cancel", fixture.dana, "{}")
                        .status())
                .isEqualTo(409);
    }

    @Test
    void approvingAWaitingWorkflowStepSaysWhoApprovedIt() {
        RunResult waiting = waitingWorkflowRun("dana");

        ServerFixture.Answer approved = fixture.post("api/runs/" + waiting.runId() + "/approve", fixture.dana, "{}");

        JsonNode shown =
                fixture.get("api/runs/" + waiting.runId(), fixture.dana).body();

        assertThat(approved.body().path("status").asText()).isEqualTo("COMPLETED");
        assertThat(shown.path("steps").get(0).path("input").path("amount").asInt())
                .isEqualTo(150);
        assertThat(shown.path("steps").get(0).path("startedAt").asText()).isNotEmpty();
        assertThat(approved.body()
                        .path("outputs")
                        .path("refund")
                        .path("approvedBy")
                        .asText())
                .isEqualTo("dana");
    }

    @Test
    void aFinishedWorkflowRunIsRerunWithPinsAndForked() {
        RunResult waiting = waitingWorkflowRun("dana");
        fixture.post("api/runs/" + waiting.runId() + "/resume", fixture.dana, "{\"input\": {\"by\": \"maya\"}}");

        ServerFixture.Answer rerun =
                fixture.post("api/runs/" + waiting.runId() + "/rerun", fixture.dana, "{\"pin\": [\"approve\"]}");
        ServerFixture.Answer fork =
                fixture.post("api/runs/" + waiting.runId() + "/fork", fixture.dana, "{\"from\": 2}");

        assertThat(rerun.body().path("status").asText()).isEqualTo("COMPLETED");
        assertThat(rerun.body().path("runId").asText()).isNotEqualTo(waiting.runId());
        assertThat(rerun.body().path("steps"))
                .anySatisfy(step -> assertThat(step.path("pinned").asBoolean()).isTrue());
        assertThat(fork.status()).isEqualTo(200);
        assertThat(fork.body().path("runId").asText()).isNotEqualTo(waiting.runId());
    }

    @Test
    void anotherUsersRunIsNotFoundOnEveryRouteAndAnAdminSeesIt() {
        String memoRun = waitingMemoRun();
        String workflowRun = waitingWorkflowRun("dana").runId();

        for (String runId : List.of(memoRun, workflowRun, "no-such-run")) {
            for (String route : fixture.server.routes()) {
                if (!route.contains("{id}")) {
                    continue;
                }
                String[] parts = route.split(" ", 2);
                String path = parts[1].substring(1).replace("{id}", runId);
                ServerFixture.Answer answer = parts[0].equals("GET")
                        ? fixture.get(path, fixture.omer)
                        : fixture.post(path, fixture.omer, "{}");
                assertThat(answer.status()).as(route + " on " + runId).isEqualTo(404);
                assertThat(answer.code()).as(route).isEqualTo("E_NOT_FOUND");
            }
        }
        assertThat(fixture.get("api/runs/" + memoRun, fixture.omer).body().toString())
                .doesNotContain("dana");
        assertThat(fixture.get("api/runs/" + memoRun, fixture.admin).status()).isEqualTo(200);
        assertThat(fixture.get("api/runs/" + memoRun, fixture.dana).status()).isEqualTo(200);
        assertThat(fixture.get("api/memo/tasks", fixture.dana).body().path("tasks"))
                .hasSize(1);
        assertThat(fixture.get("api/memo/tasks", fixture.omer).body().path("tasks"))
                .isEmpty();
    }

    @Test
    void theEventStreamOfAFinishedRunSendsItsStoredEventsAndEnds() throws IOException {
        String runId = fixture.ask(fixture.dana, "remind me tomorrow at 9 to call the bank")
                .path("runId")
                .asText();
        int stored = fixture.get("api/runs/" + runId + "/events", fixture.dana)
                .body()
                .path("events")
                .size();

        List<Sse> all = stream(runId, Optional.empty());
        List<Sse> resumed = stream(runId, Optional.of("3"));

        assertThat(all).hasSize(stored);
        assertThat(all.get(0).id()).isEqualTo("1");
        assertThat(all.get(0).event()).isEqualTo("run.started");
        assertThat(Json.parse(all.get(0).data(), "data").path("type").asText()).isEqualTo("run.started");
        assertThat(all.get(all.size() - 1).event()).isEqualTo("run.completed");
        assertThat(resumed).hasSize(stored - 3);
        assertThat(resumed.get(0).id()).isEqualTo("4");
    }

    @Test
    void theEventStreamOfAWaitingRunShowsWhatHappensAfterItIsApproved() throws Exception {
        String runId = waitingMemoRun();
        int before = fixture.get("api/runs/" + runId + "/events", fixture.dana)
                .body()
                .path("events")
                .size();

        List<Sse> events = new ArrayList<>();
        try (SseReader reader = open(runId, Optional.empty())) {
            while (events.size() < before) {
                events.add(reader.next().orElseThrow());
            }
            // Everything stored is sent and the stream is still open: what follows comes live.
            CompletableFuture<ServerFixture.Answer> approved = CompletableFuture.supplyAsync(
                    () -> fixture.post("api/runs/" + runId + "/approve", fixture.dana, "{}"));
            for (Optional<Sse> next = reader.next(); next.isPresent(); next = reader.next()) {
                events.add(next.get());
            }
            assertThat(approved.get(20, TimeUnit.SECONDS).status()).isEqualTo(200);
        }

        assertThat(events.size()).isGreaterThan(before);
        assertThat(events.subList(before, events.size())).extracting(Sse::event).contains("run.resumed");
        assertThat(events.get(events.size() - 1).event()).isEqualTo("run.completed");
        assertThat(events).extracting(Sse::id).doesNotHaveDuplicates();
    }

    /** One server-sent event. */
    record Sse(String id, String event, String data) {}

    /** Reads the run's event stream to its end. */
    private List<Sse> stream(String runId, Optional<String> lastEventId) throws IOException {
        List<Sse> events = new ArrayList<>();
        try (SseReader reader = open(runId, lastEventId)) {
            for (Optional<Sse> next = reader.next(); next.isPresent(); next = reader.next()) {
                events.add(next.get());
            }
        }
        return events;
    }

    private SseReader open(String runId, Optional<String> lastEventId) throws IOException {
        HttpRequest.Builder request = fixture.request("api/runs/" + runId + "/events", Optional.of(fixture.dana))
                .header("Accept", "text/event-stream");
        lastEventId.ifPresent(id -> request.header("Last-Event-ID", id));
        HttpResponse<InputStream> response;
        try {
            response = fixture.http.send(request.GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
        return new SseReader(new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8)));
    }

    /** Server-sent events, one at a time, as a browser's EventSource reads them. */
    record SseReader(BufferedReader lines) implements AutoCloseable {
        Optional<Sse> next() throws IOException {
            String id = "";
            String event = "";
            StringBuilder data = new StringBuilder();
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.isEmpty()) {
                    if (!data.isEmpty()) {
                        return Optional.of(new Sse(id, event, data.toString()));
                    }
                    id = "";
                    event = "";
                } else if (line.startsWith("id:")) {
                    id = line.substring(3).strip();
                } else if (line.startsWith("event:")) {
                    event = line.substring(6).strip();
                } else if (line.startsWith("data:")) {
                    data.append(line.substring(5).strip());
                }
            }
            return Optional.empty();
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }
    }

    @Test
    void aUserUndoesTheirOwnRunThroughTheApi_andNobodyElseCan() {
        String runId = fixture.ask(fixture.dana, "remind me tomorrow at 9 to call the bank")
                .path("runId")
                .asText();

        ServerFixture.Answer omers = fixture.post("api/runs/" + runId + "/undo", fixture.omer, "{}");
        ServerFixture.Answer admins = fixture.post("api/runs/" + runId + "/undo", fixture.admin, "{}");
        assertThat(omers.status()).isEqualTo(404);
        assertThat(admins.status()).isEqualTo(404);
        assertThat(fixture.get("api/memo/tasks", fixture.dana).body().path("tasks"))
                .hasSize(1);

        ServerFixture.Answer undone = fixture.post("api/runs/" + runId + "/undo", fixture.dana, "{}");
        assertThat(undone.status()).isEqualTo(200);
        assertThat(undone.body().path("reply").asText())
                .isEqualTo("Undone: \"remind me tomorrow at 9 to call the bank\".");
        assertThat(fixture.get("api/memo/tasks", fixture.dana).body().path("tasks"))
                .isEmpty();
        assertThat(fixture.post("api/runs/" + runId + "/undo", fixture.dana, "{}")
                        .body()
                        .path("reply")
                        .asText())
                .isEqualTo("That was undone already: \"remind me tomorrow at 9 to call the bank\".");
    }
}
