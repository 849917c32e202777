package dev.weft.concierge.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.spi.MemoryFact;
import dev.weft.concierge.spi.Planner;
import dev.weft.concierge.spi.PlannerInput;
import dev.weft.core.Json;
import dev.weft.core.StepScope;
import dev.weft.llm.Model;
import dev.weft.llm.Prompt;
import dev.weft.llm.StepModels;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The planner that asks a model: the fixed instructions first (so provider prompt caches hit), the
 * message with the conversation's state last, and the plan as structured output ({@code plan.schema.json},
 * one repair, then {@code E_MODEL_OUTPUT_INVALID}). There is no fallback: a model that cannot be reached
 * fails the turn. Thread-safe.
 */
public final class ModelPlanner implements Planner {
    private static final String SYSTEM = Resources.text("planner-system.txt");
    private static final JsonNode SCHEMA = Resources.json("plan.schema.json");

    private final Model model;

    public ModelPlanner(Model model) {
        this.model = Objects.requireNonNull(model, "model");
    }

    @Override
    public String name() {
        return model.label();
    }

    @Override
    public ObjectNode plan(StepScope step, PlannerInput input) {
        ObjectNode request = Json.object();
        request.put("message", input.text());
        request.put("language", input.language());
        JsonNode state = input.state();
        request.set("goal", state.path("goal"));
        request.put("awaiting", state.path("awaiting").asText("nothing"));
        request.set("request", state.path("request"));
        request.put("verified", state.path("customer").path("verified").asBoolean(false));
        ArrayNode memory = request.putArray("memory");
        for (MemoryFact fact : input.memory()) {
            memory.addObject().put("kind", fact.kind()).put("item", fact.item()).put("value", fact.value());
        }
        ArrayNode recent = request.putArray("recent");
        input.recent().forEach(recent::add);
        JsonNode answer = StepModels.structured(step, model, new Prompt(SYSTEM, Json.write(request)), SCHEMA);
        ObjectNode plan = Json.object();
        plan.put("goal", answer.path("goal").asText());
        ObjectNode slots = plan.putObject("slots");
        for (Map.Entry<String, JsonNode> slot : answer.path("slots").properties()) {
            JsonNode value = slot.getValue();
            if (value.isNull() || value.isTextual() && value.asText().isBlank()) {
                continue;
            }
            switch (slot.getKey()) {
                case "orderId" -> orderId(value.asText()).ifPresent(id -> slots.put("orderId", id));
                case "toVariantId" -> {
                    String id = value.asText().strip().toUpperCase(Locale.ROOT);
                    if (id.matches("V\\d{4,}")) {
                        slots.put("toVariantId", id);
                    }
                }
                case "items" -> {
                    ArrayNode items = slots.putArray("items");
                    value.forEach(item -> items.addObject()
                            .put("query", item.path("query").asText())
                            .put(
                                    "quantity",
                                    Math.max(
                                            1,
                                            Math.min(20, item.path("quantity").asInt(1)))));
                }
                default -> slots.set(slot.getKey(), value.deepCopy());
            }
        }
        return plan;
    }

    /** "W1002", "w1002", "#1002", "1002" → "W1002"; anything else is no order id. */
    private static java.util.Optional<String> orderId(String text) {
        String id = text.strip().toUpperCase(Locale.ROOT).replaceAll("[#\\s-]", "");
        if (id.matches("\\d{4,}")) {
            id = "W" + id;
        }
        return id.matches("W\\d{4,}") ? java.util.Optional.of(id) : java.util.Optional.empty();
    }
}
