package dev.weft.memo.data;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.store.AppDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The rows of {@code memo_tasks}, always of one user: every statement names the user, so an id of
 * another user's task finds nothing. Thread-safe; the {@code Connection} methods run inside the
 * caller's transaction.
 */
public final class Tasks {
    private static final String COLUMNS = "id, parent_id, text, category, due_at, due_text, reminder,"
            + " reminder_recurrence, reminder_details, completed, created_at, updated_at";

    private final AppDatabase db;

    Tasks(AppDatabase db) {
        this.db = db;
    }

    AppDatabase db() {
        return db;
    }

    /** Every task of {@code user}, soonest due first, then undated ones by creation. */
    public List<Task> all(String user) {
        return db.read("read the tasks of " + user, connection -> all(connection, user));
    }

    public Optional<Task> find(String user, String id) {
        return db.read("read task " + id, connection -> find(connection, user, id));
    }

    static List<Task> all(Connection connection, String user) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS
                + " FROM memo_tasks WHERE user_id = ? ORDER BY CASE WHEN due_at IS NULL THEN 1 ELSE 0 END, due_at,"
                + " created_at, id")) {
            select.setString(1, user);
            return read(select);
        }
    }

    static Optional<Task> find(Connection connection, String user, String id) throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement("SELECT " + COLUMNS + " FROM memo_tasks WHERE user_id = ? AND id = ?")) {
            select.setString(1, user);
            select.setString(2, id);
            List<Task> found = read(select);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
        }
    }

    /** Inserts {@code task}; a task with its id already there (the same call made again) is kept as it is. */
    static Task insert(Connection connection, String user, Task task) throws SQLException {
        Optional<Task> existing = find(connection, user, task.id());
        if (existing.isPresent()) {
            return existing.get();
        }
        write(
                connection,
                user,
                task,
                "INSERT INTO memo_tasks (user_id, " + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        return task;
    }

    /** Writes {@code task} over the stored one, or inserts it when it is gone (an undo restoring it). */
    static void upsert(Connection connection, String user, Task task) throws SQLException {
        delete(connection, user, List.of(task.id()));
        write(
                connection,
                user,
                task,
                "INSERT INTO memo_tasks (user_id, " + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    }

    static void update(Connection connection, String user, Task task) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("UPDATE memo_tasks SET text = ?, category = ?,"
                + " due_at = ?, due_text = ?, reminder = ?, reminder_recurrence = ?, reminder_details = ?,"
                + " completed = ?, updated_at = ? WHERE user_id = ? AND id = ?")) {
            update.setString(1, task.text());
            setText(update, 2, task.category());
            setInstant(update, 3, task.dueAt());
            setText(update, 4, task.dueDate());
            setText(update, 5, task.reminder());
            setText(update, 6, task.reminderRecurrence().map(Json::write));
            setText(update, 7, task.reminderDetails().map(Json::write));
            update.setBoolean(8, task.completed());
            update.setLong(9, task.updatedAt().toEpochMilli());
            update.setString(10, user);
            update.setString(11, task.id());
            update.executeUpdate();
        }
    }

    static void delete(Connection connection, String user, Collection<String> ids) throws SQLException {
        try (PreparedStatement delete =
                connection.prepareStatement("DELETE FROM memo_tasks WHERE user_id = ? AND (id = ? OR parent_id = ?)")) {
            for (String id : ids) {
                delete.setString(1, user);
                delete.setString(2, id);
                delete.setString(3, id);
                delete.addBatch();
            }
            delete.executeBatch();
        }
    }

    private static void write(Connection connection, String user, Task task, String statement) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(statement)) {
            insert.setString(1, user);
            insert.setString(2, task.id());
            setText(insert, 3, task.parentId());
            insert.setString(4, task.text());
            setText(insert, 5, task.category());
            setInstant(insert, 6, task.dueAt());
            setText(insert, 7, task.dueDate());
            setText(insert, 8, task.reminder());
            setText(insert, 9, task.reminderRecurrence().map(Json::write));
            setText(insert, 10, task.reminderDetails().map(Json::write));
            insert.setBoolean(11, task.completed());
            insert.setLong(12, task.createdAt().toEpochMilli());
            insert.setLong(13, task.updatedAt().toEpochMilli());
            insert.executeUpdate();
        }
    }

    private static List<Task> read(PreparedStatement select) throws SQLException {
        List<Task> tasks = new ArrayList<>();
        try (ResultSet row = select.executeQuery()) {
            while (row.next()) {
                long due = row.getLong(5);
                Optional<Instant> dueAt = row.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(due));
                tasks.add(new Task(
                        row.getString(1),
                        Optional.ofNullable(row.getString(2)),
                        row.getString(3),
                        Optional.ofNullable(row.getString(4)),
                        Optional.ofNullable(row.getString(6)),
                        dueAt,
                        Optional.ofNullable(row.getString(7)),
                        json(row.getString(8)),
                        json(row.getString(9)),
                        row.getBoolean(10),
                        Instant.ofEpochMilli(row.getLong(11)),
                        Instant.ofEpochMilli(row.getLong(12))));
            }
        }
        return tasks;
    }

    private static Optional<JsonNode> json(String text) {
        return text == null ? Optional.empty() : Optional.of(Json.parse(text, "stored JSON"));
    }

    static void setText(PreparedStatement statement, int index, Optional<String> value) throws SQLException {
        if (value.isPresent()) {
            statement.setString(index, value.get());
        } else {
            statement.setNull(index, Types.VARCHAR);
        }
    }

    private static void setInstant(PreparedStatement statement, int index, Optional<Instant> value)
            throws SQLException {
        if (value.isPresent()) {
            statement.setLong(index, value.get().toEpochMilli());
        } else {
            statement.setNull(index, Types.BIGINT);
        }
    }
}
