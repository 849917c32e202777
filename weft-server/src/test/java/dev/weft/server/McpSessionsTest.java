package dev.weft.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MCP sessions over HTTP end when idle and are bounded in number, on a clock the test moves. */
final class McpSessionsTest {
    private Instant now = Instant.parse("2026-11-28T08:00:00Z");
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    };
    private final List<String> ended = new ArrayList<>();
    private final McpSessions<String> sessions = new McpSessions<>(clock, Duration.ofMinutes(30), 2, ended::add);

    @Test
    void aSessionUnusedForItsIdleTimeEndsAndIsNotFoundAgain() {
        sessions.open("s1", "session-1", "dana");
        now = now.plus(Duration.ofMinutes(29));
        assertThat(sessions.use("s1", "dana")).contains("session-1");

        now = now.plus(Duration.ofMinutes(30));

        assertThat(sessions.use("s1", "dana")).isEmpty();
        assertThat(ended).containsExactly("session-1");
        assertThat(sessions.size()).isZero();
    }

    @Test
    void usingASessionKeepsItOpen() {
        sessions.open("s1", "session-1", "dana");
        for (int i = 0; i < 5; i++) {
            now = now.plus(Duration.ofMinutes(20));
            assertThat(sessions.use("s1", "dana")).contains("session-1");
        }
        assertThat(ended).isEmpty();
    }

    @Test
    void whenFullANewSessionEndsTheLongestIdle() {
        sessions.open("s1", "session-1", "dana");
        now = now.plusSeconds(1);
        sessions.open("s2", "session-2", "omer");
        now = now.plusSeconds(1);
        sessions.use("s1", "dana");

        sessions.open("s3", "session-3", "eve");

        assertThat(ended).containsExactly("session-2");
        assertThat(sessions.size()).isEqualTo(2);
        assertThat(sessions.use("s1", "dana")).isPresent();
        assertThat(sessions.use("s3", "eve")).isPresent();
    }

    @Test
    void anotherUsersKeyDoesNotFindTheSession() {
        sessions.open("s1", "session-1", "dana");

        assertThat(sessions.use("s1", "omer")).isEmpty();
        assertThat(sessions.use("s1", "dana")).isPresent();
    }

    @Test
    void limitsMustMakeSense() {
        assertThatThrownBy(() -> new McpSessions<String>(clock, Duration.ZERO, 1, s -> {}))
                .hasMessageContaining("idle time must be positive");
        assertThatThrownBy(() -> new McpSessions<String>(clock, Duration.ofMinutes(1), 0, s -> {}))
                .hasMessageContaining("at least one");
    }
}
