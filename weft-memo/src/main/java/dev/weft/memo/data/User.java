package dev.weft.memo.data;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;

/** A person Memo works for: an id (a phone number or a handle), the language they prefer, their time zone. */
public record User(String id, String language, ZoneId zone, Instant createdAt) {
    public User {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(zone, "zone");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
