package dev.weft.mailflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunJson;
import dev.weft.core.RunResult;
import dev.weft.core.Step;
import dev.weft.core.spi.RunStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Mailflow runs shown under seed 003's names: a run is a {@code workflow_execution}, its steps {@code
 * workflow_execution_steps} with {@code step_order}, {@code output_data}, {@code resolved_prompt},
 * {@code tokens_consumed}, {@code confidence_score}, {@code processing_time_ms} and {@code
 * output_pinned}. Stateless.
 */
public final class Executions {
    private Executions() {}

    /** A venue's executions, newest first: each email it received, the run it started or why it was filtered. */
    public static ArrayNode list(MailflowData data, RunStore store, String venueId, int limit) {
        ArrayNode out = Json.mapper().createArrayNode();
        for (MailflowData.Received email : data.emails(venueId, limit)) {
            ObjectNode node = out.addObject();
            node.put("id", email.runId().orElse(null));
            node.put("venue_id", venueId);
            node.put("message_id", email.messageId());
            node.put("channel", email.channel());
            node.put("received_at", email.receivedAt().toString());
            node.put("filtered", email.filtered().orElse(null));
            Optional<Run> run = email.runId().flatMap(store::findRun);
            node.put(
                    "status",
                    run.map(r -> r.status().name().toLowerCase(java.util.Locale.ROOT))
                            .orElse(email.filtered().isPresent() ? "filtered" : "pending"));
            node.put("started_at", run.map(r -> r.createdAt().toString()).orElse(null));
            node.put(
                    "completed_at",
                    run.flatMap(Run::endedAt).map(Instant::toString).orElse(null));
        }
        return out;
    }

    /** One execution with its steps. */
    public static ObjectNode of(RunResult result) {
        Run run = result.run();
        JsonNode source = run.source().path("mailflow");
        ObjectNode node = Json.object();
        node.put("id", run.id());
        node.put("workflow_template_id", source.path("template").asText());
        node.put("template_version", source.path("version").asInt());
        node.put("venue_id", source.path("venue").asText());
        node.put("organization_id", run.user().orElse(null));
        node.put("status", run.status().name().toLowerCase(java.util.Locale.ROOT));
        node.put("started_at", run.createdAt().toString());
        node.put("completed_at", run.endedAt().map(Instant::toString).orElse(null));
        node.set("error", RunJson.error(run.error()));
        node.set("trigger_data", run.input().path("email"));
        ArrayNode steps = node.putArray("steps");
        List<Step> all = result.steps();
        for (Step step : all) {
            ObjectNode s = steps.addObject();
            s.put("step_order", step.order());
            s.put("node_id", step.nodeId());
            s.put("node_type", step.type());
            s.put("status", step.status().name().toLowerCase(java.util.Locale.ROOT));
            s.put("attempt", step.attempt());
            s.set("output_data", step.output());
            s.set(
                    "resolved_prompt",
                    step.details().getOrDefault("prompt", Json.mapper().nullNode()));
            JsonNode tokens = step.details().get("tokens");
            if (tokens != null && tokens.isObject()) {
                long sum =
                        tokens.path("input").asLong(0) + tokens.path("output").asLong(0);
                s.put("tokens_consumed", sum);
            } else {
                s.put("tokens_consumed", 0);
            }
            s.set(
                    "confidence_score",
                    step.details().getOrDefault("confidence", Json.mapper().nullNode()));
            s.put("processing_time_ms", step.durationMillis().orElse(0L));
            s.put("output_pinned", step.pinned());
            s.put(
                    "model",
                    step.details()
                            .getOrDefault("model", Json.mapper().nullNode())
                            .asText(null));
            s.set("error", RunJson.error(step.error()));
        }
        return node;
    }
}
