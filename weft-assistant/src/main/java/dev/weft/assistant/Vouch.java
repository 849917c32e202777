package dev.weft.assistant;

import java.util.Objects;

/**
 * Who a caller vouches the person in a conversation is, for an assistant that acts for many people
 * under one key (the concierge, for a shop's customers): a token the storefront signed ({@link
 * SignedToken}, checked by the assistant that knows the shop's key), or an API key that was created
 * for one customer ({@link BoundKey}). An assistant that serves only its user ignores it.
 */
public sealed interface Vouch {
    /** A token signed by the storefront ({@code X-Weft-Customer}, {@code --customer-token}); not yet checked. */
    record SignedToken(String token) implements Vouch {
        public SignedToken {
            Objects.requireNonNull(token, "token");
        }

        @Override
        public String toString() {
            // The token is a credential: it is never printed.
            return "SignedToken[…]";
        }
    }

    /** An API key created for one customer ({@code weft keys create --customer EMAIL}): that customer's email. */
    record BoundKey(String email) implements Vouch {
        public BoundKey {
            Objects.requireNonNull(email, "email");
            if (email.isBlank()) {
                throw new IllegalArgumentException("a key's customer must be an email, was blank");
            }
        }
    }
}
