package dev.weft.channels;

import dev.weft.core.spi.RunStore;
import dev.weft.store.AppDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The channels' tables in the store's own database: approved chats, pending pairing codes, the ids of
 * messages already handed over (so a duplicate delivery is handled once, by whichever process), what
 * each chat's messages made (so a reminder goes back to its chat), and the notices claimed for
 * delivery. Thread-safe.
 */
public final class ChannelStore {
    /** An approved chat: the user it talks as and the assistant it talks to. */
    public record Chat(
            String channel, String chatId, String user, String assistant, Instant pairedAt, Instant lastSeenAt) {
        public Chat {
            Objects.requireNonNull(channel, "channel");
            Objects.requireNonNull(chatId, "chatId");
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(assistant, "assistant");
            Objects.requireNonNull(pairedAt, "pairedAt");
            Objects.requireNonNull(lastSeenAt, "lastSeenAt");
        }
    }

    /** A code an unknown chat was given, until it is approved or expires. */
    public record Pairing(
            String code, String channel, String chatId, String name, Instant createdAt, Instant expiresAt) {
        public Pairing {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(channel, "channel");
            Objects.requireNonNull(chatId, "chatId");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(createdAt, "createdAt");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }
    }

    private final AppDatabase db;

    private ChannelStore(AppDatabase db) {
        this.db = db;
    }

    /** The channels' tables of {@code store}'s database, made or brought up to date. */
    public static ChannelStore open(RunStore store) {
        AppDatabase db = AppDatabase.of(store);
        db.migrate("channels", ChannelStore.class.getClassLoader());
        return new ChannelStore(db);
    }

    /** Records that message {@code messageId} of {@code channel} was handed over; false when it was already. */
    public boolean firstDelivery(String channel, String messageId, Instant at) {
        return db.write("record message " + messageId + " of " + channel, connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO channel_inbound (channel, message_id, received_at) VALUES (?, ?, ?)"
                            + " ON CONFLICT (channel, message_id) DO NOTHING")) {
                insert.setString(1, channel);
                insert.setString(2, messageId);
                insert.setLong(3, at.toEpochMilli());
                return insert.executeUpdate() == 1;
            }
        });
    }

    public Optional<Chat> chat(String channel, String chatId) {
        return db.read("read chat " + chatId + " of " + channel, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT channel, chat_id, user_id, assistant, paired_at, last_seen_at FROM channel_chats"
                            + " WHERE channel = ? AND chat_id = ?")) {
                select.setString(1, channel);
                select.setString(2, chatId);
                List<Chat> found = chats(select);
                return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
            }
        });
    }

    /** Every approved chat, of every channel, oldest first. */
    public List<Chat> chats() {
        return db.read("read the chats", connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT channel, chat_id, user_id, assistant, paired_at, last_seen_at FROM channel_chats"
                            + " ORDER BY paired_at, channel, chat_id")) {
                return chats(select);
            }
        });
    }

    /** Marks {@code chat} as heard from at {@code at}. */
    void seen(Chat chat, Instant at) {
        db.write("mark chat " + chat.chatId() + " seen", connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE channel_chats SET last_seen_at = ? WHERE channel = ? AND chat_id = ?")) {
                update.setLong(1, at.toEpochMilli());
                update.setString(2, chat.channel());
                update.setString(3, chat.chatId());
                return update.executeUpdate();
            }
        });
    }

    /** The chat's pending code, if it has one that has not expired at {@code now}. */
    Optional<Pairing> pendingFor(String channel, String chatId, Instant now) {
        return pending(now).stream()
                .filter(p -> p.channel().equals(channel) && p.chatId().equals(chatId))
                .findFirst();
    }

    /** Every code not yet expired at {@code now}, oldest first; expired ones are deleted. */
    public List<Pairing> pending(Instant now) {
        return db.write("read the pending pairings", connection -> {
            try (PreparedStatement purge =
                    connection.prepareStatement("DELETE FROM channel_pairings WHERE expires_at <= ?")) {
                purge.setLong(1, now.toEpochMilli());
                purge.executeUpdate();
            }
            try (PreparedStatement select = connection.prepareStatement(
                            "SELECT code, channel, chat_id, name, created_at, expires_at FROM channel_pairings"
                                    + " ORDER BY created_at, code");
                    ResultSet rows = select.executeQuery()) {
                List<Pairing> found = new ArrayList<>();
                while (rows.next()) {
                    found.add(pairing(rows));
                }
                return found;
            }
        });
    }

    /**
     * Keeps {@code pairing} unless the chat has a code already; whether it was kept. When its channel
     * already holds {@code maxPending} codes the oldest are dropped to make room, so that a flood of
     * strangers bounds the table but never keeps a newcomer (the owner) from getting a code. Expired codes
     * do not count.
     */
    boolean addPairing(Pairing pairing, int maxPending) {
        return db.write("keep a pairing code", connection -> {
            try (PreparedStatement purge =
                    connection.prepareStatement("DELETE FROM channel_pairings WHERE expires_at <= ?")) {
                purge.setLong(1, pairing.createdAt().toEpochMilli());
                purge.executeUpdate();
            }
            try (PreparedStatement count =
                    connection.prepareStatement("SELECT COUNT(*) FROM channel_pairings WHERE channel = ?")) {
                count.setString(1, pairing.channel());
                try (ResultSet row = count.executeQuery()) {
                    row.next();
                    int over = row.getInt(1) - maxPending + 1;
                    if (over > 0 && !hasCode(connection, pairing.channel(), pairing.chatId())) {
                        dropOldest(connection, pairing.channel(), over);
                    }
                }
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO channel_pairings (code, channel, chat_id, name, created_at, expires_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
                insert.setString(1, pairing.code());
                insert.setString(2, pairing.channel());
                insert.setString(3, pairing.chatId());
                insert.setString(4, pairing.name());
                insert.setLong(5, pairing.createdAt().toEpochMilli());
                insert.setLong(6, pairing.expiresAt().toEpochMilli());
                return insert.executeUpdate() == 1;
            }
        });
    }

    private static boolean hasCode(Connection connection, String channel, String chatId) throws SQLException {
        try (PreparedStatement select =
                connection.prepareStatement("SELECT 1 FROM channel_pairings WHERE channel = ? AND chat_id = ?")) {
            select.setString(1, channel);
            select.setString(2, chatId);
            try (ResultSet row = select.executeQuery()) {
                return row.next();
            }
        }
    }

    private static void dropOldest(Connection connection, String channel, int count) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM channel_pairings WHERE code IN"
                + " (SELECT code FROM channel_pairings WHERE channel = ? ORDER BY created_at, code LIMIT ?)")) {
            delete.setString(1, channel);
            delete.setInt(2, count);
            delete.executeUpdate();
        }
    }

    /**
     * Approves the pending code {@code code}: its chat talks to {@code assistant} as {@code user} from
     * now on, and the code is gone. Empty when there is no such code (or it expired).
     */
    Optional<Chat> approve(String code, String user, String assistant, Instant now) {
        return db.write("approve pairing " + code, connection -> {
            Optional<Pairing> pairing = pending(connection, code, now);
            if (pairing.isEmpty()) {
                return Optional.<Chat>empty();
            }
            try (PreparedStatement delete =
                    connection.prepareStatement("DELETE FROM channel_pairings WHERE code = ?")) {
                delete.setString(1, code);
                delete.executeUpdate();
            }
            Chat chat = new Chat(pairing.get().channel(), pairing.get().chatId(), user, assistant, now, now);
            try (PreparedStatement upsert = connection.prepareStatement(
                    "INSERT INTO channel_chats (channel, chat_id, user_id, assistant, paired_at, last_seen_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (channel, chat_id) DO UPDATE SET"
                            + " user_id = excluded.user_id, assistant = excluded.assistant,"
                            + " paired_at = excluded.paired_at")) {
                upsert.setString(1, chat.channel());
                upsert.setString(2, chat.chatId());
                upsert.setString(3, user);
                upsert.setString(4, assistant);
                upsert.setLong(5, now.toEpochMilli());
                upsert.setLong(6, now.toEpochMilli());
                upsert.executeUpdate();
            }
            return Optional.of(chat);
        });
    }

    private static Optional<Pairing> pending(Connection connection, String code, Instant now) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT code, channel, chat_id, name, created_at, expires_at FROM channel_pairings"
                        + " WHERE code = ? AND expires_at > ?")) {
            select.setString(1, code);
            select.setLong(2, now.toEpochMilli());
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(pairing(row)) : Optional.empty();
            }
        }
    }

    /** Forgets chat {@code chatId} of {@code channel}; whether it was approved. */
    public boolean forget(String channel, String chatId) {
        return db.write("forget chat " + chatId, connection -> {
            try (PreparedStatement delete =
                    connection.prepareStatement("DELETE FROM channel_chats WHERE channel = ? AND chat_id = ?")) {
                delete.setString(1, channel);
                delete.setString(2, chatId);
                return delete.executeUpdate() == 1;
            }
        });
    }

    /** Records that {@code chat}'s message made or changed {@code subjects} (task and event ids). */
    void subjects(Chat chat, Collection<String> subjects, Instant at) {
        if (subjects.isEmpty()) {
            return;
        }
        db.write("record what chat " + chat.chatId() + " made", connection -> {
            try (PreparedStatement upsert = connection.prepareStatement(
                    "INSERT INTO channel_subjects (user_id, subject_id, channel, chat_id, updated_at)"
                            + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, subject_id) DO UPDATE SET"
                            + " channel = excluded.channel, chat_id = excluded.chat_id,"
                            + " updated_at = excluded.updated_at")) {
                for (String subject : subjects) {
                    upsert.setString(1, chat.user());
                    upsert.setString(2, subject);
                    upsert.setString(3, chat.channel());
                    upsert.setString(4, chat.chatId());
                    upsert.setLong(5, at.toEpochMilli());
                    upsert.addBatch();
                }
                return upsert.executeBatch().length;
            }
        });
    }

    /** The chat whose message made or last changed {@code user}'s {@code subject}. */
    Optional<Chat> chatOf(String user, String subject) {
        return db.read("read where " + subject + " was set", connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT c.channel, c.chat_id, c.user_id, c.assistant, c.paired_at, c.last_seen_at"
                            + " FROM channel_subjects s JOIN channel_chats c ON c.channel = s.channel AND c.chat_id ="
                            + " s.chat_id AND c.user_id = s.user_id WHERE s.user_id = ? AND s.subject_id = ?")) {
                select.setString(1, user);
                select.setString(2, subject);
                List<Chat> found = chats(select);
                return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
            }
        });
    }

    /** Claims notice {@code noticeId} of {@code user} for {@code chat}; false when it was claimed already. */
    boolean claim(String user, String noticeId, Chat chat, Instant at) {
        return db.write("claim notice " + noticeId, connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO channel_deliveries (user_id, notice_id, channel, chat_id, status, updated_at)"
                            + " VALUES (?, ?, ?, ?, 'CLAIMED', ?) ON CONFLICT (user_id, notice_id) DO NOTHING")) {
                insert.setString(1, user);
                insert.setString(2, noticeId);
                insert.setString(3, chat.channel());
                insert.setString(4, chat.chatId());
                insert.setLong(5, at.toEpochMilli());
                return insert.executeUpdate() == 1;
            }
        });
    }

    /** Records how the delivery of a claimed notice ended ({@code SENT} or {@code FAILED}). */
    void delivered(String user, String noticeId, String status, Instant at) {
        db.write("record the delivery of notice " + noticeId, connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE channel_deliveries SET status = ?, updated_at = ? WHERE user_id = ? AND notice_id = ?")) {
                update.setString(1, status);
                update.setLong(2, at.toEpochMilli());
                update.setString(3, user);
                update.setString(4, noticeId);
                return update.executeUpdate();
            }
        });
    }

    private static Pairing pairing(ResultSet row) throws SQLException {
        return new Pairing(
                row.getString(1),
                row.getString(2),
                row.getString(3),
                row.getString(4),
                Instant.ofEpochMilli(row.getLong(5)),
                Instant.ofEpochMilli(row.getLong(6)));
    }

    private static List<Chat> chats(PreparedStatement select) throws SQLException {
        List<Chat> found = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                found.add(new Chat(
                        rows.getString(1),
                        rows.getString(2),
                        rows.getString(3),
                        rows.getString(4),
                        Instant.ofEpochMilli(rows.getLong(5)),
                        Instant.ofEpochMilli(rows.getLong(6))));
            }
        }
        return found;
    }
}
