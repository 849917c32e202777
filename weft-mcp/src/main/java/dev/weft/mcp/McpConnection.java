package dev.weft.mcp;

import dev.weft.core.ErrorCode;
import dev.weft.core.OutcomeUnknownException;
import dev.weft.core.TransientException;
import dev.weft.core.WeftException;
import dev.weft.mcp.internal.JacksonMcpJson;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * A client's connection to one MCP server, on the SDK's client. It connects on first use, and when
 * the server is lost — its process died, or it forgot the session (an HTTP server restarted answers
 * 404 to the old session) — it connects and initializes again. A request the server cannot have seen
 * (the connection refused, the session unknown) is made once more on the new connection; a {@code
 * tools/call} cut while the server had it is made again only for a tool whose annotations say it is
 * read-only or idempotent, and otherwise fails with {@code E_OUTCOME_UNKNOWN}: it may have run, and
 * running it twice may do it twice. A {@code tools/call} the server does not answer in time is likewise
 * {@code E_OUTCOME_UNKNOWN} for such a tool ({@code E_TOOL_TIMEOUT} for a read-only or idempotent one).
 * An error the server itself answered (a JSON-RPC error) is not a lost connection and is not retried.
 * Thread-safe.
 */
public final class McpConnection implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(McpConnection.class.getName());

    private final McpServerConfig config;
    private final Duration timeout;
    private McpSyncClient client;
    /** The server's process, for a stdio server whose process was found once it started. */
    private java.util.Optional<ProcessHandle> process = java.util.Optional.empty();

    private int connections;
    /** Held while a stdio server starts, so that the one new child process of this JVM is its. */
    private static final Object SPAWNING = new Object();

    private boolean closed;

    McpConnection(McpServerConfig config, Duration timeout) {
        this.config = Objects.requireNonNull(config, "config");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /** A connection to {@code config}'s server, made when first used; requests wait at most a minute. */
    public static McpConnection to(McpServerConfig config) {
        return new McpConnection(config, McpTools.DEFAULT_TIMEOUT);
    }

    /**
     * A connection to {@code config}'s server, made when first used; requests wait at most {@code timeout}.
     *
     * @throws IllegalArgumentException for a timeout that is not positive
     */
    public static McpConnection to(McpServerConfig config, Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("an MCP request timeout must be positive, was " + timeout);
        }
        return new McpConnection(config, timeout);
    }

    public McpServerConfig config() {
        return config;
    }

    /** How long a request waits for the server's answer. */
    public Duration timeout() {
        return timeout;
    }

    /** How many times this connection has connected (and initialized) so far. */
    public synchronized int connections() {
        return connections;
    }

    /** The server's tools (every page). */
    public List<McpSchema.Tool> tools() {
        return withClient("tools/list", true, client -> {
            List<McpSchema.Tool> tools = new ArrayList<>();
            McpSchema.ListToolsResult page = client.listTools();
            tools.addAll(page.tools());
            while (page.nextCursor() != null) {
                page = client.listTools(page.nextCursor());
                tools.addAll(page.tools());
            }
            return tools;
        });
    }

    /**
     * Calls tool {@code name} with {@code arguments}; a result the server marks as an error is returned
     * as such.
     *
     * @param repeatable whether the call may be made again when the connection is lost while the server
     *     has it: true only for a tool whose annotations say {@code readOnlyHint} or {@code idempotentHint}
     * @throws OutcomeUnknownException {@code E_OUTCOME_UNKNOWN} when the connection was lost during a call
     *     that is not {@code repeatable}, or the server did not answer it in time: the tool may have run; it
     *     is not called again
     * @throws WeftException {@code E_TOOL_TIMEOUT} when the server did not answer a {@code repeatable} call
     *     in time
     */
    public McpSchema.CallToolResult call(String name, Map<String, Object> arguments, boolean repeatable) {
        return withClient(
                "tool '" + name + "'",
                repeatable,
                client -> client.callTool(McpSchema.CallToolRequest.builder(name)
                        .arguments(arguments)
                        .build()));
    }

    private <T> T withClient(String what, boolean repeatable, Function<McpSyncClient, T> work) {
        McpSyncClient current = current();
        try {
            return work.apply(current);
        } catch (RuntimeException e) {
            if (!repeatable && timedOut(e)) {
                // The server had the call and said nothing in time: it may be running it still, or have
                // run it. Not made again, and not a plain timeout either: someone must look.
                throw new OutcomeUnknownException(
                        "MCP " + what + " of server '" + config.name() + "' (" + config.where() + ") may have run:"
                                + " the server did not answer within " + timeout.toSeconds() + " s; it is not called"
                                + " again, as its annotations say it is neither read-only nor idempotent",
                        e);
            }
            if (!lost(e)) {
                throw failure(e);
            }
            drop(current);
            if (!repeatable && !unseen(e)) {
                throw new OutcomeUnknownException(
                        "MCP " + what + " of server '" + config.name() + "' (" + config.where() + ") may have run:"
                                + " the connection was lost during the call (" + message(e) + "); it is not called"
                                + " again, as its annotations say it is neither read-only nor idempotent",
                        e);
            }
            LOG.log(System.Logger.Level.INFO, "mcp: server '" + config.name() + "' was lost; connecting again: " + e);
            try {
                return work.apply(current());
            } catch (RuntimeException again) {
                if (lost(again)) {
                    drop(null);
                    throw new TransientException(
                            ErrorCode.E_TOOL_FAILED,
                            "MCP server '" + config.name() + "' (" + config.where() + ") cannot be reached: "
                                    + message(again),
                            again);
                }
                throw failure(again);
            }
        }
    }

    /** The connected client, connecting and initializing first when there is none. */
    private synchronized McpSyncClient current() {
        if (closed) {
            throw new WeftException(ErrorCode.E_TOOL_FAILED, "the connection to '" + config.name() + "' is closed");
        }
        if (client != null && process.isPresent() && !process.get().isAlive()) {
            drop(client);
        }
        if (client == null) {
            McpSyncClient made = McpClient.sync(transport())
                    .requestTimeout(timeout)
                    .initializationTimeout(timeout)
                    .clientInfo(McpSchema.Implementation.builder("weft", "1").build())
                    .build();
            try {
                if (config.transport() instanceof McpServerConfig.Transport.Stdio stdio) {
                    synchronized (SPAWNING) {
                        java.util.Set<ProcessHandle> before = children();
                        made.initialize();
                        process = children().stream()
                                .filter(child -> !before.contains(child))
                                .findFirst();
                    }
                    // A call in flight when the process dies fails at once rather than waiting out its timeout.
                    process.ifPresent(p -> watchExit(p, made));
                } else {
                    made.initialize();
                }
            } catch (RuntimeException e) {
                close(made);
                throw new TransientException(
                        ErrorCode.E_TOOL_FAILED,
                        "cannot connect to MCP server '" + config.name() + "' (" + config.where() + "): " + message(e),
                        e);
            }
            client = made;
            connections++;
        }
        return client;
    }

    private static java.util.Set<ProcessHandle> children() {
        return ProcessHandle.current().children().collect(java.util.stream.Collectors.toSet());
    }

    /** Forgets {@code lost} (or whatever client there is, for null) so the next use connects again. */
    private synchronized void drop(McpSyncClient lost) {
        if (client != null && (lost == null || client == lost)) {
            close(client);
            client = null;
            process = java.util.Optional.empty();
        }
    }

    /**
     * Closes {@code made} as soon as its server process {@code server} exits. Watched from a virtual
     * thread of its own rather than {@link ProcessHandle#onExit}, whose future completes on the common
     * pool — on a small machine its one worker may be the very call waiting for the dead server.
     */
    private void watchExit(ProcessHandle server, McpSyncClient made) {
        Thread.ofVirtual().name("mcp-exit-" + config.name()).start(() -> {
            try {
                while (server.isAlive()) {
                    synchronized (this) {
                        if (client != made) {
                            return;
                        }
                    }
                    Thread.sleep(EXIT_POLL.toMillis());
                }
                dropDead(made);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** How often a stdio server's process is looked at while its connection is in use. */
    private static final Duration EXIT_POLL = Duration.ofMillis(100);

    /**
     * Forgets {@code dead}, whose server process exited, and closes it at once: a graceful close waits
     * for the answers in flight, which a dead process never gives, so the calls waiting for them would
     * wait out their timeout; closed abruptly, they fail now as a lost connection.
     */
    private void dropDead(McpSyncClient dead) {
        synchronized (this) {
            if (client == dead) {
                client = null;
                process = java.util.Optional.empty();
            }
        }
        dead.close();
    }

    private McpClientTransport transport() {
        return switch (config.transport()) {
            case McpServerConfig.Transport.Stdio stdio -> {
                requireProgram(stdio.command().get(0));
                StdioClientTransport transport = new StdioClientTransport(
                        ServerParameters.builder(stdio.command().get(0))
                                .args(stdio.command().subList(1, stdio.command().size()))
                                .env(System.getenv())
                                .build(),
                        JacksonMcpJson.instance());
                transport.setStdErrorHandler(line -> LOG.log(System.Logger.Level.DEBUG, config.name() + ": " + line));
                yield transport;
            }
            case McpServerConfig.Transport.Http http -> {
                URI url = http.url();
                String base = url.getScheme() + "://" + url.getRawAuthority();
                String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/mcp" : url.getRawPath();
                yield HttpClientStreamableHttpTransport.builder(base)
                        .endpoint(path + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery()))
                        .jsonMapper(JacksonMcpJson.instance())
                        .connectTimeout(Duration.ofSeconds(10))
                        .build();
            }
        };
    }

    /**
     * Fails at once, rather than after the initialization timeout, for a program that is not there.
     *
     * @throws WeftException {@code E_TOOL_FAILED} naming the program and where it was looked for
     */
    private void requireProgram(String program) {
        java.nio.file.Path path = java.nio.file.Path.of(program);
        if (program.contains(java.io.File.separator)) {
            if (!java.nio.file.Files.isExecutable(path)) {
                throw new WeftException(
                        ErrorCode.E_TOOL_FAILED,
                        "cannot start MCP server '" + config.name() + "': '" + program + "' is not an executable file");
            }
            return;
        }
        String searched = System.getenv().getOrDefault("PATH", "");
        for (String folder : searched.split(java.io.File.pathSeparator)) {
            if (!folder.isEmpty() && java.nio.file.Files.isExecutable(java.nio.file.Path.of(folder, program))) {
                return;
            }
        }
        throw new WeftException(
                ErrorCode.E_TOOL_FAILED,
                "cannot start MCP server '" + config.name() + "': no program '" + program + "' on the PATH");
    }

    /**
     * Whether {@code e} says the server is gone rather than that it answered: an answer is a JSON-RPC
     * error ({@link McpError}) or a timeout, anything else (a closed pipe, a refused connection, an
     * unknown session) is a lost server.
     */
    private static boolean lost(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof McpError || cause instanceof TimeoutException) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the lost request cannot have reached the server: the connection was refused, or the server
     * answered that it does not know the session (an HTTP server restarted).
     */
    private static boolean unseen(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.net.ConnectException || cause instanceof McpTransportSessionNotFoundException) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code e} is the request's timeout: the server had the request and did not answer in time. */
    private static boolean timedOut(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }

    private WeftException failure(RuntimeException e) {
        if (e instanceof WeftException weft) {
            return weft;
        }
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException) {
                return new WeftException(
                        ErrorCode.E_TOOL_TIMEOUT,
                        "MCP server '" + config.name() + "' did not answer within " + timeout.toSeconds() + " s");
            }
        }
        return new WeftException(
                ErrorCode.E_TOOL_FAILED, "MCP server '" + config.name() + "' answered with an error: " + message(e));
    }

    private static String message(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return e == root || e.getMessage() == null ? text : e.getMessage() + " (" + text + ")";
    }

    private static void close(McpSyncClient client) {
        try {
            if (!client.closeGracefully()) {
                client.close();
            }
        } catch (RuntimeException e) {
            client.close();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (client != null) {
            close(client);
            client = null;
        }
    }
}
