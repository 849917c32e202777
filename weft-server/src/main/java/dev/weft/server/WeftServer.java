package dev.weft.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.kagkarlsson.scheduler.Scheduler;
import dev.weft.assistant.Assistant;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import dev.weft.assistant.Notices;
import dev.weft.assistant.ServedServices;
import dev.weft.channels.ChannelStore;
import dev.weft.channels.Conversations;
import dev.weft.channels.InboxWorker;
import dev.weft.channels.NoticeDelivery;
import dev.weft.channels.WhatsAppChannel;
import dev.weft.core.ErrorCode;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.RecoveryWatcher;
import dev.weft.core.Run;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.Models;
import dev.weft.llm.workflow.AgentNodeType;
import dev.weft.mailflow.Mailflow;
import dev.weft.mcp.AssistantTools;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.spi.PlanExecutorProvider;
import dev.weft.store.AppDatabase;
import dev.weft.store.Housekeeping;
import dev.weft.workflow.A2aNodeType;
import dev.weft.workflow.NodeTypes;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowParser;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * {@code weft serve}: one process that serves Weft's HTTP API and the OpenAI-compatible endpoint on
 * Helidon's virtual-thread web server, makes its assistants' notices (Memo's reminders), runs their
 * background services (Memo's calendar sync), and recovers runs whose process died. It reaches every
 * assistant through the {@link Assistant} interface, by name, and names none of them.
 * Every route but the health checks needs a bearer API key ({@link ApiKeys}). {@link #close} stops it
 * gracefully: no new requests, those in flight (and the runs they drive) finish, then it stops.
 * Thread-safe.
 */
public final class WeftServer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WeftServer.class.getName());

    private final WebServer web;
    private final String host;
    private final Backend backend;
    private final List<String> routes;
    private final AtomicInteger inFlight;
    private final Duration drainTimeout;
    private final List<AutoCloseable> reminders;
    private final Optional<RecoveryWatcher> recovery;
    private final Optional<WebhookDispatcher> webhooks;
    /** The assistants' background services. */
    private final ServedServices services;
    /** What else stops with the server (the MCP sessions, the channels), in order. */
    private final List<Runnable> stops;

    private WeftServer(
            WebServer web,
            String host,
            Backend backend,
            List<String> routes,
            AtomicInteger inFlight,
            Duration drainTimeout,
            List<AutoCloseable> reminders,
            Optional<RecoveryWatcher> recovery,
            Optional<WebhookDispatcher> webhooks,
            ServedServices services,
            List<Runnable> stops) {
        this.web = web;
        this.host = host;
        this.backend = backend;
        this.routes = routes;
        this.inFlight = inFlight;
        this.drainTimeout = drainTimeout;
        this.reminders = reminders;
        this.recovery = recovery;
        this.webhooks = webhooks;
        this.services = services;
        this.stops = stops;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The port it listens on (the one chosen when it was asked for port 0). */
    public int port() {
        return web.port();
    }

    /** Where it listens, e.g. {@code http://127.0.0.1:8080/}. */
    public URI uri() {
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port() + "/");
    }

    /** Every route it serves, as {@code "METHOD /path/{param}"}. */
    public List<String> routes() {
        return routes;
    }

    /**
     * Wakes the event streams that follow run {@code runId}: another process (a server sharing the
     * store, through Redis) committed events of it, which the streams then read from the store.
     */
    public void wake(String runId) {
        backend.hub().wake(runId);
    }

    /** The runner that drives the runs its requests start or continue. */
    public Runner runner() {
        return backend.runner();
    }

    /**
     * Stops gracefully: new requests are refused ({@code 503 E_UNAVAILABLE}) and event streams end, the
     * requests in flight finish (each run they drive reaches its end or a wait, and is committed), as
     * do the runs started without waiting, for at most the drain timeout; then the listener, the reminder scheduler and the recovery
     * watcher stop. The store is the caller's to close.
     */
    @Override
    public void close() {
        if (!backend.stopping().compareAndSet(false, true)) {
            return;
        }
        backend.hub().wakeAll();
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        while ((inFlight.get() > 0 || !backend.detached().isEmpty()) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        web.stop();
        recovery.ifPresent(RecoveryWatcher::close);
        reminders.forEach(notices -> stop(notices, "the assistants' notices"));
        webhooks.ifPresent(WebhookDispatcher::close);
        services.close();
        stops.forEach(Runnable::run);
    }

    private static void stop(AutoCloseable handle, String what) {
        try {
            handle.close();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, what + " did not stop: " + e);
        }
    }

    /** The names of the assistants' background services it runs, as {@code assistant/service}. */
    public List<String> services() {
        return services.names();
    }

    /** The requests being answered now (for a graceful stop, and tests of it). */
    int inFlight() {
        return inFlight.get();
    }

    /** How long the record of a webhook delivery that ended is kept, unless told otherwise. */
    public static final Duration DEFAULT_WEBHOOK_DELIVERY_RETENTION = Duration.ofDays(30);

    /** Builds and starts a {@link WeftServer}. */
    public static final class Builder {
        private RunStore store;
        private Assistants assistants;
        private Function<RunStore, Mailflow> mailflow = Mailflow::open;
        private Runner.Builder runner;
        private Function<Run, Optional<Graph>> graphs;
        private NodeTypes nodeTypes;
        private RunTracing tracing;
        private String host = "127.0.0.1";
        private int port = 8080;
        private boolean reminders = true;
        private final java.util.Map<String, Duration> serviceIntervals = new java.util.HashMap<>();
        private Duration recoveryInterval = Duration.ofSeconds(10);
        private Duration drainTimeout = Duration.ofSeconds(30);
        private Duration webhookInterval = Duration.ofSeconds(1);
        private Duration webhookBackoff = Duration.ofSeconds(1);
        private Duration webhookLease = Duration.ofSeconds(30);
        private WhatsAppChannel.Settings whatsapp;
        private Duration channelRetention = InboxWorker.DEFAULT_RETENTION;
        private Duration housekeepingEvery = Housekeeping.DEFAULT_EVERY;
        private Duration idempotencyRetention = Housekeeping.DEFAULT_IDEMPOTENCY_RETENTION;
        private Duration webhookDeliveryRetention = DEFAULT_WEBHOOK_DELIVERY_RETENTION;
        private Duration mcpIdle = McpHttp.DEFAULT_IDLE;
        private int mcpMaxSessions = McpHttp.DEFAULT_MAX_SESSIONS;
        private java.time.Clock mcpClock = java.time.Clock.systemUTC();

        private Builder() {}

        /** How long the channels' finished inbox and outbox rows are kept (default 14 days). */
        public Builder channelRetention(Duration retention) {
            if (retention.isNegative() || retention.isZero()) {
                throw new IllegalArgumentException("the channels' retention must be positive, was " + retention);
            }
            this.channelRetention = retention;
            return this;
        }

        /**
         * How often to prune what grows with traffic and is kept only for a while (default 1 hour;
         * zero prunes nothing): the idempotency results of finished runs, ended webhook deliveries.
         */
        public Builder housekeeping(Duration every) {
            if (every.isNegative()) {
                throw new IllegalArgumentException("housekeeping period must not be negative, was " + every);
            }
            this.housekeepingEvery = every;
            return this;
        }

        /** How long the idempotency results of a finished run are kept (default 7 days). */
        public Builder idempotencyRetention(Duration retention) {
            if (retention.isNegative() || retention.isZero()) {
                throw new IllegalArgumentException("idempotency retention must be positive, was " + retention);
            }
            this.idempotencyRetention = retention;
            return this;
        }

        /**
         * How long the record of a webhook delivery that ended is kept (default 30 days); those of a
         * user's latest notifications are kept whatever their age.
         */
        public Builder webhookDeliveryRetention(Duration retention) {
            if (retention.isNegative() || retention.isZero()) {
                throw new IllegalArgumentException("webhook delivery retention must be positive, was " + retention);
            }
            this.webhookDeliveryRetention = retention;
            return this;
        }

        /**
         * How long an MCP session over HTTP may sit unused before it ends (default 30 minutes), and how many
         * may be open at once (default 1000; a new one ends the longest idle).
         */
        public Builder mcpSessions(Duration idle, int max) {
            if (idle.isNegative() || idle.isZero()) {
                throw new IllegalArgumentException("an MCP session's idle time must be positive, was " + idle);
            }
            if (max < 1) {
                throw new IllegalArgumentException("at least one MCP session must be able to open, was " + max);
            }
            this.mcpIdle = idle;
            this.mcpMaxSessions = max;
            return this;
        }

        /** The clock MCP sessions expire on (tests move it). */
        Builder mcpClock(java.time.Clock clock) {
            this.mcpClock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** Serves WhatsApp's webhook at {@code /channels/whatsapp} with these settings (default: none, 404). */
        public Builder whatsApp(WhatsAppChannel.Settings settings) {
            this.whatsapp = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /** The store of runs, keys and the assistants' data (SQLite or PostgreSQL). Required. */
        public Builder store(RunStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * The assistants served by name (the OpenAI endpoint's models, A2A's agents, their runs continued
         * in words); Memo among them serves {@code /api/memo} too (default: every assistant whose provider
         * is on the class path, offline, over the store).
         */
        public Builder assistants(Assistants assistants) {
            this.assistants = Objects.requireNonNull(assistants, "assistants");
            return this;
        }

        /** The email agent on the server's store (default: {@code Mailflow.open(store)}, offline). */
        public Builder mailflow(Function<RunStore, Mailflow> mailflow) {
            this.mailflow = Objects.requireNonNull(mailflow, "mailflow");
            return this;
        }

        /** How runs are driven (lease, durability, clock); the server adds its own listener. */
        public Builder runner(Runner.Builder runner) {
            this.runner = Objects.requireNonNull(runner, "runner");
            return this;
        }

        /**
         * The graph of a stored run, for resuming, re-running, forking and recovering it (default:
         * an assistant's runs through their assistant, other plan runs through their executor, workflow
         * runs from their stored definition with the {@linkplain #nodeTypes node types}).
         */
        public Builder graphs(Function<Run, Optional<Graph>> graphs) {
            this.graphs = Objects.requireNonNull(graphs, "graphs");
            return this;
        }

        /** Spans for the runs this server drives, their steps, tool and model calls (default: none). */
        public Builder tracing(RunTracing tracing) {
            this.tracing = Objects.requireNonNull(tracing, "tracing");
            return this;
        }

        /**
         * The node types uploaded workflows may use, and stored workflow runs are rebuilt with (default:
         * the standard ones, {@code agent}, on the model the environment and {@code
         * $WEFT_HOME/config.json} configure, offline when they name none, and {@code a2a}, its tokens
         * from the environment).
         */
        public Builder nodeTypes(NodeTypes nodeTypes) {
            this.nodeTypes = Objects.requireNonNull(nodeTypes, "nodeTypes");
            return this;
        }

        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /** The port to listen on; 0 picks a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be from 0 to 65535, was " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * How often the assistants' background service {@code name} runs (Memo's {@code calendar-sync}:
         * users' connected CalDAV calendars; default: the service's own interval); zero does not start it
         * (Memo then syncs a calendar only when it changes it).
         */
        public Builder serviceInterval(String name, Duration interval) {
            Objects.requireNonNull(name, "name");
            if (interval.isNegative()) {
                throw new IllegalArgumentException(
                        "the interval of service '" + name + "' must not be negative, was " + interval);
            }
            this.serviceIntervals.put(name, interval);
            return this;
        }

        /** Whether to make the assistants' notices in this process: fire Memo's reminders (default true). */
        public Builder reminders(boolean reminders) {
            this.reminders = reminders;
            return this;
        }

        /** How often to look for runs whose process died; zero turns recovery off (default 10 s). */
        public Builder recoveryInterval(Duration interval) {
            if (interval.isNegative()) {
                throw new IllegalArgumentException("recovery interval must not be negative, was " + interval);
            }
            this.recoveryInterval = interval;
            return this;
        }

        /**
         * How often to look for reminders to send to users' webhooks (default 1 s; a reminder this
         * process fires is sent at once); zero sends none.
         */
        public Builder webhookInterval(Duration interval) {
            if (interval.isNegative()) {
                throw new IllegalArgumentException("webhook interval must not be negative, was " + interval);
            }
            this.webhookInterval = interval;
            return this;
        }

        /** How long a webhook's first retry waits; each next one waits twice as long (default 1 s). */
        public Builder webhookBackoff(Duration backoff) {
            if (backoff.isNegative() || backoff.isZero()) {
                throw new IllegalArgumentException("webhook backoff must be positive, was " + backoff);
            }
            this.webhookBackoff = backoff;
            return this;
        }

        /**
         * How long a webhook delivery's claim outlives its sender's last sign of life (default 30 s):
         * a claim whose sender died is taken over by the next sender this long after the attempt it
         * was making should have ended.
         */
        public Builder webhookLease(Duration lease) {
            if (lease.isNegative()) {
                throw new IllegalArgumentException("webhook lease must not be negative, was " + lease);
            }
            this.webhookLease = lease;
            return this;
        }

        /** How long {@link #close} waits for requests in flight (default 30 s). */
        public Builder drainTimeout(Duration drainTimeout) {
            if (drainTimeout.isNegative()) {
                throw new IllegalArgumentException("drain timeout must not be negative, was " + drainTimeout);
            }
            this.drainTimeout = drainTimeout;
            return this;
        }

        /**
         * Opens the keys' table (migrating it), and starts listening, the reminders and recovery.
         *
         * @throws WeftException {@code E_STORE_UNAVAILABLE} if the store's database cannot be used
         */
        public WeftServer start() {
            if (store == null) {
                throw new IllegalStateException("a store is required: WeftServer.builder().store(...)");
            }
            Assistants all = assistants != null
                    ? assistants
                    : Assistants.openAll(AssistantEnvironment.offline(store, weftHome()));
            ApiKeys keys = ApiKeys.open(store);
            EventHub hub = new EventHub();
            Runner.Builder runs = (runner == null ? Runner.builder().store(store) : runner).listener(hub);
            if (tracing != null) {
                runs.listener(tracing);
            }
            Runner built = runs.build();
            NodeTypes types = nodeTypes == null
                    ? NodeTypes.standard()
                            .with(AgentNodeType.create(Models.fromEnvironment()))
                            .with(A2aNodeType.create())
                    : nodeTypes;
            Mailflow mail = mailflow.apply(store);
            Function<Run, Optional<Graph>> graphsOf = graphs == null
                    ? run -> Mailflow.isMailflowRun(run) ? mail.graphOf(run) : defaultGraph(run, store, all, types)
                    : graphs;
            Backend backend = new Backend(
                    store,
                    built,
                    all,
                    graphsOf,
                    hub,
                    new AtomicBoolean(),
                    types,
                    java.util.concurrent.ConcurrentHashMap.newKeySet());
            Webhooks webhooks = new Webhooks(AppDatabase.of(store));
            // What Memo tells its users unasked, through its Assistant interface: the server reads no tables of Memo's.
            Optional<Notices> memoNotices = all.find(MemoApi.MEMO).flatMap(Assistant::notices);
            Optional<WebhookDispatcher> dispatcher = webhookInterval.isZero() || memoNotices.isEmpty()
                    ? Optional.empty()
                    : Optional.of(WebhookDispatcher.start(
                            webhooks,
                            memoNotices.get(),
                            webhookInterval,
                            webhookBackoff,
                            webhookLease,
                            java.time.Clock.systemUTC()));
            Optional<Scheduler> housekeeping = housekeepingEvery.isZero()
                    ? Optional.empty()
                    : Optional.of(Housekeeping.builder(store)
                            .every(housekeepingEvery)
                            .idempotencyRetention(idempotencyRetention)
                            .sweep(WebhookSweeps.sweep(() -> webhooks, webhookDeliveryRetention))
                            .log(line -> LOG.log(System.Logger.Level.INFO, line))
                            .build()
                            .start("weft-serve-" + ProcessHandle.current().pid()));
            for (Assistant assistant : all.all()) {
                assistant.notices().ifPresent(notices -> notices.onNoticeOf(user -> hub.wake(MemoApi.topic(user))));
            }
            memoNotices.ifPresent(notices -> notices.onNotice(() -> dispatcher.ifPresent(WebhookDispatcher::wake)));
            AtomicInteger inFlight = new AtomicInteger();

            HttpRouting.Builder routing = HttpRouting.builder();
            routing.addFilter((chain, req, res) -> filter(chain, req, res, keys, backend, inFlight));
            routing.error(
                    WeftException.class, (req, res, e) -> Http.error(req.path().path(), res, e));
            routing.error(UncheckedIOException.class, (req, res, e) -> {
                // the client went away mid-answer; nothing to send
            });
            routing.error(RuntimeException.class, (req, res, e) -> {
                LOG.log(System.Logger.Level.ERROR, "unexpected failure on " + req.prologue(), e);
                Http.error(
                        req.path().path(),
                        res,
                        new WeftException(ErrorCode.E_INTERNAL, e.getClass().getSimpleName() + ": " + e.getMessage()));
            });
            Routes routes = new Routes(routing);
            routes.get("/healthz", (req, res) -> Http.ok(res, Json.object().put("status", "ok")));
            routes.get("/readyz", (req, res) -> ready(res, store));
            routes.get("/openapi.json", WeftServer::openapi);
            new RunsApi(backend).register(routes);
            new MemoApi(backend, webhooks).register(routes);
            new OpenAiApi(backend).register(routes);
            new ResponsesApi(backend).register(routes);
            new AssistantsApi(backend).register(routes);
            new A2aApi(backend).register(routes);
            new WorkflowsApi(backend, new StoredWorkflows(AppDatabase.of(store))).register(routes);
            new WebPage().register(routes);
            new MailflowApi(backend, mail).register(routes);
            McpHttp mcp = new McpHttp(AssistantTools.create(all, built), mcpClock, mcpIdle, mcpMaxSessions);
            mcp.register(routes);
            List<Runnable> stops = new java.util.ArrayList<>(List.of(mcp::stop));
            housekeeping.ifPresent(scheduler -> stops.add(scheduler::stop));
            Optional<WhatsAppChannel> whatsApp = Optional.ofNullable(whatsapp).map(settings -> {
                Conversations conversations = Conversations.builder(ChannelStore.open(store), all, built)
                        .build();
                WhatsAppChannel channel = WhatsAppChannel.create(settings, conversations, channelRetention)
                        .start();
                NoticeDelivery notices = NoticeDelivery.start(
                        conversations.store(),
                        all,
                        List.of(channel),
                        Duration.ofSeconds(1),
                        java.time.Clock.systemUTC(),
                        channelRetention);
                stops.add(notices::close);
                stops.add(channel::close);
                return channel;
            });
            new ChannelRoutes(whatsApp).register(routes);
            routing.any((req, res) -> Http.error(
                    req.path().path(),
                    res,
                    new WeftException(
                            ErrorCode.E_NOT_FOUND,
                            "no route " + req.prologue().method().text() + " "
                                    + req.path().path())));

            WebServer web = WebServer.builder()
                    .host(host)
                    .port(port)
                    .shutdownHook(false)
                    .maxPayloadSize(Http.MAX_BODY + 1L)
                    .directHandlers(handlers -> {
                        for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
                            handlers.addHandler(type, WeftServer::direct);
                        }
                    })
                    .routing(routing)
                    .build()
                    .start();
            // Each assistant loads its models now, beside the first requests rather than inside them.
            for (Assistant assistant : all.all()) {
                Thread.ofVirtual().name("weft-warm-up-" + assistant.name()).start(() -> warmUp(assistant));
            }
            List<AutoCloseable> noticesMade = new java.util.ArrayList<>();
            if (reminders) {
                for (Assistant assistant : all.all()) {
                    assistant
                            .notices()
                            .ifPresent(notices -> noticesMade.add(notices.start(
                                    "weft-serve-" + ProcessHandle.current().pid())));
                }
            }
            Optional<RecoveryWatcher> watcher = recoveryInterval.isZero()
                    ? Optional.empty()
                    : Optional.of(RecoveryWatcher.start(built, recoveryInterval, graphsOf));
            ServedServices services = ServedServices.start(
                    all, serviceIntervals, (name, line) -> LOG.log(System.Logger.Level.WARNING, name + ": " + line));
            return new WeftServer(
                    web,
                    host,
                    backend,
                    routes.registered(),
                    inFlight,
                    drainTimeout,
                    List.copyOf(noticesMade),
                    watcher,
                    dispatcher,
                    services,
                    List.copyOf(stops));
        }
    }

    /** Authenticates every request but the health checks and the page, and counts those in flight. */
    private static void filter(
            FilterChain chain,
            RoutingRequest req,
            RoutingResponse res,
            ApiKeys keys,
            Backend backend,
            AtomicInteger inFlight) {
        String path = req.path().path();
        if (path.equals("/healthz") || path.equals("/readyz")) {
            chain.proceed();
            return;
        }
        inFlight.incrementAndGet();
        try {
            if (backend.stopping().get()) {
                Http.error(res, 503, ErrorCode.E_UNAVAILABLE, "the server is stopping; try again shortly");
                return;
            }
            if (WebPage.isPage(path)
                    || MailflowApi.isWebhook(path)
                    || ChannelRoutes.isWebhook(path)
                    || A2aApi.isCard(path)) {
                chain.proceed();
                return;
            }
            Optional<String> header = req.headers().first(HeaderNames.AUTHORIZATION);
            Optional<ApiKeys.ApiKey> key = header.filter(h -> h.regionMatches(true, 0, "Bearer ", 0, 7))
                    .map(h -> h.substring(7).trim())
                    .flatMap(keys::authenticate);
            if (key.isEmpty()) {
                res.header(HeaderNames.WWW_AUTHENTICATE, "Bearer");
                Http.error(
                        path,
                        res,
                        new WeftException(
                                ErrorCode.E_UNAUTHORIZED,
                                header.isEmpty()
                                        ? "an API key is required: send 'Authorization: Bearer <key>' (make one"
                                                + " with 'weft keys create --user ID')"
                                        : "the API key is not known, or was revoked"));
                return;
            }
            if (key.get().customer().isPresent() && !Caller.customerMayReach(path)) {
                Http.error(
                        path,
                        res,
                        new WeftException(
                                ErrorCode.E_FORBIDDEN,
                                "this key was made for one customer: it reaches /v1/chat/completions and"
                                        + " /api/assistants/{name}/messages only"));
                return;
            }
            req.context()
                    .register(new Caller(
                            key.get().user(),
                            key.get().admin(),
                            key.get().id(),
                            key.get().customer()));
            chain.proceed();
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /**
     * A request Helidon answers before routing it (a body over the limit, a malformed request line or
     * header), in the API's error shape.
     */
    private static DirectHandler.TransportResponse direct(
            DirectHandler.TransportRequest request,
            DirectHandler.EventType type,
            Status status,
            ServerResponseHeaders headers,
            String message) {
        boolean tooLarge = type == DirectHandler.EventType.PAYLOAD_TOO_LARGE || status.code() == 413;
        ErrorCode code = tooLarge ? ErrorCode.E_TOO_LARGE : Http.codeOf(status.code());
        String text = tooLarge
                ? "the request body is larger than " + Http.MAX_BODY + " bytes"
                : Optional.ofNullable(message).orElse(status.reasonPhrase());
        ObjectNode root = Json.object();
        root.putObject("error").put("code", code.name()).put("message", text);
        return DirectHandler.TransportResponse.builder()
                .status(status)
                .headers(headers)
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .entity(Json.write(root).getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .keepAlive(type.keepAlive())
                .build();
    }

    /** Where assistants opened by the server itself keep their files: {@code $WEFT_HOME}, else {@code ~/.weft}. */
    private static java.nio.file.Path weftHome() {
        String home = System.getenv("WEFT_HOME");
        return home != null && !home.isBlank()
                ? java.nio.file.Path.of(home)
                : java.nio.file.Path.of(System.getProperty("user.home"), ".weft");
    }

    /** Ready when the store answers and the server's and the assistants' tables are migrated (they were, at start). */
    private static void warmUp(Assistant assistant) {
        try {
            assistant.warmUp();
        } catch (RuntimeException e) {
            // Its first turn loads what failed here, and reports it to the person who asked.
            LOG.log(System.Logger.Level.WARNING, assistant.name() + " could not warm up: " + e);
        }
    }

    private static void ready(ServerResponse res, RunStore store) {
        try {
            AppDatabase.of(store).read("check readiness", connection -> {
                try (var select = connection.prepareStatement("SELECT COUNT(*) FROM server_api_keys")) {
                    select.executeQuery().close();
                }
                return null;
            });
            Http.ok(res, Json.object().put("status", "ready"));
        } catch (WeftException e) {
            Http.error(res, e);
        }
    }

    private static void openapi(ServerRequest req, ServerResponse res) {
        try (InputStream in = WeftServer.class.getResourceAsStream("openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("openapi.json is missing from the server's jar");
            }
            res.header(HeaderNames.CONTENT_TYPE, "application/json");
            res.send(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * An assistant's run's graph through its assistant; another plan run's through its executor on the
     * class path; a workflow run's from its definition, with the node types the server accepts workflows
     * with.
     */
    static Optional<Graph> defaultGraph(Run run, RunStore store, Assistants assistants, NodeTypes types) {
        Optional<Graph> owned = assistants.graphOf(run);
        if (owned.isPresent()) {
            return owned;
        }
        if (PlanExecutor.isPlanRun(run)) {
            return PlanExecutor.executorName(run)
                    .flatMap(PlanExecutorProvider::find)
                    .flatMap(p -> p.executor(store).graphOf(run));
        }
        if (!run.source().isObject() || !run.source().has("nodes")) {
            return Optional.empty();
        }
        // The server's own node types: a workflow it accepted (an agent node's among them) is one it
        // can rebuild to resume, approve, re-run or recover.
        return Optional.of(Workflow.compile(WorkflowParser.fromJson(run.source(), "run " + run.id()), types)
                .graph());
    }
}
