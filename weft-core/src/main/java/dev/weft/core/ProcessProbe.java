package dev.weft.core;

import java.time.Instant;
import java.util.Optional;

/**
 * Tells whether a process of this host is still running: the one with id {@code pid} that started at
 * {@code started} (a process with the same id and another start time is another process, the id
 * reused). Injected into a {@link Runner}, so tests need no dying processes. Thread-safe.
 */
@FunctionalInterface
public interface ProcessProbe {
    boolean isRunning(long pid, Optional<Instant> started);

    /** The operating system's view, through {@link ProcessHandle}; start times compared to the millisecond. */
    static ProcessProbe system() {
        return (pid, started) -> ProcessHandle.of(pid)
                .filter(ProcessHandle::isAlive)
                .filter(handle -> started.isEmpty()
                        || handle.info()
                                .startInstant()
                                .map(s -> s.toEpochMilli() == started.get().toEpochMilli())
                                .orElse(true))
                .isPresent();
    }
}
