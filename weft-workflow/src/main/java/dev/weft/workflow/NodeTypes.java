package dev.weft.workflow;

import dev.weft.workflow.internal.StandardNodeTypes;
import dev.weft.workflow.spi.NodeType;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** The node types a workflow may use, by name. Immutable; {@link #with} returns a new registry. */
public final class NodeTypes {
    private final Map<String, NodeType> types;

    private NodeTypes(Map<String, NodeType> types) {
        this.types = Map.copyOf(types);
    }

    /** trigger, condition, guardrail, transform, delay and approval. */
    public static NodeTypes standard() {
        Map<String, NodeType> types = new LinkedHashMap<>();
        StandardNodeTypes.all().forEach(type -> types.put(type.name(), type));
        return new NodeTypes(types);
    }

    /** This registry plus {@code type}, which replaces any type of the same name. */
    public NodeTypes with(NodeType type) {
        Objects.requireNonNull(type, "type");
        Map<String, NodeType> copy = new LinkedHashMap<>(types);
        copy.put(type.name(), type);
        return new NodeTypes(copy);
    }

    public Optional<NodeType> find(String name) {
        return Optional.ofNullable(types.get(name));
    }

    public Collection<String> names() {
        return types.keySet().stream().sorted().toList();
    }
}
