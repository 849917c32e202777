package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/** The {@link NodeContext} of one step. Used by the one thread that runs the step. */
final class StepContext implements NodeContext {
    private final Runner runner;
    private final RunCoordinator coordinator;
    private final String runId;
    private final Optional<String> user;
    private final NodeSpec spec;
    private final int order;
    private final JsonNode input;
    private final JsonNode runInput;
    private final Map<String, JsonNode> variables;
    private final Map<String, JsonNode> outputs;
    private final Optional<JsonNode> resumeValue;
    private final Optional<JsonNode> interruptPayload;
    private final EventSink events;
    private final BooleanSupplier cancelled;
    private final java.util.concurrent.ConcurrentMap<String, Object> runLocals;
    private Map<String, JsonNode> details;
    private int attempt = 1;
    /** The result {@link #dispatch} gave, if it handed the work to a worker. */
    private NodeResult.@org.jspecify.annotations.Nullable Dispatched dispatched;

    StepContext(
            Runner runner,
            RunCoordinator coordinator,
            String runId,
            Optional<String> user,
            NodeSpec spec,
            int order,
            JsonNode input,
            JsonNode runInput,
            Map<String, JsonNode> variables,
            Map<String, JsonNode> outputs,
            Optional<JsonNode> resumeValue,
            Optional<JsonNode> interruptPayload,
            EventSink events,
            BooleanSupplier cancelled,
            java.util.concurrent.ConcurrentMap<String, Object> runLocals,
            Map<String, JsonNode> details) {
        this.runner = runner;
        this.coordinator = coordinator;
        this.details = details;
        this.runId = runId;
        this.user = user;
        this.spec = spec;
        this.order = order;
        this.input = input;
        this.runInput = runInput;
        this.variables = variables;
        this.outputs = java.util.Collections.unmodifiableMap(outputs);
        this.resumeValue = resumeValue;
        this.interruptPayload = interruptPayload;
        this.events = events;
        this.cancelled = cancelled;
        this.runLocals = runLocals;
    }

    void attempt(int attempt) {
        this.attempt = attempt;
    }

    Map<String, JsonNode> details() {
        return details;
    }

    Runner runner() {
        return runner;
    }

    @Override
    public String runId() {
        return runId;
    }

    @Override
    public Optional<String> user() {
        return user;
    }

    @Override
    public String nodeId() {
        return spec.id();
    }

    @Override
    public String nodeName() {
        return spec.name();
    }

    @Override
    public int stepOrder() {
        return order;
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
        return runInput;
    }

    @Override
    public Map<String, JsonNode> variables() {
        return variables;
    }

    @Override
    public Map<String, JsonNode> outputs() {
        return outputs;
    }

    @Override
    public Optional<JsonNode> resumeValue() {
        return resumeValue;
    }

    @Override
    public Optional<JsonNode> interruptPayload() {
        return interruptPayload;
    }

    @Override
    public boolean cancellationRequested() {
        return cancelled.getAsBoolean();
    }

    @Override
    public void emit(String type, JsonNode data) {
        events.emitNowForNode(NodeSpec.requireName(type, "event type"), spec.eventNodeId(), order, data);
    }

    @Override
    public void record(String key, JsonNode value) {
        Map<String, JsonNode> copy = new LinkedHashMap<>(details);
        copy.put(NodeSpec.requireName(key, "detail key"), value);
        details = copy;
    }

    @Override
    public JsonNode once(String key, java.util.function.Supplier<JsonNode> call) {
        return once(runner.store(), idempotencyKey(), key, call);
    }

    /**
     * {@link StepScope#once} over {@code store}: the result kept under {@code idempotencyKey/key}, the
     * call made only when none is kept. A step's work does the same wherever it runs (here, or on a
     * worker: {@link WorkerStep}), so a call made in one place is found in the other.
     */
    static JsonNode once(
            dev.weft.core.spi.RunStore store,
            String idempotencyKey,
            String key,
            java.util.function.Supplier<JsonNode> call) {
        String full = idempotencyKey + "/" + NodeSpec.requireName(key, "idempotency key");
        java.util.Optional<JsonNode> stored = store.idempotentResult(full);
        if (stored.isPresent()) {
            return stored.get();
        }
        return store.saveIdempotentResult(full, call.get());
    }

    @Override
    public <T> T runLocal(String key, Class<T> type, java.util.function.Supplier<? extends T> initial) {
        return type.cast(runLocals.computeIfAbsent(key, k -> java.util.Objects.requireNonNull(initial.get(), key)));
    }

    @Override
    public TimeSource time() {
        return runner.time();
    }

    @Override
    public Optional<NodeResult> dispatch(String kind, JsonNode work) {
        NodeSpec.requireName(kind, "kind of work");
        java.util.Objects.requireNonNull(work, "work");
        Optional<dev.weft.core.spi.StepDispatcher> dispatcher = runner.dispatcher();
        if (dispatcher.isEmpty()) {
            return Optional.empty();
        }
        // Before the work is queued: a worker may deliver its outcome before this returns.
        coordinator.expectDelivery(order);
        dev.weft.core.spi.StepDispatcher.Dispatch answer;
        try {
            answer = dispatcher
                    .get()
                    .dispatch(new dev.weft.core.spi.StepDispatcher.DispatchedStep(
                            runId, user, coordinator.graphId(), order, spec.id(), kind, work));
        } catch (RuntimeException e) {
            answer = new dev.weft.core.spi.StepDispatcher.Dispatch.Unavailable(
                    e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
        com.fasterxml.jackson.databind.node.ObjectNode data = Json.object();
        data.put("kind", kind);
        switch (answer) {
            case dev.weft.core.spi.StepDispatcher.Dispatch.Queued queued -> {
                data.put("queue", queued.where());
                record("queued", data);
                emit(Event.STEP_QUEUED, data);
                dispatched = new NodeResult.Dispatched(kind, work);
                return Optional.of(dispatched);
            }
            case dev.weft.core.spi.StepDispatcher.Dispatch.Unavailable unavailable -> {
                coordinator.dropExpectation(order);
                data.put("reason", unavailable.reason());
                emit(Event.STEP_INLINE, data);
                return Optional.empty();
            }
        }
    }

    /** Whether {@code result} is what {@link #dispatch} gave this step. */
    boolean dispatched(NodeResult.Dispatched result) {
        return dispatched == result;
    }
}
