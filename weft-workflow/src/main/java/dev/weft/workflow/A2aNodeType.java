package dev.weft.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
import dev.weft.core.WeftException;
import dev.weft.workflow.spi.Expression;
import dev.weft.workflow.spi.NodeConfig;
import dev.weft.workflow.spi.NodeType;
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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The workflow node type {@code a2a}: the node asks a remote A2A agent (protocol 0.3) and its output is
 * the agent's answer. {@code "config": {"agent": URL, "message": CEL, "tokenEnv": NAME}}: {@code agent}
 * is where the agent's card is ({@code …/.well-known/agent-card.json}, or the URL it is under), {@code
 * message} a CEL expression for the text to send (over {@code input}, {@code vars}, {@code nodes}), and
 * {@code tokenEnv} the name of the setting that holds the bearer token to send (a secret never lives in
 * a workflow). The node reads the card, sends {@code message/send} to the card's {@code url} with the
 * step's idempotency key as the message id, and outputs {@code {"taskId", "contextId", "state",
 * "text"}}; the call is made at most once per step (a step run again after a crash reads the answer it
 * recorded), and a failure is not retried blind, as the agent may have acted. Thread-safe.
 */
public final class A2aNodeType implements NodeType {
    private static final Set<String> FIELDS = Set.of("agent", "message", "tokenEnv");

    private static final String CARD = ".well-known/agent-card.json";

    private final HttpClient http;
    private final Function<String, Optional<String>> settings;
    private final Duration timeout;

    private A2aNodeType(HttpClient http, Function<String, Optional<String>> settings, Duration timeout) {
        this.http = http;
        this.settings = settings;
        this.timeout = timeout;
    }

    /** An {@code a2a} type whose tokens are read from the process's environment. */
    public static A2aNodeType create() {
        return create(name -> Optional.ofNullable(System.getenv(name)), Duration.ofSeconds(60));
    }

    /**
     * An {@code a2a} type whose tokens are read from {@code settings} by the name a node's {@code
     * tokenEnv} gives, each call waiting at most {@code timeout}.
     */
    public static A2aNodeType create(Function<String, Optional<String>> settings, Duration timeout) {
        Objects.requireNonNull(settings, "settings");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("the A2A call timeout must be positive, was " + timeout);
        }
        HttpClient http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        return new A2aNodeType(http, settings, timeout);
    }

    @Override
    public String name() {
        return "a2a";
    }

    @Override
    public Set<String> configFields() {
        return FIELDS;
    }

    @Override
    public NodeSpec.Builder create(NodeConfig config) {
        String agent = config.requiredString("agent");
        URI card;
        try {
            card = cardOf(URI.create(agent));
        } catch (IllegalArgumentException e) {
            throw config.problem("agent", "must be the http(s) URL of an A2A agent or its card, was '" + agent + "'");
        }
        Expression message = config.expression("message");
        Optional<String> tokenEnv = config.optionalString("tokenEnv");
        String nodeId = config.nodeId();
        return config.spec(context -> {
            JsonNode text = message.evaluate(context);
            if (!text.isTextual() || text.asText().isBlank()) {
                throw new WeftException(
                        ErrorCode.E_NODE_FAILED,
                        "node '" + nodeId + "': \"message\" must give a text to send, gave " + text);
            }
            Optional<String> token = tokenEnv.map(name -> settings.apply(name)
                    .filter(t -> !t.isBlank())
                    .orElseThrow(() -> new WeftException(
                            ErrorCode.E_NODE_FAILED, "node '" + nodeId + "': the setting " + name + " is not set")));
            return NodeResult.output(
                    context.once("a2a", () -> ask(nodeId, card, token, text.asText(), context.idempotencyKey())));
        });
    }

    /** The card's URL: {@code agent} itself when it names the card, else the card under it. */
    static URI cardOf(URI agent) {
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

    private JsonNode ask(String nodeId, URI cardUrl, Optional<String> token, String text, String messageId) {
        AgentCard card = read(nodeId, get(nodeId, cardUrl, token), AgentCard.class, "agent card");
        URI endpoint;
        try {
            endpoint = URI.create(card.url());
        } catch (IllegalArgumentException e) {
            throw new WeftException(
                    ErrorCode.E_NODE_FAILED, "node '" + nodeId + "': the agent card's url is not a URL: " + card.url());
        }
        Message message = new Message.Builder()
                .role(Message.Role.USER)
                .parts(List.<Part<?>>of(new TextPart(text)))
                .messageId(messageId)
                .build();
        SendMessageRequest request = new SendMessageRequest(
                1, new MessageSendParams.Builder().message(message).build());
        String body;
        try {
            body = Utils.OBJECT_MAPPER.writeValueAsString(request);
        } catch (JsonProcessingException e) {
            throw new WeftException(ErrorCode.E_NODE_FAILED, "node '" + nodeId + "': " + e.getOriginalMessage());
        }
        HttpRequest.Builder post = HttpRequest.newBuilder(endpoint)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        token.ifPresent(t -> post.header("Authorization", "Bearer " + t));
        SendMessageResponse response =
                read(nodeId, send(nodeId, post.build()), SendMessageResponse.class, "message/send answer");
        if (response.getError() != null) {
            throw new WeftException(
                    ErrorCode.E_NODE_FAILED,
                    "node '" + nodeId + "': the agent refused the message: "
                            + response.getError().getMessage() + " (JSON-RPC "
                            + response.getError().getCode() + ")");
        }
        return output(response.getResult());
    }

    private String get(String nodeId, URI url, Optional<String> token) {
        HttpRequest.Builder get = HttpRequest.newBuilder(url).timeout(timeout).GET();
        token.ifPresent(t -> get.header("Authorization", "Bearer " + t));
        return send(nodeId, get.build());
    }

    private String send(String nodeId, HttpRequest request) {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new WeftException(
                    ErrorCode.E_NODE_FAILED, "node '" + nodeId + "': " + request.uri() + " did not answer: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WeftException(ErrorCode.E_NODE_FAILED, "node '" + nodeId + "': interrupted");
        }
        if (response.statusCode() != 200) {
            throw new WeftException(
                    ErrorCode.E_NODE_FAILED,
                    "node '" + nodeId + "': " + request.method() + " " + request.uri() + " answered "
                            + response.statusCode()
                            + (response.statusCode() == 401 ? " (the token is missing or wrong: see tokenEnv)" : ""));
        }
        return response.body();
    }

    private static <T> T read(String nodeId, String body, Class<T> type, String what) {
        try {
            return Utils.OBJECT_MAPPER.readValue(body, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new WeftException(
                    ErrorCode.E_NODE_FAILED,
                    "node '" + nodeId + "': the agent's " + what + " cannot be read: " + e.getMessage());
        }
    }

    /** {@code {"taskId", "contextId", "state", "text"}} of a task, or of a message the agent answered with. */
    private static JsonNode output(EventKind result) {
        ObjectNode out = Json.object();
        if (result instanceof Task task) {
            out.put("taskId", task.getId());
            out.put("contextId", task.getContextId());
            out.put("state", task.getStatus().state().asString());
            Message said = task.getStatus().message();
            out.put("text", said == null ? "" : text(said.getParts()));
        } else if (result instanceof Message message) {
            out.putNull("taskId");
            out.put("contextId", message.getContextId());
            out.put("state", "completed");
            out.put("text", text(message.getParts()));
        }
        return out;
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
