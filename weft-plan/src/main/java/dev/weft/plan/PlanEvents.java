package dev.weft.plan;

/** The event types a plan run adds to the runtime's (seed 001). Each carries the plan step's {@code stepId}. */
public final class PlanEvents {
    public static final String PLAN_CYCLE_BROKEN = "plan.cycle_broken";
    public static final String PLAN_GROUPS = "plan.groups";
    public static final String APPROVAL_AWAITING = "approval.awaiting";
    public static final String CLARIFY_AWAITING = "clarify.awaiting";
    /** A resolved call outside its step's {@link StepSlice}, refused before it ran: {@code stepId, resolver, tool, args, reason}. */
    public static final String STEP_REFUSED = dev.weft.core.Event.STEP_REFUSED;

    public static final String TOOL_CALLED = "tool.called";
    public static final String TOOL_RETRYING = "tool.retrying";
    public static final String TOOL_SUCCEEDED = "tool.succeeded";
    public static final String TOOL_FAILED = "tool.failed";
    public static final String STEP_EXECUTED = "step.executed";
    public static final String UNDO_ENQUEUED = "undo.enqueued";
    public static final String UNDO_COMPLETED = "undo.completed";
    public static final String ASSISTANT_DELTA = "assistant.delta";
    public static final String ASSISTANT_FINAL = "assistant.final";

    private PlanEvents() {}
}
