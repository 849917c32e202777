package dev.weft.memo.data;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.store.AppDatabase;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What fired for each user: a reminder that fell due ({@code reminder.due}), kept until a client has
 * shown it, and after. Each reminder fires once per time it is due (the notification's id is the
 * reminder's and that time's), so a firing repeated after a crash adds nothing. Thread-safe.
 */
public final class Notifications {
    /** The type of a reminder's notification, as clients and events name it. */
    public static final String REMINDER_DUE = "reminder.due";

    /**
     * One notification for {@code user}.
     *
     * @param source what fired: {@code task} or {@code event}
     * @param dueAt the time it was due
     * @param firedAt when it fired
     * @param late whether it fired well after {@code dueAt} (the process was down then)
     */
    public record Notification(
            String user,
            String id,
            String type,
            String source,
            String sourceId,
            String text,
            Instant dueAt,
            Instant firedAt,
            boolean late) {
        public Notification {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(sourceId, "sourceId");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(dueAt, "dueAt");
            Objects.requireNonNull(firedAt, "firedAt");
        }

        /** The id of the notification of {@code source} {@code sourceId} due at {@code dueAt}. */
        public static String idOf(String source, String sourceId, Instant dueAt) {
            return source + ":" + sourceId + "@" + dueAt.toEpochMilli();
        }

        public ObjectNode toJson() {
            ObjectNode node = Json.object();
            node.put("type", type);
            node.put("id", id);
            node.put("user", user);
            node.put("source", source);
            node.put("sourceId", sourceId);
            node.put("text", text);
            node.put("dueAt", dueAt.toString());
            node.put("firedAt", firedAt.toString());
            node.put("late", late);
            return node;
        }
    }

    private final AppDatabase db;

    Notifications(AppDatabase db) {
        this.db = db;
    }

    /** Keeps {@code notification} unless it is already kept; whether it was new. */
    public boolean add(Notification notification) {
        return db.write("keep a notification for " + notification.user(), connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO memo_notifications (user_id, id, type, source, source_id, text, due_at, fired_at,"
                            + " late) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, id) DO NOTHING")) {
                insert.setString(1, notification.user());
                insert.setString(2, notification.id());
                insert.setString(3, notification.type());
                insert.setString(4, notification.source());
                insert.setString(5, notification.sourceId());
                insert.setString(6, notification.text());
                insert.setLong(7, notification.dueAt().toEpochMilli());
                insert.setLong(8, notification.firedAt().toEpochMilli());
                insert.setBoolean(9, notification.late());
                return insert.executeUpdate() == 1;
            }
        });
    }

    /** Whether {@code user} has the notification {@code id}. */
    public boolean exists(String user, String id) {
        return db.read("read a notification of " + user, connection -> {
            try (PreparedStatement select =
                    connection.prepareStatement("SELECT 1 FROM memo_notifications WHERE user_id = ? AND id = ?")) {
                select.setString(1, user);
                select.setString(2, id);
                try (ResultSet row = select.executeQuery()) {
                    return row.next();
                }
            }
        });
    }

    /** {@code user}'s notification {@code id}, if they have it. */
    public Optional<Notification> find(String user, String id) {
        return db.read("read a notification of " + user, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT user_id, id, type, source, source_id, text, due_at, fired_at, late FROM memo_notifications"
                            + " WHERE user_id = ? AND id = ?")) {
                select.setString(1, user);
                select.setString(2, id);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(read(row)) : Optional.empty();
                }
            }
        });
    }

    /** {@code user}'s notifications no client has shown yet, oldest first. */
    public List<Notification> pending(String user) {
        return select(user, "AND delivered_at IS NULL ORDER BY fired_at, id", 1000);
    }

    /** {@code user}'s last {@code count} notifications, shown or not, oldest first. */
    public List<Notification> recent(String user, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive, was " + count);
        }
        List<Notification> newest = select(user, "ORDER BY fired_at DESC, id DESC", count);
        return newest.reversed();
    }

    /** Marks {@code ids} of {@code user} as shown at {@code at}. */
    public void delivered(String user, List<String> ids, Instant at) {
        if (ids.isEmpty()) {
            return;
        }
        db.write("mark notifications shown for " + user, connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE memo_notifications SET delivered_at = ? WHERE user_id = ? AND id = ?"
                            + " AND delivered_at IS NULL")) {
                for (String id : ids) {
                    update.setLong(1, at.toEpochMilli());
                    update.setString(2, user);
                    update.setString(3, id);
                    update.addBatch();
                }
                return update.executeBatch().length;
            }
        });
    }

    private List<Notification> select(String user, String rest, int limit) {
        return db.read("read the notifications of " + user, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT user_id, id, type, source, source_id, text, due_at, fired_at, late FROM memo_notifications"
                            + " WHERE user_id = ? " + rest + " LIMIT ?")) {
                select.setString(1, user);
                select.setInt(2, limit);
                List<Notification> found = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        found.add(read(row));
                    }
                }
                return found;
            }
        });
    }

    private static Notification read(ResultSet row) throws SQLException {
        return new Notification(
                row.getString(1),
                row.getString(2),
                row.getString(3),
                row.getString(4),
                row.getString(5),
                row.getString(6),
                Instant.ofEpochMilli(row.getLong(7)),
                Instant.ofEpochMilli(row.getLong(8)),
                row.getBoolean(9));
    }
}
