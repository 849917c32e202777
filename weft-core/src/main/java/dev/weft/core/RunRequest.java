package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a run starts with: its input, variable overrides, pinned node outputs and, optionally, its
 * id and its user (the tenant it runs for). Immutable.
 */
public record RunRequest(
        Optional<String> runId,
        JsonNode input,
        Map<String, JsonNode> variables,
        Map<String, JsonNode> pins,
        JsonNode source,
        Optional<String> user) {

    public RunRequest {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(input, "input");
        variables = Map.copyOf(variables);
        pins = Map.copyOf(pins);
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(user, "user");
    }

    public static RunRequest of(JsonNode input) {
        return new RunRequest(Optional.empty(), input, Map.of(), Map.of(), NullNode.getInstance(), Optional.empty());
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * A request to run {@code run}'s graph again: its input, source, user and variables, with each node
     * of {@code pins} pinned to the output of its last completed step in {@code steps} (the run's).
     *
     * @throws WeftException {@code E_BAD_INPUT} for a pin the graph has no node of
     * @throws NotFoundException for a pinned node that has no completed step in the run
     */
    public static Builder rerunOf(Run run, Graph graph, java.util.List<Step> steps, java.util.Collection<String> pins) {
        Builder request = builder().input(run.input()).source(run.source());
        run.user().ifPresent(request::user);
        run.variables().forEach(request::variable);
        for (String pin : pins) {
            if (graph.node(pin).isEmpty()) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "pin " + pin + ": the run's graph has no node '" + pin + "'");
            }
            Step last = null;
            for (Step step : steps) {
                if (step.nodeId().equals(pin) && step.status() == StepStatus.COMPLETED) {
                    last = step;
                }
            }
            if (last == null) {
                throw new NotFoundException(
                        "pin " + pin + ": node '" + pin + "' has no completed step in run '" + run.id() + "'");
            }
            request.pin(pin, last.output());
        }
        return request;
    }

    /** Builds a {@link RunRequest}. */
    public static final class Builder {
        private Optional<String> runId = Optional.empty();
        private JsonNode input = NullNode.getInstance();
        private final Map<String, JsonNode> variables = new LinkedHashMap<>();
        private final Map<String, JsonNode> pins = new LinkedHashMap<>();
        private JsonNode source = NullNode.getInstance();
        private Optional<String> user = Optional.empty();

        private Builder() {}

        /**
         * The user the run is for (its tenant): stored with it, shown by {@code runs list|show},
         * inherited by its child runs, and seen by its nodes ({@link NodeContext#user()}).
         */
        public Builder user(String user) {
            this.user = Optional.of(requireUser(user));
            return this;
        }

        /** What the graph was built from, stored with the run so another process can rebuild it. */
        public Builder source(JsonNode source) {
            this.source = Objects.requireNonNull(source, "source");
            return this;
        }

        public Builder runId(String runId) {
            this.runId = Optional.of(NodeSpec.requireName(runId, "run id"));
            return this;
        }

        public Builder input(JsonNode input) {
            this.input = Objects.requireNonNull(input, "input");
            return this;
        }

        public Builder variable(String name, JsonNode value) {
            variables.put(NodeSpec.requireName(name, "variable name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** The node {@code nodeId} is not executed in this run; its output is {@code output}. */
        public Builder pin(String nodeId, JsonNode output) {
            pins.put(NodeSpec.requireName(nodeId, "pinned node id"), Objects.requireNonNull(output, "output"));
            return this;
        }

        public RunRequest build() {
            return new RunRequest(runId, input, variables, pins, source, user);
        }
    }

    /**
     * @throws IllegalArgumentException for a user id that is blank, longer than 200 characters, or
     *     holds control characters
     */
    public static String requireUser(String user) {
        Objects.requireNonNull(user, "user");
        if (user.isBlank() || user.length() > 200 || user.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException(
                    "a user id must be 1-200 printable characters, not blank; was '" + user + "'");
        }
        return user;
    }
}
