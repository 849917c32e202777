package dev.weft.core.spi;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The state a run needs to continue, written with every step's result: every node output so far,
 * visit counts, the activations not yet completed (queued or in flight), the nodes waiting on an
 * interrupt, and the paths that have ended. A run resumed, recovered or forked starts from one.
 *
 * @param afterStep the order of the step whose result this checkpoint records (0 for the one
 *     written when the run started)
 * @param nextOrder the number of steps the run had created when this was written
 */
public record Checkpoint(
        String runId,
        int afterStep,
        int nextOrder,
        Instant time,
        Map<String, JsonNode> outputs,
        Map<String, Integer> visits,
        List<Activation> pending,
        List<Waiting> waiting,
        Map<String, JsonNode> ended,
        String lastEnded) {

    public Checkpoint {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(time, "time");
        outputs = Map.copyOf(outputs);
        visits = Map.copyOf(visits);
        pending = List.copyOf(pending);
        waiting = List.copyOf(waiting);
        ended = Map.copyOf(ended);
        Objects.requireNonNull(lastEnded, "lastEnded");
    }

    /** The same state, for another run (a fork). */
    public Checkpoint forRun(String otherRunId) {
        return new Checkpoint(
                otherRunId, afterStep, nextOrder, time, outputs, visits, pending, waiting, ended, lastEnded);
    }

    /** A node that was activated and has not completed: its step and the outputs that reached it. */
    public record Activation(String nodeId, int stepOrder, List<Arrival> arrivals) {
        public Activation {
            Objects.requireNonNull(nodeId, "nodeId");
            arrivals = List.copyOf(arrivals);
        }
    }

    /** An output delivered along an edge ({@code from} is {@code START} for the run input). */
    public record Arrival(String from, JsonNode value) {
        public Arrival {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(value, "value");
        }
    }

    /** A node that interrupted the run: the step, the input it ran with and its payload. */
    public record Waiting(String nodeId, int stepOrder, JsonNode input, JsonNode payload) {
        public Waiting {
            Objects.requireNonNull(nodeId, "nodeId");
            Objects.requireNonNull(input, "input");
            Objects.requireNonNull(payload, "payload");
        }
    }
}
