package dev.weft.cli;

import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import dev.weft.core.Durability;
import dev.weft.core.ErrorCode;
import dev.weft.core.Graph;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Run;
import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.Model;
import dev.weft.llm.ModelConfig;
import dev.weft.llm.ModelSettings;
import dev.weft.llm.Models;
import dev.weft.llm.Provider;
import dev.weft.llm.workflow.AgentNodeType;
import dev.weft.mailflow.Mailflow;
import dev.weft.mcp.McpNodeType;
import dev.weft.mcp.McpRegistry;
import dev.weft.mcp.McpTools;
import dev.weft.memo.Memo;
import dev.weft.memo.MemoAssistant;
import dev.weft.plan.PlanExecutor;
import dev.weft.plan.spi.PlanExecutorProvider;
import dev.weft.redis.RedisSteps;
import dev.weft.redis.RedisUrl;
import dev.weft.store.Stores;
import dev.weft.workflow.NodeTypes;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowParser;
import java.time.Duration;
import java.util.Optional;

/** Opening the store a command works on, and rebuilding the graph of a stored run. */
final class Storage {
    private Storage() {}

    /** The store named by {@code --db}, else {@code WEFT_DB}, else SQLite under {@code WEFT_HOME}. */
    static RunStore open(String db) {
        return Stores.open(Optional.ofNullable(db), Env.get());
    }

    /**
     * The node types workflow files may use: the standard ones and {@code agent}, whose model is
     * resolved from the environment and {@code $WEFT_HOME/config.json} only when an agent node needs
     * it.
     */
    static NodeTypes nodeTypes() {
        return nodeTypes((String) null);
    }

    /**
     * The same, with {@code mcp} over the MCP servers registered in the store {@code db} names ({@code
     * weft mcp add}), read when a workflow first names one; its connections last as long as the process.
     */
    static NodeTypes nodeTypes(@org.jspecify.annotations.Nullable String db) {
        return nodeTypes(McpTools.of(() -> {
            try (RunStore store = open(db)) {
                return McpRegistry.open(store).all();
            }
        }));
    }

    /** The node types, with {@code mcp} over the MCP servers registered in {@code store}. */
    static NodeTypes nodeTypes(RunStore store) {
        return nodeTypes(McpTools.of(() -> McpRegistry.open(store).all()));
    }

    private static NodeTypes nodeTypes(McpTools servers) {
        return NodeTypes.standard()
                .with(AgentNodeType.create(Models.resolve(ModelSettings.none("flags"), Env.get())))
                .with(McpNodeType.create(servers));
    }

    /**
     * Memo on {@code store}, planning with the model the environment and {@code $WEFT_HOME/config.json}
     * name ({@code WEFT_MODEL}), or offline when they name none (the default).
     *
     * @throws WeftException {@code E_BAD_INPUT} for a model setting that is malformed, {@code
     *     E_MODEL_UNAVAILABLE} for a provider whose key is missing
     */
    static Memo memo(RunStore store) {
        return ((MemoAssistant) Assistants.open(Memo.EXECUTOR, environment(store))).memo();
    }

    /**
     * Every assistant on the class path (Memo, and any other module's), over {@code store}, with the
     * model of {@link #memo}.
     */
    static Assistants assistants(RunStore store) {
        return Assistants.openAll(environment(store));
    }

    /** What assistants open with: {@code store}, the configured model (none: offline), {@code WEFT_HOME}. */
    static AssistantEnvironment environment(RunStore store) {
        ModelConfig config =
                Models.resolve(ModelSettings.none("flags"), Env.get()).config();
        Optional<Model> model =
                config.provider() == Provider.OFFLINE ? Optional.empty() : Optional.of(Model.create(config));
        return new AssistantEnvironment(store, model, TimeSource.system(), Detached.home(), Env.get());
    }

    /**
     * Mailflow on {@code store}: its agents offline unless the environment or {@code
     * $WEFT_HOME/config.json} names a model, its secrets under {@code $WEFT_HOME/mail.key}.
     */
    static Mailflow mailflow(RunStore store) {
        return Mailflow.builder()
                .store(store)
                .models(Models.resolve(ModelSettings.none("flags"), Env.get()))
                .keyFile(mailKey())
                .build();
    }

    /** Where the key of users' mail secrets is kept: {@code $WEFT_HOME/mail.key}. */
    static java.nio.file.Path mailKey() {
        return Detached.home().resolve("mail.key");
    }

    /**
     * A runner on {@code store}, with the lease duration of {@code WEFT_LEASE_MS} and the durability
     * of {@code WEFT_DURABILITY} ({@code sync}, the default, or {@code async}) when they are set.
     *
     * @throws WeftException {@code E_BAD_INPUT} if either is set to something else
     */
    static Runner.Builder runner(RunStore store) {
        return runner(store, steps(store, null));
    }

    /**
     * Where steps go when they go to workers: {@code --redis} when given, else {@code WEFT_REDIS_URL};
     * empty when neither is set (every step runs in this process).
     *
     * @throws WeftException {@code E_BAD_INPUT} for a malformed URL
     */
    static Optional<RedisUrl> redis(@org.jspecify.annotations.Nullable String flag) {
        String url = flag != null && !flag.isBlank() ? flag : Env.get().get("WEFT_REDIS_URL");
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(RedisUrl.parse(url));
        } catch (WeftException e) {
            throw new WeftException(
                    e.code(), (flag != null && !flag.isBlank() ? "--redis: " : "WEFT_REDIS_URL: ") + e.getMessage());
        }
    }

    /**
     * The step queue on Redis for runs on {@code store}, when {@link #redis} names one; the steps it
     * queued are taken back and run here when Redis has not answered for {@code WEFT_REDIS_TAKEBACK}
     * (default {@link RedisSteps#DEFAULT_TAKE_BACK}), run as a worker runs them.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a malformed URL or take-back duration
     */
    static Optional<RedisSteps> steps(RunStore store, @org.jspecify.annotations.Nullable String flag) {
        Optional<RedisUrl> url = redis(flag);
        if (url.isEmpty()) {
            return Optional.empty();
        }
        Duration takeBack = takeBack();
        return Optional.of(RedisSteps.builder(url.get(), store)
                .takeBack(takeBack)
                .graphs(run -> {
                    try {
                        return Optional.of(graphOf(run, store));
                    } catch (WeftException e) {
                        return Optional.empty();
                    }
                })
                .executors(name -> PlanExecutorProvider.find(name).map(provider -> provider.executor(store)))
                .build());
    }

    /** {@code WEFT_REDIS_TAKEBACK} (such as {@code 10s}, {@code 2m} or ISO-8601), else the default. */
    static Duration takeBack() {
        return duration("WEFT_REDIS_TAKEBACK", RedisSteps.DEFAULT_TAKE_BACK, false);
    }

    /**
     * The duration the environment variable {@code name} gives ({@code 30d}, {@code 12h}, {@code 45m},
     * {@code 10s} or ISO-8601), else {@code otherwise}; zero ({@code 0s}, or {@code off}) only where
     * {@code zeroTurnsOff}.
     *
     * @throws WeftException {@code E_BAD_INPUT} for anything else
     */
    static Duration duration(String name, Duration otherwise, boolean zeroTurnsOff) {
        String text = Env.get().get(name);
        if (text == null || text.isBlank()) {
            return otherwise;
        }
        if (zeroTurnsOff && text.strip().equalsIgnoreCase("off")) {
            return Duration.ZERO;
        }
        Duration duration;
        try {
            duration = RunsCommand.Prune.duration(text);
        } catch (WeftException e) {
            duration = Duration.ofSeconds(-1);
        }
        if (duration.isNegative() || (duration.isZero() && !zeroTurnsOff)) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    name + " must be a " + (zeroTurnsOff ? "duration (0s or off: never)" : "positive duration")
                            + " such as 10s, 2m or PT30S; was '" + text + "'");
        }
        return duration;
    }

    /**
     * {@link #runner(RunStore)}, its plan steps' tool calls and queued nodes handed to workers through
     * {@code steps} when given.
     */
    static Runner.Builder runner(RunStore store, Optional<RedisSteps> steps) {
        Runner.Builder builder = Runner.builder().store(store);
        steps.ifPresent(queue -> builder.dispatcher(queue).listener(queue.events()));
        String lease = Env.get().get("WEFT_LEASE_MS");
        if (lease != null && !lease.isBlank()) {
            try {
                builder.leaseDuration(Duration.ofMillis(Long.parseLong(lease.trim())));
            } catch (IllegalArgumentException e) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT,
                        "WEFT_LEASE_MS must be a whole number of milliseconds, at least 300; was '" + lease + "'");
            }
        }
        String durability = Env.get().get("WEFT_DURABILITY");
        if (durability != null && !durability.isBlank()) {
            builder.durability(
                    switch (durability.trim().toLowerCase(java.util.Locale.ROOT)) {
                        case "sync" -> Durability.SYNC;
                        case "async" -> Durability.ASYNC;
                        default ->
                            throw new WeftException(
                                    ErrorCode.E_BAD_INPUT,
                                    "WEFT_DURABILITY must be 'sync' or 'async'; was '" + durability + "'");
                    });
        }
        return builder;
    }

    /**
     * The graph a stored run was started from, rebuilt from the workflow definition kept with it, or,
     * for a plan run, from its plan by the executor that started it (found by name through {@link
     * PlanExecutorProvider} on the class path).
     */
    static Graph graphOf(Run run, RunStore store) {
        if (Mailflow.isMailflowRun(run)) {
            return mailflow(store).graphOf(run).orElseThrow();
        }
        if (PlanExecutor.isPlanRun(run)) {
            String name = PlanExecutor.executorName(run)
                    .orElseThrow(() -> new GraphInvalidException("run '" + run.id() + "' is a plan run of an unnamed"
                            + " executor, so this command cannot rebuild its graph; continue it from the program that"
                            + " started it"));
            PlanExecutorProvider provider = PlanExecutorProvider.find(name)
                    .orElseThrow(() -> new GraphInvalidException("run '" + run.id() + "' is a plan run of executor '"
                            + name + "', which this command does not have; continue it from the program that"
                            + " started it"));
            return provider.executor(store).graphOf(run).orElseThrow();
        }
        if (!run.source().isObject() || !run.source().has("nodes")) {
            // An assistant's turn (the concierge's): rebuilt by the assistant whose run it is.
            return assistants(store)
                    .graphOf(run)
                    .orElseThrow(() -> new GraphInvalidException("run '" + run.id() + "' was not started from a"
                            + " workflow file, so this command cannot rebuild its graph; continue it from the program"
                            + " that started it"));
        }
        return Workflow.compile(WorkflowParser.fromJson(run.source(), "run " + run.id()), nodeTypes(store))
                .graph();
    }
}
