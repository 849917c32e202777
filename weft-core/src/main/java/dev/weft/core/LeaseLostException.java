package dev.weft.core;

/**
 * A runner tried to write to a run that another process has taken over: its own process was taken
 * for dead (its lease expired) and the run was recovered elsewhere. The late writer stops; nothing it
 * wrote after losing the lease is kept.
 */
public final class LeaseLostException extends WeftException {
    private static final long serialVersionUID = 1L;

    public LeaseLostException(String runId, String holder) {
        super(ErrorCode.E_RUN_STATE, "run '" + runId + "' is now run by " + holder + "; this process lost its lease");
    }
}
