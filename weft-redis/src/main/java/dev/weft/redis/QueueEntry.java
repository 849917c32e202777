package dev.weft.redis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.core.spi.StepDispatcher.DispatchedStep;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One step on the stream: the run and step it belongs to, the kind of work, the work, and when it was
 * queued. Its fields are text, as a stream entry's are.
 */
record QueueEntry(
        String id, String runId, int order, String nodeId, String kind, String graphId, JsonNode work, long queuedAt) {
    QueueEntry {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(nodeId, "nodeId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(graphId, "graphId");
        Objects.requireNonNull(work, "work");
    }

    /** The fields of a new entry for {@code step}, in the order the enqueue script adds them. */
    static java.util.List<String> fields(DispatchedStep step, long now) {
        return java.util.List.of(
                step.runId(),
                Integer.toString(step.stepOrder()),
                step.nodeId(),
                step.kind(),
                step.graphId(),
                Json.write(step.work()),
                Long.toString(now));
    }

    /** What reading an entry gave: the step, or why it is not one. */
    sealed interface Read {
        record Good(QueueEntry entry) implements Read {}

        /** Not a step: {@code reason} says why; {@code runId} and {@code order} are there when they could be read. */
        record Bad(String id, String reason, Optional<String> runId, Optional<Integer> order) implements Read {}
    }

    static Read read(String id, Map<String, String> fields) {
        Optional<String> runId = Optional.ofNullable(fields.get("run")).filter(r -> !r.isBlank());
        Optional<Integer> order = Optional.empty();
        try {
            order = Optional.ofNullable(fields.get("step")).map(Integer::parseInt);
        } catch (NumberFormatException e) {
            return new Read.Bad(id, "its 'step' is not a step number: '" + fields.get("step") + "'", runId, order);
        }
        for (String field : new String[] {"run", "step", "node", "kind", "work"}) {
            String value = fields.get(field);
            if (value == null || value.isBlank()) {
                return new Read.Bad(
                        id, "it has no '" + field + "' field (fields: " + fields.keySet() + ")", runId, order);
            }
        }
        JsonNode work;
        try {
            work = Json.parse(fields.get("work"), "the entry's work");
        } catch (WeftException e) {
            return new Read.Bad(id, "its 'work' is not JSON: " + e.getMessage(), runId, order);
        }
        long queuedAt;
        try {
            queuedAt = Long.parseLong(fields.getOrDefault("at", "0"));
        } catch (NumberFormatException e) {
            queuedAt = 0;
        }
        return new Read.Good(new QueueEntry(
                id,
                runId.orElseThrow(),
                order.orElseThrow(),
                fields.get("node"),
                fields.get("kind"),
                fields.getOrDefault("graph", ""),
                work,
                queuedAt));
    }

    /** The fields as a dead-letter entry keeps them. */
    static Map<String, String> deadLetter(String id, Map<String, String> fields, String reason, String consumer) {
        Map<String, String> dead = new LinkedHashMap<>(fields);
        dead.put("entry", id);
        dead.put("reason", reason);
        dead.put("consumer", consumer);
        return dead;
    }
}
