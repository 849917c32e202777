package dev.weft.oauth;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a sign-in gave: the account signed in to, the scopes granted, the refresh token that keeps it
 * signed in, and the access token of the moment with when it expires. Its {@link #toString()} shows no
 * token.
 *
 * @param account the account's address (the ID token's {@code email}, else its {@code preferred_username}
 *     or {@code sub})
 */
public record Grant(
        OAuthProvider provider,
        String account,
        String scope,
        String refreshToken,
        String accessToken,
        Instant expiresAt) {
    public Grant {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(refreshToken, "refreshToken");
        Objects.requireNonNull(accessToken, "accessToken");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /** Whether the access token is still good at {@code now} for at least {@code margin} more. */
    public boolean freshAt(Instant now, Duration margin) {
        return now.plus(margin).isBefore(expiresAt);
    }

    /** The same grant with a new access token (and the refresh token the server rotated to, if it did). */
    public Grant refreshed(String newRefreshToken, String newAccessToken, Instant newExpiresAt) {
        return new Grant(provider, account, scope, newRefreshToken, newAccessToken, newExpiresAt);
    }

    @Override
    public String toString() {
        return provider.id() + " grant for " + account + " (" + scope + "), access token until " + expiresAt;
    }
}
