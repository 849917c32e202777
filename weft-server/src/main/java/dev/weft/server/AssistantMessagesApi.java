package dev.weft.server;

import dev.weft.assistant.Assistant;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import dev.weft.core.ErrorCode;
import dev.weft.core.NotFoundException;
import dev.weft.core.WeftException;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import org.jspecify.annotations.Nullable;

/**
 * {@code POST /api/assistants/{name}/messages}: one message to any assistant by name, as the key's user,
 * in the conversation the body's {@code session} names (without one: the user's one conversation, or a
 * new one for an assistant that serves many people under one key); the customer {@code X-Weft-Customer}
 * or the key vouches for travels with it. Answers the turn's JSON with its {@code session}.
 *
 * <p>A minimal route: the fuller one (streaming, A2A) is being built beside it, and the two are to be
 * reconciled; what must survive is that the vouch is passed on ({@link Caller#vouch}).
 */
final class AssistantMessagesApi {
    private final Backend backend;

    AssistantMessagesApi(Backend backend) {
        this.backend = backend;
    }

    void register(Routes routes) {
        routes.post("/api/assistants/{name}/messages", this::message);
    }

    /** A message to an assistant: the text, and optionally the conversation. */
    record MessageBody(@Nullable String message, @Nullable String session) {}

    private void message(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        String name = req.path().pathParameters().get("name");
        Assistant assistant = backend.assistants()
                .find(name)
                .orElseThrow(() -> new NotFoundException("no assistant '" + name + "': this server has "
                        + String.join(", ", backend.assistants().names())));
        MessageBody body = Http.body(req, MessageBody.class);
        if (body.message() == null || body.message().isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"message\" is required: say something to " + name);
        }
        String session = body.session() != null && !body.session().isBlank()
                ? body.session()
                : caller.unnamedSession(req, assistant, "api");
        Turn turn = assistant.converse(
                backend.runner(),
                Message.of(caller.user(), body.message()).session(session).vouch(caller.vouch(req, assistant)));
        res.header(HeaderNames.create("X-Weft-Session"), session);
        Http.ok(res, turn.json().deepCopy().put("session", session));
    }
}
