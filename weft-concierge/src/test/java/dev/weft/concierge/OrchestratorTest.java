package dev.weft.concierge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.shop.DemoShop;
import dev.weft.concierge.shop.OrderStatus;
import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.concierge.shop.ShopTools;
import dev.weft.concierge.spi.MemoryFact;
import dev.weft.concierge.spi.Planner;
import dev.weft.concierge.spi.PlannerInput;
import dev.weft.concierge.spi.Specialist;
import dev.weft.concierge.spi.SpecialistInput;
import dev.weft.concierge.spi.SpecialistOutput;
import dev.weft.concierge.spi.ToolRequest;
import dev.weft.concierge.spi.ToolResult;
import dev.weft.core.ErrorCode;
import dev.weft.core.Graph;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.core.RunResult;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.core.Step;
import dev.weft.core.StepScope;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 004's orchestrator and its guarantees, each shown by a specialist that breaks it: the ten nodes
 * compiled at startup (a graph that does not compile stops it), the state validated before every save,
 * memory written only after the save, an empty reply refused, tools asked for in the second pass or
 * outside the goal's list refused with their own codes — and nothing done or saved when one of them fails.
 */
final class OrchestratorTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    @TempDir
    Path dir;

    private RunStore store;
    private Runner runner;

    @BeforeEach
    void open() {
        store = Stores.open("sqlite:" + dir.resolve("concierge.db"));
        runner = Runner.builder().store(store).build();
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** A concierge whose planner always picks {@code goal} and whose specialist for it is {@code specialist}. */
    private Concierge concierge(Goal goal, Specialist specialist) {
        Planner planner = new Planner() {
            @Override
            public String name() {
                return "fixed";
            }

            @Override
            public ObjectNode plan(StepScope step, PlannerInput input) {
                ObjectNode plan = Json.object();
                plan.put("goal", goal.id());
                plan.putObject("slots");
                return plan;
            }
        };
        Concierge concierge = Concierge.builder(store)
                .policy(ShopPolicy.demo())
                .planner(planner)
                .specialist(goal, specialist)
                .build();
        DemoShop.load(concierge.shop(), NOW);
        return concierge;
    }

    private static Specialist specialist(
            java.util.function.Function<SpecialistInput, SpecialistOutput> first,
            BiFunction<SpecialistInput, List<ToolResult>, SpecialistOutput> second) {
        return new Specialist() {
            @Override
            public SpecialistOutput first(StepScope step, SpecialistInput input) {
                return first.apply(input);
            }

            @Override
            public SpecialistOutput second(
                    StepScope step, SpecialistInput input, SpecialistOutput pass1, List<ToolResult> results) {
                return second.apply(input, results);
            }
        };
    }

    private static ObjectNode verifiedAs(String id, String name) {
        ObjectNode updates = Json.object();
        updates.putObject("customer")
                .put("verified", true)
                .put("id", id)
                .put("name", name)
                .put("method", "email");
        return updates;
    }

    /** The one run that failed. */
    private RunResult lastRun() {
        return runner.result(store.listRuns(Optional.of(RunStatus.FAILED)).stream()
                .findFirst()
                .orElseThrow()
                .id());
    }

    @Test
    void everyTurnRunsTheTenNodeGraphCompiledAtStartup() {
        Concierge concierge = Concierge.open(store, Optional.empty(), ShopPolicy.demo());
        DemoShop.load(concierge.shop(), NOW);

        Concierge.Reply reply = concierge.converse(runner, "web", "s1", "hello", Optional.empty());

        Graph graph = concierge.graph();
        assertThat(graph.id()).isEqualTo(Concierge.GRAPH_ID);
        assertThat(graph.nodes().keySet())
                .containsExactly(
                        "validate_request",
                        "load_or_create_state",
                        "read_memory",
                        "plan_goal",
                        "apply_plan",
                        "dispatch_specialist",
                        "apply_state_updates",
                        "validate_and_save_state",
                        "write_memory",
                        "finalize_reply");
        assertThat(reply.run().run().graphId()).isEqualTo(Concierge.GRAPH_ID);
        assertThat(reply.run().steps())
                .extracting(Step::nodeId)
                .containsExactlyElementsOf(graph.nodes().keySet());
        assertThat(reply.goal()).isEqualTo("smalltalk");
    }

    @Test
    void aGraphThatDoesNotCompileStopsStartupNamingTheNodeAndTheRule() {
        assertThatThrownBy(() -> Concierge.builder(store)
                        .editGraph(graph -> graph.edge("finalize_reply", "notify_customer"))
                        .build())
                .isInstanceOf(GraphInvalidException.class)
                .hasMessageContaining("notify_customer")
                .hasMessageContaining("unknown node")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_GRAPH_INVALID);
    }

    @Test
    void aStateThatDoesNotFitItsSchemaFailsTheTurnAndNothingIsSaved() {
        Concierge concierge = concierge(
                Goal.ORDER_STATUS,
                specialist(
                        input -> {
                            ObjectNode updates = Json.object();
                            // Verified, but without the customer's id and name: the schema refuses it.
                            updates.putObject("customer").put("verified", true);
                            return SpecialistOutput.say("You're verified.")
                                    .withUpdates(updates)
                                    .withMemory(List.of(new MemoryFact("size", "apparel", "M")));
                        },
                        (input, results) -> SpecialistOutput.say("unused")));

        assertThatThrownBy(() -> concierge.converse(runner, "web", "s1", "where is my order?", Optional.empty()))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("/customer")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_STATE_INVALID);

        RunResult failed = lastRun();
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(failed.steps()).extracting(Step::nodeId).doesNotContain("write_memory", "finalize_reply");
        assertThat(concierge.conversations().load("web", "s1")).isEmpty();
    }

    @Test
    void aTurnWhoseStateDoesNotFitLeavesTheSavedStateAsItWas() {
        boolean[] breakIt = {false};
        Concierge concierge = concierge(
                Goal.ORDER_STATUS,
                specialist(
                        input -> {
                            ObjectNode updates = Json.object();
                            updates.put("awaiting", breakIt[0] ? "a yes, eventually" : "order");
                            return SpecialistOutput.say("Which order?").withUpdates(updates);
                        },
                        (input, results) -> SpecialistOutput.say("unused")));
        concierge.converse(runner, "web", "s1", "status please", Optional.empty());
        Conversations.Saved saved = concierge.conversations().load("web", "s1").orElseThrow();

        breakIt[0] = true;
        assertThatThrownBy(() -> concierge.converse(runner, "web", "s1", "status again", Optional.empty()))
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_STATE_INVALID);

        assertThat(concierge.conversations().load("web", "s1")).contains(saved);
    }

    @Test
    void memoryIsWrittenOnlyAfterTheStateIsSaved() {
        boolean[] breakIt = {true};
        Concierge concierge = concierge(
                Goal.ORDER_STATUS,
                specialist(
                        input -> {
                            ObjectNode updates = verifiedAs("C01", "Emma Johnson");
                            if (breakIt[0]) {
                                updates.put("turns", -1);
                            }
                            return SpecialistOutput.say("Noted.")
                                    .withUpdates(updates)
                                    .withMemory(List.of(new MemoryFact("size", "apparel", "M")));
                        },
                        (input, results) -> SpecialistOutput.say("unused")));

        assertThatThrownBy(() -> concierge.converse(runner, "web", "s1", "I'm a size M", Optional.empty()))
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_STATE_INVALID);
        assertThat(concierge.conversations().memory("C01")).isEmpty();

        breakIt[0] = false;
        Concierge.Reply reply = concierge.converse(runner, "web", "s2", "I'm a size M", Optional.empty());

        assertThat(concierge.conversations().memory("C01")).containsExactly(new MemoryFact("size", "apparel", "M"));
        List<String> order = reply.run().steps().stream().map(Step::nodeId).toList();
        assertThat(order.indexOf("write_memory")).isGreaterThan(order.indexOf("validate_and_save_state"));
    }

    @Test
    void memoryIsReadBeforePlanningOnce() {
        Concierge concierge = concierge(
                Goal.ORDER_STATUS,
                specialist(
                        input -> SpecialistOutput.say("You take "
                                        + input.memory().stream()
                                                .filter(f -> f.kind().equals("size"))
                                                .map(MemoryFact::value)
                                                .findFirst()
                                                .orElse("no size"))
                                .withUpdates(verifiedAs("C01", "Emma Johnson"))
                                .withMemory(List.of(new MemoryFact("size", "apparel", "L"))),
                        (input, results) -> SpecialistOutput.say("unused")));

        Concierge.Reply first = concierge.converse(runner, "web", "s1", "hi", Optional.empty());
        Concierge.Reply second = concierge.converse(runner, "web", "s1", "again", Optional.empty());

        assertThat(first.text()).isEqualTo("You take no size");
        assertThat(second.text()).isEqualTo("You take L");
        List<String> order = second.run().steps().stream().map(Step::nodeId).toList();
        assertThat(order.indexOf("read_memory")).isLessThan(order.indexOf("plan_goal"));
    }

    @Test
    void anEmptyReplyIsRefusedAtFinalizeReply() {
        Concierge concierge = concierge(
                Goal.ORDER_STATUS,
                specialist(input -> SpecialistOutput.say("   "), (input, results) -> SpecialistOutput.say("unused")));

        assertThatThrownBy(() -> concierge.converse(runner, "web", "s1", "where is my order?", Optional.empty()))
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_EMPTY_REPLY);
        assertThat(lastRun().steps())
                .filteredOn(s -> s.nodeId().equals("finalize_reply"))
                .singleElement()
                .extracting(s -> s.error().orElseThrow().code())
                .isEqualTo(ErrorCode.E_EMPTY_REPLY);
    }

    @Test
    void aSecondPassThatAsksForToolsIsRefusedAndTheToolsAreNotCalled() {
        Concierge concierge = concierge(
                Goal.CANCEL,
                specialist(
                        input -> SpecialistOutput.call(List.of(new ToolRequest(
                                ShopTools.FIND_BY_EMAIL, Json.object().put("email", "mason.martinez@example.com")))),
                        (input, results) -> SpecialistOutput.call(List.of(
                                new ToolRequest(ShopTools.CANCEL, Json.object().put("orderId", "W1002"))))));

        assertThatThrownBy(() -> concierge.converse(runner, "web", "s1", "cancel W1002", Optional.empty()))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("cancel_order")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_PASS2_TOOL_REQUEST);
        assertThat(concierge.shop().order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.PENDING);
        assertThat(concierge.conversations().load("web", "s1")).isEmpty();
    }

    @Test
    void aToolOutsideTheSpecialistsListIsRefusedBeforeAnyToolRuns() {
        Concierge concierge = concierge(
                Goal.FIND_PRODUCT,
                specialist(
                        input -> SpecialistOutput.call(List.of(
                                new ToolRequest(ShopTools.SEARCH, Json.object().put("query", "mugs")),
                                new ToolRequest(ShopTools.CANCEL, Json.object().put("orderId", "W1002")))),
                        (input, results) -> SpecialistOutput.say("unused")));

        assertThatThrownBy(() -> concierge.converse(runner, "web", "s1", "mugs", Optional.empty()))
                .hasMessageContaining("cancel_order")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_TOOL_NOT_ALLOWED);
        assertThat(lastRun().steps())
                .filteredOn(s -> s.nodeId().equals("dispatch_specialist"))
                .singleElement()
                .satisfies(s -> assertThat(store.events(s.runId()).stream()
                                .filter(e -> e.type().equals("tool.called")))
                        .isEmpty());
        assertThat(concierge.shop().order("W1002").orElseThrow().status()).isEqualTo(OrderStatus.PENDING);
    }

    @Test
    void theStatesOfBothPassesAreMerged() {
        Concierge concierge = concierge(
                Goal.ORDER_STATUS,
                specialist(
                        input -> SpecialistOutput.call(List.of(new ToolRequest(
                                        ShopTools.FIND_BY_EMAIL,
                                        Json.object().put("email", "emma.johnson@example.com"))))
                                .withUpdates(Json.object().put("awaiting", "order")),
                        (input, results) ->
                                SpecialistOutput.say("Which order?").withUpdates(verifiedAs("C01", "Emma Johnson"))));

        concierge.converse(runner, "web", "s1", "status", Optional.empty());

        ObjectNode state =
                concierge.conversations().load("web", "s1").orElseThrow().state();
        assertThat(state.path("awaiting").asText()).isEqualTo("order");
        assertThat(state.path("customer").path("id").asText()).isEqualTo("C01");
    }
}
