package dev.weft.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * The connections to one Redis server: Jedis's client with its pool for commands, and new
 * connections for subscriptions, which hold theirs. A command that cannot reach Redis fails fast
 * with {@link RedisUnavailableException} (a second to connect, two to answer), so that the caller
 * can fall back rather than wait. Thread-safe.
 */
final class Redis implements AutoCloseable {
    static final int CONNECT_TIMEOUT_MS = 1000;
    static final int ANSWER_TIMEOUT_MS = 2000;
    /** How long a blocking read may wait on its socket: longer than any block it asks for. */
    static final int BLOCKING_TIMEOUT_MS = 5000;

    private final RedisUrl url;
    private final JedisClientConfig clientConfig;
    private final RedisClient client;

    Redis(RedisUrl url, int connections) {
        this.url = url;
        this.clientConfig = DefaultJedisClientConfig.builder(url.uri())
                .connectionTimeoutMillis(CONNECT_TIMEOUT_MS)
                .socketTimeoutMillis(ANSWER_TIMEOUT_MS)
                .blockingSocketTimeoutMillis(BLOCKING_TIMEOUT_MS)
                .clientName("weft")
                .build();
        GenericObjectPoolConfig<Connection> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(connections);
        config.setMaxIdle(connections);
        config.setMinIdle(0);
        config.setBlockWhenExhausted(true);
        config.setMaxWait(Duration.ofSeconds(5));
        config.setJmxEnabled(false);
        this.client = RedisClient.builder()
                .hostAndPort(new HostAndPort(url.host(), url.port()))
                .clientConfig(clientConfig)
                .poolConfig(config)
                .build();
    }

    RedisUrl url() {
        return url;
    }

    /**
     * Runs {@code command} on a pooled connection.
     *
     * @throws RedisUnavailableException if Redis cannot be reached or does not answer in time
     * @throws JedisDataException for an error Redis answered with
     */
    <T> T call(Function<UnifiedJedis, T> command) {
        try {
            return command.apply(client);
        } catch (JedisDataException e) {
            throw e;
        } catch (JedisConnectionException e) {
            throw new RedisUnavailableException(url, e);
        } catch (JedisException e) {
            throw new RedisUnavailableException(url, e);
        }
    }

    /** A connection of its own, for a subscription; the caller closes it. */
    Jedis dedicated() {
        try {
            Jedis jedis = new Jedis(
                    new HostAndPort(url.host(), url.port()),
                    DefaultJedisClientConfig.builder()
                            .from(clientConfig)
                            .socketTimeoutMillis(0)
                            .build());
            jedis.ping();
            return jedis;
        } catch (JedisException e) {
            throw new RedisUnavailableException(url, e);
        }
    }

    /** Runs a Lua script by its digest, loading it first if this server does not know it (after a restart). */
    static Object script(UnifiedJedis jedis, Script script, List<String> keys, List<String> args) {
        try {
            return jedis.evalsha(script.sha(), keys, args);
        } catch (JedisDataException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT")) {
                return jedis.eval(script.source(), keys, args);
            }
            throw e;
        }
    }

    /** One call of a script: its keys and arguments. */
    record ScriptCall(List<String> keys, List<String> args) {
        ScriptCall {
            keys = List.copyOf(keys);
            args = List.copyOf(args);
        }
    }

    /**
     * Runs {@code calls} of one script in one pipeline: one round trip for all of them (and a second,
     * for those Redis did not know the script for, after a restart). Each answer is the script's
     * reply, or the {@link JedisDataException} Redis answered that call with; a connection's failure
     * fails all of them.
     *
     * @throws RedisUnavailableException if Redis cannot be reached or does not answer in time
     */
    List<Object> scripts(Script script, List<ScriptCall> calls) {
        List<Object> answers = call(jedis -> pipelined(jedis, script, calls, true));
        List<Integer> unknown = new ArrayList<>();
        for (int i = 0; i < answers.size(); i++) {
            if (answers.get(i) instanceof JedisDataException e
                    && e.getMessage() != null
                    && e.getMessage().startsWith("NOSCRIPT")) {
                unknown.add(i);
            }
        }
        if (!unknown.isEmpty()) {
            // A NOSCRIPT answer means the script did not run: running those calls now runs each once.
            List<ScriptCall> again = unknown.stream().map(calls::get).toList();
            List<Object> second = call(jedis -> pipelined(jedis, script, again, false));
            List<Object> merged = new ArrayList<>(answers);
            for (int i = 0; i < unknown.size(); i++) {
                merged.set(unknown.get(i), second.get(i));
            }
            return merged;
        }
        return answers;
    }

    private static List<Object> pipelined(UnifiedJedis jedis, Script script, List<ScriptCall> calls, boolean bySha) {
        List<Response<Object>> responses = new ArrayList<>(calls.size());
        try (var pipeline = jedis.pipelined()) {
            for (ScriptCall call : calls) {
                responses.add(
                        bySha
                                ? pipeline.evalsha(script.sha(), call.keys(), call.args())
                                : pipeline.eval(script.source(), call.keys(), call.args()));
            }
            pipeline.sync();
        }
        List<Object> answers = new ArrayList<>(responses.size());
        for (Response<Object> response : responses) {
            try {
                answers.add(response.get());
            } catch (JedisDataException e) {
                answers.add(e);
            }
        }
        return answers;
    }

    /** A Lua script and its SHA-1 digest. */
    record Script(String source, String sha) {
        static Script of(String source) {
            try {
                byte[] digest = java.security.MessageDigest.getInstance("SHA-1")
                        .digest(source.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                return new Script(source, java.util.HexFormat.of().formatHex(digest));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException("every JVM has SHA-1", e);
            }
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
