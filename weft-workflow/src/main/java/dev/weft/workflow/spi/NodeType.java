package dev.weft.workflow.spi;

import dev.weft.core.NodeSpec;
import java.util.Set;

/**
 * A kind of workflow node ({@code condition}, {@code transform}, …): checks a node's configuration
 * when the workflow is compiled and builds the node that runs it. Implementations are stateless and
 * thread-safe.
 */
public interface NodeType {
    /** The name used in a node's {@code type} field. */
    String name();

    /**
     * The configuration fields this type reads. {@code maxVisits} and {@code retry} are accepted on
     * every node; any other field is rejected as unknown.
     */
    Set<String> configFields();

    /**
     * Builds the node from its configuration. The returned builder's id, name and type are set; the
     * compiler adds the visit limit and retry policy.
     *
     * @throws dev.weft.core.GraphInvalidException naming the node and field for a bad configuration
     */
    NodeSpec.Builder create(NodeConfig config);

    /**
     * Whether a node of this type may say {@code "queued": true} and run on a worker process: not a
     * type whose nodes wait for a person (an interrupt cannot be raised on a worker). True by default.
     */
    default boolean queueable() {
        return true;
    }
}
