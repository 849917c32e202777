package dev.weft.core;

import org.jspecify.annotations.Nullable;

/** A failure that may go away if the same call is tried again: a timeout, a 503, a dropped connection. */
public class TransientException extends WeftException {
    private static final long serialVersionUID = 1L;

    public TransientException(ErrorCode code, String message) {
        super(code, message);
    }

    public TransientException(ErrorCode code, String message, @Nullable Throwable cause) {
        super(code, message, cause);
    }

    @Override
    public final boolean isTransient() {
        return true;
    }
}
