package dev.weft.store;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/**
 * The database behind a store cannot be used: it is unreachable, refuses the credentials, is not a
 * database at all, or failed while a statement ran. The message names the database (password
 * masked) and the cause in one line.
 */
public final class StoreUnavailableException extends WeftException {
    private static final long serialVersionUID = 1L;

    StoreUnavailableException(String message, Throwable cause) {
        super(ErrorCode.E_STORE_UNAVAILABLE, message, cause);
    }
}
