package dev.weft.memo.data;

import dev.weft.core.spi.RunStore;
import dev.weft.store.AppDatabase;
import dev.weft.store.Secrets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Memo's tables in the run store's database (SQLite or PostgreSQL), brought up to date when opened:
 * users, and through {@link #tasks()}, {@link #lists()}, {@link #events()} and {@link #memories()} what
 * each user keeps.
 * Thread-safe.
 */
public final class MemoData {
    /** The name of Memo's migrations ({@code db/memo/<dialect>}) and of their history table's prefix. */
    public static final String MIGRATIONS = "memo";

    private final AppDatabase db;
    private final Tasks tasks;
    private final Lists lists;
    private final Events events;
    private final Conversation conversation;
    private final Notifications notifications;
    private final MailAccounts mail;
    private final Memories memories;
    private final CalendarAccounts calendars;
    private final CalDavSync caldav;
    private final OAuthGrants grants;

    private MemoData(AppDatabase db) {
        this.db = db;
        this.tasks = new Tasks(db);
        this.lists = new Lists(db);
        this.events = new Events(db);
        this.conversation = new Conversation(db);
        this.notifications = new Notifications(db);
        Secrets secrets = Secrets.inFile(
                Secrets.defaultKeyFile(),
                dev.weft.core.ErrorCode.E_MAIL_UNAVAILABLE,
                "add the account again with 'weft memo mail add'");
        this.grants = new OAuthGrants(
                db,
                secrets.as(
                        dev.weft.core.ErrorCode.E_AUTH_REVOKED,
                        "connect the calendar or mailbox again with 'weft memo calendar|mail connect --google'"),
                notifications);
        this.mail = new MailAccounts(db, secrets, grants);
        this.memories = new Memories(db);
        this.calendars = new CalendarAccounts(
                db,
                secrets.as(
                        dev.weft.core.ErrorCode.E_CALENDAR_UNAVAILABLE,
                        "connect the calendar again with 'weft memo calendar connect'"),
                grants);
        this.caldav = new CalDavSync(this, calendars);
    }

    /**
     * Memo's data in {@code store}'s database, its tables created or brought up to date first.
     *
     * @throws IllegalArgumentException for a store with no database (the in-memory store)
     */
    public static MemoData open(RunStore store) {
        AppDatabase db = AppDatabase.of(store);
        db.migrate(MIGRATIONS, MemoData.class.getClassLoader());
        return new MemoData(db);
    }

    public Tasks tasks() {
        return tasks;
    }

    public Lists lists() {
        return lists;
    }

    /** Each user's memories (the second brain). */
    public Memories memories() {
        return memories;
    }

    /** Each user's mail account. */
    public MailAccounts mail() {
        return mail;
    }

    /** Each user's connection to a CalDAV calendar (its secret under the same key as the mail accounts'). */
    public CalendarAccounts calendars() {
        return calendars;
    }

    /** Two-way sync of each user's calendar with the CalDAV calendar they connected. */
    public CalDavSync caldav() {
        return caldav;
    }

    /** The OAuth 2.0 grants behind signed-in calendars and mailboxes. */
    public OAuthGrants grants() {
        return grants;
    }

    /** What fired for each user (reminders falling due). */
    public Notifications notifications() {
        return notifications;
    }

    /** The database Memo's tables are in. */
    public AppDatabase database() {
        return db;
    }

    /** Each user's calendar. */
    public Events events() {
        return events;
    }

    /** Each user's conversation with Memo. */
    public Conversation conversation() {
        return conversation;
    }

    /**
     * The user {@code id}, created on their first message with {@code language} and {@code zone};
     * an existing user keeps what they have.
     */
    public User user(String id, String language, ZoneId zone, Instant now) {
        requireUserId(id);
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(zone, "zone");
        return db.write("create user " + id, connection -> {
            Optional<User> known = find(connection, id);
            if (known.isPresent()) {
                return known.get();
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO memo_users (id, language, time_zone, created_at) VALUES (?, ?, ?, ?)")) {
                insert.setString(1, id);
                insert.setString(2, language);
                insert.setString(3, zone.getId());
                insert.setLong(4, now.toEpochMilli());
                insert.executeUpdate();
            }
            return new User(id, language, zone, Instant.ofEpochMilli(now.toEpochMilli()));
        });
    }

    /** The user {@code id}, if they have written to Memo. */
    public Optional<User> findUser(String id) {
        return db.read("read user " + id, connection -> find(connection, id));
    }

    /** Every user's id, in order. */
    public List<String> userIds() {
        return db.read("list users", connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT id FROM memo_users ORDER BY id")) {
                List<String> ids = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        ids.add(row.getString(1));
                    }
                }
                return ids;
            }
        });
    }

    /** Changes a user's language or zone. */
    public User updateUser(User user) {
        db.write("update user " + user.id(), connection -> {
            try (PreparedStatement update =
                    connection.prepareStatement("UPDATE memo_users SET language = ?, time_zone = ? WHERE id = ?")) {
                update.setString(1, user.language());
                update.setString(2, user.zone().getId());
                update.setString(3, user.id());
                return update.executeUpdate();
            }
        });
        return user;
    }

    private static Optional<User> find(Connection connection, String id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT id, language, time_zone, created_at FROM memo_users WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                return Optional.of(new User(
                        row.getString(1),
                        row.getString(2),
                        ZoneId.of(row.getString(3)),
                        Instant.ofEpochMilli(row.getLong(4))));
            }
        }
    }

    /**
     * @throws IllegalArgumentException for an id that is blank, too long, or holds control characters
     */
    static String requireUserId(String id) {
        Objects.requireNonNull(id, "user id");
        if (id.isBlank() || id.length() > 200 || id.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(
                    "a user id must be 1-200 printable characters (a phone number or a handle), was '" + id + "'");
        }
        return id;
    }
}
