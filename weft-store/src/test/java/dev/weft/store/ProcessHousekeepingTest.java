package dev.weft.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.core.store.InMemoryRunStore;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The housekeeping every long-running process joins: its settings, and one schedule per store however many parts join. */
final class ProcessHousekeepingTest {
    @TempDir
    Path dir;

    private static int scheduled(RunStore store) {
        return AppDatabase.of(store).read("count the schedule", c -> {
            try (PreparedStatement select =
                    c.prepareStatement("SELECT COUNT(*) FROM weft_scheduled_tasks WHERE task_name = ?")) {
                select.setString(1, ProcessHousekeeping.TASK_NAME);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    return row.getInt(1);
                }
            }
        });
    }

    @Test
    void duration_readsTheShortFormsAndIsoAndOffAndRefusesTheRestNamingTheVariable() {
        assertThat(ProcessHousekeeping.duration(Map.of(), "WEFT_X", Duration.ofHours(1), true))
                .isEqualTo(Duration.ofHours(1));
        assertThat(ProcessHousekeeping.duration(Map.of("WEFT_X", "30d"), "WEFT_X", Duration.ZERO, false))
                .isEqualTo(Duration.ofDays(30));
        assertThat(ProcessHousekeeping.duration(Map.of("WEFT_X", "PT30S"), "WEFT_X", Duration.ZERO, false))
                .isEqualTo(Duration.ofSeconds(30));
        assertThat(ProcessHousekeeping.duration(Map.of("WEFT_X", "off"), "WEFT_X", Duration.ofHours(1), true))
                .isZero();
        assertThatThrownBy(() -> ProcessHousekeeping.duration(Map.of("WEFT_X", "0s"), "WEFT_X", Duration.ZERO, false))
                .isInstanceOf(WeftException.class)
                .hasMessageContaining("WEFT_X=0s: not a positive duration")
                .extracting(e -> ((WeftException) e).code())
                .isEqualTo(ErrorCode.E_BAD_INPUT);
        assertThatThrownBy(() -> ProcessHousekeeping.duration(Map.of("WEFT_X", "soon"), "WEFT_X", Duration.ZERO, true))
                .hasMessageContaining("WEFT_X=soon");
    }

    @Test
    void join_startsOneScheduleForAllThePartsOfAProcessAndTheLastToLeaveStopsIt() {
        try (RunStore store = Stores.open(Optional.of("sqlite:" + dir.resolve("runs.db")), Map.of())) {
            ProcessHousekeeping.Part worker = ProcessHousekeeping.join(store, Map.of(), "test", line -> {});
            ProcessHousekeeping.Part channels = ProcessHousekeeping.join(store, Map.of(), "test", line -> {});

            assertThat(scheduled(store)).isEqualTo(1);
            worker.close();
            worker.close();
            channels.close();
            ProcessHousekeeping.Part again = ProcessHousekeeping.join(store, Map.of(), "test", line -> {});
            again.close();
        }
    }

    @Test
    void join_withHousekeepingOffOrAStoreWithoutADatabaseDoesNothing() {
        try (RunStore store = Stores.open(Optional.of("sqlite:" + dir.resolve("runs.db")), Map.of())) {
            ProcessHousekeeping.join(store, Map.of("WEFT_HOUSEKEEPING_EVERY", "off"), "test", line -> {})
                    .close();
            assertThat(scheduled(store)).isZero();
        }
        ProcessHousekeeping.join(InMemoryRunStore.create(), Map.of(), "test", line -> {})
                .close();
    }

    @Test
    void join_refusesABadSettingBeforeStartingAnything() {
        try (RunStore store = Stores.open(Optional.of("sqlite:" + dir.resolve("runs.db")), Map.of())) {
            assertThatThrownBy(() -> ProcessHousekeeping.join(
                            store, Map.of("WEFT_RETAIN_IDEMPOTENCY", "forever"), "test", line -> {}))
                    .hasMessageContaining("WEFT_RETAIN_IDEMPOTENCY=forever");
            assertThat(scheduled(store)).isZero();
        }
    }
}
