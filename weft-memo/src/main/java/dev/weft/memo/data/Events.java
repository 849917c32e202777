package dev.weft.memo.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.weft.core.Json;
import dev.weft.store.AppDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The rows of {@code memo_events}, always of one user: every statement names the user, so an id of
 * another user's event finds nothing. Thread-safe; the {@code Connection} methods run inside the
 * caller's transaction.
 */
public final class Events {
    private static final String COLUMNS = "id, summary, start_at, end_at, all_day, time_zone, description, location,"
            + " attendees, reminder_minutes, recurrence, exdates, created_at, updated_at";
    private static final String INSERT =
            "INSERT INTO memo_events (user_id, " + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private final AppDatabase db;

    Events(AppDatabase db) {
        this.db = db;
    }

    AppDatabase db() {
        return db;
    }

    /** Every event of {@code user}, by when it (or its first occurrence) starts. */
    public List<Event> all(String user) {
        return db.read("read the events of " + user, connection -> all(connection, user));
    }

    public Optional<Event> find(String user, String id) {
        return db.read("read event " + id, connection -> find(connection, user, id));
    }

    static List<Event> all(Connection connection, String user) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT " + COLUMNS + " FROM memo_events WHERE user_id = ? ORDER BY start_at, id")) {
            select.setString(1, user);
            return read(select);
        }
    }

    /**
     * The events of {@code user} that may have an occurrence in {@code [from, to)}: those that overlap
     * it, and every recurring one that starts before its end.
     */
    static List<Event> between(Connection connection, String user, Instant from, Instant to) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT " + COLUMNS
                + " FROM memo_events WHERE user_id = ? AND start_at < ? AND (end_at > ? OR recurrence IS NOT NULL)"
                + " ORDER BY start_at, id")) {
            select.setString(1, user);
            select.setLong(2, to.toEpochMilli());
            select.setLong(3, from.toEpochMilli());
            return read(select);
        }
    }

    static Optional<Event> find(Connection connection, String user, String id) throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement("SELECT " + COLUMNS + " FROM memo_events WHERE user_id = ? AND id = ?")) {
            select.setString(1, user);
            select.setString(2, id);
            List<Event> found = read(select);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
        }
    }

    /** Inserts {@code event}; an event with its id already there (the same call made again) is kept as it is. */
    static Event insert(Connection connection, String user, Event event) throws SQLException {
        Optional<Event> existing = find(connection, user, event.id());
        if (existing.isPresent()) {
            return existing.get();
        }
        write(connection, user, event);
        return event;
    }

    /** Writes {@code event} over the stored one, or inserts it when it is gone (an undo restoring it). */
    static void upsert(Connection connection, String user, Event event) throws SQLException {
        delete(connection, user, List.of(event.id()));
        write(connection, user, event);
    }

    static void delete(Connection connection, String user, Collection<String> ids) throws SQLException {
        try (PreparedStatement delete =
                connection.prepareStatement("DELETE FROM memo_events WHERE user_id = ? AND id = ?")) {
            for (String id : ids) {
                delete.setString(1, user);
                delete.setString(2, id);
                delete.addBatch();
            }
            delete.executeBatch();
        }
    }

    private static void write(Connection connection, String user, Event event) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
            insert.setString(1, user);
            insert.setString(2, event.id());
            insert.setString(3, event.summary());
            insert.setLong(4, event.start().toEpochMilli());
            insert.setLong(5, event.end().toEpochMilli());
            insert.setBoolean(6, event.allDay());
            insert.setString(7, event.zone().getId());
            Tasks.setText(insert, 8, event.description());
            Tasks.setText(insert, 9, event.location());
            ArrayNode attendees = Json.mapper().createArrayNode();
            event.attendees().forEach(attendees::add);
            insert.setString(10, Json.write(attendees));
            if (event.reminderMinutesBefore().isPresent()) {
                insert.setInt(11, event.reminderMinutesBefore().get());
            } else {
                insert.setNull(11, Types.INTEGER);
            }
            Tasks.setText(insert, 12, event.recurrence());
            ArrayNode exdates = Json.mapper().createArrayNode();
            event.exdates().forEach(d -> exdates.add(d.toString()));
            insert.setString(13, Json.write(exdates));
            insert.setLong(14, event.createdAt().toEpochMilli());
            insert.setLong(15, event.updatedAt().toEpochMilli());
            insert.executeUpdate();
        }
    }

    private static List<Event> read(PreparedStatement select) throws SQLException {
        List<Event> events = new ArrayList<>();
        try (ResultSet row = select.executeQuery()) {
            while (row.next()) {
                int reminder = row.getInt(10);
                Optional<Integer> reminderMinutes = row.wasNull() ? Optional.empty() : Optional.of(reminder);
                List<String> attendees = new ArrayList<>();
                Json.parse(row.getString(9), "stored attendees").forEach(a -> attendees.add(a.asText()));
                List<LocalDate> exdates = new ArrayList<>();
                for (JsonNode day : Json.parse(row.getString(12), "stored exdates")) {
                    exdates.add(LocalDate.parse(day.asText()));
                }
                events.add(new Event(
                        row.getString(1),
                        row.getString(2),
                        Instant.ofEpochMilli(row.getLong(3)),
                        Instant.ofEpochMilli(row.getLong(4)),
                        row.getBoolean(5),
                        ZoneId.of(row.getString(6)),
                        Optional.ofNullable(row.getString(7)),
                        Optional.ofNullable(row.getString(8)),
                        attendees,
                        reminderMinutes,
                        Optional.ofNullable(row.getString(11)),
                        exdates,
                        Instant.ofEpochMilli(row.getLong(13)),
                        Instant.ofEpochMilli(row.getLong(14))));
            }
        }
        return events;
    }
}
