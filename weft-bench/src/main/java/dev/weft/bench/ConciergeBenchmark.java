package dev.weft.bench;

import dev.weft.concierge.Concierge;
import dev.weft.concierge.ConversationSuite;
import dev.weft.concierge.shop.ShopPolicy;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code weft-bench concierge [--runs N]}: the offline concierge (rules, no model) on SQLite, through its
 * conversations corpus (the τ²-bench-shaped conversations {@code ./mvnw verify} runs), N times, each
 * run on a new database: per run, the conversations that end with the shop as they must, the turns per
 * second (turns over the time spent in them; the demo shop is reloaded between conversations, untimed)
 * and p50/p99 of one turn. A turn is a durable run of the ten-node graph, committed step by step. The
 * first run includes the JIT's warm-up. Results go to stdout, progress to stderr; exit 1 when any run
 * had a conversation end wrong.
 */
public final class ConciergeBenchmark {
    private static final String USAGE = "usage: weft-bench concierge [--runs N]   (default 5; N >= 1)";

    private static final Map<String, NumericOptions.Option> OPTIONS = new LinkedHashMap<>();

    static {
        OPTIONS.put("runs", new NumericOptions.Option(5, 1));
    }

    private ConciergeBenchmark() {}

    public static void run(String[] args) {
        int runs = NumericOptions.parse(args, OPTIONS, USAGE).intValue("runs");
        List<ConversationSuite.Conversation> corpus = ConversationSuite.corpus();
        System.out.printf(
                "concierge, offline, SQLite: %d conversations (%d in Hebrew), %d runs%n",
                corpus.size(),
                corpus.stream().filter(c -> c.language().equals("he")).count(),
                runs);
        System.out.printf(
                "%-5s %-14s %7s %10s %10s %10s%n", "run", "ended right", "turns", "turns/s", "p50 ms", "p99 ms");
        boolean allRight = true;
        List<Long> everyTurn = new ArrayList<>();
        for (int run = 1; run <= runs; run++) {
            Path dir = temporary();
            List<ConversationSuite.Outcome> outcomes = new ArrayList<>();
            try (RunStore store = Stores.open("sqlite:" + dir.resolve("concierge.db"))) {
                Concierge concierge = Concierge.open(store, Optional.empty(), ShopPolicy.demo());
                Runner runner = Runner.builder().store(store).build();
                for (ConversationSuite.Conversation conversation : corpus) {
                    outcomes.add(ConversationSuite.run(
                            concierge, runner, conversation, "bench", "run-" + run + "-" + conversation.id()));
                }
            }
            List<Long> turns = new ArrayList<>();
            outcomes.forEach(o -> turns.addAll(o.turnNanos()));
            everyTurn.addAll(turns);
            long right =
                    outcomes.stream().filter(ConversationSuite.Outcome::passed).count();
            allRight &= right == outcomes.size();
            System.out.printf(
                    "%-5d %-14s %7d %10.1f %10.2f %10.2f%n",
                    run,
                    right + "/" + outcomes.size(),
                    turns.size(),
                    turns.size() / (turns.stream().mapToLong(Long::longValue).sum() / 1e9),
                    percentile(turns, 0.50) / 1e6,
                    percentile(turns, 0.99) / 1e6);
            outcomes.stream()
                    .filter(o -> !o.passed())
                    .forEach(o -> System.err.println("  " + o.id() + ": " + String.join(" | ", o.problems())));
        }
        System.out.printf(
                "all %d runs: %d turns, p50 %.2f ms, p99 %.2f ms; every conversation ended right in every run: %s%n",
                runs,
                everyTurn.size(),
                percentile(everyTurn, 0.50) / 1e6,
                percentile(everyTurn, 0.99) / 1e6,
                allRight ? "yes" : "NO");
        if (!allRight) {
            System.exit(1);
        }
    }

    private static double percentile(List<Long> values, double p) {
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(Comparator.naturalOrder());
        if (sorted.isEmpty()) {
            return 0;
        }
        int index = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(index, sorted.size() - 1)));
    }

    private static Path temporary() {
        try {
            Path dir = Files.createTempDirectory("weft-bench-concierge");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
