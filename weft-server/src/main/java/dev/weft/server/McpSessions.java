package dev.weft.server;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The MCP sessions open over HTTP, each its user's: a session idle longer than {@code idle} ends (a
 * client that left does not hold it for ever), and at most {@code max} are open at once (a new one ends
 * the longest idle), so that no caller can grow the table without bound. Time is {@code clock}'s, so
 * expiry is tested without waiting. Thread-safe.
 *
 * @param <S> the session
 */
final class McpSessions<S> {
    /** A session, the user whose key opened it, and when it was last used. */
    private record Open<S>(S session, String user, Instant lastUsed) {}

    private final Map<String, Open<S>> open = new LinkedHashMap<>();
    private final Clock clock;
    private final Duration idle;
    private final int max;
    private final Consumer<S> end;

    /**
     * @param end how a session that expires or is evicted is ended (called outside the table's lock)
     * @throws IllegalArgumentException for an idle time that is not positive, or a maximum below one
     */
    McpSessions(Clock clock, Duration idle, int max, Consumer<S> end) {
        if (idle.isZero() || idle.isNegative()) {
            throw new IllegalArgumentException("an MCP session's idle time must be positive, was " + idle);
        }
        if (max < 1) {
            throw new IllegalArgumentException("at least one MCP session must be able to open, was " + max);
        }
        this.clock = Objects.requireNonNull(clock, "clock");
        this.idle = idle;
        this.max = max;
        this.end = Objects.requireNonNull(end, "end");
    }

    /** Keeps {@code session}, opened by {@code user}; expired sessions end, and the longest idle when full. */
    void open(String id, S session, String user) {
        List<S> ended = new ArrayList<>();
        synchronized (open) {
            Instant now = clock.instant();
            expire(now, ended);
            while (open.size() >= max) {
                String oldest = open.entrySet().stream()
                        .min(Comparator.comparing(e -> e.getValue().lastUsed()))
                        .orElseThrow()
                        .getKey();
                ended.add(open.remove(oldest).session());
            }
            open.put(id, new Open<>(session, user, now));
        }
        ended.forEach(end);
    }

    /** Session {@code id} when it is open and {@code user}'s; using it keeps it open. */
    Optional<S> use(String id, String user) {
        List<S> ended = new ArrayList<>();
        Optional<S> found;
        synchronized (open) {
            Instant now = clock.instant();
            expire(now, ended);
            Open<S> session = open.get(id);
            if (session == null || !session.user().equals(user)) {
                found = Optional.empty();
            } else {
                open.put(id, new Open<>(session.session(), user, now));
                found = Optional.of(session.session());
            }
        }
        ended.forEach(end);
        return found;
    }

    /** Forgets session {@code id} (it was ended by its client). */
    void remove(String id) {
        synchronized (open) {
            open.remove(id);
        }
    }

    /** Every open session, and forgets them. */
    List<S> drain() {
        synchronized (open) {
            List<S> all = open.values().stream().map(Open::session).toList();
            open.clear();
            return all;
        }
    }

    /** Every open session. */
    List<S> all() {
        synchronized (open) {
            return open.values().stream().map(Open::session).toList();
        }
    }

    int size() {
        synchronized (open) {
            return open.size();
        }
    }

    private void expire(Instant now, List<S> ended) {
        Instant cutoff = now.minus(idle);
        open.entrySet().removeIf(e -> {
            if (!e.getValue().lastUsed().isAfter(cutoff)) {
                ended.add(e.getValue().session());
                return true;
            }
            return false;
        });
    }
}
