package dev.weft.memo.data;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.store.AppDatabase;
import dev.weft.store.Secrets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Each user's mail account: where their IMAP and SMTP servers are, how to log in, and the secret
 * (encrypted by {@link Secrets}). A user has at most one; adding another replaces it. Thread-safe.
 */
public final class MailAccounts {
    /** How a connection is protected. */
    public enum Security {
        /** TLS from the first byte (IMAPS 993, SMTPS 465). The default. */
        TLS,
        /** A plain connection upgraded with STARTTLS (IMAP 143, SMTP 587). */
        STARTTLS,
        /** No encryption: for a server on this machine or in tests only. */
        NONE;

        /** @throws WeftException {@code E_BAD_INPUT} for anything but tls, starttls or none */
        public static Security of(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "security '" + text + "' is not one of tls, starttls, none");
            }
        }
    }

    /** How the secret is used: a password, or an OAuth2 access token (XOAUTH2, for Gmail and Outlook). */
    public enum Auth {
        PASSWORD,
        OAUTH2
    }

    /**
     * One user's account, its secret still encrypted.
     *
     * @param address the address mail is sent from
     */
    public record Account(
            String user,
            String address,
            String imapHost,
            int imapPort,
            String smtpHost,
            int smtpPort,
            String login,
            Security security,
            Auth auth,
            String sealedSecret) {
        public Account {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(imapHost, "imapHost");
            Objects.requireNonNull(smtpHost, "smtpHost");
            Objects.requireNonNull(login, "login");
            Objects.requireNonNull(security, "security");
            Objects.requireNonNull(auth, "auth");
            Objects.requireNonNull(sealedSecret, "sealedSecret");
        }

        /** The account as it can be shown: everything but the secret. */
        @Override
        public String toString() {
            return login + " (IMAP " + imapHost + ":" + imapPort + ", SMTP " + smtpHost + ":" + smtpPort + ", "
                    + security.name().toLowerCase(Locale.ROOT) + ", "
                    + auth.name().toLowerCase(Locale.ROOT) + ")";
        }
    }

    private final AppDatabase db;
    private final Secrets secrets;
    private final OAuthGrants grants;

    private final java.util.Properties session = new java.util.Properties();

    MailAccounts(AppDatabase db, Secrets secrets, OAuthGrants grants) {
        this.db = db;
        this.secrets = secrets;
        this.grants = grants;
    }

    /**
     * Adds Jakarta Mail session properties to every account's connections from now on (for example
     * {@code mail.imaps.ssl.trust} for a server whose certificate no authority signed).
     */
    public void useSessionProperties(java.util.Properties properties) {
        session.clear();
        session.putAll(properties);
    }

    /** The session properties added to every account's connections. */
    java.util.Properties sessionProperties() {
        java.util.Properties copy = new java.util.Properties();
        copy.putAll(session);
        return copy;
    }

    /** Where the secrets' key is kept. */
    public Secrets secrets() {
        return secrets;
    }

    /**
     * Keeps {@code user}'s account, replacing any they had; the user must have written to Memo, or is
     * made now with {@code language} and {@code zone} defaults by the caller.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a host or port that cannot be right
     */
    public Account add(
            String user,
            String address,
            String imapHost,
            int imapPort,
            String smtpHost,
            int smtpPort,
            String login,
            Security security,
            Auth auth,
            String secret,
            Instant now) {
        return add(
                user,
                address,
                imapHost,
                imapPort,
                smtpHost,
                smtpPort,
                login,
                security,
                auth,
                secret,
                now,
                Optional.empty());
    }

    /**
     * Keeps {@code user}'s mailbox signed in with OAuth ({@code grant}, from {@code client}), logging in
     * as the account signed in to with XOAUTH2, replacing any account they had.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a host or port that cannot be right
     */
    public Account addSignedIn(
            String user,
            String imapHost,
            int imapPort,
            String smtpHost,
            int smtpPort,
            Security security,
            dev.weft.oauth.OAuthClient client,
            dev.weft.oauth.Grant grant,
            Instant now) {
        return add(
                user,
                grant.account(),
                imapHost,
                imapPort,
                smtpHost,
                smtpPort,
                grant.account(),
                security,
                Auth.OAUTH2,
                grant.accessToken(),
                now,
                Optional.of(new SignedIn(client, grant)));
    }

    private record SignedIn(dev.weft.oauth.OAuthClient client, dev.weft.oauth.Grant grant) {}

    private Account add(
            String user,
            String address,
            String imapHost,
            int imapPort,
            String smtpHost,
            int smtpPort,
            String login,
            Security security,
            Auth auth,
            String secret,
            Instant now,
            Optional<SignedIn> signedIn) {
        requireHost("IMAP", imapHost, imapPort);
        requireHost("SMTP", smtpHost, smtpPort);
        if (secret.isEmpty()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the mail secret (password or token) is empty");
        }
        Account account = new Account(
                user, address, imapHost, imapPort, smtpHost, smtpPort, login, security, auth, secrets.encrypt(secret));
        db.write("keep the mail account of " + user, c -> {
            delete(c, user);
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO memo_mail_accounts (user_id, address, imap_host, imap_port, smtp_host, smtp_port,"
                            + " login, security, auth, secret, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, user);
                insert.setString(2, address);
                insert.setString(3, imapHost);
                insert.setInt(4, imapPort);
                insert.setString(5, smtpHost);
                insert.setInt(6, smtpPort);
                insert.setString(7, login);
                insert.setString(8, security.name());
                insert.setString(9, auth.name());
                insert.setString(10, account.sealedSecret());
                insert.setLong(11, now.toEpochMilli());
                insert.executeUpdate();
            }
            if (signedIn.isPresent()) {
                grants.keep(
                        c,
                        user,
                        OAuthGrants.Purpose.MAIL,
                        signedIn.get().client(),
                        signedIn.get().grant());
            }
            return null;
        });
        return account;
    }

    /** {@code user}'s account, if they added one. */
    public Optional<Account> find(String user) {
        return db.read("read the mail account of " + user, c -> {
            try (PreparedStatement select = c.prepareStatement(
                    "SELECT user_id, address, imap_host, imap_port, smtp_host, smtp_port, login, security, auth, secret"
                            + " FROM memo_mail_accounts WHERE user_id = ?")) {
                select.setString(1, user);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new Account(
                            row.getString(1),
                            row.getString(2),
                            row.getString(3),
                            row.getInt(4),
                            row.getString(5),
                            row.getInt(6),
                            row.getString(7),
                            Security.valueOf(row.getString(8)),
                            Auth.valueOf(row.getString(9)),
                            row.getString(10)));
                }
            }
        });
    }

    /**
     * {@code user}'s account.
     *
     * @throws WeftException {@code E_MAIL_NOT_CONFIGURED} when they have none, saying how to add one
     */
    public Account require(String user) {
        return find(user)
                .orElseThrow(() -> new WeftException(
                        ErrorCode.E_MAIL_NOT_CONFIGURED,
                        "no mail account for '" + user + "': add one with 'weft memo mail add --user " + user
                                + " --imap HOST:PORT --smtp HOST:PORT --login LOGIN' (the password from WEFT_MAIL_SECRET or a"
                                + " prompt)"));
    }

    /**
     * The secret of {@code account}, decrypted: for a mailbox signed in with OAuth, an access token good
     * now (refreshed first when it is about to expire), so every IMAP and SMTP connection has a fresh one.
     * Never log it.
     *
     * @throws dev.weft.oauth.GrantRevokedException {@code E_AUTH_REVOKED} when the provider revoked the sign-in
     */
    public String secret(Account account) {
        if (signedIn(account)) {
            return grants.accessToken(
                    account.user(), OAuthGrants.Purpose.MAIL, grants.clock().instant());
        }
        return secrets.decrypt(account.sealedSecret());
    }

    /** Whether {@code account} is a mailbox signed in with OAuth (its secret an access token of a kept grant). */
    public boolean signedIn(Account account) {
        return account.auth() == Auth.OAUTH2
                && grants.find(account.user(), OAuthGrants.Purpose.MAIL).isPresent();
    }

    /**
     * A new access token of signed-in {@code account}, though the kept one has not expired by the clock:
     * for a server that refused the kept one. Never log it.
     *
     * @throws IllegalStateException for an account that is not {@link #signedIn}
     * @throws dev.weft.oauth.GrantRevokedException {@code E_AUTH_REVOKED} when the provider revoked the sign-in
     */
    public String refreshedSecret(Account account) {
        if (!signedIn(account)) {
            throw new IllegalStateException("the mail account of " + account.user() + " is not signed in with OAuth");
        }
        return grants.refreshedAccessToken(
                account.user(), OAuthGrants.Purpose.MAIL, grants.clock().instant());
    }

    /**
     * Forgets {@code user}'s account (a mailbox signed in with OAuth has its refresh token revoked at the
     * provider first, where the provider can); whether they had one.
     */
    public boolean remove(String user) {
        grants.revokeAtProvider(user, OAuthGrants.Purpose.MAIL);
        return db.write("remove the mail account of " + user, c -> delete(c, user) > 0);
    }

    /** What Memo recorded of sending one message: nothing, the intent to send it, or that it was sent. */
    enum SendState {
        NONE,
        INTENDED,
        SENT
    }

    /** What was recorded of sending {@code messageId} for {@code user}. */
    SendState sendState(String user, String messageId) {
        return db.read("read sent mail of " + user, c -> {
            try (PreparedStatement select =
                    c.prepareStatement("SELECT status FROM memo_mail_sent WHERE user_id = ? AND message_id = ?")) {
                select.setString(1, user);
                select.setString(2, messageId);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? SendState.valueOf(row.getString(1)) : SendState.NONE;
                }
            }
        });
    }

    /**
     * Records that {@code messageId} is about to be sent for {@code user}: written before the SMTP
     * server is asked, so that a crash after it accepted leaves a trace to look for the mail by.
     */
    void intendToSend(String user, String messageId, Instant at) {
        record(user, messageId, SendState.INTENDED, at);
    }

    /**
     * Forgets the intent to send {@code messageId} for {@code user}: the SMTP server refused it, or
     * could not be reached, before it was given the mail, so nothing of it can have gone out.
     */
    void forgetIntent(String user, String messageId) {
        db.write("forget the intent to send mail of " + user, c -> {
            try (PreparedStatement delete = c.prepareStatement(
                    "DELETE FROM memo_mail_sent WHERE user_id = ? AND message_id = ? AND status = 'INTENDED'")) {
                delete.setString(1, user);
                delete.setString(2, messageId);
                return delete.executeUpdate();
            }
        });
    }

    /** Records that {@code messageId} was sent for {@code user}. */
    void markSent(String user, String messageId, Instant at) {
        record(user, messageId, SendState.SENT, at);
    }

    private void record(String user, String messageId, SendState state, Instant at) {
        db.write("record sent mail of " + user, c -> {
            try (PreparedStatement upsert = c.prepareStatement(
                    "INSERT INTO memo_mail_sent (user_id, message_id, sent_at, status) VALUES (?, ?, ?, ?)"
                            + " ON CONFLICT (user_id, message_id) DO UPDATE SET status = excluded.status,"
                            + " sent_at = excluded.sent_at WHERE memo_mail_sent.status <> 'SENT'")) {
                upsert.setString(1, user);
                upsert.setString(2, messageId);
                upsert.setLong(3, at.toEpochMilli());
                upsert.setString(4, state.name());
                return upsert.executeUpdate();
            }
        });
    }

    private static int delete(Connection c, String user) throws SQLException {
        OAuthGrants.remove(c, user, OAuthGrants.Purpose.MAIL);
        try (PreparedStatement delete = c.prepareStatement("DELETE FROM memo_mail_accounts WHERE user_id = ?")) {
            delete.setString(1, user);
            return delete.executeUpdate();
        }
    }

    private static void requireHost(String what, String host, int port) {
        if (host.isBlank() || host.chars().anyMatch(Character::isWhitespace)) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, what + " host '" + host + "' is not a host name");
        }
        if (port < 1 || port > 65535) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, what + " port " + port + " is not 1-65535");
        }
    }
}
