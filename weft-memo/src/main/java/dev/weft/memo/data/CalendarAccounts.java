package dev.weft.memo.data;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.store.AppDatabase;
import dev.weft.store.Secrets;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Each user's connection to a CalDAV calendar: the server they gave, the calendar found there, the
 * login, and the secret (encrypted by {@link Secrets}, as a mail account's is). A user has at most one;
 * connecting again replaces it. Thread-safe.
 */
public final class CalendarAccounts {
    /** How the secret is used: a password (HTTP Basic), or an OAuth2 access token (Bearer, as Google wants). */
    public enum Auth {
        PASSWORD,
        OAUTH2
    }

    /**
     * One user's connection, its secret still encrypted.
     *
     * @param server the URL the user gave
     * @param calendar the calendar collection synced
     * @param syncToken the server's sync-token after the last sync, when it has them
     * @param syncedAt when the last sync ended well
     * @param lastError why the last sync failed, when it did
     */
    public record Account(
            String user,
            URI server,
            URI calendar,
            String calendarName,
            String login,
            Auth auth,
            String sealedSecret,
            Optional<String> syncToken,
            Optional<Instant> syncedAt,
            Optional<String> lastError) {
        public Account {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(server, "server");
            Objects.requireNonNull(calendar, "calendar");
            Objects.requireNonNull(calendarName, "calendarName");
            Objects.requireNonNull(login, "login");
            Objects.requireNonNull(auth, "auth");
            Objects.requireNonNull(sealedSecret, "sealedSecret");
            Objects.requireNonNull(syncToken, "syncToken");
            Objects.requireNonNull(syncedAt, "syncedAt");
            Objects.requireNonNull(lastError, "lastError");
        }

        /** The connection as it can be shown: everything but the secret. */
        @Override
        public String toString() {
            return "'" + calendarName + "' " + calendar + " (login " + login + ", "
                    + auth.name().toLowerCase(Locale.ROOT) + ")";
        }
    }

    private final AppDatabase db;
    private final Secrets secrets;
    private final OAuthGrants grants;

    CalendarAccounts(AppDatabase db, Secrets secrets, OAuthGrants grants) {
        this.db = db;
        this.secrets = secrets;
        this.grants = grants;
    }

    /** Where the secrets' key is kept (the same key as the mail accounts'). */
    public Secrets secrets() {
        return secrets;
    }

    /** {@code user}'s connection, if they made one. */
    public Optional<Account> find(String user) {
        return db.read("read the calendar connection of " + user, c -> find(c, user));
    }

    /**
     * {@code user}'s connection.
     *
     * @throws WeftException {@code E_CALENDAR_NOT_CONFIGURED} when they have none, saying how to make one
     */
    public Account require(String user) {
        return find(user)
                .orElseThrow(() -> new WeftException(
                        ErrorCode.E_CALENDAR_NOT_CONFIGURED,
                        "no calendar connected for '" + user + "': connect one with 'weft memo calendar connect --user "
                                + user
                                + " --google' (or --caldav URL --login LOGIN, the password from WEFT_CALDAV_SECRET)"));
    }

    /** The secret of {@code account}, decrypted. Never log it. */
    String secret(Account account) {
        return secrets.decrypt(account.sealedSecret());
    }

    /**
     * The client that logs in as {@code account}'s user, with their own secret: for a calendar signed in
     * with OAuth, an access token good at {@code now} (refreshed first when it is about to expire).
     *
     * @throws dev.weft.oauth.GrantRevokedException {@code E_AUTH_REVOKED} when the provider revoked the sign-in
     */
    CalDavClient client(Account account, Instant now) {
        if (signedIn(account)) {
            return new CalDavClient(
                    account.login(),
                    Auth.OAUTH2,
                    grants.accessToken(account.user(), OAuthGrants.Purpose.CALENDAR, now));
        }
        return new CalDavClient(account.login(), account.auth(), secret(account));
    }

    /** Whether {@code account} was signed in with OAuth (its token comes from a kept grant). */
    boolean signedIn(Account account) {
        return account.auth() == Auth.OAUTH2
                && grants.find(account.user(), OAuthGrants.Purpose.CALENDAR).isPresent();
    }

    /** A client of a signed-in {@code account} with a token refreshed now, for a server that refused the kept one. */
    CalDavClient refreshedClient(Account account, Instant now) {
        return new CalDavClient(
                account.login(),
                Auth.OAUTH2,
                grants.refreshedAccessToken(account.user(), OAuthGrants.Purpose.CALENDAR, now));
    }

    /** Keeps a new connection of {@code user} (replacing theirs, and forgetting what it synced). */
    Account add(
            Connection c,
            String user,
            URI server,
            URI calendar,
            String calendarName,
            String login,
            Auth auth,
            String secret,
            Instant now)
            throws SQLException {
        if (secret.isEmpty()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the calendar secret (password or token) is empty");
        }
        Account account = new Account(
                user,
                server,
                calendar,
                calendarName,
                login,
                auth,
                secrets.encrypt(secret),
                Optional.empty(),
                Optional.empty(),
                Optional.empty());
        remove(c, user);
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO memo_caldav_accounts (user_id, server_url, calendar_url, calendar_name, login, auth, secret,"
                        + " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, user);
            insert.setString(2, server.toString());
            insert.setString(3, calendar.toString());
            insert.setString(4, calendarName);
            insert.setString(5, login);
            insert.setString(6, auth.name());
            insert.setString(7, account.sealedSecret());
            insert.setLong(8, now.toEpochMilli());
            insert.executeUpdate();
        }
        return account;
    }

    /** Forgets {@code user}'s connection and everything it synced (Memo's events stay); whether there was one. */
    static boolean remove(Connection c, String user) throws SQLException {
        OAuthGrants.remove(c, user, OAuthGrants.Purpose.CALENDAR);
        for (String table : new String[] {"memo_caldav_events", "memo_caldav_objects"}) {
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + table + " WHERE user_id = ?")) {
                delete.setString(1, user);
                delete.executeUpdate();
            }
        }
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM memo_caldav_accounts WHERE user_id = ?")) {
            delete.setString(1, user);
            return delete.executeUpdate() > 0;
        }
    }

    /** Records a sync that ended well: the token to start from next time, when the server gave one. */
    static void synced(Connection c, String user, Optional<String> token, Instant at) throws SQLException {
        try (PreparedStatement update = c.prepareStatement(
                "UPDATE memo_caldav_accounts SET sync_token = ?, synced_at = ?, last_error = NULL WHERE user_id = ?")) {
            Tasks.setText(update, 1, token);
            update.setLong(2, at.toEpochMilli());
            update.setString(3, user);
            update.executeUpdate();
        }
    }

    /** Records why a sync of {@code user}'s calendar failed. */
    void failed(String user, String error) {
        db.write("record the calendar sync error of " + user, c -> {
            try (PreparedStatement update =
                    c.prepareStatement("UPDATE memo_caldav_accounts SET last_error = ? WHERE user_id = ?")) {
                update.setString(1, error);
                update.setString(2, user);
                return update.executeUpdate();
            }
        });
    }

    /** The users who have a connection, in order. */
    public java.util.List<String> users() {
        return db.read("list the calendar connections", c -> {
            try (PreparedStatement select =
                    c.prepareStatement("SELECT user_id FROM memo_caldav_accounts ORDER BY user_id")) {
                java.util.List<String> users = new java.util.ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        users.add(row.getString(1));
                    }
                }
                return users;
            }
        });
    }

    static Optional<Account> find(Connection c, String user) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT user_id, server_url, calendar_url, calendar_name, login, auth, secret, sync_token, synced_at,"
                        + " last_error FROM memo_caldav_accounts WHERE user_id = ?")) {
            select.setString(1, user);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                long synced = row.getLong(9);
                Optional<Instant> syncedAt =
                        row.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(synced));
                return Optional.of(new Account(
                        row.getString(1),
                        URI.create(row.getString(2)),
                        URI.create(row.getString(3)),
                        row.getString(4),
                        row.getString(5),
                        Auth.valueOf(row.getString(6)),
                        row.getString(7),
                        Optional.ofNullable(row.getString(8)),
                        syncedAt,
                        Optional.ofNullable(row.getString(10))));
            }
        }
    }
}
