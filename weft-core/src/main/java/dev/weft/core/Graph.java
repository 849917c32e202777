package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A compiled graph: nodes joined by edges that carry handles, checked so that it can run. Immutable
 * and thread-safe; one graph serves any number of concurrent runs.
 *
 * <p>Routing: when a node completes it picks a handle; every edge from it that carries that handle
 * is followed, in parallel. A node reached by several edges runs once every predecessor that is
 * still running, or could still deliver to it, has finished; its input is then the shallow merge of
 * the object outputs that arrived (in the order its incoming edges were declared), or, when some of
 * them are not objects, an object of them keyed by the delivering node's name. A node with no
 * outgoing edge ends its path; the run completes when no path is left.
 */
public final class Graph {
    /** The fixed entry: edges from {@code START} name the nodes a run begins with. */
    public static final String START = "START";
    /** The fixed exit: an edge to {@code END} ends its path, as a node without outgoing edges does. */
    public static final String END = "END";
    /** The handle of a plain edge. */
    public static final String OUTPUT = "output";
    /** The handle a condition or guardrail takes when it holds. */
    public static final String POSITIVE = "positive";
    /** The handle a condition or guardrail takes when it does not hold. */
    public static final String NEGATIVE = "negative";

    private final String id;
    private final Map<String, NodeSpec> nodes;
    private final List<Edge> edges;
    private final Map<String, JsonNode> variables;
    private final List<String> entries;
    private final Map<String, Map<String, List<String>>> outgoing;
    private final Map<String, List<String>> predecessors;
    private final Map<String, Integer> index;
    private final BitSet[] reaches;

    private Graph(
            String id,
            Map<String, NodeSpec> nodes,
            List<Edge> edges,
            Map<String, JsonNode> variables,
            Map<String, Integer> index,
            BitSet[] reaches) {
        this.id = id;
        this.nodes = nodes;
        this.edges = edges;
        this.variables = variables;
        this.index = index;
        this.reaches = reaches;
        List<String> entries = new ArrayList<>();
        Map<String, Map<String, List<String>>> outgoing = new HashMap<>();
        Map<String, List<String>> predecessors = new HashMap<>();
        for (Edge edge : edges) {
            if (edge.source().equals(START)) {
                entries.add(edge.target());
                continue;
            }
            outgoing.computeIfAbsent(edge.source(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(edge.handle(), k -> new ArrayList<>())
                    .add(edge.target());
            if (!edge.target().equals(END)) {
                List<String> preds = predecessors.computeIfAbsent(edge.target(), k -> new ArrayList<>());
                if (!preds.contains(edge.source())) {
                    preds.add(edge.source());
                }
            }
        }
        this.entries = List.copyOf(entries);
        Map<String, Map<String, List<String>>> frozen = new HashMap<>();
        outgoing.forEach((source, byHandle) -> {
            Map<String, List<String>> copy = new LinkedHashMap<>();
            byHandle.forEach((handle, targets) -> copy.put(handle, List.copyOf(targets)));
            frozen.put(source, Map.copyOf(copy));
        });
        this.outgoing = Map.copyOf(frozen);
        Map<String, List<String>> frozenPreds = new HashMap<>();
        predecessors.forEach((k, v) -> frozenPreds.put(k, List.copyOf(v)));
        this.predecessors = Map.copyOf(frozenPreds);
    }

    public static Builder builder(String id) {
        return new Builder(id);
    }

    public String id() {
        return id;
    }

    /** The nodes, in the order they were added. */
    public Map<String, NodeSpec> nodes() {
        return nodes;
    }

    public Optional<NodeSpec> node(String nodeId) {
        return Optional.ofNullable(nodes.get(nodeId));
    }

    public List<Edge> edges() {
        return edges;
    }

    /** The graph's default variables; a run may override them. */
    public Map<String, JsonNode> variables() {
        return variables;
    }

    /** The nodes a run starts with. */
    public List<String> entries() {
        return entries;
    }

    /** The targets of {@code nodeId}'s edges that carry {@code handle} ({@link #END} included). */
    public List<String> targets(String nodeId, String handle) {
        Map<String, List<String>> byHandle = outgoing.get(nodeId);
        if (byHandle == null) {
            return List.of();
        }
        return byHandle.getOrDefault(handle, List.of());
    }

    /** The nodes with an edge into {@code nodeId}, in the order those edges were declared. */
    public List<String> predecessors(String nodeId) {
        return predecessors.getOrDefault(nodeId, List.of());
    }

    /** Whether a path of one or more edges leads from {@code from} to {@code to}. */
    public boolean canReach(String from, String to) {
        Integer f = index.get(from);
        Integer t = index.get(to);
        return f != null && t != null && reaches[f].get(t);
    }

    /** The graph as a Mermaid flowchart. */
    public String toMermaid() {
        StringBuilder out = new StringBuilder("flowchart TD\n");
        out.append("  START([START])\n");
        for (NodeSpec node : nodes.values()) {
            String label = mermaidLabel(node.name() + " (" + node.type() + ")");
            boolean branch = node.isBranch();
            out.append("  ")
                    .append(mermaidId(node.id()))
                    .append(branch ? "{" : "[")
                    .append(label)
                    .append(branch ? "}" : "]")
                    .append('\n');
        }
        boolean usesEnd = false;
        for (Edge edge : edges) {
            usesEnd |= edge.target().equals(END);
            out.append("  ").append(edge.source().equals(START) ? "START" : mermaidId(edge.source()));
            out.append(edge.handle().equals(OUTPUT) ? " --> " : " -->|" + edge.handle() + "| ");
            out.append(edge.target().equals(END) ? "END" : mermaidId(edge.target()))
                    .append('\n');
        }
        if (usesEnd) {
            out.append("  END([END])\n");
        }
        return out.toString();
    }

    private static String mermaidId(String nodeId) {
        return "n_" + nodeId.replaceAll("[^A-Za-z0-9_]", "_");
    }

    private static String mermaidLabel(String text) {
        return "\"" + text.replace("\"", "#quot;") + "\"";
    }

    @Override
    public String toString() {
        return "Graph[" + id + ", " + nodes.size() + " nodes, " + edges.size() + " edges]";
    }

    /**
     * Collects nodes and edges; {@link #compile()} checks them and returns the graph. Not thread-safe.
     */
    public static final class Builder {
        private final String id;
        private final List<NodeSpec> nodes = new ArrayList<>();
        private final List<Edge> edges = new ArrayList<>();
        private final Map<String, JsonNode> variables = new LinkedHashMap<>();

        private Builder(String id) {
            this.id = NodeSpec.requireName(id, "graph id");
        }

        /** Adds a plain node whose type is {@code node}. */
        public Builder node(String nodeId, Node node) {
            return node(NodeSpec.builder(nodeId, node).build());
        }

        public Builder node(NodeSpec spec) {
            nodes.add(Objects.requireNonNull(spec, "spec"));
            return this;
        }

        /**
         * Adds a node that runs {@code subgraph} as a child run: its input is the node's input, its
         * output the child run's output; an interrupt inside the child pauses this run too.
         */
        public Builder subgraph(String nodeId, Graph subgraph) {
            Objects.requireNonNull(subgraph, "subgraph");
            return subgraph(nodeId, context -> subgraph);
        }

        /**
         * Adds a node that runs the graph {@code graphFor} builds from the step's context (a plan read
         * from the node's input, say) as a child run. {@code graphFor} is called again, with the same
         * input, when an interrupted child is resumed, and must build the same graph.
         */
        public Builder subgraph(String nodeId, java.util.function.Function<NodeContext, Graph> graphFor) {
            Objects.requireNonNull(graphFor, "graphFor");
            return node(NodeSpec.builder(nodeId, new SubgraphNode(graphFor))
                    .type("subgraph")
                    .build());
        }

        /** Adds a plain edge: {@code source} leads to {@code target} ({@link #START}, {@link #END} allowed). */
        public Builder edge(String source, String target) {
            return edge(source, OUTPUT, target);
        }

        /** Adds an edge taken when {@code source} routes by {@code handle}. */
        public Builder edge(String source, String handle, String target) {
            edges.add(new Edge(
                    NodeSpec.requireName(source, "edge source"),
                    NodeSpec.requireName(handle, "edge handle"),
                    NodeSpec.requireName(target, "edge target")));
            return this;
        }

        /** Sets a default variable, visible to every node and overridable per run. */
        public Builder variable(String name, JsonNode value) {
            variables.put(NodeSpec.requireName(name, "variable name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Checks the graph and returns it.
         *
         * @throws GraphInvalidException listing every problem, each naming the node and the rule
         */
        public Graph compile() {
            List<String> problems = new ArrayList<>();
            Map<String, NodeSpec> byId = new LinkedHashMap<>();
            for (NodeSpec node : nodes) {
                if (node.id().equals(START) || node.id().equals(END)) {
                    problems.add("node '" + node.id() + "': the ids START and END are reserved");
                } else if (byId.putIfAbsent(node.id(), node) != null) {
                    problems.add("node '" + node.id() + "' is defined more than once");
                }
            }
            Set<Edge> seen = new HashSet<>();
            boolean hasEntry = false;
            Map<String, Set<String>> handlesUsed = new HashMap<>();
            for (Edge edge : edges) {
                if (!seen.add(edge)) {
                    problems.add("connection " + edge + " is declared twice");
                    continue;
                }
                boolean sourceOk = true;
                if (edge.source().equals(END)) {
                    problems.add("connection " + edge + ": END has no outgoing connections");
                    sourceOk = false;
                } else if (edge.source().equals(START)) {
                    hasEntry = true;
                    if (!edge.handle().equals(OUTPUT)) {
                        problems.add("connection " + edge + ": START has only the handle 'output'");
                    }
                } else if (!byId.containsKey(edge.source())) {
                    problems.add("connection " + edge + " starts at unknown node '" + edge.source() + "'");
                    sourceOk = false;
                } else {
                    NodeSpec source = byId.get(edge.source());
                    if (!source.handles().contains(edge.handle())) {
                        problems.add("node '" + source.id() + "' has no handle '" + edge.handle() + "' (its handles: "
                                + String.join(", ", source.handles()) + ")");
                    }
                    handlesUsed
                            .computeIfAbsent(source.id(), k -> new HashSet<>())
                            .add(edge.handle());
                }
                if (edge.target().equals(START)) {
                    problems.add("connection " + edge + ": nothing may lead into START");
                } else if (!edge.target().equals(END) && !byId.containsKey(edge.target())) {
                    problems.add("connection " + edge + " leads to unknown node '" + edge.target() + "'");
                } else if (sourceOk
                        && edge.source().equals(START)
                        && edge.target().equals(END)) {
                    problems.add("connection " + edge + " runs nothing");
                }
            }
            if (!hasEntry && !byId.isEmpty()) {
                problems.add("the graph has no entry: connect START to the first node");
            }
            if (byId.isEmpty()) {
                problems.add("the graph has no nodes");
            }
            for (NodeSpec node : byId.values()) {
                Set<String> used = handlesUsed.get(node.id());
                if (node.isBranch() && used != null) {
                    for (String handle : node.handles()) {
                        if (!used.contains(handle)) {
                            problems.add("node '" + node.id() + "': handle '" + handle
                                    + "' leads nowhere (connect it to a node or to END)");
                        }
                    }
                }
            }
            if (!problems.isEmpty()) {
                throw new GraphInvalidException(problems);
            }

            Map<String, Integer> index = new HashMap<>();
            List<String> ids = new ArrayList<>(byId.keySet());
            for (int i = 0; i < ids.size(); i++) {
                index.put(ids.get(i), i);
            }
            List<List<Integer>> successors = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                successors.add(new ArrayList<>());
            }
            BitSet exits = new BitSet();
            BitSet fromStart = new BitSet();
            for (Edge edge : edges) {
                if (edge.source().equals(START)) {
                    fromStart.set(index.get(edge.target()));
                } else if (edge.target().equals(END)) {
                    exits.set(index.get(edge.source()));
                } else {
                    successors.get(index.get(edge.source())).add(index.get(edge.target()));
                }
            }
            for (int i = 0; i < ids.size(); i++) {
                if (successors.get(i).isEmpty()) {
                    exits.set(i);
                }
            }
            BitSet[] reaches = new BitSet[ids.size()];
            for (int i = 0; i < ids.size(); i++) {
                reaches[i] = reachableFrom(List.of(i), successors, false);
            }
            BitSet reachable = reachableFrom(fromStart.stream().boxed().toList(), successors, true);
            for (int i = 0; i < ids.size(); i++) {
                if (!reachable.get(i)) {
                    problems.add("node '" + ids.get(i) + "' cannot be reached from START");
                    continue;
                }
                BitSet canExit = (BitSet) reaches[i].clone();
                canExit.set(i);
                if (!canExit.intersects(exits)) {
                    problems.add("node '" + ids.get(i) + "' cannot reach END: every path from it loops"
                            + " back without a way out");
                }
            }
            checkTypes(byId, problems);
            if (!problems.isEmpty()) {
                throw new GraphInvalidException(problems);
            }
            return new Graph(
                    id,
                    java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byId)),
                    List.copyOf(edges),
                    java.util.Collections.unmodifiableMap(new LinkedHashMap<>(variables)),
                    Map.copyOf(index),
                    reaches);
        }

        /**
         * Checks declared types along the edges: where a node declares its input schema, the output
         * schema of a node leading to it must fit it ({@link SchemaFit}). A node that several nodes
         * lead to gets the shallow merge of their objects, so each property it requires must come
         * from one of them, and fit there; when one of them may output something other than an
         * object, the merge is keyed by node name and is not checked. Undeclared schemas are not
         * checked.
         */
        private void checkTypes(Map<String, NodeSpec> byId, List<String> problems) {
            Map<String, List<NodeSpec>> sources = new LinkedHashMap<>();
            for (Edge edge : edges) {
                NodeSpec source = byId.get(edge.source());
                NodeSpec target = byId.get(edge.target());
                if (source != null && target != null && target.inputSchema().isPresent()) {
                    List<NodeSpec> into = sources.computeIfAbsent(target.id(), k -> new ArrayList<>());
                    if (!into.contains(source)) {
                        into.add(source);
                    }
                }
            }
            sources.forEach((targetId, from) -> {
                NodeSpec target = byId.get(targetId);
                com.fasterxml.jackson.databind.node.ObjectNode input =
                        target.inputSchema().orElseThrow();
                if (from.size() == 1) {
                    NodeSpec source = from.get(0);
                    source.outputSchema()
                            .ifPresent(
                                    output -> SchemaFit.problems(output, input, "the output of '" + source.id() + "'")
                                            .forEach(p -> problems.add("connection '" + source.id() + "' → '" + targetId
                                                    + "': " + p + " by the input of '" + targetId + "'")));
                    return;
                }
                if (from.stream()
                        .anyMatch(n -> n.outputSchema().isEmpty()
                                || !"object"
                                        .equals(n.outputSchema()
                                                .get()
                                                .path("type")
                                                .asText()))) {
                    return;
                }
                com.fasterxml.jackson.databind.node.ObjectNode merged = Json.object();
                merged.put("type", "object");
                com.fasterxml.jackson.databind.node.ObjectNode properties = merged.putObject("properties");
                com.fasterxml.jackson.databind.node.ArrayNode required = merged.putArray("required");
                for (NodeSpec node : from) {
                    JsonNode output = node.outputSchema().orElseThrow();
                    output.path("properties").properties().forEach(e -> properties.set(e.getKey(), e.getValue()));
                    output.path("required").forEach(name -> {
                        if (!contains(required, name.asText())) {
                            required.add(name.asText());
                        }
                    });
                }
                List<String> names = from.stream().map(NodeSpec::id).toList();
                SchemaFit.problems(merged, input, "the merged outputs of " + names)
                        .forEach(p -> problems.add("connections " + names + " → '" + targetId + "': " + p
                                + " by the input of '" + targetId + "'"));
            });
        }

        private static boolean contains(com.fasterxml.jackson.databind.node.ArrayNode array, String text) {
            for (JsonNode item : array) {
                if (item.asText().equals(text)) {
                    return true;
                }
            }
            return false;
        }

        private static BitSet reachableFrom(
                List<Integer> starts, List<List<Integer>> successors, boolean includeStarts) {
            BitSet seen = new BitSet();
            Deque<Integer> queue = new ArrayDeque<>();
            for (int start : starts) {
                if (includeStarts) {
                    seen.set(start);
                }
                queue.add(start);
            }
            while (!queue.isEmpty()) {
                int current = queue.poll();
                for (int next : successors.get(current)) {
                    if (!seen.get(next)) {
                        seen.set(next);
                        queue.add(next);
                    }
                }
            }
            return seen;
        }
    }
}
