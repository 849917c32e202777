package dev.weft.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** The tools steps may call, by name. Immutable; {@link #with} returns a new registry. */
public final class ToolRegistry {
    private final Map<String, Tool> tools;

    private ToolRegistry(Map<String, Tool> tools) {
        this.tools = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tools));
    }

    public static ToolRegistry of(Tool... tools) {
        ToolRegistry registry = new ToolRegistry(Map.of());
        for (Tool tool : tools) {
            registry = registry.with(tool);
        }
        return registry;
    }

    /** This registry plus {@code tool}; a tool of the same name is an error. */
    public ToolRegistry with(Tool tool) {
        Objects.requireNonNull(tool, "tool");
        if (tools.containsKey(tool.name())) {
            throw new IllegalArgumentException("a tool named '" + tool.name() + "' is already registered");
        }
        Map<String, Tool> copy = new LinkedHashMap<>(tools);
        copy.put(tool.name(), tool);
        return new ToolRegistry(copy);
    }

    public Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    public List<Tool> all() {
        return List.copyOf(tools.values());
    }
}
