package dev.weft.memo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.data.MailAccounts;
import dev.weft.memo.data.MailOperations;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.OAuthGrants;
import dev.weft.oauth.Grant;
import dev.weft.oauth.OAuthClient;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Users' mailboxes as the command line manages them ({@code weft memo mail add|connect|check|show|remove}):
 * Memo reads and writes its own tables, the caller sees what may be shown (never a secret). Thread-safe.
 */
public final class Mailboxes {
    private final MemoData data;

    Mailboxes(Memo memo) {
        this.data = memo.data();
    }

    /**
     * A user's mailbox, without its secret.
     *
     * @param security how the servers are reached: {@code tls}, {@code starttls} or {@code none}
     * @param oauth2 whether the secret is an OAuth2 access token (XOAUTH2) rather than a password
     * @param signIn the sign-in Memo keeps for it, when it was connected by signing in
     */
    public record Mailbox(
            String user,
            String address,
            String imapHost,
            int imapPort,
            String smtpHost,
            int smtpPort,
            String login,
            String security,
            boolean oauth2,
            Optional<SignIn> signIn) {
        public Mailbox {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(imapHost, "imapHost");
            Objects.requireNonNull(smtpHost, "smtpHost");
            Objects.requireNonNull(login, "login");
            Objects.requireNonNull(security, "security");
            Objects.requireNonNull(signIn, "signIn");
        }

        /** {@code user}, {@code address}, {@code imap}, {@code smtp}, {@code login}, {@code security}, {@code auth}. */
        public ObjectNode toJson() {
            ObjectNode node = Json.object();
            node.put("user", user);
            node.put("address", address);
            node.put("imap", imapHost + ":" + imapPort);
            node.put("smtp", smtpHost + ":" + smtpPort);
            node.put("login", login);
            node.put("security", security);
            node.put("auth", oauth2 ? "oauth2" : "password");
            return node;
        }
    }

    /**
     * {@code text} as a way to reach a mail server, in the form the other methods take.
     *
     * @throws dev.weft.core.WeftException {@code E_BAD_INPUT} for anything but tls, starttls or none
     */
    public static String security(String text) {
        return MailAccounts.Security.of(text).name().toLowerCase(Locale.ROOT);
    }

    /**
     * Connects {@code user}'s mailbox with a password (or an OAuth2 access token, {@code token}), replacing
     * the one they had; a user Memo does not know yet is made, in {@code zone}.
     *
     * @throws dev.weft.core.WeftException {@code E_BAD_INPUT} for a security not of {@link #security}
     */
    public Mailbox add(
            String user,
            String address,
            String imapHost,
            int imapPort,
            String smtpHost,
            int smtpPort,
            String login,
            String security,
            boolean token,
            String secret,
            ZoneId zone,
            Instant now) {
        known(user, zone, now);
        return mailbox(data.mail()
                .add(
                        user,
                        address,
                        imapHost,
                        imapPort,
                        smtpHost,
                        smtpPort,
                        login,
                        MailAccounts.Security.of(security),
                        token ? MailAccounts.Auth.OAUTH2 : MailAccounts.Auth.PASSWORD,
                        secret,
                        now));
    }

    /** Connects {@code user}'s mailbox with a sign-in (XOAUTH2), which Memo keeps and refreshes. */
    public Mailbox addSignedIn(
            String user,
            String imapHost,
            int imapPort,
            String smtpHost,
            int smtpPort,
            String security,
            OAuthClient client,
            Grant grant,
            ZoneId zone,
            Instant now) {
        known(user, zone, now);
        return mailbox(data.mail()
                .addSignedIn(
                        user,
                        imapHost,
                        imapPort,
                        smtpHost,
                        smtpPort,
                        MailAccounts.Security.of(security),
                        client,
                        grant,
                        now));
    }

    private void known(String user, ZoneId zone, Instant now) {
        if (data.findUser(user).isEmpty()) {
            data.user(user, "en", zone, now);
        }
    }

    /**
     * Connects to both of {@code user}'s servers and logs in: a line for each ({@code IMAP host: ok …}).
     *
     * @throws dev.weft.core.WeftException {@code E_MAIL_NOT_CONFIGURED} for a user with no mailbox
     */
    public List<String> check(String user) {
        return new MailOperations(data).check(user);
    }

    /**
     * {@code user}'s mailbox.
     *
     * @throws dev.weft.core.WeftException {@code E_MAIL_NOT_CONFIGURED} when they have none
     */
    public Mailbox require(String user) {
        return mailbox(data.mail().require(user));
    }

    /** Forgets {@code user}'s mailbox and its secret (revoking a sign-in); false when they had none. */
    public boolean remove(String user) {
        return data.mail().remove(user);
    }

    private Mailbox mailbox(MailAccounts.Account account) {
        return new Mailbox(
                account.user(),
                account.address(),
                account.imapHost(),
                account.imapPort(),
                account.smtpHost(),
                account.smtpPort(),
                account.login(),
                account.security().name().toLowerCase(Locale.ROOT),
                account.auth() == MailAccounts.Auth.OAUTH2,
                data.grants().find(account.user(), OAuthGrants.Purpose.MAIL).map(SignIn::of));
    }
}
