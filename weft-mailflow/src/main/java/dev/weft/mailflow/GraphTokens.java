package dev.weft.mailflow;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.store.Secrets;

/**
 * Where the access token for a venue's Microsoft Graph mailbox comes from: by default the token stored
 * (sealed) with the venue's Graph mailbox ({@code weft mailflow venue add … --graph URL} with {@code
 * WEFT_GRAPH_TOKEN}); a sign-in that refreshes its tokens plugs in here instead ({@link
 * Mailflow.Builder#graphTokens}). Implementations are thread-safe.
 */
@FunctionalInterface
public interface GraphTokens {
    /**
     * A token to call Graph for {@code venue} with. Never log it.
     *
     * @throws WeftException {@code E_MAIL_NOT_CONFIGURED} for a venue without a Graph mailbox, {@code
     *     E_MAIL_UNAVAILABLE} when no token can be had
     */
    String accessToken(Venue venue);

    /** The token stored with the venue's Graph mailbox, decrypted with {@code secrets}. */
    static GraphTokens stored(Secrets secrets) {
        return venue -> secrets.decrypt(venue.graph()
                .orElseThrow(() -> new WeftException(
                        ErrorCode.E_MAIL_NOT_CONFIGURED,
                        "venue '" + venue.id() + "' has no Graph mailbox: add it with 'weft mailflow venue add --id "
                                + venue.id() + " … --graph URL' (the token in WEFT_GRAPH_TOKEN)"))
                .sealedToken());
    }
}
