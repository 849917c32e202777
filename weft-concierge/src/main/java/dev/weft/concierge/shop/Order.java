package dev.weft.concierge.shop;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A customer's order: its status, where it goes, how it was paid, and its items. */
public record Order(
        String id,
        String customerId,
        OrderStatus status,
        String address,
        Payment payment,
        Optional<String> cancelReason,
        Instant createdAt,
        Instant updatedAt,
        List<OrderItem> items) {
    public Order {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(customerId, "customerId");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(payment, "payment");
        Objects.requireNonNull(cancelReason, "cancelReason");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        items = List.copyOf(items);
    }

    public long totalCents() {
        return items.stream().mapToLong(OrderItem::priceCents).sum();
    }

    public Optional<OrderItem> item(int position) {
        return items.stream().filter(i -> i.position() == position).findFirst();
    }
}
