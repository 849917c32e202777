package dev.weft.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.store.AppDatabase;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The Responses API's responses (table {@code server_responses}), each in its user's own rows: the
 * response object as it was last served, and the conversation a later response continues when it
 * names this one as its {@code previous_response_id}. Thread-safe.
 */
final class StoredResponses {
    /** A stored response: whose, for which assistant, in which conversation, and the object itself. */
    record Stored(String id, String user, String model, String session, ObjectNode body) {
        Stored {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(session, "session");
            Objects.requireNonNull(body, "body");
        }
    }

    private final AppDatabase db;

    StoredResponses(AppDatabase db) {
        this.db = db;
    }

    /** Keeps {@code response}, or replaces the one of its id (which must be the same user's). */
    void put(Stored response, Instant now) {
        db.write("keep response " + response.id() + " of " + response.user(), connection -> {
            try (PreparedStatement update =
                    connection.prepareStatement("UPDATE server_responses SET body = ? WHERE id = ? AND user_id = ?")) {
                update.setString(1, Json.write(response.body()));
                update.setString(2, response.id());
                update.setString(3, response.user());
                if (update.executeUpdate() == 1) {
                    return null;
                }
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO server_responses (id, user_id, model, session, body, created_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, response.id());
                insert.setString(2, response.user());
                insert.setString(3, response.model());
                insert.setString(4, response.session());
                insert.setString(5, Json.write(response.body()));
                insert.setLong(6, now.toEpochMilli());
                insert.executeUpdate();
            }
            return null;
        });
    }

    /** {@code user}'s response {@code id}; another user's is not found, as one that does not exist. */
    Optional<Stored> find(String user, String id) {
        return db.read("read response " + id + " of " + user, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT id, user_id, model, session, body FROM server_responses WHERE id = ? AND user_id = ?")) {
                select.setString(1, id);
                select.setString(2, user);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    JsonNode body = Json.parse(row.getString(5), "stored response " + id);
                    return Optional.of(new Stored(
                            row.getString(1), row.getString(2), row.getString(3), row.getString(4), (ObjectNode) body));
                }
            }
        });
    }
}
