package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * The stable JSON shape of a run, shared by every command and API that shows one: {@code runId},
 * {@code status}, {@code user}, {@code error}, {@code steps}, {@code outputs} and {@code interrupts}.
 */
public final class RunJson {
    private RunJson() {}

    /** The run, its steps, outputs and what it waits for. */
    public static ObjectNode of(RunResult result) {
        ObjectNode root = Json.object();
        root.put("runId", result.runId());
        root.put("status", result.status().name());
        result.run().user().ifPresent(user -> root.put("user", user));
        root.set("error", error(result.error()));
        ArrayNode steps = root.putArray("steps");
        for (Step step : result.steps()) {
            steps.add(step(step));
        }
        ObjectNode outputs = root.putObject("outputs");
        result.outputs().forEach(outputs::set);
        if (!result.interrupts().isEmpty()) {
            ObjectNode interrupts = root.putObject("interrupts");
            result.interrupts().forEach(interrupts::set);
        }
        return root;
    }

    /** One step. */
    public static ObjectNode step(Step step) {
        ObjectNode node = Json.object();
        node.put("order", step.order());
        node.put("nodeId", step.nodeId());
        node.put("name", step.name());
        node.put("type", step.type());
        node.put("status", step.status().name());
        node.put("attempt", step.attempt());
        node.put("pinned", step.pinned());
        node.set("output", step.output());
        if (step.error().isPresent()) {
            node.set("error", error(step.error()));
        }
        step.durationMillis().ifPresent(ms -> node.put("durationMs", ms));
        step.details().forEach(node::set);
        return node;
    }

    /** One event: {@code sequence}, {@code type}, {@code nodeId}, {@code stepOrder}, {@code time}, {@code data}. */
    public static ObjectNode event(Event event) {
        ObjectNode e = Json.object();
        e.put("sequence", event.sequence());
        e.put("type", event.type());
        e.put("nodeId", event.nodeId().orElse(null));
        e.put("stepOrder", event.stepOrder());
        e.put("time", event.time().toString());
        e.set("data", event.data());
        return e;
    }

    /** An error as {@code {"code", "message"}}, or JSON null. */
    public static JsonNode error(Optional<RunError> error) {
        if (error.isEmpty()) {
            return Json.mapper().nullNode();
        }
        ObjectNode node = Json.object();
        node.put("code", error.get().code().name());
        node.put("message", error.get().message());
        return node;
    }
}
