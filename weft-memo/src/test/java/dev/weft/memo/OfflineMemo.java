package dev.weft.memo;

import dev.weft.core.Runner;
import dev.weft.core.TimeSource;
import dev.weft.core.spi.RunStore;
import dev.weft.plan.PlanMode;
import dev.weft.store.Stores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Memo with its offline planner on a real SQLite file of its own for each test, its clock stopped at
 * {@code now}, every user in Jerusalem: for tests that talk to Memo as a person does and read what it
 * says and keeps. Registered with {@code @RegisterExtension}; not thread-safe.
 */
final class OfflineMemo implements BeforeEachCallback, AfterEachCallback {
    static final ZoneId JERUSALEM = ZoneId.of("Asia/Jerusalem");

    private final Instant now;
    private Path dir;
    private RunStore store;
    private Memo memo;
    private Runner runner;

    OfflineMemo(Instant now) {
        this.now = now;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        dir = Files.createTempDirectory("offline-memo");
        store = Stores.open("sqlite:" + dir.resolve("memo.db"));
        memo = Memo.open(store, new OfflinePlanner());
        runner = Runner.builder().store(store).time(TimeSource.of(() -> now)).build();
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        store.close();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> {
                try {
                    Files.delete(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    /** What Memo answers {@code user}'s {@code message}. */
    String ask(String user, String message) {
        return memo.ask(runner, new Memo.Request(user, message, Optional.of(JERUSALEM), PlanMode.AUTO))
                .text();
    }

    Memo memo() {
        return memo;
    }
}
