package dev.weft.language;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The name of a day or a month written with a slip, read as the name meant where a time stands:
 * "remind me frday at 9", "on wensday", "ביום שלשי". A word counts only in a time's place (after "on",
 * "next", "every"…, before "at", "morning" or a number; in Hebrew after "ביום"), within one slip of a
 * name of five to seven letters or two of a longer one (a slip is a letter changed, added, dropped, or two
 * neighbours swapped), with the name's first letter, and closer to one name than to any other; a month
 * of five to seven letters only beside a number ("mrach 3"). So "monday", "sunny", "mayday", "fridays",
 * "Frida's", "on marsh road" and "we wed in June" are left as they are. The words
 * are data ({@code date-names.tsv}). Stateless.
 */
final class MisspeltDateNames {
    private static final Map<String, Set<String>> WORDS = words();
    /** Each name folded, as it is written ("ראשונ" is written "ראשון"). */
    private static final Map<String, String> WRITTEN = written();

    private static final List<String> ENGLISH = names("weekday", "month");
    private static final List<String> HEBREW = names("he-weekday");
    private static final Set<String> WEEKDAYS = WORDS.get("weekday");
    /** "9", "3rd", "9am", "21:00": a number where a time or a day of the month stands. */
    private static final java.util.regex.Pattern NUMBER =
            java.util.regex.Pattern.compile("\\d+(?:st|nd|rd|th|am|pm|a|p)?");

    private MisspeltDateNames() {}

    /**
     * The name {@code tokens.get(i)} stands for when it is a day's or a month's name written with a
     * slip where a time stands, as the name is written (lower case); empty otherwise.
     */
    static Optional<String> meant(List<Token> tokens, int i) {
        Token token = tokens.get(i);
        String word = token.folded();
        // "Frida's", "mon'day": a possessive or a contraction is a word of its own, not a slip.
        if (word.length() < 3
                || !word.chars().allMatch(Character::isLetter)
                || token.text().chars().anyMatch(c -> "'’׳\"״".indexOf(c) >= 0)
                || WORDS.get("words").contains(word)) {
            return Optional.empty();
        }
        String before = i > 0 ? tokens.get(i - 1).folded() : "";
        String after = i + 1 < tokens.size() ? tokens.get(i + 1).folded() : "";
        if (token.isHebrew()) {
            return WORDS.get("he-day").contains(before) ? closest(word, HEBREW) : Optional.empty();
        }
        if (word.length() < 4) {
            return Optional.empty();
        }
        if (NUMBER.matcher(before).matches() || NUMBER.matcher(after).matches()) {
            return closest(word, ENGLISH);
        }
        boolean afterATimeWord = WORDS.get("before").contains(before);
        // Before "at 9" a capital is a name ("meet Frida at 9"), not a slip of "friday".
        boolean beforeATimeWord = WORDS.get("after").contains(after)
                && (i == 0 || !Character.isUpperCase(token.text().charAt(0)));
        if (!afterATimeWord && !beforeATimeWord) {
            return Optional.empty();
        }
        // A month of five to seven letters is one slip from too many words ("on marsh road"): without a
        // day of the month beside it, only a long month's name ("on septmber") is read.
        return closest(word, ENGLISH).filter(name -> WEEKDAYS.contains(name) || name.length() >= 8);
    }

    /** The one name {@code word} is a slip of, none when it is a name, a plural of one, or near two. */
    private static Optional<String> closest(String word, List<String> names) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        boolean tie = false;
        for (String name : names) {
            if (word.equals(name) || word.equals(name + "s")) {
                return Optional.empty();
            }
            int allowed = allowedSlips(name);
            if (allowed == 0 || word.charAt(0) != name.charAt(0)) {
                continue;
            }
            int distance = slips(word, name, allowed);
            if (distance <= allowed) {
                if (distance < bestDistance) {
                    best = name;
                    bestDistance = distance;
                    tie = false;
                } else if (distance == bestDistance) {
                    // Hebrew drops a yod or a vav when written without vowels ("שלשי" for "שלישי", not
                    // "שישי"): between two names as near, the one the word leaves letters out of wins.
                    boolean shorter = leavesLettersOut(word, name);
                    if (shorter != leavesLettersOut(word, best)) {
                        best = shorter ? name : best;
                        tie = false;
                    } else {
                        tie = true;
                    }
                }
            }
        }
        return best == null || tie ? Optional.empty() : Optional.of(WRITTEN.get(best));
    }

    /** Whether {@code word} is {@code name} with letters left out, in order ("frday" of "friday"). */
    private static boolean leavesLettersOut(String word, String name) {
        int at = 0;
        for (int i = 0; i < name.length() && at < word.length(); i++) {
            if (name.charAt(i) == word.charAt(at)) {
                at++;
            }
        }
        return at == word.length() && word.length() < name.length();
    }

    /**
     * How many slips a name may be written with: two for a long name ("wensday", "thrusday"), one for a
     * name of five to seven letters ("frday"), none for a shorter one ("may", "june": too many words are
     * one letter away). A Hebrew name (three to five letters) takes one.
     */
    private static int allowedSlips(String name) {
        if (Folding.hasHebrew(name)) {
            return name.length() >= 3 ? 1 : 0;
        }
        return name.length() >= 8 ? 2 : name.length() >= 5 ? 1 : 0;
    }

    /**
     * The slips between {@code a} and {@code b} (letters changed, added or dropped, and neighbours
     * swapped: the optimal string alignment distance), or {@code limit + 1} once it is over {@code limit}.
     */
    static int slips(String a, String b, int limit) {
        if (Math.abs(a.length() - b.length()) > limit) {
            return limit + 1;
        }
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            int rowMin = Integer.MAX_VALUE;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int value = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    value = Math.min(value, d[i - 2][j - 2] + 1);
                }
                d[i][j] = value;
                rowMin = Math.min(rowMin, value);
            }
            if (rowMin > limit) {
                return limit + 1;
            }
        }
        return Math.min(d[a.length()][b.length()], limit + 1);
    }

    private static Map<String, Set<String>> words() {
        Map<String, Set<String>> words = new HashMap<>();
        for (String[] row : Data.rows("date-names.tsv")) {
            if (row.length != 2) {
                throw new IllegalStateException(
                        "date-names.tsv: a row is 'kind<TAB>words', was " + String.join("|", row));
            }
            List<String> folded = new ArrayList<>();
            for (String word : row[1].split(" ")) {
                folded.add(Folding.fold(word));
            }
            words.put(row[0], Set.copyOf(folded));
        }
        return Map.copyOf(words);
    }

    private static Map<String, String> written() {
        Map<String, String> written = new HashMap<>();
        for (String[] row : Data.rows("date-names.tsv")) {
            if (row[0].endsWith("weekday") || row[0].equals("month")) {
                for (String name : row[1].split(" ")) {
                    written.put(Folding.fold(name), name);
                }
            }
        }
        return Map.copyOf(written);
    }

    private static List<String> names(String... kinds) {
        List<String> names = new ArrayList<>();
        for (String kind : kinds) {
            names.addAll(WORDS.get(kind));
        }
        return names.stream().sorted().toList();
    }
}
