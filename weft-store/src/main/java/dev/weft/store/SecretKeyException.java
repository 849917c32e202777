package dev.weft.store;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/**
 * The key for stored secrets cannot be used: the one given is not a key, its file does not exist, or
 * a stored secret was encrypted with another key. The message says which key, and what to do.
 */
public final class SecretKeyException extends WeftException {
    private static final long serialVersionUID = 1L;

    public SecretKeyException(String message) {
        super(ErrorCode.E_SECRET_KEY, message);
    }
}
