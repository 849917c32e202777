package dev.weft.store;

import dev.weft.core.RunError;
import dev.weft.core.Step;
import dev.weft.core.spi.RunStore.Change;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A batch of changes as the JSON array that PostgreSQL's {@code weft_apply} function takes (see
 * migrations V2 to V4): one object per step change, in order, with the columns of a step row that do
 * not hold their defaults ({@link #writeStep}), then one journal row per run with its events and
 * checkpoints ({@link Journal}), then the payloads; JSON values as strings of their text, as the
 * columns keep them.
 */
final class PostgresBatch {
    private PostgresBatch() {}

    static String write(String runId, List<Change> changes, Payloads.Pending pending) {
        return write(runId, changes, pending, false);
    }

    /**
     * As {@link #write(String, List, Payloads.Pending)}; with {@code stepsInJournal} (PostgreSQL's V9
     * on), step changes go in their run's journal row ({@code "steps"}) rather than one object each.
     */
    static String write(String runId, List<Change> changes, Payloads.Pending pending, boolean stepsInJournal) {
        StringBuilder text = new StringBuilder(256 * changes.size() + 2).append('[');
        Journal.Rows journal = new Journal.Rows();
        for (Change change : changes) {
            switch (change) {
                case Change.InsertStep insert when stepsInJournal -> journal.add(insert, pending);
                case Change.UpdateStep update when stepsInJournal -> journal.add(update, pending);
                case Change.InsertStep insert -> {
                    start(text, "i", runId, insert.step().runId());
                    writeStep(text, insert.step(), pending);
                    text.append('}');
                }
                case Change.AppendEvent append -> journal.add(append.event());
                case Change.SaveCheckpoint save -> journal.add(save.checkpoint(), pending);
                case Change.UpdateStep update -> writeUpdate(text, runId, update, pending);
                case Change.UpdateRun update -> writeRunEnd(text, runId, update, pending);
            }
        }
        return writeRowsAndPayloads(text, runId, journal, pending);
    }

    /**
     * A batch already put in journal rows ({@link JdbcRunStore#journalBatch}, steps in them), so that
     * nothing is serialized again: the run's end, then the rows, then the payloads. The end's check
     * fails the whole call, so its place among them changes nothing.
     */
    static String write(String runId, JdbcRunStore.JournalBatch batch, Payloads.Pending pending) {
        StringBuilder text = new StringBuilder(1024).append('[');
        Change.UpdateRun runUpdate = batch.runUpdate();
        if (runUpdate != null) {
            writeRunEnd(text, runId, runUpdate, pending);
        }
        return writeRowsAndPayloads(text, runId, batch.rows(), pending);
    }

    private static String writeRowsAndPayloads(
            StringBuilder text, String runId, Journal.Rows journal, Payloads.Pending pending) {
        for (Journal.Row row : journal.rows()) {
            start(text, "j", runId, row.runId());
            string(text, "events", row.events());
            string(text, "checkpoints", row.checkpoints());
            string(text, "steps", row.steps());
            text.append('}');
        }
        for (String[] payload : pending.drain()) {
            start(text, "p", runId, payload[0]);
            string(text, "id", payload[1]);
            number(text, "size", payload[2].getBytes(StandardCharsets.UTF_8).length);
            string(text, "data", payload[2]);
            text.append('}');
        }
        return text.append(']').toString();
    }

    private static void writeUpdate(
            StringBuilder text, String runId, Change.UpdateStep update, Payloads.Pending pending) {
        start(text, "u", runId, update.step().runId());
        writeStep(text, update.step(), pending);
        string(text, "expected", JdbcRunStore.statuses(update.expected()));
        text.append('}');
    }

    private static void writeRunEnd(
            StringBuilder text, String runId, Change.UpdateRun update, Payloads.Pending pending) {
        if (!update.run().id().equals(runId)) {
            throw new IllegalArgumentException("a batch of run '" + runId + "' cannot end run '"
                    + update.run().id() + "'");
        }
        start(text, "r", runId, runId);
        string(text, "status", update.run().status().name());
        Payloads.Stored output = pending.store(runId, update.run().output());
        string(text, "output", output.text());
        string(text, "outputRef", output.ref());
        string(text, "errorCode", update.run().error().map(e -> e.code().name()).orElse(null));
        string(text, "errorMessage", update.run().error().map(RunError::message).orElse(null));
        if (update.run().endedAt().isPresent()) {
            number(text, "ended", JsonText.nanos(update.run().endedAt().get()));
        }
        string(text, "expected", JdbcRunStore.statuses(update.expected()));
        text.append('}');
    }

    /** Opens a change's object: its kind, and its run when that is not the batch's. */
    private static void start(StringBuilder text, String kind, String runId, String changeRunId) {
        if (text.length() > 1) {
            text.append(',');
        }
        text.append("{\"k\":\"").append(kind).append('"');
        if (!changeRunId.equals(runId)) {
            string(text, "run", changeRunId);
        }
    }

    /**
     * Writes {@code step}'s columns but its run as the fields of a change's object, leaving out those
     * that hold a step's defaults (no attempt, not pinned, a null input or output, no error, no start
     * or end, no details): a new step is all defaults but its identity, and a finished one has no
     * error, pin or details most of the time. {@link StepFold} reads a field left out as its default,
     * and reads the objects of earlier builds, which wrote every field, the same way. Each change
     * still holds the whole step: an update replaces the step it finds, whatever that holds.
     */
    static void writeStep(StringBuilder text, Step step, Payloads.Pending pending) {
        number(text, "order", step.order());
        string(text, "node", step.nodeId());
        string(text, "name", step.name());
        string(text, "type", step.type());
        string(text, "status", step.status().name());
        if (step.attempt() != 0) {
            number(text, "attempt", step.attempt());
        }
        if (step.pinned()) {
            text.append(",\"pinned\":true");
        }
        if (!step.input().isNull()) {
            Payloads.Stored input = pending.store(step.runId(), step.input());
            string(text, "input", input.text());
            string(text, "inputRef", input.ref());
        }
        if (!step.output().isNull()) {
            Payloads.Stored output = pending.store(step.runId(), step.output());
            string(text, "output", output.text());
            string(text, "outputRef", output.ref());
        }
        Optional<RunError> error = step.error();
        if (error.isPresent()) {
            string(text, "errorCode", error.get().code().name());
            string(text, "errorMessage", error.get().message());
        }
        time(text, "started", step.startedAt());
        time(text, "ended", step.endedAt());
        if (!step.details().isEmpty()) {
            string(text, "details", JsonText.writeMap(step.details()));
        }
    }

    private static void string(StringBuilder text, String key, @Nullable String value) {
        if (value != null) {
            text.append(",\"").append(key).append("\":");
            JsonText.appendString(text, value);
        }
    }

    private static void number(StringBuilder text, String key, long value) {
        text.append(",\"").append(key).append("\":").append(value);
    }

    private static void time(StringBuilder text, String key, Optional<Instant> time) {
        if (time.isPresent()) {
            number(text, key, JsonText.nanos(time.get()));
        }
    }
}
