package dev.weft.language;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The languages Weft's assistants read and answer in, and the language of a message decided by its
 * words: a Hebrew name in an English sentence leaves it English ("remind me tomorrow at 9 to call
 * דנה"), an English name in a Hebrew one leaves it Hebrew ("תזכיר לי להתקשר ל-Dana"). A word counts
 * for English when it is a common English word, or written in lower case, or opens a sentence;
 * other capitalized words (names of people, products, places), addresses, links and words with
 * digits (ids, sizes, times) count for neither.
 */
public enum Language {
    ENGLISH("en"),
    HEBREW("he");

    private final String code;

    Language(String code) {
        this.code = code;
    }

    /** The ISO 639-1 code: {@code en}, {@code he}. */
    public String code() {
        return code;
    }

    /** The language of the code {@code en} or {@code he} (case ignored), or empty. */
    public static Optional<Language> ofCode(String code) {
        String lower = code.strip().toLowerCase(Locale.ROOT);
        for (Language language : values()) {
            if (language.code.equals(lower) || lower.equals("iw") && language == HEBREW) {
                return Optional.of(language);
            }
        }
        return Optional.empty();
    }

    private static final Pattern ADDRESS = Pattern.compile("[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+|https?://\\S+");
    private static final Pattern SENTENCE_END = Pattern.compile("[.!?:;\\n]\\s*$");

    private static final Set<String> ENGLISH_FUNCTION_WORDS = Set.of(
            "i",
            "i'm",
            "im",
            "i'd",
            "i've",
            "my",
            "me",
            "the",
            "a",
            "an",
            "is",
            "are",
            "was",
            "to",
            "of",
            "and",
            "or",
            "for",
            "in",
            "on",
            "at",
            "it",
            "it's",
            "this",
            "that",
            "what",
            "where",
            "when",
            "how",
            "can",
            "could",
            "would",
            "please",
            "want",
            "like",
            "do",
            "you",
            "your",
            "hi",
            "hello",
            "hey",
            "yes",
            "no",
            "not",
            "with",
            "from",
            "order",
            "remind",
            "call",
            "tomorrow",
            "today",
            "tonight",
            "meeting",
            "thanks",
            "ok",
            "okay");

    /**
     * The language {@code text} is written in, by its words: Hebrew when its Hebrew words are at least
     * as many as its English ones. Empty when it says too little to tell — no word of either language,
     * or a single English word ("ok", "W1002") — so that a conversation's language holds.
     */
    public static Optional<Language> of(String text) {
        String words = ADDRESS.matcher(text).replaceAll(" ");
        int hebrew = 0;
        int english = 0;
        boolean opening = true;
        int last = 0;
        for (Token token : Tokens.of(words)) {
            if (SENTENCE_END.matcher(words.substring(last, token.start())).find()) {
                opening = true;
            }
            last = token.end();
            String word = token.text();
            boolean wasOpening = opening;
            opening = false;
            if (token.isHebrew()) {
                hebrew++;
            } else if (word.chars().allMatch(Character::isLetter) || word.matches("\\p{L}+['’]\\p{L}*")) {
                boolean common = ENGLISH_FUNCTION_WORDS.contains(Folding.fold(word))
                        || ENGLISH_FUNCTION_WORDS.contains(word.toLowerCase(Locale.ROOT));
                boolean name = Character.isUpperCase(word.charAt(0)) && !wasOpening;
                boolean acronym = word.length() <= 3 && word.equals(word.toUpperCase(Locale.ROOT));
                if (common || !name && !acronym) {
                    english++;
                }
            }
        }
        if (hebrew == 0 && english <= 1) {
            return Optional.empty();
        }
        return Optional.of(hebrew >= english ? HEBREW : ENGLISH);
    }

    /** {@link #of}, or {@code otherwise} when the text does not tell. */
    public static Language of(String text, Language otherwise) {
        return of(text).orElse(otherwise);
    }

    /** The {@link #code} of {@link #of}, English when the text does not tell: for callers that speak in codes. */
    public static String codeOf(String text) {
        return of(text, ENGLISH).code();
    }

    /** The languages in the order they are tried when a text does not tell. */
    public static List<Language> all() {
        return List.of(values());
    }
}
