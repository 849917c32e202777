package dev.weft.concierge.shop;

import java.util.Objects;

/** A customer of the shop: who they are, how they are verified (email, or name and postcode), where they live and how they pay. */
public record Customer(
        String id, String name, String email, String postcode, String address, Payment payment, String language) {
    public Customer {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(email, "email");
        Objects.requireNonNull(postcode, "postcode");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(payment, "payment");
        Objects.requireNonNull(language, "language");
    }

    /** The first word of the name, for greetings. */
    public String firstName() {
        String trimmed = name.strip();
        int space = trimmed.indexOf(' ');
        return space < 0 ? trimmed : trimmed.substring(0, space);
    }
}
