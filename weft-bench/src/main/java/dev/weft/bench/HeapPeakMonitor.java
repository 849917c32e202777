package dev.weft.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Watches the heap while a measurement runs, two ways: the used heap sampled every {@value
 * #SAMPLE_MILLIS} ms on a daemon thread (live data and garbage not yet collected: what the process
 * actually occupied), and the heap in use right after each garbage collection (the live data, as
 * far as that collection could tell). Thread-safe; close it to stop watching.
 */
final class HeapPeakMonitor implements AutoCloseable {
    static final long SAMPLE_MILLIS = 10;

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == MemoryType.HEAP)
            .map(MemoryPoolMXBean::getName)
            .collect(Collectors.toUnmodifiableSet());
    private final AtomicLong peakUsed = new AtomicLong();
    private final AtomicLong peakAfterGc = new AtomicLong();
    private final AtomicLong collections = new AtomicLong();
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener onCollection = this::collected;
    private final Thread sampler;
    private volatile boolean running = true;

    private HeapPeakMonitor() {
        for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(onCollection, null, null);
                emitters.add(emitter);
            }
        }
        sampler = Thread.ofPlatform().daemon().name("heap-peak-sampler").start(this::sample);
    }

    /** Starts watching now. */
    static HeapPeakMonitor start() {
        return new HeapPeakMonitor();
    }

    private void sample() {
        while (running) {
            peakUsed.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
            try {
                Thread.sleep(SAMPLE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void collected(Notification notification, Object handback) {
        if (!notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        long after = 0;
        for (var pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                MemoryUsage usage = pool.getValue();
                after += usage.getUsed();
            }
        }
        peakAfterGc.accumulateAndGet(after, Math::max);
        collections.incrementAndGet();
    }

    /** The most heap in use at any sample, in bytes. */
    long peakUsedBytes() {
        peakUsed.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
        return peakUsed.get();
    }

    /** The most heap in use right after a collection, in bytes; 0 if none ran. */
    long peakAfterGcBytes() {
        return peakAfterGc.get();
    }

    /** How many collections (pauses and concurrent cycles) ran while watching. */
    long collections() {
        return collections.get();
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(onCollection);
            } catch (ListenerNotFoundException e) {
                // Already gone: nothing left to stop.
            }
        }
    }
}
