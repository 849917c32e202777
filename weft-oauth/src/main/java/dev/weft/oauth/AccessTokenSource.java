package dev.weft.oauth;

/**
 * Gives an access token good for a request made now: what an IMAP or SMTP login, a CalDAV request or a
 * Microsoft Graph call asks for each time it connects. Implementations refresh before expiry.
 */
@FunctionalInterface
public interface AccessTokenSource {
    /**
     * An access token that will not expire for a while.
     *
     * @throws GrantRevokedException {@code E_AUTH_REVOKED} when the grant behind it was revoked
     */
    String accessToken();
}
