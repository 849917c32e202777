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
import dev.weft.llm.Embedder;
import dev.weft.llm.ModelUnavailableException;
import dev.weft.memo.data.MemoData;
import dev.weft.plan.ToolContext;
import dev.weft.plan.ToolRegistry;
import dev.weft.plan.UndoAction;
import dev.weft.store.EmbeddedPostgres;
import dev.weft.store.Stores;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Memo's second brain ({@code memoryOperations}) over real SQLite and PostgreSQL, with the offline
 * embedding model: memories found by their words (Hebrew prefixes and final letters folded) and by
 * their meaning, fused, each hit saying why; one user never reaching another's memories.
 */
final class MemoryOperationsTest {
    private static final Instant NOW = Instant.parse("2026-11-24T08:00:00Z");
    private static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");

    @TempDir
    Path dir;

    private RunStore store;
    private ToolRegistry tools;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicBoolean modelDown = new AtomicBoolean();
    private Instant now = NOW;

    private final TimeSource clock = TimeSource.of(() -> now);

    static Stream<String> stores() {
        return Stream.of("sqlite", "postgresql");
    }

    private String url;

    private void open(String kind) {
        url = kind.equals("sqlite")
                ? "sqlite:" + dir.resolve("memo.db")
                : EmbeddedPostgres.shared().freshUrl();
        store = Stores.open(url);
        tools = tools(store);
    }

    private ToolRegistry tools(RunStore store) {
        MemoData data = MemoData.open(store);
        data.user("dana", "en", JERUSALEM, NOW);
        data.user("omer", "he", JERUSALEM, NOW);
        Supplier<Embedder> embedder = () -> {
            if (modelDown.get()) {
                throw new ModelUnavailableException("the embedding model is down (test)");
            }
            return Embedder.offline();
        };
        return new MemoTools(data, new Reminders(data, Instant::now), embedder).registry();
    }

    @AfterEach
    void close() {
        if (store != null) {
            store.close();
        }
    }

    private JsonNode memory(String user, String args) {
        return tools.call(
                MemoTools.MEMORY,
                (ObjectNode) Json.parse(args, "args"),
                ToolContext.detached("run-" + calls.incrementAndGet(), Optional.of(user), "A", clock));
    }

    private String store(String user, String content) {
        now = now.plusSeconds(60);
        ObjectNode args = Json.object();
        args.put("operation", "store");
        args.put("content", content);
        return memory(user, Json.write(args)).get("memory").get("id").asText();
    }

    private List<String> found(String user, String query) {
        ObjectNode args = Json.object();
        args.put("operation", "search");
        args.put("query", query);
        List<String> contents = new ArrayList<>();
        memory(user, Json.write(args))
                .get("memories")
                .forEach(m -> contents.add(m.get("content").asText()));
        return contents;
    }

    private static ErrorCode codeOf(Throwable e) {
        return ((WeftException) e).code();
    }

    @ParameterizedTest
    @MethodSource("stores")
    void search_findsAMemoryByItsWordsAndSaysWhy(String kind) {
        open(kind);
        store("dana", "The quarterly report is late because the vendor has not sent the numbers");
        store("dana", "Dana prefers morning meetings");
        store("dana", "Idea: a weekly demo day for the team");

        JsonNode result = memory("dana", "{\"operation\": \"search\", \"query\": \"vendor numbers\"}");

        JsonNode first = result.get("memories").get(0);
        assertThat(first.get("content").asText()).startsWith("The quarterly report is late");
        assertThat(first.get("match").get("wordRank").asInt()).isEqualTo(1);
        assertThat(first.get("match").get("words")).extracting(JsonNode::asText).contains("vendor", "numbers");
        assertThat(first.get("why").asText()).contains("shares the words vendor, numbers");
        assertThat(first.get("score").asDouble()).isPositive();
        assertThat(result.get("semantic").asText()).isEqualTo(Embedder.OFFLINE_NAME);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void search_findsAMemoryByMeaningWithoutSharedWords(String kind) {
        open(kind);
        store("dana", "The launch is behind schedule and will slip to March");
        store("dana", "I love the smell of fresh bread in the morning");
        store("dana", "Omer's birthday is on the 3rd of June");

        JsonNode result = memory("dana", "{\"operation\": \"search\", \"query\": \"is the project running late?\"}");

        JsonNode first = result.get("memories").get(0);
        assertThat(first.get("content").asText()).startsWith("The launch is behind schedule");
        assertThat(first.get("match").has("wordRank")).isFalse();
        assertThat(first.get("match").get("meaningRank").asInt()).isEqualTo(1);
        assertThat(first.get("why").asText()).startsWith("close in meaning (");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void search_foldsHebrewPrefixesAndFinalLetters(String kind) {
        open(kind);
        store("omer", "הפרויקט מתעכב בגלל הספק");
        store("omer", "דנה מעדיפה פגישות בבוקר");
        store("omer", "רעיון: יום הדגמות שבועי לצוות");

        assertThat(found("omer", "בפרויקט")).first().isEqualTo("הפרויקט מתעכב בגלל הספק");
        assertThat(found("omer", "והפגישות")).first().isEqualTo("דנה מעדיפה פגישות בבוקר");
        assertThat(found("omer", "לצוות")).first().isEqualTo("רעיון: יום הדגמות שבועי לצוות");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void search_neverReturnsAnotherUsersMemories(String kind) {
        open(kind);
        store("dana", "The vendor contract renews in January");
        store("omer", "The vendor is slow");

        assertThat(found("omer", "vendor contract January")).containsExactly("The vendor is slow");
        assertThat(found("dana", "slow vendor")).containsExactly("The vendor contract renews in January");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void updateDeleteAndTheirUndo_actOnTheUsersOwnMemoryOnly(String kind) {
        open(kind);
        String id = store("dana", "The budget meeting is on Monday");

        assertThatThrownBy(() -> memory("omer", "{\"operation\": \"delete\", \"memoryId\": \"" + id + "\"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_NOT_FOUND));
        assertThatThrownBy(() ->
                        memory("omer", "{\"operation\": \"update\", \"memoryId\": \"" + id + "\", \"content\": \"x\"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_NOT_FOUND));

        JsonNode updated = memory(
                "dana",
                "{\"operation\": \"update\", \"memoryId\": \"" + id
                        + "\", \"content\": \"The budget meeting moved to Tuesday\", \"tags\": [\"budget\"]}");
        assertThat(found("dana", "budget Tuesday")).containsExactly("The budget meeting moved to Tuesday");
        assertThat(found("dana", "Monday")).isEmpty();

        Optional<UndoAction> undo = tools.find(MemoTools.MEMORY)
                .orElseThrow()
                .undo()
                .orElseThrow()
                .undoFor(
                        (ObjectNode) Json.parse("{\"operation\": \"update\", \"memoryId\": \"" + id + "\"}", "args"),
                        updated);
        memory("dana", Json.write(undo.orElseThrow().args()));
        assertThat(found("dana", "budget Monday")).containsExactly("The budget meeting is on Monday");

        JsonNode deleted = memory("dana", "{\"operation\": \"delete\", \"memoryId\": \"" + id + "\"}");
        assertThat(found("dana", "budget")).isEmpty();
        memory("dana", "{\"operation\": \"restore\", \"memories\": " + Json.write(deleted.get("deleted")) + "}");
        assertThat(found("dana", "budget")).containsExactly("The budget meeting is on Monday");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void aMemoryStoredByAnotherProcess_isFoundByMeaningAtTheNextSearch(String kind) {
        open(kind);
        store("dana", "I love the smell of fresh bread in the morning");
        assertThat(found("dana", "is the project running late?")).isEmpty();

        try (RunStore other = Stores.open(url)) {
            ToolRegistry elsewhere = tools(other);
            elsewhere.call(
                    MemoTools.MEMORY,
                    (ObjectNode) Json.parse(
                            "{\"operation\": \"store\", \"content\": \"The launch is behind schedule\"}", "args"),
                    ToolContext.detached("run-elsewhere", Optional.of("dana"), "A", clock));
        }

        assertThat(found("dana", "is the project running late?")).containsExactly("The launch is behind schedule");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void storingTheSameCallTwice_keepsOneMemory(String kind) {
        open(kind);
        ObjectNode args = (ObjectNode) Json.parse("{\"operation\": \"store\", \"content\": \"Buy a gift\"}", "args");
        ToolContext context = ToolContext.detached("run-same", Optional.of("dana"), "A", clock);
        tools.call(MemoTools.MEMORY, args, context);
        tools.call(MemoTools.MEMORY, args, context);

        assertThat(found("dana", "gift")).containsExactly("Buy a gift");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void anUnreachableEmbeddingModel_losesNothing_andTheMemoryGetsItsVectorLater(String kind) {
        open(kind);
        modelDown.set(true);
        store("dana", "The launch is behind schedule and will slip to March");

        JsonNode down = memory("dana", "{\"operation\": \"search\", \"query\": \"launch\"}");
        assertThat(down.get("semantic").asText()).startsWith("unavailable: E_MODEL_UNAVAILABLE");
        assertThat(down.get("memories").get(0).get("content").asText()).startsWith("The launch");

        modelDown.set(false);
        JsonNode up = memory("dana", "{\"operation\": \"search\", \"query\": \"is the project running late?\"}");
        assertThat(up.get("memories").get(0).get("match").get("meaningRank").asInt())
                .isEqualTo(1);
    }

    @ParameterizedTest
    @MethodSource("stores")
    void summarize_condensesAProjectsMemoriesInTimeOrder(String kind) {
        open(kind);
        memory(
                "dana",
                "{\"operation\": \"store\", \"content\": \"The vendor is late again.\", \"projectId\": \"apollo\"}");
        now = now.plusSeconds(60);
        memory("dana", "{\"operation\": \"store\", \"content\": \"Unrelated: lunch was great\"}");
        now = now.plusSeconds(60);
        memory(
                "dana",
                "{\"operation\": \"store\", \"content\": \"Apollo needs a new vendor. The vendor contract ends in"
                        + " March.\", \"projectId\": \"Apollo\"}");

        JsonNode summary = memory("dana", "{\"operation\": \"summarize\", \"projectId\": \"apollo\"}");

        assertThat(summary.get("count").asInt()).isEqualTo(2);
        assertThat(summary.get("summary").asText())
                .startsWith("- The vendor is late again.")
                .contains("vendor contract")
                .doesNotContain("lunch");
    }

    @ParameterizedTest
    @MethodSource("stores")
    void badInput_getsAClearErrorAndChangesNothing(String kind) {
        open(kind);
        store("dana", "kept");

        assertThatThrownBy(() -> memory("dana", "{\"operation\": \"store\"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_ARGS_INVALID))
                .hasMessageContaining("needs 'content'");
        assertThatThrownBy(() -> memory("dana", "{\"operation\": \"search\"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_ARGS_INVALID))
                .hasMessageContaining("needs 'query'");
        assertThatThrownBy(() -> memory("dana", "{\"operation\": \"search\", \"query\": \"x\", \"limit\": 0}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_ARGS_INVALID))
                .hasMessageContaining("limit must be from 1 to 50");
        assertThatThrownBy(() -> memory("dana", "{\"operation\": \"forget\"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_ARGS_INVALID));
        assertThatThrownBy(() -> memory("dana", "{\"operation\": \"delete\", \"memoryId\": \"m-nope\"}"))
                .satisfies(e -> assertThat(codeOf(e)).isEqualTo(ErrorCode.E_NOT_FOUND));

        assertThat(found("dana", "kept")).containsExactly("kept");
    }
}
