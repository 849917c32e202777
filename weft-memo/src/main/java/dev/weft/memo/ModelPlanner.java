package dev.weft.memo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.StepScope;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.llm.Model;
import dev.weft.llm.ModelOutputInvalidException;
import dev.weft.llm.Prompt;
import dev.weft.llm.StepModels;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanParser;
import dev.weft.plan.PlanStep;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The planner that asks a model (seed 000's planner): a fixed system prompt — the same bytes for
 * every message, so a provider's prompt cache holds it — with the capabilities, actions, the
 * constraint names each reads and seed 002's policy rules; the message, the language, the time and
 * the zone in the user part; and the plan as structured output through {@code weft-llm}, sent back
 * once with the problem when it does not fit the schema. A plan naming an action Memo has no
 * resolver for is refused. Thread-safe.
 */
public final class ModelPlanner implements Planner {
    /** The system prompt, from {@code planner-system.txt} beside this class. */
    public static final String SYSTEM_PROMPT = resource("planner-system.txt");

    /** The plan's JSON Schema (seed 000's plannerOutput), from {@code planner-output.schema.json}. */
    public static final JsonNode OUTPUT_SCHEMA = Json.parse(resource("planner-output.schema.json"), "planner schema");

    /** What the system prompt adds when the user configured remote A2A agents, {@code {{agents}}} their list. */
    static final String AGENTS_PROMPT = resource("planner-agents.txt");

    private final Model model;
    private final TimeSource time;
    private final Map<String, Set<String>> actions;
    private final String systemPrompt;
    private final JsonNode outputSchema;

    /**
     * A planner on {@code model}, whose retries wait on {@code time}, that accepts the {@code actions}
     * of each capability (Memo's resolvers').
     */
    public ModelPlanner(Model model, TimeSource time, Map<String, Set<String>> actions) {
        this.model = Objects.requireNonNull(model, "model");
        this.time = Objects.requireNonNull(time, "time");
        this.actions = Map.copyOf(actions);
        this.systemPrompt = SYSTEM_PROMPT;
        this.outputSchema = OUTPUT_SCHEMA;
    }

    private ModelPlanner(
            Model model,
            TimeSource time,
            Map<String, Set<String>> actions,
            String systemPrompt,
            JsonNode outputSchema) {
        this.model = model;
        this.time = time;
        this.actions = Map.copyOf(actions);
        this.systemPrompt = systemPrompt;
        this.outputSchema = outputSchema;
    }

    /**
     * This planner told of the remote A2A agents {@code agents} (their names and what they are called in
     * the system prompt, still the same bytes for every message) and accepting {@code a2a/send} steps.
     */
    ModelPlanner withAgents(java.util.List<dev.weft.workflow.A2aAgents.Entry> agents) {
        StringBuilder list = new StringBuilder();
        for (dev.weft.workflow.A2aAgents.Entry entry : agents) {
            list.append("- ").append(entry.agent().name());
            if (!entry.says().isEmpty()) {
                list.append(" (called: ")
                        .append(String.join(", ", entry.says()))
                        .append(")");
            }
            list.append("\n");
        }
        Map<String, Set<String>> known = new java.util.TreeMap<>(actions);
        known.put(dev.weft.workflow.A2aSendTool.CAPABILITY, Set.of("send"));
        // The plan's schema names its capabilities: "a2a" is one only where agents are configured.
        JsonNode schema = OUTPUT_SCHEMA.deepCopy();
        ((com.fasterxml.jackson.databind.node.ArrayNode) schema.at("/properties/plan/items/properties/capability/enum"))
                .add(dev.weft.workflow.A2aSendTool.CAPABILITY);
        return new ModelPlanner(
                model,
                time,
                known,
                SYSTEM_PROMPT
                        + AGENTS_PROMPT.replace("{{agents}}", list.toString().strip()),
                schema);
    }

    @Override
    public String name() {
        return "model";
    }

    /**
     * @throws ModelOutputInvalidException ({@code E_MODEL_OUTPUT_INVALID}) when the model's plan does
     *     not fit the schema after one repair, or names an action no resolver handles
     * @throws dev.weft.llm.ModelUnavailableException when the model cannot be reached
     */
    @Override
    public Plan plan(String message, Context context) {
        ObjectNode request = Json.object();
        request.put("message", message);
        request.put("language", context.language());
        request.put("now", context.now().toOffsetDateTime().toString());
        request.put("zone", context.now().getZone().getId());
        Prompt prompt = new Prompt(systemPrompt, request.toString());
        Scope scope = new Scope(context.facts(), time);
        JsonNode answer = StepModels.structured(scope, model, prompt, outputSchema);
        Plan plan;
        try {
            plan = PlanParser.fromJson(answer);
        } catch (WeftException e) {
            throw new ModelOutputInvalidException("/plan", "the model's plan is not a valid plan: " + e.getMessage());
        }
        for (PlanStep step : plan.steps()) {
            Set<String> known = actions.getOrDefault(step.capability(), Set.of());
            if (!known.contains(step.action())) {
                throw new ModelOutputInvalidException(
                        "/plan",
                        "the model's plan has step '" + step.id() + "' with " + step.capability() + "/" + step.action()
                                + ", which Memo cannot do; the capabilities and actions it can: " + actions);
            }
        }
        context.facts().put("planner", name());
        return plan;
    }

    /** The event a model call is reported by once it answered (weft-llm's {@code ModelCalls.CALLED_EVENT}). */
    static final String MODEL_CALLED = "model.called";

    private static String resource(String name) {
        try (InputStream in = ModelPlanner.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The planner's call outside any run: its facts go to the plan's facts, its retries wait on {@code time}. */
    private record Scope(ObjectNode facts, TimeSource time) implements StepScope {
        @Override
        public String runId() {
            return "plan-" + UUID.randomUUID();
        }

        @Override
        public int attempt() {
            return 1;
        }

        @Override
        public String idempotencyKey() {
            return runId();
        }

        /**
         * The planner's model call happens before its run exists, so it cannot be an event of the run:
         * it is kept, with when it answered, under {@code modelCalls} in the facts the run starts with,
         * where tracing finds it and makes it a span like every other model call's.
         */
        @Override
        public void emit(String type, JsonNode data) {
            if (type.equals(MODEL_CALLED) && data.isObject()) {
                ObjectNode call = ((ObjectNode) data).deepCopy();
                call.put("at", time.now().toString());
                facts.withArray("modelCalls").add(call);
            }
        }

        @Override
        public void record(String key, JsonNode value) {
            facts.set(key, value);
        }

        @Override
        public JsonNode once(String key, Supplier<JsonNode> call) {
            return call.get();
        }

        @Override
        public boolean cancellationRequested() {
            return false;
        }
    }
}
