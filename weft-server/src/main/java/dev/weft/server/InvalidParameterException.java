package dev.weft.server;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/**
 * A request to {@code /v1} that is refused for one of its fields: OpenAI's error shape names that field
 * as the error's {@code param}, so that a client can point at it.
 */
final class InvalidParameterException extends WeftException {
    private static final long serialVersionUID = 1L;

    private final String param;

    InvalidParameterException(ErrorCode code, String param, String message) {
        super(code, message);
        this.param = param;
    }

    /** The request's field at fault ({@code model}, {@code input}, {@code previous_response_id}, …). */
    String param() {
        return param;
    }
}
