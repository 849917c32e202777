package dev.weft.cli;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/** A worker's metrics exported over OTLP (HTTP), when the environment names an endpoint. */
final class WorkerTelemetry {
    private WorkerTelemetry() {}

    /**
     * The OpenTelemetry SDK exporting metrics to {@code OTEL_EXPORTER_OTLP_ENDPOINT}{@code /v1/metrics}
     * (or {@code OTEL_EXPORTER_OTLP_METRICS_ENDPOINT}) every 10 s, as {@code OTEL_SERVICE_NAME} or
     * {@code weft-worker}; empty when no endpoint is set. Close it to flush.
     */
    static Optional<OpenTelemetrySdk> fromEnvironment(Map<String, String> env) {
        String endpoint = env.get("OTEL_EXPORTER_OTLP_ENDPOINT");
        if (endpoint == null || endpoint.isBlank()) {
            return Optional.empty();
        }
        String metrics = env.getOrDefault("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "");
        if (metrics.isBlank()) {
            metrics = endpoint.strip().replaceAll("/+$", "") + "/v1/metrics";
        }
        String service = env.getOrDefault("OTEL_SERVICE_NAME", "");
        Resource resource = Resource.getDefault()
                .merge(Resource.create(Attributes.of(
                        AttributeKey.stringKey("service.name"), service.isBlank() ? "weft-worker" : service)));
        SdkMeterProvider provider = SdkMeterProvider.builder()
                .setResource(resource)
                .registerMetricReader(PeriodicMetricReader.builder(OtlpHttpMetricExporter.builder()
                                .setEndpoint(metrics)
                                .build())
                        .setInterval(Duration.ofSeconds(10))
                        .build())
                .build();
        return Optional.of(OpenTelemetrySdk.builder().setMeterProvider(provider).build());
    }
}
