package dev.weft.concierge.internal;

import dev.weft.language.Folding;
import dev.weft.language.Forms;
import dev.weft.language.Token;
import dev.weft.language.Tokens;
import dev.weft.language.Typos;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A list of phrases found in a message's words whatever their Hebrew prefixes or English plurals ("לבטל",
 * "ולבטל", "תבטל"; "return", "returns"). Immutable and thread-safe.
 */
final class Phrases {
    private final List<List<String>> phrases;
    private final boolean typos;

    private Phrases(List<List<String>> phrases) {
        this(phrases, false);
    }

    private Phrases(List<List<String>> phrases, boolean typos) {
        this.phrases = phrases;
        this.typos = typos;
    }

    /**
     * These phrases, where a one-word phrase of six letters or more is also found with a customer's typo in
     * an English word: one letter changed, added, dropped, or two side by side swapped ("cancle", "retrun",
     * "adress").
     */
    Phrases withTypos() {
        return new Phrases(phrases, true);
    }

    static Phrases of(String... phrases) {
        List<List<String>> list = new ArrayList<>();
        for (String phrase : phrases) {
            List<String> words =
                    Tokens.of(phrase).stream().map(t -> Folding.fold(t.text())).toList();
            if (!words.isEmpty()) {
                list.add(words);
            }
        }
        return new Phrases(List.copyOf(list));
    }

    /** Both lists. */
    Phrases and(Phrases other) {
        List<List<String>> both = new ArrayList<>(phrases);
        both.addAll(other.phrases);
        return new Phrases(List.copyOf(both), typos && other.typos);
    }

    /** How many of the phrases the message's words hold. */
    int count(Message message) {
        int count = 0;
        for (List<String> phrase : phrases) {
            if (find(message, phrase) >= 0) {
                count++;
            }
        }
        return count;
    }

    boolean in(Message message) {
        return count(message) > 0;
    }

    /** The index of the first word of the first phrase found, or -1. */
    int first(Message message) {
        int first = -1;
        for (List<String> phrase : phrases) {
            int at = find(message, phrase);
            if (at >= 0 && (first < 0 || at < first)) {
                first = at;
            }
        }
        return first;
    }

    private int find(Message message, List<String> phrase) {
        int at = message.find(phrase);
        if (at >= 0 || !typos || phrase.size() != 1 || phrase.get(0).length() < 6) {
            return at;
        }
        String wanted = phrase.get(0);
        for (int i = 0; i < message.tokens.size(); i++) {
            Token token = message.tokens.get(i);
            String word = Folding.fold(token.text());
            if (!token.isHebrew() && word.length() >= 5 && Typos.typoOf(word, wanted)) {
                return i;
            }
        }
        return -1;
    }

    /** A message read once: its words and each word's forms. */
    static final class Message {
        final String text;
        final List<Token> tokens;
        final List<Set<String>> forms;

        Message(String text) {
            this.text = text;
            this.tokens = Tokens.of(text);
            List<Set<String>> forms = new ArrayList<>(tokens.size());
            for (Token token : tokens) {
                forms.add(Forms.of(token.text()));
            }
            this.forms = forms;
        }

        /** The index of the first word where {@code phrase} starts, or -1. */
        int find(List<String> phrase) {
            outer:
            for (int i = 0; i + phrase.size() <= tokens.size(); i++) {
                for (int j = 0; j < phrase.size(); j++) {
                    if (!forms.get(i + j).contains(phrase.get(j))) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }

        String lower() {
            return text.toLowerCase(Locale.ROOT);
        }

        /** The text from word {@code index} on. */
        String from(int index) {
            return index >= tokens.size()
                    ? ""
                    : text.substring(tokens.get(index).start());
        }

        /** The text before word {@code index}. */
        String before(int index) {
            return index >= tokens.size()
                    ? text
                    : text.substring(0, tokens.get(index).start());
        }
    }
}
