package dev.weft.concierge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.spi.MemoryFact;
import dev.weft.core.Json;
import dev.weft.core.RunStateException;
import dev.weft.store.AppDatabase;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The concierge's conversations, beside the shop in the same database: each API user's sessions (their
 * state, saved with a version so that two turns cannot both win), what was said in them, and what the
 * shop has learned about each customer across sessions. Every read and write of a session is scoped by
 * the user. Thread-safe.
 */
public final class Conversations {
    /** A session's saved state and its version (1 after the first save). */
    public record Saved(ObjectNode state, long version) {
        public Saved {
            state = Objects.requireNonNull(state, "state").deepCopy();
        }
    }

    /** One line of a conversation: who said it ({@code customer} or {@code concierge}), what, and the run. */
    public record Line(String role, String text, Optional<String> runId, Instant at) {
        public Line {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(at, "at");
        }
    }

    private final AppDatabase db;

    Conversations(AppDatabase db) {
        this.db = Objects.requireNonNull(db, "db");
    }

    /** The saved state of {@code user}'s session {@code session}, if it was ever saved. */
    public Optional<Saved> load(String user, String session) {
        return db.read("read conversation " + session, c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT state, version FROM concierge_sessions WHERE user_id = ? AND session_id = ?")) {
                select.setString(1, user);
                select.setString(2, session);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return Optional.<Saved>empty();
                    }
                    JsonNode state = Json.parse(row.getString(1), "stored state");
                    return Optional.of(new Saved((ObjectNode) state, row.getLong(2)));
                }
            }
        });
    }

    /**
     * Saves {@code state} as the next version of the session, if the saved one is still {@code version}
     * (0: none yet).
     *
     * @return the new version
     * @throws RunStateException ({@code E_RUN_STATE}) when another turn saved the session meanwhile
     */
    long save(String user, String session, ObjectNode state, long version, Instant now) {
        return db.write("save conversation " + session, c -> {
            int changed;
            if (version == 0) {
                try (PreparedStatement exists =
                        c.prepareStatement("SELECT 1 FROM concierge_sessions WHERE user_id = ? AND session_id = ?")) {
                    exists.setString(1, user);
                    exists.setString(2, session);
                    try (ResultSet row = exists.executeQuery()) {
                        if (row.next()) {
                            throw changedMeanwhile(session);
                        }
                    }
                }
                try (PreparedStatement insert = c.prepareStatement(
                        "INSERT INTO concierge_sessions (user_id, session_id, state, version, updated_at)"
                                + " VALUES (?, ?, ?, 1, ?)")) {
                    insert.setString(1, user);
                    insert.setString(2, session);
                    insert.setString(3, Json.write(state));
                    insert.setLong(4, now.toEpochMilli());
                    changed = insert.executeUpdate();
                }
            } else {
                try (PreparedStatement update = c.prepareStatement(
                        "UPDATE concierge_sessions SET state = ?, version = version + 1, updated_at = ?"
                                + " WHERE user_id = ? AND session_id = ? AND version = ?")) {
                    update.setString(1, Json.write(state));
                    update.setLong(2, now.toEpochMilli());
                    update.setString(3, user);
                    update.setString(4, session);
                    update.setLong(5, version);
                    changed = update.executeUpdate();
                }
            }
            if (changed != 1) {
                throw changedMeanwhile(session);
            }
            return version + 1;
        });
    }

    private static RunStateException changedMeanwhile(String session) {
        return new RunStateException(
                "conversation '" + session + "' was changed by another turn meanwhile; say it again");
    }

    /** Adds a line to the session's conversation. */
    void append(String user, String session, String role, String text, Optional<String> runId, Instant at) {
        db.write("keep a line of conversation " + session, c -> {
            long next;
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT COALESCE(MAX(seq), 0) FROM concierge_messages WHERE user_id = ? AND session_id = ?")) {
                select.setString(1, user);
                select.setString(2, session);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    next = row.getLong(1) + 1;
                }
            }
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO concierge_messages (user_id, session_id, seq, role, text, run_id, at)"
                            + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, user);
                insert.setString(2, session);
                insert.setLong(3, next);
                insert.setString(4, role);
                insert.setString(5, text);
                insert.setString(6, runId.orElse(null));
                insert.setLong(7, at.toEpochMilli());
                insert.executeUpdate();
            }
            return null;
        });
    }

    /** Whether the session keeps a line of run {@code runId} (what the turn was said and said back). */
    boolean keeps(String user, String session, String runId) {
        return db.read("look for run " + runId + " in conversation " + session, c -> {
            try (PreparedStatement select = c.prepareStatement("SELECT 1 FROM concierge_messages"
                    + " WHERE user_id = ? AND session_id = ? AND run_id = ? LIMIT 1")) {
                select.setString(1, user);
                select.setString(2, session);
                select.setString(3, runId);
                try (ResultSet row = select.executeQuery()) {
                    return row.next();
                }
            }
        });
    }

    /** The last {@code limit} lines of the session, oldest first. */
    public List<Line> recent(String user, String session, int limit) {
        return db.read("read conversation " + session, c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT role, text, run_id, at FROM concierge_messages WHERE user_id = ? AND session_id = ?"
                            + " ORDER BY seq DESC LIMIT ?")) {
                select.setString(1, user);
                select.setString(2, session);
                select.setInt(3, limit);
                List<Line> lines = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        lines.add(new Line(
                                row.getString(1),
                                row.getString(2),
                                Optional.ofNullable(row.getString(3)),
                                Instant.ofEpochMilli(row.getLong(4))));
                    }
                }
                Collections.reverse(lines);
                return lines;
            }
        });
    }

    /** What the shop has learned about {@code customerId}, by kind and item. */
    public List<MemoryFact> memory(String customerId) {
        return db.read("read what the shop knows of " + customerId, c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT kind, item, value FROM concierge_memory WHERE customer_id = ? ORDER BY kind, item")) {
                select.setString(1, customerId);
                List<MemoryFact> facts = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        facts.add(new MemoryFact(row.getString(1), row.getString(2), row.getString(3)));
                    }
                }
                return facts;
            }
        });
    }

    /** Keeps {@code facts} about {@code customerId}, each replacing what was known of its kind and item. */
    int remember(String customerId, List<MemoryFact> facts, Instant now) {
        if (facts.isEmpty()) {
            return 0;
        }
        return db.write("remember what was learned of " + customerId, c -> {
            for (MemoryFact fact : facts) {
                try (PreparedStatement delete = c.prepareStatement(
                        "DELETE FROM concierge_memory WHERE customer_id = ? AND kind = ? AND item = ?")) {
                    delete.setString(1, customerId);
                    delete.setString(2, fact.kind());
                    delete.setString(3, fact.item());
                    delete.executeUpdate();
                }
                try (PreparedStatement insert = c.prepareStatement(
                        "INSERT INTO concierge_memory (customer_id, kind, item, value, updated_at) VALUES (?, ?, ?, ?, ?)")) {
                    insert.setString(1, customerId);
                    insert.setString(2, fact.kind());
                    insert.setString(3, fact.item());
                    insert.setString(4, fact.value());
                    insert.setLong(5, now.toEpochMilli());
                    insert.executeUpdate();
                }
            }
            return facts.size();
        });
    }
}
