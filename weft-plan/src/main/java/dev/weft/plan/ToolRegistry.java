package dev.weft.plan;

import dev.weft.core.WeftException;
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

    /**
     * Calls tool {@code name} outside the step pipeline (a model's tool call, for instance) with the
     * pipeline's checks: the arguments are validated, a high-risk tool needs {@code context} to be
     * approved, a tool that is not idempotent is called {@link ToolContext#once once} per context, and
     * the result is checked against the output schema. No retries and no timeout: the caller owns them.
     *
     * @throws dev.weft.core.NotFoundException ({@code E_NOT_FOUND}) for an unknown tool
     * @throws WeftException {@code E_ARGS_INVALID}, {@code E_APPROVAL_REQUIRED}, or what the tool threw
     */
    public com.fasterxml.jackson.databind.JsonNode call(
            String name, com.fasterxml.jackson.databind.node.ObjectNode args, ToolContext context) {
        Tool tool = find(name)
                .orElseThrow(() -> new dev.weft.core.NotFoundException(
                        "no tool named '" + name + "'; known: " + String.join(", ", tools.keySet())));
        tool.requireValidInput(context.stepId(), args);
        com.fasterxml.jackson.databind.JsonNode result =
                tool.idempotent() ? tool.invoke(args, context) : context.once("call", () -> tool.invoke(args, context));
        tool.requireValidOutput(result);
        return result;
    }

    public List<Tool> all() {
        return List.copyOf(tools.values());
    }
}
