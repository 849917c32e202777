package dev.weft.cli;

import dev.weft.channels.WhatsAppChannel;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.redis.RedisSteps;
import dev.weft.server.RunTracing;
import dev.weft.server.WeftServer;
import dev.weft.store.Housekeeping;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weft serve}: the HTTP API, the OpenAI-compatible endpoint, Memo's reminders and crash
 * recovery in one process, until SIGTERM (or Ctrl-C) stops it gracefully: no new requests, those in
 * flight finish and their runs are committed, then it exits.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        description = "Serves the API and the OpenAI-compatible endpoint (/v1/chat/completions, model 'memo');"
                + " keys from 'weft keys create'.")
final class ServeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--port", paramLabel = "PORT", description = "The port (default 8080; 0 picks a free one).")
    int port = 8080;

    @Option(
            names = "--bind",
            paramLabel = "ADDRESS",
            description = "The address to listen on (default 127.0.0.1: this machine only).")
    String bind = "127.0.0.1";

    @Option(
            names = "--db",
            paramLabel = "URL",
            description = "sqlite:PATH or jdbc:postgresql://… (default: WEFT_DB, else SQLite under WEFT_HOME).")
    String db;

    @Option(
            names = "--redis",
            paramLabel = "URL",
            description = "Hand plan steps' tool calls and queued workflow nodes to 'weft worker' processes through"
                    + " Redis at URL (redis://host:port[/db]; default: WEFT_REDIS_URL, else every step runs here).")
    String redis;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        RunStore store;
        WeftServer server;
        Optional<WhatsAppChannel.Settings> whatsApp;
        Optional<RedisSteps> steps = Optional.empty();
        Optional<OpenTelemetrySdk> telemetry = RunTracing.fromEnvironment(Env.get());
        try {
            store = Storage.open(db);
            try {
                steps = Storage.steps(store, redis);
                WeftServer.Builder builder = WeftServer.builder();
                whatsApp = WhatsAppChannel.Settings.fromEnvironment(Env.get());
                whatsApp.ifPresent(builder::whatsApp);
                builder.channelRetention(dev.weft.channels.InboxWorker.retentionFromEnvironment(Env.get()));
                telemetry.ifPresent(sdk -> builder.tracing(RunTracing.create(sdk)));
                mcpSessions(builder);
                dev.weft.assistant.Assistants assistants = Storage.assistants(store);
                server = builder.store(store)
                        .assistants(assistants)
                        .mailflow(Storage::mailflow)
                        .runner(Storage.runner(store, steps))
                        // Stored runs are rebuilt by the server: an assistant's by its assistant, a
                        // workflow's with these node types (agent among them).
                        .nodeTypes(Storage.nodeTypes(store))
                        .host(bind)
                        .port(port)
                        .housekeeping(Storage.duration("WEFT_HOUSEKEEPING_EVERY", Housekeeping.DEFAULT_EVERY, true))
                        .idempotencyRetention(Storage.duration(
                                "WEFT_RETAIN_IDEMPOTENCY", Housekeeping.DEFAULT_IDEMPOTENCY_RETENTION, false))
                        .webhookDeliveryRetention(Storage.duration(
                                "WEFT_RETAIN_WEBHOOK_DELIVERIES", WeftServer.DEFAULT_WEBHOOK_DELIVERY_RETENTION, false))
                        .start();
                WeftServer started = server;
                steps.ifPresent(queue -> queue.onRunEvents(started::wake));
            } catch (RuntimeException e) {
                steps.ifPresent(RedisSteps::close);
                store.close();
                telemetry.ifPresent(OpenTelemetrySdk::close);
                throw e;
            }
        } catch (WeftException e) {
            return WorkflowCommand.failure(spec, false, e);
        } catch (IllegalStateException | IllegalArgumentException e) {
            spec.commandLine().getErr().println("weft: cannot serve on " + bind + ":" + port + ": " + e.getMessage());
            return ExitCodes.FAILED;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Optional<RedisSteps> queue = steps;
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            queue.ifPresent(RedisSteps::close);
                            store.close();
                            telemetry.ifPresent(OpenTelemetrySdk::close);
                            out.println("weft serve: stopped");
                            out.flush();
                            stopped.countDown();
                        },
                        "weft-serve-stop"));
        out.println("weft serve: listening on " + server.uri() + " (OpenAI-compatible: " + server.uri()
                + "v1, model 'memo'; MCP: " + server.uri() + "mcp"
                + (whatsApp.isPresent() ? "; WhatsApp webhook: " + server.uri() + "channels/whatsapp" : "")
                + "); SIGTERM or Ctrl-C stops it");
        queue.ifPresent(q -> out.println("weft serve: plan steps' tool calls and queued nodes go to workers through "
                + q.where() + "; they run here while Redis does not answer"));
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ExitCodes.OK;
    }

    /**
     * MCP sessions' idle time ({@code WEFT_MCP_SESSION_IDLE}, an ISO-8601 duration such as {@code PT30M})
     * and how many may be open ({@code WEFT_MCP_MAX_SESSIONS}).
     */
    private static void mcpSessions(WeftServer.Builder builder) {
        String idle = Env.get().getOrDefault("WEFT_MCP_SESSION_IDLE", "").strip();
        String max = Env.get().getOrDefault("WEFT_MCP_MAX_SESSIONS", "").strip();
        if (idle.isEmpty() && max.isEmpty()) {
            return;
        }
        try {
            builder.mcpSessions(
                    idle.isEmpty() ? java.time.Duration.ofMinutes(30) : java.time.Duration.parse(idle),
                    max.isEmpty() ? 1000 : Integer.parseInt(max));
        } catch (java.time.format.DateTimeParseException | IllegalArgumentException e) {
            throw new WeftException(
                    dev.weft.core.ErrorCode.E_BAD_INPUT,
                    "WEFT_MCP_SESSION_IDLE must be an ISO-8601 duration (PT30M) and WEFT_MCP_MAX_SESSIONS a"
                            + " positive number; " + e.getMessage());
        }
    }
}
