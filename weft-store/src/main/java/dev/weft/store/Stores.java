package dev.weft.store;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Opens the durable {@link RunStore} a database URL names: {@code sqlite:PATH} (the default, one file)
 * or {@code jdbc:postgresql://HOST:PORT/DATABASE?user=…&password=…}. Opening creates or migrates the
 * schema; a database that cannot be reached or used fails with {@link
 * ErrorCode#E_STORE_UNAVAILABLE}, a URL of no known kind with {@link ErrorCode#E_BAD_INPUT}.
 */
public final class Stores {
    /** The environment variable that names the database when no {@code --db} is given. */
    public static final String DB_VARIABLE = "WEFT_DB";

    /** The environment variable that names Weft's data directory ({@code ~/.weft} when unset). */
    public static final String HOME_VARIABLE = "WEFT_HOME";

    /** JSON values larger than this (in UTF-8 bytes) are stored apart from their rows: 1 MiB. */
    public static final long DEFAULT_PAYLOAD_LIMIT = 1024 * 1024;

    private Stores() {}

    /**
     * Opens the store at {@code url}.
     *
     * <ul>
     *   <li>{@code sqlite:PATH} or {@code jdbc:sqlite:PATH}: a SQLite file, created with its parent
     *       directories if missing ({@code ~/} is the home directory);
     *   <li>{@code jdbc:postgresql://HOST:PORT/DATABASE?user=U&password=P}, or {@code
     *       postgresql://U:P@HOST:PORT/DATABASE}: a PostgreSQL database, whose tables go to the schema
     *       named by {@code currentSchema} ({@code weft} by default).
     * </ul>
     *
     * @throws WeftException {@code E_BAD_INPUT} for a URL of no known kind; {@code E_STORE_UNAVAILABLE}
     *     when the database cannot be reached, refuses the credentials or is not a database
     */
    public static RunStore open(String url) {
        return open(url, DEFAULT_PAYLOAD_LIMIT);
    }

    /**
     * Opens the store at {@code url}, storing JSON values over {@code payloadLimit} UTF-8 bytes apart
     * from their rows.
     */
    public static RunStore open(String url, long payloadLimit) {
        if (payloadLimit <= 0) {
            throw new IllegalArgumentException("payload limit must be positive, was " + payloadLimit);
        }
        DatabaseUrl parsed = DatabaseUrl.parse(url);
        return switch (parsed.kind()) {
            case SQLITE -> SqliteRunStore.open(parsed, payloadLimit);
            case POSTGRESQL -> PostgresRunStore.open(parsed, payloadLimit);
        };
    }

    /**
     * Opens the store named by {@code flag} (a command's {@code --db}) if given, else by the
     * environment: see {@link #defaultUrl}.
     */
    public static RunStore open(Optional<String> flag, Map<String, String> env) {
        return open(url(flag, env));
    }

    /** The URL {@link #open(Optional, Map)} opens: the flag if given, else {@link #defaultUrl}. */
    public static String url(Optional<String> flag, Map<String, String> env) {
        return flag.filter(value -> !value.isBlank()).orElseGet(() -> defaultUrl(env));
    }

    /**
     * The database when none is named: {@code WEFT_DB} if set, else {@code sqlite:} + {@code
     * $WEFT_HOME/weft.db}, else {@code sqlite:~/.weft/weft.db}.
     */
    public static String defaultUrl(Map<String, String> env) {
        String db = env.get(DB_VARIABLE);
        if (db != null && !db.isBlank()) {
            return db.strip();
        }
        String home = env.get(HOME_VARIABLE);
        Path directory = home != null && !home.isBlank()
                ? Path.of(home.strip())
                : Path.of(System.getProperty("user.home"), ".weft");
        return "sqlite:" + directory.resolve("weft.db");
    }
}
