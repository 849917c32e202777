package dev.weft.server;

import dev.weft.core.Event;
import dev.weft.core.RunListener;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Wakes the streams that follow a topic (a run's id, or {@code user:<id>} for a user's notifications)
 * when something of it is committed in this process — an event of a run the server's runner drives, a
 * reminder its scheduler fires — so a stream shows it at once. Streams still read what they send from
 * the store (the record), and look again now and then for what another process did. Thread-safe.
 */
final class EventHub implements RunListener {
    private final ConcurrentHashMap<String, Set<Thread>> waiting = new ConcurrentHashMap<>();

    @Override
    public void onEvent(Event event) {
        wake(event.runId());
    }

    /** Wakes the streams that follow {@code topic}. */
    void wake(String topic) {
        Set<Thread> threads = waiting.get(topic);
        if (threads != null) {
            threads.forEach(LockSupport::unpark);
        }
    }

    /** Wakes every stream (the server is stopping). */
    void wakeAll() {
        waiting.values().forEach(threads -> threads.forEach(LockSupport::unpark));
    }

    void subscribe(String topic) {
        waiting.computeIfAbsent(topic, id -> ConcurrentHashMap.newKeySet()).add(Thread.currentThread());
    }

    void unsubscribe(String topic) {
        waiting.computeIfPresent(topic, (id, threads) -> {
            threads.remove(Thread.currentThread());
            return threads.isEmpty() ? null : threads;
        });
    }

    /** Waits until something of a subscribed topic is committed, or {@code most} passes. */
    static void await(Duration most) {
        LockSupport.parkNanos(most.toNanos());
    }
}
