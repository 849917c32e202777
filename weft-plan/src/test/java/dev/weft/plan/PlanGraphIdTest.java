package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.plan.Fixtures.Calls;
import dev.weft.plan.Fixtures.Created;
import dev.weft.plan.Fixtures.Title;
import org.junit.jupiter.api.Test;

/** Plans of one intent type never share a graph, so a resume always continues the plan it stopped in. */
final class PlanGraphIdTest {
    private final Calls calls = new Calls();
    private final Runner runner = Runner.create();
    private final Tool send = Tool.typed("send", "sends", Title.class, Created.class, (in, ctx) -> {
                calls.add("send:" + in.title());
                return new Created("m", in.title());
            })
            .risk(Risk.HIGH)
            .build();
    private final PlanExecutor executor = PlanExecutor.builder()
            .resolvers(ResolverRegistry.of(Fixtures.passThrough("mail", "send")))
            .tools(ToolRegistry.of(send))
            .build();

    private static Plan sending(String title) {
        return Fixtures.plan("{\"intentType\": \"send_email\", \"confidence\": 1, \"plan\": [{\"id\": \"A\","
                + " \"capability\": \"mail\", \"action\": \"send\", \"constraints\": {\"title\": \"" + title
                + "\"}}]}");
    }

    @Test
    void twoPlansOfOneIntentTypeHaveDifferentGraphIdsAndTheSamePlanTheSameId() {
        assertThat(executor.graph(sending("one")).id())
                .startsWith("plan:send_email:")
                .isNotEqualTo(executor.graph(sending("two")).id())
                .isEqualTo(executor.graph(sending("one")).id());
    }

    @Test
    void resumingARunContinuesItsOwnPlanAfterAnotherOfTheSameIntentStarted() {
        RunResult first = executor.run(runner, sending("one"), PlanRequest.auto(json("null")));
        RunResult second = executor.run(runner, sending("two"), PlanRequest.auto(json("null")));
        assertThat(first.status()).isEqualTo(RunStatus.WAITING);
        assertThat(second.status()).isEqualTo(RunStatus.WAITING);

        // By id alone, the runner finds the graph it keeps under the run's graph id.
        RunResult byId = runner.resume(first.runId(), PlanDecision.approve("A").toJson());
        RunResult resumed = executor.resume(runner, second.runId(), PlanDecision.approve("A"));

        assertThat(resumed.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(byId.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(calls.snapshot()).containsExactly("send:one", "send:two");
    }
}
