package dev.weft.llm;

import dev.weft.core.ErrorCode;
import dev.weft.core.TransientException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * A model call failed in a way that may pass: the provider was rate-limited (429), failing (5xx),
 * slow (a timeout) or unreachable. Retried under the model's retry policy, waiting at least {@link
 * #retryAfter()} when the provider said how long. Its code is {@link ErrorCode#E_MODEL_UNAVAILABLE}.
 */
public class ModelTransientException extends TransientException {
    private static final long serialVersionUID = 1L;

    private final @Nullable Integer status;
    private final @Nullable Duration retryAfter;

    public ModelTransientException(
            String message, OptionalInt status, Optional<Duration> retryAfter, @Nullable Throwable cause) {
        super(ErrorCode.E_MODEL_UNAVAILABLE, message, cause);
        this.status = status.isPresent() ? status.getAsInt() : null;
        this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter").orElse(null);
    }

    /** The HTTP status the provider answered with, when it answered. */
    public OptionalInt status() {
        return status == null ? OptionalInt.empty() : OptionalInt.of(status);
    }

    /** How long the provider asked to wait ({@code Retry-After}), when it said. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }
}
