package dev.weft.memo.data;

import dev.weft.memo.data.Notifications.Notification;
import dev.weft.oauth.AccessTokenSource;
import dev.weft.oauth.FreshAccessTokens;
import dev.weft.oauth.Grant;
import dev.weft.oauth.GrantRevokedException;
import dev.weft.oauth.GrantStore;
import dev.weft.oauth.KeptGrant;
import dev.weft.oauth.OAuthClient;
import dev.weft.oauth.OAuthProvider;
import dev.weft.store.AppDatabase;
import dev.weft.store.Secrets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The OAuth 2.0 grants behind users' signed-in calendars and mailboxes: one per user and {@link Purpose},
 * kept by a {@link GrantStore} over {@code memo_oauth_grants} (its tokens and the client's secret
 * encrypted by {@link Secrets} under the same key as every other stored secret). {@link #accessToken} gives a token good for a connection made now,
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

    /** A user's kept grant for a purpose, without its tokens (they are decrypted only when used). */
    public record Kept(String user, Purpose purpose, GrantStore.Kept stored) implements KeptGrant {
        public Kept {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(purpose, "purpose");
            Objects.requireNonNull(stored, "stored");
        }

        static Kept of(GrantStore.Kept stored) {
            return new Kept(stored.key().get(0), Purpose.valueOf(stored.key().get(1)), stored);
        }
    }

    /** Memo's grant table: one row per user and purpose. */
    static final GrantStore.Table TABLE =
            new GrantStore.Table("memo_oauth_grants", List.of("user_id", "purpose"), false);

    private final AppDatabase db;
    private final Notifications notifications;
    private final GrantStore store;
    private final AtomicReference<Clock> clock = new AtomicReference<>(Clock.systemUTC());
    private final AtomicReference<Duration> margin = new AtomicReference<>(FreshAccessTokens.DEFAULT_MARGIN);

    OAuthGrants(AppDatabase db, Secrets secrets, Notifications notifications) {
        this.db = db;
        this.notifications = notifications;
        this.store = GrantStore.create(db, secrets, TABLE, new GrantStore.Revocation() {
            @Override
            public GrantRevokedException explain(GrantStore.Kept kept, String why) {
                return revoked(Kept.of(kept), why);
            }

            @Override
            public void noticed(GrantStore.Kept kept, Instant at) {
                notifyRevoked(Kept.of(kept), at);
            }
        });
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
        return store.find(key(user, purpose)).map(Kept::of);
    }

    /**
     * An access token of {@code user}'s grant for {@code purpose} good at {@code now} for a while
     * longer: the kept one, else one refreshed (and kept) now.
     *
     * @throws GrantRevokedException {@code E_AUTH_REVOKED} when the grant was revoked (now or before),
     *     naming the command that connects again
     */
    public String accessToken(String user, Purpose purpose, Instant now) {
        return store.accessToken(key(user, purpose), now, margin.get(), false);
    }

    /**
     * A new access token of {@code user}'s grant for {@code purpose}, even though the kept one has not
     * expired: for a server that refused the kept one.
     *
     * @throws GrantRevokedException as {@link #accessToken}
     */
    public String refreshedAccessToken(String user, Purpose purpose, Instant now) {
        return store.accessToken(key(user, purpose), now, margin.get(), true);
    }

    /** A source of fresh access tokens of {@code user}'s grant for {@code purpose}, by this instance's clock. */
    public AccessTokenSource tokens(String user, Purpose purpose) {
        return () -> accessToken(user, purpose, clock.get().instant());
    }

    /** Keeps {@code grant} as {@code user}'s for {@code purpose}, signed in with {@code client}, replacing any. */
    void keep(Connection c, String user, Purpose purpose, OAuthClient client, Grant grant) throws SQLException {
        store.keep(c, key(user, purpose), client, grant, clock.get().instant());
    }

    /** Forgets {@code user}'s grant for {@code purpose}; whether there was one. */
    static boolean remove(Connection c, String user, Purpose purpose) throws SQLException {
        return TABLE.remove(c, key(user, purpose));
    }

    /**
     * Revokes {@code user}'s grant for {@code purpose} at the provider, where it can be (best effort: the
     * grant is forgotten by the caller either way); whether the provider revoked it.
     */
    public boolean revokeAtProvider(String user, Purpose purpose) {
        return store.revokeAtProvider(key(user, purpose), clock.get());
    }

    private static List<String> key(String user, Purpose purpose) {
        return List.of(user, purpose.name());
    }

    private static GrantRevokedException revoked(Kept kept, String why) {
        return new GrantRevokedException(why + ": Memo cannot reach " + kept.user() + "'s "
                + kept.purpose().name().toLowerCase(Locale.ROOT) + " until it is connected again with '"
                + kept.purpose().connectCommand(kept.user(), kept.provider()) + "'");
    }

    /** Tells {@code kept}'s user, in their language, that Memo can no longer reach the account and how to fix it. */
    private void notifyRevoked(Kept kept, Instant now) {
        String language = db.read("read the language of " + kept.user(), c -> {
            try (PreparedStatement select = c.prepareStatement("SELECT language FROM memo_users WHERE id = ?")) {
                select.setString(1, kept.user());
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? row.getString(1) : "en";
                }
            }
        });
        String command = kept.purpose().connectCommand(kept.user(), kept.provider());
        boolean calendar = kept.purpose() == Purpose.CALENDAR;
        String text = language.equals("he")
                ? "Memo לא יכול עוד לגשת " + (calendar ? "ליומן" : "לתיבת הדואר") + " שלך (" + kept.account()
                        + "): ההרשאה ב-" + kept.provider().id() + " בוטלה. אפשר לחבר מחדש עם '" + command + "'."
                : "Memo can no longer reach your " + (calendar ? "calendar" : "mailbox") + " (" + kept.account()
                        + "): the " + kept.provider().id() + " sign-in was revoked. Connect it again with '" + command
                        + "'.";
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
