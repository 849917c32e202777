package dev.weft.assistant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Graph;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import dev.weft.core.Runner;
import dev.weft.plan.ToolRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class AssistantsTest {
    /** An assistant that owns the runs whose graph id starts with its name, and answers nothing. */
    private record Named(String name) implements Assistant {
        @Override
        public String description() {
            return name;
        }

        @Override
        public Turn converse(Runner runner, Message message) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Turn approve(Runner runner, String user, String runId, List<String> steps) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Turn reject(Runner runner, String user, String runId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Turn answer(Runner runner, String user, String runId, String text) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ToolRegistry tools() {
            return ToolRegistry.of();
        }

        @Override
        public boolean owns(Run run) {
            return run.graphId().startsWith(name + ":");
        }

        @Override
        public Optional<Graph> graphOf(Run run) {
            return Optional.empty();
        }
    }

    private static Run runOf(String graphId) {
        JsonNode empty = Json.object();
        return new Run(
                "r-1",
                graphId,
                Optional.empty(),
                RunStatus.COMPLETED,
                empty,
                Map.of(),
                Map.of(),
                empty,
                Optional.empty(),
                Instant.EPOCH,
                Optional.empty(),
                empty,
                Optional.of("dana"));
    }

    @Test
    void findsAnAssistantByNameAndNamesThoseThereAreWhenAsked() {
        Assistants assistants = Assistants.of(new Named("memo"), new Named("concierge"));

        assertThat(assistants.get("concierge").name()).isEqualTo("concierge");
        assertThat(assistants.names()).containsExactly("memo", "concierge");
        assertThatThrownBy(() -> assistants.get("butler"))
                .isInstanceOf(NotFoundException.class)
                .hasMessage("no assistant 'butler': there are memo, concierge");
    }

    @Test
    void twoAssistantsOfOneNameAreRefused() {
        assertThatThrownBy(() -> Assistants.of(new Named("memo"), new Named("memo")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two assistants are named 'memo'");
    }

    @Test
    void aRunIsContinuedByTheAssistantThatOwnsIt() {
        Assistants assistants = Assistants.of(new Named("memo"), new Named("concierge"));

        assertThat(assistants.ownerOf(runOf("concierge:turn")).map(Assistant::name))
                .contains("concierge");
        assertThat(assistants.ownerOf(runOf("workflow:triage"))).isEmpty();
        assertThat(assistants.with(new Named("memo")).names()).containsExactly("memo", "concierge");
    }

    @Test
    void usageNeverCountsBelowZero() {
        assertThat(new Turn.Usage(12, 30).totalTokens()).isEqualTo(42);
        assertThatThrownBy(() -> new Turn.Usage(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
