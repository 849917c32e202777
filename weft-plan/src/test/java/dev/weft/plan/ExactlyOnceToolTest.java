package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.Event;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.store.InMemoryRunStore;
import dev.weft.plan.Fixtures.Created;
import dev.weft.plan.Fixtures.Title;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A plan step in flight when its process dies is run again by the process that recovers the run. A
 * tool that is not idempotent and whose call completed is not called again; an idempotent one is,
 * with the same idempotency key. The death is played by a runner whose listener never returns from
 * the {@code tool.succeeded} event (the call has returned, the step has not committed), and the
 * recovery by a second runner whose clock is an hour ahead, so the first one's lease has expired.
 */
final class ExactlyOnceToolTest {
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private final InMemoryRunStore store = InMemoryRunStore.create();
    private final AtomicInteger sends = new AtomicInteger();
    private final List<String> keys = new java.util.concurrent.CopyOnWriteArrayList<>();

    private static TimeSource at(Instant instant) {
        return new TimeSource() {
            @Override
            public Instant now() {
                return instant;
            }

            @Override
            public void sleep(Duration duration) {}
        };
    }

    private PlanExecutor executor(boolean idempotent) {
        Tool send = Tool.typed("send", "sends a message", Title.class, Created.class, (in, ctx) -> {
                    keys.add(ctx.idempotencyKey());
                    return new Created("m-" + sends.incrementAndGet(), in.title());
                })
                .idempotent(idempotent)
                .build();
        return PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(Fixtures.passThrough("mail", "send")))
                .tools(ToolRegistry.of(send))
                .build();
    }

    /** A runner whose process "dies" the moment a tool call returns: its listener never lets go of the step. */
    private Runner dyingAfterTheCall(CountDownLatch called) {
        return Runner.builder()
                .store(store)
                .time(at(T0))
                .listener(event -> {
                    if (event.type().equals(PlanEvents.TOOL_SUCCEEDED)) {
                        called.countDown();
                        try {
                            new CountDownLatch(1).await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                })
                .build();
    }

    /** Runs the one-step plan on a runner that dies right after the call returned; recovers it on another. */
    private RunResult crashAfterTheCallAndRecover(PlanExecutor executor) throws InterruptedException {
        CountDownLatch called = new CountDownLatch(1);
        Runner dying = dyingAfterTheCall(called);
        Plan plan = Fixtures.plan("{\"intentType\": \"send\", \"confidence\": 1, \"plan\": [{\"id\": \"A\","
                + " \"capability\": \"mail\", \"action\": \"send\", \"constraints\": {\"title\": \"hello\"}}]}");
        Runner.RunHandle handle = executor.start(dying, plan, PlanRequest.auto(json("null")));
        assertThat(called.await(10, TimeUnit.SECONDS)).isTrue();

        Runner survivor = Runner.builder()
                .store(store)
                .time(at(T0.plus(Duration.ofHours(1))))
                .build();
        assertThat(survivor.recoverable()).extracting(dev.weft.core.Run::id).containsExactly(handle.runId());
        dev.weft.core.Run run = store.findRun(handle.runId()).orElseThrow();
        return survivor.recover(executor.graphOf(run).orElseThrow(), handle.runId());
    }

    @Test
    void aToolThatIsNotIdempotentIsNotCalledAgainWhenItsCallCompletedBeforeTheCrash() throws Exception {
        RunResult recovered = crashAfterTheCallAndRecover(executor(false));

        assertThat(recovered.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(sends).as("the message was sent once").hasValue(1);
        assertThat(PlanExecutor.summary(recovered)
                        .orElseThrow()
                        .results()
                        .get("A")
                        .get("id")
                        .asText())
                .isEqualTo("m-1");
        assertThat(store.events(recovered.runId()).stream()
                        .filter(e -> e.type().equals(PlanEvents.TOOL_SUCCEEDED))
                        .map(Event::data)
                        .filter(d -> d.path("replayed").asBoolean()))
                .hasSize(1);
    }

    @Test
    void aRecoveryWatcherRecoversAPlanRunThroughItsExecutor() throws Exception {
        PlanExecutor executor = executor(false);
        CountDownLatch called = new CountDownLatch(1);
        Runner dying = dyingAfterTheCall(called);
        Plan plan = Fixtures.plan("{\"intentType\": \"send\", \"confidence\": 1, \"plan\": [{\"id\": \"A\","
                + " \"capability\": \"mail\", \"action\": \"send\", \"constraints\": {\"title\": \"hi\"}}]}");
        String runId =
                executor.start(dying, plan, PlanRequest.auto(json("null"))).runId();
        assertThat(called.await(10, TimeUnit.SECONDS)).isTrue();
        Runner survivor = Runner.builder()
                .store(store)
                .time(at(T0.plus(Duration.ofHours(1))))
                .build();

        dev.weft.core.RecoveryWatcher watcher =
                dev.weft.core.RecoveryWatcher.start(survivor, Duration.ofMillis(20), executor::graphOf);
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (store.findRun(runId).orElseThrow().status() != RunStatus.COMPLETED && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        } finally {
            watcher.close();
        }

        assertThat(store.findRun(runId).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(sends).hasValue(1);
    }

    @Test
    void anIdempotentToolIsCalledAgainWithTheSameKey() throws Exception {
        RunResult recovered = crashAfterTheCallAndRecover(executor(true));

        assertThat(recovered.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(sends).hasValue(2);
        assertThat(keys).hasSize(2).containsOnly(recovered.runId() + "/A");
    }
}
