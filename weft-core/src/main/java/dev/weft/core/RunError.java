package dev.weft.core;

import java.util.Objects;

/** An error as recorded on a run or a step: its stable code and a message naming the thing at fault. */
public record RunError(ErrorCode code, String message) {
    public RunError {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }

    public WeftException toException() {
        return new WeftException(code, message);
    }
}
