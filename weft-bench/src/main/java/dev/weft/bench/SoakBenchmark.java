package dev.weft.bench;

import dev.weft.core.Json;
import dev.weft.core.RunRequest;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.Memo;
import dev.weft.plan.PlanMode;
import dev.weft.store.AppDatabase;
import dev.weft.store.Housekeeping;
import dev.weft.workflow.NodeTypes;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowParser;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code weft-bench soak [--minutes M] [--messages N] [--workflows W] [--speedup X]}: an hour's worth
 * of traffic (M simulated minutes, each with N Memo messages in AUTO across 50 users and W workflow
 * runs) on SQLite, compressed X times (a simulated minute lasts 60/X real seconds at most: the traffic
 * runs as fast as it can, and the retention and the housekeeping period are scaled the same way), with
 * the housekeeping a server runs: the idempotency results of finished runs kept 10 simulated minutes,
 * pruned every simulated minute. Every 5 simulated minutes it prints the row counts of the tables that
 * grow with traffic and the heap used after a full GC, as {@code key=value} lines; the last lines say
 * whether the pruned tables and the heap levelled off (their last samples within the bounds the first
 * retention's worth of traffic set). Runs, steps and events are what users list: they are kept, and
 * grow. Results go to stdout, progress to stderr.
 */
public final class SoakBenchmark {
    private static final String USAGE = "usage: weft-bench soak [--minutes M] [--messages N] [--workflows W]"
            + " [--speedup X]   (defaults 60, 60, 20, 60)";

    private static final Map<String, NumericOptions.Option> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("minutes", new NumericOptions.Option(60, 15));
        OPTIONS.put("messages", new NumericOptions.Option(60, 1));
        OPTIONS.put("workflows", new NumericOptions.Option(20, 0));
        OPTIONS.put("speedup", new NumericOptions.Option(60, 1));
    }

    /** The messages: each writes something (a task, a list, an event) or reads, in both languages. */
    private static final List<String> MESSAGES = List.of(
            "remind me tomorrow at 9 to call Dana",
            "תזכיר לי מחר ב-9 להתקשר לדנה",
            "create a shopping list with milk, eggs and bread",
            "תוסיף גבינה לרשימת הקניות",
            "what are my tasks for today?",
            "מה המשימות שלי להיום?",
            "add a task to pay the electricity bill",
            "hi");

    private static final int RETENTION_MINUTES = 10;
    private static final int SAMPLE_EVERY_MINUTES = 5;

    private SoakBenchmark() {}

    public static void run(String[] args) {
        NumericOptions options = NumericOptions.parse(args, OPTIONS, USAGE);
        int minutes = options.intValue("minutes");
        int messages = options.intValue("messages");
        int workflows = options.intValue("workflows");
        int speedup = options.intValue("speedup");
        Duration minute = Duration.ofMillis(60_000L / speedup);
        Optional<ZoneId> tz = Optional.of(ZoneId.of("Asia/Jerusalem"));
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();

        try (RunStore store = DurableStores.sqlite()) {
            Memo memo = Memo.open(store);
            Runner runner = Runner.builder().store(store).build();
            Workflow triage = Workflow.compile(WorkflowParser.parse("""
                            {"id": "triage", "variables": {"threshold": 3},
                             "nodes": [{"id": "in", "type": "trigger"},
                               {"id": "check", "type": "condition", "config": {"expression": "input.priority > vars.threshold"}},
                               {"id": "hi", "type": "transform", "config": {"output": {"label": "'urgent'"}}},
                               {"id": "lo", "type": "transform", "config": {"output": {"label": "'normal'"}}}],
                             "connections": [{"source": "in", "target": "check"},
                               {"source": "check", "target": "hi", "sourceHandle": "positive"},
                               {"source": "check", "target": "lo", "sourceHandle": "negative"}]}
                            """, "soak"), NodeTypes.standard());
            Housekeeping housekeeping = Housekeeping.builder(store)
                    .idempotencyRetention(minute.multipliedBy(RETENTION_MINUTES))
                    .every(minute)
                    .build();
            AppDatabase db = AppDatabase.of(store);
            System.out.printf(
                    "soak store=sqlite simulated_minutes=%d messages_per_minute=%d workflows_per_minute=%d speedup=%d"
                            + " idempotency_retention_minutes=%d%n",
                    minutes, messages, workflows, speedup, RETENTION_MINUTES);
            long prunedTotal = 0;
            long firstBoundIdempotency = -1;
            long firstBoundHeap = -1;
            long lastIdempotency = 0;
            long lastHeap = 0;
            long maxIdempotencyAfter = 0;
            long maxHeapAfter = 0;
            long started = System.nanoTime();
            int sent = 0;
            for (int m = 1; m <= minutes; m++) {
                long minuteStart = System.nanoTime();
                for (int i = 0; i < messages; i++) {
                    memo.ask(
                            runner,
                            new Memo.Request(
                                    "u" + (sent % 50),
                                    MESSAGES.get(sent % MESSAGES.size()) + " " + m,
                                    tz,
                                    PlanMode.AUTO));
                    sent++;
                }
                for (int i = 0; i < workflows; i++) {
                    runner.run(triage.graph(), RunRequest.of(Json.object().put("priority", i % 6)));
                }
                long left = minute.toNanos() - (System.nanoTime() - minuteStart);
                if (left > 0) {
                    sleep(left);
                }
                prunedTotal += housekeeping.runOnce().get("idempotency");
                if (m % SAMPLE_EVERY_MINUTES == 0) {
                    System.gc();
                    long heap = memory.getHeapMemoryUsage().getUsed();
                    Map<String, Long> rows = counts(db);
                    System.out.printf(
                            "sample minute=%d messages=%d idempotency_rows=%d runs=%d steps=%d journal_rows=%d"
                                    + " memo_tasks=%d memo_messages=%d idempotency_pruned=%d heap_used_mib=%.1f%n",
                            m,
                            sent,
                            rows.get("idempotency"),
                            rows.get("runs"),
                            rows.get("steps"),
                            rows.get("journal"),
                            rows.get("memo_tasks"),
                            rows.get("memo_messages"),
                            prunedTotal,
                            heap / 1048576.0);
                    lastIdempotency = rows.get("idempotency");
                    lastHeap = heap;
                    if (m <= 2 * RETENTION_MINUTES) {
                        firstBoundIdempotency = Math.max(firstBoundIdempotency, lastIdempotency);
                        firstBoundHeap = Math.max(firstBoundHeap, heap);
                    } else {
                        maxIdempotencyAfter = Math.max(maxIdempotencyAfter, lastIdempotency);
                        maxHeapAfter = Math.max(maxHeapAfter, heap);
                    }
                }
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            System.out.printf(
                    "result messages=%d workflow_runs=%d seconds=%.1f idempotency_pruned=%d%n",
                    sent, (long) workflows * minutes, seconds, prunedTotal);
            System.out.printf(
                    "result idempotency_rows_max_first_%dmin=%d idempotency_rows_max_after=%d idempotency_rows_last=%d"
                            + " levelled=%b%n",
                    2 * RETENTION_MINUTES,
                    firstBoundIdempotency,
                    maxIdempotencyAfter,
                    lastIdempotency,
                    maxIdempotencyAfter <= firstBoundIdempotency * 1.25);
            System.out.printf(
                    "result heap_mib_max_first_%dmin=%.1f heap_mib_max_after=%.1f heap_mib_last=%.1f levelled=%b%n",
                    2 * RETENTION_MINUTES,
                    firstBoundHeap / 1048576.0,
                    maxHeapAfter / 1048576.0,
                    lastHeap / 1048576.0,
                    maxHeapAfter <= firstBoundHeap * 1.25);
        }
    }

    private static Map<String, Long> counts(AppDatabase db) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (String table : List.of("idempotency", "runs", "steps", "journal", "memo_tasks", "memo_messages")) {
            counts.put(table, db.read("count " + table, connection -> {
                try (PreparedStatement count = connection.prepareStatement("SELECT count(*) FROM " + table);
                        ResultSet row = count.executeQuery()) {
                    return row.next() ? row.getLong(1) : 0L;
                }
            }));
        }
        return counts;
    }

    private static void sleep(long nanos) {
        try {
            Thread.sleep(Duration.ofNanos(nanos));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
