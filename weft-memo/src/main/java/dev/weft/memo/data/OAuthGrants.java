package dev.weft.memo.data;

import dev.weft.memo.data.Notifications.Notification;
import dev.weft.oauth.AccessTokenSource;
import dev.weft.oauth.AuthorizationServer;
import dev.weft.oauth.FreshAccessTokens;
import dev.weft.oauth.Grant;
import dev.weft.oauth.GrantRevokedException;
import dev.weft.oauth.GrantStore;
import dev.weft.oauth.OAuthClient;
import dev.weft.oauth.OAuthProvider;
import dev.weft.store.AppDatabase;
import dev.weft.store.Secrets;
import java.net.URI;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The OAuth 2.0 grants behind users' signed-in calendars and mailboxes: one per user and {@link Purpose},
 * its refresh and access tokens (and the client's secret) encrypted by {@link Secrets} under the same
 * key as every other stored secret. {@link #accessToken} gives a token good for a connection made now,
 * refreshed a minute before it expires; a grant the provider no longer honours is marked revoked, the
 * user is told once (a notification naming the command to connect again), and every use after fails
 * with {@code E_AUTH_REVOKED}. Thread-safe.
 */
public final class OAuthGrants {
    /** The type of the notification that tells a user their sign-in was revoked. */
    public static final String REVOKED = "auth.revoked";

    /** What a grant is for: each is signed in on its own, with its own scopes. */
    public enum Purpose {
        CALENDAR("calendar"),
        MAIL("mail");

        private final String command;

        Purpose(String command) {
            this.command = command;
        }

        /** The command that signs in again, e.g. {@code weft memo calendar connect --user dana --google}. */
        public String connectCommand(String user, OAuthProvider provider) {
            return "weft memo " + command + " connect --user " + user + " --" + provider.id();
        }
    }

    /**
     * A kept grant, its tokens decrypted only when used.
     *
     * @param revokedAt when the provider refused to refresh it
     */
    public record Kept(
            String user,
            Purpose purpose,
            OAuthProvider provider,
            URI issuer,
            String clientId,
            String account,
            String scope,
            Instant expiresAt,
            Optional<Instant> revokedAt) {
        public Kept {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(purpose, "purpose");
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(issuer, "issuer");
            Objects.requireNonNull(clientId, "clientId");
            Objects.requireNonNull(account, "account");
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(expiresAt, "expiresAt");
            Objects.requireNonNull(revokedAt, "revokedAt");
        }
    }

    private final AppDatabase db;
    private final Secrets secrets;
    private final Notifications notifications;
    private final AtomicReference<Clock> clock = new AtomicReference<>(Clock.systemUTC());
    private final AtomicReference<Duration> margin = new AtomicReference<>(FreshAccessTokens.DEFAULT_MARGIN);

    OAuthGrants(AppDatabase db, Secrets secrets, Notifications notifications) {
        this.db = db;
        this.secrets = secrets;
        this.notifications = notifications;
    }

    /** Tells the time by {@code clock} from now on (a test's, so tokens expire without sleeping). */
    public void useClock(Clock clock) {
        this.clock.set(Objects.requireNonNull(clock, "clock"));
    }

    /** Refreshes access tokens {@code margin} before they expire from now on (a minute by default). */
    public void useMargin(Duration margin) {
        if (margin.isNegative()) {
            throw new IllegalArgumentException("margin must not be negative, was " + margin);
        }
        this.margin.set(margin);
    }

    /** The clock grants are refreshed by. */
    public Clock clock() {
        return clock.get();
    }

    /** {@code user}'s grant for {@code purpose}, if they signed in for it. */
    public Optional<Kept> find(String user, Purpose purpose) {
        return db.read(
                "read the " + purpose + " sign-in of " + user,
                c -> row(c, user, purpose).map(Row::kept));
    }

    /**
     * An access token of {@code user}'s grant for {@code purpose} good at {@code now} for a while
     * longer: the kept one, else one refreshed (and kept) now.
     *
     * @throws GrantRevokedException {@code E_AUTH_REVOKED} when the grant was revoked (now or before),
     *     naming the command that connects again
     */
    public String accessToken(String user, Purpose purpose, Instant now) {
        return token(user, purpose, now, false);
    }

    /**
     * A new access token of {@code user}'s grant for {@code purpose}, even though the kept one has not
     * expired: for a server that refused the kept one.
     *
     * @throws GrantRevokedException as {@link #accessToken}
     */
    public String refreshedAccessToken(String user, Purpose purpose, Instant now) {
        return token(user, purpose, now, true);
    }

    private String token(String user, Purpose purpose, Instant now, boolean force) {
        Row kept = db.read("read the " + purpose + " sign-in of " + user, c -> row(c, user, purpose))
                .orElseThrow(() -> new IllegalStateException("no " + purpose + " sign-in for " + user));
        if (kept.kept().revokedAt().isPresent()) {
            throw revoked(
                    kept.kept(),
                    kept.kept().provider().id() + " no longer honours the sign-in of "
                            + kept.kept().account());
        }
        OAuthClient client = new OAuthClient(
                kept.kept().provider(), kept.kept().issuer(), kept.kept().clientId(), kept.clientSecret(this));
        Clock at = Clock.fixed(now, java.time.ZoneOffset.UTC);
        FreshAccessTokens tokens = FreshAccessTokens.create(
                () -> AuthorizationServer.discover(client, at),
                new GrantStore() {
                    @Override
                    public Grant read() {
                        return kept.grant(OAuthGrants.this);
                    }

                    @Override
                    public void write(Grant refreshed) {
                        db.write("keep the refreshed " + purpose + " sign-in of " + user, c -> {
                            update(c, user, purpose, refreshed);
                            return null;
                        });
                    }
                },
                at,
                margin.get());
        try {
            return force ? tokens.refreshedAccessToken() : tokens.accessToken();
        } catch (GrantRevokedException e) {
            markRevoked(kept.kept(), now);
            throw revoked(kept.kept(), e.getMessage());
        }
    }

    /** A source of fresh access tokens of {@code user}'s grant for {@code purpose}, by this instance's clock. */
    public AccessTokenSource tokens(String user, Purpose purpose) {
        return () -> accessToken(user, purpose, clock.get().instant());
    }

    /** Keeps {@code grant} as {@code user}'s for {@code purpose}, signed in with {@code client}, replacing any. */
    void keep(Connection c, String user, Purpose purpose, OAuthClient client, Grant grant) throws SQLException {
        remove(c, user, purpose);
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO memo_oauth_grants (user_id, purpose, provider, issuer, client_id, client_secret, account,"
                        + " scope, refresh_token, access_token, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, user);
            insert.setString(2, purpose.name());
            insert.setString(3, grant.provider().name());
            insert.setString(4, client.issuer().toString());
            insert.setString(5, client.clientId());
            Optional<String> sealedSecret = client.clientSecret().map(secrets::encrypt);
            if (sealedSecret.isPresent()) {
                insert.setString(6, sealedSecret.get());
            } else {
                insert.setNull(6, Types.VARCHAR);
            }
            insert.setString(7, grant.account());
            insert.setString(8, grant.scope());
            insert.setString(9, secrets.encrypt(grant.refreshToken()));
            insert.setString(10, secrets.encrypt(grant.accessToken()));
            insert.setLong(11, grant.expiresAt().toEpochMilli());
            insert.executeUpdate();
        }
    }

    /** Forgets {@code user}'s grant for {@code purpose}; whether there was one. */
    static boolean remove(Connection c, String user, Purpose purpose) throws SQLException {
        try (PreparedStatement delete =
                c.prepareStatement("DELETE FROM memo_oauth_grants WHERE user_id = ? AND purpose = ?")) {
            delete.setString(1, user);
            delete.setString(2, purpose.name());
            return delete.executeUpdate() > 0;
        }
    }

    /**
     * Revokes {@code user}'s grant for {@code purpose} at the provider, where it can be (best effort: the
     * grant is forgotten by the caller either way); whether the provider revoked it.
     */
    public boolean revokeAtProvider(String user, Purpose purpose) {
        Optional<Row> kept = db.read("read the " + purpose + " sign-in of " + user, c -> row(c, user, purpose));
        if (kept.isEmpty() || kept.get().kept().revokedAt().isPresent()) {
            return false;
        }
        Kept grant = kept.get().kept();
        try {
            OAuthClient client = new OAuthClient(
                    grant.provider(),
                    grant.issuer(),
                    grant.clientId(),
                    kept.get().clientSecret(this));
            return AuthorizationServer.discover(client, clock.get())
                    .revoke(kept.get().grant(this));
        } catch (dev.weft.core.WeftException e) {
            return false;
        }
    }

    private GrantRevokedException revoked(Kept kept, String why) {
        return new GrantRevokedException(why + ": Memo cannot reach " + kept.user() + "'s "
                + kept.purpose().name().toLowerCase(Locale.ROOT) + " until it is connected again with '"
                + kept.purpose().connectCommand(kept.user(), kept.provider()) + "'");
    }

    private void markRevoked(Kept kept, Instant now) {
        Optional<String> language =
                db.write("mark the " + kept.purpose() + " sign-in of " + kept.user() + " revoked", c -> {
                    try (PreparedStatement update = c.prepareStatement("UPDATE memo_oauth_grants SET revoked_at = ?"
                            + " WHERE user_id = ? AND purpose = ? AND revoked_at IS NULL")) {
                        update.setLong(1, now.toEpochMilli());
                        update.setString(2, kept.user());
                        update.setString(3, kept.purpose().name());
                        if (update.executeUpdate() == 0) {
                            return Optional.<String>empty();
                        }
                    }
                    try (PreparedStatement select =
                            c.prepareStatement("SELECT language FROM memo_users WHERE id = ?")) {
                        select.setString(1, kept.user());
                        try (ResultSet row = select.executeQuery()) {
                            return Optional.of(row.next() ? row.getString(1) : "en");
                        }
                    }
                });
        if (language.isPresent()) {
            String command = kept.purpose().connectCommand(kept.user(), kept.provider());
            boolean calendar = kept.purpose() == Purpose.CALENDAR;
            String text = language.get().equals("he")
                    ? "Memo לא יכול עוד לגשת " + (calendar ? "ליומן" : "לתיבת הדואר") + " שלך (" + kept.account()
                            + "): ההרשאה ב-" + kept.provider().id() + " בוטלה. אפשר לחבר מחדש עם '" + command + "'."
                    : "Memo can no longer reach your " + (calendar ? "calendar" : "mailbox") + " ("
                            + kept.account() + "): the " + kept.provider().id() + " sign-in was revoked. Connect it"
                            + " again with '" + command + "'.";
            notifications.add(new Notification(
                    kept.user(),
                    REVOKED + ":" + kept.purpose().name().toLowerCase(Locale.ROOT) + "@" + now.toEpochMilli(),
                    REVOKED,
                    "oauth",
                    kept.purpose().name().toLowerCase(Locale.ROOT),
                    text,
                    now,
                    now,
                    false));
        }
    }

    /** Keeps a refreshed grant's tokens (the refresh token too: Microsoft rotates them). */
    private void update(Connection c, String user, Purpose purpose, Grant refreshed) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE memo_oauth_grants SET refresh_token = ?,"
                + " access_token = ?, expires_at = ? WHERE user_id = ? AND purpose = ?")) {
            update.setString(1, secrets.encrypt(refreshed.refreshToken()));
            update.setString(2, secrets.encrypt(refreshed.accessToken()));
            update.setLong(3, refreshed.expiresAt().toEpochMilli());
            update.setString(4, user);
            update.setString(5, purpose.name());
            update.executeUpdate();
        }
    }

    private record Row(Kept kept, Optional<String> sealedClientSecret, String sealedRefresh, String sealedAccess) {
        Optional<String> clientSecret(OAuthGrants grants) {
            return sealedClientSecret.map(grants.secrets::decrypt);
        }

        Grant grant(OAuthGrants grants) {
            return new Grant(
                    kept.provider(),
                    kept.account(),
                    kept.scope(),
                    grants.secrets.decrypt(sealedRefresh),
                    grants.secrets.decrypt(sealedAccess),
                    kept.expiresAt());
        }
    }

    private static Optional<Row> row(Connection c, String user, Purpose purpose) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT provider, issuer, client_id, client_secret, account, scope, refresh_token, access_token,"
                        + " expires_at, revoked_at FROM memo_oauth_grants WHERE user_id = ? AND purpose = ?")) {
            select.setString(1, user);
            select.setString(2, purpose.name());
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                long revoked = row.getLong(10);
                Optional<Instant> revokedAt =
                        row.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(revoked));
                Kept kept = new Kept(
                        user,
                        purpose,
                        OAuthProvider.valueOf(row.getString(1)),
                        URI.create(row.getString(2)),
                        row.getString(3),
                        row.getString(5),
                        row.getString(6),
                        Instant.ofEpochMilli(row.getLong(9)),
                        revokedAt);
                return Optional.of(
                        new Row(kept, Optional.ofNullable(row.getString(4)), row.getString(7), row.getString(8)));
            }
        }
    }
}
