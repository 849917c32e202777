package dev.weft.oauth;

import dev.weft.core.WeftException;
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
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The OAuth 2.0 grants an assistant keeps in one of its tables, one row per key (a user and what the
 * grant is for, a venue, …): the refresh and access tokens and the client's secret sealed by {@link
 * Secrets}, access tokens refreshed (and kept) before they expire, and a grant the provider no longer
 * honours marked revoked once, its owner told, every use after failing with {@code E_AUTH_REVOKED}. The
 * assistant binds its table and says how a revocation reads to its people; the bookkeeping is here.
 * Thread-safe.
 */
public final class GrantStore {
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z][a-z0-9_]*");

    /**
     * An assistant's grant table: its name and the columns that key a row; besides them it has {@code
     * provider, issuer, client_id, client_secret, account, scope, refresh_token, access_token, expires_at,
     * revoked_at}, and {@code connected_at} when {@code keepsConnectedAt}.
     */
    public record Table(String name, List<String> keyColumns, boolean keepsConnectedAt) {
        public Table {
            Objects.requireNonNull(name, "name");
            keyColumns = List.copyOf(keyColumns);
            // Names are written into SQL: only plain identifiers, so no caller can smuggle SQL in.
            if (!IDENTIFIER.matcher(name).matches()) {
                throw new IllegalArgumentException(
                        "a grant table's name must be a plain identifier, was '" + name + "'");
            }
            if (keyColumns.isEmpty()) {
                throw new IllegalArgumentException("a grant table needs at least one key column, had none");
            }
            for (String column : keyColumns) {
                if (!IDENTIFIER.matcher(column).matches()) {
                    throw new IllegalArgumentException(
                            "a grant table's key column must be a plain identifier, was '" + column + "'");
                }
            }
        }

        /** Forgets the grant of {@code key} inside the caller's transaction; whether there was one. */
        public boolean remove(Connection c, List<String> key) throws SQLException {
            try (PreparedStatement delete = c.prepareStatement("DELETE FROM " + name + " WHERE " + where())) {
                bind(delete, 1, key);
                return delete.executeUpdate() > 0;
            }
        }

        private String where() {
            return String.join(" AND ", keyColumns.stream().map(c -> c + " = ?").toList());
        }

        private int bind(PreparedStatement statement, int from, List<String> key) throws SQLException {
            if (key.size() != keyColumns.size()) {
                throw new IllegalArgumentException(
                        "a key of " + name + " has " + keyColumns.size() + " parts " + keyColumns + ", was " + key);
            }
            for (int i = 0; i < key.size(); i++) {
                statement.setString(from + i, key.get(i));
            }
            return from + key.size();
        }
    }

    /**
     * A kept grant without its tokens.
     *
     * @param key the values of the table's key columns, in their order
     * @param revokedAt when the provider refused to refresh it
     */
    public record Kept(
            List<String> key,
            OAuthProvider provider,
            URI issuer,
            String clientId,
            String account,
            String scope,
            Instant expiresAt,
            Optional<Instant> revokedAt) {
        public Kept {
            key = List.copyOf(key);
            Objects.requireNonNull(provider, "provider");
            Objects.requireNonNull(issuer, "issuer");
            Objects.requireNonNull(clientId, "clientId");
            Objects.requireNonNull(account, "account");
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(expiresAt, "expiresAt");
            Objects.requireNonNull(revokedAt, "revokedAt");
        }
    }

    /** How a revoked grant reads to the assistant's people: the only thing each assistant says itself. */
    public interface Revocation {
        /** The error of a use of a revoked grant: {@code why}, then what cannot happen and how to connect again. */
        GrantRevokedException explain(Kept kept, String why);

        /** Called once per revocation, when it is first found, after it is marked (to tell the owner). */
        default void noticed(Kept kept, Instant at) {}
    }

    private final AppDatabase db;
    private final Secrets secrets;
    private final Table table;
    private final Revocation revocation;

    private GrantStore(AppDatabase db, Secrets secrets, Table table, Revocation revocation) {
        this.db = db;
        this.secrets = secrets;
        this.table = table;
        this.revocation = revocation;
    }

    /** The grants in {@code table} of {@code db}, sealed by {@code secrets}, revocations told by {@code revocation}. */
    public static GrantStore create(AppDatabase db, Secrets secrets, Table table, Revocation revocation) {
        return new GrantStore(
                Objects.requireNonNull(db, "db"),
                Objects.requireNonNull(secrets, "secrets"),
                Objects.requireNonNull(table, "table"),
                Objects.requireNonNull(revocation, "revocation"));
    }

    /** The table this store keeps its grants in. */
    public Table table() {
        return table;
    }

    /** The grant of {@code key}, if one is kept. */
    public Optional<Kept> find(List<String> key) {
        return db.read("read the sign-in " + describe(key), c -> row(c, key).map(Row::kept));
    }

    /** Keeps {@code grant}, signed in with {@code client}, as the grant of {@code key}, replacing any (a revoked one too). */
    public Kept keep(List<String> key, OAuthClient client, Grant grant, Instant now) {
        db.write("keep the sign-in " + describe(key), c -> {
            keep(c, key, client, grant, now);
            return null;
        });
        return find(key).orElseThrow();
    }

    /** {@link #keep(List, OAuthClient, Grant, Instant)} inside the caller's transaction. */
    public void keep(Connection c, List<String> key, OAuthClient client, Grant grant, Instant now) throws SQLException {
        table.remove(c, key);
        List<String> columns = new ArrayList<>(table.keyColumns());
        columns.addAll(List.of(
                "provider",
                "issuer",
                "client_id",
                "client_secret",
                "account",
                "scope",
                "refresh_token",
                "access_token",
                "expires_at"));
        if (table.keepsConnectedAt()) {
            columns.add("connected_at");
        }
        String marks = String.join(", ", columns.stream().map(column -> "?").toList());
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO " + table.name() + " (" + String.join(", ", columns) + ") VALUES (" + marks + ")")) {
            int i = table.bind(insert, 1, key);
            insert.setString(i++, grant.provider().name());
            insert.setString(i++, client.issuer().toString());
            insert.setString(i++, client.clientId());
            Optional<String> sealedSecret = client.clientSecret().map(secrets::encrypt);
            if (sealedSecret.isPresent()) {
                insert.setString(i++, sealedSecret.get());
            } else {
                insert.setNull(i++, Types.VARCHAR);
            }
            insert.setString(i++, grant.account());
            insert.setString(i++, grant.scope());
            insert.setString(i++, secrets.encrypt(grant.refreshToken()));
            insert.setString(i++, secrets.encrypt(grant.accessToken()));
            insert.setLong(i++, grant.expiresAt().toEpochMilli());
            if (table.keepsConnectedAt()) {
                insert.setLong(i, now.toEpochMilli());
            }
            insert.executeUpdate();
        }
    }

    /**
     * An access token of the grant of {@code key} good at {@code now} for at least {@code margin} more: the
     * kept one, else one refreshed (and kept) now; with {@code refresh}, a refreshed one even though the
     * kept one has not expired (for a server that refused it).
     *
     * @throws GrantRevokedException {@code E_AUTH_REVOKED}, as the {@link Revocation} explains it, when the
     *     grant was revoked now or before
     * @throws IllegalStateException when no grant of {@code key} is kept
     */
    public String accessToken(List<String> key, Instant now, Duration margin, boolean refresh) {
        Row row = db.read("read the sign-in " + describe(key), c -> row(c, key))
                .orElseThrow(() -> new IllegalStateException("no sign-in " + describe(key)));
        Kept kept = row.kept();
        if (kept.revokedAt().isPresent()) {
            throw revocation.explain(
                    kept, kept.provider().id() + " no longer honours the sign-in of " + kept.account());
        }
        Clock at = Clock.fixed(now, ZoneOffset.UTC);
        OAuthClient client = row.client(secrets);
        FreshAccessTokens tokens = FreshAccessTokens.create(
                () -> AuthorizationServer.discover(client, at),
                new GrantSlot() {
                    @Override
                    public Grant read() {
                        return row.grant(secrets);
                    }

                    @Override
                    public void write(Grant refreshed) {
                        db.write("keep the refreshed sign-in " + describe(key), c -> {
                            update(c, key, refreshed);
                            return null;
                        });
                    }
                },
                at,
                margin);
        try {
            return refresh ? tokens.refreshedAccessToken() : tokens.accessToken();
        } catch (GrantRevokedException e) {
            if (markRevoked(key, now)) {
                revocation.noticed(kept, now);
            }
            throw revocation.explain(kept, e.getMessage());
        }
    }

    /**
     * Revokes the grant of {@code key} at the provider where it can be: best effort, for the caller forgets
     * the grant either way. Whether the provider revoked it.
     */
    public boolean revokeAtProvider(List<String> key, Clock clock) {
        Optional<Row> row = db.read("read the sign-in " + describe(key), c -> row(c, key));
        if (row.isEmpty() || row.get().kept().revokedAt().isPresent()) {
            return false;
        }
        try {
            return AuthorizationServer.discover(row.get().client(secrets), clock)
                    .revoke(row.get().grant(secrets));
        } catch (WeftException e) {
            return false;
        }
    }

    /** Marks the grant of {@code key} revoked at {@code now}; whether this call marked it (it was not already). */
    private boolean markRevoked(List<String> key, Instant now) {
        return db.write("mark the sign-in " + describe(key) + " revoked", c -> {
            try (PreparedStatement update = c.prepareStatement("UPDATE " + table.name() + " SET revoked_at = ? WHERE "
                    + table.where() + " AND revoked_at IS NULL")) {
                update.setLong(1, now.toEpochMilli());
                table.bind(update, 2, key);
                return update.executeUpdate() > 0;
            }
        });
    }

    /** Keeps a refreshed grant's tokens (the refresh token too: Microsoft rotates them). */
    private void update(Connection c, List<String> key, Grant refreshed) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE " + table.name()
                + " SET refresh_token = ?, access_token = ?, expires_at = ? WHERE " + table.where())) {
            update.setString(1, secrets.encrypt(refreshed.refreshToken()));
            update.setString(2, secrets.encrypt(refreshed.accessToken()));
            update.setLong(3, refreshed.expiresAt().toEpochMilli());
            table.bind(update, 4, key);
            update.executeUpdate();
        }
    }

    private String describe(List<String> key) {
        return "of " + String.join("/", key) + " in " + table.name();
    }

    private record Row(Kept kept, Optional<String> sealedClientSecret, String sealedRefresh, String sealedAccess) {
        OAuthClient client(Secrets secrets) {
            return new OAuthClient(
                    kept.provider(), kept.issuer(), kept.clientId(), sealedClientSecret.map(secrets::decrypt));
        }

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

    private Optional<Row> row(Connection c, List<String> key) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT provider, issuer, client_id, client_secret, account, scope, refresh_token, access_token,"
                        + " expires_at, revoked_at FROM " + table.name() + " WHERE " + table.where())) {
            table.bind(select, 1, key);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                long revoked = row.getLong(10);
                Optional<Instant> revokedAt =
                        row.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(revoked));
                Kept kept = new Kept(
                        key,
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
