package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * A node as a graph holds it: its id, display name and type, the work it does, the handles it can
 * route by, its visit limit and its retry policy. Immutable; build one with {@link #builder}.
 */
public final class NodeSpec {
    /** The visit limit when none is given: seed 003's five iterations. */
    public static final int DEFAULT_MAX_VISITS = 5;

    private final String id;
    private final String name;
    private final String type;
    private final Node node;
    private final List<String> handles;
    private final Function<JsonNode, String> router;
    private final int maxVisits;
    private final RetryPolicy retryPolicy;
    private final java.util.Optional<com.fasterxml.jackson.databind.node.ObjectNode> inputSchema;
    private final java.util.Optional<com.fasterxml.jackson.databind.node.ObjectNode> outputSchema;
    private final boolean queued;
    /** The id as its events carry it: made once, not for each event. */
    private final java.util.Optional<String> eventNodeId;

    private NodeSpec(Builder builder) {
        this.id = builder.id;
        this.name = builder.name == null ? builder.id : builder.name;
        this.type = builder.type;
        this.node = builder.node;
        this.handles = List.copyOf(builder.handles.isEmpty() ? Set.of(Graph.OUTPUT) : builder.handles);
        this.router = builder.router;
        this.maxVisits = builder.maxVisits;
        this.retryPolicy = builder.retryPolicy;
        this.inputSchema = java.util.Optional.ofNullable(builder.inputSchema);
        this.outputSchema = java.util.Optional.ofNullable(builder.outputSchema);
        this.queued = builder.queued;
        this.eventNodeId = java.util.Optional.of(id);
    }

    public static Builder builder(String id, Node node) {
        return new Builder(id, node);
    }

    public String id() {
        return id;
    }

    /** {@link #id} as the node of an {@link Event}. */
    java.util.Optional<String> eventNodeId() {
        return eventNodeId;
    }

    public String name() {
        return name;
    }

    public String type() {
        return type;
    }

    public Node node() {
        return node;
    }

    /** The handles this node may route by, in declaration order; {@code [output]} for a plain node. */
    public List<String> handles() {
        return handles;
    }

    /** Whether the node chooses among several handles. */
    public boolean isBranch() {
        return handles.size() > 1 || !handles.contains(Graph.OUTPUT);
    }

    /** The handle an output takes when the node did not name one (and for pinned outputs). */
    public String route(JsonNode output) {
        return router.apply(output);
    }

    public int maxVisits() {
        return maxVisits;
    }

    public RetryPolicy retryPolicy() {
        return retryPolicy;
    }

    /** The JSON Schema of the input this node accepts, if it declares one; a graph checks its edges against it. */
    public java.util.Optional<com.fasterxml.jackson.databind.node.ObjectNode> inputSchema() {
        return inputSchema.map(com.fasterxml.jackson.databind.node.ObjectNode::deepCopy);
    }

    /** The JSON Schema of the output this node produces, if it declares one. */
    public java.util.Optional<com.fasterxml.jackson.databind.node.ObjectNode> outputSchema() {
        return outputSchema.map(com.fasterxml.jackson.databind.node.ObjectNode::deepCopy);
    }

    /**
     * Whether the node runs on a worker process when the runner has a step dispatcher (see {@link
     * Builder#queued}).
     */
    public boolean queued() {
        return queued;
    }

    @Override
    public String toString() {
        return "NodeSpec[" + id + ", type=" + type + ", handles=" + handles + "]";
    }

    /** Builds a {@link NodeSpec}; every setter rejects a bad value at once. */
    public static final class Builder {
        private final String id;
        private final Node node;
        private String name;
        private String type = "node";
        private final Set<String> handles = new LinkedHashSet<>();
        private Function<JsonNode, String> router = output -> Graph.OUTPUT;
        private int maxVisits = DEFAULT_MAX_VISITS;
        private RetryPolicy retryPolicy = RetryPolicy.NONE;
        private com.fasterxml.jackson.databind.node.@org.jspecify.annotations.Nullable ObjectNode inputSchema;
        private com.fasterxml.jackson.databind.node.@org.jspecify.annotations.Nullable ObjectNode outputSchema;
        private boolean queued;

        private Builder(String id, Node node) {
            this.id = requireName(id, "node id");
            this.node = Objects.requireNonNull(node, "node");
        }

        /**
         * Declares the JSON Schema of the node's input: when the graph compiles, the output schema of
         * each node leading here must fit it.
         *
         * @throws IllegalArgumentException for a schema whose {@code type} names no JSON type
         */
        public Builder inputSchema(com.fasterxml.jackson.databind.node.ObjectNode schema) {
            this.inputSchema = requireSchema(schema, "input");
            return this;
        }

        /** Declares the JSON Schema of the node's output, checked against the input schemas of the nodes it leads to. */
        public Builder outputSchema(com.fasterxml.jackson.databind.node.ObjectNode schema) {
            this.outputSchema = requireSchema(schema, "output");
            return this;
        }

        private com.fasterxml.jackson.databind.node.ObjectNode requireSchema(
                com.fasterxml.jackson.databind.node.ObjectNode schema, String which) {
            Objects.requireNonNull(schema, which + " schema");
            JsonNode type = schema.path("type");
            List<JsonNode> names = new java.util.ArrayList<>();
            if (type.isArray()) {
                type.forEach(names::add);
            } else if (!type.isMissingNode()) {
                names.add(type);
            }
            for (JsonNode name : names) {
                if (!name.isTextual() || !SchemaFit.TYPE_NAMES.contains(name.asText())) {
                    throw new IllegalArgumentException("the " + which + " schema of node '" + id
                            + "' has a type that is not a JSON type (" + SchemaFit.TYPE_NAMES + "): " + type);
                }
            }
            return schema.deepCopy();
        }

        public Builder name(String name) {
            this.name = requireName(name, "node name");
            return this;
        }

        public Builder type(String type) {
            this.type = requireName(type, "node type");
            return this;
        }

        /**
         * Declares the handles the node routes by. A branch node must have an edge for each of them
         * (or none at all, ending its path), and may not route by any other.
         */
        public Builder handles(String... handles) {
            this.handles.clear();
            for (String handle : handles) {
                if (!this.handles.add(requireName(handle, "handle"))) {
                    throw new IllegalArgumentException("handle '" + handle + "' is declared twice");
                }
            }
            return this;
        }

        /** How an output picks its handle when the node does not say (and for pinned outputs). */
        public Builder router(Function<JsonNode, String> router) {
            this.router = Objects.requireNonNull(router, "router");
            return this;
        }

        /** Routes by a boolean field of the output: {@code positive} when true, else {@code negative}. */
        public Builder booleanBranch(String field) {
            requireName(field, "field");
            handles(Graph.POSITIVE, Graph.NEGATIVE);
            return router(output -> output.path(field).asBoolean(false) ? Graph.POSITIVE : Graph.NEGATIVE);
        }

        public Builder maxVisits(int maxVisits) {
            if (maxVisits < 1) {
                throw new IllegalArgumentException(
                        "visit limit of node '" + id + "' must be positive, was " + maxVisits);
            }
            this.maxVisits = maxVisits;
            return this;
        }

        public Builder retry(RetryPolicy retryPolicy) {
            this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
            return this;
        }

        /**
         * Runs the node on a worker process when the runner has a {@link
         * dev.weft.core.spi.StepDispatcher}: its input and the outputs it may read go to the queue, a
         * worker rebuilds the run's graph and runs the node, and its outcome completes the step; the
         * run holds no thread meanwhile. Without a dispatcher, or while its queue cannot be reached,
         * the node runs in the driving process as any other. A queued node must not interrupt (wait
         * for a person): on a worker that fails the step.
         */
        public Builder queued(boolean queued) {
            this.queued = queued;
            return this;
        }

        public NodeSpec build() {
            return new NodeSpec(this);
        }
    }

    static String requireName(String value, String what) {
        Objects.requireNonNull(value, what);
        if (value.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
        return value;
    }
}
