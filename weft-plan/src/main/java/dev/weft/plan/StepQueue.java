package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;

/**
 * Where tool calls are executed: in this process (the default), or handed to workers (a distributed
 * queue plugs in here). Implementations are thread-safe.
 */
public interface StepQueue {
    /** One call to execute. */
    record Invocation(Tool tool, ObjectNode args, ToolContext context) {
        public Invocation {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(args, "args");
            Objects.requireNonNull(context, "context");
        }
    }

    /** Executes {@code invocation}; the future fails with what the tool threw. */
    CompletableFuture<JsonNode> submit(Invocation invocation);

    /**
     * Calls the tool in this process, each call on a virtual thread of its own, so that a call that
     * overruns its timeout can be abandoned.
     */
    static StepQueue inline() {
        return InlineStepQueue.INSTANCE;
    }
}

/** The default queue: a virtual thread per call. */
enum InlineStepQueue implements StepQueue {
    INSTANCE;

    private final Executor threads = Executors.newVirtualThreadPerTaskExecutor();

    @Override
    public CompletableFuture<JsonNode> submit(Invocation invocation) {
        return CompletableFuture.supplyAsync(
                () -> invocation.tool().invoke(invocation.args(), invocation.context()), threads);
    }
}
