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

    /** A claim on one notification: how many attempts its earlier senders made. */
    record Claim(String user, String notificationId, int attempts) {}

    /**
     * Claims notification {@code id} of {@code user} for {@code sender} until {@code leaseUntil}: the
     * first claim, or one whose sender's lease ended before {@code now} with the notification still
     * unsent (that sender died). Empty when it is delivered, failed for good, or held by a live sender.
     */
    Optional<Claim> claim(String user, String id, String sender, Instant now, Instant leaseUntil) {
        // Taking over an abandoned claim, whose record (and its notification's time) is there already.
        return claim(user, id, now, sender, now, leaseUntil);
    }

    /**
     * Claims notification {@code id} of {@code user}, made at {@code noticeAt}, as {@link #claim(String,
     * String, String, Instant, Instant)} does; the notification's time is what tells the housekeeping
     * whether it is still among its user's latest.
     */
    Optional<Claim> claim(String user, String id, Instant noticeAt, String sender, Instant now, Instant leaseUntil) {
        return db.write("claim a webhook delivery for " + user, connection -> {
            try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO server_webhook_deliveries"
                    + " (user_id, notification_id, status, attempts, updated_at, sender, lease_until, notice_at)"
                    + " VALUES (?, ?, ?, 0, ?, ?, ?, ?) ON CONFLICT (user_id, notification_id) DO UPDATE"
                    + " SET sender = excluded.sender, lease_until = excluded.lease_until,"
                    + " updated_at = excluded.updated_at"
                    + " WHERE server_webhook_deliveries.status = ?"
                    + " AND server_webhook_deliveries.lease_until < ?")) {
                upsert.setString(1, user);
                upsert.setString(2, id);
                upsert.setString(3, Status.SENDING.name());
                upsert.setLong(4, now.toEpochMilli());
                upsert.setString(5, sender);
                upsert.setLong(6, leaseUntil.toEpochMilli());
                upsert.setLong(7, noticeAt.toEpochMilli());
                upsert.setString(8, Status.SENDING.name());
                upsert.setLong(9, now.toEpochMilli());
                if (upsert.executeUpdate() != 1) {
                    return Optional.empty();
                }
            }
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT attempts FROM server_webhook_deliveries" + " WHERE user_id = ? AND notification_id = ?")) {
                select.setString(1, user);
                select.setString(2, id);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    return Optional.of(new Claim(user, id, row.getInt(1)));
                }
            }
        });
    }

    /** The claims, of any user, whose sender's lease ended before {@code now} with nothing delivered. */
    List<Claim> abandoned(Instant now) {
        return db.read("find abandoned webhook deliveries", connection -> {
            try (PreparedStatement select = connection.prepareStatement(
                    "SELECT user_id, notification_id, attempts FROM server_webhook_deliveries"
                            + " WHERE status = ? AND lease_until < ? ORDER BY updated_at LIMIT 100")) {
                select.setString(1, Status.SENDING.name());
                select.setLong(2, now.toEpochMilli());
                List<Claim> claims = new ArrayList<>();
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        claims.add(new Claim(row.getString(1), row.getString(2), row.getInt(3)));
                    }
                }
                return claims;
            }
        });
    }

    /**
     * Extends {@code sender}'s claim to {@code leaseUntil} and records the attempts made so far; false
     * when the claim is no longer theirs (their lease ended and another sender took it over).
     */
    boolean renew(Claim claim, String sender, int attempts, Instant now, Instant leaseUntil) {
        return update(claim, sender, Status.SENDING, attempts, now, leaseUntil.toEpochMilli());
    }

    /** Records how {@code sender}'s sending of a notification ended, if the claim is still theirs. */
    boolean finish(Claim claim, String sender, Status status, int attempts, Instant now) {
        return update(claim, sender, status, attempts, now, 0);
    }

    /** Gives the claim up unsent (the sender is stopping), so the next sender takes it at once. */
    boolean release(Claim claim, String sender, int attempts, Instant now) {
        return update(claim, sender, Status.SENDING, attempts, now, 0);
    }

    private boolean update(Claim claim, String sender, Status status, int attempts, Instant now, long leaseUntil) {
        return db.write("record a webhook delivery for " + claim.user(), connection -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE server_webhook_deliveries"
                    + " SET status = ?, attempts = ?, updated_at = ?, lease_until = ?"
                    + " WHERE user_id = ? AND notification_id = ? AND sender = ? AND status = ?")) {
                update.setString(1, status.name());
                update.setInt(2, attempts);
                update.setLong(3, now.toEpochMilli());
                update.setLong(4, leaseUntil);
                update.setString(5, claim.user());
                update.setString(6, claim.notificationId());
                update.setString(7, sender);
                update.setString(8, Status.SENDING.name());
                return update.executeUpdate() == 1;
            }
        });
    }

    /**
     * Deletes the records of deliveries that ended (delivered, or failed for good) before {@code cutoff},
     * but those of each user's {@code latest} latest notifications: the senders look at those, and their
     * record is what keeps them from being sent again. A record is pruned only when {@code latest} records
     * of its user are of later notifications, so it is told from the rows alone, by any process.
     *
     * @return how many records were deleted
     */
    int pruneEnded(Instant cutoff, int latest) {
        return db.write("prune the ended webhook deliveries", connection -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM server_webhook_deliveries"
                    + " WHERE status <> ? AND updated_at < ? AND (SELECT COUNT(*) FROM server_webhook_deliveries"
                    + " later WHERE later.user_id = server_webhook_deliveries.user_id"
                    + " AND later.notice_at > server_webhook_deliveries.notice_at) >= ?")) {
                delete.setString(1, Status.SENDING.name());
                delete.setLong(2, cutoff.toEpochMilli());
                delete.setInt(3, latest);
                return delete.executeUpdate();
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
