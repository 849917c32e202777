package dev.weft.memo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.data.OAuthGrants;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A sign-in Memo keeps for a user's calendar or mailbox (an OAuth grant), as it may be shown: never a
 * token.
 *
 * @param provider the provider's id ({@code google}, {@code microsoft})
 * @param account the account signed in to
 * @param scope what was granted
 * @param expiresAt when the access token held now expires (it is refreshed before)
 * @param revokedAt when the provider refused to refresh it
 * @param reconnect the command that signs in again
 */
public record SignIn(
        String provider,
        String account,
        String scope,
        Instant expiresAt,
        Optional<Instant> revokedAt,
        String reconnect) {
    public SignIn {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(revokedAt, "revokedAt");
        Objects.requireNonNull(reconnect, "reconnect");
    }

    static SignIn of(OAuthGrants.Kept grant) {
        return new SignIn(
                grant.provider().id(),
                grant.account(),
                grant.scope(),
                grant.expiresAt(),
                grant.revokedAt(),
                grant.purpose().connectCommand(grant.user(), grant.provider()));
    }

    /** {@code provider}, {@code account}, {@code scope}, {@code expiresAt}, and {@code revokedAt} when it was. */
    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("provider", provider);
        node.put("account", account);
        node.put("scope", scope);
        node.put("expiresAt", expiresAt.toString());
        revokedAt.ifPresent(at -> node.put("revokedAt", at.toString()));
        return node;
    }

    /** One line for a person: whom it signs in as, and whether it still works (and what to do if not). */
    public String describe() {
        return "signed in to " + provider + " as " + account
                + revokedAt
                        .map(at -> "; revoked at " + at + ": connect again with '" + reconnect + "'")
                        .orElse("; the access token is refreshed before it expires (now until " + expiresAt + ")");
    }
}
