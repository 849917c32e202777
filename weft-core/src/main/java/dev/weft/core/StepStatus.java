package dev.weft.core;

/** Where one step is: activated and queued, running, done, or not run at all. */
public enum StepStatus {
    PENDING,
    RUNNING,
    COMPLETED,
    FAILED,
    SKIPPED,
    CANCELLED,
    /** The step interrupted the run and waits to be resumed. */
    WAITING;

    public boolean isFinished() {
        return this == COMPLETED || this == FAILED || this == SKIPPED || this == CANCELLED;
    }
}
