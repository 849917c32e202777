package dev.weft.plan;

/** How far a plan runs (seed 001). */
public enum PlanMode {
    /** Plan and resolve; run no tool. Each step reports the call it would make. */
    PREVIEW,
    /** Stop for a person to approve the whole plan, then run it. */
    APPROVAL,
    /** Run it; only high-risk tools stop for approval. */
    AUTO
}
