package dev.weft.concierge.shop;

import java.util.Objects;

/** One unit of an order: its position in the order (from 1), the variant bought and the price paid. */
public record OrderItem(int position, String variantId, long priceCents) {
    public OrderItem {
        Objects.requireNonNull(variantId, "variantId");
        if (position < 1) {
            throw new IllegalArgumentException("item positions start at 1, was " + position);
        }
    }
}
