package dev.weft.concierge.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a specialist's pass gave: a message to the customer, tools it asks for (only the first pass may),
 * updates to the conversation's state (merged: objects into objects, {@code null} removes), and what it
 * learned about the customer.
 */
public record SpecialistOutput(
        String message, List<ToolRequest> toolCalls, ObjectNode stateUpdates, List<MemoryFact> memory) {
    public SpecialistOutput {
        Objects.requireNonNull(message, "message");
        toolCalls = List.copyOf(toolCalls);
        stateUpdates = Objects.requireNonNull(stateUpdates, "stateUpdates").deepCopy();
        memory = List.copyOf(memory);
    }

    /** A message and nothing else. */
    public static SpecialistOutput say(String message) {
        return new SpecialistOutput(message, List.of(), Json.object(), List.of());
    }

    /** Tools to call, nothing said yet. */
    public static SpecialistOutput call(List<ToolRequest> calls) {
        return new SpecialistOutput("", calls, Json.object(), List.of());
    }

    public SpecialistOutput withUpdates(ObjectNode updates) {
        return new SpecialistOutput(message, toolCalls, updates, memory);
    }

    public SpecialistOutput withMemory(List<MemoryFact> facts) {
        return new SpecialistOutput(message, toolCalls, stateUpdates, facts);
    }

    public ObjectNode toJson() {
        ObjectNode json = Json.object();
        json.put("message", message);
        ArrayNode calls = json.putArray("toolCalls");
        for (ToolRequest call : toolCalls) {
            calls.addObject().put("name", call.name()).set("args", call.args());
        }
        json.set("stateUpdates", stateUpdates);
        ArrayNode facts = json.putArray("memory");
        memory.forEach(f ->
                facts.addObject().put("kind", f.kind()).put("item", f.item()).put("value", f.value()));
        return json;
    }

    public static SpecialistOutput fromJson(JsonNode json) {
        List<ToolRequest> calls = new ArrayList<>();
        json.path("toolCalls")
                .forEach(c -> calls.add(new ToolRequest(
                        c.path("name").asText(),
                        c.path("args").isObject() ? (ObjectNode) c.get("args") : Json.object())));
        List<MemoryFact> facts = new ArrayList<>();
        json.path("memory")
                .forEach(f -> facts.add(new MemoryFact(
                        f.path("kind").asText(),
                        f.path("item").asText(),
                        f.path("value").asText())));
        return new SpecialistOutput(
                json.path("message").asText(""),
                calls,
                json.path("stateUpdates").isObject() ? (ObjectNode) json.get("stateUpdates") : Json.object(),
                facts);
    }
}
