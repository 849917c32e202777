package dev.weft.bench;

import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.Memo;
import dev.weft.memo.OfflinePlanner;
import dev.weft.memo.Planner;
import dev.weft.plan.PlanMode;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code weft-bench memo [--messages N] [--asks N]}: Memo without a model. Messages per second through
 * the offline planner and resolvers in PREVIEW (each one a durable plan run on SQLite, nothing acted
 * on), beside the planner alone (no runtime, no store: the floor); then the latency of one ask in
 * AUTO on SQLite (a reminder created and committed), p50 and p99. English and Hebrew messages
 * alternate. Each part first runs a quarter of N untimed. Results go to stdout, progress to stderr.
 */
public final class MemoBenchmark {
    private static final String USAGE =
            "usage: weft-bench memo [--messages N] [--asks N]   (defaults 2000, 500; N >= 10)";

    private static final Map<String, NumericOptions.Option> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("messages", new NumericOptions.Option(2000, 10));
        OPTIONS.put("asks", new NumericOptions.Option(500, 10));
    }

    /** The requests Memo is timed on: each kind of step, in both languages, one and several parts. */
    static final List<String> MESSAGES = List.of(
            "remind me tomorrow at 9 to call Dana",
            "תזכיר לי מחר ב-9 להתקשר לדנה",
            "remind me every day at 8 to take my pills",
            "תזכיר לי כל 15 דקות לשתות מים",
            "what are my tasks for today?",
            "מה המשימות שלי להיום?",
            "create a shopping list with milk, eggs and bread",
            "תוסיף גבינה לרשימת הקניות",
            "what do I have today on my calendar and also send me my tasks",
            "מחק את הפגישה עם דנה ואז צור משימה להתקשר אליה",
            "hi",
            "מה אתה יכול לעשות?");

    private MemoBenchmark() {}

    public static void run(String[] args) {
        NumericOptions options = NumericOptions.parse(args, OPTIONS, USAGE);
        int messages = options.intValue("messages");
        int asks = options.intValue("asks");
        ZoneId zone = ZoneId.of("Asia/Jerusalem");
        Optional<ZoneId> tz = Optional.of(zone);

        OfflinePlanner planner = new OfflinePlanner();
        ZonedDateTime now = ZonedDateTime.now(zone);
        for (int i = 0; i < messages / 4; i++) {
            String m = MESSAGES.get(i % MESSAGES.size());
            planner.plan(m, new Planner.Context(dev.weft.language.Language.codeOf(m), now));
        }
        long started = System.nanoTime();
        for (int i = 0; i < messages; i++) {
            String m = MESSAGES.get(i % MESSAGES.size());
            planner.plan(m, new Planner.Context(dev.weft.language.Language.codeOf(m), now));
        }
        double plannerRate = messages / ((System.nanoTime() - started) / 1e9);
        System.out.printf(
                "engine=offline-planner part=planner_only messages=%d messages_per_s=%.0f%n", messages, plannerRate);

        try (RunStore store = DurableStores.sqlite()) {
            Memo memo = Memo.open(store);
            Runner runner = Runner.builder().store(store).build();
            System.err.println("weft-bench memo: " + messages + " messages in PREVIEW on SQLite...");
            for (int i = 0; i < messages / 4; i++) {
                memo.ask(runner, new Memo.Request("warm", MESSAGES.get(i % MESSAGES.size()), tz, PlanMode.PREVIEW));
            }
            started = System.nanoTime();
            for (int i = 0; i < messages; i++) {
                memo.ask(
                        runner,
                        new Memo.Request("u" + (i % 50), MESSAGES.get(i % MESSAGES.size()), tz, PlanMode.PREVIEW));
            }
            double previewRate = messages / ((System.nanoTime() - started) / 1e9);
            System.out.printf(
                    "engine=weft part=preview store=sqlite messages=%d messages_per_s=%.0f%n", messages, previewRate);
            System.out.printf("ratio preview_over_planner_only_time=%.1f%n", plannerRate / previewRate);

            System.err.println("weft-bench memo: " + asks + " asks in AUTO on SQLite...");
            for (int i = 0; i < asks / 4; i++) {
                memo.ask(runner, new Memo.Request("warm", "remind me tomorrow at 9 to call " + i, tz, PlanMode.AUTO));
            }
            long[] nanos = new long[asks];
            for (int i = 0; i < asks; i++) {
                String message =
                        i % 2 == 0 ? "remind me tomorrow at 9 to call Dana " + i : "תזכיר לי מחר ב-9 להתקשר לדנה " + i;
                long t0 = System.nanoTime();
                memo.ask(runner, new Memo.Request("auto" + (i % 20), message, tz, PlanMode.AUTO));
                nanos[i] = System.nanoTime() - t0;
            }
            Arrays.sort(nanos);
            System.out.printf(
                    "engine=weft part=ask_auto store=sqlite asks=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f%n",
                    asks,
                    nanos[(int) Math.ceil(0.50 * asks) - 1] / 1e6,
                    nanos[(int) Math.ceil(0.99 * asks) - 1] / 1e6,
                    nanos[asks - 1] / 1e6);
        }
    }
}
