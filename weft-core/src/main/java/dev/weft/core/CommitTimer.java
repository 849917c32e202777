package dev.weft.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Runs short tasks once their delay is over, on one daemon thread: the timer that starts the
 * background writers of {@link Durability#ASYNC} runs after the commit delay ({@link WriteBuffer}).
 *
 * <p>Scheduling wakes the thread only when the new task is due before the time it sleeps until, or
 * when it sleeps with nothing to do. Under one runner every task has the same delay, so a task is
 * never due before the ones already waiting, and a stream of short runs costs the thread one wake-up
 * per delay, whatever the number of runs, and their own threads none: a run that ends within its
 * delay takes its task back ({@link #cancel}). (A timer that wakes on every
 * task, as {@link java.util.concurrent.CompletableFuture#delayedExecutor} does, costs each run a
 * cross-thread wake-up when it starts, then another when the task runs, which on a small machine is
 * a sizeable part of a short run.)
 *
 * <p>Tasks run on the timer's thread, one after another, so they must not block: they hand their work
 * to an executor. A task that throws does not stop the timer: its exception goes to the thread's
 * uncaught exception handler. The thread starts with the first task and ends once it has run no
 * task for {@link #IDLE_EXIT} and has none waiting (so a JVM that is done with its runners, or an
 * application server that unloads them, keeps no thread of theirs); the next task starts another.
 * Thread-safe.
 */
final class CommitTimer {
    /** How long the thread goes on after its last task, with none waiting, before it ends. */
    static final Duration IDLE_EXIT = Duration.ofSeconds(30);

    /** The one timer of the JVM's runners; its thread starts with the first task. */
    static final CommitTimer SHARED = new CommitTimer("weft-commit-timer", IDLE_EXIT);

    private final String threadName;
    private final long idleExitNanos;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition earlier = lock.newCondition();
    private final PriorityQueue<Due> queue =
            new PriorityQueue<>(Comparator.comparingLong(Due::at).thenComparingLong(Due::order));
    /** The order of scheduling, which breaks ties between tasks due at the same time. */
    private long scheduled;
    /** Whether the thread waits for the queue to change (with {@link #wakeAt}, or with nothing due). */
    private boolean waiting;
    /** Whether the thread, while waiting, has nothing in the queue. */
    private boolean idle;
    /** When the waiting thread will look at the queue again, in {@link System#nanoTime} terms. */
    private long wakeAt;

    private @Nullable Thread thread;

    CommitTimer(String threadName, Duration idleExit) {
        this.threadName = threadName;
        this.idleExitNanos = idleExit.toNanos();
    }

    /** A task waiting for its time, to give back to {@link #cancel}. */
    record Due(long at, long order, Runnable task) {}

    /** Runs {@code task} on the timer's thread once {@code delayNanos} have passed, unless cancelled. */
    Due schedule(long delayNanos, Runnable task) {
        long at = System.nanoTime() + delayNanos;
        Due due;
        lock.lock();
        try {
            due = new Due(at, scheduled++, task);
            queue.add(due);
            if (thread == null) {
                Thread started = Thread.ofPlatform().name(threadName).daemon().unstarted(this::loop);
                thread = started;
                started.start();
            } else if (waiting && (idle || at - wakeAt < 0)) {
                earlier.signal();
            }
        } finally {
            lock.unlock();
        }
        return due;
    }

    /**
     * Takes back a task that has not been started; the thread, if it sleeps until that task's time,
     * wakes then and finds the next one.
     *
     * @return whether the task was still waiting (and now will not run)
     */
    boolean cancel(Due due) {
        lock.lock();
        try {
            return queue.remove(due);
        } finally {
            lock.unlock();
        }
    }

    /** The tasks waiting for their time. */
    int pending() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    private void loop() {
        List<Runnable> ready = new ArrayList<>();
        while (takeDue(ready)) {
            for (Runnable task : ready) {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    Thread current = Thread.currentThread();
                    current.getUncaughtExceptionHandler().uncaughtException(current, e);
                }
            }
            ready.clear();
        }
    }

    /**
     * Waits until at least one task is due, then moves every due task into {@code ready}.
     *
     * @return false if the thread should end instead: it has run no task for the idle time and has
     *     none waiting, and no longer counts as the timer's thread, so the next task starts another
     */
    private boolean takeDue(List<Runnable> ready) {
        lock.lock();
        try {
            long now = System.nanoTime();
            // Since the thread's last task (it ran them just before this call).
            long idleSince = now;
            Due head = queue.peek();
            while (head == null || head.at() - now > 0) {
                if (head == null && now - idleSince >= idleExitNanos) {
                    thread = null;
                    return false;
                }
                waiting = true;
                idle = head == null;
                wakeAt = head == null ? now : head.at();
                try {
                    if (head == null) {
                        earlier.awaitNanos(idleExitNanos - (now - idleSince));
                    } else {
                        earlier.awaitNanos(head.at() - now);
                    }
                } catch (InterruptedException e) {
                    // Nothing interrupts the timer's own thread; look at the queue again.
                } finally {
                    waiting = false;
                }
                now = System.nanoTime();
                head = queue.peek();
            }
            while (head != null && head.at() - now <= 0) {
                ready.add(queue.remove().task());
                head = queue.peek();
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
