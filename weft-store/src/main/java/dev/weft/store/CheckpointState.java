package dev.weft.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.Checkpoint;
import dev.weft.core.spi.Checkpoint.Activation;
import dev.weft.core.spi.Checkpoint.Arrival;
import dev.weft.core.spi.Checkpoint.Waiting;
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
        StringBuilder text = new StringBuilder(256).append('{');
        writeValues(text, "outputs", "outputRefs", checkpoint.outputs(), runId, payloads);
        text.append(",\"visits\":{");
        boolean first = true;
        for (Map.Entry<String, Integer> visit : checkpoint.visits().entrySet()) {
            first = comma(text, first);
            JsonText.appendString(text, visit.getKey());
            text.append(':').append(visit.getValue().intValue());
        }
        text.append("},\"pending\":[");
        first = true;
        for (Activation activation : checkpoint.pending()) {
            first = comma(text, first);
            text.append("{\"node\":");
            JsonText.appendString(text, activation.nodeId());
            text.append(",\"step\":").append(activation.stepOrder()).append(",\"arrivals\":[");
            boolean firstArrival = true;
            for (Arrival arrival : activation.arrivals()) {
                firstArrival = comma(text, firstArrival);
                text.append("{\"from\":");
                JsonText.appendString(text, arrival.from());
                text.append(',');
                writeValue(text, "value", "ref", arrival.value(), runId, payloads);
                text.append('}');
            }
            text.append("]}");
        }
        text.append("],\"waiting\":[");
        first = true;
        for (Waiting waiting : checkpoint.waiting()) {
            first = comma(text, first);
            text.append("{\"node\":");
            JsonText.appendString(text, waiting.nodeId());
            text.append(",\"step\":").append(waiting.stepOrder()).append(',');
            writeValue(text, "input", "inputRef", waiting.input(), runId, payloads);
            text.append(',');
            writeValue(text, "payload", "payloadRef", waiting.payload(), runId, payloads);
            text.append('}');
        }
        text.append("],");
        writeValues(text, "ended", "endedRefs", checkpoint.ended(), runId, payloads);
        text.append(",\"lastEnded\":");
        JsonText.appendString(text, checkpoint.lastEnded());
        return text.append('}').toString();
    }

    /** Writes a comma unless {@code first}; returns false, for the next element. */
    private static boolean comma(StringBuilder text, boolean first) {
        if (!first) {
            text.append(',');
        }
        return false;
    }

    private static void writeValues(
            StringBuilder text,
            String inlineKey,
            String refKey,
            Map<String, JsonNode> values,
            String runId,
            Payloads.Pending payloads) {
        Map<String, String> refs = Map.of();
        text.append('"').append(inlineKey).append("\":{");
        boolean first = true;
        for (Map.Entry<String, JsonNode> value : values.entrySet()) {
            Payloads.Stored stored = payloads.store(runId, value.getValue());
            if (stored.text() != null) {
                first = comma(text, first);
                JsonText.appendString(text, value.getKey());
                text.append(':').append(stored.text());
            } else {
                if (refs.isEmpty()) {
                    refs = new LinkedHashMap<>();
                }
                refs.put(value.getKey(), stored.ref());
            }
        }
        text.append('}');
        if (!refs.isEmpty()) {
            text.append(",\"").append(refKey).append("\":{");
            first = true;
            for (Map.Entry<String, String> ref : refs.entrySet()) {
                first = comma(text, first);
                JsonText.appendString(text, ref.getKey());
                text.append(':');
                JsonText.appendString(text, ref.getValue());
            }
            text.append('}');
        }
    }

    private static void writeValue(
            StringBuilder text,
            String inlineKey,
            String refKey,
            JsonNode value,
            String runId,
            Payloads.Pending payloads) {
        Payloads.Stored stored = payloads.store(runId, value);
        if (stored.text() != null) {
            text.append('"').append(inlineKey).append("\":").append(stored.text());
        } else {
            text.append('"').append(refKey).append("\":");
            JsonText.appendString(text, stored.ref());
        }
    }

    static Checkpoint read(Sql sql, String runId, int afterStep, int nextOrder, Instant time, String state)
            throws SQLException {
        return read(sql, runId, afterStep, nextOrder, time, JsonText.read(state, checkpoint(afterStep, runId)));
    }

    /** The checkpoint whose state is {@code root}, already parsed. */
    static Checkpoint read(Sql sql, String runId, int afterStep, int nextOrder, Instant time, JsonNode root)
            throws SQLException {
        String what = checkpoint(afterStep, runId);
        if (!root.isObject()) {
            throw new WeftException(ErrorCode.E_STORE_UNAVAILABLE, "the stored " + what + " is not a JSON object");
        }
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

    private static String checkpoint(int afterStep, String runId) {
        return "checkpoint after step " + afterStep + " of run " + runId;
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
