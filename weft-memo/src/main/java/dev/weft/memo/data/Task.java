package dev.weft.memo.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.Objects;
import java.util.Optional;

/**
 * A task or a reminder of one user (seed 002): text, category, when it is due, its reminder and how
 * the reminder recurs, whether it is done, and the task it is a subtask of. Immutable.
 *
 * @param dueDate the due date as given: ISO-8601 with an offset, or {@code YYYY-MM-DD} for a whole day
 * @param dueAt the instant {@code dueDate} names (the start of the day, in the user's zone, for a day)
 */
public record Task(
        String id,
        Optional<String> parentId,
        String text,
        Optional<String> category,
        Optional<String> dueDate,
        Optional<Instant> dueAt,
        Optional<String> reminder,
        Optional<JsonNode> reminderRecurrence,
        Optional<JsonNode> reminderDetails,
        boolean completed,
        Instant createdAt,
        Instant updatedAt) {
    public Task {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(parentId, "parentId");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(dueDate, "dueDate");
        Objects.requireNonNull(dueAt, "dueAt");
        Objects.requireNonNull(reminder, "reminder");
        Objects.requireNonNull(reminderRecurrence, "reminderRecurrence");
        Objects.requireNonNull(reminderDetails, "reminderDetails");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
    }

    /** Whether this is a reminder rather than a plain task: it has a reminder or a recurrence. */
    public boolean isReminder() {
        return reminder.isPresent() || reminderRecurrence.isPresent();
    }

    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("id", id);
        parentId.ifPresent(p -> node.put("parentId", p));
        node.put("text", text);
        category.ifPresent(c -> node.put("category", c));
        dueDate.ifPresent(d -> node.put("dueDate", d));
        reminder.ifPresent(r -> node.put("reminder", r));
        reminderRecurrence.ifPresent(r -> node.set("reminderRecurrence", r));
        reminderDetails.ifPresent(r -> node.set("reminderDetails", r));
        node.put("completed", completed);
        node.put("createdAt", createdAt.toString());
        node.put("updatedAt", updatedAt.toString());
        return node;
    }

    /**
     * This task as listed for a window it falls due in at {@code at}: a recurring reminder's due date
     * is that time of it (what the person asked about), not the date it was first set for.
     */
    public ObjectNode toJsonDueAt(Instant at, ZoneId zone) {
        ObjectNode node = toJson();
        if (dueAt.filter(at::equals).isEmpty()) {
            node.put("dueDate", OffsetDateTime.ofInstant(at, zone).toString());
        }
        return node;
    }

    Task with(
            String text,
            Optional<String> category,
            Optional<String> dueDate,
            Optional<Instant> dueAt,
            Optional<String> reminder,
            Optional<JsonNode> reminderRecurrence,
            Optional<JsonNode> reminderDetails,
            boolean completed,
            Instant updatedAt) {
        return new Task(
                id,
                parentId,
                text,
                category,
                dueDate,
                dueAt,
                reminder,
                reminderRecurrence,
                reminderDetails,
                completed,
                createdAt,
                updatedAt);
    }
}
