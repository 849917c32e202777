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
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.jspecify.annotations.Nullable;

/**
 * {@code /api/assistants}: every assistant of the server by name, through its {@link Assistant}
 * interface alone — the list, and one turn of a conversation with any of them as the API key's user.
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

    /** A message to an assistant: its text, and optionally the conversation and the user's time zone. */
    record Body(
            @Nullable String text,
            @Nullable String session,
            @Nullable String zone) {}

    private void list(ServerRequest req, ServerResponse res) {
        Caller.of(req);
        ObjectNode root = Json.object();
        ArrayNode all = root.putArray("assistants");
        for (Assistant assistant : backend.assistants().all()) {
            ObjectNode one = all.addObject().put("name", assistant.name()).put("description", assistant.description());
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
        if (body.text() == null || body.text().isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"text\" is required: what to say to " + assistant.name());
        }
        if (body.session() != null && body.session().isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"session\" must not be blank when given");
        }
        Message message = Message.of(caller.user(), body.text())
                .session(body.session() == null ? caller.user() : body.session())
                .zone(MemoApi.zone(body.zone()));
        Turn turn = assistant.converse(backend.runner(), message);
        Http.ok(res, reply(turn));
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
