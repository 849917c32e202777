package dev.weft.assistant;

import java.time.Instant;
import java.util.Objects;

/**
 * One line of a conversation with an assistant, as it was said: by the person or by the assistant, for a
 * surface that shows where a conversation left off (a chat reopened at a terminal).
 */
public record ConversationLine(Speaker speaker, String text, Instant at) {
    public ConversationLine {
        Objects.requireNonNull(speaker, "speaker");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(at, "at");
    }

    /** Who said a line. */
    public enum Speaker {
        PERSON,
        ASSISTANT
    }
}
