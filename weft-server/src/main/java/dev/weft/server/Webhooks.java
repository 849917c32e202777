package dev.weft.server;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.store.AppDatabase;
import java.net.URI;
import java.net.URISyntaxException;
import java.security.SecureRandom;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Each user's webhook (a URL their reminders are also sent to, and the secret that signs them), and
 * the record of what was sent to it. Thread-safe.
 */
final class Webhooks {
    /** A user's webhook. */
    record Webhook(String user, URI url, String secret, Instant createdAt) {}

    /** What became of one notification sent to a webhook. */
    enum Status {
        SENDING,
        DELIVERED,
        FAILED
    }

    private final AppDatabase db;
    private final SecureRandom random = new SecureRandom();

    Webhooks(AppDatabase db) {
        this.db = db;
    }

    /**
     * Sets {@code user}'s webhook to {@code url} with a new secret; reminders fired from now on are sent
     * to it.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a URL that is not an absolute http or https one
     */
    Webhook set(String user, String url, Instant now) {
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"url\": " + url + " is not a URL: " + e.getReason());
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "\"url\": " + url + " is not an http:// or https:// URL");
        }
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        Webhook webhook =
                new Webhook(user, uri, HexFormat.of().formatHex(bytes), Instant.ofEpochMilli(now.toEpochMilli()));
        db.write("set the webhook of " + user, connection -> {
            try (PreparedStatement delete =
                    connection.prepareStatement("DELETE FROM server_webhooks WHERE user_id = ?")) {
                delete.setString(1, user);
                delete.executeUpdate();
            }
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO server_webhooks (user_id, url, secret, created_at) VALUES (?, ?, ?, ?)")) {
                insert.setString(1, user);
                insert.setString(2, uri.toString());
                insert.setString(3, webhook.secret());
                insert.setLong(4, webhook.createdAt().toEpochMilli());
                return insert.executeUpdate();
            }
        });
        return webhook;
    }

    Optional<Webhook> find(String user) {
        return db.read("read the webhook of " + user, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT user_id, url, secret, created_at FROM server_webhooks WHERE user_id = ?")) {
                select.setString(1, user);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(webhook(row)) : Optional.empty();
                }
            }
        });
    }

    /** Removes {@code user}'s webhook; whether there was one. */
    boolean remove(String user) {
        return db.write("remove the webhook of " + user, connection -> {
            try (PreparedStatement delete =
                    connection.prepareStatement("DELETE FROM server_webhooks WHERE user_id = ?")) {
                delete.setString(1, user);
                return delete.executeUpdate() == 1;
            }
        });
    }

    List<Webhook> all() {
        return db.read("list webhooks", connection -> {
            try (PreparedStatement select =
                    connection.prepareStatement("SELECT user_id, url, secret, created_at FROM server_webhooks")) {
                List<Webhook> all = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        all.add(webhook(row));
                    }
                }
                return all;
            }
        });
    }

    /**
     * Claims notification {@code id} of {@code user} for sending: true for the one caller that claims
     * it first, ever — so that no notification is sent twice, even by two processes or after a restart.
     */
    boolean claim(String user, String id, Instant now) {
        return db.write("claim a webhook delivery for " + user, connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO server_webhook_deliveries (user_id, notification_id, status, attempts, updated_at)"
                            + " VALUES (?, ?, ?, 0, ?) ON CONFLICT (user_id, notification_id) DO NOTHING")) {
                insert.setString(1, user);
                insert.setString(2, id);
                insert.setString(3, Status.SENDING.name());
                insert.setLong(4, now.toEpochMilli());
                return insert.executeUpdate() == 1;
            }
        });
    }

    /** Records how sending notification {@code id} ended. */
    void finish(String user, String id, Status status, int attempts, Instant now) {
        db.write("record a webhook delivery for " + user, connection -> {
            try (PreparedStatement update =
                    connection.prepareStatement("UPDATE server_webhook_deliveries SET status = ?,"
                            + " attempts = ?, updated_at = ? WHERE user_id = ? AND notification_id = ?")) {
                update.setString(1, status.name());
                update.setInt(2, attempts);
                update.setLong(3, now.toEpochMilli());
                update.setString(4, user);
                update.setString(5, id);
                return update.executeUpdate();
            }
        });
    }

    /** What became of notification {@code id} of {@code user}, if it was claimed. */
    Optional<Status> status(String user, String id) {
        return db.read("read a webhook delivery of " + user, connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT status FROM server_webhook_deliveries WHERE user_id = ? AND notification_id = ?")) {
                select.setString(1, user);
                select.setString(2, id);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? Optional.of(Status.valueOf(row.getString(1))) : Optional.empty();
                }
            }
        });
    }

    private static Webhook webhook(ResultSet row) throws SQLException {
        return new Webhook(
                row.getString(1), URI.create(row.getString(2)), row.getString(3), Instant.ofEpochMilli(row.getLong(4)));
    }
}
