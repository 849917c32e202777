package dev.weft.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import org.jspecify.annotations.Nullable;

/**
 * A checkpoint's state as the {@code checkpoints.state} column holds it. Each node output, arrival
 * and interrupt value is either inline ({@code outputs}, {@code value}, {@code input}) or, when it is
 * over the payload limit, named under a separate key ({@code outputRefs}, {@code ref}, {@code
 * inputRef}), so a stored value can never be mistaken for a reference.
 */
final class CheckpointState {
    private static final ObjectNode EMPTY = JsonNodeFactory.instance.objectNode();

    private CheckpointState() {}

    static String write(Checkpoint checkpoint, Payloads.Pending payloads) {
        String runId = checkpoint.runId();
        StringBuilder text = new StringBuilder(256).append('{');
        writeValues(text, "outputs", "outputRefs", checkpoint.outputs(), runId, payloads);
        text.append(',');
        writeVisits(text, checkpoint.visits());
        text.append(',');
        writePending(text, checkpoint.pending(), runId, payloads);
        text.append(',');
        writeWaiting(text, checkpoint.waiting(), runId, payloads);
        text.append(',');
        writeValues(text, "ended", "endedRefs", checkpoint.ended(), runId, payloads);
        text.append(",\"lastEnded\":");
        JsonText.appendString(text, checkpoint.lastEnded());
        return text.append('}').toString();
    }

    /**
     * What changed from {@code previous} to {@code checkpoint}, both of the same run, as an object
     * that {@link #applyChange} turns back into the whole state: the entries of {@code outputs},
     * {@code visits} and {@code ended} that were added or changed (over the payload limit under
     * {@code outputRefs} and {@code endedRefs}), under {@code removed} the names each of them lost,
     * and {@code pending}, {@code waiting} and {@code lastEnded} whole if they changed. A value that
     * did not change is neither written nor stored apart again.
     */
    static String writeChange(Checkpoint previous, Checkpoint checkpoint, Payloads.Pending payloads) {
        String runId = checkpoint.runId();
        StringBuilder text = new StringBuilder(128).append('{');
        boolean first = true;
        Map<String, JsonNode> outputs = changed(previous.outputs(), checkpoint.outputs());
        if (!outputs.isEmpty()) {
            first = comma(text, first);
            writeValues(text, "outputs", "outputRefs", outputs, runId, payloads);
        }
        Map<String, Integer> visits = changed(previous.visits(), checkpoint.visits());
        if (!visits.isEmpty()) {
            first = comma(text, first);
            writeVisits(text, visits);
        }
        Map<String, JsonNode> ended = changed(previous.ended(), checkpoint.ended());
        if (!ended.isEmpty()) {
            first = comma(text, first);
            writeValues(text, "ended", "endedRefs", ended, runId, payloads);
        }
        StringBuilder removed = new StringBuilder();
        appendRemoved(removed, "outputs", previous.outputs(), checkpoint.outputs());
        appendRemoved(removed, "visits", previous.visits(), checkpoint.visits());
        appendRemoved(removed, "ended", previous.ended(), checkpoint.ended());
        if (!removed.isEmpty()) {
            first = comma(text, first);
            text.append("\"removed\":{").append(removed).append('}');
        }
        if (!previous.pending().equals(checkpoint.pending())) {
            first = comma(text, first);
            writePending(text, checkpoint.pending(), runId, payloads);
        }
        if (!previous.waiting().equals(checkpoint.waiting())) {
            first = comma(text, first);
            writeWaiting(text, checkpoint.waiting(), runId, payloads);
        }
        if (!previous.lastEnded().equals(checkpoint.lastEnded())) {
            comma(text, first);
            text.append("\"lastEnded\":");
            JsonText.appendString(text, checkpoint.lastEnded());
        }
        return text.append('}').toString();
    }

    /** The entries of {@code current} that {@code previous} lacks or holds another value for. */
    private static <V> Map<String, V> changed(Map<String, V> previous, Map<String, V> current) {
        Map<String, V> changed = Map.of();
        for (Map.Entry<String, V> entry : current.entrySet()) {
            V before = previous.get(entry.getKey());
            // Mostly the very same value: identity first, before a deep comparison.
            if (before != entry.getValue() && (before == null || !before.equals(entry.getValue()))) {
                if (changed.isEmpty()) {
                    changed = new LinkedHashMap<>();
                }
                changed.put(entry.getKey(), entry.getValue());
            }
        }
        return changed;
    }

    /** Appends {@code "key":[names]}, the names {@code previous} has and {@code current} lacks, if any. */
    private static void appendRemoved(StringBuilder text, String key, Map<String, ?> previous, Map<String, ?> current) {
        if (current.keySet().containsAll(previous.keySet())) {
            return;
        }
        comma(text, text.isEmpty());
        text.append('"').append(key).append("\":[");
        boolean first = true;
        for (String name : previous.keySet()) {
            if (!current.containsKey(name)) {
                first = comma(text, first);
                JsonText.appendString(text, name);
            }
        }
        text.append(']');
    }

    /** Writes a comma unless {@code first}; returns false, for the next element. */
    private static boolean comma(StringBuilder text, boolean first) {
        if (!first) {
            text.append(',');
        }
        return false;
    }

    private static void writeVisits(StringBuilder text, Map<String, Integer> visits) {
        text.append("\"visits\":{");
        boolean first = true;
        for (Map.Entry<String, Integer> visit : visits.entrySet()) {
            first = comma(text, first);
            JsonText.appendString(text, visit.getKey());
            text.append(':').append(visit.getValue().intValue());
        }
        text.append('}');
    }

    private static void writePending(
            StringBuilder text, List<Activation> pending, String runId, Payloads.Pending payloads) {
        text.append("\"pending\":[");
        boolean first = true;
        for (Activation activation : pending) {
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
        text.append(']');
    }

    private static void writeWaiting(
            StringBuilder text, List<Waiting> waiting, String runId, Payloads.Pending payloads) {
        text.append("\"waiting\":[");
        boolean first = true;
        for (Waiting wait : waiting) {
            first = comma(text, first);
            text.append("{\"node\":");
            JsonText.appendString(text, wait.nodeId());
            text.append(",\"step\":").append(wait.stepOrder()).append(',');
            writeValue(text, "input", "inputRef", wait.input(), runId, payloads);
            text.append(',');
            writeValue(text, "payload", "payloadRef", wait.payload(), runId, payloads);
            text.append('}');
        }
        text.append(']');
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

    /**
     * The state {@code change} (written by {@link #writeChange}) makes of {@code base}. The result
     * shares its values with {@code base}, which stays as it was.
     *
     * @param what names the checkpoint in the error if {@code change} is not such a change
     */
    static ObjectNode applyChange(ObjectNode base, JsonNode change, String what) {
        if (!change.isObject()) {
            throw corrupt(what, "holds a change that is not a JSON object: " + Journal.abbreviate(change));
        }
        ObjectNode state = base.objectNode();
        state.setAll(base);
        JsonNode removed = change.path("removed");
        applyValues(state, change, removed, "outputs", "outputRefs", what);
        applyValues(state, change, removed, "visits", null, what);
        applyValues(state, change, removed, "ended", "endedRefs", what);
        for (String whole : new String[] {"pending", "waiting", "lastEnded"}) {
            JsonNode value = change.get(whole);
            if (value != null) {
                state.set(whole, value);
            }
        }
        return state;
    }

    /**
     * Applies a change to one of the state's maps, whose values over the payload limit (if it may
     * have any) are named under {@code refKey} instead: a name set in either is taken out of the other.
     */
    private static void applyValues(
            ObjectNode state,
            JsonNode change,
            JsonNode removed,
            String inlineKey,
            @Nullable String refKey,
            String what) {
        JsonNode gone = removed.path(inlineKey);
        JsonNode inlineChange = change.path(inlineKey);
        JsonNode refChange = refKey == null ? MissingNode.getInstance() : change.path(refKey);
        if (gone.isMissingNode() && inlineChange.isMissingNode() && refChange.isMissingNode()) {
            return;
        }
        ObjectNode inline = copy(state, inlineKey, what);
        ObjectNode refs = refKey == null ? state.objectNode() : copy(state, refKey, what);
        if (!gone.isMissingNode() && !gone.isArray()) {
            throw corrupt(what, "holds a change whose removed " + inlineKey + " are not an array");
        }
        for (JsonNode name : gone) {
            if (!name.isTextual()) {
                throw corrupt(what, "holds a change whose removed " + inlineKey + " are not all names");
            }
            inline.remove(name.textValue());
            refs.remove(name.textValue());
        }
        for (Map.Entry<String, JsonNode> value :
                object(inlineChange, inlineKey, what).properties()) {
            inline.set(value.getKey(), value.getValue());
            refs.remove(value.getKey());
        }
        for (Map.Entry<String, JsonNode> ref : object(refChange, refKey, what).properties()) {
            refs.set(ref.getKey(), ref.getValue());
            inline.remove(ref.getKey());
        }
        state.set(inlineKey, inline);
        if (refKey != null) {
            if (refs.isEmpty()) {
                state.remove(refKey);
            } else {
                state.set(refKey, refs);
            }
        }
    }

    /** A copy of the state's map {@code key} (empty if it has none), sharing its values. */
    private static ObjectNode copy(ObjectNode state, String key, String what) {
        ObjectNode copy = state.objectNode();
        copy.setAll(object(state.path(key), key, what));
        return copy;
    }

    private static ObjectNode object(JsonNode node, @Nullable String key, String what) {
        if (node.isMissingNode()) {
            return EMPTY;
        }
        if (!node.isObject()) {
            throw corrupt(what, "holds " + key + " that are not a JSON object");
        }
        return (ObjectNode) node;
    }

    private static WeftException corrupt(String what, String problem) {
        return new WeftException(ErrorCode.E_STORE_UNAVAILABLE, "the stored " + what + " " + problem);
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
