package dev.weft.time.internal;

/**
 * One token of the input: a word (lower-cased), a run of digits, or a single symbol.
 *
 * <p>{@code start} and {@code end} are UTF-16 offsets into the original text, end exclusive. A
 * Hebrew prefix letter written before a number ({@code ב-8}, {@code ה15}) is folded into the number
 * token as its {@code prefix}, and its span starts at the prefix.
 */
record Token(String text, int start, int end, Kind kind, String prefix) {

    enum Kind {
        WORD,
        NUMBER,
        SYMBOL
    }

    boolean isWord() {
        return kind == Kind.WORD;
    }

    boolean isNumber() {
        return kind == Kind.NUMBER;
    }

    boolean isSymbol(char c) {
        return kind == Kind.SYMBOL && text.charAt(0) == c;
    }

    /** The number's value, saturated so that a run of many digits cannot overflow. */
    int value() {
        return text.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(text);
    }

    boolean isHebrew() {
        return kind == Kind.WORD && Tokenizer.isHebrewLetter(text.charAt(0));
    }
}
