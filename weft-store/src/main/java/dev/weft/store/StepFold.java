package dev.weft.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.WeftException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A run's steps as one ordered log folded into their latest states: the steps table's rows (written
 * before SQLite's migration V8), then the step changes of the run's journal rows by {@code seq}, each
 * row's in order, applied by the rule the table's statements apply at once. An insert ({@code "k":"i"})
 * adds its step unless one has its order (the table's {@code ON CONFLICT DO NOTHING}); an update
 * ({@code "k":"u"}) replaces the step if it exists and its status is one of {@code expected} (the
 * table's conditional {@code UPDATE}). Right only because a run's journal order is its commit order:
 * every write holds the run's write lock. A change's values are read only if it is the step's last.
 * A field a change leaves out holds the step's default ({@link PostgresBatch#writeStep}: no attempt,
 * not pinned, a null input or output, no error, start, end or details); earlier builds wrote every
 * field, and read the same. Not thread-safe.
 */
final class StepFold {
    private final String runId;
    /** By order: a {@link Step} read from the table, or the {@link JsonNode} of the change that won. */
    private final TreeMap<Integer, Object> steps = new TreeMap<>();

    StepFold(String runId) {
        this.runId = runId;
    }

    /** A row of the steps table; rows come before any journal change. */
    void row(Step step) {
        steps.put(step.order(), step);
    }

    /** The step changes of one journal row, a JSON array in the order they were made. */
    void changes(String text) {
        String what = "journal of run " + runId;
        JsonNode array = JsonText.read(text, what);
        if (!array.isArray()) {
            throw corrupt(what, "holds steps that are not a JSON array");
        }
        for (JsonNode change : array) {
            JsonNode order = change.path("order");
            if (!order.canConvertToExactIntegral()) {
                throw corrupt(what, "holds a step change with no order: " + Journal.abbreviate(change));
            }
            int key = order.intValue();
            switch (change.path("k").asText()) {
                case "i" -> steps.putIfAbsent(key, change);
                case "u" -> {
                    Object current = steps.get(key);
                    String expected = change.path("expected").asText("");
                    if (current != null && expected.contains("," + status(current) + ",")) {
                        steps.put(key, change);
                    }
                }
                default -> throw corrupt(what, "holds a step change of no known kind: " + Journal.abbreviate(change));
            }
        }
    }

    /** The status of the step of {@code order}, if there is one. */
    Optional<StepStatus> status(int order) {
        Object step = steps.get(order);
        return step == null ? Optional.empty() : Optional.of(StepStatus.valueOf(status(step)));
    }

    /** The steps, by order; values kept as payloads are read from {@code sql}. */
    List<Step> steps(Sql sql) throws SQLException {
        List<Step> folded = new ArrayList<>(steps.size());
        for (Map.Entry<Integer, Object> entry : steps.entrySet()) {
            folded.add(
                    entry.getValue() instanceof Step step
                            ? step
                            : step(sql, entry.getKey(), (JsonNode) entry.getValue()));
        }
        return folded;
    }

    private static String status(Object step) {
        return step instanceof Step row
                ? row.status().name()
                : ((JsonNode) step).path("status").asText();
    }

    private Step step(Sql sql, int order, JsonNode change) throws SQLException {
        String what = "step " + runId + "/" + order;
        return new Step(
                runId,
                order,
                text(change, "node"),
                text(change, "name"),
                text(change, "type"),
                StepStatus.valueOf(text(change, "status")),
                change.path("attempt").intValue(),
                change.path("pinned").booleanValue(),
                value(sql, change, "input", "input of " + what),
                value(sql, change, "output", "output of " + what),
                JdbcRunStore.error(optional(change, "errorCode"), optional(change, "errorMessage")),
                time(change, "started"),
                time(change, "ended"),
                details(change, what));
    }

    /** A step's input or output: its text, the payload it names, or null if the change has neither. */
    private JsonNode value(Sql sql, JsonNode change, String field, String what) throws SQLException {
        String text = optional(change, field);
        String ref = optional(change, field + "Ref");
        return text == null && ref == null ? NullNode.getInstance() : Payloads.load(sql, runId, text, ref, what);
    }

    /** A step's details, none if the change has no {@code details} (written only when there are some). */
    private Map<String, JsonNode> details(JsonNode change, String what) {
        return change.has("details") ? JsonText.readMap(text(change, "details"), "details of " + what) : Map.of();
    }

    private String text(JsonNode change, String field) {
        JsonNode value = change.get(field);
        if (value == null || !value.isTextual()) {
            throw corrupt(
                    "journal of run " + runId,
                    "holds a step change with no " + field + ": " + Journal.abbreviate(change));
        }
        return value.textValue();
    }

    private static @Nullable String optional(JsonNode change, String field) {
        JsonNode value = change.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Optional<Instant> time(JsonNode change, String field) {
        JsonNode value = change.get(field);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(JsonText.instant(value.longValue()));
    }

    private static WeftException corrupt(String what, String problem) {
        return new WeftException(ErrorCode.E_STORE_UNAVAILABLE, "the stored " + what + " " + problem);
    }
}
