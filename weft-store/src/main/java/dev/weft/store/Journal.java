package dev.weft.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Step;
import dev.weft.core.WeftException;
import dev.weft.core.spi.Checkpoint;
import dev.weft.core.spi.RunStore.Change;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The {@code journal} table's texts: the events and checkpoints one transaction writes for a run, as
 * two JSON arrays in one row (migration V2 of SQLite, V4 of PostgreSQL). An event is {@code
 * [sequence, type, node_id, step_order, time, data]} and a checkpoint {@code [after_step, next_order,
 * time, state]}, with times in nanoseconds since the epoch and {@code data} and {@code state} written
 * as the events and checkpoints tables kept them. A row's later checkpoints are written as what
 * changed since the one before ({@link CheckpointState#writeChange}), {@code [after_step, next_order,
 * time, 0, change]}: a run's checkpoints each hold all its outputs so far, so written whole, a chain's
 * would grow with the square of its length, and every big output would be written out again after
 * every step. Only the first of a row is whole, so each row is read by itself.
 */
final class Journal {
    private Journal() {}

    /** The journal rows of one transaction, by run, in the order their first change came. */
    static final class Rows {
        private final Map<String, Row> rows = new LinkedHashMap<>(2);

        void add(Event event) {
            row(event.runId()).event(event);
        }

        void add(Checkpoint checkpoint, Payloads.Pending payloads) {
            row(checkpoint.runId()).checkpoint(checkpoint, payloads);
        }

        /** A step's insert, if it does not exist, into its run's row (SQLite's V8 on). */
        void add(Change.InsertStep insert, Payloads.Pending payloads) {
            row(insert.step().runId()).step("i", insert.step(), null, payloads);
        }

        /** A step's update, if its status is an expected one, into its run's row (SQLite's V8 on). */
        void add(Change.UpdateStep update, Payloads.Pending payloads) {
            row(update.step().runId()).step("u", update.step(), JdbcRunStore.statuses(update.expected()), payloads);
        }

        /** The one row, if the transaction writes only {@code runId}'s. */
        @Nullable
        Row only(String runId) {
            return rows.size() == 1 ? rows.get(runId) : null;
        }

        boolean isEmpty() {
            return rows.isEmpty();
        }

        Iterable<Row> rows() {
            return rows.values();
        }

        private Row row(String runId) {
            Row row = rows.get(runId);
            if (row == null) {
                row = new Row(runId);
                rows.put(runId, row);
            }
            return row;
        }
    }

    /** One journal row being written. */
    static final class Row {
        private final String runId;
        private @Nullable StringBuilder steps;
        private @Nullable StringBuilder events;
        private @Nullable StringBuilder checkpoints;
        /** The row's last checkpoint, which the next one is written as a change from. */
        private @Nullable Checkpoint previous;

        private Row(String runId) {
            this.runId = runId;
        }

        String runId() {
            return runId;
        }

        /** The step changes' array, or null if the transaction writes none for this run. */
        @Nullable
        String steps() {
            return steps == null ? null : steps + "]";
        }

        /** The events' array, or null if the transaction writes none for this run. */
        @Nullable
        String events() {
            return events == null ? null : events + "]";
        }

        /** The checkpoints' array, or null if the transaction writes none for this run. */
        @Nullable
        String checkpoints() {
            return checkpoints == null ? null : checkpoints + "]";
        }

        private void step(String kind, Step step, @Nullable String expected, Payloads.Pending payloads) {
            StringBuilder text = steps == null ? (steps = new StringBuilder(512).append('[')) : steps.append(',');
            text.append("{\"k\":\"").append(kind).append('"');
            PostgresBatch.writeStep(text, step, payloads);
            if (expected != null) {
                text.append(",\"expected\":\"").append(expected).append('"');
            }
            text.append('}');
        }

        private void event(Event event) {
            StringBuilder text = events == null ? (events = new StringBuilder(128).append('[')) : events.append(',');
            text.append('[').append(event.sequence()).append(',');
            JsonText.appendString(text, event.type());
            text.append(',');
            Optional<String> node = event.nodeId();
            if (node.isPresent()) {
                JsonText.appendString(text, node.get());
            } else {
                text.append("null");
            }
            text.append(',')
                    .append(event.stepOrder())
                    .append(',')
                    .append(JsonText.nanos(event.time()))
                    .append(',')
                    .append(JsonText.write(event.data()))
                    .append(']');
        }

        private void checkpoint(Checkpoint checkpoint, Payloads.Pending payloads) {
            StringBuilder text =
                    checkpoints == null ? (checkpoints = new StringBuilder(256).append('[')) : checkpoints.append(',');
            text.append('[')
                    .append(checkpoint.afterStep())
                    .append(',')
                    .append(checkpoint.nextOrder())
                    .append(',')
                    .append(JsonText.nanos(checkpoint.time()))
                    .append(',');
            if (previous == null) {
                text.append(CheckpointState.write(checkpoint, payloads));
            } else {
                text.append("0,").append(CheckpointState.writeChange(previous, checkpoint, payloads));
            }
            text.append(']');
            previous = checkpoint;
        }
    }

    /** The events a row's {@code events} text holds, in order. */
    static List<Event> events(String runId, String text) {
        String what = "journal of run " + runId;
        List<Event> events = new ArrayList<>();
        for (JsonNode entry : entries(text, 6, what)) {
            JsonNode node = entry.get(2);
            events.add(new Event(
                    runId,
                    number(entry.get(0), what).longValue(),
                    string(entry.get(1), what),
                    node.isNull() ? Optional.empty() : Optional.of(string(node, what)),
                    number(entry.get(3), what).intValue(),
                    JsonText.instant(number(entry.get(4), what).longValue()),
                    entry.get(5)));
        }
        return events;
    }

    /** The checkpoints a row's {@code checkpoints} text holds, in order; only the last if {@code lastOnly}. */
    static List<Checkpoint> checkpoints(Sql sql, String runId, String text, boolean lastOnly) throws SQLException {
        String what = "journal of run " + runId;
        List<JsonNode> entries = entries(text, 4, 5, what);
        List<Checkpoint> checkpoints = new ArrayList<>(lastOnly ? 1 : entries.size());
        ObjectNode state = null;
        for (int i = 0; i < entries.size(); i++) {
            JsonNode entry = entries.get(i);
            int afterStep = number(entry.get(0), what).intValue();
            if (entry.size() == 4) {
                if (!entry.get(3).isObject()) {
                    throw corrupt(what, "holds a checkpoint that is not a JSON object: " + abbreviate(entry.get(3)));
                }
                state = (ObjectNode) entry.get(3);
            } else if (state == null
                    || !(entry.get(3).isIntegralNumber() && entry.get(3).intValue() == 0)) {
                throw corrupt(what, "holds a changed checkpoint with no whole one before it: " + abbreviate(entry));
            } else {
                state = CheckpointState.applyChange(
                        state, entry.get(4), "checkpoint after step " + afterStep + " in the " + what);
            }
            if (!lastOnly || i == entries.size() - 1) {
                checkpoints.add(CheckpointState.read(
                        sql,
                        runId,
                        afterStep,
                        number(entry.get(1), what).intValue(),
                        JsonText.instant(number(entry.get(2), what).longValue()),
                        state));
            }
        }
        return checkpoints;
    }

    private static List<JsonNode> entries(String text, int size, String what) {
        return entries(text, size, size, what);
    }

    /** The entries of a JSON array of arrays, each of {@code size} or {@code otherSize} elements. */
    private static List<JsonNode> entries(String text, int size, int otherSize, String what) {
        JsonNode array = JsonText.read(text, what);
        if (!array.isArray()) {
            throw corrupt(what, "is not a JSON array");
        }
        List<JsonNode> entries = new ArrayList<>(array.size());
        for (JsonNode entry : array) {
            if (!entry.isArray() || (entry.size() != size && entry.size() != otherSize)) {
                String sizes = size == otherSize ? Integer.toString(size) : size + " or " + otherSize;
                throw corrupt(what, "holds an entry that is not an array of " + sizes + ": " + abbreviate(entry));
            }
            entries.add(entry);
        }
        return entries;
    }

    private static JsonNode number(JsonNode node, String what) {
        if (!node.canConvertToExactIntegral()) {
            throw corrupt(what, "holds " + abbreviate(node) + " where a whole number belongs");
        }
        return node;
    }

    private static String string(JsonNode node, String what) {
        if (!node.isTextual()) {
            throw corrupt(what, "holds " + abbreviate(node) + " where a string belongs");
        }
        return node.textValue();
    }

    static String abbreviate(JsonNode node) {
        String text = node.toString();
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }

    private static WeftException corrupt(String what, String problem) {
        return new WeftException(ErrorCode.E_STORE_UNAVAILABLE, "the stored " + what + " " + problem);
    }
}
