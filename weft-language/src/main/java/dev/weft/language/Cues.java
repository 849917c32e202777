package dev.weft.language;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a message says about itself besides its content, in English and Hebrew: whether it is
 * negated ("don't", "no need", "אל תזכיר", "אין צורך"), whether it asks ("what's on tomorrow", "is
 * there…", "מה יש לי", "האם…", or a question mark), and whether it hedges ("maybe", "I think", "not
 * sure", "אולי", "נראה לי"). Stateless.
 */
public record Cues(boolean negated, boolean question, boolean hedged) {
    private static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.UNICODE_CHARACTER_CLASS;

    private static final Pattern NEGATION = Pattern.compile(
            "\\b(?:not|no|never|nothing|none|nobody|neither|nor|without|cannot|can't|cant|don'?t|doesn'?t|didn'?t|won'?t"
                    + "|isn'?t|aren'?t|wasn'?t|shouldn'?t|wouldn'?t|couldn'?t|no longer|no need)\\b"
                    + "|(?<![\\p{L}])(?:לא|אל|אין|בלי|אינני|אינו|אינה|אף פעם|שום|כבר לא|אין צורך|ללא)(?![\\p{L}])",
            FLAGS);

    private static final Set<String> ENGLISH_QUESTION_WORDS = Set.of(
            "what",
            "whats",
            "what's",
            "which",
            "when",
            "where",
            "who",
            "whose",
            "whom",
            "why",
            "how",
            "is",
            "are",
            "am",
            "was",
            "were",
            "do",
            "does",
            "did",
            "can",
            "could",
            "will",
            "would",
            "should",
            "shall",
            "have",
            "has",
            "any",
            "anything",
            "may");

    private static final Set<String> HEBREW_QUESTION_WORDS = Set.of(
            "מה", "מתי", "איפה", "היכן", "מי", "למה", "מדוע", "איך", "כיצד", "כמה", "האם", "איזה", "איזו", "אילו",
            "לאן", "מאיפה", "ממתי", "עד מתי", "השם");

    private static final Pattern HEDGE = Pattern.compile(
            "\\b(?:maybe|perhaps|possibly|probably|might|i think|i guess|i suppose|not sure|i'?m not sure|kind of|"
                    + "sort of|if possible|if you can|i believe|i wonder)\\b"
                    + "|(?<![\\p{L}])(?:אולי|נראה לי|אני חושב|אני חושבת|לא בטוח|לא בטוחה|אם אפשר|אם אפשרי|בערך|כנראה|"
                    + "אני מניח|אני מניחה)(?![\\p{L}])",
            FLAGS);

    /** The cues of {@code text}. */
    public static Cues of(String text) {
        return new Cues(negated(text), question(text), hedged(text));
    }

    /** Whether {@code text} says "not" in a way: a negation word of either language, or a Hebrew "אל" before a verb. */
    public static boolean negated(String text) {
        return NEGATION.matcher(text).find();
    }

    /**
     * Whether {@code text} asks: it ends with a question mark, or starts (after fillers such as "hey" or
     * "so") with a question word or an auxiliary that opens a question ("is there", "do I have", "מה",
     * "האם"). "Tell me", "show me" and the like are requests to be told; {@code Cues} does not count
     * them as questions: whether a request reads or changes is the assistant's call.
     */
    public static boolean question(String text) {
        String stripped = text.strip();
        if (stripped.endsWith("?") || stripped.endsWith("？")) {
            return true;
        }
        List<Token> tokens = Tokens.of(stripped);
        int first = 0;
        while (first < tokens.size() && FILLERS.contains(tokens.get(first).folded())) {
            first++;
        }
        if (first >= tokens.size()) {
            return false;
        }
        String word = tokens.get(first).lower();
        if (ENGLISH_QUESTION_WORDS.contains(word) || ENGLISH_QUESTION_WORDS.contains(Folding.fold(word))) {
            return true;
        }
        String folded = tokens.get(first).folded();
        for (String hebrew : HEBREW_QUESTION_WORDS) {
            if (Folding.fold(hebrew).equals(folded)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code text} hedges: says the speaker is unsure, or asks only if it is possible. */
    public static boolean hedged(String text) {
        return HEDGE.matcher(text).find();
    }

    private static final Set<String> FILLERS = Set.of(
            "hey", "hi", "ok", "okay", "so", "um", "uh", "umm", "well", "please", "and", "but", "oh", "היי", "הי",
            "אוקיי", "טוב", "נו", "אז", "ו", "רגע", "בבקשה");
}
