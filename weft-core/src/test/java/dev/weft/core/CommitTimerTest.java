package dev.weft.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CommitTimerTest {
    private final CommitTimer timer = new CommitTimer("commit-timer-test-" + System.nanoTime(), CommitTimer.IDLE_EXIT);

    @Test
    void runsEachTaskOnceItsDelayIsOverInTheOrderTheyFallDue() throws Exception {
        List<String> ran = new CopyOnWriteArrayList<>();
        CountDownLatch all = new CountDownLatch(3);
        long start = System.nanoTime();
        long[] ranAfter = new long[3];

        scheduleAfter(start, 60, () -> {
            ranAfter[2] = System.nanoTime() - start;
            ran.add("third");
            all.countDown();
        });
        scheduleAfter(start, 20, () -> {
            ranAfter[0] = System.nanoTime() - start;
            ran.add("first");
            all.countDown();
        });
        scheduleAfter(start, 40, () -> {
            ranAfter[1] = System.nanoTime() - start;
            ran.add("second");
            all.countDown();
        });

        assertThat(all.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).containsExactly("first", "second", "third");
        assertThat(ranAfter[0]).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
        assertThat(ranAfter[1]).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(40));
        assertThat(ranAfter[2]).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(60));
        assertThat(timer.pending()).isZero();
    }

    @Test
    void aTaskDueSoonerThanTheOneTheTimerSleepsForWakesItUp() throws Exception {
        CountDownLatch late = new CountDownLatch(1);
        CountDownLatch soon = new CountDownLatch(1);
        timer.schedule(TimeUnit.SECONDS.toNanos(30), late::countDown);
        // Let the timer go to sleep until the late task's time.
        Thread.sleep(50);

        timer.schedule(TimeUnit.MILLISECONDS.toNanos(10), soon::countDown);

        // Well before the late task's 30 s: the timer was woken for the sooner one.
        assertThat(soon.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(late.getCount()).isOne();
        assertThat(timer.pending()).isOne();
    }

    @Test
    void aCancelledTaskNeverRunsAndTheOnesAfterItStillDo() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        CountDownLatch after = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        // Hold the timer's thread, so that the task to cancel cannot start before it is taken back.
        timer.schedule(0, () -> {
            holding.countDown();
            awaitQuietly(release);
        });
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        CommitTimer.Due due = timer.schedule(TimeUnit.MILLISECONDS.toNanos(1), cancelled::countDown);
        timer.schedule(TimeUnit.MILLISECONDS.toNanos(2), after::countDown);

        boolean taken = timer.cancel(due);
        release.countDown();

        assertThat(taken).isTrue();
        assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(cancelled.getCount()).isOne();
        // A task that has run (or was taken back) cannot be taken back again.
        assertThat(timer.cancel(due)).isFalse();
        assertThat(timer.pending()).isZero();
    }

    @Test
    void aTaskThatThrowsDoesNotStopTheTimer() throws Exception {
        List<Throwable> reported = new CopyOnWriteArrayList<>();
        CountDownLatch reportedOne = new CountDownLatch(1);
        CountDownLatch after = new CountDownLatch(1);
        timer.schedule(TimeUnit.MILLISECONDS.toNanos(1), () -> {
            Thread.currentThread().setUncaughtExceptionHandler((thread, e) -> {
                reported.add(e);
                reportedOne.countDown();
            });
            throw new IllegalStateException("a task's own failure");
        });
        assertThat(reportedOne.await(10, TimeUnit.SECONDS)).isTrue();

        timer.schedule(TimeUnit.MILLISECONDS.toNanos(1), after::countDown);

        assertThat(after.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(reported).singleElement().extracting(Throwable::getMessage).isEqualTo("a task's own failure");
    }

    @Test
    void runsTasksOnOneDaemonThreadOfItsName() throws Exception {
        List<Thread> threads = new CopyOnWriteArrayList<>();
        CountDownLatch both = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            timer.schedule(TimeUnit.MILLISECONDS.toNanos(5L * i), () -> {
                threads.add(Thread.currentThread());
                both.countDown();
            });
        }

        assertThat(both.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(threads).hasSize(2).allMatch(Thread::isDaemon).allMatch(t -> t == threads.get(0));
        assertThat(threads.get(0).getName()).startsWith("commit-timer-test-");
    }

    @Test
    void itsThreadEndsOnceIdleAndTheNextTaskStartsAnother() throws Exception {
        CommitTimer quick = new CommitTimer("commit-timer-idle-test-" + System.nanoTime(), Duration.ofMillis(500));
        AtomicReference<Thread> first = new AtomicReference<>();
        AtomicReference<Thread> second = new AtomicReference<>();
        CountDownLatch firstRan = new CountDownLatch(1);
        CountDownLatch secondRan = new CountDownLatch(1);
        quick.schedule(0, () -> {
            first.set(Thread.currentThread());
            firstRan.countDown();
        });
        assertThat(firstRan.await(10, TimeUnit.SECONDS)).isTrue();
        // Tasks due well past the idle time keep the thread, even one that wakes it past that time to
        // wait for a sooner task: it is not idle while tasks wait.
        List<Thread> late = new CopyOnWriteArrayList<>();
        CountDownLatch lateRan = new CountDownLatch(2);
        Runnable recordLate = () -> {
            late.add(Thread.currentThread());
            lateRan.countDown();
        };
        quick.schedule(TimeUnit.MILLISECONDS.toNanos(1_500), recordLate);
        Thread.sleep(800);
        quick.schedule(TimeUnit.MILLISECONDS.toNanos(200), recordLate);
        assertThat(lateRan.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(late).containsOnly(first.get());

        first.get().join(10_000);

        assertThat(first.get().isAlive()).isFalse();
        quick.schedule(0, () -> {
            second.set(Thread.currentThread());
            secondRan.countDown();
        });
        assertThat(secondRan.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(second.get()).isNotSameAs(first.get());
        assertThat(second.get().getName()).isEqualTo(first.get().getName());
    }

    /**
     * Schedules {@code task} to fall due {@code millis} after {@code start}, however long the test
     * took to get here: on a loaded machine, making the task and starting the timer's thread can take
     * longer than the gaps between the tasks.
     */
    private CommitTimer.Due scheduleAfter(long start, long millis, Runnable task) {
        return timer.schedule(start + TimeUnit.MILLISECONDS.toNanos(millis) - System.nanoTime(), task);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
