package dev.weft.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.Turn;
import dev.weft.assistant.Vouch;
import dev.weft.core.ErrorCode;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunIds;
import dev.weft.core.RunStatus;
import dev.weft.core.WeftException;
import dev.weft.plan.Tool;
import dev.weft.store.AppDatabase;
import io.a2a.spec.AgentCapabilities;
import io.a2a.spec.AgentCard;
import io.a2a.spec.AgentInterface;
import io.a2a.spec.AgentSkill;
import io.a2a.spec.Artifact;
import io.a2a.spec.CancelTaskRequest;
import io.a2a.spec.CancelTaskResponse;
import io.a2a.spec.GetTaskRequest;
import io.a2a.spec.GetTaskResponse;
import io.a2a.spec.HTTPAuthSecurityScheme;
import io.a2a.spec.InternalError;
import io.a2a.spec.InvalidParamsError;
import io.a2a.spec.InvalidRequestError;
import io.a2a.spec.JSONParseError;
import io.a2a.spec.JSONRPCError;
import io.a2a.spec.JSONRPCErrorResponse;
import io.a2a.spec.Message;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.MethodNotFoundError;
import io.a2a.spec.Part;
import io.a2a.spec.SecurityScheme;
import io.a2a.spec.SendMessageRequest;
import io.a2a.spec.SendMessageResponse;
import io.a2a.spec.SendStreamingMessageRequest;
import io.a2a.spec.SendStreamingMessageResponse;
import io.a2a.spec.Task;
import io.a2a.spec.TaskArtifactUpdateEvent;
import io.a2a.spec.TaskIdParams;
import io.a2a.spec.TaskNotCancelableError;
import io.a2a.spec.TaskNotFoundError;
import io.a2a.spec.TaskQueryParams;
import io.a2a.spec.TaskState;
import io.a2a.spec.TaskStatus;
import io.a2a.spec.TaskStatusUpdateEvent;
import io.a2a.spec.TextPart;
import io.a2a.util.Utils;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A2A (Agent2Agent, protocols 1.0 and 0.3): every assistant is an agent at {@code /a2a/{name}} — its card at
 * {@code /a2a/{name}/.well-known/agent-card.json} (Memo's also at {@code /.well-known/agent-card.json}),
 * JSON-RPC at the card's {@code url}: {@code message/send}, {@code message/stream} (server-sent events),
 * {@code tasks/get}, {@code tasks/cancel}. A task is one of the assistant's runs, its id the run's, its
 * context the conversation: a run that waits on an approval or a question is the task's {@code
 * input-required} state, and the next message on that task (its {@code taskId}) answers it. Calls act
 * as the API key's user; another user's task is not found. The protocol's types, requests, responses and
 * errors are the A2A Java SDK's; the routing is Helidon's.
 *
 * <p>Both protocol versions are served at the same endpoint, told apart by the method a request names:
 * 1.0's {@code SendMessage}, {@code SendStreamingMessage}, {@code GetTask} and {@code CancelTask} are
 * answered in 1.0's shapes ({@link A2aV1}), 0.3's {@code message/send}, … in 0.3's. The card carries
 * both: 0.3's {@code url}, {@code protocolVersion} and {@code preferredTransport}, and 1.0's {@code
 * supportedInterfaces}, which names the same endpoint once for each version.
 */
final class A2aApi {
    /** The older A2A protocol version served, the A2A Java SDK's: the methods {@code message/send}, …. */
    static final String PROTOCOL = "0.3.0";

    private static final String CARD = "/.well-known/agent-card.json";

    /** The assistant whose card is the server's own ({@code /.well-known/agent-card.json}). */
    private static final String DEFAULT_AGENT = "memo";

    private static final String SECURITY_SCHEME = "bearer";

    /** The header an A2A 1.0 client names its protocol version in; absent means 0.3. */
    private static final HeaderName VERSION_HEADER = HeaderNames.create("A2A-Version");

    /** A2A's JSON-RPC error code for a protocol version the agent does not serve. */
    private static final int VERSION_NOT_SUPPORTED = -32009;

    private final Backend backend;
    private final A2aTasks tasks;

    A2aApi(Backend backend) {
        this.backend = backend;
        this.tasks = new A2aTasks(AppDatabase.of(backend.store()));
    }

    void register(Routes routes) {
        routes.get(CARD, (req, res) -> card(req, res, DEFAULT_AGENT));
        routes.get(
                "/a2a/{name}" + CARD,
                (req, res) -> card(req, res, req.path().pathParameters().get("name")));
        routes.post("/a2a/{name}", this::rpc);
    }

    /** Whether {@code path} is an agent card, which any client may read before it has a key. */
    static boolean isCard(String path) {
        return path.equals(CARD) || (path.startsWith("/a2a/") && path.endsWith(CARD));
    }

    private void card(ServerRequest req, ServerResponse res, String name) {
        Assistant assistant = backend.assistants().get(name);
        String url = base(req) + "a2a/" + assistant.name();
        List<AgentSkill> skills = new ArrayList<>();
        for (Tool tool : assistant.tools().all()) {
            skills.add(new AgentSkill(
                    tool.name(),
                    tool.name(),
                    tool.description(),
                    List.of(assistant.name(), tool.risk().name().toLowerCase(Locale.ROOT)),
                    null,
                    null,
                    null,
                    null));
        }
        AgentCard card = new AgentCard.Builder()
                .name(assistant.name())
                .description(assistant.description())
                .url(url)
                .version("0.1.0")
                .protocolVersion(PROTOCOL)
                .preferredTransport("JSONRPC")
                .additionalInterfaces(List.of(new AgentInterface("JSONRPC", url)))
                .capabilities(new AgentCapabilities.Builder()
                        .streaming(true)
                        .pushNotifications(false)
                        .stateTransitionHistory(false)
                        .build())
                .defaultInputModes(List.of("text/plain"))
                .defaultOutputModes(List.of("text/plain"))
                .skills(skills)
                .securitySchemes(Map.<String, SecurityScheme>of(
                        SECURITY_SCHEME,
                        new HTTPAuthSecurityScheme.Builder()
                                .scheme("bearer")
                                .description("A Weft API key ('weft keys create --user ID'); the agent acts as its"
                                        + " user")
                                .build()))
                .security(List.of(Map.of(SECURITY_SCHEME, List.of())))
                .build();
        ObjectNode both = Utils.OBJECT_MAPPER.valueToTree(card);
        // A 1.0 client reads only supportedInterfaces and prefers the one of version 1.0; a 0.3
        // client reads url and protocolVersion and ignores the field it does not know.
        ArrayNode interfaces = both.putArray("supportedInterfaces");
        for (String version : List.of(A2aV1.VERSION, PROTOCOL)) {
            interfaces
                    .addObject()
                    .put("url", url)
                    .put("protocolBinding", "JSONRPC")
                    .put("protocolVersion", version);
        }
        both.putArray("securityRequirements")
                .addObject()
                .putObject("schemes")
                .putObject(SECURITY_SCHEME)
                .putArray("list");
        // A 1.0 client asks with its version header and gets 1.0's card (its security schemes as the
        // protocol's oneof); any other gets 0.3's, which 1.0 clients without the header can read too.
        res.header(HeaderNames.VARY, VERSION_HEADER.defaultCase());
        send(res, asksFor10(req) ? A2aV1.card(both) : both);
    }

    /** The server's address as the client reached it, ending in {@code /}. */
    private static String base(ServerRequest req) {
        String host = req.headers()
                .first(HeaderNames.HOST)
                .orElse(req.localPeer().host() + ":" + req.localPeer().port());
        String scheme =
                req.headers().first(HeaderNames.create("X-Forwarded-Proto")).orElse(req.isSecure() ? "https" : "http");
        return scheme + "://" + host + "/";
    }

    private void rpc(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        Assistant assistant =
                backend.assistants().get(req.path().pathParameters().get("name"));
        JsonNode body;
        try {
            body = Utils.OBJECT_MAPPER.readTree(Http.bytes(req));
        } catch (java.io.IOException e) {
            send(res, new JSONRPCErrorResponse(new JSONParseError("the request is not JSON: " + e.getMessage())));
            return;
        }
        Object id = body == null ? null : id(body.path("id"));
        try {
            if (body == null
                    || !body.isObject()
                    || !body.path("jsonrpc").asText().equals("2.0")
                    || !body.path("method").isTextual()) {
                throw new InvalidRequestError("a JSON-RPC 2.0 request with a method is expected");
            }
            version(req);
            JsonNode params = body.path("params");
            String method = body.path("method").asText();
            boolean v1 = A2aV1.METHODS.containsKey(method);
            switch (v1 ? A2aV1.METHODS.get(method) : method) {
                case SendMessageRequest.METHOD ->
                    answer(
                            res,
                            new SendMessageResponse(
                                    id,
                                    turn(
                                            caller,
                                            assistant,
                                            params(v1 ? A2aV1.sendParams(params) : params, MessageSendParams.class),
                                            caller.vouch(req, assistant))),
                            v1,
                            A2aV1::wrapped);
                case SendStreamingMessageRequest.METHOD ->
                    stream(
                            res,
                            id,
                            caller,
                            assistant,
                            params(v1 ? A2aV1.sendParams(params) : params, MessageSendParams.class),
                            caller.vouch(req, assistant),
                            v1);
                case GetTaskRequest.METHOD -> {
                    TaskQueryParams query = params(params, TaskQueryParams.class);
                    answer(
                            res,
                            new GetTaskResponse(id, task(known(caller, assistant, query.id()), query.historyLength())),
                            v1,
                            A2aV1::task);
                }
                case CancelTaskRequest.METHOD ->
                    answer(
                            res,
                            new CancelTaskResponse(id, cancel(caller, assistant, params(params, TaskIdParams.class))),
                            v1,
                            A2aV1::task);
                default -> throw new MethodNotFoundError();
            }
        } catch (JSONRPCError e) {
            send(res, new JSONRPCErrorResponse(id, e));
        } catch (NotFoundException e) {
            send(res, new JSONRPCErrorResponse(id, new TaskNotFoundError(null, e.getMessage(), null)));
        } catch (WeftException e) {
            send(res, new JSONRPCErrorResponse(id, error(e)));
        }
    }

    /** Whether the request's {@code A2A-Version} header names 1.0 (or a later 1.x). */
    private static boolean asksFor10(ServerRequest req) {
        return req.headers()
                .first(VERSION_HEADER)
                .map(String::strip)
                .filter(v -> v.startsWith("1."))
                .isPresent();
    }

    /**
     * Refuses a request whose {@code A2A-Version} header names a version not served; no header is 0.3,
     * as the 1.0 specification has it.
     */
    private static void version(ServerRequest req) {
        Optional<String> asked = req.headers().first(VERSION_HEADER).map(String::strip);
        if (asked.isPresent()
                && !asked.get().isEmpty()
                && !asked.get().startsWith(A2aV1.VERSION)
                && !asked.get().startsWith("0.3")) {
            throw new JSONRPCError(
                    VERSION_NOT_SUPPORTED,
                    "A2A version '" + asked.get() + "' is not served; this agent speaks 1.0 and 0.3",
                    Map.of("code", ErrorCode.E_BAD_INPUT.name(), "supported", List.of(A2aV1.VERSION, PROTOCOL)));
        }
    }

    /** Sends {@code response}, its {@code result} in 1.0's shape ({@code toV1}) when the call was 1.0's. */
    private static void answer(ServerResponse res, Object response, boolean v1, UnaryOperator<JsonNode> toV1) {
        send(res, v1 ? v1(response, toV1) : response);
    }

    private static JsonNode v1(Object response, UnaryOperator<JsonNode> toV1) {
        ObjectNode tree = Utils.OBJECT_MAPPER.valueToTree(response);
        JsonNode result = tree.get("result");
        if (result != null && !result.isNull()) {
            tree.set("result", toV1.apply(result));
        }
        return tree;
    }

    /** The JSON-RPC error a failure of the assistant's is reported as (its Weft code in {@code data}). */
    private static JSONRPCError error(WeftException e) {
        Map<String, Object> data = Map.of("code", e.code().name());
        return Http.status(e.code()) < 500
                ? new InvalidParamsError(null, e.getMessage(), data)
                : new InternalError(null, e.getMessage(), data);
    }

    private static @Nullable Object id(JsonNode id) {
        if (id.isTextual()) {
            return id.asText();
        }
        if (id.isIntegralNumber() && id.canConvertToInt()) {
            return id.asInt();
        }
        if (id.isNumber()) {
            // The SDK's responses carry a string or an Integer id; a larger number keeps its digits.
            return id.asText();
        }
        return null;
    }

    private static <T> T params(JsonNode params, Class<T> type) {
        if (!params.isObject()) {
            throw new InvalidParamsError("\"params\" must be an object");
        }
        try {
            return Utils.OBJECT_MAPPER.treeToValue(params, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new InvalidParamsError("\"params\" are not " + type.getSimpleName() + ": "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }

    /**
     * One message's turn, worked out before it runs: the task it is (a new one, or the waiting one it
     * answers), the conversation, the user's message as kept, and the assistant's message.
     */
    private record Turning(
            String taskId,
            String newRunId,
            String contextId,
            List<Message> history,
            dev.weft.assistant.Message message) {}

    private Turning prepare(Caller caller, Assistant assistant, MessageSendParams params, Optional<Vouch> vouch) {
        Message sent = params.message();
        if (sent == null) {
            throw new InvalidParamsError("\"params.message\" is required");
        }
        StringBuilder text = new StringBuilder();
        for (Part<?> part : sent.getParts()) {
            if (part instanceof TextPart t) {
                text.append(text.isEmpty() ? "" : "\n").append(t.getText());
            }
        }
        if (text.toString().isBlank()) {
            throw new InvalidParamsError("the message has no text part: " + assistant.name() + " reads text");
        }
        String newRunId = RunIds.next();
        String taskId;
        String contextId;
        List<Message> history = new ArrayList<>();
        if (sent.getTaskId() != null) {
            A2aTasks.Stored task = known(caller, assistant, sent.getTaskId());
            Run run = run(task.id());
            if (run.status() != RunStatus.WAITING) {
                throw new InvalidParamsError(
                        "task '" + task.id() + "' is " + state(run.status()).asString()
                                + ": it takes no more messages; send one without a taskId to start a new task");
            }
            if (sent.getContextId() != null && !sent.getContextId().equals(task.contextId())) {
                throw new InvalidParamsError("task '" + task.id() + "' belongs to context '" + task.contextId()
                        + "', not '" + sent.getContextId() + "'");
            }
            if (!assistant
                    .continues(backend.runner(), caller.user(), task.contextId())
                    .equals(Optional.of(task.id()))) {
                throw new InvalidParamsError(
                        "task '" + task.id() + "' no longer waits on its conversation's next message");
            }
            taskId = task.id();
            contextId = task.contextId();
            history.addAll(task.history());
        } else {
            contextId = sent.getContextId() != null && !sent.getContextId().isBlank()
                    ? sent.getContextId()
                    : "ctx-" + UUID.randomUUID();
            Optional<String> continued = assistant.continues(backend.runner(), caller.user(), contextId);
            taskId = continued.orElse(newRunId);
            continued.flatMap(t -> tasks.find(caller.user(), t)).ifPresent(t -> history.addAll(t.history()));
        }
        Message kept =
                new Message.Builder(sent).taskId(taskId).contextId(contextId).build();
        history.add(kept);
        dev.weft.assistant.Message message = dev.weft.assistant.Message.of(caller.user(), text.toString())
                .session(contextId)
                .vouch(vouch);
        return new Turning(taskId, newRunId, contextId, history, message);
    }

    /** Keeps what the turn said on its task, and answers the task as it now stands. */
    private Task finish(Caller caller, Assistant assistant, Turning turning, Turn turn) {
        String taskId = turn.run().runId();
        List<Message> history = new ArrayList<>(turning.history());
        history.add(new Message.Builder()
                .role(Message.Role.AGENT)
                .parts(List.of(new TextPart(turn.text())))
                .messageId("msg-" + UUID.randomUUID())
                .taskId(taskId)
                .contextId(turning.contextId())
                .build());
        A2aTasks.Stored stored =
                new A2aTasks.Stored(taskId, caller.user(), assistant.name(), turning.contextId(), history);
        tasks.put(stored, backend.runner().time().now());
        return task(stored, 0);
    }

    private Task turn(Caller caller, Assistant assistant, MessageSendParams params, Optional<Vouch> vouch) {
        Turning turning = prepare(caller, assistant, params, vouch);
        Turn turn = assistant.converse(backend.runner(), turning.message().runId(turning.newRunId()));
        return finish(caller, assistant, turning, turn);
    }

    /**
     * The turn as server-sent events, each a JSON-RPC response to the request: the task as it starts
     * ({@code working}), the model's words as its run produces them (artifact updates of the reply), and
     * the final status update, {@code input-required} when the run waits for the user.
     */
    private void stream(
            ServerResponse res,
            @Nullable Object id,
            Caller caller,
            Assistant assistant,
            MessageSendParams params,
            Optional<Vouch> vouch,
            boolean v1) {
        Turning turning = prepare(caller, assistant, params, vouch);
        try (StreamedTurn turn = StreamedTurn.start(backend, assistant, turning.message(), turning.newRunId());
                EventStream sink = EventStream.open(res)) {
            sink.data(event(
                    v1,
                    new SendStreamingMessageResponse(
                            id,
                            new Task.Builder()
                                    .id(turning.taskId())
                                    .contextId(turning.contextId())
                                    .status(new TaskStatus(TaskState.WORKING))
                                    .history(turning.history())
                                    .build())));
            boolean appending = false;
            for (Optional<String> word = turn.next(); word.isPresent(); word = turn.next()) {
                sink.data(event(
                        v1,
                        new SendStreamingMessageResponse(
                                id,
                                new TaskArtifactUpdateEvent.Builder()
                                        .taskId(turning.taskId())
                                        .contextId(turning.contextId())
                                        .artifact(reply(word.get()))
                                        .append(appending)
                                        .lastChunk(false)
                                        .build())));
                appending = true;
            }
            Task done;
            try {
                done = finish(caller, assistant, turning, turn.result());
            } catch (CompletionException e) {
                JSONRPCError error = e.getCause() instanceof WeftException w
                        ? error(w)
                        : new InternalError(String.valueOf(e.getCause()));
                sink.data(event(v1, new SendStreamingMessageResponse(id, error)));
                return;
            }
            sink.data(event(
                    v1,
                    new SendStreamingMessageResponse(
                            id,
                            new TaskStatusUpdateEvent(
                                    done.getId(), done.getStatus(), done.getContextId(), true, null))));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (UncheckedIOException e) {
            // The client left; the run goes on and is kept, and tasks/get shows how it ended.
        }
    }

    /** One event of a stream, as the version of the call spells it. */
    private static String event(boolean v1, SendStreamingMessageResponse event) {
        return json(v1 ? v1(event, A2aV1::wrapped) : event);
    }

    private Task cancel(Caller caller, Assistant assistant, TaskIdParams params) {
        A2aTasks.Stored task = known(caller, assistant, params.id());
        if (run(task.id()).status().isFinished()) {
            throw new TaskNotCancelableError(
                    null,
                    "task '" + task.id() + "' is "
                            + state(run(task.id()).status()).asString(),
                    null);
        }
        backend.runner().cancel(task.id());
        return task(task, 0);
    }

    /** {@code caller}'s task {@code id} of {@code assistant}'s; another user's is not found. */
    private A2aTasks.Stored known(Caller caller, Assistant assistant, @Nullable String id) {
        if (id == null || id.isBlank()) {
            throw new InvalidParamsError("a task id is required");
        }
        return tasks.find(caller.user(), id)
                .filter(t -> t.assistant().equals(assistant.name()))
                .orElseThrow(() -> new TaskNotFoundError(null, "no task '" + id + "'", null));
    }

    private Run run(String id) {
        return backend.store().findRun(id).orElseThrow(() -> new TaskNotFoundError(null, "no task '" + id + "'", null));
    }

    /** The task as its run now stands; the last {@code historyLength} messages when positive. */
    private Task task(A2aTasks.Stored stored, int historyLength) {
        Run run = run(stored.id());
        TaskState state = state(run.status());
        Optional<Message> said = stored.history().reversed().stream()
                .filter(m -> m.getRole() == Message.Role.AGENT)
                .findFirst();
        List<Message> history = stored.history();
        if (historyLength > 0 && history.size() > historyLength) {
            history = history.subList(history.size() - historyLength, history.size());
        }
        Task.Builder task = new Task.Builder()
                .id(stored.id())
                .contextId(stored.contextId())
                .status(new TaskStatus(state, said.orElse(null), null))
                .history(history)
                .metadata(Map.of(
                        "weft/runId", run.id(), "weft/status", run.status().name()));
        if (state == TaskState.COMPLETED && said.isPresent()) {
            task.artifacts(List.of(reply(((TextPart) said.get().getParts().get(0)).getText())));
        }
        return task.build();
    }

    private static Artifact reply(String text) {
        return new Artifact.Builder()
                .artifactId("reply")
                .name("reply")
                .parts(List.of(new TextPart(text)))
                .build();
    }

    /** A run's status as an A2A task's state: a run that waits for a person wants input. */
    static TaskState state(RunStatus status) {
        return switch (status) {
            case PENDING -> TaskState.SUBMITTED;
            case RUNNING -> TaskState.WORKING;
            case WAITING -> TaskState.INPUT_REQUIRED;
            case COMPLETED -> TaskState.COMPLETED;
            case FAILED -> TaskState.FAILED;
            case CANCELLED -> TaskState.CANCELED;
        };
    }

    private static String json(Object value) {
        try {
            return Utils.OBJECT_MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new WeftException(ErrorCode.E_INTERNAL, "cannot write an A2A answer: " + e.getOriginalMessage());
        }
    }

    private static void send(ServerResponse res, Object value) {
        res.status(200);
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.send(json(value).getBytes(StandardCharsets.UTF_8));
    }
}
