package dev.weft.concierge.spi;

import java.util.Objects;

/**
 * One thing the shop has learned about a customer, kept across conversations: {@code kind} {@code size}
 * (item: a category, value: the size), {@code preference} or {@code issue} (item: what it is about).
 */
public record MemoryFact(String kind, String item, String value) {
    public MemoryFact {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(item, "item");
        Objects.requireNonNull(value, "value");
        if (!kind.matches("size|preference|issue")) {
            throw new IllegalArgumentException("a memory's kind is size, preference or issue; was '" + kind + "'");
        }
    }
}
