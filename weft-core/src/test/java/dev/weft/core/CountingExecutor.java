package dev.weft.core;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Virtual threads that count the tasks running on them, for tests that a run holds no thread: every
 * thread a runner uses for a run (its driver, its steps, its writer) is a task of its executor.
 */
public final class CountingExecutor extends AbstractExecutorService {
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger busy = new AtomicInteger();

    /** The tasks running now. */
    public int busy() {
        return busy.get();
    }

    /** The tasks running once they have had up to two seconds to finish. */
    public int settled() throws InterruptedException {
        for (int i = 0; i < 400 && busy.get() > 0; i++) {
            Thread.sleep(5);
        }
        return busy.get();
    }

    @Override
    public void execute(Runnable task) {
        busy.incrementAndGet();
        threads.execute(() -> {
            try {
                task.run();
            } finally {
                busy.decrementAndGet();
            }
        });
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
