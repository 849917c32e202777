package dev.weft.core;

/** Where a run is in its life: {@code PENDING → RUNNING → (WAITING) → COMPLETED | FAILED | CANCELLED}. */
public enum RunStatus {
    PENDING,
    RUNNING,
    /** Paused on an interrupt (an approval, a question); holds no thread, resumes from its checkpoint. */
    WAITING,
    COMPLETED,
    FAILED,
    CANCELLED;

    public boolean isFinished() {
        return this == COMPLETED || this == FAILED || this == CANCELLED;
    }
}
