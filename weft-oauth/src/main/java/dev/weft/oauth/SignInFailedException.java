package dev.weft.oauth;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/**
 * A sign-in that did not end with a grant: the user denied it, the device code expired, the redirect
 * carried another sign-in's {@code state}, nobody came back in time, or the provider refused the code.
 * Nothing was kept.
 */
public final class SignInFailedException extends WeftException {
    private static final long serialVersionUID = 1L;

    public SignInFailedException(String message) {
        super(ErrorCode.E_AUTH_FAILED, message);
    }
}
