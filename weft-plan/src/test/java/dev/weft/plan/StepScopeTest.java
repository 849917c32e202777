package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static dev.weft.plan.Fixtures.object;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.weft.core.Event;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.plan.Fixtures.FakeTime;
import dev.weft.plan.Fixtures.Title;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Resolvers and tools see their step: the run, the step, time, events, facts, once and the key. */
final class StepScopeTest {
    private final FakeTime time = new FakeTime();
    private final Runner runner = Runner.builder().time(time).build();
    private final Map<String, Object> seen = new ConcurrentHashMap<>();

    private static Plan plan(String steps) {
        return Fixtures.plan("{\"intentType\": \"scope\", \"confidence\": 1, \"plan\": " + steps + "}");
    }

    @Test
    void aResolverSeesItsStepAndRecordsFactsAndEventsOnIt() {
        AtomicInteger modelCalls = new AtomicInteger();
        Resolver resolver = Fixtures.resolver("x", (step, context) -> {
            seen.put("runId", context.runId());
            seen.put("stepId", context.stepId());
            seen.put("key", context.idempotencyKey());
            seen.put("now", context.time().now());
            context.record("model", TextNode.valueOf("offline:rules"));
            context.emit("resolver.note", object("{\"text\": \"thinking\"}"));
            JsonNode first = context.once("model-call", () -> json("" + modelCalls.incrementAndGet()));
            JsonNode second = context.once("model-call", () -> json("" + modelCalls.incrementAndGet()));
            seen.put("once", List.of(first, second));
            return Resolution.execute("echo", object("{\"title\": \"hi\"}"));
        });
        Tool echo = Tool.typed("echo", "echoes", Title.class, Title.class, (in, ctx) -> in)
                .build();
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(resolver))
                .tools(ToolRegistry.of(echo))
                .build();

        RunResult result = executor.run(
                runner,
                plan("[{\"id\": \"A\", \"capability\": \"x\", \"action\": \"create\"}]"),
                PlanRequest.auto(json("null")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(seen)
                .containsEntry("runId", result.runId())
                .containsEntry("stepId", "A")
                .containsEntry("key", result.runId() + "/A/resolve");
        assertThat((Instant) seen.get("now")).isAfter(Instant.parse("2026-11-21T09:59:00Z"));
        assertThat((Instant) seen.get("now")).isBefore(Instant.parse("2026-11-21T10:01:00Z"));
        assertThat(seen.get("once")).isEqualTo(List.of(json("1"), json("1")));
        assertThat(modelCalls).hasValue(1);
        Step step = result.steps().stream()
                .filter(s -> s.nodeId().equals("step:A"))
                .findFirst()
                .orElseThrow();
        assertThat(step.details()).containsEntry("model", TextNode.valueOf("offline:rules"));
        Event note = runner.store().events(result.runId()).stream()
                .filter(e -> e.type().equals("resolver.note"))
                .findFirst()
                .orElseThrow();
        assertThat(note.data().get("stepId").asText()).isEqualTo("A");
        assertThat(note.data().get("text").asText()).isEqualTo("thinking");
    }

    @Test
    void aToolSeesItsCallAndEachChildOfAnExpandedStepHasItsOwnKey() {
        Map<String, ToolContext> contexts = new ConcurrentHashMap<>();
        Tool fetch = Tool.json(
                        "fetch",
                        "lists",
                        object("{\"type\": \"object\"}"),
                        object("{\"type\": \"object\"}"),
                        (args, ctx) -> json("{\"items\": [{\"t\": \"a\"}, {\"t\": \"b\"}]}"))
                .idempotent(true)
                .build();
        Tool note = Tool.typed("note", "notes", Title.class, Title.class, (in, ctx) -> {
                    contexts.put(ctx.stepId(), ctx);
                    ctx.record("seen", TextNode.valueOf(in.title()));
                    return in;
                })
                .build();
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(
                        Fixtures.passThrough("list", "fetch"),
                        Fixtures.resolver(
                                "notes",
                                (step, ctx) -> Resolution.execute("note", object("{\"title\": \"$A.items[*].t\"}")))))
                .tools(ToolRegistry.of(fetch, note))
                .build();

        RunResult result = executor.run(
                runner,
                plan(
                        "[{\"id\": \"A\", \"capability\": \"list\", \"action\": \"list\"},"
                                + " {\"id\": \"B\", \"capability\": \"notes\", \"action\": \"create\", \"dependsOn\": [\"A\"]}]"),
                PlanRequest.auto(json("null")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(contexts).containsOnlyKeys("B-0", "B-1");
        ToolContext child = contexts.get("B-1");
        assertThat(child.runId()).isEqualTo(result.runId());
        assertThat(child.idempotencyKey()).isEqualTo(result.runId() + "/B-1");
        assertThat(child.attempt()).isEqualTo(1);
        assertThat(child.approved()).isTrue();
        assertThat(child.time()).isSameAs(time);
        Step step = result.steps().stream()
                .filter(s -> s.nodeId().equals("step:B"))
                .findFirst()
                .orElseThrow();
        assertThat(step.details())
                .containsEntry("B-0.seen", TextNode.valueOf("a"))
                .containsEntry("B-1.seen", TextNode.valueOf("b"));
    }

    @Test
    void aDetachedContextRemembersOnceForItsOwnLife() {
        ToolContext context = ToolContext.detached("run-1", "A");
        AtomicInteger calls = new AtomicInteger();

        context.once("k", () -> json("" + calls.incrementAndGet()));
        JsonNode again = context.once("k", () -> json("" + calls.incrementAndGet()));

        assertThat(again).isEqualTo(json("1"));
        assertThat(context.idempotencyKey()).isEqualTo("run-1/A");
        assertThat(context.approved()).isTrue();
    }

    @Test
    void aContextForACallAStepMakesItselfIsTheStepsAndApprovedOnlyWhenSaid() {
        AtomicInteger calls = new AtomicInteger();
        Map<String, JsonNode> seen = new ConcurrentHashMap<>();
        dev.weft.core.Graph graph = dev.weft.core.Graph.builder("calls")
                .node("dispatch", node -> {
                    ToolContext first = ToolContext.of(node, "call-0", false);
                    ToolContext second = ToolContext.of(node, "call-1", true);
                    first.once("call", () -> json("" + calls.incrementAndGet()));
                    JsonNode again = first.once("call", () -> json("" + calls.incrementAndGet()));
                    second.once("call", () -> json("" + calls.incrementAndGet()));
                    seen.put("again", again);
                    seen.put("first", TextNode.valueOf(first.approved() + " " + first.idempotencyKey()));
                    seen.put(
                            "second",
                            TextNode.valueOf(
                                    second.approved() + " " + second.user().orElse("")));
                    return dev.weft.core.NodeResult.output(TextNode.valueOf("done"));
                })
                .edge(dev.weft.core.Graph.START, "dispatch")
                .compile();

        RunResult result = Runner.create()
                .run(graph, dev.weft.core.RunRequest.builder().user("dana").build());

        assertThat(result.status()).as(result.error().toString()).isEqualTo(RunStatus.COMPLETED);
        assertThat(calls.get()).isEqualTo(2);
        assertThat(seen.get("again")).isEqualTo(json("1"));
        assertThat(seen.get("first").asText()).isEqualTo("false " + result.runId() + "/call-0");
        assertThat(seen.get("second").asText()).isEqualTo("true dana");
    }
}
