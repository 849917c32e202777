package dev.weft.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.store.AppDatabase;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The workflows users uploaded to the server, each under its id in its user's own rows (table {@code
 * server_workflows}); uploading an id again replaces it. Thread-safe.
 */
final class StoredWorkflows {
    /** One stored workflow: its id, its definition as workflow JSON, and when it was last uploaded. */
    record Stored(String id, JsonNode definition, Instant updatedAt) {}

    private final AppDatabase db;

    StoredWorkflows(AppDatabase db) {
        this.db = db;
    }

    /** Keeps {@code definition} as {@code user}'s workflow {@code id}; whether it was new. */
    boolean put(String user, String id, JsonNode definition, Instant now) {
        return db.write("upload workflow " + id + " of " + user, connection -> {
            boolean known;
            try (PreparedStatement select =
                    connection.prepareStatement("SELECT 1 FROM server_workflows WHERE user_id = ? AND id = ?")) {
                select.setString(1, user);
                select.setString(2, id);
                try (ResultSet row = select.executeQuery()) {
                    known = row.next();
                }
            }
            String sql = known
                    ? "UPDATE server_workflows SET definition = ?, updated_at = ? WHERE user_id = ? AND id = ?"
                    : "INSERT INTO server_workflows (definition, updated_at, user_id, id) VALUES (?, ?, ?, ?)";
            try (PreparedStatement write = connection.prepareStatement(sql)) {
                write.setString(1, Json.write(definition));
                write.setLong(2, now.toEpochMilli());
                write.setString(3, user);
                write.setString(4, id);
                write.executeUpdate();
            }
            return !known;
        });
    }

    /** {@code user}'s workflow {@code id}. @throws NotFoundException if they have none of that id */
    Stored get(String user, String id) {
        return find(user, id).orElseThrow(() -> new NotFoundException("no workflow '" + id + "'"));
    }

    Optional<Stored> find(String user, String id) {
        return db.read("read workflow " + id + " of " + user, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT id, definition, updated_at FROM server_workflows WHERE user_id = ? AND id = ?")) {
                select.setString(1, user);
                select.setString(2, id);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(stored(row)) : Optional.empty();
                }
            }
        });
    }

    /** {@code user}'s workflows by id. */
    List<Stored> list(String user) {
        return db.read("list the workflows of " + user, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT id, definition, updated_at FROM server_workflows WHERE user_id = ? ORDER BY id")) {
                select.setString(1, user);
                List<Stored> all = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        all.add(stored(row));
                    }
                }
                return all;
            }
        });
    }

    private static Stored stored(ResultSet row) throws java.sql.SQLException {
        return new Stored(
                row.getString(1),
                Json.parse(row.getString(2), "stored workflow " + row.getString(1)),
                Instant.ofEpochMilli(row.getLong(3)));
    }
}
