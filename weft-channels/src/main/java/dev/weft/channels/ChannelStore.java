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
 * The channels' tables in the store's own database: approved chats, pending pairing codes, the inbox
 * of messages received (kept before they are acknowledged, so a duplicate delivery is handled once and
 * a crash loses none), the outbox of replies (keyed by the message they answer, so none is sent twice),
 * each poller's cursor, what each chat's messages made (so a reminder goes back to its chat), and the
 * notices claimed for delivery. Thread-safe.
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

    private final RunStore runs;
    private final AppDatabase db;

    private ChannelStore(RunStore runs, AppDatabase db) {
        this.runs = runs;
        this.db = db;
    }

    /** The channels' tables of {@code store}'s database, made or brought up to date. */
    public static ChannelStore open(RunStore store) {
        AppDatabase db = AppDatabase.of(store);
        db.migrate("channels", ChannelStore.class.getClassLoader());
        return new ChannelStore(store, db);
    }

    /** The store whose database holds these tables (the housekeeping of the process joins it). */
    RunStore runStore() {
        return runs;
    }

    /**
     * Keeps {@code messages} in the inbox, each {@code RECEIVED} unless it was kept before (a delivery
     * repeated); how many were new. One transaction: all are kept, or none.
     */
    public int keep(List<Conversations.Inbound> messages, Instant at) {
        if (messages.isEmpty()) {
            return 0;
        }
        return db.write(
                "keep " + messages.size() + " inbound message(s)", connection -> insert(connection, messages, at));
    }

    /**
     * Keeps {@code messages} as {@link #keep} does and, in the same transaction, moves {@code channel}'s
     * cursor for {@code account} to {@code position}: a poller's offset never passes a message that is
     * not kept.
     */
    public int keepAndAdvance(
            String channel, String account, List<Conversations.Inbound> messages, long position, Instant at) {
        return db.write("keep inbound messages of " + channel + " up to " + position, connection -> {
            int kept = insert(connection, messages, at);
            try (PreparedStatement upsert = connection.prepareStatement(
                    "INSERT INTO channel_cursors (channel, account, position, updated_at) VALUES (?, ?, ?, ?)"
                            + " ON CONFLICT (channel, account) DO UPDATE SET position = excluded.position,"
                            + " updated_at = excluded.updated_at WHERE channel_cursors.position < excluded.position")) {
                upsert.setString(1, channel);
                upsert.setString(2, account);
                upsert.setLong(3, position);
                upsert.setLong(4, at.toEpochMilli());
                upsert.executeUpdate();
            }
            return kept;
        });
    }

    /** Where {@code channel}'s poller for {@code account} read up to; 0 before its first message. */
    public long cursor(String channel, String account) {
        return db.read("read the cursor of " + channel, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT position FROM channel_cursors WHERE channel = ? AND account = ?")) {
                select.setString(1, channel);
                select.setString(2, account);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? row.getLong(1) : 0L;
                }
            }
        });
    }

    private static int insert(Connection connection, List<Conversations.Inbound> messages, Instant at)
            throws SQLException {
        long seq;
        try (PreparedStatement max = connection.prepareStatement("SELECT COALESCE(MAX(seq), 0) FROM channel_inbound");
                ResultSet row = max.executeQuery()) {
            row.next();
            seq = row.getLong(1);
        }
        int kept = 0;
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO channel_inbound (channel, message_id, chat_id, sender_name, text, seq, status,"
                        + " received_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'RECEIVED', ?, ?)"
                        + " ON CONFLICT (channel, message_id) DO NOTHING")) {
            for (Conversations.Inbound message : messages) {
                insert.setString(1, message.channel());
                insert.setString(2, message.messageId());
                insert.setString(3, message.chatId());
                insert.setString(4, message.senderName());
                insert.setString(5, message.text());
                insert.setLong(6, ++seq);
                insert.setLong(7, at.toEpochMilli());
                insert.setLong(8, at.toEpochMilli());
                kept += insert.executeUpdate();
            }
        }
        return kept;
    }

    /** A kept inbound message and who is handling it. */
    public record Kept(Conversations.Inbound message, InboxStatus status, Optional<String> owner, Instant leaseUntil) {
        public Kept {
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(leaseUntil, "leaseUntil");
        }
    }

    /** Where an inbound message is: kept and waiting, being handled, or answered (its reply in the outbox). */
    public enum InboxStatus {
        RECEIVED,
        HANDLING,
        DONE
    }

    /** {@code channel}'s messages not yet answered, in the order they came (at most {@code limit}). */
    public List<Kept> open(String channel, int limit) {
        return db.read("read the open messages of " + channel, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT channel, message_id, chat_id, text, sender_name, status, owner, lease_until"
                            + " FROM channel_inbound WHERE channel = ? AND status <> 'DONE' ORDER BY seq LIMIT ?")) {
                select.setString(1, channel);
                select.setInt(2, limit);
                List<Kept> found = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        found.add(new Kept(
                                new Conversations.Inbound(
                                        row.getString(1),
                                        row.getString(3),
                                        row.getString(2),
                                        row.getString(4),
                                        row.getString(5)),
                                InboxStatus.valueOf(row.getString(6)),
                                Optional.ofNullable(row.getString(7)),
                                Instant.ofEpochMilli(row.getLong(8))));
                    }
                }
                return found;
            }
        });
    }

    /**
     * Takes {@code kept} for {@code owner} until {@code leaseUntil}, if it is still as it was read
     * (compare-and-set on its status and holder); whether it was taken.
     */
    public boolean claim(Kept kept, String owner, Instant leaseUntil, Instant now) {
        return db.write("claim message " + kept.message().messageId(), connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE channel_inbound SET status = 'HANDLING', owner = ?, lease_until = ?, updated_at = ?"
                            + " WHERE channel = ? AND message_id = ? AND status = ? AND COALESCE(owner, '') = ?")) {
                update.setString(1, owner);
                update.setLong(2, leaseUntil.toEpochMilli());
                update.setLong(3, now.toEpochMilli());
                update.setString(4, kept.message().channel());
                update.setString(5, kept.message().messageId());
                update.setString(6, kept.status().name());
                update.setString(7, kept.owner().orElse(""));
                return update.executeUpdate() == 1;
            }
        });
    }

    /**
     * Puts {@code reply} to {@code message} in the outbox ({@code PENDING}) and marks the message {@code
     * DONE}, in one transaction; a reply already there for the message is kept and this one dropped.
     * An empty reply (nothing to send) only marks the message done.
     */
    public void answer(Conversations.Inbound message, Optional<String> reply, Instant at) {
        db.write("answer message " + message.messageId(), connection -> {
            if (reply.isPresent()) {
                try (PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO channel_outbox (channel, message_id, chat_id, text, status, attempts,"
                                + " created_at, updated_at) VALUES (?, ?, ?, ?, 'PENDING', 0, ?, ?)"
                                + " ON CONFLICT (channel, message_id) DO NOTHING")) {
                    insert.setString(1, message.channel());
                    insert.setString(2, message.messageId());
                    insert.setString(3, message.chatId());
                    insert.setString(4, reply.get());
                    insert.setLong(5, at.toEpochMilli());
                    insert.setLong(6, at.toEpochMilli());
                    insert.executeUpdate();
                }
            }
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE channel_inbound SET status = 'DONE', owner = NULL, lease_until = NULL, updated_at = ?"
                            + " WHERE channel = ? AND message_id = ?")) {
                update.setLong(1, at.toEpochMilli());
                update.setString(2, message.channel());
                update.setString(3, message.messageId());
                return update.executeUpdate();
            }
        });
    }

    /** Where a reply in the outbox is (see the table's comment in the migration). */
    public enum OutboxStatus {
        PENDING,
        SENDING,
        SENT,
        FAILED,
        UNKNOWN
    }

    /** A reply in the outbox, keyed by the inbound message it answers. */
    public record Reply(
            String channel,
            String messageId,
            String chatId,
            String text,
            OutboxStatus status,
            int attempts,
            Optional<String> owner,
            String detail,
            Instant updatedAt) {
        public Reply {
            Objects.requireNonNull(channel, "channel");
            Objects.requireNonNull(messageId, "messageId");
            Objects.requireNonNull(chatId, "chatId");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(detail, "detail");
            Objects.requireNonNull(updatedAt, "updatedAt");
        }
    }

    /** The reply to {@code messageId} of {@code channel}, if one was written. */
    public Optional<Reply> reply(String channel, String messageId) {
        List<Reply> found = replies("WHERE channel = ? AND message_id = ?", channel, messageId);
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    /** {@code channel}'s replies in {@code status}, oldest first. */
    public List<Reply> replies(String channel, OutboxStatus status) {
        return replies("WHERE channel = ? AND status = ? ORDER BY created_at, message_id", channel, status.name());
    }

    /** Every reply not known to be sent ({@code FAILED} or {@code UNKNOWN}), of every channel, oldest first. */
    public List<Reply> unsent() {
        return replies("WHERE status IN ('FAILED', 'UNKNOWN') ORDER BY created_at, message_id");
    }

    private List<Reply> replies(String where, String... values) {
        return db.read("read the outbox", connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT channel, message_id, chat_id, text, status, attempts, owner, detail, updated_at"
                            + " FROM channel_outbox " + where)) {
                for (int i = 0; i < values.length; i++) {
                    select.setString(i + 1, values[i]);
                }
                List<Reply> found = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        found.add(new Reply(
                                row.getString(1),
                                row.getString(2),
                                row.getString(3),
                                row.getString(4),
                                OutboxStatus.valueOf(row.getString(5)),
                                row.getInt(6),
                                Optional.ofNullable(row.getString(7)),
                                row.getString(8),
                                Instant.ofEpochMilli(row.getLong(9))));
                    }
                }
                return found;
            }
        });
    }

    /**
     * Moves {@code reply} from {@code from} to {@code to} for {@code owner} (compare-and-set on status
     * and, when {@code from} is {@code SENDING}, on its holder); whether it moved. Moving to {@code
     * SENDING} counts an attempt.
     */
    public boolean move(Reply reply, OutboxStatus from, OutboxStatus to, String owner, String detail, Instant at) {
        return db.write("mark reply " + reply.messageId() + " " + to, connection -> {
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE channel_outbox SET status = ?, owner = ?, detail = ?, updated_at = ?,"
                            + " attempts = attempts + ? WHERE channel = ? AND message_id = ? AND status = ?"
                            + " AND (? = 0 OR COALESCE(owner, '') = ?)")) {
                update.setString(1, to.name());
                update.setString(2, owner);
                update.setString(3, detail.length() > 500 ? detail.substring(0, 500) : detail);
                update.setLong(4, at.toEpochMilli());
                update.setInt(5, to == OutboxStatus.SENDING ? 1 : 0);
                update.setString(6, reply.channel());
                update.setString(7, reply.messageId());
                update.setString(8, from.name());
                update.setInt(9, from == OutboxStatus.SENDING ? 1 : 0);
                update.setString(10, reply.owner().orElse(""));
                return update.executeUpdate() == 1;
            }
        });
    }

    /**
     * Deletes what is finished and older than {@code before}: inbound messages answered ({@code DONE}),
     * replies whose sending ended ({@code SENT}, {@code FAILED}, {@code UNKNOWN}) and the claims of
     * notices whose reply went with them ({@link NoticeDelivery} passes over notices older than the same
     * cut-off, so a pruned claim is never sent again). Messages still waiting or being handled, and
     * replies not yet sent, are kept whatever their age. How many rows went, inbound and outbound.
     */
    public Pruned prune(Instant before) {
        return db.write("prune the channels' inbox and outbox", connection -> {
            int inbound;
            int outbound;
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM channel_inbound WHERE status = 'DONE' AND updated_at < ?")) {
                delete.setLong(1, before.toEpochMilli());
                inbound = delete.executeUpdate();
            }
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM channel_outbox WHERE status IN ('SENT', 'FAILED', 'UNKNOWN') AND updated_at < ?")) {
                delete.setLong(1, before.toEpochMilli());
                outbound = delete.executeUpdate();
            }
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM channel_deliveries WHERE status <> 'QUEUED' AND updated_at < ?")) {
                delete.setLong(1, before.toEpochMilli());
                outbound += delete.executeUpdate();
            }
            try (PreparedStatement delete = connection.prepareStatement(
                    "DELETE FROM channel_deliveries WHERE status = 'QUEUED' AND updated_at < ? AND NOT EXISTS"
                            + " (SELECT 1 FROM channel_outbox o WHERE o.channel = channel_deliveries.channel"
                            + " AND o.message_id = 'notice:' || channel_deliveries.user_id || ':'"
                            + " || channel_deliveries.notice_id)")) {
                delete.setLong(1, before.toEpochMilli());
                outbound += delete.executeUpdate();
            }
            return new Pruned(inbound, outbound);
        });
    }

    /** How many inbox and outbox rows one pruning deleted. */
    public record Pruned(int inbound, int outbound) {}

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

    /**
     * Claims notice {@code noticeId} of {@code user} for {@code chat} and, in the same transaction, puts
     * {@code text} in the outbox for it (keyed {@code notice:<user>:<notice id>}), to be sent as a reply
     * is; false when the notice was claimed already. A process that dies after this leaves the notice
     * in the outbox for the next one, never lost and never sent twice.
     */
    boolean enqueueNotice(String user, String noticeId, Chat chat, String text, Instant at) {
        return db.write("queue notice " + noticeId, connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO channel_deliveries (user_id, notice_id, channel, chat_id, status, updated_at)"
                            + " VALUES (?, ?, ?, ?, 'QUEUED', ?) ON CONFLICT (user_id, notice_id) DO NOTHING")) {
                insert.setString(1, user);
                insert.setString(2, noticeId);
                insert.setString(3, chat.channel());
                insert.setString(4, chat.chatId());
                insert.setLong(5, at.toEpochMilli());
                if (insert.executeUpdate() == 0) {
                    return false;
                }
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO channel_outbox (channel, message_id, chat_id, text, status, attempts, created_at,"
                            + " updated_at) VALUES (?, ?, ?, ?, 'PENDING', 0, ?, ?)"
                            + " ON CONFLICT (channel, message_id) DO NOTHING")) {
                insert.setString(1, chat.channel());
                insert.setString(2, noticeKey(user, noticeId));
                insert.setString(3, chat.chatId());
                insert.setString(4, text);
                insert.setLong(5, at.toEpochMilli());
                insert.setLong(6, at.toEpochMilli());
                insert.executeUpdate();
            }
            return true;
        });
    }

    /** The outbox key of {@code user}'s notice {@code noticeId}. */
    static String noticeKey(String user, String noticeId) {
        return "notice:" + user + ":" + noticeId;
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
