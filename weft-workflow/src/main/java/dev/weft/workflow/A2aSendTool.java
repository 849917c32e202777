package dev.weft.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.plan.InputRequiredException;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.plan.Risk;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolContext;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The plan tool {@code a2a.send}: a plan step asks a remote A2A agent, one of those configured ({@link
 * A2aAgent}), and its result is the agent's answer, {@code {"agent", "taskId", "contextId", "state",
 * "text"}}. Arguments: {@code {"agent": NAME, "text": WHAT}}; an agent that is not configured, or no
 * text, is {@code E_ARGS_INVALID} before anything is sent. Each call's risk is its agent's: a high-risk
 * agent's message waits for a person's yes.
 *
 * <p>A remote task that asks something back ({@code input-required}) makes the step wait with the
 * agent's question ({@link InputRequiredException}); the user's answer ({@code reply}, or {@code choice}
 * for a number) is sent on the same task, and so on until the task ends. Every message is sent at most
 * once ({@link ToolContext#once}, keyed by the run, the step and the turn; the message id is the same
 * key), so a step run again after a crash or an answer reads what it sent before instead of sending it
 * again. A task that ends {@code failed}, {@code rejected} or {@code canceled} fails the step ({@code
 * E_TOOL_FAILED}); a refused token is {@code E_AGENT_REFUSED}; a message whose answer was lost is {@code
 * E_OUTCOME_UNKNOWN} (a high-risk step then asks a person whether to send it again). The calls are
 * {@link A2aClient}'s, as the workflow node {@code a2a}'s are. Thread-safe.
 */
public final class A2aSendTool {
    /** The tool's name. */
    public static final String NAME = "a2a.send";

    /** The capability of a plan step that asks a remote agent: {@code {"capability": "a2a", "action": "send"}}. */
    public static final String CAPABILITY = "a2a";

    /** The most turns one step takes with an agent that keeps asking: past it the step fails. */
    static final int MAX_TURNS = 10;

    private A2aSendTool() {}

    /**
     * The tool over {@code agents}, reading each agent's token from {@code settings} by the setting's name,
     * each request waiting at most {@code timeout}.
     *
     * @throws IllegalArgumentException when no agent is given or two share a name
     */
    public static Tool create(List<A2aAgent> agents, Function<String, Optional<String>> settings, Duration timeout) {
        Map<String, A2aAgent> byName = new LinkedHashMap<>();
        for (A2aAgent agent : agents) {
            if (byName.put(agent.name(), agent) != null) {
                throw new IllegalArgumentException("two A2A agents are named '" + agent.name() + "'");
            }
        }
        if (byName.isEmpty()) {
            throw new IllegalArgumentException("a2a.send needs at least one A2A agent to send to");
        }
        A2aClient client = A2aClient.create(timeout);
        return Tool.json(
                        NAME,
                        "Sends a message to a remote A2A agent (" + String.join(", ", byName.keySet())
                                + ") and gives its answer; a question it asks back is put to the user.",
                        inputSchema(byName.keySet()),
                        outputSchema(),
                        (args, context) ->
                                send(byName.get(args.path("agent").asText()), args, context, client, settings))
                .risk(args -> {
                    A2aAgent agent = byName.get(args.path("agent").asText());
                    return agent == null ? Risk.HIGH : agent.risk();
                })
                // Never called twice blind: each message is kept under once(), and a lost answer is E_OUTCOME_UNKNOWN.
                .idempotent(false)
                .timeout(timeout.multipliedBy(2).plusSeconds(1))
                .build();
    }

    /** Resolves a step of capability {@code a2a}: {@code a2a.send} with the step's constraints. */
    public static Resolver resolver() {
        return new Resolver() {
            @Override
            public String name() {
                return "a2a-agents";
            }

            @Override
            public String capability() {
                return CAPABILITY;
            }

            @Override
            public Set<String> actions() {
                return Set.of("send");
            }

            @Override
            public Optional<String> tool(PlanStep step) {
                return Optional.of(NAME);
            }

            @Override
            public Resolution resolve(PlanStep step, ResolveContext context) {
                return Resolution.execute(NAME, step.constraints().deepCopy());
            }
        };
    }

    private static JsonNode send(
            A2aAgent agent,
            ObjectNode args,
            ToolContext context,
            A2aClient client,
            Function<String, Optional<String>> settings) {
        Optional<String> token = agent.tokenEnv()
                .map(name -> settings.apply(name)
                        .filter(t -> !t.isBlank())
                        .orElseThrow(() -> new WeftException(
                                ErrorCode.E_AGENT_REFUSED,
                                "A2A agent '" + agent.name() + "': the setting " + name
                                        + " that holds its token is not set; nothing was sent")));
        String key = context.idempotencyKey();
        A2aClient.Reply reply = A2aClient.Reply.fromJson(context.once(
                "a2a.0",
                () -> client.send(
                                agent.card(),
                                token,
                                A2aClient.Outgoing.start(args.path("text").asText(), key))
                        .toJson()));
        Optional<String> answer = answer(args);
        boolean answered = false;
        for (int turn = 1; reply.inputRequired(); turn++) {
            if (turn > MAX_TURNS) {
                throw new WeftException(
                        ErrorCode.E_TOOL_FAILED,
                        "A2A agent '" + agent.name() + "' still asks after " + MAX_TURNS + " answers; its task "
                                + reply.taskId().orElse("?") + " is left waiting");
            }
            A2aClient.Reply asking = reply;
            boolean answerNow = answer.isPresent() && !answered;
            String messageId = key + "/" + turn;
            // A turn already sent (an answer given on an earlier resume) is read back, never sent again.
            reply = A2aClient.Reply.fromJson(context.once("a2a." + turn, () -> {
                if (!answerNow) {
                    throw new InputRequiredException(agent.name() + " asks: " + asking.text());
                }
                return client.send(
                                agent.card(),
                                token,
                                new A2aClient.Outgoing(
                                        answer.orElseThrow(), messageId, asking.taskId(), asking.contextId()))
                        .toJson();
            }));
            if (answerNow) {
                answered = true;
            }
        }
        return switch (reply.state()) {
            case "completed" -> result(agent, reply);
            case "auth-required" ->
                throw new WeftException(
                        ErrorCode.E_AGENT_REFUSED,
                        "A2A agent '" + agent.name() + "' wants another sign-in for task "
                                + reply.taskId().orElse("?") + ": " + reply.text());
            default ->
                throw new WeftException(
                        ErrorCode.E_TOOL_FAILED,
                        "A2A agent '" + agent.name() + "' ended task "
                                + reply.taskId().orElse("?") + " " + reply.state()
                                + (reply.text().isBlank() ? "" : ": " + reply.text()));
        };
    }

    /** The user's answer to the agent's question, as the step's arguments carry it once answered. */
    private static Optional<String> answer(ObjectNode args) {
        JsonNode reply = args.path("reply");
        if (reply.isTextual() && !reply.asText().isBlank()) {
            return Optional.of(reply.asText());
        }
        JsonNode choice = args.path("choice");
        return choice.isIntegralNumber() ? Optional.of(choice.asText()) : Optional.empty();
    }

    private static ObjectNode result(A2aAgent agent, A2aClient.Reply reply) {
        ObjectNode out = Json.object();
        out.put("agent", agent.name());
        out.setAll(reply.toJson());
        return out;
    }

    private static ObjectNode inputSchema(Set<String> agents) {
        ObjectNode schema = Json.object();
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ObjectNode agent = properties.putObject("agent");
        agent.put("type", "string");
        agent.put("description", "The name of the configured A2A agent to ask");
        ArrayNode names = agent.putArray("enum");
        agents.forEach(names::add);
        ObjectNode text = properties.putObject("text");
        text.put("type", "string");
        text.put("minLength", 1);
        text.put("description", "What to say to the agent");
        ObjectNode reply = properties.putObject("reply");
        reply.put("type", "string");
        reply.put("description", "The user's answer to the agent's question (set when the user answers)");
        ObjectNode choice = properties.putObject("choice");
        choice.put("type", "integer");
        choice.put("description", "The user's answer as a number (set when the user answers with one)");
        schema.putArray("required").add("agent").add("text");
        schema.put("additionalProperties", false);
        return schema;
    }

    private static ObjectNode outputSchema() {
        return (ObjectNode) Json.parse("""
                {"type": "object",
                 "properties": {"agent": {"type": "string"}, "taskId": {"type": ["string", "null"]},
                                "contextId": {"type": ["string", "null"]}, "state": {"type": "string"},
                                "text": {"type": "string"}},
                 "required": ["agent", "taskId", "contextId", "state", "text"]}""", "the a2a.send output schema");
    }
}
