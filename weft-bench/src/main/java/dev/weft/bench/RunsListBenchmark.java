package dev.weft.bench;

import dev.weft.core.Json;
import dev.weft.core.Run;
import dev.weft.core.RunIds;
import dev.weft.core.RunStatus;
import dev.weft.core.spi.RunStore;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code weft-bench runs [--runs N] [--repeat R]}: a page of 50 of one user's runs, as {@code GET
 * /api/runs} and {@code weft runs list} read it — by the store's query ({@code RunStore.listRuns(RunQuery)}:
 * filter, order and page in SQL) beside the way they read it before (every run of the user, then the
 * page taken in memory), on SQLite and PostgreSQL. The user has N runs among 2N (the other half spread
 * over 100 users); the first page and a page deep in the list (offset N/2) are read R times each, after
 * R/4 untimed reads. Prints milliseconds per page. Results go to stdout, progress to stderr.
 */
final class RunsListBenchmark {
    private static final String USAGE =
            "usage: weft-bench runs [--runs N] [--repeat R]   (defaults 10000, 20; N >= 100, R >= 1)";
    private static final Map<String, NumericOptions.Option> OPTIONS = new LinkedHashMap<>();
    private static final int PAGE = 50;

    static {
        OPTIONS.put("runs", new NumericOptions.Option(10_000, 100));
        OPTIONS.put("repeat", new NumericOptions.Option(20, 1));
    }

    private RunsListBenchmark() {}

    static void run(String[] args) {
        NumericOptions options = NumericOptions.parse(args, OPTIONS, USAGE);
        int runs = options.intValue("runs");
        int repeat = options.intValue("repeat");
        Map<String, Supplier<RunStore>> stores = new LinkedHashMap<>();
        stores.put("sqlite", DurableStores::sqlite);
        stores.put("postgresql", DurableStores::postgres);
        System.out.printf(
                "%-10s  %-7s  %-18s  %-18s  %s%n", "store", "offset", "in memory (ms)", "in SQL (ms)", "ratio");
        for (Map.Entry<String, Supplier<RunStore>> entry : stores.entrySet()) {
            try (RunStore store = entry.getValue().get()) {
                System.err.println("runs: writing " + 2 * runs + " runs to " + entry.getKey());
                fill(store, runs);
                for (int offset : new int[] {0, runs / 2}) {
                    RunStore.RunQuery query =
                            new RunStore.RunQuery(Optional.empty(), Optional.of("dana"), offset, PAGE);
                    Supplier<List<Run>> before = () -> {
                        List<Run> all = store.listRuns(Optional.empty(), Optional.of("dana"));
                        return all.subList(Math.min(offset, all.size()), Math.min(offset + PAGE, all.size()));
                    };
                    Supplier<List<Run>> after = () -> store.listRuns(query).runs();
                    if (!before.get().equals(after.get())) {
                        throw new IllegalStateException("the two ways read different pages at offset " + offset);
                    }
                    double memory = msPer(before, repeat);
                    double sql = msPer(after, repeat);
                    System.out.printf(
                            "%-10s  %-7d  %-18.2f  %-18.2f  %.1fx%n",
                            entry.getKey(), offset, memory, sql, memory / sql);
                }
            }
        }
    }

    private static void fill(RunStore store, int runs) {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        for (int i = 0; i < 2 * runs; i++) {
            String user = i % 2 == 0 ? "dana" : "user-" + (i % 100);
            store.createRun(new Run(
                    RunIds.next(),
                    "bench",
                    Optional.empty(),
                    i % 7 == 0 ? RunStatus.WAITING : RunStatus.COMPLETED,
                    Json.object().put("message", "remind me to call mom " + i),
                    Map.of(),
                    Map.of(),
                    Json.object().put("reply", "I'll remind you."),
                    Optional.empty(),
                    t0.plusSeconds(i),
                    Optional.empty(),
                    Json.object(),
                    Optional.of(user)));
        }
    }

    private static double msPer(Supplier<List<Run>> read, int repeat) {
        for (int i = 0; i < Math.max(1, repeat / 4); i++) {
            read.get();
        }
        long started = System.nanoTime();
        for (int i = 0; i < repeat; i++) {
            read.get();
        }
        return (System.nanoTime() - started) / 1e6 / repeat;
    }
}
