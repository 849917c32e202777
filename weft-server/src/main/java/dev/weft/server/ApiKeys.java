package dev.weft.server;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.AppDatabase;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The server's API keys, in the run store's database: each key acts for one user (an admin key sees
 * every user's runs). A key is 256 random bits, shown once when it is made; only its SHA-256 hash is
 * kept, so a copy of the database lets nobody in. Thread-safe.
 */
public final class ApiKeys {
    /** The name of the server's migrations ({@code db/server/<dialect>}). */
    public static final String MIGRATIONS = "server";

    private static final String PREFIX = "weft_";

    /**
     * A stored key: its id (not secret), whose it is, whether it is an admin's, and the shop customer it
     * was made for, if any (such a key talks to the assistants as that customer only).
     */
    public record ApiKey(
            String id,
            String user,
            boolean admin,
            Instant createdAt,
            Optional<Instant> revokedAt,
            Optional<String> customer) {
        public ApiKey {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(createdAt, "createdAt");
            Objects.requireNonNull(revokedAt, "revokedAt");
            Objects.requireNonNull(customer, "customer");
        }

        public ApiKey(String id, String user, boolean admin, Instant createdAt, Optional<Instant> revokedAt) {
            this(id, user, admin, createdAt, revokedAt, Optional.empty());
        }

        public boolean revoked() {
            return revokedAt.isPresent();
        }
    }

    /** A key just made: the stored key and its secret, which is never shown again. */
    public record Created(ApiKey key, String secret) {}

    private final AppDatabase db;
    private final SecureRandom random;

    private ApiKeys(AppDatabase db, SecureRandom random) {
        this.db = db;
        this.random = random;
    }

    /**
     * The keys in {@code store}'s database, the table made or brought up to date first.
     *
     * @throws IllegalArgumentException for a store with no database (the in-memory store)
     */
    public static ApiKeys open(RunStore store) {
        AppDatabase db = AppDatabase.of(store);
        db.migrate(MIGRATIONS, ApiKeys.class.getClassLoader());
        return new ApiKeys(db, new SecureRandom());
    }

    /**
     * Makes a key for {@code user}.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a user id that is blank or not printable
     */
    public Created create(String user, boolean admin, Instant now) {
        return create(user, admin, Optional.empty(), now);
    }

    /**
     * Makes a key for {@code user}, made for shop customer {@code customer} (an email) when present.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a user id that is blank or not printable, a customer
     *     that is not an email, or an admin key for a customer
     */
    public Created create(String user, boolean admin, Optional<String> customer, Instant now) {
        Objects.requireNonNull(user, "user");
        Optional<String> email = customer.map(c -> c.strip().toLowerCase(java.util.Locale.ROOT));
        if (email.isPresent() && !email.get().matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+")) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "a key's customer must be an email address, was '" + customer.get() + "'");
        }
        if (email.isPresent() && admin) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "a key made for one customer cannot be an admin's");
        }
        if (user.isBlank() || user.chars().anyMatch(Character::isISOControl)) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "a user id must be printable and not blank; was '" + user.replaceAll("\\p{Cntrl}", "?") + "'");
        }
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        byte[] idBytes = new byte[6];
        random.nextBytes(idBytes);
        ApiKey key = new ApiKey(
                "key_" + HexFormat.of().formatHex(idBytes),
                user,
                admin,
                Instant.ofEpochMilli(now.toEpochMilli()),
                Optional.empty(),
                email);
        db.write("create an API key for " + user, connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO server_api_keys (id, user_id, admin, key_hash, created_at, customer)"
                            + " VALUES (?, ?, ?, ?, ?, ?)")) {
                insert.setString(1, key.id());
                insert.setString(2, user);
                insert.setBoolean(3, admin);
                insert.setString(4, hash(secret));
                insert.setLong(5, key.createdAt().toEpochMilli());
                insert.setString(6, email.orElse(null));
                return insert.executeUpdate();
            }
        });
        return new Created(key, secret);
    }

    /** Every key, revoked ones too, oldest first. */
    public List<ApiKey> list() {
        return db.read("list API keys", connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT id, user_id, admin, created_at, revoked_at, customer FROM server_api_keys ORDER BY created_at, id")) {
                List<ApiKey> keys = new ArrayList<>();
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        keys.add(key(rows));
                    }
                }
                return keys;
            }
        });
    }

    /**
     * Revokes key {@code id}: it lets nobody in from now on.
     *
     * @throws WeftException {@code E_NOT_FOUND} for a key that does not exist
     * @return false if it was revoked already
     */
    public boolean revoke(String id, Instant now) {
        return db.write("revoke API key " + id, connection -> {
            if (find(connection, id).isEmpty()) {
                throw new WeftException(ErrorCode.E_NOT_FOUND, "no API key '" + id + "'");
            }
            try (PreparedStatement update = connection.prepareStatement(
                    "UPDATE server_api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")) {
                update.setLong(1, now.toEpochMilli());
                update.setString(2, id);
                return update.executeUpdate() == 1;
            }
        });
    }

    /** The key whose secret is {@code secret}, if there is one and it is not revoked. */
    public Optional<ApiKey> authenticate(String secret) {
        if (!secret.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String hash = hash(secret);
        return db.read("check an API key", connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT id, user_id, admin, created_at, revoked_at, customer FROM server_api_keys"
                            + " WHERE key_hash = ? AND revoked_at IS NULL")) {
                select.setString(1, hash);
                try (ResultSet rows = select.executeQuery()) {
                    return rows.next() ? Optional.of(key(rows)) : Optional.empty();
                }
            }
        });
    }

    private static Optional<ApiKey> find(Connection connection, String id) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT id, user_id, admin, created_at, revoked_at, customer FROM server_api_keys WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet rows = select.executeQuery()) {
                return rows.next() ? Optional.of(key(rows)) : Optional.empty();
            }
        }
    }

    private static ApiKey key(ResultSet row) throws SQLException {
        long revoked = row.getLong(5);
        boolean wasRevoked = !row.wasNull();
        return new ApiKey(
                row.getString(1),
                row.getString(2),
                row.getBoolean(3),
                Instant.ofEpochMilli(row.getLong(4)),
                wasRevoked ? Optional.of(Instant.ofEpochMilli(revoked)) : Optional.empty(),
                Optional.ofNullable(row.getString(6)));
    }

    static String hash(String secret) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
