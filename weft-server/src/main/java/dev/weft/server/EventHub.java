package dev.weft.server;

import dev.weft.core.Event;
import dev.weft.core.RunListener;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Wakes the event streams of a run when the server's runner commits one of its events, so a stream
 * shows it at once; streams still read what they send from the store (the record), and look again
 * now and then for runs that another process drives. Thread-safe.
 */
final class EventHub implements RunListener {
    private final ConcurrentHashMap<String, Set<Thread>> waiting = new ConcurrentHashMap<>();

    @Override
    public void onEvent(Event event) {
        Set<Thread> threads = waiting.get(event.runId());
        if (threads != null) {
            threads.forEach(LockSupport::unpark);
        }
    }

    /** Wakes every stream (the server is stopping). */
    void wakeAll() {
        waiting.values().forEach(threads -> threads.forEach(LockSupport::unpark));
    }

    void subscribe(String runId) {
        waiting.computeIfAbsent(runId, id -> ConcurrentHashMap.newKeySet()).add(Thread.currentThread());
    }

    void unsubscribe(String runId) {
        waiting.computeIfPresent(runId, (id, threads) -> {
            threads.remove(Thread.currentThread());
            return threads.isEmpty() ? null : threads;
        });
    }

    /** Waits until an event of a subscribed run is committed, or {@code most} passes. */
    static void await(Duration most) {
        LockSupport.parkNanos(most.toNanos());
    }
}
