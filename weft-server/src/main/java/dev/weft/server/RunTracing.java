package dev.weft.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Event;
import dev.weft.core.RunListener;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * OpenTelemetry spans from a runner's events: one per run (from its start, resume or recovery to its
 * end or wait), one per step under it, one per tool call under its step ({@code execute_tool <tool>},
 * with the gen_ai semantic conventions' {@code gen_ai.operation.name} and {@code gen_ai.tool.name}),
 * and one per model call ({@code chat <model>}, with {@code gen_ai.provider.name}, {@code
 * gen_ai.request.model} and the token counts). Spans take the events' own times, so they show when
 * things happened even though a listener hears of them once they are committed. Thread-safe.
 */
public final class RunTracing implements RunListener {
    static final AttributeKey<String> RUN_ID = AttributeKey.stringKey("weft.run.id");
    static final AttributeKey<String> GRAPH = AttributeKey.stringKey("weft.graph.id");
    static final AttributeKey<String> NODE = AttributeKey.stringKey("weft.node.id");
    static final AttributeKey<Long> STEP = AttributeKey.longKey("weft.step.order");
    static final AttributeKey<String> STATUS = AttributeKey.stringKey("weft.status");
    static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> TOOL = AttributeKey.stringKey("gen_ai.tool.name");
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    static final AttributeKey<String> MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    /** The event a model call is reported by, once it answered. */
    static final String MODEL_CALLED = "model.called";

    /** Where a run's input keeps the model calls made for it before it started (a planner's). */
    static final String CALLS_BEFORE_RUN = "modelCalls";

    private final Tracer tracer;
    private final Map<String, Span> runs = new ConcurrentHashMap<>();
    private final Map<String, Span> steps = new ConcurrentHashMap<>();
    private final Map<String, Span> tools = new ConcurrentHashMap<>();

    private RunTracing(Tracer tracer) {
        this.tracer = tracer;
    }

    /** Spans through {@code openTelemetry}'s tracer {@code dev.weft}. */
    public static RunTracing create(OpenTelemetry openTelemetry) {
        return new RunTracing(
                Objects.requireNonNull(openTelemetry, "openTelemetry").getTracer("dev.weft"));
    }

    /**
     * The OpenTelemetry SDK exporting over OTLP (HTTP) to {@code OTEL_EXPORTER_OTLP_ENDPOINT} when the
     * environment sets it (spans go to {@code <endpoint>/v1/traces}, as {@code OTEL_SERVICE_NAME} or
     * {@code weft}); empty when it does not, so that nothing is traced by default. Close it to flush.
     */
    public static Optional<OpenTelemetrySdk> fromEnvironment(Map<String, String> env) {
        String endpoint = env.get("OTEL_EXPORTER_OTLP_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()) {
            return Optional.empty();
        }
        String traces = env.getOrDefault("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "");
        if (traces.isBlank()) {
            traces = endpoint.strip().replaceAll("/+$", "") + "/v1/traces";
        }
        String service = env.getOrDefault("OTEL_SERVICE_NAME", "");
        Resource resource = Resource.getDefault()
                .merge(Resource.create(
                        Attributes.of(AttributeKey.stringKey("service.name"), service.isBlank() ? "weft" : service)));
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(resource)
                .addSpanProcessor(BatchSpanProcessor.builder(OtlpHttpSpanExporter.builder()
                                .setEndpoint(traces)
                                .build())
                        .build())
                .build();
        return Optional.of(
                OpenTelemetrySdk.builder().setTracerProvider(provider).build());
    }

    @Override
    public void onEvent(Event event) {
        switch (event.type()) {
            case Event.RUN_STARTED, Event.RUN_RESUMED, Event.RUN_RECOVERED -> startRun(event);
            case Event.RUN_COMPLETED, Event.RUN_FAILED, Event.RUN_CANCELLED, Event.RUN_WAITING -> endRun(event);
            case Event.STEP_STARTED -> startStep(event);
            case Event.STEP_COMPLETED, Event.STEP_FAILED, Event.STEP_SKIPPED, Event.STEP_WAITING -> endStep(event);
            case "tool.called" -> startTool(event);
            case "tool.succeeded", "tool.failed" -> endTool(event);
            case MODEL_CALLED -> modelCall(event);
            default -> {
                // other events are not spans
            }
        }
    }

    private void startRun(Event event) {
        Span previous = runs.remove(event.runId());
        if (previous != null) {
            previous.end(event.time());
        }
        Span span = tracer.spanBuilder("weft.run")
                .setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(event.time())
                .setAttribute(RUN_ID, event.runId())
                .setAttribute("weft.run.event", event.type())
                .startSpan();
        text(event.data(), "graphId").ifPresent(graph -> span.setAttribute(GRAPH, graph));
        runs.put(event.runId(), span);
        if (event.type().equals(Event.RUN_STARTED)) {
            for (JsonNode calls : event.data().findValues(CALLS_BEFORE_RUN)) {
                for (JsonNode call : calls) {
                    callBeforeRun(event, call);
                }
            }
        }
    }

    /**
     * A model call made for the run before it started (a planner's, which its input keeps under {@code
     * modelCalls} with when it answered): a span of the run like any model call's, at its own time.
     */
    private void callBeforeRun(Event event, JsonNode call) {
        Instant end;
        try {
            end = Instant.parse(call.path("at").asText());
        } catch (java.time.format.DateTimeParseException e) {
            end = event.time();
        }
        modelCall(new Event(event.runId(), event.sequence(), MODEL_CALLED, Optional.empty(), 0, end, call));
    }

    private void endRun(Event event) {
        Span span = runs.remove(event.runId());
        if (span == null) {
            return;
        }
        String status = event.type().substring("run.".length()).toUpperCase(java.util.Locale.ROOT);
        span.setAttribute(STATUS, status);
        if (event.type().equals(Event.RUN_FAILED)) {
            fail(span, event.data());
        }
        span.end(event.time());
        steps.keySet().removeIf(key -> key.startsWith(event.runId() + "#"));
        tools.keySet().removeIf(key -> key.startsWith(event.runId() + "#"));
    }

    private void startStep(Event event) {
        Span span = tracer.spanBuilder("weft.step " + event.nodeId().orElse("?"))
                .setParent(parent(runs.get(event.runId())))
                .setStartTimestamp(event.time())
                .setAttribute(RUN_ID, event.runId())
                .setAttribute(NODE, event.nodeId().orElse(""))
                .setAttribute(STEP, (long) event.stepOrder())
                .startSpan();
        steps.put(stepKey(event), span);
    }

    private void endStep(Event event) {
        Span span = steps.remove(stepKey(event));
        if (span == null) {
            return;
        }
        span.setAttribute(STATUS, event.type().substring("step.".length()).toUpperCase(java.util.Locale.ROOT));
        if (event.type().equals(Event.STEP_FAILED)) {
            fail(span, event.data());
        }
        span.end(event.time());
    }

    private void startTool(Event event) {
        String tool = event.data().path("tool").asText("?");
        Span span = tracer.spanBuilder("execute_tool " + tool)
                .setParent(parent(steps.getOrDefault(stepKey(event), runs.get(event.runId()))))
                .setStartTimestamp(event.time())
                .setAttribute(OPERATION, "execute_tool")
                .setAttribute(TOOL, tool)
                .setAttribute(RUN_ID, event.runId())
                .startSpan();
        tools.put(toolKey(event), span);
    }

    private void endTool(Event event) {
        Span span = tools.remove(toolKey(event));
        if (span == null) {
            return;
        }
        if (event.type().equals("tool.failed")) {
            fail(span, event.data());
        }
        span.end(event.time());
    }

    /** A model call, reported once it answered: its span ends then and began its latency earlier. */
    private void modelCall(Event event) {
        JsonNode data = event.data();
        String model = data.path("model").asText("?");
        Instant end = event.time();
        Instant start = end.minusMillis(data.path("latencyMs").asLong(0));
        Span span = tracer.spanBuilder("chat " + model)
                .setSpanKind(SpanKind.CLIENT)
                .setParent(parent(steps.getOrDefault(stepKey(event), runs.get(event.runId()))))
                .setStartTimestamp(start)
                .setAttribute(OPERATION, "chat")
                .setAttribute(PROVIDER, data.path("provider").asText("?"))
                .setAttribute(MODEL, model)
                .setAttribute(RUN_ID, event.runId())
                .startSpan();
        if (data.path("inputTokens").isNumber()) {
            span.setAttribute(INPUT_TOKENS, data.get("inputTokens").asLong());
        }
        if (data.path("outputTokens").isNumber()) {
            span.setAttribute(OUTPUT_TOKENS, data.get("outputTokens").asLong());
        }
        span.end(end);
    }

    private static void fail(Span span, JsonNode data) {
        JsonNode error = data.has("error") ? data.get("error") : data;
        String code = error.path("code").asText("E_NODE_FAILED");
        span.setAttribute(ERROR_TYPE, code);
        span.setStatus(StatusCode.ERROR, error.path("message").asText(code));
    }

    private static Context parent(Span span) {
        return span == null ? Context.root() : Context.root().with(span);
    }

    private static String stepKey(Event event) {
        return event.runId() + "#" + event.stepOrder();
    }

    private static String toolKey(Event event) {
        return event.runId() + "#" + event.stepOrder() + "#"
                + event.data().path("stepId").asText("") + "#"
                + event.data().path("tool").asText("");
    }

    private static Optional<String> text(JsonNode data, String field) {
        return data.path(field).isTextual() ? Optional.of(data.get(field).asText()) : Optional.empty();
    }
}
