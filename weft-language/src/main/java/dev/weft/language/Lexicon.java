package dev.weft.language;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Everyday nouns in English and Hebrew ({@code lexicon.tsv}: "dentist" is "רופא שיניים"), so that a
 * thing named in one language is found by words of the other. A phrase is matched word by word under
 * each word's {@link Forms#of forms}, so "רופא השיניים" (its second word with the definite ה) and
 * "dentists" are found. Stateless.
 */
public final class Lexicon {
    /** One meaning: its English phrases and its Hebrew phrases, each as folded words. */
    record Entry(List<List<String>> english, List<List<String>> hebrew, String englishName, String hebrewName) {}

    private static final List<Entry> ENTRIES = load();

    private Lexicon() {}

    private static List<Entry> load() {
        List<Entry> entries = new ArrayList<>();
        for (String[] row : Data.rows("lexicon.tsv")) {
            if (row.length != 2) {
                throw new IllegalStateException(
                        "lexicon.tsv: a row is 'english<TAB>hebrew|hebrew', was " + String.join("|", row));
            }
            List<List<String>> english = phrases(row[0]);
            List<List<String>> hebrew = phrases(row[1]);
            entries.add(new Entry(english, hebrew, row[0].split("\\|")[0], row[1].split("\\|")[0]));
        }
        return List.copyOf(entries);
    }

    private static List<List<String>> phrases(String cell) {
        List<List<String>> phrases = new ArrayList<>();
        for (String phrase : cell.split("\\|")) {
            List<String> words = Tokens.folded(phrase);
            if (!words.isEmpty()) {
                phrases.add(List.copyOf(words));
            }
        }
        return phrases;
    }

    /**
     * {@code text} said in the other language where the lexicon knows its words: for each phrase of the
     * lexicon that {@code text} holds, the text with that phrase put in the other language ("תזיז את
     * רופא השיניים לשבע" → "תזיז את dentist לשבע"; "the dentist" → "the רופא שיניים"). Longer phrases
     * are tried first and a word is translated once. Empty when the lexicon knows none of its words.
     */
    public static List<String> translations(String text) {
        List<Token> tokens = Tokens.of(text);
        if (tokens.isEmpty()) {
            return List.of();
        }
        List<Set<String>> forms = new ArrayList<>(tokens.size());
        for (Token token : tokens) {
            forms.add(Forms.of(token.text()));
        }
        boolean[] taken = new boolean[tokens.size()];
        String[] replacement = new String[tokens.size()];
        int[] span = new int[tokens.size()];
        boolean any = false;
        for (int length = 3; length >= 1; length--) {
            for (Entry entry : ENTRIES) {
                any |= translate(entry.english(), entry.hebrewName(), length, forms, taken, replacement, span);
                any |= translate(entry.hebrew(), entry.englishName(), length, forms, taken, replacement, span);
            }
        }
        if (!any) {
            return List.of();
        }
        StringBuilder out = new StringBuilder();
        int at = 0;
        for (int i = 0; i < tokens.size(); i++) {
            if (replacement[i] != null) {
                Token first = tokens.get(i);
                Token last = tokens.get(i + span[i] - 1);
                out.append(text, at, first.start()).append(replacement[i]);
                at = last.end();
            }
        }
        out.append(text, at, text.length());
        return List.of(out.toString());
    }

    /** The other language's name for {@code phrase} when the lexicon holds it whole ("dentist" → "רופא שיניים"). */
    public static Set<String> counterparts(String phrase) {
        List<String> words = new ArrayList<>();
        for (Token token : Tokens.of(phrase)) {
            words.add(token.folded());
        }
        Set<String> out = new LinkedHashSet<>();
        for (Entry entry : ENTRIES) {
            if (holds(entry.english(), words)) {
                out.add(entry.hebrewName());
            }
            if (holds(entry.hebrew(), words)) {
                out.add(entry.englishName());
            }
        }
        return out;
    }

    private static boolean holds(List<List<String>> phrases, List<String> words) {
        for (List<String> phrase : phrases) {
            if (phrase.size() == words.size()) {
                boolean all = true;
                for (int i = 0; i < phrase.size() && all; i++) {
                    all = Forms.of(words.get(i)).contains(phrase.get(i));
                }
                if (all) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean translate(
            List<List<String>> phrases,
            String name,
            int length,
            List<Set<String>> forms,
            boolean[] taken,
            String[] replacement,
            int[] span) {
        boolean any = false;
        for (List<String> phrase : phrases) {
            if (phrase.size() != length) {
                continue;
            }
            for (int i = 0; i + length <= forms.size(); i++) {
                boolean match = true;
                for (int j = 0; j < length && match; j++) {
                    match = !taken[i + j] && forms.get(i + j).contains(phrase.get(j));
                }
                if (match) {
                    for (int j = 0; j < length; j++) {
                        taken[i + j] = true;
                    }
                    replacement[i] = name;
                    span[i] = length;
                    any = true;
                }
            }
        }
        return any;
    }
}
