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
    private static final System.Logger LOG = System.getLogger(EventHub.class.getName());

    private final ConcurrentHashMap<String, Set<Thread>> waiting = new ConcurrentHashMap<>();
    private final Set<RunListener> followers = ConcurrentHashMap.newKeySet();

    /** A follower's registration; closing it stops the events. */
    interface Following extends AutoCloseable {
        @Override
        void close();
    }

    @Override
    public void onEvent(Event event) {
        wake(event.runId());
        for (RunListener follower : followers) {
            try {
                follower.onEvent(event);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "a stream's follower failed on " + event.type(), e);
            }
        }
    }

    /**
     * Hands {@code follower} every event of the runs this process drives as it happens — a node's own
     * events (a model's token deltas) before they are committed — until the registration is closed.
     * The follower is called on the run's thread: it must be quick and must not block.
     */
    Following follow(RunListener follower) {
        followers.add(follower);
        return () -> followers.remove(follower);
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
