package dev.weft.store;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A parsed database URL: which engine, the JDBC URL to give its driver, and the form to show people
 * (with the password masked).
 *
 * @param jdbcUrl the driver's URL; for PostgreSQL given as {@code postgres://user:pass@…}, the
 *     credentials move to {@code user}/{@code password}
 * @param shown the URL as the user wrote it, password masked, for messages
 */
record DatabaseUrl(
        Kind kind,
        String jdbcUrl,
        Optional<Path> file,
        Optional<String> user,
        Optional<String> password,
        String shown) {

    enum Kind {
        SQLITE,
        POSTGRESQL
    }

    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)([?&;]password=)[^&;]*");
    private static final Pattern USER_INFO_PASSWORD = Pattern.compile("^([a-z]+://[^:/@]*:)[^@/]*@");

    static DatabaseUrl parse(String url) {
        String trimmed = url.strip();
        String shown = mask(trimmed);
        if (trimmed.startsWith("sqlite:")) {
            return sqlite(trimmed.substring("sqlite:".length()), shown);
        }
        if (trimmed.startsWith("jdbc:sqlite:")) {
            return sqlite(trimmed.substring("jdbc:sqlite:".length()), shown);
        }
        if (trimmed.startsWith("jdbc:postgresql:")) {
            return new DatabaseUrl(
                    Kind.POSTGRESQL, trimmed, Optional.empty(), Optional.empty(), Optional.empty(), shown);
        }
        if (trimmed.startsWith("postgresql://") || trimmed.startsWith("postgres://")) {
            return postgresUri(trimmed, shown);
        }
        throw unknown(shown);
    }

    private static WeftException unknown(String shown) {
        return new WeftException(
                ErrorCode.E_BAD_INPUT,
                "unknown database URL '" + shown + "': use sqlite:PATH or jdbc:postgresql://HOST:PORT/DATABASE");
    }

    private static DatabaseUrl sqlite(String rest, String shown) {
        String path = rest;
        if (path.startsWith("file:")) {
            path = path.substring("file:".length());
        }
        int query = path.indexOf('?');
        if (query >= 0) {
            path = path.substring(0, query);
        }
        if (path.isBlank() || path.equals(":memory:") || path.startsWith(":")) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "database URL '" + shown + "' names no file: use sqlite:PATH, as sqlite:weft.db");
        }
        if (path.equals("~") || path.startsWith("~/")) {
            path = System.getProperty("user.home") + path.substring(1);
        }
        Path file = Path.of(path).toAbsolutePath().normalize();
        return new DatabaseUrl(
                Kind.SQLITE, "jdbc:sqlite:" + file, Optional.of(file), Optional.empty(), Optional.empty(), shown);
    }

    /** {@code postgres[ql]://user:password@host:port/database?params}, as libpq and most platforms write it. */
    private static DatabaseUrl postgresUri(String url, String shown) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "database URL '" + shown + "' is malformed: " + e.getReason(), e);
        }
        if (uri.getHost() == null) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "database URL '" + shown + "' names no host");
        }
        StringBuilder jdbc = new StringBuilder("jdbc:postgresql://").append(uri.getHost());
        if (uri.getPort() >= 0) {
            jdbc.append(':').append(uri.getPort());
        }
        jdbc.append(uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath());
        if (uri.getRawQuery() != null) {
            jdbc.append('?').append(uri.getRawQuery());
        }
        Optional<String> user = Optional.empty();
        Optional<String> password = Optional.empty();
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            user = Optional.of(decode(colon < 0 ? userInfo : userInfo.substring(0, colon)));
            if (colon >= 0) {
                password = Optional.of(decode(userInfo.substring(colon + 1)));
            }
        }
        return new DatabaseUrl(Kind.POSTGRESQL, jdbc.toString(), Optional.empty(), user, password, shown);
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    /** The URL with any password replaced by {@code ***}, fit for a message or a log. */
    static String mask(String url) {
        String masked = PASSWORD_PARAMETER.matcher(url).replaceAll("$1***");
        return USER_INFO_PASSWORD.matcher(masked).replaceFirst("$1***@");
    }
}
