package dev.weft.memo.data;

import dev.weft.store.AppDatabase;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Each user's conversation with Memo, kept in order: what they wrote and what Memo answered. Thread-safe. */
public final class Conversation {
    /** Who said it. */
    public enum Role {
        USER,
        MEMO
    }

    /** One message of a conversation. */
    public record Message(Role role, String text, Optional<String> runId, Instant at) {
        public Message {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(at, "at");
        }
    }

    private final AppDatabase db;

    Conversation(AppDatabase db) {
        this.db = db;
    }

    /** Adds {@code message} to {@code user}'s conversation. */
    public void append(String user, Message message) {
        db.write("keep a message of " + user, connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO memo_messages (user_id, role, text, run_id, at) VALUES (?, ?, ?, ?, ?)")) {
                insert.setString(1, user);
                insert.setString(2, message.role().name());
                insert.setString(3, message.text());
                if (message.runId().isPresent()) {
                    insert.setString(4, message.runId().get());
                } else {
                    insert.setNull(4, Types.VARCHAR);
                }
                insert.setLong(5, message.at().toEpochMilli());
                return insert.executeUpdate();
            }
        });
    }

    /** The last {@code count} messages of {@code user}'s conversation, oldest first. */
    public List<Message> recent(String user, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be positive, was " + count);
        }
        return db.read("read the conversation of " + user, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT role, text, run_id, at FROM memo_messages WHERE user_id = ? ORDER BY id DESC LIMIT ?")) {
                select.setString(1, user);
                select.setInt(2, count);
                List<Message> messages = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        messages.add(new Message(
                                Role.valueOf(row.getString(1)),
                                row.getString(2),
                                Optional.ofNullable(row.getString(3)),
                                Instant.ofEpochMilli(row.getLong(4))));
                    }
                }
                Collections.reverse(messages);
                return messages;
            }
        });
    }
}
