package dev.weft.bench;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The entry of {@code bin/weft-bench}: {@code weft-bench <benchmark> [options]}. Each benchmark's
 * {@code run(String[])} gets the arguments that follow its name.
 */
public final class Main {
    private static final String USAGE = """
            usage: weft-bench <benchmark> [options]
              graph [--seconds N]   per-step overhead of Weft's graph runner against LangGraph4j
              time [options]        the time benchmark (its options are its own)
              scheduler [--dags N] [--seed S] [--parallel K]
                                    makespan / critical path: Weft's dataflow plans against seed 000's group barrier
              concurrency [--plans N]
                                    N plans of 3 sleeping steps started at once: wall time / ideal, peak heap
              payload [--runs N] [--steps S] [--mib M]
                                    ms per durable run of a chain whose first output is M MiB, beside a small one
              memo [--messages N] [--asks N]
                                    Memo offline: messages/s in PREVIEW beside the planner alone; p50/p99 of an ask in AUTO
              mail [--messages N] [--searches N]
                                    Memo's IMAP search on a GreenMail mailbox of N messages: p50/p99 per kind, beside Jakarta Mail alone
              mailflow [--emails N] [--clients C] [--duplicates D]
                                    The email agent from webhook to reply (offline, SQLite): emails/s, p50/p99; D deliveries of one email, one run
              memory [--memories N] [--searches N]
                                    Memo's memory search with N memories of a user on SQLite and PostgreSQL: p50/p99, and of each part
              caldav [--events N] [--changes C] [--rounds R] [--interval S]
                                    Memo's CalDAV sync on Radicale: first and incremental sync beside the bare HTTP client; change to answer
              server [--seconds N] [--subscribers S] [--chats C]
                                    weft serve on SQLite: S live run event streams and C chat-completion clients for N s
              runs [--runs N] [--repeat R]
                                    a page of a user's N runs read in SQL beside all read and paged in memory, SQLite and PostgreSQL
              channels [--messages N] [--chats C] [--calls N]
                                    Telegram messages to Memo's reply (p50/p99, and from C chats at once); MCP tool calls
                                    over Streamable HTTP beside the same call in-process
              workers [--quick] [--concurrency N] [--only weft|queue] [--warm-up N]
                                    steps run by worker processes through Redis: the floor (bare XADD/XREADGROUP/XACK)
                                    beside Weft's cost per queued step; 10,000 steps of 50 ms inline and with 1, 2, 4
                                    workers; a worker killed mid-run (--only: the queue cost per step alone, or
                                    Weft's phase of it alone, to profile; --warm-up: entries run unmeasured before
                                    each queue-cost figure, 4000 by default)
              concierge [--runs N]  the offline concierge on SQLite through its conversations corpus, N times:
                                    turns/s, p50/p99 per turn, and the share of conversations ending as they must
              soak [--minutes M] [--messages N] [--workflows W] [--speedup X]
                                    an hour of Memo and workflow traffic on SQLite, compressed X times, with the
                                    housekeeping on: row counts and heap after GC every 5 simulated minutes
            """;

    private Main() {}

    public static void main(String[] args) {
        if (args.length == 0) {
            System.err.print(USAGE);
            System.exit(2);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        try {
            switch (args[0]) {
                case "graph" -> GraphBenchmark.run(rest);
                case "time" -> runTimeBenchmark(rest);
                case "scheduler" -> SchedulerBenchmark.run(rest);
                case "concurrency" -> ConcurrencyBenchmark.run(rest);
                case "payload" -> PayloadBenchmark.run(rest);
                case "memo" -> MemoBenchmark.run(rest);
                case "mail" -> MailBenchmark.run(rest);
                case "memory" -> MemoryBenchmark.run(rest);
                case "server" -> ServerBenchmark.run(rest);
                case "runs" -> RunsListBenchmark.run(rest);
                case "caldav" -> CalDavBenchmark.run(rest);
                case "mailflow" -> MailflowBenchmark.run(rest);
                case "channels" -> ChannelsBenchmark.run(rest);
                case "workers" -> WorkersBenchmark.run(rest);
                case "concierge" -> ConciergeBenchmark.run(rest);
                case "soak" -> SoakBenchmark.run(rest);
                case "help", "-h", "--help" -> System.out.print(USAGE);
                default -> {
                    System.err.print("weft-bench: no benchmark '" + args[0] + "'\n" + USAGE);
                    System.exit(2);
                }
            }
        } catch (UsageException e) {
            System.err.println("weft-bench " + args[0] + ": " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * Looked up by name, so that this entry builds whether or not the time benchmark is in the source
     * tree yet.
     */
    private static void runTimeBenchmark(String[] args) {
        Method run;
        try {
            run = Class.forName("dev.weft.bench.TimeBenchmark").getMethod("run", String[].class);
        } catch (ClassNotFoundException | NoSuchMethodException e) {
            System.err.println("weft-bench: the time benchmark is not in this build"
                    + " (no dev.weft.bench.TimeBenchmark.run(String[]))");
            System.exit(2);
            return;
        }
        try {
            run.invoke(null, (Object) args);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("dev.weft.bench.TimeBenchmark.run(String[]) is not public", e);
        } catch (InvocationTargetException e) {
            Throwable failure = e.getCause();
            if (failure instanceof RuntimeException unchecked) {
                throw unchecked;
            }
            if (failure instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("the time benchmark failed", failure);
        }
    }
}
