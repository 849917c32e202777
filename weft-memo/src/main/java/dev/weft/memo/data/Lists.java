package dev.weft.memo.data;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.store.AppDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rows of {@code memo_lists}, always of one user, as JSON: {@code {"id", "name", "isChecklist",
 * "content", "items": [{"text", "checked"}], "createdAt", "updatedAt"}}. Thread-safe; the {@code
 * Connection} methods run inside the caller's transaction.
 */
public final class Lists {
    private static final String COLUMNS = "id, name, is_checklist, content, items, created_at, updated_at";

    private final AppDatabase db;

    Lists(AppDatabase db) {
        this.db = db;
    }

    AppDatabase db() {
        return db;
    }

    /** Every list of {@code user}, oldest first. */
    public List<ObjectNode> all(String user) {
        return db.read("read the lists of " + user, connection -> all(connection, user));
    }

    static List<ObjectNode> all(Connection connection, String user) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT " + COLUMNS + " FROM memo_lists WHERE user_id = ? ORDER BY created_at, id")) {
            select.setString(1, user);
            return read(select);
        }
    }

    static Optional<ObjectNode> find(Connection connection, String user, String id) throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement("SELECT " + COLUMNS + " FROM memo_lists WHERE user_id = ? AND id = ?")) {
            select.setString(1, user);
            select.setString(2, id);
            List<ObjectNode> found = read(select);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
        }
    }

    /** Inserts {@code list}, unless a list of its id is there (the same call made again). */
    static ObjectNode insert(Connection connection, String user, ObjectNode list) throws SQLException {
        Optional<ObjectNode> existing = find(connection, user, list.get("id").asText());
        if (existing.isPresent()) {
            return existing.get();
        }
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO memo_lists (user_id, " + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, user);
            insert.setString(2, list.get("id").asText());
            insert.setString(3, list.get("name").asText());
            insert.setBoolean(4, list.path("isChecklist").asBoolean());
            Tasks.setText(insert, 5, content(list));
            insert.setString(6, Json.write(list.path("items")));
            insert.setLong(7, Instant.parse(list.get("createdAt").asText()).toEpochMilli());
            insert.setLong(8, Instant.parse(list.get("updatedAt").asText()).toEpochMilli());
            insert.executeUpdate();
        }
        return list;
    }

    static void update(Connection connection, String user, ObjectNode list) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement("UPDATE memo_lists SET name = ?, is_checklist = ?,"
                + " content = ?, items = ?, updated_at = ? WHERE user_id = ? AND id = ?")) {
            update.setString(1, list.get("name").asText());
            update.setBoolean(2, list.path("isChecklist").asBoolean());
            Tasks.setText(update, 3, content(list));
            update.setString(4, Json.write(list.path("items")));
            update.setLong(5, Instant.parse(list.get("updatedAt").asText()).toEpochMilli());
            update.setString(6, user);
            update.setString(7, list.get("id").asText());
            update.executeUpdate();
        }
    }

    static void delete(Connection connection, String user, String id) throws SQLException {
        try (PreparedStatement delete =
                connection.prepareStatement("DELETE FROM memo_lists WHERE user_id = ? AND id = ?")) {
            delete.setString(1, user);
            delete.setString(2, id);
            delete.executeUpdate();
        }
    }

    private static Optional<String> content(ObjectNode list) {
        return list.path("content").isTextual()
                ? Optional.of(list.get("content").asText())
                : Optional.empty();
    }

    private static List<ObjectNode> read(PreparedStatement select) throws SQLException {
        List<ObjectNode> lists = new ArrayList<>();
        try (ResultSet row = select.executeQuery()) {
            while (row.next()) {
                ObjectNode list = Json.object();
                list.put("id", row.getString(1));
                list.put("name", row.getString(2));
                list.put("isChecklist", row.getBoolean(3));
                String content = row.getString(4);
                if (content != null) {
                    list.put("content", content);
                }
                list.set("items", (ArrayNode) Json.parse(row.getString(5), "stored items"));
                list.put("createdAt", Instant.ofEpochMilli(row.getLong(6)).toString());
                list.put("updatedAt", Instant.ofEpochMilli(row.getLong(7)).toString());
                lists.add(list);
            }
        }
        return lists;
    }
}
