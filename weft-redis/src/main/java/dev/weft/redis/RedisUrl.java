package dev.weft.redis;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;

/**
 * Where Redis is: {@code redis://[[user]:password@]host[:port][/db]} ({@code rediss://} for TLS), the
 * port 6379 and database 0 unless given. Immutable.
 */
public record RedisUrl(URI uri) {
    public RedisUrl {
        Objects.requireNonNull(uri, "uri");
    }

    /**
     * Reads a Redis URL.
     *
     * @throws WeftException {@code E_BAD_INPUT} naming what is wrong with it; nothing is connected
     */
    public static RedisUrl parse(String text) {
        Objects.requireNonNull(text, "text");
        String trimmed = text.strip();
        String expected = "; expected redis://host:port[/db], e.g. redis://127.0.0.1:6379";
        URI uri;
        try {
            uri = new URI(trimmed);
        } catch (URISyntaxException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "'" + text + "' is not a Redis URL" + expected);
        }
        String scheme = uri.getScheme();
        if (scheme == null || !(scheme.equals("redis") || scheme.equals("rediss"))) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "'" + text + "' is not a Redis URL: it must start with redis:// or rediss://" + expected);
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "'" + text + "' names no host" + expected);
        }
        if (uri.getRawAuthority() != null
                && uri.getPort() == -1
                && uri.getRawAuthority().matches(".*:[^@\\]]*$")) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "'" + text + "' has a port that is not a number" + expected);
        }
        String path = uri.getPath() == null ? "" : uri.getPath();
        if (!path.isEmpty() && !path.equals("/") && !path.matches("/\\d{1,2}")) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "'" + text + "' names database '" + path.substring(1) + "'; a Redis database is a number"
                            + expected);
        }
        if (uri.getQuery() != null || uri.getFragment() != null) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "'" + text + "' has a query or fragment" + expected);
        }
        return new RedisUrl(uri);
    }

    public String host() {
        return uri.getHost();
    }

    public int port() {
        return uri.getPort() == -1 ? 6379 : uri.getPort();
    }

    /** The URL as a person may see it: without its password. */
    @Override
    public String toString() {
        String path = uri.getPath() == null || uri.getPath().equals("/") ? "" : uri.getPath();
        return uri.getScheme() + "://" + host() + ":" + port() + path;
    }
}
