package dev.weft.core;

import static dev.weft.core.Nodes.constant;
import static dev.weft.core.Nodes.echo;
import static dev.weft.core.Nodes.json;
import static dev.weft.core.Nodes.named;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

final class RunnerTest {
    private final FakeTime time = new FakeTime();
    private final List<Event> events = Collections.synchronizedList(new ArrayList<>());
    private final Runner runner =
            Runner.builder().time(time).listener(events::add).build();

    private static Node awaiting(CountDownLatch latch) {
        return context -> {
            try {
                if (!latch.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("latch never opened");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return NodeResult.output(context.input());
        };
    }

    /** Counts its runs in {@code runs}. */
    private static Node counting(AtomicInteger runs) {
        return context -> {
            runs.incrementAndGet();
            return NodeResult.empty();
        };
    }

    /** A node that tells it has begun, then waits to be let go: cancelled while it is held. */
    private static final class Held {
        private final CountDownLatch started = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        Node node() {
            return context -> {
                started.countDown();
                return awaiting(release).execute(context);
            };
        }

        /**
         * Cancels the run of {@code handle} once the node has started, then lets the node finish; the
         * run ends cancelled, with {@code E_CANCELLED}.
         */
        RunResult cancelWhileHeld(Runner runner, Runner.RunHandle handle) throws Exception {
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            runner.cancel(handle.runId());
            release.countDown();
            RunResult result = handle.result().get(10, TimeUnit.SECONDS);
            assertThat(result.status()).isEqualTo(RunStatus.CANCELLED);
            assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_CANCELLED);
            return result;
        }
    }

    private static List<String> completedNodes(RunResult result) {
        return result.steps().stream()
                .filter(s -> s.status() == StepStatus.COMPLETED)
                .map(Step::nodeId)
                .toList();
    }

    @Test
    void runsAChainAndRecordsEveryStep() {
        Graph graph = Graph.builder("chain")
                .node("a", constant("{\"n\": 1}"))
                .node("b", echo())
                .edge(Graph.START, "a")
                .edge("a", "b")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("{\"x\": 1}")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.output()).isEqualTo(json("{\"n\": 1}"));
        assertThat(result.steps())
                .extracting(Step::order, Step::nodeId, Step::status, Step::attempt, Step::pinned)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1, "a", StepStatus.COMPLETED, 1, false),
                        org.assertj.core.groups.Tuple.tuple(2, "b", StepStatus.COMPLETED, 1, false));
        assertThat(result.steps().get(0).input()).isEqualTo(json("{\"x\": 1}"));
        assertThat(result.outputs()).containsKeys("a", "b");
        assertThat(runner.store().findRun(result.runId()).orElseThrow().status())
                .isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void nodesSeeTheRunInputVariablesAndEarlierOutputsByName() {
        Graph graph = Graph.builder("ctx")
                .variable("greeting", json("\"hi\""))
                .node(NodeSpec.builder("a", constant("{\"v\": 7}"))
                        .name("first")
                        .build())
                .node("b", context -> {
                    ObjectNode out = Json.object();
                    out.set("input", context.runInput());
                    out.set("greeting", context.variables().get("greeting"));
                    out.set("first", context.outputs().get("first"));
                    return NodeResult.output(out);
                })
                .edge(Graph.START, "a")
                .edge("a", "b")
                .compile();

        RunResult result = runner.run(
                graph,
                RunRequest.builder()
                        .input(json("\"in\""))
                        .variable("greeting", json("\"hello\""))
                        .build());

        assertThat(result.output()).isEqualTo(json("{\"input\":\"in\",\"greeting\":\"hello\",\"first\":{\"v\":7}}"));
    }

    @Test
    void aNodeThatFinishesWhileAnotherBlocksStartsItsDependentsAtOnce() {
        // "slow" may finish only after "after-fast" has run. The thread that finishes "fast" starts
        // "after-fast"; however the threads interleave, no finished node may wait for a blocked one.
        Runner real = Runner.builder().build();
        for (int round = 0; round < 200; round++) {
            CountDownLatch afterFastRan = new CountDownLatch(1);
            Graph graph = Graph.builder("interleave")
                    .node("fast", echo())
                    .node("slow", awaiting(afterFastRan))
                    .node("after-fast", context -> {
                        afterFastRan.countDown();
                        return NodeResult.output(context.input());
                    })
                    .edge(Graph.START, "fast")
                    .edge(Graph.START, "slow")
                    .edge("fast", "after-fast")
                    .compile();

            RunResult result = round % 2 == 0
                    ? real.run(graph, RunRequest.of(json("1")))
                    : real.start(graph, RunRequest.of(json("1"))).result().join();

            assertThat(result.status())
                    .as("round %d: %s", round, result.error())
                    .isEqualTo(RunStatus.COMPLETED);
        }
    }

    @Test
    void interruptingTheThreadThatWaitsForARunFailsItBeforeItsNextNode() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        Graph graph = Graph.builder("interrupted")
                .node("slow", awaiting(release))
                .node("quick", echo())
                .node("after-slow", echo())
                .edge(Graph.START, "slow")
                .edge(Graph.START, "quick")
                .edge("slow", "after-slow")
                .compile();
        Runner real = Runner.builder().build();
        java.util.concurrent.atomic.AtomicReference<RunResult> result =
                new java.util.concurrent.atomic.AtomicReference<>();
        // The caller runs "quick" itself, then waits while "slow" runs on another thread.
        Thread caller = Thread.ofPlatform().start(() -> result.set(real.run(graph, RunRequest.of(json("1")))));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (caller.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        caller.interrupt();
        Thread.sleep(50);
        release.countDown();
        caller.join(10_000);

        assertThat(result.get().status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.get().error().orElseThrow().code()).isEqualTo(ErrorCode.E_CANCELLED);
        assertThat(completedNodes(result.get())).containsExactlyInAnyOrder("slow", "quick");
    }

    @Test
    void routesByTheHandleTheNodeChooses() {
        Graph graph = Graph.builder("route")
                .node(NodeSpec.builder("check", context -> NodeResult.output(context.input()))
                        .booleanBranch("ok")
                        .build())
                .node("yes", named())
                .node("no", named())
                .edge(Graph.START, "check")
                .edge("check", Graph.POSITIVE, "yes")
                .edge("check", Graph.NEGATIVE, "no")
                .compile();

        assertThat(completedNodes(runner.run(graph, RunRequest.of(json("{\"ok\": true}")))))
                .containsExactly("check", "yes");
        assertThat(completedNodes(runner.run(graph, RunRequest.of(json("{\"ok\": false}")))))
                .containsExactly("check", "no");
    }

    @Test
    void routesByAnyNamedHandle() {
        Graph graph = Graph.builder("router")
                .node(NodeSpec.builder(
                                "pick",
                                context -> NodeResult.output(
                                        context.input(), context.input().asText()))
                        .handles("sales", "support")
                        .build())
                .node("sales", named())
                .node("support", named())
                .edge(Graph.START, "pick")
                .edge("pick", "sales", "sales")
                .edge("pick", "support", "support")
                .compile();

        assertThat(runner.run(graph, RunRequest.of(json("\"support\""))).output())
                .isEqualTo(json("\"support\""));
    }

    @Test
    void failsWhenANodeChoosesAHandleItDoesNotDeclare() {
        Graph graph = Graph.builder("bad-handle")
                .node(NodeSpec.builder("pick", context -> NodeResult.output(context.input(), "elsewhere"))
                        .handles("a", "b")
                        .build())
                .node("a", echo())
                .node("b", echo())
                .edge(Graph.START, "pick")
                .edge("pick", "a", "a")
                .edge("pick", "b", "b")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("1")));

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_NODE_FAILED);
        assertThat(result.error().orElseThrow().message()).contains("node 'pick' chose handle 'elsewhere'");
    }

    @Test
    void runsParallelBranchesAtTheSameTime() {
        // Each branch waits until the other has started: run one after the other, they would time out.
        CountDownLatch bothStarted = new CountDownLatch(2);
        Node meet = context -> {
            bothStarted.countDown();
            return awaiting(bothStarted).execute(context);
        };
        Graph graph = Graph.builder("fan-out")
                .node("start", echo())
                .node("left", meet)
                .node("right", meet)
                .edge(Graph.START, "start")
                .edge("start", "left")
                .edge("start", "right")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("1")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(completedNodes(result)).containsExactlyInAnyOrder("start", "left", "right");
        assertThat(result.output()).isEqualTo(json("{\"left\": 1, \"right\": 1}"));
    }

    @Test
    void aJoinWaitsForEveryActivatedBranchAndMergesTheirOutputs() {
        CountDownLatch slowMayFinish = new CountDownLatch(1);
        AtomicInteger joinRuns = new AtomicInteger();
        Graph graph = Graph.builder("join")
                .node("start", echo())
                .node("fast", context -> {
                    slowMayFinish.countDown();
                    return NodeResult.output(json("{\"fast\": true}"));
                })
                .node("slow", context -> {
                    awaiting(slowMayFinish).execute(context);
                    return NodeResult.output(json("{\"slow\": true}"));
                })
                .node("slower", context -> NodeResult.output(json("{\"slower\": true}")))
                .node("join", context -> {
                    joinRuns.incrementAndGet();
                    return NodeResult.output(context.input());
                })
                .edge(Graph.START, "start")
                .edge("start", "fast")
                .edge("start", "slow")
                .edge("slow", "slower")
                .edge("fast", "join")
                .edge("slower", "join")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("null")));

        assertThat(joinRuns).hasValue(1);
        assertThat(result.output()).isEqualTo(json("{\"fast\": true, \"slower\": true}"));
    }

    @Test
    void aJoinRunsAfterAPartialPathWhenTheOtherBranchWasNotTaken() {
        Graph graph = Graph.builder("partial")
                .node(NodeSpec.builder("check", echo()).booleanBranch("ok").build())
                .node("yes", constant("{\"path\": \"yes\"}"))
                .node("no", constant("{\"path\": \"no\"}"))
                .node("join", echo())
                .edge(Graph.START, "check")
                .edge("check", Graph.POSITIVE, "yes")
                .edge("check", Graph.NEGATIVE, "no")
                .edge("yes", "join")
                .edge("no", "join")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("{\"ok\": true}")));

        assertThat(completedNodes(result)).containsExactly("check", "yes", "join");
        assertThat(result.output()).isEqualTo(json("{\"path\": \"yes\"}"));
    }

    @Test
    void aJoinOfNonObjectOutputsKeysThemByNodeName() {
        Graph graph = Graph.builder("join-values")
                .node("start", echo())
                .node("a", constant("1"))
                .node("b", constant("[2]"))
                .node("join", echo())
                .edge(Graph.START, "start")
                .edge("start", "a")
                .edge("start", "b")
                .edge("a", "join")
                .edge("b", "join")
                .compile();

        assertThat(runner.run(graph, RunRequest.of(json("0"))).output()).isEqualTo(json("{\"a\": 1, \"b\": [2]}"));
    }

    @Test
    void failsWithVisitLimitInsteadOfLoopingForever() {
        Graph graph = Graph.builder("loop")
                .node(NodeSpec.builder("work", echo()).maxVisits(3).build())
                .node(NodeSpec.builder("check", context -> NodeResult.output(json("{\"ok\": false}")))
                        .booleanBranch("ok")
                        .build())
                .edge(Graph.START, "work")
                .edge("work", "check")
                .edge("check", Graph.POSITIVE, Graph.END)
                .edge("check", Graph.NEGATIVE, "work")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("0")));

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_VISIT_LIMIT);
        assertThat(result.error().orElseThrow().message()).contains("node 'work' reached its visit limit of 3");
        assertThat(result.steps()).hasSize(7);
        assertThat(result.steps().get(6).status()).isEqualTo(StepStatus.FAILED);
        assertThat(result.steps().stream().filter(s -> s.nodeId().equals("work") && s.status() == StepStatus.COMPLETED))
                .hasSize(3);
    }

    @Test
    void loopsUntilAGuardrailPasses() {
        AtomicInteger drafts = new AtomicInteger();
        Graph graph = Graph.builder("guardrail")
                .node("draft", context -> NodeResult.output(IntNode.valueOf(drafts.incrementAndGet())))
                .node(NodeSpec.builder("check", context -> {
                            ObjectNode out = Json.object();
                            out.put("passed", context.input().asInt() >= 3);
                            return NodeResult.output(out);
                        })
                        .booleanBranch("passed")
                        .build())
                .node("send", echo())
                .edge(Graph.START, "draft")
                .edge("draft", "check")
                .edge("check", Graph.POSITIVE, "send")
                .edge("check", Graph.NEGATIVE, "draft")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("null")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(drafts).hasValue(3);
        assertThat(result.steps()).extracting(Step::order).containsExactly(1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void cancellationLetsTheNodeInFlightFinishAndStartsNoOther() throws Exception {
        Held slow = new Held();
        AtomicInteger laterRuns = new AtomicInteger();
        Graph graph = Graph.builder("cancel")
                .node("slow", slow.node())
                .node("later", counting(laterRuns))
                .node("end", echo())
                .edge(Graph.START, "slow")
                .edge("slow", "later")
                .edge("later", "end")
                .compile();

        Runner.RunHandle handle = runner.start(graph, RunRequest.of(json("\"x\"")));
        RunResult result = slow.cancelWhileHeld(runner, handle);

        assertThat(laterRuns).hasValue(0);
        assertThat(result.steps())
                .extracting(Step::nodeId, Step::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("slow", StepStatus.COMPLETED),
                        org.assertj.core.groups.Tuple.tuple("later", StepStatus.SKIPPED));
        assertThatThrownBy(() -> runner.cancel(handle.runId()))
                .isInstanceOf(RunStateException.class)
                .hasMessageContaining("already CANCELLED");
    }

    @Test
    void cancellingARunWhileItsSubgraphRunsCancelsBothAndEndsTheParentCancelled() throws Exception {
        Held slow = new Held();
        AtomicInteger laterRuns = new AtomicInteger();
        Graph child = Graph.builder("child")
                .node("slow", slow.node())
                .node("after", counting(laterRuns))
                .edge(Graph.START, "slow")
                .edge("slow", "after")
                .compile();
        Graph parent = Graph.builder("parent")
                .subgraph("child", child)
                .node("next", counting(laterRuns))
                .edge(Graph.START, "child")
                .edge("child", "next")
                .compile();

        Runner.RunHandle handle = runner.start(parent, RunRequest.of(json("\"x\"")));
        RunResult result = slow.cancelWhileHeld(runner, handle);

        assertThat(laterRuns).hasValue(0);
        // The subgraph's step failed with the child's cancellation; the child itself ended cancelled.
        assertThat(result.steps()).singleElement().satisfies(step -> {
            assertThat(step.nodeId()).isEqualTo("child");
            assertThat(step.status()).isEqualTo(StepStatus.FAILED);
            assertThat(step.error().orElseThrow().code()).isEqualTo(ErrorCode.E_CANCELLED);
        });
        assertThat(runner.store().listRuns(java.util.Optional.empty()))
                .filteredOn(run -> run.parentRunId().isPresent())
                .extracting(Run::status)
                .containsExactly(RunStatus.CANCELLED);
        assertThat(runner.store().findRun(handle.runId()).orElseThrow().status())
                .isEqualTo(RunStatus.CANCELLED);
    }

    @Test
    void cancellingAnUnknownRunIsNotFound() {
        assertThatThrownBy(() -> runner.cancel("nope"))
                .isInstanceOf(NotFoundException.class)
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_NOT_FOUND);
    }

    @Test
    void aFailingNodeFailsTheRunAndSkipsWhatWasQueued() {
        Graph graph = Graph.builder("fail")
                .node("boom", context -> {
                    throw new IllegalStateException("disk on fire");
                })
                .node("after", echo())
                .edge(Graph.START, "boom")
                .edge("boom", "after")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("1")));

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.error().orElseThrow())
                .isEqualTo(new RunError(
                        ErrorCode.E_NODE_FAILED, "node 'boom' failed: IllegalStateException: disk on fire"));
        assertThat(result.steps()).extracting(Step::status).containsExactly(StepStatus.FAILED);
    }

    @Test
    void aFailureKeepsTheCodeTheNodeGaveIt() {
        Graph graph = Graph.builder("coded")
                .node("tool", context -> {
                    throw new WeftException(ErrorCode.E_TOOL_FAILED, "calendar said no");
                })
                .edge(Graph.START, "tool")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("1")));

        assertThat(result.error().orElseThrow())
                .isEqualTo(new RunError(ErrorCode.E_TOOL_FAILED, "node 'tool': calendar said no"));
    }

    @Test
    void pinnedNodesAreNotExecutedAndTheirStepsSaySo() {
        AtomicInteger calls = new AtomicInteger();
        Graph graph = Graph.builder("pins")
                .node("fetch", context -> {
                    calls.incrementAndGet();
                    return NodeResult.output(json("{\"fresh\": true}"));
                })
                .node(NodeSpec.builder("check", echo()).booleanBranch("ok").build())
                .node("yes", named())
                .node("no", named())
                .edge(Graph.START, "fetch")
                .edge("fetch", "check")
                .edge("check", Graph.POSITIVE, "yes")
                .edge("check", Graph.NEGATIVE, "no")
                .compile();
        RunResult first = runner.run(graph, RunRequest.of(json("null")));
        assertThat(calls).hasValue(1);

        RunResult rerun = runner.run(
                graph,
                RunRequest.builder()
                        .pin("fetch", first.outputs().get("fetch"))
                        .pin("check", json("{\"ok\": true}"))
                        .build());

        assertThat(calls).hasValue(1);
        assertThat(rerun.steps())
                .extracting(Step::nodeId, Step::pinned, Step::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("fetch", true, StepStatus.COMPLETED),
                        org.assertj.core.groups.Tuple.tuple("check", true, StepStatus.COMPLETED),
                        org.assertj.core.groups.Tuple.tuple("yes", false, StepStatus.COMPLETED));
        assertThat(rerun.outputs().get("fetch")).isEqualTo(json("{\"fresh\": true}"));
    }

    @Test
    void pinningAnUnknownNodeIsRejected() {
        Graph graph =
                Graph.builder("g").node("a", echo()).edge(Graph.START, "a").compile();
        assertThatThrownBy(() -> runner.run(
                        graph, RunRequest.builder().pin("zz", json("1")).build()))
                .isInstanceOf(GraphInvalidException.class)
                .hasMessage("pinned node 'zz' is not a node of graph 'g'");
    }

    @Test
    void anInterruptPausesTheRunAndResumeContinuesFromTheCheckpoint() {
        AtomicInteger before = new AtomicInteger();
        Graph graph = Graph.builder("approval")
                .node("prepare", context -> {
                    before.incrementAndGet();
                    return NodeResult.output(json("{\"amount\": 150}"));
                })
                .node(
                        "approve",
                        context -> context.resumeValue()
                                .map(NodeResult::output)
                                .orElseGet(() -> NodeResult.interrupt(json("{\"question\": \"refund 150?\"}"))))
                .node("refund", echo())
                .edge(Graph.START, "prepare")
                .edge("prepare", "approve")
                .edge("approve", "refund")
                .compile();

        RunResult waiting = runner.run(graph, RunRequest.of(json("null")));

        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        assertThat(waiting.interrupts()).containsEntry("approve", json("{\"question\": \"refund 150?\"}"));
        assertThat(waiting.steps()).extracting(Step::status).containsExactly(StepStatus.COMPLETED, StepStatus.WAITING);
        assertThat(runner.result(waiting.runId()).interrupts()).containsKey("approve");

        RunResult done = runner.resume(waiting.runId(), json("{\"approved\": true}"));

        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(done.output()).isEqualTo(json("{\"approved\": true}"));
        assertThat(before).hasValue(1);
        assertThat(done.steps())
                .extracting(Step::order, Step::nodeId, Step::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(1, "prepare", StepStatus.COMPLETED),
                        org.assertj.core.groups.Tuple.tuple(2, "approve", StepStatus.COMPLETED),
                        org.assertj.core.groups.Tuple.tuple(3, "refund", StepStatus.COMPLETED));
        assertThatThrownBy(() -> runner.resume(waiting.runId(), json("{}")))
                .isInstanceOf(RunStateException.class)
                .hasMessage("run '" + waiting.runId() + "' is COMPLETED; only a WAITING run can be resumed");
    }

    @Test
    void aWaitingRunCanBeResumedByAnotherRunnerSharingTheStore() {
        Graph graph = Graph.builder("handoff")
                .node(
                        "ask",
                        context -> context.resumeValue()
                                .map(NodeResult::output)
                                .orElseGet(() -> NodeResult.interrupt(json("\"name?\""))))
                .edge(Graph.START, "ask")
                .compile();
        RunResult waiting = runner.run(graph, RunRequest.of(json("null")));

        Runner other = Runner.builder().store(runner.store()).build().register(graph);
        RunResult done = other.resume(waiting.runId(), json("\"Dana\""));

        assertThat(done.output()).isEqualTo(json("\"Dana\""));
    }

    @Test
    void cancellingAWaitingRunEndsItAtOnce() {
        Graph graph = Graph.builder("wait")
                .node("ask", context -> NodeResult.interrupt(json("\"?\"")))
                .edge(Graph.START, "ask")
                .compile();
        RunResult waiting = runner.run(graph, RunRequest.of(json("null")));

        Run cancelled = runner.cancel(waiting.runId());

        assertThat(cancelled.status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(runner.result(waiting.runId()).steps())
                .extracting(Step::status)
                .containsExactly(StepStatus.SKIPPED);
        assertThatThrownBy(() -> runner.resume(waiting.runId(), json("1"))).isInstanceOf(RunStateException.class);
    }

    @Test
    void resumingAnUnknownRunIsNotFound() {
        assertThatThrownBy(() -> runner.resume("missing", json("1")))
                .isInstanceOf(NotFoundException.class)
                .hasMessage("no run 'missing'");
    }

    @Test
    void runsASubgraphAsANode() {
        Graph child = Graph.builder("child")
                .node(
                        "double",
                        context -> NodeResult.output(
                                IntNode.valueOf(context.input().asInt() * 2)))
                .edge(Graph.START, "double")
                .compile();
        Graph parent = Graph.builder("parent")
                .node("start", echo())
                .subgraph("child", child)
                .node("after", echo())
                .edge(Graph.START, "start")
                .edge("start", "child")
                .edge("child", "after")
                .compile();

        RunResult result = runner.run(parent, RunRequest.of(json("21")));

        assertThat(result.output()).isEqualTo(json("42"));
        assertThat(result.steps().get(1).type()).isEqualTo("subgraph");
        assertThat(runner.store().listRuns(java.util.Optional.empty()))
                .anyMatch(run -> run.parentRunId().equals(java.util.Optional.of(result.runId())));
    }

    @Test
    void anInterruptInsideASubgraphPausesTheParentAndResumesThrough() {
        Graph child = Graph.builder("child")
                .node(
                        "ask",
                        context -> context.resumeValue()
                                .map(NodeResult::output)
                                .orElseGet(() -> NodeResult.interrupt(json("\"ok?\""))))
                .edge(Graph.START, "ask")
                .compile();
        Graph parent = Graph.builder("parent")
                .subgraph("child", child)
                .node("after", echo())
                .edge(Graph.START, "child")
                .edge("child", "after")
                .compile();

        RunResult waiting = runner.run(parent, RunRequest.of(json("null")));
        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        assertThat(waiting.interrupts().get("child").path("interrupts").path("ask"))
                .isEqualTo(json("\"ok?\""));

        RunResult done = runner.resume(waiting.runId(), json("\"yes\""));
        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(done.output()).isEqualTo(json("\"yes\""));
    }

    @Test
    void emitsOrderedEventsToListenersAndTheStore() {
        Graph graph = Graph.builder("events")
                .node("a", context -> {
                    context.emit("custom.note", json("{\"hello\": 1}"));
                    return NodeResult.empty();
                })
                .edge(Graph.START, "a")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("null")));

        List<Event> stored = runner.store().events(result.runId());
        assertThat(stored)
                .extracting(Event::type)
                .containsExactly(
                        Event.RUN_STARTED,
                        Event.STEP_STARTED,
                        "custom.note",
                        Event.STEP_COMPLETED,
                        Event.RUN_COMPLETED);
        assertThat(stored).extracting(Event::sequence).containsExactly(1L, 2L, 3L, 4L, 5L);
        assertThat(stored.get(2).nodeId()).contains("a");
        assertThat(stored.get(2).stepOrder()).isEqualTo(1);
        assertThat(events).containsExactlyElementsOf(stored);
    }

    @Test
    void aListenerThatThrowsCannotBreakARun() {
        Runner fragile = Runner.builder()
                .listener(event -> {
                    throw new IllegalStateException("listener bug");
                })
                .build();
        Graph graph =
                Graph.builder("g").node("a", echo()).edge(Graph.START, "a").compile();

        assertThat(fragile.run(graph, RunRequest.of(json("1"))).status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void writesACheckpointAfterEveryStep() {
        Graph graph = Graph.builder("cp")
                .node("a", echo())
                .node("b", echo())
                .edge(Graph.START, "a")
                .edge("a", "b")
                .compile();

        RunResult result = runner.run(graph, RunRequest.of(json("1")));

        var checkpoints = runner.store().checkpoints(result.runId());
        assertThat(checkpoints.get(0).afterStep()).isZero();
        assertThat(checkpoints.get(0).pending()).extracting(a -> a.nodeId()).containsExactly("a");
        var afterA =
                checkpoints.stream().filter(c -> c.afterStep() == 1).findFirst().orElseThrow();
        assertThat(afterA.outputs()).containsOnlyKeys("a");
        assertThat(afterA.pending()).extracting(a -> a.nodeId()).containsExactly("b");
        assertThat(checkpoints.get(checkpoints.size() - 1).outputs()).containsOnlyKeys("a", "b");
    }

    @Test
    void recordsWhatANodeReportsOnItsStep() {
        Graph graph = Graph.builder("details")
                .node("model", context -> {
                    context.record("prompt", json("\"Say hi\""));
                    context.record("tokens", json("{\"input\": 3, \"output\": 1}"));
                    return NodeResult.output(json("\"hi\""));
                })
                .edge(Graph.START, "model")
                .compile();

        Step step = runner.run(graph, RunRequest.of(json("null"))).steps().get(0);

        assertThat(step.details()).containsEntry("prompt", json("\"Say hi\""));
        assertThat(step.details()).containsEntry("tokens", json("{\"input\": 3, \"output\": 1}"));
    }

    @Test
    void aRunnerWhoseRunsAreDoneKeepsNoThreadAndCanBeCollected() throws InterruptedException {
        java.lang.ref.WeakReference<Runner> idle = runOneRunAndLetGo();

        // Well within the renewal period: a renewer that slept through it would still hold the runner.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (idle.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(50);
        }

        // Its lease renewer (every 10 s for the default 30 s lease) ended with its last run.
        assertThat(idle.get()).isNull();
    }

    @Test
    void aRunnerTakingOneRunAfterAnotherKeepsOneLeaseRenewerThatEndsSoonAfterTheLast() throws InterruptedException {
        Runner busy = Runner.builder().build();
        Graph graph =
                Graph.builder("once").node("a", echo()).edge(Graph.START, "a").compile();

        busy.run(graph, RunRequest.of(json("1")));
        Thread first = busy.renewer();
        for (int i = 0; i < 20; i++) {
            busy.run(graph, RunRequest.of(json("1")));
        }
        Thread last = busy.renewer();

        assertThat(first).isNotNull();
        assertThat(last).isSameAs(first);
        // Idle past the linger: the renewer lets go well before the first renewal (10 s).
        first.join(java.time.Duration.ofSeconds(3));
        assertThat(first.isAlive()).isFalse();
        assertThat(busy.renewer()).isNull();
    }

    private static java.lang.ref.WeakReference<Runner> runOneRunAndLetGo() {
        Runner shortLived = Runner.builder().build();
        Graph graph =
                Graph.builder("once").node("a", echo()).edge(Graph.START, "a").compile();
        assertThat(shortLived.run(graph, RunRequest.of(json("1"))).status()).isEqualTo(RunStatus.COMPLETED);
        return new java.lang.ref.WeakReference<>(shortLived);
    }
}
