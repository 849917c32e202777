package dev.weft.plan.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

final class InstantsTest {
    private static void same(Instant instant) {
        assertThat(Instants.format(instant)).as("%s", instant).isEqualTo(instant.toString());
    }

    @Test
    void writesWhatInstantToStringWrites() {
        for (int nanos : new int[] {
            0, 1, 10, 999, 1_000, 1_001, 120_000, 999_999, 1_000_000, 7_000_000, 100_000_000, 123_456_789, 999_999_999
        }) {
            for (long seconds : new long[] {
                0,
                1,
                59,
                60,
                1_700_000_000L,
                -1,
                -62_167_219_200L,
                -62_167_219_201L,
                253_402_300_799L,
                253_402_300_800L,
                Instant.MAX.getEpochSecond(),
                Instant.MIN.getEpochSecond()
            }) {
                same(Instant.ofEpochSecond(seconds, nanos));
            }
        }
        same(Instant.MAX);
        same(Instant.MIN);
    }

    @Test
    void writesRandomInstantsAndSecondsThatRepeatAsInstantToStringDoes() {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 20_000; i++) {
            long seconds = i % 2 == 0
                    ? random.nextLong(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond())
                    : 1_700_000_000L + random.nextInt(3);
            int nanos = switch (i % 4) {
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1_000;
                default -> random.nextInt(1_000_000_000);
            };
            same(Instant.ofEpochSecond(seconds, nanos));
        }
    }

    @Test
    void writesTheSystemClockAsInstantToStringDoes() {
        for (int i = 0; i < 1_000; i++) {
            same(Instant.now());
        }
    }
}
