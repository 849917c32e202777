package dev.weft.language;

import java.util.Locale;
import java.util.Objects;

/** A word of a text, as written, and where it starts in the text. */
public record Token(String text, int start) {
    public Token {
        Objects.requireNonNull(text, "text");
        if (start < 0) {
            throw new IllegalArgumentException("a token starts at 0 or later, was " + start);
        }
    }

    /** Where the word ends in the text (exclusive). */
    public int end() {
        return start + text.length();
    }

    /** The word in lower case. */
    public String lower() {
        return text.toLowerCase(Locale.ROOT);
    }

    /** The word {@link Folding#fold folded}. */
    public String folded() {
        return Folding.fold(text);
    }

    /** Whether the word has a Hebrew letter. */
    public boolean isHebrew() {
        return Folding.hasHebrew(text);
    }
}
