package dev.weft.core;

/** Asked of a run that cannot do it in its state: resuming a completed run, cancelling a cancelled one. */
public final class RunStateException extends WeftException {
    private static final long serialVersionUID = 1L;

    public RunStateException(String message) {
        super(ErrorCode.E_RUN_STATE, message);
    }
}
