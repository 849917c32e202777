package dev.weft.oauth;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * An {@link AccessTokenSource} over a kept grant: the kept access token while it has more than a margin
 * left, else a refreshed one, kept before it is given. The authorization server is discovered only when
 * a refresh is needed. Thread-safe: one refresh at a time per instance.
 */
public final class FreshAccessTokens implements AccessTokenSource {
    /** How long before its expiry an access token is replaced: a request started now must not outlive it. */
    public static final Duration DEFAULT_MARGIN = Duration.ofMinutes(1);

    private final Supplier<AuthorizationServer> server;
    private final GrantSlot store;
    private final Clock clock;
    private final Duration margin;

    private FreshAccessTokens(Supplier<AuthorizationServer> server, GrantSlot store, Clock clock, Duration margin) {
        this.server = server;
        this.store = store;
        this.clock = clock;
        this.margin = margin;
    }

    /**
     * Tokens of the grant in {@code store}, refreshed through {@code server} when they have less than
     * {@code margin} left at {@code clock}'s time.
     */
    public static FreshAccessTokens create(
            Supplier<AuthorizationServer> server, GrantSlot store, Clock clock, Duration margin) {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(clock, "clock");
        if (margin.isNegative()) {
            throw new IllegalArgumentException("margin must not be negative, was " + margin);
        }
        return new FreshAccessTokens(server, store, clock, margin);
    }

    /**
     * @throws GrantRevokedException {@code E_AUTH_REVOKED} when the provider no longer honours the grant
     */
    @Override
    public synchronized String accessToken() {
        Grant grant = store.read();
        if (grant.freshAt(clock.instant(), margin)) {
            return grant.accessToken();
        }
        return refresh(grant);
    }

    /**
     * A new access token even though the kept one has not expired by the clock: for a server that refused
     * the kept one (its clock runs ahead, or the provider ended the token early).
     *
     * @throws GrantRevokedException {@code E_AUTH_REVOKED} when the provider no longer honours the grant
     */
    public synchronized String refreshedAccessToken() {
        return refresh(store.read());
    }

    private String refresh(Grant grant) {
        Grant refreshed = server.get().refresh(grant);
        store.write(refreshed);
        return refreshed.accessToken();
    }
}
