package dev.weft.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Graph;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.NodeSpec;
import dev.weft.core.RetryPolicy;
import dev.weft.workflow.WorkflowDefinition.ConnectionDefinition;
import dev.weft.workflow.WorkflowDefinition.NodeDefinition;
import dev.weft.workflow.internal.CelExpressions;
import dev.weft.workflow.spi.NodeConfig;
import dev.weft.workflow.spi.NodeType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * A workflow definition compiled into a runnable {@link Graph}: every node type known, every
 * configuration and CEL expression checked, every graph rule applied. Immutable and thread-safe.
 */
public final class Workflow {
    private static final Set<String> COMMON_CONFIG = Set.of("maxVisits", "retry", "queued");
    private static final Set<String> RETRY_FIELDS =
            Set.of("maxAttempts", "initialDelayMs", "maxDelayMs", "multiplier", "jitter");

    private final WorkflowDefinition definition;
    private final Graph graph;

    private Workflow(WorkflowDefinition definition, Graph graph) {
        this.definition = definition;
        this.graph = graph;
    }

    /** Reads and compiles a workflow file with the standard node types. */
    public static Workflow load(Path file) {
        return compile(WorkflowParser.read(file), NodeTypes.standard());
    }

    /**
     * Compiles {@code definition} with {@code types}.
     *
     * @throws GraphInvalidException listing every problem found, each naming the node or field
     */
    public static Workflow compile(WorkflowDefinition definition, NodeTypes types) {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(types, "types");
        List<String> problems = new ArrayList<>();
        Graph.Builder builder = Graph.builder(definition.id());
        definition.variables().forEach(builder::variable);
        List<String> triggers = new ArrayList<>();
        Set<String> known = new HashSet<>();
        for (NodeDefinition node : definition.nodes()) {
            known.add(node.id());
            NodeType type = types.find(node.type()).orElse(null);
            if (type == null) {
                problems.add("node '" + node.id() + "': unknown type '" + node.type() + "' (known: "
                        + String.join(", ", types.names()) + ")");
                continue;
            }
            if (type.name().equals("trigger")) {
                triggers.add(node.id());
            }
            try {
                builder.node(build(node, type));
            } catch (GraphInvalidException e) {
                problems.addAll(e.problems());
            } catch (IllegalArgumentException e) {
                problems.add("node '" + node.id() + "': " + e.getMessage());
            }
        }
        if (triggers.size() != 1 && !definition.nodes().isEmpty()) {
            problems.add(
                    triggers.isEmpty()
                            ? "the workflow has no trigger node: add one node of type 'trigger' as its entry"
                            : "the workflow has " + triggers.size() + " trigger nodes " + triggers
                                    + "; it needs exactly one");
        }
        for (ConnectionDefinition connection : definition.connections()) {
            if (connection.target().equals(Graph.START)) {
                problems.add("connection " + connection.source() + " -> START: nothing may lead into START");
                continue;
            }
            builder.edge(connection.source(), connection.sourceHandle(), connection.target());
        }
        if (triggers.size() == 1) {
            builder.edge(Graph.START, triggers.get(0));
        }
        if (!problems.isEmpty()) {
            throw new GraphInvalidException(problems);
        }
        return new Workflow(definition, builder.compile());
    }

    private static NodeSpec build(NodeDefinition node, NodeType type) {
        NodeConfig config = new NodeConfig(node, CelExpressions::compile);
        Set<String> allowed = new TreeSet<>(type.configFields());
        allowed.addAll(COMMON_CONFIG);
        for (String field : (Iterable<String>) () -> node.config().fieldNames()) {
            if (!allowed.contains(field)) {
                throw config.problem(
                        field,
                        "is not a setting of type '" + type.name() + "' (its settings: " + String.join(", ", allowed)
                                + ")");
            }
        }
        NodeSpec.Builder spec = type.create(config);
        config.optionalLong("maxVisits", 1)
                .ifPresent(limit -> spec.maxVisits(Math.toIntExact(Math.min(limit, Integer.MAX_VALUE))));
        config.optional("retry").ifPresent(retry -> spec.retry(retryPolicy(config, retry)));
        Optional<JsonNode> queued = config.optional("queued");
        if (queued.isPresent()) {
            if (!queued.get().isBoolean()) {
                throw config.problem("queued", "must be true or false");
            }
            if (queued.get().asBoolean() && !type.queueable()) {
                throw config.problem(
                        "queued",
                        "cannot be true for a node of type '" + type.name()
                                + "': it waits for a person, and a queued node runs on a worker");
            }
            spec.queued(queued.get().asBoolean());
        }
        return spec.build();
    }

    private static RetryPolicy retryPolicy(NodeConfig config, JsonNode retry) {
        if (!retry.isObject()) {
            throw config.problem("retry", "must be an object with " + String.join(", ", new TreeSet<>(RETRY_FIELDS)));
        }
        for (String field : (Iterable<String>) retry::fieldNames) {
            if (!RETRY_FIELDS.contains(field)) {
                throw config.problem(
                        "retry." + field,
                        "is not a retry setting (known: " + String.join(", ", new TreeSet<>(RETRY_FIELDS)) + ")");
            }
        }
        NodeConfig retryConfig = new NodeConfig(
                new NodeDefinition(
                        config.nodeId() + "' retry '",
                        "retry",
                        "retry",
                        (com.fasterxml.jackson.databind.node.ObjectNode) retry),
                source -> {
                    throw new IllegalStateException("no expressions in retry");
                });
        int attempts =
                Math.toIntExact(retryConfig.optionalLong("maxAttempts", 1).orElse(3L));
        long initial = retryConfig.optionalLong("initialDelayMs", 0).orElse(100L);
        long max = retryConfig.optionalLong("maxDelayMs", 0).orElse(Math.max(initial, 10_000L));
        double multiplier = retryConfig.optionalDouble("multiplier", 1.0, 100.0).orElse(2.0);
        double jitter = retryConfig.optionalDouble("jitter", 0.0, 1.0).orElse(0.2);
        try {
            return RetryPolicy.attempts(attempts)
                    .withBackoff(Duration.ofMillis(initial), Duration.ofMillis(max), multiplier)
                    .withJitter(jitter);
        } catch (IllegalArgumentException e) {
            throw config.problem("retry", e.getMessage());
        }
    }

    public WorkflowDefinition definition() {
        return definition;
    }

    public Graph graph() {
        return graph;
    }

    public String id() {
        return definition.id();
    }
}
