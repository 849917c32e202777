package dev.weft.assistant;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.RunResult;
import java.util.Objects;

/**
 * What an assistant did with one message: the reply's language, the run, the reply's text, the whole
 * turn as JSON (what {@code ask --json} prints), and the model tokens the turn used.
 */
public record Turn(String language, RunResult run, String text, ObjectNode json, Usage usage) {
    public Turn {
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(run, "run");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(usage, "usage");
    }

    /** Model tokens read and written in a turn; zero for a turn answered by rules. */
    public record Usage(long promptTokens, long completionTokens) {
        public static final Usage NONE = new Usage(0, 0);

        public Usage {
            if (promptTokens < 0 || completionTokens < 0) {
                throw new IllegalArgumentException(
                        "token counts must not be negative, were " + promptTokens + " and " + completionTokens);
            }
        }

        public long totalTokens() {
            return promptTokens + completionTokens;
        }
    }
}
