package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Event;
import dev.weft.core.Json;
import dev.weft.core.TimeSource;
import dev.weft.llm.Model;
import dev.weft.llm.ModelConfig;
import dev.weft.llm.Provider;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.llm.test.FakeModelServer.Reply;
import dev.weft.memo.Memo;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spans for runs, steps, tool calls and model calls, checked with the SDK's in-memory exporter. */
final class RunTracingTest {
    @TempDir
    Path dir;

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private OpenTelemetrySdk sdk;

    @BeforeEach
    void open() {
        sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(exporter))
                        .build())
                .build();
    }

    @AfterEach
    void close() {
        sdk.close();
    }

    private List<SpanData> named(String prefix) {
        return exporter.getFinishedSpanItems().stream()
                .filter(span -> span.getName().startsWith(prefix))
                .toList();
    }

    @Test
    void aMemoRunIsASpanWithItsStepsAndToolCallsUnderIt() {
        try (ServerFixture fixture = new ServerFixture(dir, builder -> builder.tracing(RunTracing.create(sdk)))) {
            String runId = fixture.ask(fixture.dana, "remind me tomorrow at 9 to call the bank")
                    .path("runId")
                    .asText();

            List<SpanData> runs = named("weft.run");
            List<SpanData> steps = named("weft.step");
            List<SpanData> tools = named("execute_tool");
            assertThat(runs).hasSize(1);
            SpanData run = runs.get(0);
            assertThat(run.getAttributes().get(RunTracing.RUN_ID)).isEqualTo(runId);
            assertThat(run.getAttributes().get(RunTracing.STATUS)).isEqualTo("COMPLETED");
            assertThat(steps).isNotEmpty().allSatisfy(step -> {
                assertThat(step.getTraceId()).isEqualTo(run.getTraceId());
                assertThat(step.getParentSpanId()).isEqualTo(run.getSpanId());
            });
            assertThat(tools).hasSize(1);
            SpanData tool = tools.get(0);
            assertThat(tool.getName()).isEqualTo("execute_tool taskOperations");
            assertThat(tool.getAttributes().get(RunTracing.OPERATION)).isEqualTo("execute_tool");
            assertThat(tool.getAttributes().get(RunTracing.TOOL)).isEqualTo("taskOperations");
            assertThat(steps).extracting(SpanData::getSpanId).contains(tool.getParentSpanId());
            assertThat(tool.getStartEpochNanos()).isLessThanOrEqualTo(tool.getEndEpochNanos());
        }
    }

    @Test
    void thePlannersModelCallIsAGenAiSpanOfTheRunItPlannedLikeEveryOtherModelCall() {
        try (FakeModelServer provider = FakeModelServer.start()) {
            Model model = Model.create(new ModelConfig(
                    Provider.OPENAI,
                    "gpt-4o-mini",
                    Optional.of(provider.openAiBaseUrl()),
                    Optional.of("sk-test"),
                    Duration.ofSeconds(10)));
            provider.enqueue(
                    Reply.text("{\"intentType\": \"conversation\", \"confidence\": 0.9, \"plan\": [{\"id\": \"A\","
                                    + " \"capability\": \"general\", \"action\": \"respond\", \"constraints\":"
                                    + " {\"message\": \"how are you?\"}, \"changes\": {}, \"dependsOn\": []}]}")
                            .withUsage(300, 40, 0),
                    Reply.text("I'm well, thank you!").withUsage(120, 9, 0));
            try (ServerFixture fixture = new ServerFixture(
                    dir,
                    (builder, store) -> builder.tracing(RunTracing.create(sdk))
                            .assistants(ServerFixture.memo(Memo.open(store, model, TimeSource.system()))))) {
                String runId =
                        fixture.ask(fixture.dana, "how are you?").path("runId").asText();

                SpanData run = named("weft.run").get(0);
                List<SpanData> calls = named("chat gpt-4o-mini");
                assertThat(run.getAttributes().get(RunTracing.RUN_ID)).isEqualTo(runId);
                assertThat(calls)
                        .extracting(call -> call.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens")))
                        .containsExactlyInAnyOrder(300L, 120L);
                SpanData planner = calls.stream()
                        .filter(call ->
                                call.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens")) == 300L)
                        .findFirst()
                        .orElseThrow();
                assertThat(planner.getTraceId()).isEqualTo(run.getTraceId());
                assertThat(planner.getParentSpanId()).isEqualTo(run.getSpanId());
                assertThat(planner.getAttributes().get(RunTracing.OPERATION)).isEqualTo("chat");
            }
        }
    }

    @Test
    void aRunThatWaitsEndsItsSpanAndItsResumptionIsAnother() {
        try (ServerFixture fixture = new ServerFixture(dir, builder -> builder.tracing(RunTracing.create(sdk)))) {
            fixture.ask(fixture.dana, "remind me tomorrow at 9 to call the bank");
            String runId = fixture.ask(fixture.dana, "delete all my reminders")
                    .path("runId")
                    .asText();
            fixture.post("api/runs/" + runId + "/approve", fixture.dana, "{}");

            List<SpanData> spans = named("weft.run").stream()
                    .filter(span -> runId.equals(span.getAttributes().get(RunTracing.RUN_ID)))
                    .toList();
            assertThat(spans)
                    .extracting(span -> span.getAttributes().get(RunTracing.STATUS))
                    .containsExactly("WAITING", "COMPLETED");
        }
    }

    @Test
    void aModelCallIsAClientSpanWithTheGenAiAttributesUnderItsStep() {
        RunTracing tracing = RunTracing.create(sdk);
        Instant t0 = Instant.parse("2026-11-25T10:00:00Z");
        tracing.onEvent(event(1, Event.RUN_STARTED, 0, t0, Json.object().put("graphId", "g")));
        tracing.onEvent(
                event(2, Event.STEP_STARTED, 1, t0.plusMillis(1), Json.mapper().nullNode()));
        JsonNode called = Json.object()
                .put("provider", "openai")
                .put("model", "gpt-4o-mini")
                .put("inputTokens", 120)
                .put("outputTokens", 30)
                .put("latencyMs", 250);
        tracing.onEvent(event(3, RunTracing.MODEL_CALLED, 1, t0.plusMillis(260), called));
        tracing.onEvent(event(
                4,
                Event.STEP_FAILED,
                1,
                t0.plusMillis(270),
                Json.object().put("code", "E_MODEL_UNAVAILABLE").put("message", "no key")));
        tracing.onEvent(event(5, Event.RUN_FAILED, 0, t0.plusMillis(280), Json.object()));

        SpanData model = named("chat").get(0);
        SpanData step = named("weft.step").get(0);
        assertThat(model.getName()).isEqualTo("chat gpt-4o-mini");
        assertThat(model.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(model.getParentSpanId()).isEqualTo(step.getSpanId());
        assertThat(model.getAttributes().asMap())
                .containsEntry(AttributeKey.stringKey("gen_ai.operation.name"), "chat")
                .containsEntry(AttributeKey.stringKey("gen_ai.provider.name"), "openai")
                .containsEntry(AttributeKey.stringKey("gen_ai.request.model"), "gpt-4o-mini")
                .containsEntry(AttributeKey.longKey("gen_ai.usage.input_tokens"), 120L)
                .containsEntry(AttributeKey.longKey("gen_ai.usage.output_tokens"), 30L);
        assertThat(model.getEndEpochNanos() - model.getStartEpochNanos()).isEqualTo(250_000_000L);
        assertThat(step.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(step.getAttributes().get(RunTracing.ERROR_TYPE)).isEqualTo("E_MODEL_UNAVAILABLE");
        assertThat(named("weft.run").get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    }

    @Test
    void exportsOverOtlpOnlyWhenTheEnvironmentNamesAnEndpoint() {
        assertThat(RunTracing.fromEnvironment(Map.of())).isEmpty();

        Optional<OpenTelemetrySdk> configured =
                RunTracing.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"));

        assertThat(configured).isPresent();
        configured.get().close();
    }

    private static Event event(long sequence, String type, int step, Instant at, JsonNode data) {
        return new Event("r1", sequence, type, step == 0 ? Optional.empty() : Optional.of("n" + step), step, at, data);
    }
}
