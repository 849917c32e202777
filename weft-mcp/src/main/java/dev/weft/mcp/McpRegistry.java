package dev.weft.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.store.AppDatabase;
import java.net.URI;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The MCP servers registered in a store ({@code weft mcp add}), in the table {@code mcp_servers} of
 * the store's own database, so every process on that store sees the same servers. Thread-safe.
 */
public final class McpRegistry {
    private final AppDatabase db;

    private McpRegistry(AppDatabase db) {
        this.db = db;
    }

    /** The registry of {@code store}'s database, its table made or brought up to date. */
    public static McpRegistry open(RunStore store) {
        AppDatabase db = AppDatabase.of(store);
        db.migrate("mcp", McpRegistry.class.getClassLoader());
        return new McpRegistry(db);
    }

    /**
     * Registers {@code server}.
     *
     * @throws WeftException {@code E_BAD_INPUT} when a server of that name is registered already
     */
    public void add(McpServerConfig server, Instant now) {
        boolean added = db.write("register MCP server " + server.name(), connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO mcp_servers (name, command, url, created_at) VALUES (?, ?, ?, ?)"
                            + " ON CONFLICT (name) DO NOTHING")) {
                insert.setString(1, server.name());
                switch (server.transport()) {
                    case McpServerConfig.Transport.Stdio stdio -> {
                        ArrayNode command = Json.mapper().createArrayNode();
                        stdio.command().forEach(command::add);
                        insert.setString(2, Json.write(command));
                        insert.setString(3, null);
                    }
                    case McpServerConfig.Transport.Http http -> {
                        insert.setString(2, null);
                        insert.setString(3, http.url().toString());
                    }
                }
                insert.setLong(4, now.toEpochMilli());
                return insert.executeUpdate() == 1;
            }
        });
        if (!added) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "an MCP server named '" + server.name() + "' is registered already; 'weft mcp remove "
                            + server.name() + "' first");
        }
    }

    /** Whether a server of that name was registered (and now is not). */
    public boolean remove(String name) {
        return db.write("remove MCP server " + name, connection -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM mcp_servers WHERE name = ?")) {
                delete.setString(1, name);
                return delete.executeUpdate() == 1;
            }
        });
    }

    public Optional<McpServerConfig> find(String name) {
        return all().stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** Every registered server, by name. */
    public List<McpServerConfig> all() {
        return db.read("read the MCP servers", connection -> {
            try (PreparedStatement select =
                            connection.prepareStatement("SELECT name, command, url FROM mcp_servers ORDER BY name");
                    ResultSet rows = select.executeQuery()) {
                List<McpServerConfig> servers = new ArrayList<>();
                while (rows.next()) {
                    servers.add(read(rows));
                }
                return servers;
            }
        });
    }

    private static McpServerConfig read(ResultSet row) throws SQLException {
        String command = row.getString(2);
        if (command != null) {
            List<String> parts = new ArrayList<>();
            for (JsonNode part : Json.parse(command, "mcp_servers.command")) {
                parts.add(part.asText());
            }
            return new McpServerConfig(row.getString(1), new McpServerConfig.Transport.Stdio(parts));
        }
        return new McpServerConfig(row.getString(1), new McpServerConfig.Transport.Http(URI.create(row.getString(3))));
    }
}
