package dev.weft.cli;

import static dev.weft.cli.CommandRunner.weft;
import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.Json;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanRequest;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weft runs} works on plan runs as on workflow runs, through the executor their assistant provides. */
final class PlanRunsCommandTest {
    @TempDir
    Path dir;

    private String db;

    @BeforeEach
    void database() {
        db = "sqlite:" + dir.resolve("runs.db");
        TestPlans.CALLS.clear();
    }

    private CommandRunner.Outcome weftDb(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--db");
        all.add(db);
        return weft(all.toArray(String[]::new));
    }

    private static Plan plan(String action, String text) {
        return Plan.fromJson(Json.parse(
                "{\"intentType\": \"t\", \"confidence\": 1, \"plan\": [{\"id\": \"A\", \"capability\": \"test\","
                        + " \"action\": \"" + action + "\", \"constraints\": {\"text\": \"" + text + "\"}}]}",
                "plan"));
    }

    /** Starts a plan run in this process, as an assistant would, and leaves it where it stops. */
    private String started(String action, String text) {
        try (RunStore store = Stores.open(db)) {
            RunResult result = TestPlans.executor()
                    .run(Runner.builder().store(store).build(), plan(action, text), PlanRequest.auto(Json.object()));
            return result.runId();
        }
    }

    @Test
    void aWaitingPlanRunIsShownAndApprovedFromTheCommand() {
        String runId = started("send", "hello");

        var shown = weftDb("runs", "show", runId, "--json");
        var resumed = weftDb("runs", "resume", runId, "--approve", "A", "--json");

        assertThat(shown.json().get("status").asText()).isEqualTo("WAITING");
        assertThat(resumed.exitCode()).as(resumed.err()).isZero();
        assertThat(resumed.json().get("status").asText()).isEqualTo("COMPLETED");
        assertThat(TestPlans.CALLS).containsExactly("send:hello");
    }

    @Test
    void aWaitingPlanRunIsCancelledFromTheCommand() {
        String runId = started("send", "never");

        var cancelled = weftDb("runs", "cancel", runId, "--json");

        assertThat(cancelled.exitCode()).as(cancelled.err()).isNotEqualTo(2);
        assertThat(weftDb("runs", "show", runId, "--json").json().get("status").asText())
                .isEqualTo("CANCELLED");
        assertThat(TestPlans.CALLS).isEmpty();
    }

    @Test
    void aPlanRunWhoseProcessDiedIsRecoveredByResumeAll() throws Exception {
        // The dying process's clock is an hour behind: the lease it holds has long expired for the command.
        TimeSource past = new TimeSource() {
            @Override
            public Instant now() {
                return Instant.now().minus(Duration.ofHours(1));
            }

            @Override
            public void sleep(Duration duration) {}
        };
        try (RunStore store = Stores.open(db)) {
            Runner dying = Runner.builder().store(store).time(past).build();
            TestPlans.executor().start(dying, plan("stall", "late"), PlanRequest.auto(Json.object()));
            assertThat(TestPlans.STALLED.await(10, TimeUnit.SECONDS)).isTrue();

            var recovered = weftDb("runs", "resume", "--all", "--json");

            assertThat(recovered.exitCode()).as(recovered.err()).isZero();
            assertThat(recovered.json().get(0).get("status").asText()).isEqualTo(RunStatus.COMPLETED.name());
            assertThat(TestPlans.CALLS).containsExactly("stall:late");
        }
    }

    @Test
    void aPlanRunOfAnExecutorTheCommandDoesNotHaveIsAClearError() {
        String runId;
        try (RunStore store = Stores.open(db)) {
            runId = dev.weft.plan.PlanExecutor.builder()
                    .name("elsewhere")
                    .build()
                    .run(Runner.builder().store(store).build(), plan("send", "x"), PlanRequest.auto(Json.object()))
                    .runId();
        }

        var resumed = weftDb("runs", "resume", runId, "--approve", "A", "--json");

        assertThat(resumed.exitCode()).isEqualTo(2);
        assertThat(resumed.json().get("error").get("message").asText())
                .contains("executor 'elsewhere'")
                .contains("continue it from the program that started it");
    }
}
