package dev.weft.channels;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;

/**
 * A channel's API ({@code E_CHANNEL_UNAVAILABLE}) refused a request or could not be reached, and
 * whether what was sent may have arrived all the same: a request that timed out or was cut after it
 * left may have been taken by the provider, one that was refused (an error answer) or never connected
 * was not. An outbox sends again only what cannot have arrived.
 */
public final class ChannelUnavailableException extends WeftException {
    private static final long serialVersionUID = 1L;

    private final boolean mayHaveArrived;

    public ChannelUnavailableException(String message, boolean mayHaveArrived) {
        super(ErrorCode.E_CHANNEL_UNAVAILABLE, message);
        this.mayHaveArrived = mayHaveArrived;
    }

    /** Whether the provider may have taken the request before it failed (its outcome is unknown). */
    public boolean mayHaveArrived() {
        return mayHaveArrived;
    }
}
