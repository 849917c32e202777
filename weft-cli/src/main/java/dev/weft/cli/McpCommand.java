package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.mcp.AssistantTools;
import dev.weft.mcp.McpConnection;
import dev.weft.mcp.McpRegistry;
import dev.weft.mcp.McpServerConfig;
import dev.weft.mcp.McpServers;
import dev.weft.mcp.internal.JacksonMcpJson;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weft mcp}: Weft as an MCP server over stdio for desktop clients (the assistants' tools and
 * runs, for one user), and the MCP servers Weft uses as a client ({@code add}, {@code list}, {@code
 * tools}, {@code remove}).
 */
@Command(
        name = "mcp",
        mixinStandardHelpOptions = true,
        description = "Serves the assistants' tools and your runs over MCP on standard input and output (for a"
                + " desktop client); 'add', 'list', 'tools' and 'remove' manage the MCP servers Weft uses.",
        subcommands = {
            McpCommand.Add.class,
            McpCommand.ListServers.class,
            McpCommand.Tools.class,
            McpCommand.Remove.class
        })
final class McpCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--user",
            paramLabel = "ID",
            description = "Whose tools and runs (default: WEFT_USER, else your login).")
    String user;

    @Option(
            names = "--db",
            paramLabel = "URL",
            description = "sqlite:PATH or jdbc:postgresql://… (default: WEFT_DB, else SQLite under WEFT_HOME).")
    String db;

    @Override
    public Integer call() {
        String who = user == null ? MemoCommand.defaultUser() : user;
        if (who.isBlank() || who.chars().anyMatch(Character::isISOControl)) {
            return WorkflowCommand.failure(
                    spec, false, new WeftException(ErrorCode.E_BAD_INPUT, "--user must be a printable id"));
        }
        try (RunStore store = Storage.open(db)) {
            Runner runner = Storage.runner(store).build();
            AssistantTools tools = AssistantTools.create(Storage.assistants(store), runner);
            CountDownLatch ended = new CountDownLatch(1);
            InputStream in = new FilterInputStream(System.in) {
                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    int n = super.read(b, off, len);
                    if (n < 0) {
                        ended.countDown();
                    }
                    return n;
                }

                @Override
                public int read() throws IOException {
                    int n = super.read();
                    if (n < 0) {
                        ended.countDown();
                    }
                    return n;
                }
            };
            McpSyncServer server = McpServers.serve(
                    new StdioServerTransportProvider(JacksonMcpJson.instance(), in, System.out), tools, who);
            try {
                ended.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                server.close();
            }
            return ExitCodes.OK;
        } catch (WeftException e) {
            return WorkflowCommand.failure(spec, false, e);
        }
    }

    /** {@code weft mcp add NAME (--command CMD ARGS… | --url URL)}. */
    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description = "Registers an MCP server: its tools become plan tools (NAME.TOOL) and the workflow node"
                    + " type 'mcp' can call them. Everything after --command CMD is the command's arguments.")
    static final class Add extends StoreCommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "lower-case letters, digits, '-' or '_'.")
        String name;

        @Option(
                names = "--command",
                paramLabel = "CMD",
                description = "The program to start (its stdin/stdout carry MCP).")
        String command;

        @Option(
                names = "--url",
                paramLabel = "URL",
                description = "A Streamable HTTP server's URL (http://host:port/mcp).")
        String url;

        @CommandLine.Unmatched
        List<String> arguments = new ArrayList<>();

        @Override
        boolean json() {
            return false;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            McpServerConfig server = new McpServerConfig(name, transport());
            McpRegistry.open(store).add(server, Instant.now());
            out.println("Added MCP server '" + name + "': " + server.where());
            return ExitCodes.OK;
        }

        private McpServerConfig.Transport transport() {
            if ((command == null) == (url == null)) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "give exactly one of --command CMD ARGS… or --url URL");
            }
            if (command != null) {
                List<String> all = new ArrayList<>();
                all.add(command);
                all.addAll(arguments);
                return new McpServerConfig.Transport.Stdio(all);
            }
            if (!arguments.isEmpty()) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "unexpected arguments after --url: " + String.join(" ", arguments));
            }
            try {
                return new McpServerConfig.Transport.Http(new URI(url));
            } catch (java.net.URISyntaxException e) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "--url '" + url + "' is not a URL");
            }
        }
    }

    /** {@code weft mcp list [--json]}. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "The registered MCP servers.")
    static final class ListServers extends StoreCommand {
        @Option(names = "--json", description = "One JSON object: {\"servers\": [{\"name\", \"command\" | \"url\"}]}.")
        boolean json;

        @Override
        boolean json() {
            return json;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            List<McpServerConfig> servers = McpRegistry.open(store).all();
            if (json) {
                ObjectNode root = Json.object();
                ArrayNode list = root.putArray("servers");
                for (McpServerConfig server : servers) {
                    ObjectNode row = list.addObject();
                    row.put("name", server.name());
                    switch (server.transport()) {
                        case McpServerConfig.Transport.Stdio stdio -> {
                            ArrayNode command = row.putArray("command");
                            stdio.command().forEach(command::add);
                        }
                        case McpServerConfig.Transport.Http http ->
                            row.put("url", http.url().toString());
                    }
                }
                out.println(Json.write(root));
            } else if (servers.isEmpty()) {
                out.println("No MCP servers. Add one: weft mcp add NAME --command CMD ARGS… | --url URL");
            } else {
                for (McpServerConfig server : servers) {
                    out.println(server.name() + "  " + server.where());
                }
            }
            return ExitCodes.OK;
        }
    }

    /** {@code weft mcp tools NAME [--json]}: connects and lists the server's tools. */
    @Command(
            name = "tools",
            mixinStandardHelpOptions = true,
            description = "Connects to a registered server and lists its tools as plans and workflows name them.")
    static final class Tools extends StoreCommand {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Option(
                names = "--json",
                description = "One JSON object: {\"tools\": [{\"name\", \"description\", \"inputSchema\"}]}.")
        boolean json;

        @Override
        boolean json() {
            return json;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            McpServerConfig server = McpRegistry.open(store)
                    .find(name)
                    .orElseThrow(() -> new dev.weft.core.NotFoundException(
                            "no MCP server '" + name + "' is registered ('weft mcp list' shows those there are)"));
            List<McpSchema.Tool> tools;
            try (McpConnection connection = McpConnection.to(server)) {
                tools = connection.tools();
            } catch (WeftException e) {
                if (json) {
                    throw e;
                }
                spec.commandLine().getErr().println("weft: " + e.code() + ": " + e.getMessage());
                return ExitCodes.FAILED;
            }
            ObjectNode root = Json.object();
            ArrayNode list = root.putArray("tools");
            for (McpSchema.Tool tool : tools) {
                String planName = dev.weft.mcp.McpToolAdapter.toolName(name, tool.name());
                String description = tool.description() == null ? "" : tool.description();
                if (json) {
                    ObjectNode row = list.addObject();
                    row.put("name", planName);
                    row.put("description", description);
                    row.set("inputSchema", Json.mapper().valueToTree(tool.inputSchema()));
                } else {
                    out.println(planName + "  " + description);
                }
            }
            if (json) {
                out.println(Json.write(root));
            }
            return ExitCodes.OK;
        }
    }

    /** {@code weft mcp remove NAME}. */
    @Command(name = "remove", mixinStandardHelpOptions = true, description = "Forgets a registered MCP server.")
    static final class Remove extends StoreCommand {
        @Parameters(index = "0", paramLabel = "NAME")
        String name;

        @Override
        boolean json() {
            return false;
        }

        @Override
        int call(RunStore store, PrintWriter out) {
            if (!McpRegistry.open(store).remove(name)) {
                throw new dev.weft.core.NotFoundException("no MCP server '" + name + "' is registered");
            }
            out.println("Removed MCP server '" + name + "'.");
            return ExitCodes.OK;
        }
    }
}
