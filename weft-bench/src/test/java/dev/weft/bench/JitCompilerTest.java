package dev.weft.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

final class JitCompilerTest {

    @Test
    void theCompilerIsBusyWhileItWorksMoreThanTwoPercentOfTheTime() {
        long second = 1_000_000_000L;

        assertThat(JitCompiler.busy(100, second)).isTrue();
        assertThat(JitCompiler.busy(21, second)).isTrue();
        assertThat(JitCompiler.busy(20, second)).isFalse();
        assertThat(JitCompiler.busy(0, second)).isFalse();
    }

    @Test
    void readsTheCompilersTimeAsItGrows() {
        long before = JitCompiler.millis();

        assertThat(before).isNotNegative();
        assertThat(JitCompiler.millis()).isGreaterThanOrEqualTo(before);
    }
}
