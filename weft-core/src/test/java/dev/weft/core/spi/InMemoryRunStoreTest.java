package dev.weft.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import com.fasterxml.jackson.databind.node.ShortNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Event;
import dev.weft.core.Run;
import dev.weft.core.RunError;
import dev.weft.core.RunStatus;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import dev.weft.core.spi.Checkpoint.Activation;
import dev.weft.core.spi.Checkpoint.Arrival;
import dev.weft.core.spi.Checkpoint.Waiting;
import dev.weft.core.store.InMemoryRunStore;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class InMemoryRunStoreTest extends RunStoreContract {
    @Override
    protected RunStore newStore() {
        return InMemoryRunStore.create();
    }

    /** Every kind of JSON node Jackson builds from text or code, where a text round trip would change some. */
    private static JsonNode everyKindOfNode() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("int", 7);
        node.set("long", LongNode.valueOf(5));
        node.set("short", ShortNode.valueOf((short) -3));
        node.set("big", BigIntegerNode.valueOf(new BigInteger("-123456789012345678901234567890")));
        node.set("double", DoubleNode.valueOf(-0.0));
        node.set("float", FloatNode.valueOf(1.5f));
        node.set("decimal", DecimalNode.valueOf(new BigDecimal("2.500")));
        node.set("bytes", BinaryNode.valueOf(new byte[] {0, -1, 42}));
        node.set("missing", MissingNode.getInstance());
        node.putNull("nothing");
        node.put("yes", true).put("no", false);
        node.put("text", "שלום, é and 𝄞");
        node.putArray("list").add(1).add("two").addObject().put("three", 3L);
        node.putObject("empty");
        return node;
    }

    private static Run ended(Run run) {
        return run.finished(RunStatus.COMPLETED, everyKindOfNode(), Optional.empty(), T0.plusSeconds(2));
    }

    @Test
    void aFinishedRunReadsBackEveryRecordEqualToWhatWasWrittenNodeForNode() {
        Run run = run("r-kept", RunStatus.RUNNING, T0);
        store.createRun(run, new RunStore.Lease("me", T0.plusSeconds(30)));
        JsonNode value = everyKindOfNode();
        Step failed = new Step(
                run.id(),
                1,
                "a",
                "A",
                "tool",
                StepStatus.FAILED,
                2,
                false,
                value,
                value,
                Optional.of(new RunError(ErrorCode.E_TOOL_FAILED, "the tool said no")),
                Optional.of(T0.plusNanos(1)),
                Optional.of(T0.minusSeconds(3_000_000_000L)),
                Map.of("tokens", LongNode.valueOf(12), "prompt", value));
        Step done = new Step(
                run.id(),
                3,
                "c",
                "C",
                "tool",
                StepStatus.COMPLETED,
                1,
                true,
                value,
                value,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Map.of());
        Event started = new Event(run.id(), 2, Event.STEP_STARTED, Optional.of("a"), 1, T0, value);
        Event completed = new Event(run.id(), 1, Event.RUN_COMPLETED, Optional.empty(), 0, T0.plusMillis(5), value);
        Checkpoint first = new Checkpoint(
                run.id(),
                0,
                1,
                T0,
                Map.of(),
                Map.of(),
                List.of(new Activation("a", 1, List.of(new Arrival("START", value)))),
                List.of(),
                Map.of(),
                "");
        Checkpoint last = new Checkpoint(
                run.id(),
                3,
                4,
                T0.plusSeconds(1),
                Map.of("a", value, "c", value),
                Map.of("a", 1, "c", 3),
                List.of(new Activation("b", 2, List.of(new Arrival("a", value), new Arrival("c", value)))),
                List.of(new Waiting("b", 2, value, value)),
                Map.of("c", value),
                "c");
        Run end = ended(run);

        store.apply(
                run.id(),
                "me",
                List.of(
                        new RunStore.Change.InsertStep(failed),
                        new RunStore.Change.InsertStep(done),
                        new RunStore.Change.AppendEvent(started),
                        new RunStore.Change.SaveCheckpoint(first),
                        new RunStore.Change.SaveCheckpoint(last),
                        new RunStore.Change.AppendEvent(completed),
                        new RunStore.Change.UpdateRun(end, Set.of(RunStatus.RUNNING))));

        assertThat(store.findRun(run.id())).contains(end);
        assertThat(store.steps(run.id())).containsExactly(failed, done);
        // read back from the finished run's bytes, not the objects written
        assertThat(store.steps(run.id()).get(0).input()).isNotSameAs(value);
        assertThat(store.steps(run.id()).get(0).input().get("long")).isInstanceOf(LongNode.class);
        assertThat(store.steps(run.id()).get(0).input().get("decimal").decimalValue())
                .isEqualTo(new BigDecimal("2.500"));
        assertThat(store.events(run.id())).containsExactly(completed, started);
        assertThat(store.checkpoints(run.id())).containsExactly(first, last);
        assertThat(store.latestCheckpoint(run.id())).contains(last);
    }

    @Test
    void aFinishedRunIsWrittenToAgainAsBeforeItFinished() {
        Run run = run("r-again", RunStatus.RUNNING, T0);
        store.createRun(run);
        Step first = step(run.id(), 1, StepStatus.COMPLETED);
        store.insertStep(first);
        Event event = new Event(run.id(), 1, Event.RUN_FAILED, Optional.empty(), 0, T0, everyKindOfNode());
        store.appendEvent(event);
        Run failed = run.finished(
                RunStatus.FAILED,
                json("null"),
                Optional.of(new RunError(ErrorCode.E_TOOL_FAILED, "no")),
                T0.plusSeconds(1));
        assertThat(store.updateRun(failed, Set.of(RunStatus.RUNNING))).isTrue();

        // A retry takes the failed run up again: its records read and grow as before.
        Run retried = failed.withStatus(RunStatus.RUNNING);
        assertThat(store.updateRun(retried, Set.of(RunStatus.FAILED))).isTrue();
        Step second = step(run.id(), 2, StepStatus.RUNNING);
        store.insertStep(second);
        Step secondDone = second.finished(StepStatus.COMPLETED, json("2"), Optional.empty(), T0, Map.of());
        assertThat(store.updateStep(secondDone, Set.of(StepStatus.RUNNING))).isTrue();
        Event resumed = new Event(run.id(), 2, Event.RUN_RESUMED, Optional.empty(), 0, T0, json("{}"));
        store.appendEvent(resumed);

        assertThat(store.steps(run.id())).containsExactly(first, secondDone);
        assertThat(store.events(run.id())).containsExactly(event, resumed);
        Run completed = ended(retried);
        assertThat(store.updateRun(completed, Set.of(RunStatus.RUNNING))).isTrue();
        assertThat(store.steps(run.id())).containsExactly(first, secondDone);
        assertThat(store.events(run.id())).containsExactly(event, resumed);
    }

    @Test
    void aFinishedRunHoldingANodeOfAnyOtherKindIsKeptAsItWas() {
        Run run = run("r-pojo", RunStatus.RUNNING, T0);
        store.createRun(run);
        Object held = new Object();
        Event event = new Event(run.id(), 1, Event.RUN_COMPLETED, Optional.empty(), 0, T0, new POJONode(held));
        store.appendEvent(event);

        assertThat(store.updateRun(ended(run), Set.of(RunStatus.RUNNING))).isTrue();

        assertThat(store.events(run.id())).containsExactly(event);
        assertThat(store.events(run.id()).get(0).data()).isSameAs(event.data());
    }

    @Test
    void readersOfAFinishedRunGetTheirOwnCopies() {
        Run run = run("r-copies", RunStatus.RUNNING, T0);
        store.createRun(run);
        Event event = new Event(run.id(), 1, Event.RUN_COMPLETED, Optional.empty(), 0, T0, json("{\"n\": 1}"));
        store.appendEvent(event);
        store.updateRun(ended(run), Set.of(RunStatus.RUNNING));

        ((ObjectNode) store.events(run.id()).get(0).data()).put("n", 2);

        assertThat(store.events(run.id())).containsExactly(event);
    }
}
