package dev.weft.mcp;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * An MCP server Weft can use: its name (the prefix of its tools, {@code name.tool}) and how to reach
 * it — a command started with its standard input and output as the transport, or a Streamable HTTP
 * URL.
 */
public record McpServerConfig(String name, Transport transport) {
    /** How a server is reached. */
    public sealed interface Transport {
        /** A process whose standard input and output carry the protocol. */
        record Stdio(List<String> command) implements Transport {
            public Stdio {
                command = List.copyOf(command);
                if (command.isEmpty() || command.get(0).isBlank()) {
                    throw new WeftException(ErrorCode.E_BAD_INPUT, "a server's command must name a program");
                }
            }
        }

        /** A server answering Streamable HTTP at {@code url}. */
        record Http(URI url) implements Transport {
            public Http {
                Objects.requireNonNull(url, "url");
                if (url.getScheme() == null
                        || !(url.getScheme().equals("http") || url.getScheme().equals("https"))
                        || url.getHost() == null) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT,
                            "a server's URL must be http:// or https:// with a host, was '" + url + "'");
                }
            }
        }
    }

    public McpServerConfig {
        Objects.requireNonNull(transport, "transport");
        requireName(name);
    }

    /**
     * @throws WeftException {@code E_BAD_INPUT} for a name that is not lower-case letters, digits, '-' or '_'
     */
    static String requireName(String name) {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[a-z][a-z0-9_-]{0,31}")) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "an MCP server's name must be 1-32 lower-case letters, digits, '-' or '_', starting with a letter;"
                            + " was '" + name + "'");
        }
        return name;
    }

    /** The command or URL, as {@code weft mcp list} shows it. */
    public String where() {
        return switch (transport) {
            case Transport.Stdio stdio -> String.join(" ", stdio.command());
            case Transport.Http http -> http.url().toString();
        };
    }
}
