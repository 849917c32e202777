package dev.weft.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistant;
import dev.weft.core.Edge;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Graph;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.core.NodeSpec;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunJson;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.RunStateException;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.sse.SseEvent;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.sse.SseSink;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * {@code /api/runs}: list, show, follow (a page of events, or a live stream), cancel, resume, approve,
 * reject, answer, rerun and fork runs, each caller seeing only their own user's runs (an admin, all).
 */
final class RunsApi {
    /** How long a stream waits for news before it looks at the store again (for runs other processes drive). */
    private static final Duration LOOK_AGAIN = Duration.ofMillis(500);
    /** How often an idle stream sends a comment, so that proxies keep it open and a gone client is noticed. */
    static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

    private static final HeaderName LAST_EVENT_ID = HeaderNames.create("Last-Event-ID");

    private final Backend backend;

    RunsApi(Backend backend) {
        this.backend = backend;
    }

    void register(Routes routes) {
        routes.get("/api/runs", this::list);
        routes.get("/api/runs/{id}", this::show);
        routes.get("/api/runs/{id}/events", this::events);
        routes.get("/api/runs/{id}/graph", this::graphOf);
        routes.post("/api/runs/{id}/cancel", this::cancel);
        routes.post("/api/runs/{id}/resume", this::resume);
        routes.post("/api/runs/{id}/approve", this::approve);
        routes.post("/api/runs/{id}/reject", this::reject);
        routes.post("/api/runs/{id}/answer", this::answer);
        routes.post("/api/runs/{id}/undo", this::undo);
        routes.post("/api/runs/{id}/rerun", this::rerun);
        routes.post("/api/runs/{id}/fork", this::fork);
    }

    private void list(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        Optional<RunStatus> status = Http.query(req, "status").map(RunsApi::status);
        Optional<String> user = Http.query(req, "user");
        int limit = Http.intQuery(req, "limit", 50, 1, 500);
        int offset = Http.intQuery(req, "offset", 0, 0, Integer.MAX_VALUE);
        ObjectNode page = Json.object();
        ArrayNode items = page.putArray("runs");
        RunStore.RunPage found;
        if (!caller.admin() && user.isPresent() && !user.get().equals(caller.user())) {
            found = new RunStore.RunPage(List.of(), 0);
        } else {
            Optional<String> whose = caller.admin() ? user : Optional.of(caller.user());
            found = backend.store().listRuns(new RunStore.RunQuery(status, whose, offset, limit));
        }
        for (Run run : found.runs()) {
            ObjectNode node = items.addObject();
            node.put("runId", run.id());
            node.put("graphId", run.graphId());
            node.put("status", run.status().name());
            node.put("user", run.user().orElse(null));
            node.put("createdAt", run.createdAt().toString());
            node.put("endedAt", run.endedAt().map(Instant::toString).orElse(null));
            node.set("error", RunJson.error(run.error()));
        }
        page.put("total", found.total());
        page.put("offset", offset);
        page.put("limit", limit);
        if ((long) offset + limit < found.total()) {
            page.put("nextOffset", offset + limit);
        } else {
            page.putNull("nextOffset");
        }
        Http.ok(res, page);
    }

    private static RunStatus status(String text) {
        try {
            return RunStatus.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "?status=" + text + ": not a run status (one of " + Arrays.toString(RunStatus.values()) + ")");
        }
    }

    private void show(ServerRequest req, ServerResponse res) {
        Run run = backend.visibleRun(Caller.of(req), id(req));
        RunResult result = backend.runner().result(run.id());
        ObjectNode body = RunJson.of(result);
        // Beside what `weft runs show --json` prints, each step's input and times, for the page's timeline.
        JsonNode steps = body.path("steps");
        for (int i = 0; i < steps.size() && i < result.steps().size(); i++) {
            Step step = result.steps().get(i);
            ObjectNode node = (ObjectNode) steps.get(i);
            if (!node.has("input")) {
                node.set("input", step.input());
            }
            step.startedAt().ifPresent(at -> node.put("startedAt", at.toString()));
            step.endedAt().ifPresent(at -> node.put("endedAt", at.toString()));
        }
        if (body.get("interrupts") instanceof ObjectNode interrupts && result.status() == RunStatus.WAITING) {
            // Beside each wait, the sentence its assistant asks it in ("This will delete your 3 reminders:
            // …") and that sentence's language: the page shows the words, the call behind a toggle.
            assistantOf(run)
                    .map(a -> a.questions(backend.runner(), run.user().orElseThrow(), run.id()))
                    .orElse(Map.of())
                    .forEach((node, question) -> {
                        if (interrupts.get(node) instanceof ObjectNode payload) {
                            ObjectNode said = payload.deepCopy();
                            said.put("says", question.text());
                            said.put("language", question.language());
                            interrupts.set(node, said);
                        }
                    });
        }
        Http.ok(res, body);
    }

    /**
     * The run's compiled graph, to draw: {@code {"graphId", "nodes": [{id, name, type, branch}],
     * "edges": [{source, handle, target}]}}, edges from {@code START} naming where the run begins.
     */
    private void graphOf(ServerRequest req, ServerResponse res) {
        Run run = backend.visibleRun(Caller.of(req), id(req));
        Graph graph = backend.graphs()
                .apply(run)
                .orElseThrow(() -> new NotFoundException(
                        "run '" + run.id() + "' was not started from a graph this server can rebuild"));
        ObjectNode body = Json.object();
        body.put("runId", run.id());
        body.put("graphId", graph.id());
        ArrayNode nodes = body.putArray("nodes");
        for (NodeSpec node : graph.nodes().values()) {
            nodes.addObject()
                    .put("id", node.id())
                    .put("name", node.name())
                    .put("type", node.type())
                    .put("branch", node.isBranch());
        }
        ArrayNode edges = body.putArray("edges");
        for (Edge edge : graph.edges()) {
            edges.addObject()
                    .put("source", edge.source())
                    .put("handle", edge.handle())
                    .put("target", edge.target());
        }
        Http.ok(res, body);
    }

    private void events(ServerRequest req, ServerResponse res) {
        Run run = backend.visibleRun(Caller.of(req), id(req));
        long after = after(req);
        if (req.headers().first(HeaderNames.ACCEPT).orElse("").contains("text/event-stream")) {
            stream(res, run.id(), after);
            return;
        }
        int limit = Http.intQuery(req, "limit", 500, 1, 5000);
        ObjectNode page = Json.object();
        ArrayNode items = page.putArray("events");
        long last = after;
        boolean more = false;
        for (Event event : backend.store().events(run.id())) {
            if (event.sequence() <= after) {
                continue;
            }
            if (items.size() == limit) {
                more = true;
                break;
            }
            items.add(RunJson.event(event));
            last = event.sequence();
        }
        if (more) {
            page.put("nextAfter", last);
        } else {
            page.putNull("nextAfter");
        }
        Http.ok(res, page);
    }

    /** The sequence number to continue after: {@code Last-Event-ID} (a reconnecting stream), else {@code ?after}. */
    private static long after(ServerRequest req) {
        Optional<String> text = req.headers().first(LAST_EVENT_ID).or(() -> Http.query(req, "after"));
        if (text.isEmpty() || text.get().isBlank()) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(text.get().trim()));
        } catch (NumberFormatException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "Last-Event-ID / ?after=" + text.get() + ": an event sequence number is" + " expected");
        }
    }

    /**
     * The run's events as server-sent events ({@code id} = sequence, {@code event} = type, {@code data}
     * = the event as JSON): those stored after {@code after} first, then each as it is committed, until
     * the run has finished and everything is sent, the client leaves, or the server stops.
     */
    private void stream(ServerResponse res, String runId, long after) {
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        backend.hub().subscribe(runId);
        try (SseSink sink = res.sink(SseSink.TYPE)) {
            long sent = after;
            long quietSince = System.nanoTime();
            while (!backend.stopping().get()) {
                Optional<Run> run = backend.store().findRun(runId);
                boolean finished = run.map(r -> finished(r.status())).orElse(true);
                for (Event event : backend.store().events(runId)) {
                    if (event.sequence() > sent) {
                        sink.emit(SseEvent.builder()
                                .id(Long.toString(event.sequence()))
                                .name(event.type())
                                .data(Json.write(RunJson.event(event)))
                                .build());
                        sent = event.sequence();
                        quietSince = System.nanoTime();
                    }
                }
                if (finished) {
                    return;
                }
                if (System.nanoTime() - quietSince > KEEP_ALIVE.toNanos()) {
                    sink.emit(SseEvent.builder().comment("keep-alive").build());
                    quietSince = System.nanoTime();
                }
                EventHub.await(LOOK_AGAIN);
            }
        } catch (UncheckedIOException e) {
            // The client left; nothing to answer.
        } finally {
            backend.hub().unsubscribe(runId);
        }
    }

    private static boolean finished(RunStatus status) {
        return switch (status) {
            case COMPLETED, FAILED, CANCELLED -> true;
            case PENDING, RUNNING, WAITING -> false;
        };
    }

    private void cancel(ServerRequest req, ServerResponse res) {
        Run run = backend.visibleRun(Caller.of(req), id(req));
        Http.body(req, Empty.class);
        Run after = backend.runner().cancel(run.id());
        ObjectNode body = Json.object();
        body.put("runId", after.id());
        body.put("status", after.status().name());
        body.put("cancelRequested", after.status() != RunStatus.CANCELLED);
        Http.ok(res, body);
    }

    /** A body with nothing in it: only {@code {}} (or no body) is accepted. */
    record Empty() {}

    /** What a waiting workflow node is resumed with. */
    record ResumeBody(@Nullable JsonNode input) {}

    /** Which of the steps waiting for approval: all of them when none are named. */
    record StepsBody(@Nullable List<String> steps) {
        List<String> named() {
            return steps == null ? List.of() : List.copyOf(steps);
        }
    }

    /** The answer to a run's question: "2" picks the second option, words narrow them. */
    record AnswerBody(@Nullable String text) {}

    /** Nodes of the earlier run whose outputs the re-run reuses. */
    record RerunBody(@Nullable List<String> pin) {}

    /** The step after whose checkpoint the fork starts. */
    record ForkBody(@Nullable Integer from) {}

    private void resume(ServerRequest req, ServerResponse res) {
        Run run = waiting(req);
        ResumeBody body = Http.body(req, ResumeBody.class);
        JsonNode input = body.input() == null ? Json.object() : body.input();
        Http.ok(res, RunJson.of(backend.runner().resume(graph(run), run.id(), input)));
    }

    private void approve(ServerRequest req, ServerResponse res) {
        Run run = waiting(req);
        List<String> steps = Http.body(req, StepsBody.class).named();
        Optional<Assistant> assistant = assistantOf(run);
        if (assistant.isPresent()) {
            Http.ok(
                    res,
                    assistant
                            .get()
                            .approve(backend.runner(), run.user().orElseThrow(), run.id(), steps)
                            .json());
            return;
        }
        ObjectNode decision = Json.object();
        decision.put("approved", true);
        decision.put("by", Caller.of(req).user());
        ArrayNode approve = decision.putArray("approve");
        (steps.isEmpty() ? waitingSteps(run) : steps).forEach(approve::add);
        Http.ok(res, RunJson.of(backend.runner().resume(graph(run), run.id(), decision)));
    }

    private void reject(ServerRequest req, ServerResponse res) {
        Run run = waiting(req);
        List<String> steps = Http.body(req, StepsBody.class).named();
        Optional<Assistant> assistant = assistantOf(run);
        if (assistant.isPresent()) {
            Http.ok(
                    res,
                    assistant
                            .get()
                            .reject(backend.runner(), run.user().orElseThrow(), run.id())
                            .json());
            return;
        }
        ObjectNode decision = Json.object();
        decision.put("approved", false);
        decision.put("by", Caller.of(req).user());
        ArrayNode reject = decision.putArray("reject");
        (steps.isEmpty() ? waitingSteps(run) : steps).forEach(reject::add);
        Http.ok(res, RunJson.of(backend.runner().resume(graph(run), run.id(), decision)));
    }

    private void answer(ServerRequest req, ServerResponse res) {
        Run run = waiting(req);
        AnswerBody body = Http.body(req, AnswerBody.class);
        if (body.text() == null || body.text().isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"text\" is required: the answer to the run's question");
        }
        Assistant assistant = assistantOf(run)
                .orElseThrow(() -> new RunStateException(
                        "run '" + run.id() + "' is not an assistant's run; resume it with its input instead"));
        Http.ok(
                res,
                assistant
                        .answer(backend.runner(), run.user().orElseThrow(), run.id(), body.text())
                        .json());
    }

    /** Undoes what the caller's own assistant run did; anyone else's run is not found, an admin's key included. */
    private void undo(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        Run run = backend.store()
                .findRun(id(req))
                .filter(r -> r.user().map(caller.user()::equals).orElse(false))
                .orElseThrow(() -> new NotFoundException("no run '" + id(req) + "'"));
        Assistant assistant = assistantOf(run)
                .orElseThrow(() -> new RunStateException(
                        "run '" + run.id() + "' is not an assistant's run; only an assistant's runs are undone here"));
        Http.ok(
                res,
                assistant
                        .undo(backend.runner(), caller.user(), Optional.of(run.id()))
                        .json());
    }

    private void rerun(ServerRequest req, ServerResponse res) {
        Run run = backend.visibleRun(Caller.of(req), id(req));
        RerunBody body = Http.body(req, RerunBody.class);
        Graph graph = graph(run);
        RunRequest.Builder request = RunRequest.rerunOf(
                run, graph, backend.store().steps(run.id()), body.pin() == null ? List.of() : body.pin());
        Http.ok(res, RunJson.of(backend.runner().run(graph, request.build())));
    }

    private void fork(ServerRequest req, ServerResponse res) {
        Run run = backend.visibleRun(Caller.of(req), id(req));
        ForkBody body = Http.body(req, ForkBody.class);
        if (body.from() == null) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"from\" is required: the step order to fork after");
        }
        Http.ok(res, RunJson.of(backend.runner().fork(graph(run), run.id(), body.from())));
    }

    /** The caller's run named in the path, which must be waiting. */
    private Run waiting(ServerRequest req) {
        Run run = backend.visibleRun(Caller.of(req), id(req));
        if (run.status() != RunStatus.WAITING) {
            throw new RunStateException("run '" + run.id() + "' is " + run.status() + "; it waits for nothing");
        }
        return run;
    }

    private List<String> waitingSteps(Run run) {
        Map<String, JsonNode> interrupts = backend.runner().result(run.id()).interrupts();
        return interrupts.keySet().stream()
                .filter(k -> k.startsWith("step:"))
                .map(k -> k.substring("step:".length()))
                .toList();
    }

    /** The assistant a user's run belongs to, which continues it in words. */
    private Optional<Assistant> assistantOf(Run run) {
        return run.user().isPresent() ? backend.assistants().ownerOf(run) : Optional.empty();
    }

    private Graph graph(Run run) {
        return backend.graphs()
                .apply(run)
                .orElseThrow(() -> new GraphInvalidException("run '" + run.id() + "' was not started from a graph"
                        + " this server can rebuild; continue it from the program that started it"));
    }

    private static String id(ServerRequest req) {
        return req.path().pathParameters().get("id");
    }
}
