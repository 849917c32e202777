package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.StepScope;
import dev.weft.core.TimeSource;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a tool call knows about where it comes from and what it may use: the run and its user, the
 * plan step (a child such as {@code B-0} for an expanded step), the idempotency key, the attempt,
 * whether a person approved the call, the run's time source, events, facts on the step, and a
 * durable {@link #once}. {@code idempotencyKey} is the same every time the same step of the same run
 * is executed (retries, recovery), so a tool can refuse to act twice. Used by one call on one thread.
 */
public final class ToolContext extends StepView {
    /** Made when first asked for: most tools never ask. Racy but safe, as String's hash: the value is always the same. */
    private @org.jspecify.annotations.Nullable String idempotencyKey;

    private final int attempt;
    private final boolean approved;
    /** Whether {@link #stepId} is a child of the step {@link #scope} belongs to, so its facts are kept apart. */
    private final boolean child;
    /** Whether a person, told that an earlier attempt's outcome is unknown, said to make the call again. */
    private final boolean repeatApproved;

    ToolContext(StepScope scope, String stepId, int attempt, boolean approved, boolean child) {
        this(scope, stepId, attempt, approved, child, false);
    }

    ToolContext(StepScope scope, String stepId, int attempt, boolean approved, boolean child, boolean repeatApproved) {
        super(scope, stepId);
        this.attempt = attempt;
        this.approved = approved;
        this.child = child;
        this.repeatApproved = repeatApproved;
    }

    /**
     * A context for a call made outside any run (tests, a tool called by hand): events and facts go
     * nowhere, {@link #once} lasts as long as the context, time is the system's, and the call counts
     * as approved by whoever makes it.
     */
    public static ToolContext detached(String runId, String stepId) {
        return detached(runId, Optional.empty(), stepId, TimeSource.system());
    }

    /** {@link #detached(String, String)} for {@code user}, reading time from {@code time}. */
    public static ToolContext detached(String runId, Optional<String> user, String stepId, TimeSource time) {
        return new ToolContext(new DetachedScope(runId, user, runId + "/" + stepId, 1, time), stepId, 1, true, false);
    }

    /**
     * A context for a call that work inside a step makes itself, outside the plan pipeline (seed 004's
     * tool dispatch: a node calling the tools a specialist or a model asked for): the step's run, user,
     * time, events, facts and durable {@link #once}, under {@code callId} (one per call of the step), and
     * approved only when a person approved this call ({@code approved}).
     */
    public static ToolContext of(StepScope scope, String callId, boolean approved) {
        return new ToolContext(scope, callId, scope.attempt(), approved, false);
    }

    /**
     * This context for a call no person approved: a high-risk tool called with it is refused ({@code
     * E_APPROVAL_REQUIRED}). For calls a step makes on a model's say-so (seed 004's tool dispatch).
     */
    public ToolContext unapproved() {
        return new ToolContext(scope, stepId, attempt, false, child, false);
    }

    /** This context for attempt {@code attempt} of the same call. */
    ToolContext attempt(int attempt) {
        return new ToolContext(scope, stepId, attempt, approved, child, repeatApproved);
    }

    /**
     * Whether a person was told that an earlier attempt at this call may or may not have taken effect
     * ({@code E_OUTCOME_UNKNOWN}) and said to make it again: only then may a tool that recorded its intent
     * and found no trace of it act again rather than throw {@link dev.weft.core.OutcomeUnknownException}.
     */
    public boolean repeatApproved() {
        return repeatApproved;
    }

    /** {@code runId/stepId}: the same for every attempt and every recovery of this call. */
    @Override
    public String idempotencyKey() {
        String key = idempotencyKey;
        if (key == null) {
            key = scope.runId() + "/" + stepId;
            idempotencyKey = key;
        }
        return key;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    /**
     * Whether the call may go ahead without a person's approval: true for a high-risk tool only once a
     * person approved its step, and always true for other tools.
     */
    public boolean approved() {
        return approved;
    }

    /**
     * Records a fact on the step; a child of an expanded step records under {@code <childId>.<key>}.
     * The children of a step run at the same time and share its record, so they take turns.
     */
    @Override
    public void record(String key, JsonNode value) {
        if (child) {
            synchronized (scope) {
                scope.record(stepId + "." + key, value);
            }
        } else {
            scope.record(key, value);
        }
    }

    /** {@link StepScope#once} for this call: keyed by this call's step id as well as {@code key}. */
    @Override
    public JsonNode once(String key, Supplier<JsonNode> call) {
        return scope.once(stepId + "/" + key, call);
    }

    @Override
    public String toString() {
        return "ToolContext[" + idempotencyKey() + ", attempt " + attempt + (approved ? ", approved" : "") + "]";
    }
}
