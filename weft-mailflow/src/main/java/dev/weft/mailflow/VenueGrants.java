package dev.weft.mailflow;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.oauth.FreshAccessTokens;
import dev.weft.oauth.Grant;
import dev.weft.oauth.GrantRevokedException;
import dev.weft.oauth.GrantStore;
import dev.weft.oauth.KeptGrant;
import dev.weft.oauth.OAuthClient;
import dev.weft.store.Secrets;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The Microsoft 365 sign-ins of venues' Outlook mailboxes ({@code weft mailflow venue connect VENUE
 * --microsoft}): one grant per venue, kept by a {@link GrantStore} over {@code mailflow_venue_grants} (its
 * tokens and the client's secret sealed by {@link Secrets} with the venue's other secrets). {@link #graphTokens} serves a venue that has a grant an
 * access token refreshed before it expires; a grant the provider no longer honours is marked revoked and
 * every reply after fails with {@code E_AUTH_REVOKED} until the venue is connected again. Thread-safe.
 */
public final class VenueGrants {
    /** What a venue's sign-in asks for: a refresh token, and sending and reading its mail through Graph. */
    public static final List<String> GRAPH_SCOPES =
            List.of("offline_access", "https://graph.microsoft.com/Mail.Send", "https://graph.microsoft.com/Mail.Read");

    /** A venue's kept grant, without its tokens. */
    public record Kept(String venueId, GrantStore.Kept stored) implements KeptGrant {
        public Kept {
            Objects.requireNonNull(venueId, "venueId");
            Objects.requireNonNull(stored, "stored");
        }

        static Kept of(GrantStore.Kept stored) {
            return new Kept(stored.key().get(0), stored);
        }
    }

    /** Mailflow's grant table: one row per venue, with when it was connected. */
    static final GrantStore.Table TABLE = new GrantStore.Table("mailflow_venue_grants", List.of("venue_id"), true);

    private final MailflowData data;
    private final GrantStore store;
    private final Clock clock;

    VenueGrants(MailflowData data, Secrets secrets, Clock clock) {
        this.data = data;
        this.clock = clock;
        this.store = GrantStore.create(data.database(), secrets, TABLE, (kept, why) -> revoked(Kept.of(kept), why));
    }

    /** The command that signs {@code venueId}'s mailbox in again. */
    public static String connectCommand(String venueId) {
        return "weft mailflow venue connect " + venueId + " --microsoft";
    }

    /**
     * Keeps {@code grant}, signed in with {@code client}, as the sign-in of {@code venueId}'s Graph
     * mailbox, replacing any (a revoked one too).
     *
     * @throws WeftException {@code E_NOT_FOUND} for an unknown venue, {@code E_MAIL_NOT_CONFIGURED} for a
     *     venue without a Graph mailbox; nothing is kept then
     */
    public Kept keep(String venueId, OAuthClient client, Grant grant) {
        Venue venue = data.venue(venueId);
        if (venue.graph().isEmpty()) {
            throw new WeftException(
                    ErrorCode.E_MAIL_NOT_CONFIGURED,
                    "venue '" + venueId + "' has no Graph mailbox to sign in to: add it with 'weft mailflow venue add"
                            + " --id " + venueId + " --graph https://graph.microsoft.com/v1.0' first");
        }
        return Kept.of(store.keep(List.of(venueId), client, grant, clock.instant()));
    }

    /** {@code venueId}'s sign-in, if its mailbox was connected. */
    public Optional<Kept> find(String venueId) {
        return store.find(List.of(venueId)).map(Kept::of);
    }

    /**
     * Tokens for venues' Graph mailboxes: a venue with a sign-in gets its grant's access token, refreshed
     * (and kept) when it has less than {@link FreshAccessTokens#DEFAULT_MARGIN} left; any other venue
     * gets what {@code otherwise} gives.
     */
    public GraphTokens graphTokens(GraphTokens otherwise) {
        Objects.requireNonNull(otherwise, "otherwise");
        return venue -> find(venue.id()).isPresent()
                ? store.accessToken(List.of(venue.id()), clock.instant(), FreshAccessTokens.DEFAULT_MARGIN, false)
                : otherwise.accessToken(venue);
    }

    private static GrantRevokedException revoked(Kept kept, String why) {
        return new GrantRevokedException(why + ": venue '" + kept.venueId() + "' cannot send through Graph until its"
                + " mailbox is connected again with '" + connectCommand(kept.venueId()) + "'");
    }
}
