package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.spi.RunStore;
import dev.weft.core.spi.StepDispatcher;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The context of a step's work done by a worker process for a run that another process drives (see
 * {@link StepDispatcher}). The events and facts the work reports are collected, to go back with its
 * outcome ({@link #ran}), since only the driving process writes the run's log; {@link #once} keeps
 * its results in the shared store under the step's idempotency key, exactly as the driving process
 * would, so a call made before a worker died is not made again by the next. Used by one piece of work
 * on one thread (a plan step's expanded calls share one, and take turns recording).
 */
public final class WorkerStep implements NodeContext {
    private final RunStore store;
    private final Run run;
    private final int stepOrder;
    private final String nodeId;
    private final String nodeName;
    private final JsonNode input;
    private final Map<String, JsonNode> variables;
    private final Map<String, JsonNode> outputs;
    private final TimeSource time;
    private final ArrayNode events = Json.mapper().createArrayNode();
    private final Map<String, JsonNode> facts = new LinkedHashMap<>();
    private final ConcurrentMap<String, Object> locals = new ConcurrentHashMap<>();
    private volatile int attempt = 1;

    private WorkerStep(
            RunStore store,
            Run run,
            int stepOrder,
            String nodeId,
            String nodeName,
            JsonNode input,
            Map<String, JsonNode> variables,
            Map<String, JsonNode> outputs,
            TimeSource time) {
        this.store = Objects.requireNonNull(store, "store");
        this.run = Objects.requireNonNull(run, "run");
        this.stepOrder = stepOrder;
        this.nodeId = Objects.requireNonNull(nodeId, "nodeId");
        this.nodeName = Objects.requireNonNull(nodeName, "nodeName");
        this.input = Objects.requireNonNull(input, "input");
        this.variables = Map.copyOf(variables);
        this.outputs = Map.copyOf(outputs);
        this.time = Objects.requireNonNull(time, "time");
    }

    /**
     * The scope of work dispatched for step {@code stepOrder} (node {@code nodeId}) of {@code run}, for
     * work that needs no node input (a plan step's tool calls).
     */
    public static WorkerStep of(RunStore store, Run run, int stepOrder, String nodeId, TimeSource time) {
        return new WorkerStep(store, run, stepOrder, nodeId, nodeId, Json.object(), run.variables(), Map.of(), time);
    }

    /**
     * Runs a queued node's work ({@link StepDispatcher#NODE_KIND}: its input and the outputs it may
     * read) as the driving process would have: with the node's retry policy, on this thread. Returns
     * the outcome to store and deliver: {@code {"value": {"output", "handle"}}}, {@code {"value":
     * {"interrupt": …}}} when the node asked for a person (which fails its step), or {@code {"error"}}
     * when it failed.
     */
    public static ObjectNode runNode(
            Graph graph, Run run, int stepOrder, String nodeId, JsonNode work, RunStore store, TimeSource time) {
        Optional<NodeSpec> found = graph.node(nodeId);
        if (found.isEmpty()) {
            return StepDispatcher.failed(
                    ErrorCode.E_GRAPH_INVALID,
                    "node '" + nodeId + "' is not a node of graph '" + graph.id() + "' (of run '" + run.id() + "')");
        }
        NodeSpec spec = found.get();
        Map<String, JsonNode> vars = new LinkedHashMap<>(graph.variables());
        vars.putAll(run.variables());
        Map<String, JsonNode> outputs = new LinkedHashMap<>();
        work.path("outputs").properties().forEach(e -> outputs.put(e.getKey(), e.getValue()));
        WorkerStep step = new WorkerStep(
                store,
                run,
                stepOrder,
                spec.id(),
                spec.name(),
                work.path("input").isMissingNode() ? Json.object() : work.get("input"),
                vars,
                outputs,
                time);
        RandomGenerator random = RandomGenerator.of("L64X128MixRandom");
        RetryPolicy policy = spec.retryPolicy();
        while (true) {
            try {
                NodeResult result = spec.node().execute(step);
                ObjectNode value = Json.object();
                switch (result) {
                    case NodeResult.Output output -> {
                        value.set("output", output.value());
                        output.handle().ifPresent(handle -> value.put("handle", handle));
                    }
                    case NodeResult.Interrupt interrupt -> value.set("interrupt", interrupt.payload());
                    case NodeResult.Dispatched dispatched ->
                        throw new IllegalStateException("node returned a Dispatched result on a worker");
                }
                return step.ran(value);
            } catch (RuntimeException | Error failure) {
                if (!policy.shouldRetry(step.attempt, failure)) {
                    ObjectNode outcome = failure instanceof WeftException weft
                            ? StepDispatcher.failed(weft.code(), weft.getMessage())
                            : StepDispatcher.failed(
                                    ErrorCode.E_NODE_FAILED,
                                    "node '" + spec.id() + "' failed: "
                                            + failure.getClass().getSimpleName()
                                            + (failure.getMessage() == null ? "" : ": " + failure.getMessage()));
                    outcome.set("events", step.events);
                    return outcome;
                }
                java.time.Duration delay = policy.delayAfter(step.attempt, random);
                ObjectNode data = Json.object();
                data.put("attempt", step.attempt);
                data.put("delayMs", delay.toMillis());
                data.put("error", String.valueOf(failure.getMessage()));
                step.emit(Event.STEP_RETRYING, data);
                try {
                    time.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return StepDispatcher.failed(
                            ErrorCode.E_CANCELLED, "node '" + spec.id() + "' was interrupted while waiting to retry");
                }
                step.attempt++;
            }
        }
    }

    /** The outcome of this work: {@code value}, with the events and facts it reported. */
    public synchronized ObjectNode ran(JsonNode value) {
        return StepDispatcher.ran(value, events.deepCopy(), facts);
    }

    @Override
    public String runId() {
        return run.id();
    }

    @Override
    public Optional<String> user() {
        return run.user();
    }

    @Override
    public String nodeId() {
        return nodeId;
    }

    @Override
    public String nodeName() {
        return nodeName;
    }

    @Override
    public int stepOrder() {
        return stepOrder;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public JsonNode input() {
        return input;
    }

    @Override
    public JsonNode runInput() {
        return run.input();
    }

    @Override
    public Map<String, JsonNode> variables() {
        return variables;
    }

    @Override
    public Map<String, JsonNode> outputs() {
        return outputs;
    }

    /** Empty: a worker runs work that was not resumed. */
    @Override
    public Optional<JsonNode> resumeValue() {
        return Optional.empty();
    }

    @Override
    public Optional<JsonNode> interruptPayload() {
        return Optional.empty();
    }

    @Override
    public boolean cancellationRequested() {
        return store.isCancelRequested(run.id());
    }

    /** Collects the event, to be written into the run's log by the driving process with the outcome. */
    @Override
    public synchronized void emit(String type, JsonNode data) {
        ObjectNode event = events.addObject();
        event.put("type", NodeSpec.requireName(type, "event type"));
        event.set("data", data);
    }

    @Override
    public synchronized void record(String key, JsonNode value) {
        facts.put(NodeSpec.requireName(key, "detail key"), value);
    }

    @Override
    public JsonNode once(String key, Supplier<JsonNode> call) {
        return StepContext.once(store, idempotencyKey(), key, call);
    }

    @Override
    public <T> T runLocal(String key, Class<T> type, Supplier<? extends T> initial) {
        return type.cast(locals.computeIfAbsent(key, k -> Objects.requireNonNull(initial.get(), key)));
    }

    @Override
    public TimeSource time() {
        return time;
    }
}
