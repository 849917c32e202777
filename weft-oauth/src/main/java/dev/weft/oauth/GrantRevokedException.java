package dev.weft.oauth;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/**
 * The provider refused to refresh a grant ({@code invalid_grant}): the user revoked Weft's access, changed
 * their password, or the grant expired. Only signing in again helps; the message says how.
 */
public final class GrantRevokedException extends WeftException {
    private static final long serialVersionUID = 1L;

    public GrantRevokedException(String message) {
        super(ErrorCode.E_AUTH_REVOKED, message);
    }
}
