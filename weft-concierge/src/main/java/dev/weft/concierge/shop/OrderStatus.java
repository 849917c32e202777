package dev.weft.concierge.shop;

import java.util.Locale;

/** Where an order stands: only a pending one can be cancelled or changed; only a delivered one returned or exchanged. */
public enum OrderStatus {
    PENDING,
    PROCESSED,
    DELIVERED,
    CANCELLED;

    /** The name stored and shown: {@code pending}, {@code processed}, … */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static OrderStatus of(String label) {
        return valueOf(label.toUpperCase(Locale.ROOT));
    }
}
