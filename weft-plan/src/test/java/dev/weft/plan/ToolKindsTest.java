package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static dev.weft.plan.Fixtures.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.NotFoundException;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.plan.Fixtures.Created;
import dev.weft.plan.Fixtures.Title;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Lenient and chat tools, and the approval every high-risk call needs whatever path it comes by. */
final class ToolKindsTest {
    private final Runner runner = Runner.create();
    private final AtomicInteger sent = new AtomicInteger();

    record Tags(List<String> tags) {}

    record Reply(String text) {}

    private final Tool send = Tool.typed("send", "sends", Title.class, Created.class, (in, ctx) -> {
                sent.incrementAndGet();
                return new Created("m-1", in.title());
            })
            .risk(Risk.HIGH)
            .build();

    private RunResult runOne(Tool tool, String constraints) {
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(Fixtures.passThrough("x", tool.name())))
                .tools(ToolRegistry.of(tool))
                .build();
        return executor.run(
                runner,
                Fixtures.plan("{\"intentType\": \"t\", \"confidence\": 1, \"plan\": [{\"id\": \"A\", \"capability\":"
                        + " \"x\", \"action\": \"create\", \"constraints\": " + constraints + "}]}"),
                PlanRequest.auto(json("null")));
    }

    private List<String> types(RunResult result) {
        return runner.store().events(result.runId()).stream().map(Event::type).toList();
    }

    @Test
    void aLenientToolTakesArgumentsItsSchemaWouldRejectAndIsNotHeldToItsOutputSchema() {
        Tool tag = Tool.typed("tag", "tags", Tags.class, Tags.class, (in, ctx) -> in)
                .lenient(true)
                .build();
        Tool strict = Tool.typed("tag", "tags", Tags.class, Tags.class, (in, ctx) -> in)
                .build();

        RunResult lenient = runOne(tag, "{\"tags\": \"one\", \"extra\": true}");
        RunResult rejected = runOne(strict, "{\"tags\": \"one\", \"extra\": true}");

        assertThat(lenient.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(PlanExecutor.summary(lenient).orElseThrow().results().get("A"))
                .isEqualTo(json("{\"tags\": [\"one\"]}"));
        assertThat(rejected.status()).isEqualTo(RunStatus.FAILED);
        assertThat(rejected.run().error().orElseThrow().code()).isEqualTo(ErrorCode.E_ARGS_INVALID);
    }

    @Test
    void aChatToolTalksToTheUserWithoutAnInputTableAndEndsWithAssistantFinal() {
        Tool respond = Tool.typed("chat.respond", "answers", Reply.class, Reply.class, (in, ctx) -> in)
                .chat(true)
                .risk(Risk.HIGH)
                .build();

        RunResult result = runOne(respond, "{\"text\": \"Done: 2 tasks\", \"mood\": \"cheerful\"}");

        assertThat(respond.lenient()).isTrue();
        assertThat(result.status()).as("a chat tool never waits for approval").isEqualTo(RunStatus.COMPLETED);
        assertThat(types(result))
                .contains(PlanEvents.TOOL_CALLED, PlanEvents.ASSISTANT_FINAL)
                .doesNotContain(PlanEvents.ASSISTANT_DELTA, PlanEvents.APPROVAL_AWAITING);
        JsonNode last = runner.store().events(result.runId()).stream()
                .filter(e -> e.type().equals(PlanEvents.ASSISTANT_FINAL))
                .findFirst()
                .orElseThrow()
                .data();
        assertThat(last.get("text").asText()).isEqualTo("Done: 2 tasks");
        assertThat(last.get("stepId").asText()).isEqualTo("A");
    }

    @Test
    void aHighRiskToolCalledWithoutApprovalIsRefusedAndDoesNothing() {
        ToolContext unapproved = new ToolContext(ToolContext.detached("run-1", "A"), "A", 1, false, false);

        assertThatThrownBy(() -> send.invoke(object("{\"title\": \"hi\"}"), unapproved))
                .isInstanceOf(ApprovalRequiredException.class)
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_APPROVAL_REQUIRED);
        assertThatThrownBy(() -> ToolRegistry.of(send).call("send", object("{\"title\": \"hi\"}"), unapproved))
                .isInstanceOf(ApprovalRequiredException.class);
        assertThat(sent).hasValue(0);
    }

    @Test
    void aHighRiskStepWaitsForApprovalAndItsCallIsMadeOnceApproved() {
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(Fixtures.passThrough("x", "send")))
                .tools(ToolRegistry.of(send))
                .build();
        RunResult waiting = executor.run(
                runner,
                Fixtures.plan("{\"intentType\": \"t\", \"confidence\": 1, \"plan\": [{\"id\": \"A\", \"capability\":"
                        + " \"x\", \"action\": \"send\", \"constraints\": {\"title\": \"hi\"}}]}"),
                PlanRequest.auto(json("null")));
        assertThat(waiting.status()).isEqualTo(RunStatus.WAITING);
        assertThat(sent).hasValue(0);

        RunResult done = executor.resume(runner, waiting.runId(), PlanDecision.approve("A"));

        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(sent).hasValue(1);
    }

    record Op(String operation) {}

    @Test
    void aToolWhoseRiskDependsOnTheCallWaitsOnlyForItsRiskyCalls() {
        List<String> done = new java.util.concurrent.CopyOnWriteArrayList<>();
        Tool tasks = Tool.typed("tasks", "task operations", Op.class, Op.class, (in, ctx) -> {
                    done.add(in.operation());
                    return in;
                })
                .risk(args -> args.path("operation").asText().equals("deleteAll") ? Risk.HIGH : Risk.LOW)
                .build();

        RunResult one = runOne(tasks, "{\"operation\": \"delete\"}");
        RunResult all = runOne(tasks, "{\"operation\": \"deleteAll\"}");

        assertThat(tasks.risk()).isEqualTo(Risk.HIGH);
        assertThat(one.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(all.status()).isEqualTo(RunStatus.WAITING);
        assertThat(done).containsExactly("delete");
        assertThatThrownBy(() -> tasks.invoke(
                        object("{\"operation\": \"deleteAll\"}"),
                        new ToolContext(ToolContext.detached("r", "A"), "A", 1, false, false)))
                .isInstanceOf(ApprovalRequiredException.class);
    }

    @Test
    void callingAToolByNameValidatesItsArgumentsAndCallsItOncePerContext() {
        ToolRegistry tools = ToolRegistry.of(send);
        ToolContext approved = ToolContext.detached("run-1", "A");

        JsonNode first = tools.call("send", object("{\"title\": \"hi\"}"), approved);
        JsonNode again = tools.call("send", object("{\"title\": \"hi\"}"), approved);

        assertThat(first).isEqualTo(again);
        assertThat(sent).as("not idempotent: called once for the context").hasValue(1);
        assertThatThrownBy(() -> tools.call("send", object("{\"title\": 5}"), approved))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("/title")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_ARGS_INVALID);
        assertThatThrownBy(() -> tools.call("nope", object("{}"), approved))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("nope");
    }
}
