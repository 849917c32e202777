package dev.weft.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.spi.Checkpoint;
import dev.weft.core.spi.Checkpoint.Activation;
import dev.weft.core.spi.Checkpoint.Arrival;
import dev.weft.core.spi.Checkpoint.Waiting;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A checkpoint's state as the {@code checkpoints.state} column holds it. Each node output, arrival
 * and interrupt value is either inline ({@code outputs}, {@code value}, {@code input}) or, when it is
 * over the payload limit, named under a separate key ({@code outputRefs}, {@code ref}, {@code
 * inputRef}), so a stored value can never be mistaken for a reference.
 */
final class CheckpointState {
    private CheckpointState() {}

    static String write(Checkpoint checkpoint, Payloads.Pending payloads) {
        String runId = checkpoint.runId();
        StringWriter text = new StringWriter(256);
        try (JsonGenerator out = Json.mapper().getFactory().createGenerator(text)) {
            out.writeStartObject();
            writeValues(out, "outputs", "outputRefs", checkpoint.outputs(), runId, payloads);
            out.writeObjectFieldStart("visits");
            for (Map.Entry<String, Integer> visit : checkpoint.visits().entrySet()) {
                out.writeNumberField(visit.getKey(), visit.getValue());
            }
            out.writeEndObject();
            out.writeArrayFieldStart("pending");
            for (Activation activation : checkpoint.pending()) {
                out.writeStartObject();
                out.writeStringField("node", activation.nodeId());
                out.writeNumberField("step", activation.stepOrder());
                out.writeArrayFieldStart("arrivals");
                for (Arrival arrival : activation.arrivals()) {
                    out.writeStartObject();
                    out.writeStringField("from", arrival.from());
                    writeValue(out, "value", "ref", arrival.value(), runId, payloads);
                    out.writeEndObject();
                }
                out.writeEndArray();
                out.writeEndObject();
            }
            out.writeEndArray();
            out.writeArrayFieldStart("waiting");
            for (Waiting waiting : checkpoint.waiting()) {
                out.writeStartObject();
                out.writeStringField("node", waiting.nodeId());
                out.writeNumberField("step", waiting.stepOrder());
                writeValue(out, "input", "inputRef", waiting.input(), runId, payloads);
                writeValue(out, "payload", "payloadRef", waiting.payload(), runId, payloads);
                out.writeEndObject();
            }
            out.writeEndArray();
            writeValues(out, "ended", "endedRefs", checkpoint.ended(), runId, payloads);
            out.writeStringField("lastEnded", checkpoint.lastEnded());
            out.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write checkpoint of run " + runId, e);
        }
        return text.toString();
    }

    private static void writeValues(
            JsonGenerator out,
            String inlineKey,
            String refKey,
            Map<String, JsonNode> values,
            String runId,
            Payloads.Pending payloads)
            throws IOException {
        Map<String, String> refs = Map.of();
        out.writeObjectFieldStart(inlineKey);
        for (Map.Entry<String, JsonNode> value : values.entrySet()) {
            Payloads.Stored stored = payloads.store(runId, value.getValue());
            if (stored.text() != null) {
                out.writeFieldName(value.getKey());
                out.writeRawValue(stored.text());
            } else {
                if (refs.isEmpty()) {
                    refs = new LinkedHashMap<>();
                }
                refs.put(value.getKey(), stored.ref());
            }
        }
        out.writeEndObject();
        if (!refs.isEmpty()) {
            out.writeObjectFieldStart(refKey);
            for (Map.Entry<String, String> ref : refs.entrySet()) {
                out.writeStringField(ref.getKey(), ref.getValue());
            }
            out.writeEndObject();
        }
    }

    private static void writeValue(
            JsonGenerator out, String inlineKey, String refKey, JsonNode value, String runId, Payloads.Pending payloads)
            throws IOException {
        Payloads.Stored stored = payloads.store(runId, value);
        if (stored.text() != null) {
            out.writeFieldName(inlineKey);
            out.writeRawValue(stored.text());
        } else {
            out.writeStringField(refKey, stored.ref());
        }
    }

    static Checkpoint read(Sql sql, String runId, int afterStep, int nextOrder, Instant time, String state)
            throws SQLException {
        String what = "checkpoint after step " + afterStep + " of run " + runId;
        JsonNode root = JsonText.read(state, what);
        Map<String, JsonNode> outputs = readValues(sql, runId, root, "outputs", "outputRefs", what);
        Map<String, Integer> visits = new LinkedHashMap<>();
        root.path("visits")
                .properties()
                .forEach(visit -> visits.put(visit.getKey(), visit.getValue().intValue()));
        List<Activation> pending = new ArrayList<>();
        for (JsonNode activation : root.path("pending")) {
            List<Arrival> arrivals = new ArrayList<>();
            for (JsonNode arrival : activation.path("arrivals")) {
                arrivals.add(new Arrival(
                        arrival.path("from").asText(), readValue(sql, runId, arrival, "value", "ref", what)));
            }
            pending.add(new Activation(
                    activation.path("node").asText(), activation.path("step").intValue(), arrivals));
        }
        List<Waiting> waiting = new ArrayList<>();
        for (JsonNode wait : root.path("waiting")) {
            waiting.add(new Waiting(
                    wait.path("node").asText(),
                    wait.path("step").intValue(),
                    readValue(sql, runId, wait, "input", "inputRef", what),
                    readValue(sql, runId, wait, "payload", "payloadRef", what)));
        }
        Map<String, JsonNode> ended = readValues(sql, runId, root, "ended", "endedRefs", what);
        return new Checkpoint(
                runId,
                afterStep,
                nextOrder,
                time,
                outputs,
                visits,
                pending,
                waiting,
                ended,
                root.path("lastEnded").asText());
    }

    private static Map<String, JsonNode> readValues(
            Sql sql, String runId, JsonNode root, String inlineKey, String refKey, String what) throws SQLException {
        JsonNode inline = root.path(inlineKey);
        JsonNode refs = root.path(refKey);
        if (inline.isEmpty() && refs.isMissingNode()) {
            return Map.of();
        }
        Map<String, JsonNode> values = new LinkedHashMap<>();
        inline.properties().forEach(value -> values.put(value.getKey(), value.getValue()));
        for (Map.Entry<String, JsonNode> ref : refs.properties()) {
            values.put(
                    ref.getKey(), Payloads.load(sql, runId, null, ref.getValue().asText(), what));
        }
        return values;
    }

    private static JsonNode readValue(
            Sql sql, String runId, JsonNode holder, String inlineKey, String refKey, String what) throws SQLException {
        JsonNode inline = holder.get(inlineKey);
        if (inline != null) {
            return inline;
        }
        return Payloads.load(sql, runId, null, holder.path(refKey).asText(null), what);
    }
}
