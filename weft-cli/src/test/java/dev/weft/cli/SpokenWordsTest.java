package dev.weft.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.core.Event;
import dev.weft.core.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The chat's reply printed as the model writes it, then what the reply says besides. */
final class SpokenWordsTest {
    private final StringWriter printed = new StringWriter();
    private final SpokenWords words = new SpokenWords(new PrintWriter(printed), "memo");
    private long sequence;

    private Event delta(String text, String source) {
        return new Event(
                "run-1",
                ++sequence,
                "assistant.delta",
                Optional.of("A"),
                1,
                Instant.EPOCH,
                Json.object().put("text", text).put("source", source));
    }

    @Test
    void theModelsWordsArePrintedAsTheyComeBeforeTheTurnIsOver() {
        words.onEvent(delta("I'm well, ", "model"));
        String first = printed.toString();
        words.onEvent(delta("thank you!", "model"));
        String second = printed.toString();
        words.finish("I'm well, thank you!");

        assertThat(first).isEqualTo("memo> I'm well, ");
        assertThat(second).isEqualTo("memo> I'm well, thank you!");
        assertThat(printed.toString()).isEqualTo("memo> I'm well, thank you!" + System.lineSeparator());
    }

    @Test
    void whatTheReplySaysBesidesTheModelsWordsFollowsThem() {
        words.onEvent(delta("Here is what I found.", "model"));
        words.finish("Saved the note.\n\nHere is what I found.");

        assertThat(printed.toString())
                .startsWith("memo> Here is what I found.")
                .contains("Saved the note.")
                .containsOnlyOnce("Here is what I found.");
    }

    @Test
    void aReplyWrittenByRulesIsPrintedWholeAndOtherDeltasAreNotWords() {
        words.onEvent(delta("thinking", "tool"));
        words.finish("I'll remind you: \"call the bank\"");

        assertThat(printed.toString()).isEqualTo("memo> I'll remind you: \"call the bank\"" + System.lineSeparator());
    }

    @Test
    void aTurnThatFailsMidSentenceEndsItsLineAndTheNextStartsAfresh() {
        words.onEvent(delta("I was say", "model"));
        words.abandon();
        words.finish("Hello.");

        assertThat(printed.toString().lines()).containsExactly("memo> I was say", "memo> Hello.");
    }
}
