package dev.weft.redis;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;

/**
 * A worker's metrics through OpenTelemetry (meter {@code dev.weft.redis}): steps finished by outcome
 * ({@code weft.worker.steps}, attribute {@code outcome}: completed, failed, error, dead_lettered),
 * their duration ({@code weft.worker.step.duration}, ms), and gauges of the steps in hand and of the
 * queue ({@code weft.worker.steps.in_hand}, {@code weft.queue.waiting}, {@code
 * weft.queue.in_progress}). Thread-safe.
 */
final class WorkerMetrics {
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outcome");

    private final LongCounter steps;
    private final DoubleHistogram duration;

    WorkerMetrics(OpenTelemetry openTelemetry, Worker worker) {
        Meter meter = openTelemetry.getMeter("dev.weft.redis");
        this.steps = meter.counterBuilder("weft.worker.steps")
                .setDescription("Queued steps a worker finished, by outcome")
                .build();
        this.duration = meter.histogramBuilder("weft.worker.step.duration")
                .setDescription("How long a worker took over a queued step")
                .setUnit("ms")
                .build();
        meter.gaugeBuilder("weft.worker.steps.in_hand")
                .setDescription("Queued steps the worker is running now")
                .ofLongs()
                .buildWithCallback(m -> m.record(worker.status().inHand()));
        meter.gaugeBuilder("weft.queue.waiting")
                .setDescription("Steps on the stream that no worker has taken yet")
                .ofLongs()
                .buildWithCallback(m -> m.record(worker.status().queueWaiting()));
        meter.gaugeBuilder("weft.queue.in_progress")
                .setDescription("Steps taken by workers and not yet acknowledged")
                .ofLongs()
                .buildWithCallback(m -> m.record(worker.status().queueInProgress()));
    }

    void finished(String outcome, long startedNanos) {
        steps.add(1, Attributes.of(OUTCOME, outcome));
        duration.record((System.nanoTime() - startedNanos) / 1e6, Attributes.of(OUTCOME, outcome));
    }

    void deadLettered() {
        steps.add(1, Attributes.of(OUTCOME, "dead_lettered"));
    }
}
