package dev.weft.mailflow;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
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
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The Microsoft 365 sign-ins of venues' Outlook mailboxes ({@code weft mailflow venue connect VENUE
 * --microsoft}): one grant per venue, its refresh and access tokens (and the client's secret) sealed by
 * {@link Secrets} with the venue's other secrets. {@link #graphTokens} serves a venue that has a grant an
 * access token refreshed before it expires; a grant the provider no longer honours is marked revoked and
 * every reply after fails with {@code E_AUTH_REVOKED} until the venue is connected again. Thread-safe.
 */
public final class VenueGrants {
    /** What a venue's sign-in asks for: a refresh token, and sending and reading its mail through Graph. */
    public static final List<String> GRAPH_SCOPES =
            List.of("offline_access", "https://graph.microsoft.com/Mail.Send", "https://graph.microsoft.com/Mail.Read");

    /**
     * A venue's kept grant, without its tokens.
     *
     * @param revokedAt when the provider refused to refresh it
     */
    public record Kept(
            String venueId,
            OAuthProvider provider,
            URI issuer,
            String clientId,
            String account,
            String scope,
            Instant expiresAt,
            Optional<Instant> revokedAt) {
        public Kept {
            Objects.requireNonNull(venueId, "venueId");
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(issuer, "issuer");
            Objects.requireNonNull(clientId, "clientId");
            Objects.requireNonNull(account, "account");
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(expiresAt, "expiresAt");
            Objects.requireNonNull(revokedAt, "revokedAt");
        }
    }

    private final MailflowData data;
    private final AppDatabase db;
    private final Secrets secrets;
    private final Clock clock;

    VenueGrants(MailflowData data, Secrets secrets, Clock clock) {
        this.data = data;
        this.db = data.database();
        this.secrets = secrets;
        this.clock = clock;
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
        Instant now = clock.instant();
        db.write("keep the sign-in of venue " + venueId, c -> {
            try (PreparedStatement delete =
                    c.prepareStatement("DELETE FROM mailflow_venue_grants WHERE venue_id = ?")) {
                delete.setString(1, venueId);
                delete.executeUpdate();
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO mailflow_venue_grants (venue_id, provider,"
                    + " issuer, client_id, client_secret, account, scope, refresh_token, access_token, expires_at,"
                    + " connected_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, venueId);
                insert.setString(2, grant.provider().name());
                insert.setString(3, client.issuer().toString());
                insert.setString(4, client.clientId());
                Optional<String> sealedSecret = client.clientSecret().map(secrets::encrypt);
                if (sealedSecret.isPresent()) {
                    insert.setString(5, sealedSecret.get());
                } else {
                    insert.setNull(5, Types.VARCHAR);
                }
                insert.setString(6, grant.account());
                insert.setString(7, grant.scope());
                insert.setString(8, secrets.encrypt(grant.refreshToken()));
                insert.setString(9, secrets.encrypt(grant.accessToken()));
                insert.setLong(10, grant.expiresAt().toEpochMilli());
                insert.setLong(11, now.toEpochMilli());
                insert.executeUpdate();
            }
            return null;
        });
        return find(venueId).orElseThrow();
    }

    /** {@code venueId}'s sign-in, if its mailbox was connected. */
    public Optional<Kept> find(String venueId) {
        return db.read(
                "read the sign-in of venue " + venueId, c -> row(c, venueId).map(Row::kept));
    }

    /**
     * Tokens for venues' Graph mailboxes: a venue with a sign-in gets its grant's access token, refreshed
     * (and kept) when it has less than {@link FreshAccessTokens#DEFAULT_MARGIN} left; any other venue
     * gets what {@code otherwise} gives.
     */
    public GraphTokens graphTokens(GraphTokens otherwise) {
        Objects.requireNonNull(otherwise, "otherwise");
        return venue -> {
            Optional<Row> kept = db.read("read the sign-in of venue " + venue.id(), c -> row(c, venue.id()));
            return kept.isPresent() ? accessToken(kept.get()) : otherwise.accessToken(venue);
        };
    }

    private String accessToken(Row row) {
        Kept kept = row.kept();
        if (kept.revokedAt().isPresent()) {
            throw revoked(kept, "the " + kept.provider().id() + " sign-in of " + kept.account() + " was revoked");
        }
        OAuthClient client = new OAuthClient(
                kept.provider(),
                kept.issuer(),
                kept.clientId(),
                row.sealedClientSecret().map(secrets::decrypt));
        FreshAccessTokens tokens = FreshAccessTokens.create(
                () -> AuthorizationServer.discover(client, clock),
                new GrantStore() {
                    @Override
                    public Grant read() {
                        return row.grant(secrets);
                    }

                    @Override
                    public void write(Grant refreshed) {
                        db.write("keep the refreshed sign-in of venue " + kept.venueId(), c -> {
                            update(c, kept.venueId(), refreshed);
                            return null;
                        });
                    }
                },
                clock,
                FreshAccessTokens.DEFAULT_MARGIN);
        try {
            return tokens.accessToken();
        } catch (GrantRevokedException e) {
            markRevoked(kept.venueId());
            throw revoked(kept, e.getMessage());
        }
    }

    private GrantRevokedException revoked(Kept kept, String why) {
        return new GrantRevokedException(why + ": venue '" + kept.venueId() + "' cannot send through Graph until its"
                + " mailbox is connected again with '" + connectCommand(kept.venueId()) + "'");
    }

    private void markRevoked(String venueId) {
        db.write("mark the sign-in of venue " + venueId + " revoked", c -> {
            try (PreparedStatement update = c.prepareStatement(
                    "UPDATE mailflow_venue_grants SET revoked_at = ? WHERE venue_id = ? AND revoked_at IS NULL")) {
                update.setLong(1, clock.instant().toEpochMilli());
                update.setString(2, venueId);
                return update.executeUpdate();
            }
        });
    }

    /** Keeps a refreshed grant's tokens (the refresh token too: Microsoft rotates them). */
    private void update(Connection c, String venueId, Grant refreshed) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE mailflow_venue_grants SET refresh_token = ?,"
                + " access_token = ?, expires_at = ? WHERE venue_id = ?")) {
            update.setString(1, secrets.encrypt(refreshed.refreshToken()));
            update.setString(2, secrets.encrypt(refreshed.accessToken()));
            update.setLong(3, refreshed.expiresAt().toEpochMilli());
            update.setString(4, venueId);
            update.executeUpdate();
        }
    }

    private record Row(Kept kept, Optional<String> sealedClientSecret, String sealedRefresh, String sealedAccess) {
        Grant grant(Secrets secrets) {
            return new Grant(
                    kept.provider(),
                    kept.account(),
                    kept.scope(),
                    secrets.decrypt(sealedRefresh),
                    secrets.decrypt(sealedAccess),
                    kept.expiresAt());
        }
    }

    private static Optional<Row> row(Connection c, String venueId) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT provider, issuer, client_id, client_secret, account, scope, refresh_token, access_token,"
                        + " expires_at, revoked_at FROM mailflow_venue_grants WHERE venue_id = ?")) {
            select.setString(1, venueId);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                long revoked = row.getLong(10);
                Optional<Instant> revokedAt =
                        row.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(revoked));
                Kept kept = new Kept(
                        venueId,
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
