package dev.weft.core;

import static dev.weft.core.Nodes.echo;
import static dev.weft.core.Nodes.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.spi.StepDispatcher;
import dev.weft.core.spi.StepDispatcher.Dispatch;
import dev.weft.core.spi.StepDispatcher.DispatchedStep;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Steps handed to workers: queued nodes, work a node dispatches, outcomes delivered, cancelled, or not queued. */
final class DispatchedStepsTest {
    private final List<Event> events = Collections.synchronizedList(new ArrayList<>());
    private final QueueingDispatcher queue = new QueueingDispatcher();
    private final CountingExecutor threads = new CountingExecutor();
    private final Runner runner = Runner.builder()
            .dispatcher(queue)
            .executor(threads)
            .listener(events::add)
            .build();

    /** A dispatcher that keeps what it is given, for the test to play the worker; or refuses, as an unreachable queue. */
    private static final class QueueingDispatcher implements StepDispatcher {
        final BlockingQueue<DispatchedStep> queued = new LinkedBlockingQueue<>();
        volatile boolean reachable = true;

        @Override
        public Dispatch dispatch(DispatchedStep step) {
            if (!reachable) {
                return new Dispatch.Unavailable("the queue does not answer");
            }
            queued.add(step);
            return new Dispatch.Queued("test queue #" + queued.size());
        }

        DispatchedStep take() throws InterruptedException {
            DispatchedStep step = queued.poll(10, TimeUnit.SECONDS);
            assertThat(step).as("a step was queued").isNotNull();
            return step;
        }
    }

    /** Does the queued node's work as a worker process would, and delivers its outcome. */
    private boolean work(Graph graph, DispatchedStep step) {
        Run run = runner.store().findRun(step.runId()).orElseThrow();
        ObjectNode outcome = WorkerStep.runNode(
                graph, run, step.stepOrder(), step.nodeId(), step.work(), runner.store(), TimeSource.system());
        return runner.deliver(step.runId(), step.stepOrder(), outcome);
    }

    private static Node adding(int amount) {
        return context ->
                NodeResult.output(json("{\"n\": " + (context.input().path("n").asInt() + amount) + "}"));
    }

    private static Graph chain(boolean queued) {
        return Graph.builder("chain")
                .node(NodeSpec.builder("first", adding(1)).build())
                .node(NodeSpec.builder("second", adding(10)).queued(queued).build())
                .node(NodeSpec.builder("third", adding(100)).build())
                .edge(Graph.START, "first")
                .edge("first", "second")
                .edge("second", "third")
                .edge("third", Graph.END)
                .compile();
    }

    @Test
    void aQueuedNodeRunsOnTheWorkerAndItsRunGoesOnWhenTheOutcomeIsDelivered() throws Exception {
        Graph graph = chain(true);
        Runner.RunHandle handle = runner.start(graph, RunRequest.of(json("{\"n\": 0}")));

        DispatchedStep step = queue.take();
        assertThat(step.kind()).isEqualTo(StepDispatcher.NODE_KIND);
        assertThat(step.nodeId()).isEqualTo("second");
        assertThat(step.work().path("input")).isEqualTo(json("{\"n\": 1}"));
        assertThat(handle.result()).isNotDone();
        Step queuedStep = awaitStep(handle.runId(), 2, s -> s.details().containsKey("queued"));
        assertThat(queuedStep.status()).isEqualTo(StepStatus.RUNNING);
        assertThat(threads.settled())
                .as("threads held by the run while its step is at the worker")
                .isZero();

        assertThat(work(graph, step)).isTrue();
        RunResult result = handle.result().get(10, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.run().output()).isEqualTo(json("{\"n\": 111}"));
        assertThat(types(handle.runId())).containsSubsequence("step.started", "step.queued", "step.completed");
    }

    @Test
    void aSecondDeliveryForTheSameStepChangesNothing() throws Exception {
        Graph graph = chain(true);
        Runner.RunHandle handle = runner.start(graph, RunRequest.of(json("{\"n\": 0}")));
        DispatchedStep step = queue.take();

        assertThat(work(graph, step)).isTrue();
        handle.result().get(10, TimeUnit.SECONDS);

        assertThat(runner.deliver(
                        step.runId(), step.stepOrder(), StepDispatcher.failed(ErrorCode.E_TOOL_FAILED, "late")))
                .isFalse();
        assertThat(runner.result(handle.runId()).run().output()).isEqualTo(json("{\"n\": 111}"));
    }

    @Test
    void otherBranchesRunOnWhileAStepWaitsForItsWorker() throws Exception {
        AtomicInteger others = new AtomicInteger();
        Graph graph = Graph.builder("fork")
                .node(NodeSpec.builder("slow", echo()).queued(true).build())
                .node(NodeSpec.builder("a", context -> {
                            others.incrementAndGet();
                            return NodeResult.output(json("1"));
                        })
                        .build())
                .node(NodeSpec.builder("b", context -> {
                            others.incrementAndGet();
                            return NodeResult.output(json("2"));
                        })
                        .build())
                .node(NodeSpec.builder("join", echo()).build())
                .edge(Graph.START, "slow")
                .edge(Graph.START, "a")
                .edge("a", "b")
                .edge("slow", "join")
                .edge("b", "join")
                .edge("join", Graph.END)
                .compile();
        Runner.RunHandle handle = runner.start(graph, RunRequest.of(json("{\"x\": 1}")));
        DispatchedStep step = queue.take();

        awaitStep(handle.runId(), 3, s -> s.status() == StepStatus.COMPLETED);
        assertThat(others).hasValue(2);
        assertThat(handle.result()).isNotDone();

        work(graph, step);
        RunResult result = handle.result().get(10, TimeUnit.SECONDS);
        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.run().output()).isEqualTo(json("{\"slow\": {\"x\": 1}, \"b\": 2}"));
    }

    @Test
    void anOutcomeDeliveredBeforeTheNodeHasReturnedIsKept() {
        StepDispatcher eager = step -> {
            // A worker so fast that its outcome comes back inside the dispatch.
            Thread.ofVirtual().start(() -> {
                Run run = runner().store().findRun(step.runId()).orElseThrow();
                ObjectNode outcome = WorkerStep.runNode(
                        chain(true),
                        run,
                        step.stepOrder(),
                        step.nodeId(),
                        step.work(),
                        runner().store(),
                        TimeSource.system());
                runner().deliver(step.runId(), step.stepOrder(), outcome);
            });
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Dispatch.Queued("inline");
        };
        eagerRunner = Runner.builder().dispatcher(eager).build();

        RunResult result = eagerRunner.run(chain(true), RunRequest.of(json("{\"n\": 0}")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.run().output()).isEqualTo(json("{\"n\": 111}"));
    }

    private volatile Runner eagerRunner;

    private Runner runner() {
        return eagerRunner;
    }

    @Test
    void aQueueThatCannotBeReachedLeavesTheNodeToRunHereAndTheLogSaysSo() {
        queue.reachable = false;

        RunResult result = runner.run(chain(true), RunRequest.of(json("{\"n\": 0}")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.run().output()).isEqualTo(json("{\"n\": 111}"));
        Event inline = runner.store().events(result.runId()).stream()
                .filter(e -> e.type().equals(Event.STEP_INLINE))
                .findFirst()
                .orElseThrow();
        assertThat(inline.nodeId()).contains("second");
        assertThat(inline.data().path("reason").asText()).isEqualTo("the queue does not answer");
    }

    @Test
    void withoutADispatcherAQueuedNodeRunsHere() {
        RunResult result = Runner.create().run(chain(true), RunRequest.of(json("{\"n\": 0}")));

        assertThat(result.run().output()).isEqualTo(json("{\"n\": 111}"));
    }

    @Test
    void cancellingARunWhoseStepIsAtAWorkerStopsItAtOnce() throws Exception {
        Graph graph = chain(true);
        Runner.RunHandle handle = runner.start(graph, RunRequest.of(json("{\"n\": 0}")));
        DispatchedStep step = queue.take();
        awaitStep(handle.runId(), 2, s -> s.details().containsKey("queued"));

        runner.cancel(handle.runId());
        RunResult result = handle.result().get(10, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(result.steps().get(1).status()).isEqualTo(StepStatus.FAILED);
        assertThat(result.steps().get(1).error().orElseThrow().code()).isEqualTo(ErrorCode.E_CANCELLED);
        assertThat(result.steps()).extracting(Step::nodeId).containsExactly("first", "second");
        assertThat(work(graph, step)).as("the worker's late outcome").isFalse();
    }

    @Test
    void aQueuedNodeThatFailsOnItsWorkerFailsItsStepWithTheWorkersError() throws Exception {
        Graph graph = Graph.builder("failing")
                .node(NodeSpec.builder("boom", context -> {
                            throw new WeftException(ErrorCode.E_TOOL_FAILED, "no luck");
                        })
                        .queued(true)
                        .build())
                .edge(Graph.START, "boom")
                .edge("boom", Graph.END)
                .compile();
        Runner.RunHandle handle = runner.start(graph, RunRequest.of(json("{}")));
        work(graph, queue.take());

        RunResult result = handle.result().get(10, TimeUnit.SECONDS);

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.run().error().orElseThrow().code()).isEqualTo(ErrorCode.E_TOOL_FAILED);
        assertThat(result.run().error().orElseThrow().message()).isEqualTo("node 'boom': no luck");
    }

    @Test
    void aNodeThatDispatchesItsOwnWorkRunsAgainWithTheOutcomeAndItsEventsAndFactsAreKept() throws Exception {
        Node asking = context -> {
            if (context.interruptPayload()
                    .map(p -> p.path("type").asText())
                    .orElse("")
                    .equals("queued")) {
                JsonNode outcome = context.resumeValue().orElseThrow();
                return NodeResult.output(json("{\"answer\": "
                        + outcome.path("value").path("answer") + ", \"kind\": \""
                        + context.interruptPayload().orElseThrow().path("kind").asText() + "\"}"));
            }
            context.record("asked", json("true"));
            return context.dispatch("test.ask", json("{\"question\": 6}")).orElseThrow();
        };
        Graph graph = Graph.builder("asking")
                .node(NodeSpec.builder("ask", asking).build())
                .edge(Graph.START, "ask")
                .edge("ask", Graph.END)
                .compile();
        Runner.RunHandle handle = runner.start(graph, RunRequest.of(json("{}")));
        DispatchedStep step = queue.take();
        assertThat(step.kind()).isEqualTo("test.ask");

        Run run = runner.store().findRun(step.runId()).orElseThrow();
        WorkerStep worker = WorkerStep.of(runner.store(), run, step.stepOrder(), step.nodeId(), TimeSource.system());
        worker.emit("test.worked", json("{\"on\": \"worker\"}"));
        worker.record("worker", json("\"w1\""));
        runner.deliver(step.runId(), step.stepOrder(), worker.ran(json("{\"answer\": 42}")));
        RunResult result = handle.result().get(10, TimeUnit.SECONDS);

        assertThat(result.run().output()).isEqualTo(json("{\"answer\": 42, \"kind\": \"test.ask\"}"));
        assertThat(result.steps().get(0).details()).containsKeys("asked", "worker", "queued");
        assertThat(types(handle.runId())).containsSubsequence("step.queued", "test.worked", "step.completed");
    }

    @Test
    void aNodeCannotReturnADispatchedResultItMadeItself() {
        Graph graph = Graph.builder("forged")
                .node(NodeSpec.builder("forged", context -> new NodeResult.Dispatched("x", json("{}")))
                        .build())
                .edge(Graph.START, "forged")
                .edge("forged", Graph.END)
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("{}")));

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.run().error().orElseThrow().message()).contains("NodeContext.dispatch");
    }

    private List<String> types(String runId) {
        return runner.store().events(runId).stream().map(Event::type).toList();
    }

    private Step awaitStep(String runId, int order, java.util.function.Predicate<Step> done)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            Optional<Step> step = runner.store().steps(runId).stream()
                    .filter(s -> s.order() == order)
                    .findFirst();
            if (step.isPresent() && done.test(step.get())) {
                return step.get();
            }
            Thread.sleep(5);
        }
        throw new AssertionError("step " + order + " of run " + runId + " never got there: "
                + runner.store().steps(runId));
    }
}
