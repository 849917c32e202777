package dev.weft.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Message;
import dev.weft.assistant.Notices;
import dev.weft.assistant.Turn;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunIds;
import dev.weft.core.RunJson;
import dev.weft.core.WeftException;
import dev.weft.plan.PlanMode;
import io.helidon.http.HeaderNames;
import io.helidon.http.sse.SseEvent;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.sse.SseSink;
import java.io.UncheckedIOException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;

/**
 * {@code /api/memo}: a message to Memo from the key's user, and what that user keeps (reminders, tasks,
 * events, lists, memories), all through Memo's {@link Assistant} interface, found by name: the server
 * neither names Memo's classes nor reads its tables.
 */
final class MemoApi {
    /** The assistant these routes are Memo's for. */
    static final String MEMO = "memo";

    /** How long a notification stream waits before it looks at the store again (reminders fired elsewhere). */
    private static final Duration LOOK_AGAIN = Duration.ofSeconds(1);

    private final Backend backend;
    private final Webhooks webhooks;

    MemoApi(Backend backend, Webhooks webhooks) {
        this.backend = backend;
        this.webhooks = webhooks;
    }

    void register(Routes routes) {
        routes.post("/api/memo/messages", this::message);
        routes.get("/api/memo/reminders", (req, res) -> kept(req, res, "reminders", Map.of()));
        routes.get("/api/memo/tasks", (req, res) -> kept(req, res, "tasks", Map.of()));
        routes.get("/api/memo/events", (req, res) -> kept(req, res, "events", Map.of()));
        routes.get("/api/memo/lists", (req, res) -> kept(req, res, "lists", Map.of()));
        routes.get("/api/memo/memories", this::memories);
        routes.get("/api/memo/notifications", this::notifications);
        routes.get("/api/memo/webhook", this::webhook);
        routes.post("/api/memo/webhook", this::setWebhook);
        routes.delete("/api/memo/webhook", this::removeWebhook);
    }

    /** Where the user's reminders are also sent. */
    record WebhookBody(@Nullable String url) {}

    private void setWebhook(ServerRequest req, ServerResponse res) {
        String user = Caller.of(req).user();
        WebhookBody body = Http.body(req, WebhookBody.class);
        if (body.url() == null || body.url().isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"url\" is required: where to send the reminders");
        }
        Webhooks.Webhook webhook = webhooks.set(user, body.url(), Instant.now());
        ObjectNode node = Json.object();
        node.put("url", webhook.url().toString());
        node.put("secret", webhook.secret());
        node.put("createdAt", webhook.createdAt().toString());
        Http.ok(res, node);
    }

    private void webhook(ServerRequest req, ServerResponse res) {
        String user = Caller.of(req).user();
        Webhooks.Webhook webhook = webhooks.find(user)
                .orElseThrow(() -> new WeftException(ErrorCode.E_NOT_FOUND, "no webhook is set for " + user));
        ObjectNode node = Json.object();
        node.put("url", webhook.url().toString());
        node.put("createdAt", webhook.createdAt().toString());
        Http.ok(res, node);
    }

    private void removeWebhook(ServerRequest req, ServerResponse res) {
        String user = Caller.of(req).user();
        if (!webhooks.remove(user)) {
            throw new WeftException(ErrorCode.E_NOT_FOUND, "no webhook is set for " + user);
        }
        Http.ok(res, Json.object().put("removed", true));
    }

    /** The topic that wakes {@code user}'s notification streams. */
    static String topic(String user) {
        return "user:" + user;
    }

    /** A message: the text, and optionally the user's zone and how to run it (as {@code memo ask}). */
    record MessageBody(
            @Nullable String message,
            @Nullable String tz,
            @Nullable String mode) {}

    private void message(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        MessageBody body = Http.body(req, MessageBody.class);
        if (body.message() == null || body.message().isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"message\" is required: say something to Memo");
        }
        Assistant memo = backend.assistants().get(MEMO);
        Message message =
                Message.of(caller.user(), body.message()).zone(zone(body.tz())).mode(mode(body.mode()));
        if (req.headers().first(HeaderNames.ACCEPT).orElse("").contains("text/event-stream")) {
            streamReply(res, memo, message.runId(RunIds.next()));
            return;
        }
        Http.ok(res, memo.ask(backend.runner(), message).json());
    }

    /**
     * Memo's answer as server-sent events: the run's events as they are committed (as {@code GET
     * /api/runs/{id}/events} streams them: the plan, each tool call, each step), then {@code event:
     * reply} with the reply (what the JSON answer would be), or {@code event: error}.
     */
    private void streamReply(ServerResponse res, Assistant memo, Message message) {
        String runId = message.runId().orElseThrow();
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        backend.hub().subscribe(runId);
        CompletableFuture<Turn> reply = new CompletableFuture<>();
        Thread.ofVirtual().name("weft-memo-" + runId).start(() -> {
            try {
                reply.complete(memo.ask(backend.runner(), message));
            } catch (RuntimeException e) {
                reply.completeExceptionally(e);
            }
        });
        try (SseSink sink = res.sink(SseSink.TYPE)) {
            long sent = 0;
            while (true) {
                boolean done = reply.isDone();
                for (dev.weft.core.Event event : backend.store().events(runId)) {
                    if (event.sequence() > sent) {
                        sink.emit(SseEvent.builder()
                                .id(Long.toString(event.sequence()))
                                .name(event.type())
                                .data(Json.write(RunJson.event(event)))
                                .build());
                        sent = event.sequence();
                    }
                }
                if (done) {
                    break;
                }
                EventHub.await(Duration.ofMillis(500));
            }
            try {
                sink.emit(SseEvent.builder()
                        .name("reply")
                        .data(Json.write(reply.join().json()))
                        .build());
            } catch (CompletionException e) {
                sink.emit(SseEvent.builder()
                        .name("error")
                        .data(Json.write(Http.errorBody(e)))
                        .build());
            }
        } catch (UncheckedIOException e) {
            // The client left; Memo's run goes on and is kept.
        } finally {
            backend.hub().unsubscribe(runId);
        }
    }

    static Optional<ZoneId> zone(@Nullable String tz) {
        if (tz == null || tz.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(ZoneId.of(tz.trim()));
        } catch (DateTimeException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "\"tz\": " + tz + " is not a time zone (e.g. Asia/Jerusalem, UTC)");
        }
    }

    private static PlanMode mode(@Nullable String mode) {
        if (mode == null || mode.isBlank()) {
            return PlanMode.AUTO;
        }
        try {
            return PlanMode.valueOf(mode.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "\"mode\": " + mode + " is not one of preview, approval, auto");
        }
    }

    /**
     * What the user keeps with Memo of one {@code kind}, read by Memo through its {@link Assistant}
     * interface (the server does not read Memo's tables).
     */
    private void kept(ServerRequest req, ServerResponse res, String kind, Map<String, String> query) {
        String user = Caller.of(req).user();
        Assistant memo = backend.assistants().get(MEMO);
        Http.ok(
                res,
                memo.kept(user, kind, query)
                        .orElseThrow(() ->
                                new WeftException(ErrorCode.E_NOT_FOUND, "assistant '" + MEMO + "' keeps no " + kind)));
    }

    /**
     * The user's notifications (reminders that fell due): the last 50 as JSON, or with {@code Accept:
     * text/event-stream} each one no client has shown yet, as it fires, marked shown once sent (so a
     * reminder reaches one connected client once).
     */
    private void notifications(ServerRequest req, ServerResponse res) {
        String user = Caller.of(req).user();
        Notices notices = backend.assistants()
                .get(MEMO)
                .notices()
                .orElseThrow(() -> new WeftException(ErrorCode.E_NOT_FOUND, "assistant '" + MEMO + "' tells nothing"));
        if (!req.headers().first(HeaderNames.ACCEPT).orElse("").contains("text/event-stream")) {
            ObjectNode node = Json.object();
            ArrayNode items = node.putArray("notifications");
            for (Notices.Notice n : notices.recent(user, 50)) {
                notices.describe(user, n.id()).ifPresent(items::add);
            }
            Http.ok(res, node);
            return;
        }
        res.header(HeaderNames.CACHE_CONTROL, "no-cache");
        backend.hub().subscribe(topic(user));
        try (SseSink sink = res.sink(SseSink.TYPE)) {
            long quietSince = System.nanoTime();
            while (!backend.stopping().get()) {
                for (ObjectNode n : notices.unshown(user)) {
                    String id = n.path("id").asText();
                    sink.emit(SseEvent.builder()
                            .id(id)
                            .name(n.path("type").asText("notice"))
                            .data(Json.write(n))
                            .build());
                    notices.shown(user, List.of(id), Instant.now());
                    quietSince = System.nanoTime();
                }
                if (System.nanoTime() - quietSince > RunsApi.KEEP_ALIVE.toNanos()) {
                    sink.emit(SseEvent.builder().comment("keep-alive").build());
                    quietSince = System.nanoTime();
                }
                EventHub.await(LOOK_AGAIN);
            }
        } catch (UncheckedIOException e) {
            // The client left; what it was not sent stays pending.
        } finally {
            backend.hub().unsubscribe(topic(user));
        }
    }

    /** The user's memories: those matching {@code ?q=} best (words and meaning), else the latest; {@code ?limit=} 1–50. */
    private void memories(ServerRequest req, ServerResponse res) {
        Map<String, String> query = new java.util.HashMap<>();
        Http.query(req, "q").ifPresent(q -> query.put("q", q));
        query.put("limit", Integer.toString(Http.intQuery(req, "limit", 20, 1, 50)));
        kept(req, res, "memories", query);
    }
}
