package dev.weft.oauth;

import java.time.Instant;
import java.util.Optional;

/**
 * A grant an assistant keeps in its {@link GrantStore}, as the assistant names it (a user and purpose, a
 * venue): what was stored, without its tokens, read through the same accessors whoever keeps it.
 */
public interface KeptGrant {
    /** The row as the store keeps it. */
    GrantStore.Kept stored();

    default OAuthProvider provider() {
        return stored().provider();
    }

    /** The account signed in to. */
    default String account() {
        return stored().account();
    }

    /** The scopes granted. */
    default String scope() {
        return stored().scope();
    }

    /** When the kept access token expires (it is refreshed before). */
    default Instant expiresAt() {
        return stored().expiresAt();
    }

    /** When the provider refused to refresh it: it is of no use until the account is connected again. */
    default Optional<Instant> revokedAt() {
        return stored().revokedAt();
    }
}
