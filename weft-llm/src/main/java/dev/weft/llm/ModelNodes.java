package dev.weft.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.weft.core.ErrorCode;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.Node;
import dev.weft.core.NodeContext;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
import dev.weft.core.WeftException;
import dev.weft.llm.internal.JsonSchemas;
import dev.weft.llm.internal.ModelCalls;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The nodes that call models, as seed 004 builds them, and the graphs made of them:
 *
 * <ul>
 *   <li>{@code prompt} renders a {@link PromptTemplate}; output {@code {"system", "user"}}.
 *   <li>{@code model} calls the model with the prompt in its input, streaming token deltas as {@code
 *       assistant.delta} events; output {@code {"text", "prompt"}}.
 *   <li>{@code parse_json} reads the JSON in the model's reply and validates it against a schema,
 *       asking the model once more with the error when it fails; output the value.
 *   <li>{@code tools} calls the model with tools offered; output {@code {"type": "tool_calls",
 *       "toolCalls": [{"id", "name", "arguments"}]}} or {@code {"type": "content", "text"}}.
 *   <li>{@code agent} does prompt, model and (with a schema) parse_json in one step.
 * </ul>
 *
 * Model steps record {@code prompt}, {@code model}, {@code tokens}, {@code latencyMs} and {@code
 * attempts} on the step. Transient provider failures are retried inside the node under the model's
 * retry policy. Every node is thread-safe.
 */
public final class ModelNodes {
    /** The event each streamed token delta is emitted as, with {@code {"text": delta}}. */
    public static final String DELTA_EVENT = ModelCalls.DELTA_EVENT;

    private ModelNodes() {}

    /** A {@code prompt} node: renders {@code template} over the run's variable context. */
    public static NodeSpec prompt(String id, PromptTemplate template) {
        Objects.requireNonNull(template, "template");
        return NodeSpec.builder(id, context -> {
                    Prompt prompt = template.render(context);
                    StepFacts.prompt(context, prompt);
                    return NodeResult.output(prompt.toJson());
                })
                .type("prompt")
                .build();
    }

    /** A {@code model} node that asks for free text. */
    public static NodeSpec model(String id, Model model) {
        return NodeSpec.builder(id, new ModelNode(model, null)).type("model").build();
    }

    /**
     * A {@code model} node that asks for JSON matching {@code schema}: as the response format where
     * the provider takes one, in the system prompt otherwise. Follow it with {@link #parseJson}.
     *
     * @throws IllegalArgumentException when {@code schema} is not a JSON Schema object
     */
    public static NodeSpec structuredModel(String id, Model model, JsonNode schema) {
        return NodeSpec.builder(id, new ModelNode(model, JsonSchemas.compile(schema)))
                .type("model")
                .build();
    }

    /**
     * A {@code parse_json} node: the JSON in the reply of the model node before it, validated against
     * {@code schema}; on failure the model is asked once more with the error, then the step fails with
     * {@link ErrorCode#E_MODEL_OUTPUT_INVALID} naming the bad path.
     *
     * @throws IllegalArgumentException when {@code schema} is not a JSON Schema object
     */
    public static NodeSpec parseJson(String id, Model model, JsonNode schema) {
        return NodeSpec.builder(id, new ParseJsonNode(model, JsonSchemas.compile(schema)))
                .type("parse_json")
                .build();
    }

    /**
     * A {@code tools} node: the model is offered {@code tools}; a call to a tool not offered, or with
     * arguments that break its schema, fails with {@link ErrorCode#E_MODEL_OUTPUT_INVALID}.
     */
    public static NodeSpec tools(String id, Model model, List<ToolDefinition> tools) {
        return NodeSpec.builder(id, new ToolsNode(model, tools)).type("tools").build();
    }

    /** An {@code agent} node answering free text: output {@code {"text": reply}}. */
    public static NodeSpec agent(String id, PromptTemplate template, Model model) {
        return NodeSpec.builder(id, agentNode(template, model, null))
                .type("agent")
                .build();
    }

    /** An {@code agent} node answering JSON valid against {@code schema}: output the value. */
    public static NodeSpec agent(String id, PromptTemplate template, Model model, JsonNode schema) {
        return NodeSpec.builder(id, agentNode(template, model, schema))
                .type("agent")
                .build();
    }

    /**
     * The work of an {@code agent} node, for node types that build their own spec.
     *
     * @param schema the JSON Schema of the output, or null for free text
     */
    public static Node agentNode(PromptTemplate template, Model model, @Nullable JsonNode schema) {
        return new AgentNode(template, model, schema == null ? null : JsonSchemas.compile(schema));
    }

    /** Seed 004's structured graph: {@code START → prompt → model → parse_json → END}, compiled. */
    public static Graph structuredGraph(String graphId, PromptTemplate template, Model model, JsonNode schema) {
        return Graph.builder(graphId)
                .node(prompt("prompt", template))
                .node(structuredModel("model", model, schema))
                .node(parseJson("parse_json", model, schema))
                .edge(Graph.START, "prompt")
                .edge("prompt", "model")
                .edge("model", "parse_json")
                .edge("parse_json", Graph.END)
                .compile();
    }

    /** {@code START → prompt → model → END}: free text. */
    public static Graph textGraph(String graphId, PromptTemplate template, Model model) {
        return Graph.builder(graphId)
                .node(prompt("prompt", template))
                .node(model("model", model))
                .edge(Graph.START, "prompt")
                .edge("prompt", "model")
                .edge("model", Graph.END)
                .compile();
    }

    /** Seed 004's tool-planning graph: {@code START → prompt → model (with tools) → END}. */
    public static Graph toolPlanningGraph(
            String graphId, PromptTemplate template, Model model, List<ToolDefinition> tools) {
        return Graph.builder(graphId)
                .node(prompt("prompt", template))
                .node(tools("model", model, tools))
                .edge(Graph.START, "prompt")
                .edge("prompt", "model")
                .edge("model", Graph.END)
                .compile();
    }

    private static Prompt promptFrom(NodeContext context) {
        return Prompt.fromJson(context.input(), "the input of node '" + context.nodeId() + "'");
    }

    private static ObjectNode reply(String text, Prompt prompt) {
        ObjectNode output = Json.object();
        output.put("text", text);
        output.set("prompt", prompt.toJson());
        return output;
    }

    private record ModelNode(Model model, JsonSchemas.@Nullable Compiled schema) implements Node {
        ModelNode {
            Objects.requireNonNull(model, "model");
        }

        @Override
        public NodeResult execute(NodeContext context) {
            Prompt prompt = promptFrom(context);
            StepFacts.prompt(context, prompt);
            ModelCalls.Outcome outcome =
                    ModelCalls.call(context, model, ModelCalls.request(model, prompt, schema, List.of()), true);
            StepFacts.call(context, model, outcome);
            return NodeResult.output(reply(StructuredOutput.text(outcome), prompt));
        }
    }

    private record ParseJsonNode(Model model, JsonSchemas.Compiled schema) implements Node {
        ParseJsonNode {
            Objects.requireNonNull(model, "model");
        }

        @Override
        public NodeResult execute(NodeContext context) {
            JsonNode input = context.input();
            String text =
                    input.isTextual() ? input.asText() : input.path("text").asText("");
            Optional<Prompt> prompt = input.path("prompt").isObject()
                    ? Optional.of(Prompt.fromJson(input.get("prompt"), "prompt"))
                    : Optional.empty();
            StructuredOutput.Parsed parsed =
                    StructuredOutput.parse(context, "node '" + context.nodeId() + "'", model, prompt, text, schema);
            context.record("repaired", com.fasterxml.jackson.databind.node.BooleanNode.valueOf(parsed.repaired()));
            if (parsed.repaired()) {
                StepFacts.call(context, model, parsed.repairTokens(), parsed.repairLatency(), parsed.repairAttempts());
            }
            return NodeResult.output(parsed.value());
        }
    }

    private record AgentNode(PromptTemplate template, Model model, JsonSchemas.@Nullable Compiled schema)
            implements Node {
        AgentNode {
            Objects.requireNonNull(template, "template");
            Objects.requireNonNull(model, "model");
        }

        @Override
        public NodeResult execute(NodeContext context) {
            Prompt prompt = template.render(context);
            StepFacts.prompt(context, prompt);
            ModelCalls.Outcome outcome =
                    ModelCalls.call(context, model, ModelCalls.request(model, prompt, schema, List.of()), true);
            String text = StructuredOutput.text(outcome);
            if (schema == null) {
                StepFacts.call(context, model, outcome);
                ObjectNode output = Json.object();
                output.put("text", text);
                return NodeResult.output(output);
            }
            StructuredOutput.Parsed parsed;
            try {
                parsed = StructuredOutput.parse(
                        context, "node '" + context.nodeId() + "'", model, Optional.of(prompt), text, schema);
            } catch (WeftException e) {
                StepFacts.call(context, model, outcome);
                throw e;
            }
            Duration latency = outcome.latency().plus(parsed.repairLatency());
            StepFacts.call(
                    context,
                    model,
                    outcome.tokens().plus(parsed.repairTokens()),
                    latency,
                    outcome.attempts() + parsed.repairAttempts());
            context.record("repaired", com.fasterxml.jackson.databind.node.BooleanNode.valueOf(parsed.repaired()));
            return NodeResult.output(parsed.value());
        }
    }

    private static final class ToolsNode implements Node {
        private final Model model;
        private final List<ToolDefinition> tools;
        private final Map<String, JsonSchemas.Compiled> schemas = new LinkedHashMap<>();

        ToolsNode(Model model, List<ToolDefinition> tools) {
            this.model = Objects.requireNonNull(model, "model");
            this.tools = List.copyOf(tools);
            if (this.tools.isEmpty()) {
                throw new IllegalArgumentException("a tools node needs at least one tool");
            }
            for (ToolDefinition tool : this.tools) {
                if (schemas.put(tool.name(), JsonSchemas.compile(tool.parameters())) != null) {
                    throw new IllegalArgumentException("tool '" + tool.name() + "' is offered twice");
                }
            }
        }

        @Override
        public NodeResult execute(NodeContext context) {
            Prompt prompt = promptFrom(context);
            StepFacts.prompt(context, prompt);
            ModelCalls.Outcome outcome =
                    ModelCalls.call(context, model, ModelCalls.request(model, prompt, null, tools), false);
            StepFacts.call(context, model, outcome);
            AiMessage message = outcome.response().aiMessage();
            ObjectNode output = Json.object();
            if (!message.hasToolExecutionRequests()) {
                output.put("type", "content");
                output.put("text", message.text() == null ? "" : message.text());
                return NodeResult.output(output);
            }
            output.put("type", "tool_calls");
            ArrayNode calls = output.putArray("toolCalls");
            List<ToolExecutionRequest> requests = message.toolExecutionRequests();
            for (int i = 0; i < requests.size(); i++) {
                calls.add(check(context, i, requests.get(i)));
            }
            return NodeResult.output(output);
        }

        private ObjectNode check(NodeContext context, int index, ToolExecutionRequest request) {
            ToolCall call = ToolCall.checked("node '" + context.nodeId() + "'", schemas, index, request);
            ObjectNode json = Json.object();
            json.put("id", call.id());
            json.put("name", call.name());
            json.set("arguments", call.arguments());
            return json;
        }
    }
}
