package dev.weft.core;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.spi.RunStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Numbers a run's events, writes them (through the run's {@link WriteBuffer}, or straight to the
 * store when there is none) and hands them to the listeners. Thread-safe.
 */
final class EventSink {
    private static final System.Logger LOG = System.getLogger(EventSink.class.getName());

    private final Runner runner;
    private final String runId;
    private final AtomicLong sequence;
    private final @Nullable WriteBuffer buffer;

    EventSink(Runner runner, String runId, long lastSequence, @Nullable WriteBuffer buffer) {
        this.runner = runner;
        this.runId = runId;
        this.sequence = new AtomicLong(lastSequence);
        this.buffer = buffer;
    }

    /** A lifecycle event: listeners hear of it once it is committed. */
    void emit(String type, @Nullable String nodeId, int stepOrder, JsonNode data) {
        emitForNode(type, Optional.ofNullable(nodeId), stepOrder, data);
    }

    /** A lifecycle event of node {@code nodeId} (empty for the run's own): listeners hear of it once it is committed. */
    void emitForNode(String type, Optional<String> nodeId, int stepOrder, JsonNode data) {
        Event event = event(type, nodeId, stepOrder, data);
        if (buffer == null) {
            runner.store().appendEvent(event);
            notify(runner.listeners(), event);
        } else {
            buffer.add(new RunStore.Change.AppendEvent(event));
            buffer.holdForCommit(event);
        }
    }

    /** A node's own event (a token delta, a tool call): listeners hear of it at once; it is stored with the step. */
    void emitNow(String type, @Nullable String nodeId, int stepOrder, JsonNode data) {
        emitNowForNode(type, Optional.ofNullable(nodeId), stepOrder, data);
    }

    /** A node's own event, for node {@code nodeId}: listeners hear of it at once; it is stored with the step. */
    void emitNowForNode(String type, Optional<String> nodeId, int stepOrder, JsonNode data) {
        Event event = event(type, nodeId, stepOrder, data);
        if (buffer == null) {
            runner.store().appendEvent(event);
        } else {
            buffer.add(new RunStore.Change.AppendEvent(event));
        }
        notify(runner.listeners(), event);
    }

    private Event event(String type, Optional<String> nodeId, int stepOrder, JsonNode data) {
        return new Event(
                runId,
                sequence.incrementAndGet(),
                type,
                nodeId,
                stepOrder,
                runner.time().now(),
                data);
    }

    static void notify(List<RunListener> listeners, Event event) {
        for (RunListener listener : listeners) {
            try {
                listener.onEvent(event);
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "run listener failed on " + event.type() + " of run " + event.runId(),
                        e);
            }
        }
    }
}
