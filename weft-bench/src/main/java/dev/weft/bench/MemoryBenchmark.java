package dev.weft.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.Embedder;
import dev.weft.llm.ModelUnavailableException;
import dev.weft.memo.MemoTools;
import dev.weft.memo.Reminders;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Memories;
import dev.weft.memo.data.MemoryOperations;
import dev.weft.memo.data.SearchTerms;
import dev.weft.plan.ToolContext;
import dev.weft.plan.ToolRegistry;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * {@code weft-bench memory [--memories N] [--searches N]}: Memo's second brain with N memories of one
 * user (beside another user's), on SQLite and on PostgreSQL, with the offline embedding model. The
 * memories are stored without vectors and given them by the first search, in batches (the path a
 * change of model takes), which is timed; then N searches (English and Hebrew questions alternating):
 * p50 and p99 of the whole search (full-text ranking, the question's vector, every vector of the user
 * compared, fusion), and of its parts alone. Results go to stdout, progress to stderr.
 */
public final class MemoryBenchmark {
    private static final String USAGE =
            "usage: weft-bench memory [--memories N] [--searches N]   (defaults 10000, 200; N >= 10)";

    private static final Map<String, NumericOptions.Option> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("memories", new NumericOptions.Option(10_000, 10));
        OPTIONS.put("searches", new NumericOptions.Option(200, 10));
    }

    private static final List<String> WHO = List.of(
            "Dana",
            "Omer",
            "Avi",
            "Maya",
            "the vendor",
            "the landlord",
            "the client",
            "my manager",
            "דנה",
            "עומר",
            "הספק",
            "הלקוח");
    private static final List<String> WHAT = List.of(
            "thinks the launch should move to March",
            "prefers meetings early in the morning",
            "said the budget review is on Thursday",
            "wants the contract translated into German",
            "is allergic to peanuts",
            "recommended a book about habits",
            "needs two weeks notice before any change",
            "liked the new onboarding flow",
            "חושב שההשקה צריכה לזוז למרץ",
            "מעדיף פגישות מוקדם בבוקר",
            "אמר שישיבת התקציב ביום חמישי",
            "רוצה שהחוזה יתורגם לגרמנית");
    private static final List<String> WHERE = List.of(
            "", " at the offsite", " for project Apollo", " after the demo day", " בפרויקט אפולו", " אחרי יום ההדגמות");

    private static final List<String> QUESTIONS = List.of(
            "what did Dana say about the launch?",
            "מה אמר הספק על ההתראה?",
            "who is allergic to peanuts?",
            "מה הלקוח רוצה לגבי החוזה?",
            "when is the budget review?",
            "מי מעדיף פגישות בבוקר?",
            "which book was recommended?",
            "מה חשבו על ההשקה בפרויקט אפולו?");

    private MemoryBenchmark() {}

    public static void run(String[] args) {
        NumericOptions options = NumericOptions.parse(args, OPTIONS, USAGE);
        int memories = options.intValue("memories");
        int searches = options.intValue("searches");
        System.err.println("weft-bench memory: loading the offline embedding model...");
        Embedder.offline().embed("warm up");
        try (RunStore store = DurableStores.sqlite()) {
            measure("sqlite", store, memories, searches);
        }
        try (RunStore store = DurableStores.postgres()) {
            measure("postgresql", store, memories, searches);
        }
    }

    private static void measure(String kind, RunStore store, int memories, int searches) {
        MemoData data = MemoData.open(store);
        String user = "bench-" + System.nanoTime();
        data.user(user, "en", ZoneId.of("Asia/Jerusalem"), Instant.now());
        data.user(user + "-other", "en", ZoneId.of("Asia/Jerusalem"), Instant.now());
        AtomicBoolean vectors = new AtomicBoolean(false);
        Supplier<Embedder> embedder = () -> {
            if (!vectors.get()) {
                throw new ModelUnavailableException("vectors are made at the first search");
            }
            return Embedder.offline();
        };
        ToolRegistry tools = new MemoTools(data, new Reminders(data, Instant::now), embedder).registry();

        System.err.printf("weft-bench memory: storing %d memories on %s...%n", memories, kind);
        long started = System.nanoTime();
        for (int i = 0; i < memories; i++) {
            store(tools, user, i, memory(i));
        }
        for (int i = 0; i < memories / 10; i++) {
            store(tools, user + "-other", i, memory(i + 7));
        }
        double storeSeconds = (System.nanoTime() - started) / 1e9;

        System.err.printf("weft-bench memory: making %d vectors on %s...%n", memories, kind);
        vectors.set(true);
        started = System.nanoTime();
        search(tools, user, "warm up", 0);
        double embedSeconds = (System.nanoTime() - started) / 1e9;

        for (int i = 0; i < searches / 4; i++) {
            search(tools, user, QUESTIONS.get(i % QUESTIONS.size()), i + 1);
        }
        long[] whole = new long[searches];
        long[] words = new long[searches];
        long[] question = new long[searches];
        long[] meaning = new long[searches];
        System.err.printf("weft-bench memory: %d searches on %s...%n", searches, kind);
        for (int i = 0; i < searches; i++) {
            String q = QUESTIONS.get(i % QUESTIONS.size());
            long t0 = System.nanoTime();
            search(tools, user, q, searches + i);
            long t1 = System.nanoTime();
            data.memories().lexical(user, SearchTerms.queryTerms(q), 50);
            long t2 = System.nanoTime();
            float[] vector = Embedder.offline().embed(q);
            long t3 = System.nanoTime();
            data.memories()
                    .nearest(
                            user,
                            new Memories.Vector(Embedder.OFFLINE_NAME, vector),
                            50,
                            MemoryOperations.SIMILARITY_FLOOR);
            long t4 = System.nanoTime();
            whole[i] = t1 - t0;
            words[i] = t2 - t1;
            question[i] = t3 - t2;
            meaning[i] = t4 - t3;
        }
        System.out.printf(
                "store=%s memories=%d store_s=%.1f embed_s=%.1f searches=%d%n",
                kind, memories, storeSeconds, embedSeconds, searches);
        report(kind, "search (all of it)", whole);
        report(kind, "full-text ranking alone", words);
        report(kind, "the question's vector alone", question);
        report(kind, "comparing every vector alone", meaning);
    }

    private static void report(String kind, String part, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf(
                "store=%s part=\"%s\" p50_ms=%.2f p99_ms=%.2f%n",
                kind,
                part,
                sorted[sorted.length / 2] / 1e6,
                sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)] / 1e6);
    }

    private static String memory(int i) {
        return WHO.get(i % WHO.size()) + " " + WHAT.get((i / WHO.size()) % WHAT.size())
                + WHERE.get((i / (WHO.size() * WHAT.size())) % WHERE.size()) + " (#" + i + ")";
    }

    private static void store(ToolRegistry tools, String user, int i, String content) {
        ObjectNode args = Json.object();
        args.put("operation", "store");
        args.put("content", content);
        tools.call(MemoTools.MEMORY, args, context(user, "store-" + i));
    }

    private static void search(ToolRegistry tools, String user, String query, int i) {
        ObjectNode args = Json.object();
        args.put("operation", "search");
        args.put("query", query);
        tools.call(MemoTools.MEMORY, args, context(user, "search-" + i));
    }

    private static ToolContext context(String user, String run) {
        return ToolContext.detached(run, Optional.of(user), "A", TimeSource.of(Instant::now));
    }
}
