package dev.weft.plan;

import java.util.Set;

/**
 * Turns a plan step of one capability into a tool call or a question (seed 002's resolvers). Called
 * once the step's dependencies have executed. Implementations are thread-safe: steps resolve in
 * parallel.
 */
public interface Resolver {
    /** A name for logs and events. */
    String name();

    String capability();

    /** The actions this resolver handles; the registry falls back to it for others of its capability. */
    Set<String> actions();

    /**
     * The tool this resolver will call for {@code step}, when it is known before resolving. A plan is
     * checked before it runs against what is known: a placeholder that reads a step whose tool is
     * known here must name a path of that tool's output schema. Empty by default: the check then
     * happens when the step that reads it is resolved.
     */
    default java.util.Optional<String> tool(PlanStep step) {
        return java.util.Optional.empty();
    }

    /**
     * What a call for {@code step} may be: its tool, the operations its action allows, the targets it
     * may not name. When present, the step pipeline refuses a resolved call outside it ({@code
     * E_STEP_MISMATCH}) before anything runs; a resolver whose arguments a model writes should always
     * say it, so text the model read cannot steer it past its step, and a resolver that wraps another
     * must forward it. Empty by default: not checked.
     */
    default java.util.Optional<StepSlice> slice(PlanStep step) {
        return java.util.Optional.empty();
    }

    /**
     * @throws dev.weft.core.WeftException to fail the step (a transient one is not retried here:
     *     resolvers that call a model retry under their own policy)
     */
    Resolution resolve(PlanStep step, ResolveContext context);
}
