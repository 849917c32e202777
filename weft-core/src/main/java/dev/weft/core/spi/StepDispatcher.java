package dev.weft.core.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Hands the work of steps to worker processes (a queue such as {@code weft-redis}'s), so that the run
 * waiting for it holds no thread. A runner given one ({@code Runner.Builder#dispatcher}) dispatches
 * through it what its nodes ask to ({@code NodeContext#dispatch}) and the nodes marked queued; the
 * worker's outcome comes back through {@code Runner#deliver}. Implementations are thread-safe.
 *
 * <p>An outcome is a JSON object, the same for every kind of work: {@code {"value": …, "events":
 * [{"type", "data"}…], "facts": {…}}} when the worker ran it ({@code value} is the kind's own), or
 * {@code {"error": {"code", "message"}, …}} when it could not be run (the run was cancelled, the entry
 * was dead-lettered); {@link #ran} and {@link #failed} make them. The events and facts are what the
 * work reported as it ran; the runner writes them into the run's log and onto the step.
 */
public interface StepDispatcher {
    /** The kind of work of a workflow node marked queued: the worker runs the node itself. */
    String NODE_KIND = "weft.node";

    /**
     * Queues {@code step}'s work. Never blocks for long: when the queue cannot be reached it answers
     * {@link Dispatch.Unavailable} (the step then runs in this process) rather than wait.
     */
    Dispatch dispatch(DispatchedStep step);

    /**
     * Called once by each runner built with this dispatcher, at the end of its construction, so that
     * the dispatcher can deliver outcomes to it ({@link dev.weft.core.Runner#deliver}). Does nothing by
     * default.
     */
    default void bind(dev.weft.core.Runner runner) {}

    /** What a dispatcher did with a step's work. */
    sealed interface Dispatch {
        /** Queued; {@code where} says where, for the run's log (a stream and entry id). */
        record Queued(String where) implements Dispatch {
            public Queued {
                Objects.requireNonNull(where, "where");
            }
        }

        /** Not queued: the queue cannot be reached now, for {@code reason}. The step runs here. */
        record Unavailable(String reason) implements Dispatch {
            public Unavailable {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    /**
     * One step's work to queue: the run and step it belongs to, the kind of work (which tells a
     * worker how to run it: {@link #NODE_KIND}, or a kind a module defines, such as plan tool calls)
     * and the work itself.
     */
    record DispatchedStep(
            String runId,
            Optional<String> user,
            String graphId,
            int stepOrder,
            String nodeId,
            String kind,
            JsonNode work) {
        public DispatchedStep {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(graphId, "graphId");
            Objects.requireNonNull(nodeId, "nodeId");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(work, "work");
        }
    }

    /** The outcome of work a worker ran: its {@code value}, with the events and facts it reported. */
    static ObjectNode ran(JsonNode value, ArrayNode events, Map<String, JsonNode> facts) {
        ObjectNode outcome = Json.object();
        outcome.set("value", value);
        outcome.set("events", events);
        ObjectNode factObject = outcome.putObject("facts");
        facts.forEach(factObject::set);
        return outcome;
    }

    /** The outcome of work that could not be run: the step fails with {@code code} and {@code message}. */
    static ObjectNode failed(ErrorCode code, String message) {
        ObjectNode outcome = Json.object();
        ObjectNode error = outcome.putObject("error");
        error.put("code", code.name());
        error.put("message", message);
        outcome.putArray("events");
        outcome.putObject("facts");
        return outcome;
    }
}
