package dev.weft.core;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The root of every exception Weft throws. Each carries a stable {@link ErrorCode}; subclasses are
 * named for the failure.
 */
public class WeftException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public WeftException(ErrorCode code, String message) {
        this(code, message, null);
    }

    public WeftException(ErrorCode code, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.code = Objects.requireNonNull(code, "code");
    }

    public final ErrorCode code() {
        return code;
    }

    /** Whether trying the same thing again may succeed; a retry policy retries only these. */
    public boolean isTransient() {
        return false;
    }

    @Override
    public String getMessage() {
        return Objects.requireNonNullElse(super.getMessage(), code.name());
    }

    /** The error as a value, for run and step records. */
    public RunError toError() {
        return new RunError(code, getMessage());
    }
}
