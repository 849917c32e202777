package dev.weft.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.store.AppDatabase;
import io.a2a.spec.Message;
import io.a2a.util.Utils;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The A2A tasks the server's assistants worked on (table {@code server_a2a_tasks}), each its user's: a
 * task is one of an assistant's runs (its id the run's), kept with its A2A context (the conversation)
 * and the messages exchanged on it. Thread-safe.
 */
final class A2aTasks {
    private static final TypeReference<List<Message>> MESSAGES = new TypeReference<>() {};

    /** A task's own record beside its run. */
    record Stored(String id, String user, String assistant, String contextId, List<Message> history) {
        Stored {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(assistant, "assistant");
            Objects.requireNonNull(contextId, "contextId");
            history = List.copyOf(history);
        }
    }

    private final AppDatabase db;

    A2aTasks(AppDatabase db) {
        this.db = db;
    }

    /** {@code user}'s task {@code id}; another user's is not found, as one that does not exist. */
    Optional<Stored> find(String user, String id) {
        return db.read("read A2A task " + id + " of " + user, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT id, user_id, assistant, context_id, history FROM server_a2a_tasks"
                            + " WHERE id = ? AND user_id = ?")) {
                select.setString(1, id);
                select.setString(2, user);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new Stored(
                            row.getString(1),
                            row.getString(2),
                            row.getString(3),
                            row.getString(4),
                            read(row.getString(5), id)));
                }
            }
        });
    }

    /** Keeps {@code task}, or replaces the one of its id (which must be the same user's). */
    void put(Stored task, Instant now) {
        String history = write(task.history());
        db.write("keep A2A task " + task.id() + " of " + task.user(), connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE server_a2a_tasks SET history = ?, context_id = ?, updated_at = ? WHERE id = ? AND user_id = ?")) {
                update.setString(1, history);
                update.setString(2, task.contextId());
                update.setLong(3, now.toEpochMilli());
                update.setString(4, task.id());
                update.setString(5, task.user());
                if (update.executeUpdate() == 1) {
                    return null;
                }
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO server_a2a_tasks (id, user_id, assistant, context_id, history, updated_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, task.id());
                insert.setString(2, task.user());
                insert.setString(3, task.assistant());
                insert.setString(4, task.contextId());
                insert.setString(5, history);
                insert.setLong(6, now.toEpochMilli());
                insert.executeUpdate();
            }
            return null;
        });
    }

    private static String write(List<Message> history) {
        try {
            return Utils.OBJECT_MAPPER.writeValueAsString(history);
        } catch (JsonProcessingException e) {
            throw new WeftException(
                    ErrorCode.E_INTERNAL, "cannot write an A2A task's history: " + e.getOriginalMessage());
        }
    }

    private static List<Message> read(String history, String id) {
        try {
            return Utils.OBJECT_MAPPER.readValue(history, MESSAGES);
        } catch (JsonProcessingException e) {
            throw new WeftException(
                    ErrorCode.E_STORE_UNAVAILABLE,
                    "A2A task " + id + "'s stored history is not readable: " + e.getOriginalMessage());
        }
    }
}
