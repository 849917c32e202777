package dev.weft.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.OutcomeUnknownException;
import dev.weft.core.TransientException;
import dev.weft.core.WeftException;
import io.a2a.spec.AgentCard;
import io.a2a.spec.EventKind;
import io.a2a.spec.Message;
import io.a2a.spec.MessageSendParams;
import io.a2a.spec.Part;
import io.a2a.spec.SendMessageRequest;
import io.a2a.spec.SendMessageResponse;
import io.a2a.spec.Task;
import io.a2a.spec.TextPart;
import io.a2a.util.Utils;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Asks a remote A2A agent (protocol 0.3, in the A2A Java SDK's types): reads its card, sends {@code
 * message/send} to the card's {@code url} with a bearer token, and reads the task (or message) it answers
 * with. What the workflow node {@code a2a} and the plan tool {@code a2a.send} share. A failure says what
 * is known of the remote side: nothing was sent ({@link TransientException}, {@code E_TOOL_FAILED}: safe
 * to try again), the agent refused ({@code E_AGENT_REFUSED}), or the message left and no answer came
 * back ({@code E_OUTCOME_UNKNOWN}: the agent may have acted). Thread-safe.
 */
public final class A2aClient {
    private static final String CARD = ".well-known/agent-card.json";

    private final HttpClient http;
    private final Duration timeout;

    private A2aClient(HttpClient http, Duration timeout) {
        this.http = http;
        this.timeout = timeout;
    }

    /** A client whose every request waits at most {@code timeout}. */
    public static A2aClient create(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the A2A call timeout must be positive, was " + timeout);
        }
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        return new A2aClient(http, timeout);
    }

    /** A message to send: its text, its id, and the task and context it answers (empty for a new task). */
    public record Outgoing(String text, String messageId, Optional<String> taskId, Optional<String> contextId) {
        public Outgoing {
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(messageId, "messageId");
            Objects.requireNonNull(taskId, "taskId");
            Objects.requireNonNull(contextId, "contextId");
        }

        /** The first message of a new task. */
        public static Outgoing start(String text, String messageId) {
            return new Outgoing(text, messageId, Optional.empty(), Optional.empty());
        }
    }

    /**
     * What the agent answered: the task's id and context (no task id when it answered with a message), its
     * state as A2A 0.3 names it ({@code completed}, {@code input-required}, …), and the text it said.
     */
    public record Reply(Optional<String> taskId, Optional<String> contextId, String state, String text) {
        public Reply {
            Objects.requireNonNull(taskId, "taskId");
            Objects.requireNonNull(contextId, "contextId");
            Objects.requireNonNull(state, "state");
            Objects.requireNonNull(text, "text");
        }

        /** Whether the task waits for the user's answer. */
        public boolean inputRequired() {
            return state.equals("input-required");
        }

        /** {@code {"taskId", "contextId", "state", "text"}}, the ids null when absent. */
        public ObjectNode toJson() {
            ObjectNode out = Json.object();
            taskId.ifPresentOrElse(id -> out.put("taskId", id), () -> out.putNull("taskId"));
            contextId.ifPresentOrElse(id -> out.put("contextId", id), () -> out.putNull("contextId"));
            out.put("state", state);
            out.put("text", text);
            return out;
        }

        /** A reply as {@link #toJson} wrote it. */
        public static Reply fromJson(com.fasterxml.jackson.databind.JsonNode json) {
            return new Reply(
                    optionalText(json.path("taskId")),
                    optionalText(json.path("contextId")),
                    json.path("state").asText(),
                    json.path("text").asText());
        }

        private static Optional<String> optionalText(com.fasterxml.jackson.databind.JsonNode node) {
            return node.isTextual() ? Optional.of(node.asText()) : Optional.empty();
        }
    }

    /** A call to a remote agent that failed; its code says whether the agent may have acted. */
    public static final class CallFailedException extends WeftException {
        private static final long serialVersionUID = 1L;

        private final int status;

        CallFailedException(ErrorCode code, String message, int status) {
            super(code, message);
            this.status = status;
        }

        /** The HTTP status the agent answered with, or 0 when it gave none. */
        public int status() {
            return status;
        }
    }

    /**
     * The card's URL of {@code agent}: {@code agent} itself when it names the card, else the card under
     * it.
     *
     * @throws IllegalArgumentException when {@code agent} is not an http(s) URL
     */
    public static URI cardOf(URI agent) {
        String scheme = agent.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || agent.getHost() == null) {
            throw new IllegalArgumentException("not an http(s) URL");
        }
        if (agent.getPath() != null && agent.getPath().endsWith(CARD)) {
            return agent;
        }
        String base = agent.toString();
        return URI.create(base.endsWith("/") ? base : base + "/").resolve(CARD);
    }

    /**
     * Reads the card at {@code cardUrl} and sends {@code message} to the agent, with {@code token} as the
     * bearer token when present.
     *
     * @throws WeftException {@code E_TOOL_FAILED} (transient) when the card cannot be read or the agent
     *     cannot be reached: nothing was sent; {@code E_AGENT_REFUSED} when it refused the token or the
     *     message; {@code E_OUTCOME_UNKNOWN} when the message was sent and no readable answer came back
     */
    public Reply send(URI cardUrl, Optional<String> token, Outgoing message) {
        AgentCard card = read(get(cardUrl, token), AgentCard.class, "agent card", ErrorCode.E_TOOL_FAILED);
        URI endpoint;
        try {
            endpoint = URI.create(card.url());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new CallFailedException(
                    ErrorCode.E_TOOL_FAILED,
                    "the agent card at " + cardUrl + " has no URL to send to: " + card.url(),
                    0);
        }
        Message.Builder built = new Message.Builder()
                .role(Message.Role.USER)
                .parts(List.<Part<?>>of(new TextPart(message.text())))
                .messageId(message.messageId());
        message.taskId().ifPresent(built::taskId);
        message.contextId().ifPresent(built::contextId);
        SendMessageRequest request = new SendMessageRequest(
                1, new MessageSendParams.Builder().message(built.build()).build());
        String body;
        try {
            body = Utils.OBJECT_MAPPER.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            throw new CallFailedException(ErrorCode.E_TOOL_FAILED, e.getOriginalMessage(), 0);
        }
        HttpRequest.Builder post = HttpRequest.newBuilder(endpoint)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        token.ifPresent(t -> post.header("Authorization", "Bearer " + t));
        SendMessageResponse response =
                read(post(post.build()), SendMessageResponse.class, "message/send answer", ErrorCode.E_OUTCOME_UNKNOWN);
        if (response.getError() != null) {
            throw new CallFailedException(
                    ErrorCode.E_AGENT_REFUSED,
                    "the agent at " + endpoint + " refused the message: "
                            + response.getError().getMessage() + " (JSON-RPC "
                            + response.getError().getCode() + ")",
                    200);
        }
        return replyOf(response.getResult());
    }

    private String get(URI url, Optional<String> token) {
        HttpRequest.Builder get = HttpRequest.newBuilder(url).timeout(timeout).GET();
        token.ifPresent(t -> get.header("Authorization", "Bearer " + t));
        HttpRequest request = get.build();
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new TransientException(
                    ErrorCode.E_TOOL_FAILED, "the agent card at " + url + " cannot be read: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WeftException(ErrorCode.E_CANCELLED, "interrupted while reading " + url);
        }
        return body(request, response);
    }

    private String post(HttpRequest request) {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (ConnectException | HttpConnectTimeoutException e) {
            // No connection was made, so the agent never saw the message.
            throw new TransientException(ErrorCode.E_TOOL_FAILED, request.uri() + " cannot be reached: " + e, e);
        } catch (IOException e) {
            throw new OutcomeUnknownException(
                    "the message was sent to " + request.uri() + " and no answer came back (" + e
                            + "): the agent may have acted on it",
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OutcomeUnknownException(
                    "interrupted while " + request.uri() + " had the message: the agent may have acted on it");
        }
        return body(request, response);
    }

    private static String body(HttpRequest request, HttpResponse<String> response) {
        int status = response.statusCode();
        if (status == 401 || status == 403) {
            throw new CallFailedException(
                    ErrorCode.E_AGENT_REFUSED,
                    request.method() + " " + request.uri() + " answered " + status + ": the token is missing or wrong",
                    status);
        }
        if (status != 200) {
            throw new CallFailedException(
                    status >= 500 && request.method().equals("POST")
                            ? ErrorCode.E_OUTCOME_UNKNOWN
                            : ErrorCode.E_TOOL_FAILED,
                    request.method() + " " + request.uri() + " answered " + status,
                    status);
        }
        return response.body();
    }

    private static <T> T read(String body, Class<T> type, String what, ErrorCode code) {
        try {
            return Utils.OBJECT_MAPPER.readValue(body, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new CallFailedException(code, "the agent's " + what + " cannot be read: " + e.getMessage(), 200);
        }
    }

    private static Reply replyOf(EventKind result) {
        if (result instanceof Task task) {
            Message said = task.getStatus().message();
            return new Reply(
                    Optional.ofNullable(task.getId()),
                    Optional.ofNullable(task.getContextId()),
                    task.getStatus().state().asString(),
                    said == null ? "" : text(said.getParts()));
        }
        if (result instanceof Message message) {
            return new Reply(
                    Optional.empty(),
                    Optional.ofNullable(message.getContextId()),
                    "completed",
                    text(message.getParts()));
        }
        throw new CallFailedException(
                ErrorCode.E_OUTCOME_UNKNOWN, "the agent answered with neither a task nor a message: " + result, 200);
    }

    private static String text(List<Part<?>> parts) {
        StringBuilder text = new StringBuilder();
        for (Part<?> part : parts) {
            if (part instanceof TextPart t) {
                text.append(text.isEmpty() ? "" : "\n").append(t.getText());
            }
        }
        return text.toString();
    }
}
