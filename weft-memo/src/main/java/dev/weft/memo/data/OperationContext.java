package dev.weft.memo.data;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;

/**
 * Who an operation is for and when: the user, their zone (for "today" and dates without an offset),
 * the time, the idempotency key from which new rows take their ids, so that the same call made twice
 * makes the same rows once, and whether a person said to make again a call whose earlier attempt's
 * outcome is unknown ({@code repeatApproved}: a mail that may have been sent is sent again only then).
 */
public record OperationContext(String user, ZoneId zone, Instant now, String idempotencyKey, boolean repeatApproved) {
    public OperationContext {
        MemoData.requireUserId(user);
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    }

    /** A call no person was asked to repeat. */
    public OperationContext(String user, ZoneId zone, Instant now, String idempotencyKey) {
        this(user, zone, now, idempotencyKey, false);
    }

    /** The id of the {@code index}th row this call creates: the same for the same call. */
    String newId(String prefix, int index) {
        try {
            byte[] digest = java.security.MessageDigest.getInstance("SHA-256")
                    .digest((idempotencyKey + "#" + index).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return prefix + java.util.HexFormat.of().formatHex(digest, 0, 6);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }
}
