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

    /**
     * Evaluates the expression over values given outside any step (a filter over an email, say).
     *
     * @throws dev.weft.core.WeftException {@code E_NODE_FAILED} naming the field when evaluation fails
     */
    JsonNode evaluate(JsonNode input, java.util.Map<String, JsonNode> vars, java.util.Map<String, JsonNode> nodes);

    /**
     * Compiles and type-checks CEL {@code text} over {@code input}, {@code vars} and {@code nodes}, as
     * workflow expressions are; {@code owner} and {@code field} name it in errors.
     *
     * @throws dev.weft.core.GraphInvalidException when it does not compile
     */
    static Expression compile(String owner, String field, String text) {
        return dev.weft.workflow.internal.CelExpressions.compile(new NodeConfig.Source(owner, field, text));
    }
}
