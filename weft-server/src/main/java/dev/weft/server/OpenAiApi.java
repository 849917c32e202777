package dev.weft.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.RunIds;
import dev.weft.core.WeftException;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;

/**
 * {@code /v1}: the OpenAI chat-completions protocol with each assistant as a model of its name
 * ({@code memo}, …), so that any chat client talks to it as the API key's user. The last user message
 * of the request is the assistant's message; when the user's conversation waits on an approval, a
 * "yes" / "כן" approves it and a "no" / "לא" does not, and when it waits on a question, the message
 * answers it (the assistant keeps the conversation, so the client's copy of the earlier messages is
 * not needed). The request's {@code user} field, or the {@code X-Weft-Session} header, names one of
 * the key's user's conversations. A streamed answer forwards the model's words as the assistant's run
 * produces them; {@code usage} is the tokens of the turn's model calls.
 */
final class OpenAiApi {
    private final Backend backend;

    OpenAiApi(Backend backend) {
        this.backend = backend;
    }

    /** Whether {@code path} is one of the OpenAI protocol's, whose errors have OpenAI's shape. */
    static boolean isOpenAi(String path) {
        return path.startsWith("/v1/");
    }

    /**
     * OpenAI's error shape, {@code {"error": {"message", "type", "param", "code"}}}: the type its SDKs
     * map from the status, the field at fault when one is, and Weft's stable code as the {@code code}.
     */
    static ObjectNode errorBody(int status, WeftException e) {
        ObjectNode root = Json.object();
        ObjectNode error = root.putObject("error");
        error.put("message", e.getMessage());
        error.put(
                "type",
                switch (status) {
                    case 401 -> "authentication_error";
                    case 403 -> "permission_error";
                    case 404 -> "not_found_error";
                    case 429 -> "rate_limit_error";
                    default -> status >= 500 ? "server_error" : "invalid_request_error";
                });
        if (e instanceof InvalidParameterException p) {
            error.put("param", p.param());
        } else {
            error.putNull("param");
        }
        error.put("code", e.code().name());
        return root;
    }

    void register(Routes routes) {
        routes.get("/v1/models", this::models);
        routes.post("/v1/chat/completions", this::completions);
    }

    private void models(ServerRequest req, ServerResponse res) {
        ObjectNode root = Json.object();
        root.put("object", "list");
        ArrayNode data = root.putArray("data");
        for (Assistant assistant : backend.assistants().all()) {
            data.addObject()
                    .put("id", assistant.name())
                    .put("object", "model")
                    .put("created", 0)
                    .put("owned_by", "weft")
                    .put("description", assistant.description());
        }
        Http.ok(res, root);
    }

    private void completions(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        // Clients send many optional fields (temperature, user, stream_options, …); Memo ignores them.
        JsonNode body = Http.tree(req);
        if (!body.isObject()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the request body must be a JSON object");
        }
        String model = body.path("model").asText("");
        Assistant assistant = backend.assistants()
                .find(model)
                .orElseThrow(() -> new NotFoundException("no model '" + model + "': this server has "
                        + String.join(", ", backend.assistants().names())));
        String text = lastUserMessage(body.path("messages"));
        boolean stream = body.path("stream").asBoolean(false);
        Optional<String> named = req.headers()
                .first(HeaderNames.create("X-Weft-Session"))
                .or(() -> Optional.of(body.path("user").asText("")).filter(s -> !s.isBlank()));
        // An assistant that serves many people under one key never puts unnamed requests in the key's one
        // conversation: what one person proved there would be the next one's.
        String session = named.orElseGet(() -> caller.unnamedSession(req, assistant, "v1"));
        res.header(HeaderNames.create("X-Weft-Session"), session);
        Message message = Message.of(caller.user(), text)
                .session(session)
                .vouch(caller.vouch(req, assistant))
                .zone(MemoApi.zone(req.headers()
                        .first(HeaderNames.create("X-Weft-Timezone"))
                        .orElse(null)));
        long created = backend.runner().time().now().getEpochSecond();
        if (!stream) {
            Turn reply = assistant.converse(backend.runner(), message);
            Http.ok(res, completion(model, reply, created));
            return;
        }
        boolean includeUsage = body.path("stream_options").path("include_usage").asBoolean(false);
        stream(res, assistant, message, model, created, includeUsage);
    }

    /**
     * The turn as a stream of chunks: the model's words as the assistant's run produces them (its
     * {@code assistant.delta} events from a model, heard as they happen), then whatever the finished
     * reply says besides (all of it, for a reply written by rules), then {@code "finish_reason":
     * "stop"}, the usage when asked for, and {@code [DONE]}.
     */
    private void stream(
            ServerResponse res,
            Assistant assistant,
            Message message,
            String model,
            long created,
            boolean includeUsage) {
        String runId = RunIds.next();
        try (StreamedTurn turn = StreamedTurn.start(backend, assistant, message, runId);
                EventStream sink = EventStream.open(res)) {
            String id = "chatcmpl-" + runId;
            sink.data(Json.write(chunk(model, id, created, delta("assistant", ""), null)));
            StringBuilder streamed = new StringBuilder();
            for (Optional<String> word = turn.next(); word.isPresent(); word = turn.next()) {
                streamed.append(word.get());
                sink.data(Json.write(chunk(model, id, created, delta(null, word.get()), null)));
            }
            Turn reply;
            try {
                reply = turn.result();
            } catch (CompletionException e) {
                sink.data(Json.write(Http.errorBody(e)));
                return;
            }
            String rest = remainder(streamed.toString(), reply.text());
            if (!rest.isEmpty()) {
                sink.data(Json.write(chunk(model, id, created, delta(null, rest), null)));
            }
            sink.data(Json.write(chunk(model, id, created, Json.object(), "stop")));
            if (includeUsage) {
                ObjectNode usage = chunk(model, id, created, Json.object(), null);
                usage.putArray("choices");
                usage.set("usage", usage(reply.usage()));
                sink.data(Json.write(usage));
            }
            sink.data("[DONE]");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (UncheckedIOException e) {
            // The client left; the assistant's run goes on and is kept.
        }
    }
    /**
     * What the finished {@code reply} says that the {@code streamed} words did not: the rest after
     * them (nothing, for a reply that is the model's words alone), and what came before them in the
     * reply after that; all of it when nothing was streamed or the reply does not hold the words.
     */
    static String remainder(String streamed, String reply) {
        return Turn.remainder(streamed, reply);
    }

    private static ObjectNode usage(Turn.Usage usage) {
        return Json.object()
                .put("prompt_tokens", usage.promptTokens())
                .put("completion_tokens", usage.completionTokens())
                .put("total_tokens", usage.totalTokens());
    }

    /** The text of the last {@code user} message: a string, or the text parts of a list of parts. */
    private static String lastUserMessage(JsonNode messages) {
        if (!messages.isArray() || messages.isEmpty()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"messages\" must be a non-empty array");
        }
        for (int i = messages.size() - 1; i >= 0; i--) {
            JsonNode message = messages.get(i);
            if (!message.path("role").asText().equals("user")) {
                continue;
            }
            JsonNode content = message.path("content");
            String text;
            if (content.isTextual()) {
                text = content.asText();
            } else if (content.isArray()) {
                StringBuilder joined = new StringBuilder();
                for (JsonNode part : content) {
                    if (part.path("type").asText().equals("text")) {
                        joined.append(joined.isEmpty() ? "" : "\n")
                                .append(part.path("text").asText());
                    }
                }
                text = joined.toString();
            } else {
                text = "";
            }
            if (text.isBlank()) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "the last user message has no text");
            }
            return text;
        }
        throw new WeftException(ErrorCode.E_BAD_INPUT, "\"messages\" has no message with role \"user\"");
    }

    private static ObjectNode completion(String model, Turn reply, long created) {
        ObjectNode root = Json.object();
        root.put("id", "chatcmpl-" + reply.run().runId());
        root.put("object", "chat.completion");
        root.put("created", created);
        root.put("model", model);
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message");
        message.put("role", "assistant");
        message.put("content", reply.text());
        message.putNull("refusal");
        choice.putNull("logprobs");
        choice.put("finish_reason", "stop");
        root.set("usage", usage(reply.usage()));
        ObjectNode weft = root.putObject("weft");
        weft.put("runId", reply.run().runId());
        weft.put("status", reply.run().status().name());
        return root;
    }

    private static ObjectNode chunk(String model, String id, long created, ObjectNode delta, @Nullable String finish) {
        ObjectNode root = Json.object();
        root.put("id", id);
        root.put("object", "chat.completion.chunk");
        root.put("created", created);
        root.put("model", model);
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        choice.set("delta", delta);
        choice.putNull("logprobs");
        if (finish == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finish);
        }
        return root;
    }

    private static ObjectNode delta(@Nullable String role, String content) {
        ObjectNode delta = Json.object();
        if (role != null) {
            delta.put("role", role);
        }
        delta.put("content", content);
        return delta;
    }
}
