package dev.weft.plan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.StepScope;
import dev.weft.core.TimeSource;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The scope of a tool call or resolution made outside any run (a unit test, a tool called by hand):
 * its events and facts go nowhere, and {@link #once} remembers calls for the life of this object only.
 * Thread-safe.
 */
final class DetachedScope implements StepScope {
    private final String runId;
    private final Optional<String> user;
    private final String idempotencyKey;
    private final int attempt;
    private final TimeSource time;
    private final Map<String, JsonNode> done = new ConcurrentHashMap<>();

    DetachedScope(String runId, Optional<String> user, String idempotencyKey, int attempt, TimeSource time) {
        this.runId = Objects.requireNonNull(runId, "runId");
        this.user = Objects.requireNonNull(user, "user");
        this.idempotencyKey = Objects.requireNonNull(idempotencyKey, "idempotencyKey");
        this.attempt = attempt;
        this.time = Objects.requireNonNull(time, "time");
    }

    @Override
    public String runId() {
        return runId;
    }

    @Override
    public Optional<String> user() {
        return user;
    }

    @Override
    public int attempt() {
        return attempt;
    }

    @Override
    public String idempotencyKey() {
        return idempotencyKey;
    }

    @Override
    public void emit(String type, JsonNode data) {}

    @Override
    public void record(String key, JsonNode value) {}

    @Override
    public JsonNode once(String key, Supplier<JsonNode> call) {
        JsonNode known = done.get(key);
        if (known != null) {
            return known;
        }
        JsonNode result = Objects.requireNonNull(call.get(), "result");
        JsonNode first = done.putIfAbsent(key, result);
        return first == null ? result : first;
    }

    @Override
    public TimeSource time() {
        return time;
    }

    @Override
    public boolean cancellationRequested() {
        return false;
    }
}
