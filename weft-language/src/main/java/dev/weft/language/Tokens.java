package dev.weft.language;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The words of a text: letters and digits, keeping apostrophes and geresh inside a word ("it's", "ג'קט", "צה״ל"). Stateless. */
public final class Tokens {
    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+(?:['’\"׳״][\\p{L}\\p{N}]+)*['’׳]?");

    private Tokens() {}

    /** The words of {@code text}, in order. */
    public static List<Token> of(String text) {
        List<Token> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            tokens.add(new Token(m.group(), m.start()));
        }
        return tokens;
    }

    /** The {@link Folding#fold folded} words of {@code text}, in order. */
    public static List<String> folded(String text) {
        List<String> words = new ArrayList<>();
        for (Token token : of(text)) {
            String folded = token.folded();
            if (!folded.isEmpty()) {
                words.add(folded);
            }
        }
        return words;
    }
}
