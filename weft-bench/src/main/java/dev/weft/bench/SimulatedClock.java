package dev.weft.bench;

import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A clock of virtual milliseconds, and the executor every thread of one simulated run must come
 * from. Time stands still while any of those threads has work, and jumps to the next wake-up the
 * moment every one of them is either finished or asleep in {@link #sleep}: a discrete-event
 * simulation that runs real code. A scheduler that starts a step late, or waits for steps its step
 * does not depend on, shows it in virtual time exactly, whatever the machine's timer or load; the
 * time the code itself takes does not count. Thread-safe.
 *
 * <p>Only threads started through {@link #execute} may sleep on it, and nothing they do may wait for
 * anything but its sleeps (a thread blocked elsewhere would stop the clock). Every task but the
 * first must be started by a task of the clock: one started from outside could find the clock
 * already moved on, since a moment with no task awake is when time jumps.
 */
final class SimulatedClock extends AbstractExecutorService {
    private static final ThreadLocal<SimulatedClock> CURRENT = new ThreadLocal<>();

    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final ReentrantLock lock = new ReentrantLock();
    private final PriorityQueue<Sleeper> sleepers =
            new PriorityQueue<>(Comparator.comparingLong(Sleeper::wake).thenComparingLong(Sleeper::sequence));
    private long now;
    private long sequence;
    /** Tasks started and neither finished nor asleep. */
    private int active;

    private record Sleeper(long wake, long sequence, CountDownLatch woken) {}

    /** Sleeps {@code millis} virtual milliseconds on the clock whose task the calling thread runs. */
    static void sleepOnCurrent(long millis) throws InterruptedException {
        SimulatedClock clock = CURRENT.get();
        if (clock == null) {
            throw new IllegalStateException("only a thread started by a simulated clock can sleep on one");
        }
        clock.sleep(millis);
    }

    /** The virtual milliseconds since the clock was made. */
    long now() {
        lock.lock();
        try {
            return now;
        } finally {
            lock.unlock();
        }
    }

    void sleep(long millis) throws InterruptedException {
        Sleeper sleeper;
        lock.lock();
        try {
            sleeper = new Sleeper(now + millis, sequence++, new CountDownLatch(1));
            sleepers.add(sleeper);
            active--;
            advanceIfIdle();
        } finally {
            lock.unlock();
        }
        sleeper.woken().await();
    }

    @Override
    public void execute(Runnable task) {
        lock.lock();
        try {
            active++;
        } finally {
            lock.unlock();
        }
        threads.execute(() -> {
            CURRENT.set(this);
            try {
                task.run();
            } finally {
                lock.lock();
                try {
                    active--;
                    advanceIfIdle();
                } finally {
                    lock.unlock();
                }
            }
        });
    }

    /** With every task finished or asleep, moves time to the earliest wake-up and wakes its sleepers. */
    private void advanceIfIdle() {
        if (active > 0 || sleepers.isEmpty()) {
            return;
        }
        long next = sleepers.peek().wake();
        now = next;
        while (!sleepers.isEmpty() && sleepers.peek().wake() == next) {
            active++; // counted before it runs, so the clock cannot move on in between
            sleepers.poll().woken().countDown();
        }
    }

    @Override
    public void shutdown() {
        threads.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        return threads.shutdownNow();
    }

    @Override
    public boolean isShutdown() {
        return threads.isShutdown();
    }

    @Override
    public boolean isTerminated() {
        return threads.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return threads.awaitTermination(timeout, unit);
    }
}
