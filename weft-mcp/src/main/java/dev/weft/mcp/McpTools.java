package dev.weft.mcp;

import dev.weft.core.NotFoundException;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolRegistry;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The registered MCP servers of one process as plan tools: one {@link McpConnection} per server, made
 * when first used and kept, and each server's tools adapted ({@link McpToolAdapter}) when first asked
 * for. A planner or a plan uses {@link #registry} with {@link #resolver} (capability {@code mcp}, the
 * action naming the tool: {@code {"capability": "mcp", "action": "everything.echo", "constraints":
 * {"message": "hi"}}}); a workflow uses the node type {@code mcp} ({@link McpNodeType}). Thread-safe.
 */
public final class McpTools implements AutoCloseable {
    /** The capability of a plan step that calls an MCP tool. */
    public static final String CAPABILITY = "mcp";

    /** How long a request to a server waits for its answer, unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final Supplier<List<McpServerConfig>> servers;
    private Duration timeout = DEFAULT_TIMEOUT;
    private final Map<String, McpConnection> connections = new LinkedHashMap<>();
    private final Map<String, ToolRegistry> tools = new LinkedHashMap<>();

    private McpTools(Supplier<List<McpServerConfig>> servers) {
        this.servers = servers;
    }

    /** The servers registered in {@code registry}, read again whenever one is asked for that is not known yet. */
    public static McpTools of(McpRegistry registry) {
        return new McpTools(registry::all);
    }

    /** The servers {@code servers} gives, asked again whenever one is asked for that is not known yet. */
    public static McpTools of(Supplier<List<McpServerConfig>> servers) {
        return new McpTools(java.util.Objects.requireNonNull(servers, "servers"));
    }

    /** These servers. */
    public static McpTools of(List<McpServerConfig> servers) {
        List<McpServerConfig> fixed = List.copyOf(servers);
        return new McpTools(() -> fixed);
    }

    /**
     * Requests to servers connected from now on wait {@code timeout} for an answer (default {@link
     * #DEFAULT_TIMEOUT}); a {@code tools/call} not answered in time is {@code E_OUTCOME_UNKNOWN} for a tool
     * that is neither read-only nor idempotent, {@code E_TOOL_TIMEOUT} for one that is.
     *
     * @throws IllegalArgumentException for a timeout that is not positive
     */
    public synchronized McpTools timeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("an MCP request timeout must be positive, was " + timeout);
        }
        this.timeout = timeout;
        return this;
    }

    /**
     * The connection to server {@code name}.
     *
     * @throws NotFoundException when no server of that name is registered
     */
    public synchronized McpConnection connection(String name) {
        McpConnection known = connections.get(name);
        if (known != null) {
            return known;
        }
        List<McpServerConfig> all = servers.get();
        McpServerConfig config = all.stream()
                .filter(s -> s.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new NotFoundException("no MCP server '" + name + "' is registered ('weft mcp add "
                        + name + " --command … | --url …'); registered: "
                        + String.join(
                                ", ", all.stream().map(McpServerConfig::name).toList())));
        McpConnection made = McpConnection.to(config, timeout);
        connections.put(name, made);
        return made;
    }

    /** Server {@code server}'s tools as plan tools, listed from the server once and kept. */
    public synchronized ToolRegistry tools(String server) {
        ToolRegistry known = tools.get(server);
        if (known == null) {
            McpConnection connection = connection(server);
            known = ToolRegistry.of();
            for (McpSchema.Tool tool : connection.tools()) {
                known = known.with(McpToolAdapter.adapt(connection, tool));
            }
            tools.put(server, known);
        }
        return known;
    }

    /**
     * The plan tool {@code server.tool}.
     *
     * @throws NotFoundException when the server is not registered or has no such tool
     */
    public Tool tool(String server, String tool) {
        String name = McpToolAdapter.toolName(server, tool);
        ToolRegistry registry = tools(server);
        return registry.find(name)
                .orElseThrow(() -> new NotFoundException("MCP server '" + server + "' has no tool '" + tool
                        + "'; it has "
                        + String.join(
                                ", ", registry.all().stream().map(Tool::name).toList())));
    }

    /** Every tool of every registered server (each server is connected to). */
    public ToolRegistry registry() {
        ToolRegistry all = ToolRegistry.of();
        for (McpServerConfig server : servers.get()) {
            for (Tool tool : tools(server.name()).all()) {
                all = all.with(tool);
            }
        }
        return all;
    }

    /** {@code base} with every tool of every registered server added. */
    public ToolRegistry addTo(ToolRegistry base) {
        ToolRegistry all = base;
        for (Tool tool : registry().all()) {
            all = all.with(tool);
        }
        return all;
    }

    /** Resolves a step of capability {@code mcp}: the tool its action names, called with its constraints. */
    public static Resolver resolver() {
        return new Resolver() {
            @Override
            public String name() {
                return "mcp-tools";
            }

            @Override
            public String capability() {
                return CAPABILITY;
            }

            @Override
            public Set<String> actions() {
                return Set.of();
            }

            @Override
            public Optional<String> tool(PlanStep step) {
                return Optional.of(step.action());
            }

            @Override
            public Resolution resolve(PlanStep step, ResolveContext context) {
                return Resolution.execute(step.action(), step.constraints().deepCopy());
            }
        };
    }

    @Override
    public synchronized void close() {
        connections.values().forEach(McpConnection::close);
        connections.clear();
        tools.clear();
    }
}
