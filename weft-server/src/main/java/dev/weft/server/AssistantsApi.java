package dev.weft.server;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.plan.Tool;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.jspecify.annotations.Nullable;

/**
 * {@code /api/assistants}: every assistant of the server by name, through its {@link Assistant}
 * interface alone — the list, and one turn of a conversation with any of them as the API key's user;
 * the customer {@code X-Weft-Customer} or the key vouches for travels with the message ({@link
 * Caller#vouch}).
 */
final class AssistantsApi {
    private final Backend backend;

    AssistantsApi(Backend backend) {
        this.backend = backend;
    }

    void register(Routes routes) {
        routes.get("/api/assistants", this::list);
        routes.post("/api/assistants/{name}/messages", this::message);
    }

    /**
     * A message to an assistant: its text ({@code message} is taken for it too, the name the route's
     * first version read), and optionally the conversation and the user's time zone.
     */
    record Body(
            @Nullable String text,
            @Nullable String message,
            @Nullable String session,
            @Nullable String zone) {}

    private void list(ServerRequest req, ServerResponse res) {
        Caller.of(req);
        ObjectNode root = Json.object();
        ArrayNode all = root.putArray("assistants");
        for (Assistant assistant : backend.assistants().all()) {
            ObjectNode one = all.addObject()
                    .put("name", assistant.name())
                    .put("description", assistant.description())
                    .put("servesCustomers", assistant.servesCustomers());
            ArrayNode tools = one.putArray("tools");
            for (Tool tool : assistant.tools().all()) {
                tools.addObject()
                        .put("name", tool.name())
                        .put("description", tool.description())
                        .put("risk", tool.risk().name());
            }
        }
        Http.ok(res, root);
    }

    private void message(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        Assistant assistant =
                backend.assistants().get(req.path().pathParameters().get("name"));
        Body body = Http.body(req, Body.class);
        if (body.text() != null && body.message() != null) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "send \"text\" or \"message\", not both");
        }
        String text = body.text() != null ? body.text() : body.message();
        if (text == null || text.isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"text\" is required: what to say to " + assistant.name());
        }
        if (body.session() != null && body.session().isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"session\" must not be blank when given");
        }
        // Without a session: the user's one conversation, or, with an assistant that serves many people
        // under one key, the vouched customer's own or a new one (Caller.unnamedSession).
        String session = body.session() != null ? body.session() : caller.unnamedSession(req, assistant, "api");
        Message message = Message.of(caller.user(), text)
                .session(session)
                .zone(MemoApi.zone(body.zone()))
                .vouch(caller.vouch(req, assistant));
        Turn turn = assistant.converse(backend.runner(), message);
        res.header(HeaderNames.create("X-Weft-Session"), session);
        Http.ok(res, reply(turn).put("session", session));
    }

    /** A turn as the route answers it: {@code {reply, runId, status, language}}. */
    static ObjectNode reply(Turn turn) {
        return Json.object()
                .put("reply", turn.text())
                .put("runId", turn.run().runId())
                .put("status", turn.run().status().name())
                .put("language", turn.language());
    }
}
