package dev.weft.bench;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

final class WorkersBenchmarkTest {

    @Test
    void refusesAPhaseItDoesNotMeasureBeforeStartingAnything() {
        assertThatThrownBy(() -> WorkersBenchmark.run(new String[] {"--only", "floor"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("--only takes weft or queue, was 'floor'");
        assertThatThrownBy(() -> WorkersBenchmark.run(new String[] {"--only"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("--only takes weft or queue");
    }

    @Test
    void refusesAWarmUpThatIsNotANumberOfEntries() {
        assertThatThrownBy(() -> WorkersBenchmark.run(new String[] {"--warm-up", "-1"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("--warm-up takes a number of entries");
        assertThatThrownBy(() -> WorkersBenchmark.run(new String[] {"--quick", "--warm-up"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("--warm-up takes a number of entries");
    }

    @Test
    void namesEveryOptionWhenOneIsUnknown() {
        assertThatThrownBy(() -> WorkersBenchmark.run(new String[] {"--steps", "5"}))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("unknown option '--steps'")
                .hasMessageContaining("--only weft|queue, --warm-up N");
    }
}
