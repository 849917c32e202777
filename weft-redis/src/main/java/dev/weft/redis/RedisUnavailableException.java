package dev.weft.redis;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/** Redis did not answer: it is down, unreachable, or too slow. The caller falls back or tries again. */
final class RedisUnavailableException extends WeftException {
    private static final long serialVersionUID = 1L;

    RedisUnavailableException(RedisUrl url, Throwable cause) {
        super(
                ErrorCode.E_UNAVAILABLE,
                "Redis at " + url + " is not answering: " + cause.getClass().getSimpleName()
                        + (cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")"),
                cause);
    }

    /** Redis is not asked at all: the connection was closed. */
    RedisUnavailableException(String message) {
        super(ErrorCode.E_UNAVAILABLE, message);
    }
}
