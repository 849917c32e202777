package dev.weft.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RetryPolicy;
import dev.weft.core.RunResult;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.core.WeftException;
import dev.weft.llm.test.FakeModelServer;
import dev.weft.llm.test.FakeModelServer.Reply;
import dev.weft.plan.Plan;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.PlanRequest;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.plan.ResolverRegistry;
import dev.weft.plan.Risk;
import dev.weft.plan.StepOutcome;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolContext;
import dev.weft.plan.ToolRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A resolver that calls a model goes through Weft's model call path — retries honouring Retry-After,
 * one repair, facts on its step — and a plan tool is offered to a model and run from its call, all
 * against a fake provider at the wire.
 */
final class StepModelsTest {
    private static final JsonNode TITLE = Json.parse(
            "{\"type\": \"object\", \"properties\": {\"title\": {\"type\": \"string\"}}, \"required\": [\"title\"],"
                    + " \"additionalProperties\": false}",
            "schema");
    private static final Prompt PROMPT = new Prompt("You turn requests into task titles.", "remind me to call mom");

    record Title(String title) {}

    private final FakeModelServer server = FakeModelServer.start();
    private final FakeTime time = new FakeTime();
    private final Runner runner = Runner.builder().time(time).build();
    private final List<String> done = new CopyOnWriteArrayList<>();
    private final Tool create = Tool.typed("task.create", "Creates a task", Title.class, Title.class, (in, ctx) -> {
                done.add("create:" + in.title());
                return in;
            })
            .build();
    private final Tool wipe = Tool.typed("task.wipe", "Deletes every task", Title.class, Title.class, (in, ctx) -> {
                done.add("wipe");
                return in;
            })
            .risk(Risk.HIGH)
            .build();

    @AfterEach
    void stop() {
        server.close();
    }

    private Model model() {
        return Model.create(new ModelConfig(
                        Provider.OPENAI,
                        "gpt-4o-mini",
                        Optional.of(server.openAiBaseUrl()),
                        Optional.of("sk-test"),
                        Duration.ofSeconds(10)))
                .withRetry(RetryPolicy.attempts(3).withBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 2.0))
                .withJitter(FakeTime.NO_JITTER);
    }

    /** A resolver that asks the model for the task's title. */
    private Resolver modelResolver() {
        Model model = model();
        return new Resolver() {
            @Override
            public String name() {
                return "model-tasks";
            }

            @Override
            public String capability() {
                return "database";
            }

            @Override
            public Set<String> actions() {
                return Set.of("create_task");
            }

            @Override
            public Resolution resolve(PlanStep step, ResolveContext context) {
                JsonNode args = StepModels.structured(context, model, PROMPT, TITLE);
                return Resolution.execute("task.create", (ObjectNode) args);
            }
        };
    }

    private RunResult runPlan() {
        PlanExecutor executor = PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(modelResolver()))
                .tools(ToolRegistry.of(create))
                .build();
        return executor.run(
                runner,
                Plan.fromJson(Json.parse(
                        "{\"intentType\": \"t\", \"confidence\": 1, \"plan\": [{\"id\": \"A\", \"capability\":"
                                + " \"database\", \"action\": \"create_task\"}]}",
                        "plan")),
                PlanRequest.auto(Json.object()).forUser("dana"));
    }

    private static Step stepA(RunResult result) {
        return result.steps().stream()
                .filter(s -> s.nodeId().equals("step:A"))
                .reduce((a, b) -> b)
                .orElseThrow();
    }

    @Test
    void aResolversModelCallIsRetriedAfterTheProvidersRetryAfterAndItsFactsLandOnItsStep() {
        server.enqueue(Reply.rateLimited(Duration.ofSeconds(7)), Reply.text("{\"title\": \"Call mom\"}"));

        RunResult result = runPlan();

        assertThat(done).containsExactly("create:Call mom");
        assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(7));
        Step step = stepA(result);
        assertThat(step.details().get("model").asText()).isEqualTo("openai:gpt-4o-mini");
        assertThat(step.details().get("attempts").asInt()).isEqualTo(2);
        assertThat(step.details().get("prompt").get("system").asText()).isEqualTo(PROMPT.system());
        assertThat(step.details()).containsKey("tokens");
        assertThat(runner.store().events(result.runId()))
                .extracting(dev.weft.core.Event::type)
                .contains("model.retrying")
                .as("the one delta is the step's input table; the model's reply is not streamed")
                .containsOnlyOnce("assistant.delta");
    }

    record Words(String text) {}

    /** Runs a plan whose one step answers the user with the model's words, inside speaking or not. */
    private List<dev.weft.core.Event> answer(boolean speaking) {
        Model model = model();
        List<dev.weft.core.Event> heard = new CopyOnWriteArrayList<>();
        Runner listened = Runner.builder().time(time).listener(heard::add).build();
        Resolver general = new Resolver() {
            @Override
            public String name() {
                return "general";
            }

            @Override
            public String capability() {
                return "general";
            }

            @Override
            public Set<String> actions() {
                return Set.of("respond");
            }

            @Override
            public Resolution resolve(PlanStep step, ResolveContext context) {
                java.util.function.Supplier<String> words =
                        () -> StepModels.text(context, model, new Prompt("Answer briefly.", "hi"));
                ObjectNode args = Json.object().put("text", speaking ? StepModels.speaking(words) : words.get());
                return Resolution.execute("chat.respond", args);
            }
        };
        Tool respond = Tool.typed("chat.respond", "Answers in words", Words.class, Words.class, (in, ctx) -> in)
                .chat(true)
                .build();
        PlanExecutor.builder()
                .resolvers(ResolverRegistry.of(general))
                .tools(ToolRegistry.of(respond))
                .build()
                .run(
                        listened,
                        Plan.fromJson(Json.parse(
                                "{\"intentType\": \"t\", \"confidence\": 1, \"plan\": [{\"id\": \"A\", \"capability\":"
                                        + " \"general\", \"action\": \"respond\"}]}",
                                "plan")),
                        PlanRequest.auto(Json.object()).forUser("dana"));
        return heard;
    }

    @Test
    void aReplySpokenToTheUserIsStreamedTokenByTokenAsItsRunGoesOn() {
        server.enqueue(Reply.text("Hello Dana, all is well.").withChunkSize(5));

        List<dev.weft.core.Event> heard = answer(true);

        List<dev.weft.core.Event> deltas =
                heard.stream().filter(e -> e.type().equals("assistant.delta")).toList();
        assertThat(deltas).hasSize(5).allSatisfy(e -> {
            assertThat(e.data().path("source").asText()).isEqualTo("model");
            assertThat(e.data().path("stepId").asText()).isEqualTo("A");
        });
        assertThat(deltas.stream().map(e -> e.data().path("text").asText()).reduce("", String::concat))
                .isEqualTo("Hello Dana, all is well.");
        assertThat(server.lastRequest().streamed()).isTrue();
        int stepEnded = heard.indexOf(heard.stream()
                .filter(e -> e.type().equals("step.completed")
                        && e.nodeId().orElse("").equals("step:A"))
                .findFirst()
                .orElseThrow());
        assertThat(heard.indexOf(deltas.get(deltas.size() - 1)))
                .as("every delta is heard before the step ends")
                .isLessThan(stepEnded);
    }

    @Test
    void wordsAskedForOutsideSpeakingAreTheStepsWorkAndAreNotStreamed() {
        server.enqueue(Reply.text("Hello Dana.").withChunkSize(3));

        List<dev.weft.core.Event> heard = answer(false);

        assertThat(heard).noneMatch(e -> e.type().equals("assistant.delta"));
        assertThat(server.lastRequest().streamed()).isFalse();
    }

    @Test
    void aMalformedAnswerGetsOneRepairThenTheStepFailsWithAClearCode() {
        server.enqueue(Reply.text("{\"name\": \"x\"}"), Reply.text("still wrong"));

        RunResult result = runPlan();

        StepOutcome a = PlanExecutor.outcomes(result).get("A");
        assertThat(a.error().orElseThrow().code()).isEqualTo(ErrorCode.E_MODEL_OUTPUT_INVALID);
        assertThat(a.error().orElseThrow().message()).contains("asked once more");
        assertThat(server.requests()).hasSize(2);
        assertThat(done).isEmpty();
    }

    @Test
    void aPlanToolIsOfferedToTheModelAndItsCallRunsTheToolThenTheModelAnswers() {
        ToolRegistry tools = ToolRegistry.of(create, wipe);
        List<ToolDefinition> offered = PlanTools.definitions(tools);
        server.enqueue(
                Reply.toolCalls(new FakeModelServer.ToolCall("task.create", "{\"title\": \"Call mom\"}")),
                Reply.text("Done: I added 'Call mom'."));
        ToolContext context = ToolContext.detached("run-1", "A");

        ToolChoice choice = StepModels.chooseTools(context, model(), PROMPT, offered);
        ToolChoice.Calls calls = (ToolChoice.Calls) choice;
        List<JsonNode> results = calls.calls().stream()
                .map(call -> PlanTools.execute(tools, call, context.unapproved()))
                .toList();
        String answer = StepModels.answerWithToolResults(context, model(), PROMPT, offered, calls, results);

        assertThat(offered).extracting(ToolDefinition::name).containsExactly("task.create", "task.wipe");
        assertThat(offered.get(0).parameters().has("$schema")).isFalse();
        assertThat(server.requests().get(0).body().get("tools")).hasSize(2);
        assertThat(done).containsExactly("create:Call mom");
        assertThat(answer).isEqualTo("Done: I added 'Call mom'.");
        JsonNode second = server.lastRequest().body().get("messages");
        assertThat(second.get(second.size() - 1).get("role").asText()).isEqualTo("tool");
        assertThat(second.get(second.size() - 1).get("content").asText()).contains("Call mom");
    }

    @Test
    void aModelsCallOfAHighRiskToolWithoutApprovalOrWithBadArgumentsDoesNothing() {
        ToolRegistry tools = ToolRegistry.of(create, wipe);
        ToolContext context = ToolContext.detached("run-1", "A").unapproved();

        assertThatThrownBy(() -> PlanTools.execute(
                        tools, new ToolCall("c1", "task.wipe", Json.parse("{\"title\": \"all\"}", "a")), context))
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_APPROVAL_REQUIRED));
        assertThatThrownBy(() -> PlanTools.execute(
                        tools, new ToolCall("c2", "task.create", Json.parse("{\"title\": 3}", "a")), context))
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_ARGS_INVALID));
        assertThatThrownBy(() ->
                        PlanTools.execute(tools, new ToolCall("c3", "task.create", Json.parse("[1]", "a")), context))
                .satisfies(e -> assertThat(((WeftException) e).code()).isEqualTo(ErrorCode.E_ARGS_INVALID));
        assertThat(done).isEmpty();
    }

    @Test
    void aCallOfAToolThatWasNotOfferedIsAClearError() {
        server.enqueue(Reply.toolCalls(new FakeModelServer.ToolCall("rm_rf", "{}")));

        assertThatThrownBy(() -> StepModels.chooseTools(
                        ToolContext.detached("run-1", "A"),
                        model(),
                        PROMPT,
                        PlanTools.definitions(ToolRegistry.of(create))))
                .isInstanceOf(ModelOutputInvalidException.class)
                .hasMessageContaining("rm_rf")
                .hasMessageContaining("not offered");
    }

    @Test
    void aSecondPassAnswersInJsonFromTheResultsAndItsToolRequestsComeBackUncalled() {
        ToolRegistry tools = ToolRegistry.of(create, wipe);
        List<ToolDefinition> offered = PlanTools.definitions(tools);
        ToolChoice.Calls calls = new ToolChoice.Calls(
                List.of(new ToolCall("call_1", "task.create", Json.parse("{\"title\": \"Call mom\"}", "a"))));
        List<JsonNode> results = List.of(Json.parse("{\"title\": \"Call mom\"}", "r"));
        server.enqueue(
                Reply.text("{\"title\": \"Added: Call mom\"}"),
                Reply.toolCalls(new FakeModelServer.ToolCall("task.wipe", "{\"title\": \"all\"}")),
                Reply.text("not JSON"),
                Reply.text("{\"title\": \"repaired\"}"));
        ToolContext context = ToolContext.detached("run-1", "A");

        SecondPass answered = StepModels.secondPass(context, model(), PROMPT, offered, calls, results, TITLE);
        SecondPass again = StepModels.secondPass(context, model(), PROMPT, offered, calls, results, TITLE);
        SecondPass repaired = StepModels.secondPass(context, model(), PROMPT, offered, calls, results, TITLE);

        assertThat(answered).isEqualTo(new SecondPass.Answer(Json.parse("{\"title\": \"Added: Call mom\"}", "a")));
        assertThat(again).isEqualTo(new SecondPass.ToolsRequested(List.of("task.wipe")));
        assertThat(repaired).isEqualTo(new SecondPass.Answer(Json.parse("{\"title\": \"repaired\"}", "a")));
        assertThat(done).isEmpty();
        JsonNode first = server.requests().get(0).body();
        assertThat(first.path("response_format").path("type").asText()).isEqualTo("json_schema");
        assertThat(first.path("messages")
                        .get(first.path("messages").size() - 1)
                        .path("role")
                        .asText())
                .isEqualTo("tool");
    }
}
