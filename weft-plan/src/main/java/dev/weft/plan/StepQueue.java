package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.TransientException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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
     * Calls the tool in this process. On a virtual thread the call runs on the step's own thread,
     * interrupted when it overruns the tool's timeout (blocking I/O and sleeps of a virtual thread
     * give way to an interrupt); elsewhere it runs on a virtual thread of its own, abandoned if it
     * overruns.
     */
    static StepQueue inline() {
        return InlineStepQueue.INSTANCE;
    }

    /** The failure of a call that overran its tool's timeout: transient, so it may be retried. */
    static TransientException timedOut(Tool tool) {
        return new TransientException(
                ErrorCode.E_TOOL_TIMEOUT,
                "tool '" + tool.name() + "' did not answer within "
                        + tool.timeout().toMillis() + " ms");
    }
}

/** The default queue: the step's own virtual thread, or a virtual thread per call. */
enum InlineStepQueue implements StepQueue {
    INSTANCE;

    private static final int RUNNING = 0;
    private static final int DONE = 1;
    private static final int TIMING_OUT = 2;
    private static final int INTERRUPTED = 3;

    private final Executor threads = Executors.newVirtualThreadPerTaskExecutor();
    private final ScheduledThreadPoolExecutor alarms = alarmClock();

    private static ScheduledThreadPoolExecutor alarmClock() {
        ScheduledThreadPoolExecutor clock = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "weft-tool-timeouts");
            thread.setDaemon(true);
            return thread;
        });
        // Calls that end in time cancel their alarm; drop it at once rather than at its deadline.
        clock.setRemoveOnCancelPolicy(true);
        return clock;
    }

    @Override
    public CompletableFuture<JsonNode> submit(Invocation invocation) {
        if (!Thread.currentThread().isVirtual()) {
            return CompletableFuture.supplyAsync(
                    () -> invocation.tool().invoke(invocation.args(), invocation.context()), threads);
        }
        Thread caller = Thread.currentThread();
        AtomicInteger state = new AtomicInteger(RUNNING);
        ScheduledFuture<?> alarm = alarms.schedule(
                () -> {
                    if (state.compareAndSet(RUNNING, TIMING_OUT)) {
                        caller.interrupt();
                        state.set(INTERRUPTED);
                    }
                },
                invocation.tool().timeout().toNanos(),
                TimeUnit.NANOSECONDS);
        CompletableFuture<JsonNode> outcome;
        try {
            outcome = CompletableFuture.completedFuture(
                    invocation.tool().invoke(invocation.args(), invocation.context()));
        } catch (RuntimeException e) {
            outcome = CompletableFuture.failedFuture(e);
        }
        if (state.compareAndSet(RUNNING, DONE)) {
            alarm.cancel(false);
            return outcome;
        }
        // The alarm went off: wait until its interrupt has landed, then clear it; the call overran.
        while (state.get() != INTERRUPTED) {
            Thread.onSpinWait();
        }
        Thread.interrupted();
        return CompletableFuture.failedFuture(StepQueue.timedOut(invocation.tool()));
    }
}
