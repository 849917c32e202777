package dev.weft.plan;

import static dev.weft.plan.Fixtures.json;
import static dev.weft.plan.Fixtures.object;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.plan.Fixtures.Calls;
import dev.weft.plan.Fixtures.Title;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Plans are checked before they run: placeholders read steps they depend on, at paths the read
 * step's tool can produce; where the tool is known only once resolved, the check is made then, before
 * the call.
 */
final class PlanCheckTest {
    record Email(String id, String subject) {}

    record Emails(List<Email> emails, int count) {}

    private final Calls calls = new Calls();
    private final Runner runner = Runner.create();
    private final Tool fetch = Tool.typed("email.fetch", "fetches", Title.class, Emails.class, (in, ctx) -> {
                calls.add("fetch");
                return new Emails(List.of(new Email("e1", "Invoice"), new Email("e2", "Lunch")), 2);
            })
            .build();
    private final Tool create = Tool.typed("task.create", "creates", Title.class, Title.class, (in, ctx) -> {
                calls.add("create:" + in.title());
                return in;
            })
            .build();

    /** A resolver that knows its tool before resolving, as a model-free assistant's resolvers do. */
    private static Resolver knowing(String capability, String tool) {
        return new Resolver() {
            @Override
            public String name() {
                return capability;
            }

            @Override
            public String capability() {
                return capability;
            }

            @Override
            public Set<String> actions() {
                return Set.of("fetch", "create");
            }

            @Override
            public Optional<String> tool(PlanStep step) {
                return Optional.of(tool);
            }

            @Override
            public Resolution resolve(PlanStep step, ResolveContext context) {
                return Resolution.execute(tool, step.constraints().deepCopy());
            }
        };
    }

    private PlanExecutor executor(Resolver email, Resolver tasks) {
        return PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(email, tasks))
                .tools(ToolRegistry.of(fetch, create))
                .build();
    }

    private static Plan plan(String bTitle, String bDependsOn) {
        return Fixtures.plan("{\"intentType\": \"t\", \"confidence\": 1, \"plan\": ["
                + "{\"id\": \"A\", \"capability\": \"email\", \"action\": \"fetch\", \"constraints\": {\"title\": \"x\"}},"
                + "{\"id\": \"B\", \"capability\": \"database\", \"action\": \"create\", \"constraints\": {\"title\": \""
                + bTitle + "\"}, \"dependsOn\": " + bDependsOn + "}]}");
    }

    @Test
    void aPlaceholderThatReadsAStepItDoesNotDependOnIsRejectedBeforeAnythingRuns() {
        PlanExecutor executor = executor(knowing("email", "email.fetch"), knowing("database", "task.create"));

        assertThatThrownBy(() ->
                        executor.run(runner, plan("Pay $A.emails[0].subject", "[]"), PlanRequest.auto(json("null"))))
                .isInstanceOf(PlanInvalidException.class)
                .hasMessageContaining("step 'B'")
                .hasMessageContaining("$A.emails[0].subject")
                .hasMessageContaining("does not depend on")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_PLAN_INVALID);
        assertThat(calls.snapshot()).isEmpty();
        assertThat(runner.store().listRuns(Optional.empty())).isEmpty();
    }

    @Test
    void aPathTheReadStepsToolCannotProduceIsRejectedBeforeAnythingRuns() {
        PlanExecutor executor = executor(knowing("email", "email.fetch"), knowing("database", "task.create"));

        assertThatThrownBy(() -> executor.graph(plan("Pay $A.mails[0].subject", "[\"A\"]")))
                .isInstanceOf(PlanInvalidException.class)
                .hasMessageContaining("$A.mails[0].subject")
                .hasMessageContaining("tool 'email.fetch'")
                .hasMessageContaining("no property 'mails'");
        assertThatThrownBy(() -> executor.graph(plan("Pay $A.count[*]", "[\"A\"]")))
                .isInstanceOf(PlanInvalidException.class)
                .hasMessageContaining("'count' is not an array");
        assertThat(executor.graph(plan("Pay $A.emails[*].subject", "[\"A\"]"))).isNotNull();
    }

    @Test
    void whereTheToolIsKnownOnlyOnceResolvedTheStepIsCheckedBeforeItsCall() {
        Resolver tasks = Fixtures.resolver(
                "database",
                (step, context) -> Resolution.execute("task.create", object("{\"title\": \"$A.subjects[0]\"}")));
        PlanExecutor executor = executor(Fixtures.passThrough("email", "email.fetch"), tasks);

        RunResult result = executor.run(runner, plan("ignored", "[\"A\"]"), PlanRequest.auto(json("null")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        StepOutcome b = PlanExecutor.outcomes(result).get("B");
        assertThat(b.status()).isEqualTo(StepOutcome.Status.FAILED);
        assertThat(b.error().orElseThrow().code()).isEqualTo(ErrorCode.E_PLAN_INVALID);
        assertThat(b.error().orElseThrow().message())
                .contains("$A.subjects[0]")
                .contains("tool 'email.fetch'")
                .contains("no property 'subjects'");
        assertThat(calls.snapshot()).containsExactly("fetch");
    }

    @Test
    void aPreviewChecksPlaceholdersAgainstTheToolThePreviewedStepWouldCall() {
        Resolver tasks = Fixtures.resolver(
                "database", (step, context) -> Resolution.execute("task.create", object("{\"title\": \"$A.nope\"}")));
        PlanExecutor executor = executor(Fixtures.passThrough("email", "email.fetch"), tasks);

        RunResult result = executor.run(
                runner, plan("ignored", "[\"A\"]"), new PlanRequest(PlanMode.PREVIEW, json("null"), Set.of(), Json()));

        assertThat(PlanExecutor.outcomes(result).get("B").error().orElseThrow().code())
                .isEqualTo(ErrorCode.E_PLAN_INVALID);
        assertThat(calls.snapshot()).isEmpty();
    }

    @Test
    void aDollarSignThatNamesNoStepIsText() {
        PlanExecutor executor = executor(knowing("email", "email.fetch"), knowing("database", "task.create"));

        RunResult result = executor.run(
                runner,
                plan("Pay $50 to Dana, $A.emails[0].subject, $HOME", "[\"A\"]"),
                PlanRequest.auto(json("null")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(calls.snapshot()).containsExactly("fetch", "create:Pay $50 to Dana, Invoice, $HOME");
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode Json() {
        return dev.weft.core.Json.object();
    }
}
