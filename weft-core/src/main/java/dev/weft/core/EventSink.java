package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/** Numbers a run's events, stores them and hands them to the listeners. Thread-safe. */
final class EventSink {
    private static final System.Logger LOG = System.getLogger(EventSink.class.getName());

    private final Runner runner;
    private final String runId;
    private final AtomicLong sequence;

    EventSink(Runner runner, String runId, long lastSequence) {
        this.runner = runner;
        this.runId = runId;
        this.sequence = new AtomicLong(lastSequence);
    }

    void emit(String type, @Nullable String nodeId, int stepOrder, JsonNode data) {
        Event event = new Event(
                runId,
                sequence.incrementAndGet(),
                type,
                Optional.ofNullable(nodeId),
                stepOrder,
                runner.time().now(),
                data);
        runner.store().appendEvent(event);
        for (RunListener listener : runner.listeners()) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "run listener failed on " + type + " of run " + runId, e);
            }
        }
    }
}
