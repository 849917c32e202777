package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.ForbiddenException;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.plan.Fixtures.Created;
import dev.weft.plan.Fixtures.Title;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A plan run is its user's: resolvers and tools act for them, and nobody else may resume or undo it. */
final class PlanUserTest {
    private final Runner runner = Runner.create();
    private final List<String> users = new CopyOnWriteArrayList<>();
    private final Tool send = Tool.typed("send", "sends", Title.class, Created.class, (in, ctx) -> {
                users.add("tool:" + ctx.user().orElse("?"));
                return new Created("m", in.title());
            })
            .risk(Risk.HIGH)
            .undo((args, result) -> Optional.of(new UndoAction("unsend", Fixtures.object("{\"title\": \"x\"}"))))
            .build();
    private final Tool unsend = Tool.typed("unsend", "takes back", Title.class, Title.class, (in, ctx) -> {
                users.add("undo:" + ctx.user().orElse("?"));
                return in;
            })
            .build();
    private final PlanExecutor executor = PlanExecutor.builder()
            .resolvers(ResolverRegistry.of(Fixtures.resolver("mail", (step, context) -> {
                users.add("resolver:" + context.user().orElse("?"));
                return Resolution.execute("send", step.constraints().deepCopy());
            })))
            .tools(ToolRegistry.of(send, unsend))
            .build();

    private RunResult waitingFor(String user) {
        return executor.run(
                runner,
                Fixtures.plan("{\"intentType\": \"send\", \"confidence\": 1, \"plan\": [{\"id\": \"A\", \"capability\":"
                        + " \"mail\", \"action\": \"send\", \"constraints\": {\"title\": \"hi\"}}]}"),
                PlanRequest.auto(json("null")).forUser(user));
    }

    @Test
    void resolversAndToolsActForTheRunsUser() {
        RunResult waiting = waitingFor("dana");

        RunResult done = executor.resume(runner, waiting.runId(), PlanDecision.approve("A"), "dana");

        assertThat(done.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(done.run().user()).contains("dana");
        assertThat(users).containsExactly("resolver:dana", "tool:dana");
    }

    @Test
    void anotherUserCannotApproveOrUndoTheRunAndNothingChanges() {
        RunResult waiting = waitingFor("dana");

        assertThatThrownBy(() -> executor.resume(runner, waiting.runId(), PlanDecision.approve("A"), "omer"))
                .isInstanceOf(ForbiddenException.class)
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_FORBIDDEN);
        assertThat(runner.result(waiting.runId()).status()).isEqualTo(RunStatus.WAITING);
        assertThat(users).doesNotContain("tool:dana", "tool:omer");

        executor.resume(runner, waiting.runId(), PlanDecision.approve("A"), "dana");
        assertThatThrownBy(() -> executor.undo(runner, waiting.runId(), "omer")).isInstanceOf(ForbiddenException.class);
        PlanExecutor.UndoReport undone = executor.undo(runner, waiting.runId(), "dana");

        assertThat(undone.complete()).isTrue();
        assertThat(runner.result(undone.undoRunId().orElseThrow()).run().user()).contains("dana");
        assertThat(users).endsWith("undo:dana");
    }
}
