package dev.weft.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
import dev.weft.core.WeftException;
import dev.weft.workflow.spi.Expression;
import dev.weft.workflow.spi.NodeConfig;
import dev.weft.workflow.spi.NodeType;
import java.net.URI;
import java.time.Duration;
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
 * recorded), and a failure is not retried blind, as the agent may have acted. The calls are {@link
 * A2aClient}'s, as the plan tool {@code a2a.send}'s are. Thread-safe.
 */
public final class A2aNodeType implements NodeType {
    private static final Set<String> FIELDS = Set.of("agent", "message", "tokenEnv");

    private final A2aClient client;
    private final Function<String, Optional<String>> settings;

    private A2aNodeType(A2aClient client, Function<String, Optional<String>> settings) {
        this.client = client;
        this.settings = settings;
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
        return new A2aNodeType(A2aClient.create(timeout), settings);
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
        return A2aClient.cardOf(agent);
    }

    private JsonNode ask(String nodeId, URI cardUrl, Optional<String> token, String text, String messageId) {
        try {
            return client.send(cardUrl, token, A2aClient.Outgoing.start(text, messageId))
                    .toJson();
        } catch (WeftException e) {
            boolean refusedKey = e instanceof A2aClient.CallFailedException failed
                    && (failed.status() == 401 || failed.status() == 403);
            throw new WeftException(
                    ErrorCode.E_NODE_FAILED,
                    "node '" + nodeId + "': " + e.getMessage() + (refusedKey ? " (see tokenEnv)" : ""));
        }
    }
}
