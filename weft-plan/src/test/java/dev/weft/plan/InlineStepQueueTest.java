package dev.weft.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.TransientException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

final class InlineStepQueueTest {
    record Wait(long ms) {}

    record Waited(long ms) {}

    private static Tool sleeper(Duration timeout) {
        return Tool.typed("sleep", "sleeps", Wait.class, Waited.class, (in, ctx) -> {
                    try {
                        Thread.sleep(in.ms());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", e);
                    }
                    return new Waited(in.ms());
                })
                .timeout(timeout)
                .build();
    }

    private static StepQueue.Invocation call(Tool tool, long ms) {
        return new StepQueue.Invocation(tool, Json.object().put("ms", ms), ToolContext.detached("run", "A"));
    }

    /** Runs {@code body} on a virtual thread, as the runtime runs steps, and returns what it returned. */
    private static <T> T onVirtualThread(java.util.function.Supplier<T> body) throws InterruptedException {
        AtomicReference<T> result = new AtomicReference<>();
        Thread.ofVirtual().start(() -> result.set(body.get())).join();
        return result.get();
    }

    record Observed(CompletableFuture<JsonNode> future, boolean interruptedAfter, long millis, boolean sameThread) {}

    private static Observed submit(Tool tool, long ms) throws InterruptedException {
        return onVirtualThread(() -> {
            Thread self = Thread.currentThread();
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            Tool recording = Tool.json(
                            tool.name(),
                            tool.description(),
                            tool.inputSchema(),
                            tool.outputSchema(),
                            (args, context) -> {
                                ranOn.set(Thread.currentThread());
                                return tool.invoke(args, context);
                            })
                    .timeout(tool.timeout())
                    .build();
            long start = System.nanoTime();
            CompletableFuture<JsonNode> future = StepQueue.inline().submit(call(recording, ms));
            long millis = (System.nanoTime() - start) / 1_000_000;
            boolean interrupted = Thread.interrupted();
            return new Observed(future, interrupted, millis, ranOn.get() == self);
        });
    }

    @Test
    void onAVirtualThreadACallRunsOnTheStepsOwnThread() throws Exception {
        Observed observed = submit(sleeper(Duration.ofSeconds(5)), 1);

        assertThat(observed.sameThread()).isTrue();
        assertThat(observed.future().get().get("ms").asLong()).isEqualTo(1);
        assertThat(observed.interruptedAfter()).isFalse();
    }

    @Test
    void aCallThatOverrunsItsTimeoutIsInterruptedAndFailsAsATransientTimeout() throws Exception {
        Observed observed = submit(sleeper(Duration.ofMillis(100)), 10_000);

        assertThat(observed.millis()).isLessThan(5_000);
        assertThat(observed.interruptedAfter())
                .as("the timeout's interrupt is cleared")
                .isFalse();
        assertThatThrownBy(() -> observed.future().get())
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOfSatisfying(
                        TransientException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.E_TOOL_TIMEOUT))
                .hasMessageContaining("'sleep'")
                .hasMessageContaining("100 ms");
    }

    @Test
    void aCallThatEndsInTimeLeavesNoInterruptBehind() throws Exception {
        boolean interruptedLater = onVirtualThread(() -> {
            StepQueue.inline().submit(call(sleeper(Duration.ofMillis(150)), 100));
            try {
                // Past the call's deadline: a stray alarm would interrupt this sleep.
                Thread.sleep(300);
                return Thread.currentThread().isInterrupted();
            } catch (InterruptedException e) {
                return true;
            }
        });

        assertThat(interruptedLater).isFalse();
    }

    @Test
    void offAVirtualThreadACallRunsOnAThreadOfItsOwn() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        Tool tool = Tool.typed("where", "records its thread", Wait.class, Waited.class, (in, ctx) -> {
                    ranOn.set(Thread.currentThread());
                    return new Waited(in.ms());
                })
                .build();

        JsonNode result = StepQueue.inline().submit(call(tool, 1)).get();

        assertThat(result.get("ms").asLong()).isEqualTo(1);
        assertThat(ranOn.get().isVirtual()).isTrue();
        assertThat(ranOn.get()).isNotSameAs(Thread.currentThread());
    }
}
