package dev.weft.memo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MemoData;
import dev.weft.plan.Risk;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolContext;
import dev.weft.plan.ToolRegistry;
import dev.weft.plan.UndoAction;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Memo's task and list tools over real SQLite (and PostgreSQL), one user never reaching another's rows. */
final class MemoToolsTest {
    /** Tuesday 24 November 2026, 10:00 in Jerusalem. */
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");

    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");

    @TempDir
    Path dir;

    private RunStore store;
    private MemoData data;
    private ToolRegistry tools;
    private final AtomicInteger calls = new AtomicInteger();

    private static final TimeSource CLOCK = new TimeSource() {
        @Override
        public Instant now() {
            return NOW;
        }

        @Override
        public void sleep(Duration duration) {}
    };

    @BeforeEach
    void open() {
        open("sqlite:" + dir.resolve("memo.db"));
    }

    private void open(String url) {
        if (store != null) {
            store.close();
        }
        store = Stores.open(url);
        data = MemoData.open(store);
        data.user("dana", "en", JERUSALEM, NOW);
        data.user("omer", "he", JERUSALEM, NOW);
        tools = new MemoTools(data, new Reminders(data, java.time.Instant::now)).registry();
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** A call as a plan step would make it: its own key, approved, for {@code user}. */
    private JsonNode call(String user, String tool, String args) {
        return tools.call(
                tool,
                (ObjectNode) Json.parse(args, "args"),
                ToolContext.detached("run-" + calls.incrementAndGet(), Optional.of(user), "A", CLOCK));
    }

    private JsonNode tasks(String user, String args) {
        return call(user, MemoTools.TASKS, args);
    }

    private static ErrorCode codeOf(Throwable e) {
        return ((WeftException) e).code();
    }

    @Test
    void createsFindsUpdatesAndCompletesTasks() {
        String id = tasks(
                        "dana",
                        "{\"operation\": \"create\", \"text\": \"Call the bank\", \"dueDate\":"
                                + " \"2026-11-24T15:00:00+02:00\", \"category\": \"errands\"}")
                .get("task")
                .get("id")
                .asText();
        tasks("dana", "{\"operation\": \"create\", \"text\": \"Buy a gift\", \"dueDate\": \"2026-11-25\"}");
        tasks("dana", "{\"operation\": \"create\", \"text\": \"Read a book\"}");

        assertThat(tasks("dana", "{\"operation\": \"getAll\", \"filters\": {\"window\": \"today\"}}")
                        .get("tasks")
                        .findValuesAsText("text"))
                .containsExactly("Call the bank");
        assertThat(tasks("dana", "{\"operation\": \"getAll\", \"filters\": {\"window\": \"tomorrow\"}}")
                        .get("tasks")
                        .findValuesAsText("text"))
                .containsExactly("Buy a gift");
        assertThat(tasks("dana", "{\"operation\": \"getAll\", \"filters\": {\"type\": \"unplanned\"}}")
                        .get("tasks")
                        .findValuesAsText("text"))
                .containsExactly("Read a book");

        JsonNode updated = tasks(
                "dana", "{\"operation\": \"update\", \"taskId\": \"" + id + "\", \"dueDate\": \"2026-11-26T09:00\"}");
        assertThat(updated.get("task").get("dueDate").asText()).isEqualTo("2026-11-26T09:00+02:00");
        assertThat(updated.get("previous").get(0).get("dueDate").asText()).isEqualTo("2026-11-24T15:00+02:00");

        JsonNode done = tasks("dana", "{\"operation\": \"complete\", \"taskId\": \"" + id + "\"}");
        assertThat(done.get("tasks").get(0).get("completed").asBoolean()).isTrue();
        assertThat(tasks("dana", "{\"operation\": \"get\", \"taskId\": \"" + id + "\"}")
                        .get("task")
                        .get("completed")
                        .asBoolean())
                .isTrue();
    }

    @Test
    void completingAReminderDeletesIt() {
        String id = tasks(
                        "dana",
                        "{\"operation\": \"create\", \"text\": \"Take the pills\", \"reminderRecurrence\":"
                                + " {\"type\": \"daily\", \"time\": \"08:00\"}}")
                .get("task")
                .get("id")
                .asText();

        JsonNode done = tasks("dana", "{\"operation\": \"complete\", \"taskId\": \"" + id + "\"}");

        assertThat(done.get("deleted").findValuesAsText("id")).containsExactly(id);
        assertThatThrownBy(() -> tasks("dana", "{\"operation\": \"get\", \"taskId\": \"" + id + "\"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_NOT_FOUND));
    }

    @Test
    void aUserNeverReachesAnotherUsersTasksOrLists() {
        String id = tasks("dana", "{\"operation\": \"create\", \"text\": \"Dana's secret\"}")
                .get("task")
                .get("id")
                .asText();
        String list = call(
                        "dana",
                        MemoTools.LISTS,
                        "{\"operation\": \"create\", \"listName\": \"Dana's shopping\"," + " \"items\": [\"milk\"]}")
                .get("list")
                .get("id")
                .asText();

        for (String attempt : new String[] {
            "{\"operation\": \"get\", \"taskId\": \"" + id + "\"}",
            "{\"operation\": \"update\", \"taskId\": \"" + id + "\", \"text\": \"mine now\"}",
            "{\"operation\": \"delete\", \"taskId\": \"" + id + "\"}",
            "{\"operation\": \"complete\", \"taskId\": \"" + id + "\"}",
            "{\"operation\": \"deleteMultiple\", \"taskIds\": [\"" + id + "\"]}",
            "{\"operation\": \"addSubtask\", \"taskId\": \"" + id + "\", \"text\": \"sub\"}"
        }) {
            assertThatThrownBy(() -> tasks("omer", attempt))
                    .as(attempt)
                    .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_NOT_FOUND))
                    .hasMessageNotContaining("secret");
        }
        for (String attempt : new String[] {
            "{\"operation\": \"get\", \"listId\": \"" + list + "\"}",
            "{\"operation\": \"addItem\", \"listId\": \"" + list + "\", \"itemText\": \"eggs\"}",
            "{\"operation\": \"toggleItem\", \"listId\": \"" + list + "\", \"itemIndex\": 1}",
            "{\"operation\": \"delete\", \"listId\": \"" + list + "\"}"
        }) {
            assertThatThrownBy(() -> call("omer", MemoTools.LISTS, attempt))
                    .as(attempt)
                    .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_NOT_FOUND));
        }
        assertThat(tasks("omer", "{\"operation\": \"getAll\"}").get("count").asInt())
                .isZero();
        assertThat(tasks("omer", "{\"operation\": \"deleteAll\", \"where\": {\"window\": \"all\"}}")
                        .get("count")
                        .asInt())
                .isZero();
        assertThat(call(
                                "omer",
                                MemoTools.LISTS,
                                "{\"operation\": \"getAll\", \"filters\": {\"listName\": \"shopping\"}}")
                        .get("count")
                        .asInt())
                .isZero();
        assertThat(tasks("dana", "{\"operation\": \"get\", \"taskId\": \"" + id + "\"}")
                        .get("task")
                        .get("text")
                        .asText())
                .isEqualTo("Dana's secret");
        assertThat(data.lists().all("dana").get(0).get("items").size()).isEqualTo(1);
    }

    @Test
    void theSameCallMadeTwiceCreatesOneTask() {
        ToolContext context = ToolContext.detached("run-x", Optional.of("dana"), "A", CLOCK);
        ObjectNode args = (ObjectNode) Json.parse("{\"operation\": \"create\", \"text\": \"Once\"}", "args");
        Tool tool = tools.find(MemoTools.TASKS).orElseThrow();

        JsonNode first = tool.invoke(args, context);
        JsonNode second = tool.invoke(args, context);

        assertThat(second.get("task").get("id")).isEqualTo(first.get("task").get("id"));
        assertThat(data.tasks().all("dana")).hasSize(1);
    }

    @Test
    void bulkDeletesAreHighRiskAndTheRestAreNot() {
        Tool tool = tools.find(MemoTools.TASKS).orElseThrow();

        assertThat(tool.risk(Json.parse("{\"operation\": \"deleteAll\"}", "a"))).isEqualTo(Risk.HIGH);
        assertThat(tool.risk(Json.parse("{\"operation\": \"deleteMultiple\"}", "a")))
                .isEqualTo(Risk.HIGH);
        assertThat(tool.risk(Json.parse("{\"operation\": \"delete\"}", "a"))).isEqualTo(Risk.LOW);
        assertThat(tools.find(MemoTools.LISTS)
                        .orElseThrow()
                        .risk(Json.parse("{\"operation\": \"deleteMultiple\"}", "a")))
                .isEqualTo(Risk.HIGH);
    }

    @Test
    void eachChangeQueuesTheUndoThatReversesIt() {
        Tool tool = tools.find(MemoTools.TASKS).orElseThrow();
        JsonNode created =
                tasks("dana", "{\"operation\": \"create\", \"text\": \"Walk\", \"dueDate\": \"2026-11-24\"}");
        String id = created.get("task").get("id").asText();
        ObjectNode create = (ObjectNode) Json.parse("{\"operation\": \"create\", \"text\": \"Walk\"}", "a");
        assertThat(tool.undo().orElseThrow().undoFor(create, created))
                .contains(new UndoAction(MemoTools.TASKS, (ObjectNode)
                        Json.parse("{\"operation\": \"delete\", \"taskId\": \"" + id + "\"}", "u")));

        ObjectNode delete =
                (ObjectNode) Json.parse("{\"operation\": \"deleteAll\", \"where\": {\"window\": \"today\"}}", "a");
        JsonNode deleted =
                tools.call(MemoTools.TASKS, delete, ToolContext.detached("run-d", Optional.of("dana"), "A", CLOCK));
        assertThat(data.tasks().all("dana")).isEmpty();
        UndoAction undo = tool.undo().orElseThrow().undoFor(delete, deleted).orElseThrow();
        tools.call(undo.toolName(), undo.args(), ToolContext.detached("run-u", Optional.of("dana"), "A", CLOCK));

        assertThat(data.tasks().all("dana")).extracting(t -> t.id()).containsExactly(id);
        assertThat(data.tasks().all("dana").get(0).dueDate()).contains("2026-11-24");
    }

    @Test
    void listsHoldItemsThatAreAddedTickedAndRemovedByTheirNumber() {
        String id = call(
                        "dana",
                        MemoTools.LISTS,
                        "{\"operation\": \"create\", \"listName\": \"Shopping\", \"items\":"
                                + " [\"milk\", \"bread\"]}")
                .get("list")
                .get("id")
                .asText();

        call(
                "dana",
                MemoTools.LISTS,
                "{\"operation\": \"addItem\", \"listId\": \"" + id + "\", \"itemText\": \"eggs\"}");
        call("dana", MemoTools.LISTS, "{\"operation\": \"toggleItem\", \"listId\": \"" + id + "\", \"itemIndex\": 2}");
        JsonNode list = call(
                        "dana",
                        MemoTools.LISTS,
                        "{\"operation\": \"deleteItem\", \"listId\": \"" + id + "\", \"itemIndex\": 1}")
                .get("list");

        assertThat(list.get("items"))
                .isEqualTo(Json.parse(
                        "[{\"text\": \"bread\", \"checked\": true}, {\"text\": \"eggs\", \"checked\": false}]",
                        "items"));
        assertThat(list.get("isChecklist").asBoolean()).isTrue();
        assertThatThrownBy(() -> call(
                        "dana",
                        MemoTools.LISTS,
                        "{\"operation\": \"toggleItem\", \"listId\": \"" + id + "\", \"itemIndex\": 7}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_NOT_FOUND))
                .hasMessageContaining("has no item 7");
    }

    @Test
    void badArgumentsAreRefusedAndChangeNothing() {
        assertThatThrownBy(() -> tasks("dana", "{\"operation\": \"explode\"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_ARGS_INVALID))
                .hasMessageContaining("/operation");
        assertThatThrownBy(() -> tasks("dana", "{\"operation\": \"create\", \"text\": \"x\", \"dueDate\": \"soon\"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_ARGS_INVALID))
                .hasMessageContaining("dueDate 'soon'");
        assertThatThrownBy(() -> tasks("dana", "{\"operation\": \"create\", \"text\": \"  \"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_ARGS_INVALID));
        assertThatThrownBy(() -> tools.call(
                        MemoTools.TASKS,
                        (ObjectNode) Json.parse("{\"operation\": \"getAll\"}", "a"),
                        ToolContext.detached("run-n", "A")))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_FORBIDDEN));
        assertThat(data.tasks().all("dana")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql"})
    void theSameHoldsOnPostgreSql(String kind) {
        open(EmbeddedPostgres.shared().freshUrl());
        String id = tasks(
                        "dana", "{\"operation\": \"create\", \"text\": \"On PostgreSQL\", \"dueDate\": \"2026-11-24\"}")
                .get("task")
                .get("id")
                .asText();

        assertThat(tasks("dana", "{\"operation\": \"getAll\", \"filters\": {\"window\": \"today\"}}")
                        .get("tasks")
                        .findValuesAsText("id"))
                .containsExactly(id);
        assertThatThrownBy(() -> tasks("omer", "{\"operation\": \"get\", \"taskId\": \"" + id + "\"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_NOT_FOUND));
        assertThat(kind).isEqualTo("postgresql");
    }
}
