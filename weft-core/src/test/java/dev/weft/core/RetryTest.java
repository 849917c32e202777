package dev.weft.core;

import static dev.weft.core.Nodes.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

final class RetryTest {
    private final FakeTime time = new FakeTime();

    /** Always draws {@code value}: the jitter's extreme ends can be pinned down. */
    private static RandomGenerator fixed(double value) {
        return new RandomGenerator() {
            @Override
            public long nextLong() {
                return 0;
            }

            @Override
            public double nextDouble() {
                return value;
            }
        };
    }

    private static Node failing(int times, AtomicInteger calls, RuntimeException failure) {
        return context -> {
            if (calls.incrementAndGet() <= times) {
                throw failure;
            }
            return NodeResult.output(json("\"ok after " + context.attempt() + "\""));
        };
    }

    private Graph graph(Node node, RetryPolicy policy) {
        return Graph.builder("retry")
                .node(NodeSpec.builder("flaky", node).retry(policy).build())
                .edge(Graph.START, "flaky")
                .compile();
    }

    @Test
    void retriesTransientFailuresWithCappedExponentialBackoff() {
        RetryPolicy policy = RetryPolicy.attempts(5)
                .withBackoff(Duration.ofMillis(100), Duration.ofMillis(300), 2.0)
                .withJitter(0.0);
        AtomicInteger calls = new AtomicInteger();
        Runner runner = Runner.builder().time(time).build();

        RunResult result = runner.run(
                graph(failing(4, calls, new TransientException(ErrorCode.E_TOOL_TIMEOUT, "slow")), policy),
                RunRequest.of(json("null")));

        assertThat(result.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(result.output()).isEqualTo(json("\"ok after 5\""));
        assertThat(result.steps().get(0).attempt()).isEqualTo(5);
        assertThat(time.sleeps())
                .containsExactly(
                        Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(300), Duration.ofMillis(300));
        assertThat(runner.store().events(result.runId()))
                .filteredOn(e -> e.type().equals(Event.STEP_RETRYING))
                .hasSize(4);
    }

    @Test
    void jitterShortensTheDelayByAtMostItsFraction() {
        RetryPolicy policy = RetryPolicy.attempts(3)
                .withBackoff(Duration.ofMillis(1000), Duration.ofSeconds(10), 2.0)
                .withJitter(0.25);

        assertThat(policy.delayAfter(1, fixed(0.0))).isEqualTo(Duration.ofMillis(1000));
        assertThat(policy.delayAfter(1, fixed(0.999999))).isGreaterThan(Duration.ofMillis(750));
        assertThat(policy.delayAfter(2, fixed(0.5))).isEqualTo(Duration.ofMillis(1750));
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 1000; i++) {
            Duration delay = policy.delayAfter(2, random);
            assertThat(delay).isBetween(Duration.ofMillis(1500), Duration.ofMillis(2000));
        }
    }

    @Test
    void theRunnersInjectedRandomnessDrivesTheJitter() {
        RetryPolicy policy = RetryPolicy.attempts(2)
                .withBackoff(Duration.ofMillis(400), Duration.ofMillis(400), 1.0)
                .withJitter(0.5);
        Runner runner = Runner.builder().time(time).random(fixed(1.0)).build();

        runner.run(
                graph(failing(1, new AtomicInteger(), new TransientException(ErrorCode.E_TOOL_FAILED, "503")), policy),
                RunRequest.of(json("null")));

        assertThat(time.sleeps()).containsExactly(Duration.ofMillis(200));
    }

    @Test
    void doesNotRetryANonTransientFailure() {
        AtomicInteger calls = new AtomicInteger();
        Runner runner = Runner.builder().time(time).build();

        RunResult result = runner.run(
                graph(
                        failing(1, calls, new WeftException(ErrorCode.E_ARGS_INVALID, "bad field")),
                        RetryPolicy.attempts(5)),
                RunRequest.of(json("null")));

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(calls).hasValue(1);
        assertThat(time.sleeps()).isEmpty();
        assertThat(result.error().orElseThrow().code()).isEqualTo(ErrorCode.E_ARGS_INVALID);
    }

    @Test
    void givesUpAfterTheLastAttempt() {
        AtomicInteger calls = new AtomicInteger();
        Runner runner = Runner.builder().time(time).build();

        RunResult result = runner.run(
                graph(
                        failing(10, calls, new TransientException(ErrorCode.E_TOOL_TIMEOUT, "still slow")),
                        RetryPolicy.attempts(3).withJitter(0)),
                RunRequest.of(json("null")));

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(calls).hasValue(3);
        assertThat(result.steps().get(0).attempt()).isEqualTo(3);
        assertThat(result.error().orElseThrow().message()).isEqualTo("node 'flaky': still slow");
    }

    @Test
    void policiesRejectBadSettings() {
        assertThatThrownBy(() -> RetryPolicy.attempts(0)).hasMessage("max attempts must be at least 1, was 0");
        assertThatThrownBy(() -> RetryPolicy.attempts(2).withJitter(1.5))
                .hasMessage("jitter must be between 0 and 1, was 1.5");
        assertThatThrownBy(() -> RetryPolicy.attempts(2).withBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1), 2))
                .hasMessage("max delay must be at least the initial delay PT2S, was PT1S");
        assertThatThrownBy(() -> RetryPolicy.attempts(2).withBackoff(Duration.ZERO, Duration.ZERO, 0.5))
                .hasMessage("multiplier must be at least 1, was 0.5");
    }
}
