package dev.weft.core;

/**
 * The work a graph node does. Implementations must be safe to call from several threads at once:
 * parallel branches and concurrent runs share one compiled graph. A node must not change a value
 * once it has returned it (nor its input): the run keeps the very object as the step's output, hands
 * it to later nodes, and a durable store that has written it once refers to what it wrote.
 */
@FunctionalInterface
public interface Node {
    /**
     * Does the node's work for one step.
     *
     * @return the output and, for a branch point, the handle it chose; or an interrupt that pauses
     *     the run
     * @throws WeftException with a code describing the failure; a {@linkplain
     *     WeftException#isTransient() transient} one is retried under the node's retry policy. Any
     *     other unchecked exception fails the step with {@link ErrorCode#E_NODE_FAILED}.
     */
    NodeResult execute(NodeContext context);
}
