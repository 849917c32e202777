package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a run stands when the runner hands control back: finished, or waiting on interrupts.
 *
 * @param outputs the latest output of every completed node, by node name
 * @param interrupts for a waiting run, the payload of each node it waits on, by node id
 */
public record RunResult(Run run, List<Step> steps, Map<String, JsonNode> outputs, Map<String, JsonNode> interrupts) {
    public RunResult {
        Objects.requireNonNull(run, "run");
        steps = List.copyOf(steps);
        outputs = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(outputs));
        interrupts = interrupts.isEmpty()
                ? Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(interrupts));
    }

    public String runId() {
        return run.id();
    }

    public RunStatus status() {
        return run.status();
    }

    public Optional<RunError> error() {
        return run.error();
    }

    public JsonNode output() {
        return run.output();
    }
}
