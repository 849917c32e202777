package dev.weft.workflow.spi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.NodeContext;

/**
 * A CEL expression compiled with the workflow, evaluated over {@code input} (the run input), {@code
 * vars} (the workflow's variables with the run's overrides) and {@code nodes} (earlier outputs by
 * node name). Thread-safe.
 */
public interface Expression {
    /** The expression's source text. */
    String source();

    /**
     * Evaluates the expression for the step {@code context} belongs to.
     *
     * @throws dev.weft.core.WeftException {@code E_NODE_FAILED} naming the node and field when
     *     evaluation fails (a missing key, a type mismatch)
     */
    JsonNode evaluate(NodeContext context);
}
