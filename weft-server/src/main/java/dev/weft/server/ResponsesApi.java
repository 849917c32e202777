package dev.weft.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Message;
import dev.weft.assistant.Turn;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunIds;
import dev.weft.core.WeftException;
import dev.weft.store.AppDatabase;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;

/**
 * {@code /v1/responses}: OpenAI's Responses API with each assistant as a model of its name, as the API
 * key's user. A response is one turn of the assistant's conversation: {@code input} is a string or a
 * list of messages, whose last user message is what the assistant is told; {@code previous_response_id}
 * continues the conversation of that response (its waiting approval or question included), and without
 * it a response starts a conversation of its own. Responses are kept per user (unless {@code "store":
 * false}) and read back with {@code GET /v1/responses/{id}}; another user's is not found.
 *
 * <p>What the client sends besides is kept in the stored response and echoed back, but does not steer
 * the assistant: {@code instructions}, system and developer messages and the earlier messages of
 * {@code input}. The assistant plans from its own fixed prompt (so that provider prompt caches hit, and
 * so that a caller cannot talk it out of asking before it deletes) and from the conversation it keeps
 * itself, which a client's copy could only contradict.
 */
final class ResponsesApi {
    private final Backend backend;
    private final StoredResponses responses;

    ResponsesApi(Backend backend) {
        this.backend = backend;
        this.responses = new StoredResponses(AppDatabase.of(backend.store()));
    }

    void register(Routes routes) {
        routes.post("/v1/responses", this::create);
        routes.get("/v1/responses/{id}", this::get);
    }

    /** What a create request asks for, read and checked before anything runs. */
    private record Request(
            Assistant assistant,
            String model,
            String text,
            JsonNode input,
            @Nullable String instructions,
            Optional<StoredResponses.Stored> previous,
            boolean stream,
            boolean store,
            JsonNode metadata) {}

    private void get(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        String id = req.path().pathParameters().get("id");
        StoredResponses.Stored stored = responses
                .find(caller.user(), id)
                .orElseThrow(() -> new InvalidParameterException(
                        ErrorCode.E_NOT_FOUND, "response_id", "no response '" + id + "'"));
        Http.ok(res, stored.body());
    }

    private void create(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        Request request = read(caller, Http.tree(req));
        String id = "resp_" + RunIds.next();
        // A new conversation unless the previous response's or X-Weft-Session's; with an assistant that
        // serves many people under one key, a vouched customer's own (Caller.unnamedSession).
        String session = request.previous()
                .map(StoredResponses.Stored::session)
                .or(() -> req.headers().first(HeaderNames.create("X-Weft-Session")))
                .orElseGet(() -> request.assistant().servesCustomers()
                        ? caller.unnamedSession(req, request.assistant(), "resp")
                        : id);
        Message message = Message.of(caller.user(), request.text())
                .session(session)
                .zone(MemoApi.zone(req.headers()
                        .first(HeaderNames.create("X-Weft-Timezone"))
                        .orElse(null)))
                .vouch(caller.vouch(req, request.assistant()));
        long created = backend.runner().time().now().getEpochSecond();
        ObjectNode response = response(id, created, request);
        if (request.stream()) {
            // The stream names the response at once: it is kept first, so that it can be read back while
            // the turn runs. A plain response is kept once, when it is done, before it is answered.
            keep(caller, request, id, session, response);
            stream(res, caller, request, message, id, session, response);
            return;
        }
        Turn turn;
        try {
            turn = request.assistant().converse(backend.runner(), message);
        } catch (WeftException e) {
            failed(response, e);
            keep(caller, request, id, session, response);
            throw e;
        }
        completed(response, "msg_" + id.substring(5), turn.text(), turn);
        keep(caller, request, id, session, response);
        Http.ok(res, response);
    }

    /**
     * The turn as OpenAI's typed events, each with its {@code sequence_number}: the response created
     * and in progress, its message and text part added, the model's words as the turn's run produces
     * them (then whatever the finished reply says besides: all of it, for a reply written by rules),
     * the text, part and message done, and the response completed with its usage — or failed.
     */
    private void stream(
            ServerResponse res,
            Caller caller,
            Request request,
            Message message,
            String id,
            String session,
            ObjectNode response) {
        String itemId = "msg_" + id.substring(5);
        Sequence events = new Sequence();
        try (StreamedTurn turn = StreamedTurn.start(backend, request.assistant(), message, RunIds.next());
                EventStream sink = EventStream.open(res)) {
            events.send(sink, "response.created", Json.object().set("response", response.deepCopy()));
            events.send(sink, "response.in_progress", Json.object().set("response", response.deepCopy()));
            ObjectNode item = item(itemId, "in_progress");
            events.send(
                    sink,
                    "response.output_item.added",
                    Json.object().put("output_index", 0).set("item", item));
            events.send(sink, "response.content_part.added", part(itemId).set("part", text("")));
            StringBuilder streamed = new StringBuilder();
            for (Optional<String> word = turn.next(); word.isPresent(); word = turn.next()) {
                streamed.append(word.get());
                events.send(sink, "response.output_text.delta", delta(itemId, word.get()));
            }
            Turn reply;
            try {
                reply = turn.result();
            } catch (CompletionException e) {
                WeftException failure = e.getCause() instanceof WeftException w
                        ? w
                        : new WeftException(ErrorCode.E_INTERNAL, String.valueOf(e.getCause()));
                failed(response, failure);
                keep(caller, request, id, session, response);
                events.send(sink, "response.failed", Json.object().set("response", response));
                return;
            }
            String rest = OpenAiApi.remainder(streamed.toString(), reply.text());
            if (!rest.isEmpty()) {
                events.send(sink, "response.output_text.delta", delta(itemId, rest));
            }
            String said = streamed + rest;
            events.send(
                    sink,
                    "response.output_text.done",
                    part(itemId).put("text", said).set("logprobs", Json.mapper().createArrayNode()));
            events.send(sink, "response.content_part.done", part(itemId).set("part", text(said)));
            completed(response, itemId, said, reply);
            keep(caller, request, id, session, response);
            events.send(
                    sink,
                    "response.output_item.done",
                    Json.object()
                            .put("output_index", 0)
                            .set("item", response.path("output").get(0)));
            events.send(sink, "response.completed", Json.object().set("response", response));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (UncheckedIOException e) {
            // The client left; the assistant's run goes on and is kept, and so is the response.
        }
    }

    /** The numbers of one stream's events, from 0. */
    private static final class Sequence {
        private int next;

        void send(EventStream sink, String type, ObjectNode event) {
            ObjectNode typed = Json.object().put("type", type).put("sequence_number", next++);
            typed.setAll(event);
            sink.event(type, Json.write(typed));
        }
    }

    private Request read(Caller caller, JsonNode body) {
        if (!body.isObject()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the request body must be a JSON object");
        }
        JsonNode modelNode = body.path("model");
        if (!modelNode.isTextual() || modelNode.asText().isBlank()) {
            throw new InvalidParameterException(
                    ErrorCode.E_BAD_INPUT,
                    "model",
                    "\"model\" must name an assistant: one of "
                            + String.join(", ", backend.assistants().names()));
        }
        String model = modelNode.asText();
        Assistant assistant = backend.assistants()
                .find(model)
                .orElseThrow(() -> new InvalidParameterException(
                        ErrorCode.E_NOT_FOUND,
                        "model",
                        "no model '" + model + "': this server has "
                                + String.join(", ", backend.assistants().names())));
        JsonNode input = body.path("input");
        String text = lastUserText(input);
        JsonNode instructions = body.path("instructions");
        if (!instructions.isMissingNode() && !instructions.isNull() && !instructions.isTextual()) {
            throw new InvalidParameterException(
                    ErrorCode.E_BAD_INPUT, "instructions", "\"instructions\" must be a string");
        }
        Optional<StoredResponses.Stored> previous = Optional.empty();
        JsonNode previousId = body.path("previous_response_id");
        if (!previousId.isMissingNode() && !previousId.isNull()) {
            if (!previousId.isTextual() || previousId.asText().isBlank()) {
                throw new InvalidParameterException(
                        ErrorCode.E_BAD_INPUT,
                        "previous_response_id",
                        "\"previous_response_id\" must be a response id");
            }
            StoredResponses.Stored found = responses
                    .find(caller.user(), previousId.asText())
                    .orElseThrow(() -> new InvalidParameterException(
                            ErrorCode.E_NOT_FOUND,
                            "previous_response_id",
                            "no response '" + previousId.asText() + "'"));
            if (!found.model().equals(model)) {
                throw new InvalidParameterException(
                        ErrorCode.E_BAD_INPUT,
                        "previous_response_id",
                        "response '" + found.id() + "' is " + found.model() + "'s conversation, not " + model + "'s");
            }
            previous = Optional.of(found);
        }
        JsonNode metadata = body.path("metadata");
        if (!metadata.isMissingNode() && !metadata.isNull() && !metadata.isObject()) {
            throw new InvalidParameterException(ErrorCode.E_BAD_INPUT, "metadata", "\"metadata\" must be an object");
        }
        return new Request(
                assistant,
                model,
                text,
                input,
                instructions.isTextual() ? instructions.asText() : null,
                previous,
                body.path("stream").asBoolean(false),
                body.path("store").asBoolean(true),
                metadata.isObject() ? metadata : Json.object());
    }

    /**
     * The text of {@code input}: the string itself, or the last message of role {@code user} in a list
     * of input items (its content a string, or parts of type {@code input_text}).
     */
    static String lastUserText(JsonNode input) {
        if (input.isTextual()) {
            if (input.asText().isBlank()) {
                throw new InvalidParameterException(ErrorCode.E_BAD_INPUT, "input", "\"input\" is empty");
            }
            return input.asText();
        }
        if (!input.isArray() || input.isEmpty()) {
            throw new InvalidParameterException(
                    ErrorCode.E_BAD_INPUT, "input", "\"input\" must be a string or a non-empty list of messages");
        }
        for (int i = input.size() - 1; i >= 0; i--) {
            JsonNode item = input.get(i);
            String type = item.path("type").asText("message");
            if (!type.equals("message") || !item.path("role").asText().equals("user")) {
                continue;
            }
            JsonNode content = item.path("content");
            StringBuilder text = new StringBuilder();
            if (content.isTextual()) {
                text.append(content.asText());
            } else if (content.isArray()) {
                for (JsonNode part : content) {
                    String kind = part.path("type").asText();
                    if (kind.equals("input_text") || kind.equals("text")) {
                        text.append(text.isEmpty() ? "" : "\n")
                                .append(part.path("text").asText());
                    }
                }
            }
            if (text.toString().isBlank()) {
                throw new InvalidParameterException(
                        ErrorCode.E_BAD_INPUT, "input", "input[" + i + "], the last user message, has no text");
            }
            return text.toString();
        }
        throw new InvalidParameterException(
                ErrorCode.E_BAD_INPUT, "input", "\"input\" has no message of role \"user\"");
    }

    private void keep(Caller caller, Request request, String id, String session, ObjectNode response) {
        if (request.store()) {
            responses.put(
                    new StoredResponses.Stored(id, caller.user(), request.model(), session, response),
                    backend.runner().time().now());
        }
    }

    /** The response as it is created: in progress, nothing said yet. */
    private static ObjectNode response(String id, long created, Request request) {
        ObjectNode root = Json.object();
        root.put("id", id);
        root.put("object", "response");
        root.put("created_at", created);
        root.put("status", "in_progress");
        root.putNull("error");
        root.putNull("incomplete_details");
        if (request.instructions() == null) {
            root.putNull("instructions");
        } else {
            root.put("instructions", request.instructions());
        }
        root.putNull("max_output_tokens");
        root.put("model", request.model());
        root.putArray("output");
        root.put("parallel_tool_calls", false);
        request.previous()
                .ifPresentOrElse(
                        p -> root.put("previous_response_id", p.id()), () -> root.putNull("previous_response_id"));
        root.putObject("reasoning").putNull("effort").putNull("summary");
        root.put("store", request.store());
        root.putNull("temperature");
        root.putObject("text").putObject("format").put("type", "text");
        root.put("tool_choice", "auto");
        root.putArray("tools");
        root.putNull("top_p");
        root.put("truncation", "disabled");
        root.putNull("usage");
        root.set("metadata", request.metadata().deepCopy());
        // What the client sent, kept as sent (it is not replayed to the assistant: see the class's comment).
        root.putObject("weft").set("input", request.input().deepCopy());
        return root;
    }

    private static void completed(ObjectNode response, String itemId, String said, Turn turn) {
        response.put("status", "completed");
        ArrayNode output = response.putArray("output");
        ObjectNode item = item(itemId, "completed");
        ((ArrayNode) item.path("content")).add(text(said));
        output.add(item);
        response.put("output_text", said);
        ObjectNode usage = response.putObject("usage");
        usage.put("input_tokens", turn.usage().promptTokens());
        usage.putObject("input_tokens_details").put("cached_tokens", 0);
        usage.put("output_tokens", turn.usage().completionTokens());
        usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
        usage.put("total_tokens", turn.usage().totalTokens());
        ObjectNode weft = (ObjectNode) response.path("weft");
        weft.put("runId", turn.run().runId());
        weft.put("status", turn.run().status().name());
        weft.put("language", turn.language());
    }

    private static void failed(ObjectNode response, WeftException e) {
        response.put("status", "failed");
        response.putObject("error").put("code", e.code().name()).put("message", e.getMessage());
    }

    private static ObjectNode item(String id, String status) {
        ObjectNode item = Json.object();
        item.put("id", id);
        item.put("type", "message");
        item.put("status", status);
        item.put("role", "assistant");
        item.putArray("content");
        return item;
    }

    private static ObjectNode text(String text) {
        ObjectNode part = Json.object();
        part.put("type", "output_text");
        part.put("text", text);
        part.putArray("annotations");
        part.putArray("logprobs");
        return part;
    }

    private static ObjectNode part(String itemId) {
        return Json.object().put("item_id", itemId).put("output_index", 0).put("content_index", 0);
    }

    private static ObjectNode delta(String itemId, String words) {
        ObjectNode delta = part(itemId).put("delta", words);
        delta.putArray("logprobs");
        return delta;
    }
}
