package dev.weft.server;

import dev.weft.core.ErrorCode;
import dev.weft.mcp.AssistantTools;
import dev.weft.mcp.McpServers;
import dev.weft.mcp.internal.JacksonMcpJson;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStreamableServerSession;
import io.modelcontextprotocol.spec.McpStreamableServerTransport;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import reactor.core.publisher.Mono;

/**
 * {@code /mcp}: the MCP SDK's Streamable HTTP transport on Helidon's routes. The SDK owns the protocol
 * (sessions, requests, responses, elicitation); this class moves its messages: {@code POST} carries
 * one JSON-RPC message — an {@code initialize} is answered in JSON with a new {@code Mcp-Session-Id},
 * a request is answered as a server-sent event stream (which also carries what the server asks the
 * client meanwhile, such as an elicitation), a response or notification gets {@code 202}; {@code
 * DELETE} ends a session. A session belongs to the user of the key that opened it: another key's
 * requests do not find it. A session unused for its idle time ends, and only so many are open at once
 * ({@link McpSessions}). There is no {@code GET} stream (405, which the protocol allows): the server
 * sends nothing outside a request. Thread-safe.
 */
final class McpHttp implements McpStreamableServerTransportProvider {
    private static final System.Logger LOG = System.getLogger(McpHttp.class.getName());
    static final String PATH = "/mcp";
    private static final HeaderName SESSION = HeaderNames.create("Mcp-Session-Id");

    /** How long an MCP session may sit unused before it ends, by default. */
    static final Duration DEFAULT_IDLE = Duration.ofMinutes(30);
    /** How many MCP sessions may be open at once, by default. */
    static final int DEFAULT_MAX_SESSIONS = 1000;

    private final McpSessions<McpStreamableServerSession> sessions;
    private volatile McpStreamableServerSession.Factory factory;
    private volatile boolean closing;
    private final McpSyncServer server;

    McpHttp(AssistantTools tools) {
        this(tools, Clock.systemUTC(), DEFAULT_IDLE, DEFAULT_MAX_SESSIONS);
    }

    /** Sessions that end after {@code idle} unused, at most {@code max} open, on {@code clock}'s time. */
    McpHttp(AssistantTools tools, Clock clock, Duration idle, int max) {
        this.sessions = new McpSessions<>(clock, idle, max, McpHttp::end);
        this.server = McpServers.serve(this, tools);
    }

    private static void end(McpStreamableServerSession session) {
        try {
            session.delete().block();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "mcp: cannot end an idle session", e);
        }
    }

    void register(Routes routes) {
        routes.post(PATH, this::post);
        routes.get(PATH, (req, res) -> {
            res.header(HeaderNames.ALLOW, "POST, DELETE");
            Http.error(res, 405, ErrorCode.E_BAD_INPUT, "this server offers no GET stream: POST JSON-RPC messages");
        });
        routes.delete(PATH, this::delete);
    }

    @Override
    public void setSessionFactory(McpStreamableServerSession.Factory sessionFactory) {
        this.factory = sessionFactory;
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return Mono.fromRunnable(() -> sessions.all().forEach(session -> {
            try {
                session.sendNotification(method, params).block();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "mcp: cannot notify a session", e);
            }
        }));
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> {
            closing = true;
            sessions.drain().forEach(session -> {
                try {
                    session.closeGracefully().block();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.DEBUG, "mcp: cannot close a session", e);
                }
            });
        });
    }

    /** Stops the SDK's server and ends every session. */
    void stop() {
        server.closeGracefully();
    }

    private void post(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        if (closing) {
            Http.error(res, 503, ErrorCode.E_UNAVAILABLE, "the server is stopping");
            return;
        }
        String accept = req.headers().first(HeaderNames.ACCEPT).orElse("");
        if (!accept.contains("application/json") || !accept.contains("text/event-stream")) {
            Http.error(
                    res,
                    400,
                    ErrorCode.E_BAD_INPUT,
                    "an MCP client must accept both application/json and text/event-stream (Accept header)");
            return;
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(JacksonMcpJson.instance(), body(req));
        } catch (IOException | IllegalArgumentException e) {
            Http.error(res, 400, ErrorCode.E_BAD_INPUT, "not a JSON-RPC message: " + e.getMessage());
            return;
        }
        McpTransportContext context = McpTransportContext.create(Map.of(McpServers.USER, caller.user()));
        if (message instanceof McpSchema.JSONRPCRequest request
                && request.method().equals(McpSchema.METHOD_INITIALIZE)) {
            McpSchema.InitializeRequest initialize = JacksonMcpJson.instance()
                    .convertValue(request.params(), new TypeRef<McpSchema.InitializeRequest>() {});
            McpStreamableServerSession.McpStreamableServerSessionInit init = factory.startSession(initialize);
            sessions.open(init.session().getId(), init.session(), caller.user());
            McpSchema.InitializeResult result = init.initResult().block();
            res.header(SESSION, init.session().getId());
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(write(McpSchema.JSONRPCResponse.result(request.id(), result)));
            return;
        }
        Optional<McpStreamableServerSession> session = session(req, caller);
        if (session.isEmpty()) {
            Http.error(
                    res,
                    req.headers().first(SESSION).isPresent() ? 404 : 400,
                    req.headers().first(SESSION).isPresent() ? ErrorCode.E_NOT_FOUND : ErrorCode.E_BAD_INPUT,
                    req.headers().first(SESSION).isPresent()
                            ? "no MCP session '" + req.headers().first(SESSION).get() + "': initialize again"
                            : "an Mcp-Session-Id header is required after initialize");
            return;
        }
        switch (message) {
            case McpSchema.JSONRPCResponse response -> {
                session.get()
                        .accept(response)
                        .contextWrite(ctx -> ctx.put(McpTransportContext.KEY, context))
                        .block();
                res.status(Status.ACCEPTED_202).send();
            }
            case McpSchema.JSONRPCNotification notification -> {
                session.get()
                        .accept(notification)
                        .contextWrite(ctx -> ctx.put(McpTransportContext.KEY, context))
                        .block();
                res.status(Status.ACCEPTED_202).send();
            }
            case McpSchema.JSONRPCRequest request -> {
                res.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
                res.header(HeaderNames.CACHE_CONTROL, "no-cache");
                try (OutputStream out = res.outputStream()) {
                    McpStreamableServerSession.McpStreamableServerSessionStream stream = session.get()
                            .responseStream(new EventStream(out, session.get().getId()));
                    try {
                        stream.handle(request)
                                .contextWrite(ctx -> ctx.put(McpTransportContext.KEY, context))
                                .block();
                    } finally {
                        stream.releaseTransport();
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            default -> Http.error(res, 400, ErrorCode.E_BAD_INPUT, "unknown JSON-RPC message");
        }
    }

    private void delete(ServerRequest req, ServerResponse res) {
        Caller caller = Caller.of(req);
        Optional<McpStreamableServerSession> session = session(req, caller);
        if (session.isEmpty()) {
            Http.error(res, 404, ErrorCode.E_NOT_FOUND, "no such MCP session");
            return;
        }
        session.get().delete().block();
        sessions.remove(session.get().getId());
        res.status(Status.OK_200).send();
    }

    /** The session the request names, if it is the caller's. */
    private Optional<McpStreamableServerSession> session(ServerRequest req, Caller caller) {
        return req.headers().first(SESSION).flatMap(id -> sessions.use(id, caller.user()));
    }

    private static String body(ServerRequest req) throws IOException {
        if (!req.content().hasEntity()) {
            throw new IOException("the body is empty");
        }
        try (InputStream in = req.content().inputStream()) {
            byte[] bytes = in.readNBytes(Http.MAX_BODY + 1);
            if (bytes.length > Http.MAX_BODY) {
                throw new IOException("the body is larger than " + Http.MAX_BODY + " bytes");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static byte[] write(Object value) {
        try {
            return JacksonMcpJson.instance().writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One request's answer as server-sent events: the messages of the exchange, then the response. */
    private static final class EventStream implements McpStreamableServerTransport {
        private final OutputStream out;
        private final String sessionId;
        private final ReentrantLock lock = new ReentrantLock();
        private volatile boolean closed;

        EventStream(OutputStream out, String sessionId) {
            this.out = out;
            this.sessionId = sessionId;
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return sendMessage(message, null);
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message, String messageId) {
            return Mono.fromRunnable(() -> {
                lock.lock();
                try {
                    if (closed) {
                        return;
                    }
                    String event = "id: " + (messageId != null ? messageId : sessionId) + "\nevent: message\ndata: "
                            + new String(write(message), StandardCharsets.UTF_8) + "\n\n";
                    out.write(event.getBytes(StandardCharsets.UTF_8));
                    if (!(message instanceof McpSchema.JSONRPCResponse)) {
                        // What the server asks meanwhile must reach the client now; the response is the
                        // stream's last message and leaves with its end, in one write rather than two
                        // (a lone final chunk would wait out the client's delayed acknowledgement).
                        out.flush();
                    }
                } catch (IOException e) {
                    closed = true;
                    throw new UncheckedIOException(e);
                } finally {
                    lock.unlock();
                }
            });
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return JacksonMcpJson.instance().convertValue(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(this::close);
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
