package dev.weft.redis;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class OutcomesTest {

    @Test
    void anAnnouncementCarriesTheStoredOutcomeWithTheStep() {
        JsonNode outcome = Json.parse("{\"value\": {\"calls\": [1, 2]}, \"events\": []}", "test");

        String message = Outcomes.announcement("run-1", 3, Optional.of(outcome));

        assertThat(Outcomes.announced(message)).contains(new Outcomes.Announced("run-1", 3, Optional.of(outcome)));
    }

    @Test
    void anAnnouncementWithoutAnOutcomeNamesTheStepOnly() {
        assertThat(Outcomes.announcement("run-1", 3, Optional.empty())).isEqualTo("run-1 3");
        assertThat(Outcomes.announced("run-1 3")).contains(new Outcomes.Announced("run-1", 3, Optional.empty()));
    }

    @Test
    void anOutcomeTooLargeToCarryIsLeftToTheStore() {
        JsonNode large = Json.object().put("value", "x".repeat(Outcomes.MOST_ANNOUNCED));

        String message = Outcomes.announcement("run-1", 3, Optional.of(large));

        assertThat(message).isEqualTo("run-1 3");
    }

    @Test
    void aMessageThatIsNotAnAnnouncementIsIgnored() {
        assertThat(Outcomes.announced("hello")).isEmpty();
        assertThat(Outcomes.announced("run-1 three")).isEmpty();
    }

    @Test
    void anOutcomeThatIsNotJsonIsReadFromTheStoreInstead() {
        assertThat(Outcomes.announced("run-1 3\n{not json"))
                .contains(new Outcomes.Announced("run-1", 3, Optional.empty()));
    }
}
