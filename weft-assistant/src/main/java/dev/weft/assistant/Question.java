package dev.weft.assistant;

import java.util.Objects;

/**
 * What a waiting run asks a person, as its assistant says it ("This will delete your 3 reminders: call
 * Dana, pills, stretch"), and the language of those words ({@code en}, {@code he}), so that a surface
 * that shows the run lays them out as the language reads.
 */
public record Question(String text, String language) {
    public Question {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(language, "language");
        if (text.isBlank()) {
            throw new IllegalArgumentException("a question's text must not be blank");
        }
    }
}
