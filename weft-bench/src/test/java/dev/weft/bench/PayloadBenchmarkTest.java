package dev.weft.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.weft.core.Durability;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.Runner;
import dev.weft.core.spi.RunStore;
import dev.weft.store.Stores;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

final class PayloadBenchmarkTest {
    @TempDir
    Path directory;

    @Test
    void theBigChainsFirstOutputIsTheSizeAskedForAndTheOthersCountOn() {
        try (RunStore store = Stores.open("sqlite:" + directory.resolve("chain.db"))) {
            RunResult result = Runner.builder()
                    .store(store)
                    .build()
                    .run(PayloadBenchmark.chain(4, 2), RunRequest.of(IntNode.valueOf(0)));

            assertThat(result.steps()).hasSize(4);
            assertThat(result.steps().get(0).output().textValue()).hasSize(2 << 20);
            // The second node counts from the first output, which is text and so counts as 0.
            assertThat(result.output().asInt()).isEqualTo(3);
        }
    }

    @ParameterizedTest
    @EnumSource(Durability.class)
    void measuresRunsOfTheChainOnADurableStoreAndEmptiesItAfterwards(Durability durability) {
        try (RunStore store = Stores.open("sqlite:" + directory.resolve("bench.db"))) {
            PayloadBenchmark.Measurement measurement = PayloadBenchmark.measure("sqlite", store, durability, 3, 2, 2);

            assertThat(measurement.msPerRun()).isPositive();
            assertThat(measurement.line(2))
                    .startsWith("engine=weft store=sqlite durability="
                            + durability.name().toLowerCase() + " first_output=2MiB steps=3 ms_per_run=");
            assertThat(store.listRuns(java.util.Optional.empty())).isEmpty();
        }
    }

    @Test
    void refusesArgumentsItDoesNotKnowOrTooSmall() {
        assertThatThrownBy(() -> PayloadBenchmark.run(new String[] {"--mib", "1"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("--mib must be at least 2");
        assertThatThrownBy(() -> PayloadBenchmark.run(new String[] {"--size", "3"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("unknown argument '--size'");
    }
}
