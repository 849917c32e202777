package dev.weft.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

final class RunIdsTest {
    @Test
    void areVersionSevenUuidsCarryingTheTimeTheyWereMade() {
        long before = System.currentTimeMillis();
        UUID id = UUID.fromString(RunIds.next());
        long after = System.currentTimeMillis();

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isBetween(before, after + 1);
    }

    @Test
    void laterIdsSortAfterEarlierOnesAsTextAndAreUnique() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            ids.add(RunIds.next());
        }

        assertThat(ids).isSorted();
        Set<String> unique = new HashSet<>(ids);
        assertThat(unique).hasSize(ids.size());
    }
}
