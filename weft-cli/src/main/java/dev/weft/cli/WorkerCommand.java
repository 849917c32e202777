package dev.weft.cli;

import dev.weft.core.ErrorCode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.spi.PlanExecutorProvider;
import dev.weft.redis.RedisUrl;
import dev.weft.redis.Worker;
import dev.weft.redis.WorkerHealth;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weft worker}: runs the steps that servers and commands queue on Redis (plan steps' tool
 * calls, workflow nodes marked queued) against the shared store, until SIGTERM (or Ctrl-C) stops it
 * gracefully: it reads no more, lets the steps in hand finish for up to the grace, and hands the rest
 * back to the other workers.
 */
@Command(
        name = "worker",
        mixinStandardHelpOptions = true,
        description = "Runs queued steps: reads them from Redis (--redis) and runs them against the store (--db).")
final class WorkerCommand implements Callable<Integer> {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--redis",
            paramLabel = "URL",
            description = "Redis, where the steps are queued: redis://host:port[/db] (default: WEFT_REDIS_URL).")
    String redis;

    @Option(
            names = "--db",
            paramLabel = "URL",
            description = "sqlite:PATH or jdbc:postgresql://… (default: WEFT_DB, else SQLite under WEFT_HOME).")
    String db;

    @Option(names = "--concurrency", paramLabel = "N", description = "How many steps it runs at once (default 16).")
    int concurrency = 16;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            description = "The port of its health checks (/healthz, /readyz, /status; default 0 picks a free one).")
    int port;

    @Option(
            names = "--bind",
            paramLabel = "ADDRESS",
            description = "The address of its health checks (default 127.0.0.1).")
    String bind = "127.0.0.1";

    @Option(
            names = "--lease-ms",
            paramLabel = "MS",
            description = "How long a step may go untouched before another worker takes its worker for dead"
                    + " (default 30000).")
    long leaseMs = 30_000;

    @Option(
            names = "--max-tries",
            paramLabel = "N",
            description = "How many times a step may be taken before it goes to the dead-letter stream (default 3).")
    int maxTries = 3;

    @Option(
            names = "--grace-ms",
            paramLabel = "MS",
            description = "On SIGTERM, how long the steps in hand may take to finish before they are handed back"
                    + " (default 30000).")
    long graceMs = 30_000;

    @Option(
            names = "--status-every-ms",
            paramLabel = "MS",
            description = "How often it prints what it is doing, when anything changed (default 5000; 0: never).")
    long statusEveryMs = 5_000;

    @Option(names = "--verbose", description = "Prints a line for every step it runs.")
    boolean verbose;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Optional<RedisUrl> url;
        try {
            if (concurrency < 1 || concurrency > 10_000) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "--concurrency must be from 1 to 10000, was " + concurrency);
            }
            if (leaseMs < 300) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "--lease-ms must be at least 300, was " + leaseMs);
            }
            if (maxTries < 1) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "--max-tries must be at least 1, was " + maxTries);
            }
            if (graceMs < 0 || statusEveryMs < 0) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "--grace-ms and --status-every-ms must not be negative");
            }
            url = Storage.redis(redis);
            if (url.isEmpty()) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT,
                        "no Redis to read steps from: give --redis redis://host:port (or set WEFT_REDIS_URL)");
            }
        } catch (WeftException e) {
            return WorkflowCommand.failure(spec, false, e);
        }
        RunStore store;
        try {
            store = Storage.open(db);
        } catch (WeftException e) {
            return WorkflowCommand.failure(spec, false, e);
        }
        Optional<OpenTelemetrySdk> telemetry = WorkerTelemetry.fromEnvironment(Env.get());
        Worker worker = Worker.builder(url.get(), store)
                .concurrency(concurrency)
                .lease(Duration.ofMillis(leaseMs))
                .maxTries(maxTries)
                .verbose(verbose)
                .openTelemetry(telemetry.<OpenTelemetry>map(sdk -> sdk).orElse(OpenTelemetry.noop()))
                .graphs(run -> {
                    try {
                        return Optional.of(Storage.graphOf(run, store));
                    } catch (GraphInvalidException e) {
                        return Optional.empty();
                    }
                })
                .executors(name -> PlanExecutorProvider.find(name).map(provider -> provider.executor(store)))
                .log(line -> say(out, line))
                .build();
        WorkerHealth health;
        try {
            health = WorkerHealth.start(worker, bind, port);
        } catch (RuntimeException e) {
            store.close();
            spec.commandLine().getErr().println("weft worker: cannot serve its health checks: " + e.getMessage());
            return ExitCodes.FAILED;
        }
        worker.start();
        say(
                out,
                "reading " + worker.where() + " as " + worker.consumer() + ", " + concurrency
                        + " steps at a time; health on " + health.uri() + "readyz; SIGTERM or Ctrl-C stops it");
        CountDownLatch stopped = new CountDownLatch(1);
        Thread status = Thread.ofVirtual().name("weft-worker-status").start(() -> printStatus(out, worker));
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            say(
                                    out,
                                    "stopping: reading no more; "
                                            + worker.status().inHand() + " steps in hand may finish within " + graceMs
                                            + " ms");
                            int handed = worker.stop(Duration.ofMillis(graceMs));
                            status.interrupt();
                            Worker.WorkerStatus last = worker.status();
                            health.close();
                            store.close();
                            telemetry.ifPresent(OpenTelemetrySdk::close);
                            say(
                                    out,
                                    "stopped: " + last.done() + " done, " + last.failed() + " failed, "
                                            + last.deadLettered() + " dead-lettered, " + handed + " handed back");
                            stopped.countDown();
                        },
                        "weft-worker-stop"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ExitCodes.OK;
    }

    private void printStatus(PrintWriter out, Worker worker) {
        if (statusEveryMs == 0) {
            return;
        }
        Worker.WorkerStatus shown = null;
        while (true) {
            try {
                Thread.sleep(statusEveryMs);
            } catch (InterruptedException e) {
                return;
            }
            Worker.WorkerStatus now = worker.status();
            if (now.equals(shown)) {
                continue;
            }
            shown = now;
            say(
                    out,
                    now.inHand() + " in hand, " + now.done() + " done, " + now.failed() + " failed, "
                            + now.deadLettered() + " dead-lettered, " + now.claimed() + " claimed from stopped workers;"
                            + " queue: " + now.queueWaiting() + " waiting, " + now.queueInProgress() + " in progress"
                            + (now.redisUp() ? "" : "; Redis is not answering"));
        }
    }

    private static void say(PrintWriter out, String line) {
        synchronized (out) {
            out.println("weft worker " + LocalTime.now().format(CLOCK) + ": " + line);
            out.flush();
        }
    }
}
