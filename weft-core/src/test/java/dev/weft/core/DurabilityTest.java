package dev.weft.core;

import static dev.weft.core.Nodes.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.weft.core.spi.RunStore;
import dev.weft.core.store.InMemoryRunStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * {@link Durability#ASYNC}: a background writer commits a run's writes while it goes on, several
 * steps to a transaction; the run's result, its final status and its listeners' lifecycle events
 * still come only after the commit. And which transactions {@link Durability#SYNC} makes.
 */
final class DurabilityTest {
    private final InMemoryRunStore memory = InMemoryRunStore.create();

    /** {@code memory}, with every {@link RunStore#apply} going through {@code apply} instead. */
    private RunStore interceptingApply(Function<Object[], Object> apply) {
        return intercepting(apply, this::createInMemory);
    }

    /**
     * {@code memory}, with every {@link RunStore#apply} going through {@code apply} and every creation
     * of a claimed run with its first changes through {@code create}.
     */
    private RunStore intercepting(Function<Object[], Object> apply, Function<Object[], Object> create) {
        return (RunStore) Proxy.newProxyInstance(
                RunStore.class.getClassLoader(), new Class<?>[] {RunStore.class}, (proxy, method, args) -> {
                    if (method.getName().equals("apply")) {
                        return apply.apply(args);
                    }
                    if (method.getName().equals("createRun") && args.length == 3) {
                        return create.apply(args);
                    }
                    try {
                        return method.invoke(memory, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @SuppressWarnings("unchecked")
    private @org.jspecify.annotations.Nullable Object createInMemory(Object[] args) {
        memory.createRun((Run) args[0], (RunStore.Lease) args[1], (List<RunStore.Change>) args[2]);
        return null;
    }

    /** {@code memory}, where another process asks to cancel each run the moment it is created. */
    private RunStore cancelledOnceCreated() {
        return intercepting(this::applyToMemory, args -> {
            createInMemory(args);
            memory.requestCancel(((Run) args[0]).id());
            return null;
        });
    }

    @SuppressWarnings("unchecked")
    private boolean applyToMemory(Object[] args) {
        return memory.apply((String) args[0], (String) args[1], (List<RunStore.Change>) args[2]);
    }

    /** A node that counts up to {@code times} and routes back to itself until then. */
    private static Graph counter(int times) {
        return counter(times, () -> {});
    }

    /** A counter that calls {@code eachTime} before each count. */
    private static Graph counter(int times, Runnable eachTime) {
        NodeSpec count = NodeSpec.builder("count", context -> {
                    eachTime.run();
                    int next = context.input().asInt() + 1;
                    return NodeResult.output(IntNode.valueOf(next), next < times ? "again" : "done");
                })
                .handles("again", "done")
                .maxVisits(times)
                .build();
        return Graph.builder("counter-" + times)
                .node(count)
                .edge(Graph.START, "count")
                .edge("count", "again", "count")
                .edge("count", "done", Graph.END)
                .compile();
    }

    @Test
    void anAsynchronousRunWritesWhatASynchronousOneWrites() {
        Graph graph = counter(20);
        Runner sync = Runner.builder().store(memory).build();
        Runner async =
                Runner.builder().store(memory).durability(Durability.ASYNC).build();

        RunResult first = sync.run(graph, RunRequest.of(json("0")));
        RunResult second = async.run(graph, RunRequest.of(json("0")));

        assertThat(second.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(second.output()).isEqualTo(IntNode.valueOf(20));
        assertThat(memory.steps(second.run().id()))
                .extracting(Step::order, Step::status, Step::output)
                .containsExactlyElementsOf(memory.steps(first.run().id()).stream()
                        .map(s -> org.assertj.core.groups.Tuple.tuple(s.order(), s.status(), s.output()))
                        .toList());
        assertThat(memory.events(second.run().id()))
                .extracting(Event::type)
                .containsExactlyElementsOf(memory.events(first.run().id()).stream()
                        .map(Event::type)
                        .toList());
        assertThat(memory.checkpoints(second.run().id()))
                .hasSameSizeAs(memory.checkpoints(first.run().id()));
        assertThat(memory.findRun(second.run().id()).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void aSlowStoreGetsSeveralStepsToATransactionAndLosesNone() {
        AtomicInteger transactions = new AtomicInteger();
        RunStore slow = interceptingApply(args -> {
            transactions.incrementAndGet();
            sleep(5);
            return applyToMemory(args);
        });
        Runner async = Runner.builder().store(slow).durability(Durability.ASYNC).build();

        RunResult result = async.run(counter(60), RunRequest.of(json("0")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        List<Step> stored = memory.steps(result.run().id());
        assertThat(stored).hasSize(60).allMatch(step -> step.status() == StepStatus.COMPLETED);
        assertThat(stored.get(59).output()).isEqualTo(IntNode.valueOf(60));
        // One transaction per step would be 60, plus the run's end: the writer gathered steps.
        assertThat(transactions.get()).isLessThan(30);
    }

    @Test
    void listenersHearOfALifecycleEventOnlyOnceItIsCommitted() {
        List<String> heardBeforeCommit = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger heard = new AtomicInteger();
        RunStore slow = interceptingApply(args -> {
            sleep(1);
            return applyToMemory(args);
        });
        RunListener listener = event -> {
            if (event.type().equals(Event.STEP_COMPLETED) || event.type().equals(Event.RUN_COMPLETED)) {
                heard.incrementAndGet();
                boolean stored = memory.events(event.runId()).stream().anyMatch(e -> e.sequence() == event.sequence());
                if (!stored) {
                    heardBeforeCommit.add(event.type() + "#" + event.sequence());
                }
            }
        };
        Runner async = Runner.builder()
                .store(slow)
                .durability(Durability.ASYNC)
                .listener(listener)
                .build();

        RunResult result = async.run(counter(30), RunRequest.of(json("0")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(heard.get()).isEqualTo(31);
        assertThat(heardBeforeCommit).isEmpty();
    }

    @Test
    void aCancellationIsNoticedAFewNodesLaterAndTheRunEndsCancelled() {
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch tenth = new CountDownLatch(1);
        Graph endless = counter(100_000, () -> {
            if (calls.incrementAndGet() == 10) {
                tenth.countDown();
            }
            sleep(1);
        });
        Runner async =
                Runner.builder().store(memory).durability(Durability.ASYNC).build();

        Runner.RunHandle handle = async.start(endless, RunRequest.of(json("0")));
        await(tenth);
        async.cancel(handle.runId());
        int callsAtCancel = calls.get();
        RunResult result = handle.result().join();

        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(calls.get() - callsAtCancel).isLessThanOrEqualTo(5);
        assertThat(memory.findRun(handle.runId()).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
    }

    @Test
    void aRunThatOutpacesItsWriterWaitsForIt() {
        Semaphore transactions = new Semaphore(0);
        RunStore gated = interceptingApply(args -> {
            transactions.acquireUninterruptibly();
            return applyToMemory(args);
        });
        AtomicInteger calls = new AtomicInteger();
        int times = 3 * WriteBuffer.MAX_BACKLOG;
        Graph graph = counter(times, calls::incrementAndGet);
        Runner async =
                Runner.builder().store(gated).durability(Durability.ASYNC).build();

        // The run is created with its first checkpoint apart from apply; the first step's writes block.
        Runner.RunHandle handle = async.start(graph, RunRequest.of(json("0")));
        int callsWhileBlocked = callsOnceStill(calls);
        assertThat(callsWhileBlocked).isGreaterThan(0).isLessThan(times);
        sleep(200);
        assertThat(calls.get()).isEqualTo(callsWhileBlocked);

        transactions.release(Integer.MAX_VALUE / 2);
        RunResult result = handle.result().join();
        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(memory.steps(handle.runId())).hasSize(times);
    }

    @Test
    void aLostLeaseStopsTheRunWithoutWritingMore() {
        AtomicInteger transactions = new AtomicInteger();
        // The writer's first transaction lands unless it would end the run; every later one finds the
        // run taken over. So the lease is always lost before the run's end is written.
        RunStore taken = interceptingApply(args -> {
            boolean ends = ((List<?>) args[2]).stream().anyMatch(RunStore.Change.UpdateRun.class::isInstance);
            if (transactions.incrementAndGet() >= 2 || ends) {
                throw new LeaseLostException((String) args[0], "another-process");
            }
            return applyToMemory(args);
        });
        // No commit delay: the writer must commit while the run goes on, however fast it is.
        Runner async = Runner.builder()
                .store(taken)
                .durability(Durability.ASYNC)
                .commitDelay(Duration.ZERO)
                .build();

        // An id of the caller's: the run is created before it starts, so its writer only applies.
        RunResult result = async.run(
                counter(200),
                RunRequest.builder().runId("taken-over").input(json("0")).build());

        // The run is left as the store holds it: still RUNNING, for the process that took it over,
        // and without the steps the refused transactions held.
        assertThat(result.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(memory.findRun(result.run().id()).orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
        assertThat(memory.steps(result.run().id()))
                .filteredOn(step -> step.status() == StepStatus.COMPLETED)
                .hasSizeLessThan(200);
    }

    @Test
    void aStoreThatFailsInTheBackgroundFailsTheRunAtItsNextNodeWithItsError() {
        CountDownLatch writerFailed = new CountDownLatch(1);
        RunStore failing = interceptingApply(args -> {
            writerFailed.countDown();
            throw new IllegalStateException("disk full");
        });
        Runner async =
                Runner.builder().store(failing).durability(Durability.ASYNC).build();
        // The third node waits for the writer's transaction to fail, so the run's end cannot come first;
        // the nodes after it take a millisecond each, so the run would take 200 ms to reach its end.
        AtomicInteger calls = new AtomicInteger();
        Graph graph = counter(200, () -> {
            int call = calls.incrementAndGet();
            if (call == 3) {
                awaitUninterruptibly(writerFailed, 10);
            } else if (call > 3) {
                sleep(1);
            }
        });

        assertThatThrownBy(() -> async.run(graph, RunRequest.of(json("0"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("disk full");
        assertThat(writerFailed.getCount()).isZero();
        // Stopped at the node after the writer recorded its failure: on a slow machine even before the
        // third, never anywhere near the end.
        assertThat(calls.get()).isBetween(1, 50);
    }

    @Test
    void aSynchronousRunDrivenOnTheThreadThatCreatedItMakesNoTransactionBeforeItsFirstNode() {
        List<Integer> transactions = Collections.synchronizedList(new ArrayList<>());
        RunStore counted = interceptingApply(args -> {
            transactions.add(((List<?>) args[2]).size());
            return applyToMemory(args);
        });
        Runner sync = Runner.builder().store(counted).build();

        RunResult result = sync.run(counter(20), RunRequest.of(json("0")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        // One before each node after the first, and the end; each with something to write.
        assertThat(transactions).hasSize(20).allMatch(changes -> changes > 0);
        assertThat(memory.steps(result.run().id())).hasSize(20).allMatch(step -> step.status() == StepStatus.COMPLETED);
    }

    @Test
    void aSynchronousRunStartedInTheBackgroundLearnsOfACancellationBeforeItsFirstNode() throws Exception {
        AtomicInteger counted = new AtomicInteger();
        Runner sync = Runner.builder().store(cancelledOnceCreated()).build();

        RunResult result = sync.start(counter(20, counted::incrementAndGet), RunRequest.of(json("0")))
                .result()
                .get(10, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(counted.get()).isZero();
    }

    @Test
    void aSynchronousRunDrivenOnTheThreadThatCreatedItLearnsOfACancellationBeforeItsSecondNode() {
        AtomicInteger counted = new AtomicInteger();
        Runner sync = Runner.builder().store(cancelledOnceCreated()).build();

        RunResult result = sync.run(counter(20, counted::incrementAndGet), RunRequest.of(json("0")));

        // As for a request that comes while a node runs: the commit before the next node tells.
        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(counted.get()).isEqualTo(1);
    }

    @Test
    void aRunThatStopsWithinTheCommitDelayIsCreatedWithItsStepsAndItsEndInOneTransaction() throws Exception {
        AtomicInteger transactions = new AtomicInteger();
        AtomicInteger creations = new AtomicInteger();
        RunStore counted = intercepting(
                args -> {
                    transactions.incrementAndGet();
                    return applyToMemory(args);
                },
                args -> {
                    creations.incrementAndGet();
                    return createInMemory(args);
                });
        Runner async = Runner.builder()
                .store(counted)
                .durability(Durability.ASYNC)
                .commitDelay(Duration.ofSeconds(Runner.MAX_COMMIT_DELAY_SECONDS))
                .build();

        // The run's end does not wait for the writer's delay: it commits everything itself.
        RunResult result =
                async.start(counter(20), RunRequest.of(json("0"))).result().get(10, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(creations.get()).isEqualTo(1);
        assertThat(transactions.get()).isZero();
        assertThat(memory.steps(result.run().id())).hasSize(20).allMatch(step -> step.status() == StepStatus.COMPLETED);
        assertThat(memory.findRun(result.run().id()).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void runsThatStopWithinTheCommitDelayGiveTheExecutorNoWriter() throws Exception {
        AtomicInteger tasks = new AtomicInteger();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            ExecutorService counting = executing(command -> {
                tasks.incrementAndGet();
                threads.execute(command);
            });
            Runner async = asyncOn(counting, Duration.ofSeconds(1));

            // Each run is driven on this thread and ends well within the delay, committing itself,
            // and takes back its writer's start from the timer. (Other tests' runs may have left
            // theirs there, and may see them run now, but none is added.)
            int waitingBefore = CommitTimer.SHARED.pending();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ids.add(async.run(counter(5), RunRequest.of(json("0"))).run().id());
            }
            assertThat(CommitTimer.SHARED.pending()).isLessThanOrEqualTo(waitingBefore);
            // Past every run's delay: the timer has looked at each run's writes and found none left.
            Thread.sleep(1_500);

            assertThat(tasks.get()).isZero();
            assertThat(ids).allSatisfy(id -> assertThat(completedSteps(id)).isEqualTo(5));
        }
    }

    @Test
    void theWriterCommitsTheStepsOfARunThatOutlastsTheCommitDelay() {
        CountDownLatch fifth = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        Graph blocksAtTheFifth = counter(10, () -> {
            if (calls.incrementAndGet() == 5) {
                fifth.countDown();
                awaitUninterruptibly(release, 60);
            }
        });
        Runner async = Runner.builder()
                .store(memory)
                .durability(Durability.ASYNC)
                .commitDelay(Duration.ofMillis(1))
                .build();

        Runner.RunHandle handle = async.start(blocksAtTheFifth, RunRequest.of(json("0")));
        await(fifth);
        // While the fifth step holds the run, the writer commits the four before it.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (completedSteps(handle.runId()) < 4 && System.nanoTime() < deadline) {
            sleep(5);
        }
        long committedWhileHeld = completedSteps(handle.runId());
        boolean stillHeld = !handle.result().isDone();
        release.countDown();
        RunResult result = handle.result().join();

        assertThat(stillHeld).isTrue();
        assertThat(committedWhileHeld).isEqualTo(4);
        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(completedSteps(handle.runId())).isEqualTo(10);
    }

    @Test
    void anExecutorThatRefusesTheDelayedWriterFailsTheRunWithItsError() {
        // The run is driven on the calling thread and its nodes run there too (one at a time), so the
        // writer is the only task the executor is ever given.
        CountDownLatch refused = new CountDownLatch(1);
        ExecutorService refusing = executing(command -> {
            refused.countDown();
            throw new RejectedExecutionException("executor is shut down");
        });
        Runner async = asyncOn(refusing, Duration.ofMillis(1));
        // The second node waits for the refusal, a millisecond after the first step. The refusal is
        // recorded just after the executor throws, on the timer's thread; the nodes after it take a
        // millisecond each, so the run's end (which would commit itself and need no writer) comes long
        // after that even on a loaded machine, and the next commit fails.
        AtomicInteger calls = new AtomicInteger();
        Graph graph = counter(2000, () -> {
            int call = calls.incrementAndGet();
            if (call == 2) {
                awaitUninterruptibly(refused, 10);
            } else if (call > 2) {
                sleepUninterruptibly(Duration.ofMillis(1));
            }
        });

        assertThatThrownBy(() -> async.run(graph, RunRequest.of(json("0"))))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessage("executor is shut down");
        assertThat(calls.get()).isLessThan(2000);
    }

    /** An asynchronous runner of {@code memory} whose writers start on {@code executor} after {@code delay}. */
    private Runner asyncOn(ExecutorService executor, Duration delay) {
        return Runner.builder()
                .store(memory)
                .durability(Durability.ASYNC)
                .commitDelay(delay)
                .executor(executor)
                .build();
    }

    /** An executor that does with each task what {@code execute} says, and has nothing to shut down. */
    private static ExecutorService executing(java.util.function.Consumer<Runnable> execute) {
        return new AbstractExecutorService() {
            @Override
            public void execute(Runnable command) {
                execute.accept(command);
            }

            @Override
            public void shutdown() {}

            @Override
            public List<Runnable> shutdownNow() {
                return List.of();
            }

            @Override
            public boolean isShutdown() {
                return false;
            }

            @Override
            public boolean isTerminated() {
                return false;
            }

            @Override
            public boolean awaitTermination(long timeout, TimeUnit unit) {
                return true;
            }
        };
    }

    /** A runner of {@code memory} whose writer waits as long as it may: it commits only when a run ends. */
    private Runner asyncWithTheLongestDelay() {
        return Runner.builder()
                .store(memory)
                .durability(Durability.ASYNC)
                .commitDelay(Duration.ofSeconds(Runner.MAX_COMMIT_DELAY_SECONDS))
                .build();
    }

    /** Counts a node's calls and holds the first until released. */
    private static final class FirstCall {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger calls = new AtomicInteger();

        void holdTheFirst() {
            if (calls.incrementAndGet() == 1) {
                started.countDown();
                awaitUninterruptibly(release, 60);
            }
        }
    }

    private long completedSteps(String runId) {
        if (memory.findRun(runId).isEmpty()) {
            return 0; // not created yet
        }
        return memory.steps(runId).stream()
                .filter(step -> step.status() == StepStatus.COMPLETED)
                .count();
    }

    @Test
    void anAsynchronousRunIsInTheStoreOnlyOnceItsWriterCreatesIt() {
        FirstCall first = new FirstCall();
        Graph blocksAtTheFirst = counter(3, first::holdTheFirst);
        Runner async = asyncWithTheLongestDelay();

        Runner.RunHandle handle = async.start(blocksAtTheFirst, RunRequest.of(json("0")));
        await(first.started);
        boolean inTheStoreWhileTheFirstNodeRuns = memory.findRun(handle.runId()).isPresent();
        first.release.countDown();
        RunResult result = handle.result().join();

        assertThat(inTheStoreWhileTheFirstNodeRuns).isFalse();
        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(memory.findRun(handle.runId()).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(memory.steps(handle.runId())).hasSize(3);
        assertThat(memory.events(handle.runId()).get(0).type()).isEqualTo(Event.RUN_STARTED);
    }

    @Test
    void anAsynchronousRunWhoseIdTheCallerChoseIsInTheStoreBeforeItsFirstNode() {
        AtomicInteger seenInTheStore = new AtomicInteger();
        Graph graph = counter(1, () -> {
            if (memory.findRun("chosen").isPresent()) {
                seenInTheStore.incrementAndGet();
            }
        });
        Runner async = asyncWithTheLongestDelay();

        RunResult result = async.run(
                graph, RunRequest.builder().runId("chosen").input(json("0")).build());

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(seenInTheStore.get()).isOne();
        // So a second run with the same id fails before it runs a node.
        assertThatThrownBy(() -> async.run(
                        graph,
                        RunRequest.builder().runId("chosen").input(json("0")).build()))
                .hasMessageContaining("a run with id 'chosen' already exists");
        assertThat(seenInTheStore.get()).isOne();
    }

    @Test
    void cancellingARunItsWriterHasNotCreatedYetCreatesItAndStopsIt() {
        FirstCall first = new FirstCall();
        Graph blocksAtTheFirst = counter(100, first::holdTheFirst);
        Runner async = asyncWithTheLongestDelay();

        Runner.RunHandle handle = async.start(blocksAtTheFirst, RunRequest.of(json("0")));
        await(first.started);
        Run asked = async.cancel(handle.runId());
        first.release.countDown();
        RunResult result = handle.result().join();

        assertThat(asked.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(first.calls.get()).isLessThan(100);
        assertThat(memory.findRun(handle.runId()).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
    }

    @Test
    void aChildRunStopsWhenItsParentIsCancelledBeforeTheParentIsInTheStore() {
        FirstCall first = new FirstCall();
        Graph child = counter(100, first::holdTheFirst);
        Graph parent = Graph.builder("parent")
                .subgraph("child", child)
                .edge(Graph.START, "child")
                .compile();
        Runner async = asyncWithTheLongestDelay();

        Runner.RunHandle handle = async.start(parent, RunRequest.of(json("0")));
        await(first.started);
        // The child (an id of the parent's choosing) is in the store; the parent is not, yet.
        boolean parentInTheStore = memory.findRun(handle.runId()).isPresent();
        async.cancel(handle.runId());
        first.release.countDown();
        RunResult result = handle.result().join();

        assertThat(parentInTheStore).isFalse();
        // As under SYNC: the child's cancellation fails the parent's subgraph node, with its code,
        // and the parent, asked to stop, ends cancelled.
        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_CANCELLED);
        assertThat(memory.findRun(handle.runId()).orElseThrow().status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(first.calls.get()).isLessThan(100);
        assertThat(memory.listRuns(java.util.Optional.empty()))
                .filteredOn(run -> run.parentRunId().isPresent())
                .extracting(Run::status)
                .containsExactly(RunStatus.CANCELLED);
    }

    @Test
    void rejectsACommitDelayThatIsNegativeOrOverAMinute() {
        assertThatThrownBy(() -> Runner.builder().commitDelay(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("commit delay must be between 0 and 60 s, was PT-0.001S");
        assertThatThrownBy(() -> Runner.builder().commitDelay(Duration.ofSeconds(61)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("commit delay must be between 0 and 60 s, was PT1M1S");
        assertThatThrownBy(() -> Runner.builder().commitDelay(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("commitDelay");
        assertThat(Runner.builder().build().commitDelay()).isEqualTo(Duration.ofMillis(1));
        assertThat(Runner.builder().commitDelay(Duration.ZERO).build().commitDelay())
                .isEqualTo(Duration.ZERO);
    }

    @Test
    void rejectsANullDurability() {
        assertThatThrownBy(() -> Runner.builder().durability(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("durability");
    }

    /**
     * The count once it has started and then not moved for 200 ms (or after 10 s): however slow the
     * machine, a run that is going to stop has stopped.
     */
    private static int callsOnceStill(AtomicInteger calls) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int seen = calls.get();
        while (System.nanoTime() < deadline) {
            sleep(200);
            int now = calls.get();
            if (now > 0 && now == seen) {
                return now;
            }
            seen = now;
        }
        return seen;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Waits up to {@code seconds} for {@code latch}, and goes on either way. */
    private static void sleepUninterruptibly(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch, long seconds) {
        try {
            latch.await(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
