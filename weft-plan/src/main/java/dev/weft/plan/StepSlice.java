package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a call made for one plan step may be (seed 002's schema slice, held at run time): the tool of
 * the step's capability, the operations of that tool the step's action allows (the tool's top-level
 * {@code operation} argument, as seed 002's tools have it; empty: any), and the arguments that name a
 * target, which the call may not carry because the step named none (an {@code eventId} a model wrote
 * itself). The step pipeline checks every resolved call against its step's slice before anything
 * runs; a call outside it fails the step with {@code E_STEP_MISMATCH}. Immutable.
 */
public record StepSlice(String tool, Set<String> operations, Set<String> lockedArguments) {
    /** The argument of seed 002's tools that names what a call does. */
    public static final String OPERATION = "operation";

    public StepSlice {
        Objects.requireNonNull(tool, "tool");
        operations = Set.copyOf(operations);
        lockedArguments = Set.copyOf(lockedArguments);
        if (tool.isBlank()) {
            throw new IllegalArgumentException("a step slice needs its tool's name, was blank");
        }
    }

    /** Calls of {@code tool} with one of {@code operations}. */
    public static StepSlice of(String tool, String... operations) {
        return new StepSlice(tool, Set.of(operations), Set.of());
    }

    /** This slice, with {@code arguments} (targets the step did not name) refused in a call. */
    public StepSlice locking(String... arguments) {
        java.util.Set<String> locked = new java.util.HashSet<>(lockedArguments);
        locked.addAll(List.of(arguments));
        return new StepSlice(tool, operations, locked);
    }

    /**
     * Why a call of {@code tool} with {@code args} is outside this slice, in words that name what the
     * call did and what the step allows; empty when it is within.
     */
    public Optional<String> mismatch(String tool, JsonNode args) {
        if (!this.tool.equals(tool)) {
            return Optional.of("the call is to tool '" + tool + "', and the step's is '" + this.tool + "'");
        }
        if (!operations.isEmpty()) {
            JsonNode operation = args.path(OPERATION);
            if (!operation.isTextual() || !operations.contains(operation.asText())) {
                return Optional.of("the call's operation is "
                        + (operation.isTextual() ? "'" + operation.asText() + "'" : "missing")
                        + ", and the step allows only " + sorted(operations));
            }
        }
        for (String locked : sorted(lockedArguments)) {
            if (args.has(locked)) {
                return Optional.of("the call names its own target ('" + locked + "'), which the step did not");
            }
        }
        return Optional.empty();
    }

    /**
     * {@code inputSchema} cut to this slice: its {@code operation} enum holds only the operations the
     * step allows (in the schema's own order), and the locked arguments are gone, so a model is shown
     * only what its step may do. The schema is not changed; a copy is returned.
     */
    public ObjectNode slice(ObjectNode inputSchema) {
        ObjectNode slice = inputSchema.deepCopy();
        JsonNode properties = slice.path("properties");
        if (properties instanceof ObjectNode props) {
            lockedArguments.forEach(props::remove);
            JsonNode known = props.path(OPERATION).path("enum");
            if (!operations.isEmpty() && known instanceof ArrayNode values) {
                ArrayNode kept = values.arrayNode();
                values.forEach(v -> {
                    if (operations.contains(v.asText())) {
                        kept.add(v);
                    }
                });
                ((ObjectNode) props.get(OPERATION)).set("enum", kept);
            }
        }
        return slice;
    }

    private static List<String> sorted(Set<String> values) {
        return values.stream().sorted().toList();
    }
}
