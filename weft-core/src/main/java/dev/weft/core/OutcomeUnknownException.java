package dev.weft.core;

import org.jspecify.annotations.Nullable;

/**
 * An effect may have happened and nothing can tell whether it did ({@code E_OUTCOME_UNKNOWN}): the
 * request reached the other side and its answer was lost. Never transient — making it again blind may
 * make it twice — so a retry policy leaves it alone and the caller surfaces it to a person.
 */
public class OutcomeUnknownException extends WeftException {
    private static final long serialVersionUID = 1L;

    public OutcomeUnknownException(String message) {
        super(ErrorCode.E_OUTCOME_UNKNOWN, message);
    }

    public OutcomeUnknownException(String message, @Nullable Throwable cause) {
        super(ErrorCode.E_OUTCOME_UNKNOWN, message, cause);
    }
}
