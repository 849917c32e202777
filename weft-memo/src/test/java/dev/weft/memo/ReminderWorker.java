package dev.weft.memo;

import dev.weft.core.spi.RunStore;
import dev.weft.memo.data.MemoData;
import dev.weft.store.Stores;
import java.time.Duration;
import java.time.Instant;

/**
 * The process {@code RemindersRestartIT} kills: fires Memo's reminders on the real clock, printing
 * "fired SOURCE_ID late=BOOLEAN" for each, after "started". Arguments: the database URL.
 */
public final class ReminderWorker {
    private ReminderWorker() {}

    public static void main(String[] args) throws InterruptedException {
        RunStore store = Stores.open(args[0]);
        Reminders reminders = new Reminders(MemoData.open(store), Instant::now, Duration.ofSeconds(2));
        reminders.onFire(n -> {
            System.out.println("fired " + n.sourceId() + " late=" + n.late());
            System.out.flush();
        });
        reminders.start(
                Duration.ofMillis(200), "worker-" + ProcessHandle.current().pid());
        System.out.println("started");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
