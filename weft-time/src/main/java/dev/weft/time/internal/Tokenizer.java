package dev.weft.time.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Splits text into words, numbers and symbols, keeping each token's span; stateless and thread-safe. */
final class Tokenizer {

    /** Letters that Hebrew attaches in front of a word: and, in, to, the, from, as, that. */
    static final String HEBREW_PREFIX_LETTERS = "ובלהמכש";

    /** Two-letter words made only of prefix letters that are words of their own. */
    private static final Set<String> NOT_PREFIXES = Set.of("כל", "של", "מה", "לה", "בה", "מי", "שם", "כך", "לו", "בו");

    private Tokenizer() {}

    static boolean isHebrewLetter(char c) {
        return c >= '\u05D0' && c <= '\u05EA';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLatinLetter(char c) {
        return Character.isLetter(c) && !isHebrewLetter(c);
    }

    static List<Token> tokenize(String text) {
        List<Token> raw = new ArrayList<>();
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || (c >= '\u0591' && c <= '\u05C7' && c != '\u05BE')) {
                i++; // spaces, and Hebrew vowel points and cantillation, which carry no meaning here
            } else if (isDigit(c)) {
                int j = i;
                while (j < n && isDigit(text.charAt(j))) {
                    j++;
                }
                raw.add(new Token(text.substring(i, j), i, j, Token.Kind.NUMBER, ""));
                i = j;
            } else if (isHebrewLetter(c)) {
                i = hebrewWord(text, i, raw);
            } else if (isLatinLetter(c)) {
                int j = i;
                while (j < n
                        && (isLatinLetter(text.charAt(j))
                                || (text.charAt(j) == '\''
                                        && j + 1 < n
                                        && isLatinLetter(text.charAt(j + 1))
                                        && j > i))) {
                    j++;
                }
                raw.add(new Token(text.substring(i, j).toLowerCase(Locale.ROOT), i, j, Token.Kind.WORD, ""));
                i = j;
            } else {
                raw.add(new Token(String.valueOf(normalizeSymbol(c)), i, i + 1, Token.Kind.SYMBOL, ""));
                i++;
            }
        }
        return foldHebrewPrefixes(raw);
    }

    private static int hebrewWord(String text, int i, List<Token> out) {
        int n = text.length();
        StringBuilder word = new StringBuilder();
        int j = i;
        while (j < n) {
            char c = text.charAt(j);
            if (isHebrewLetter(c)) {
                word.append(c);
            } else if (c >= '\u0591' && c <= '\u05C7' && c != '\u05BE') {
                // a vowel point inside the word: skip it
            } else if ((c == '"' || c == '\u05F4' || c == '\u201D' || c == '\u201C')
                    && j + 1 < n
                    && isHebrewLetter(text.charAt(j + 1))) {
                word.append('"'); // gershayim inside an abbreviation: אחה"צ
            } else if ((c == '\'' || c == '\u05F3' || c == '\u2019')
                    && (j + 1 >= n || !isHebrewLetter(text.charAt(j + 1)))) {
                word.append('\''); // geresh after a letter: יום א'
                j++;
                break;
            } else {
                break;
            }
            j++;
        }
        out.add(new Token(word.toString(), i, j, Token.Kind.WORD, ""));
        return j;
    }

    private static char normalizeSymbol(char c) {
        return switch (c) {
            case '\u05BE', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212' -> '-';
            case '\u05F4', '\u201C', '\u201D' -> '"';
            case '\u05F3', '\u2018', '\u2019' -> '\'';
            default -> c;
        };
    }

    /**
     * Folds a bare Hebrew prefix ({@code ב}, {@code מ-}, {@code ה}) into the number or word after it,
     * so that {@code ב-8}, {@code ב8} and {@code ב 8} read the same.
     */
    private static List<Token> foldHebrewPrefixes(List<Token> raw) {
        List<Token> out = new ArrayList<>(raw.size());
        for (int k = 0; k < raw.size(); k++) {
            Token t = raw.get(k);
            boolean fromThe = t.isHebrew()
                    && t.text().equals("מה")
                    && k + 2 < raw.size()
                    && raw.get(k + 1).isSymbol('-')
                    && raw.get(k + 2).isNumber()
                    && raw.get(k + 1).start() == t.end()
                    && raw.get(k + 2).start() == raw.get(k + 1).end(); // "מה-3": from the 3rd, not "what"
            if (t.isHebrew() && (isPrefixOnly(t.text()) || fromThe) && k + 1 < raw.size()) {
                int next = k + 1;
                boolean hyphen = raw.get(next).isSymbol('-') && raw.get(next).start() == t.end();
                if (hyphen) {
                    next++;
                }
                if (next < raw.size()) {
                    Token target = raw.get(next);
                    boolean adjacent = target.start() == raw.get(next - 1).end();
                    boolean spaced = !hyphen && t.text().length() == 1;
                    if (target.isNumber() && (adjacent || spaced)) {
                        out.add(new Token(target.text(), t.start(), target.end(), Token.Kind.NUMBER, t.text()));
                        k = next;
                        continue;
                    }
                    if (target.isHebrew() && hyphen && adjacent) {
                        out.add(new Token(t.text() + target.text(), t.start(), target.end(), Token.Kind.WORD, ""));
                        k = next;
                        continue;
                    }
                }
            }
            out.add(t);
        }
        return out;
    }

    private static boolean isPrefixOnly(String word) {
        if (word.length() > 2 || NOT_PREFIXES.contains(word)) {
            return false;
        }
        for (int i = 0; i < word.length(); i++) {
            if (HEBREW_PREFIX_LETTERS.indexOf(word.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }
}
