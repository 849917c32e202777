package dev.weft.core;

import static dev.weft.core.Nodes.echo;
import static dev.weft.core.Nodes.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.weft.core.store.InMemoryRunStore;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Runs whose process died are recovered by another runner sharing the store. A process's death is
 * played by a runner whose step never returns, and a second runner whose clock is an hour ahead, so
 * the first one's lease has expired.
 */
final class RecoveryTest {
    private final InMemoryRunStore store = InMemoryRunStore.create();

    private static TimeSource at(Instant instant) {
        return FakeTime.frozenAt(instant);
    }

    @Test
    void recoversARunFromItsLastCheckpointAndRunsTheStepInFlightAgain() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger firstCalls = new AtomicInteger();
        AtomicInteger secondCalls = new AtomicInteger();
        AtomicInteger sideEffects = new AtomicInteger();
        Node first = context -> {
            firstCalls.incrementAndGet();
            return NodeResult.output(IntNode.valueOf(1));
        };
        Node second = context -> {
            if (secondCalls.incrementAndGet() == 1) {
                context.once("charge", () -> IntNode.valueOf(sideEffects.incrementAndGet()));
                stuck.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return NodeResult.output(json("\"late\""));
            }
            return NodeResult.output(context.once("charge", () -> IntNode.valueOf(sideEffects.incrementAndGet())));
        };
        Graph graph = Graph.builder("recover")
                .node("first", first)
                .node("second", second)
                .node("third", echo())
                .edge(Graph.START, "first")
                .edge("first", "second")
                .edge("second", "third")
                .compile();
        Instant t0 = Instant.parse("2026-11-21T10:00:00Z");
        Runner dying = Runner.builder().store(store).time(at(t0)).build();
        Runner.RunHandle handle = dying.start(graph, RunRequest.of(json("0")));
        assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();

        Runner survivor = Runner.builder()
                .store(store)
                .time(at(t0.plus(Duration.ofHours(1))))
                .build();
        assertThat(survivor.recoverable()).extracting(Run::id).containsExactly(handle.runId());
        RunResult recovered = survivor.recover(graph, handle.runId());

        assertThat(recovered.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(firstCalls).hasValue(1);
        assertThat(secondCalls).hasValue(2);
        assertThat(sideEffects).as("the idempotent call was made once").hasValue(1);
        assertThat(recovered.output()).isEqualTo(IntNode.valueOf(1));
        assertThat(recovered.steps()).extracting(Step::nodeId).containsExactly("first", "second", "third");
        assertThat(store.events(handle.runId())).extracting(Event::type).contains(Event.RUN_RECOVERED);

        // The dead process wakes up late: its writes cannot move the finished run or steps back.
        release.countDown();
        RunResult late = handle.result().get(10, TimeUnit.SECONDS);
        assertThat(late.run().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(store.findRun(handle.runId()).orElseThrow().output()).isEqualTo(IntNode.valueOf(1));
        assertThat(store.steps(handle.runId()))
                .allMatch(step -> step.status() == StepStatus.COMPLETED)
                .hasSize(3);
    }

    @Test
    void refusesToRecoverARunAnotherLiveProcessHolds() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Graph graph = Graph.builder("held")
                .node("wait", context -> {
                    stuck.countDown();
                    try {
                        release.await(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return NodeResult.empty();
                })
                .edge(Graph.START, "wait")
                .compile();
        Instant t0 = Instant.parse("2026-11-21T10:00:00Z");
        Runner live = Runner.builder().store(store).time(at(t0)).build();
        Runner.RunHandle handle = live.start(graph, RunRequest.of(json("0")));
        assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
        try {
            Runner other =
                    Runner.builder().store(store).time(at(t0.plusSeconds(5))).build();
            assertThat(other.recoverable()).isEmpty();
            assertThatThrownBy(() -> other.recover(graph, handle.runId()))
                    .isInstanceOf(RunStateException.class)
                    .hasMessageContaining(
                            "is being run by process " + ProcessHandle.current().pid())
                    .hasMessageContaining("still running");
        } finally {
            release.countDown();
        }
        assertThat(handle.result().get(10, TimeUnit.SECONDS).status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void refusesToRecoverAFinishedRun() {
        Runner runner = Runner.builder().store(store).build();
        Graph graph =
                Graph.builder("g").node("a", echo()).edge(Graph.START, "a").compile();
        RunResult done = runner.run(graph, RunRequest.of(json("1")));

        assertThatThrownBy(() -> runner.recover(graph, done.runId()))
                .isInstanceOf(RunStateException.class)
                .hasMessageContaining("is COMPLETED");
    }

    @Test
    void forksANewRunFromTheCheckpointAfterAStep() {
        AtomicInteger calls = new AtomicInteger();
        Graph graph = Graph.builder("fork")
                .node("a", context -> NodeResult.output(IntNode.valueOf(10)))
                .node(
                        "b",
                        context -> NodeResult.output(
                                IntNode.valueOf(context.input().asInt() + calls.incrementAndGet())))
                .node("c", echo())
                .edge(Graph.START, "a")
                .edge("a", "b")
                .edge("b", "c")
                .compile();
        Runner runner = Runner.builder().store(store).build();
        RunResult original = runner.run(graph, RunRequest.of(json("0")));
        assertThat(original.output()).isEqualTo(IntNode.valueOf(11));

        RunResult fork = runner.fork(graph, original.runId(), 1);

        assertThat(fork.runId()).isNotEqualTo(original.runId());
        assertThat(fork.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(fork.output()).isEqualTo(IntNode.valueOf(12));
        assertThat(fork.steps()).extracting(Step::nodeId).containsExactly("a", "b", "c");
        assertThat(calls).hasValue(2);
        assertThatThrownBy(() -> runner.fork(graph, original.runId(), 99))
                .isInstanceOf(NotFoundException.class)
                .hasMessage("run '" + original.runId() + "' has no checkpoint after step 99");
    }
}
