package dev.weft.assistant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunStatus;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class AssistantsTest {
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
        Assistants assistants = Assistants.of(new QuietAssistant("memo"), new QuietAssistant("concierge"));

        assertThat(assistants.get("concierge").name()).isEqualTo("concierge");
        assertThat(assistants.names()).containsExactly("memo", "concierge");
        assertThatThrownBy(() -> assistants.get("butler"))
                .isInstanceOf(NotFoundException.class)
                .hasMessage("no assistant 'butler': there are memo, concierge");
    }

    @Test
    void twoAssistantsOfOneNameAreRefused() {
        assertThatThrownBy(() -> Assistants.of(new QuietAssistant("memo"), new QuietAssistant("memo")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two assistants are named 'memo'");
    }

    @Test
    void aRunIsContinuedByTheAssistantThatOwnsIt() {
        Assistants assistants = Assistants.of(new QuietAssistant("memo"), new QuietAssistant("concierge"));

        assertThat(assistants.ownerOf(runOf("concierge:turn")).map(Assistant::name))
                .contains("concierge");
        assertThat(assistants.ownerOf(runOf("workflow:triage"))).isEmpty();
        assertThat(assistants.with(new QuietAssistant("memo")).names()).containsExactly("memo", "concierge");
    }

    @Test
    void usageNeverCountsBelowZero() {
        assertThat(new Turn.Usage(12, 30).totalTokens()).isEqualTo(42);
        assertThatThrownBy(() -> new Turn.Usage(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
