package dev.weft.time.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Mends the English time words people misspell or run together before the grammar reads them:
 * "thrusday", "wendsday", "febuary", "minuets", "tomorrowmorning", "nextweek". Stateless and
 * thread-safe.
 *
 * <p>A word of six letters or more that the grammar does not know is replaced by the one time word
 * within one edit of it (two for words of eight letters or more), an edit being a letter added,
 * dropped, changed, or two neighbours swapped. Shorter words are left alone: "might" is not "night".
 * A word that is two time words run together ("pmtomorrow") is split in two first.
 */
final class Spelling {

    /** Weekdays and words for days and their parts: both mended and split where run together. */
    private static final List<String> DAY_WORDS = List.of(
            "monday",
            "tuesday",
            "wednesday",
            "thursday",
            "friday",
            "saturday",
            "sunday",
            "tomorrow",
            "tonight",
            "yesterday",
            "morning",
            "evening",
            "afternoon");

    /** The words a misspelling is mended to. */
    private static final List<String> TARGETS = java.util.stream.Stream.concat(
                    DAY_WORDS.stream(),
                    Stream.of(
                            "mondays",
                            "tuesdays",
                            "wednesdays",
                            "thursdays",
                            "fridays",
                            "saturdays",
                            "sundays",
                            "january",
                            "february",
                            "august",
                            "september",
                            "october",
                            "november",
                            "december",
                            "minute",
                            "minutes",
                            "hours",
                            "seconds",
                            "weekend",
                            "midnight",
                            "fortnight",
                            "christmas",
                            "thanksgiving",
                            "halloween",
                            "passover",
                            "hanukkah"))
            .toList();

    private static final int[] MASKS =
            TARGETS.stream().mapToInt(Spelling::letters).toArray();

    private static final Set<String> TARGET_SET = Set.copyOf(TARGETS);

    /** Words that are right as they are, though near a target: "quarters", "evenings", "seconds". */
    private static final Set<String> KNOWN = Set.of(
            "quarters",
            "evenings",
            "mornings",
            "afternoons",
            "weekends",
            "weekdays",
            "midnights",
            "tonights",
            "tomorrows",
            "yesterdays",
            "second",
            "minutes",
            "minuter",
            "o'clock",
            "sundays");

    /** Short forms people type for time words. */
    private static final java.util.Map<String, String> SHORT_FORMS = java.util.Map.of(
            "nxt", "next", "tmw", "tomorrow", "tmrrw", "tomorrow", "wknd", "weekend", "morn", "morning");

    /** Time words that are run together ("nextweek", "tomorrowmorning"), as the two halves. */
    private static final Set<String> HALVES =
            halves("next", "last", "this", "week", "month", "year", "today", "night", "noon", "weekend", "am", "pm");

    private Spelling() {}

    private static Set<String> halves(String... words) {
        return Stream.concat(DAY_WORDS.stream(), Stream.of(words))
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    /** The tokens with misspelled English time words mended; the list itself when nothing changed. */
    static List<Token> english(List<Token> tokens) {
        List<Token> out = null;
        for (int k = 0; k < tokens.size(); k++) {
            Token t = tokens.get(k);
            List<Token> mended = t.isWord() && !t.isHebrew() ? mend(t) : null;
            if (mended != null && out == null) {
                out = new ArrayList<>(tokens.subList(0, k));
            }
            if (out != null) {
                if (mended != null) {
                    out.addAll(mended);
                } else {
                    out.add(t);
                }
            }
        }
        return out == null ? tokens : out;
    }

    /** The token mended, as one token or two; null when it stays as it is. */
    private static List<Token> mend(Token t) {
        String w = t.text();
        String full = SHORT_FORMS.get(w);
        if (full != null) {
            return List.of(new Token(full, t.start(), t.end(), Token.Kind.WORD, ""));
        }
        if (w.length() < 6 || KNOWN.contains(w) || TARGET_SET.contains(w)) {
            return null;
        }
        if (w.length() >= 6 && t.end() - t.start() == w.length()) {
            for (int cut = 2; cut <= w.length() - 4; cut++) {
                String left = w.substring(0, cut);
                String right = w.substring(cut);
                if (HALVES.contains(left) && HALVES.contains(right)) {
                    int mid = t.start() + cut;
                    return List.of(
                            new Token(left, t.start(), mid, Token.Kind.WORD, ""),
                            new Token(right, mid, t.end(), Token.Kind.WORD, ""));
                }
            }
        }
        String nearest = nearest(w);
        if (nearest != null) {
            return List.of(new Token(nearest, t.start(), t.end(), Token.Kind.WORD, ""));
        }
        return null;
    }

    /** The one target within reach of {@code w}, or null when there is none or more than one. */
    static String nearest(String w) {
        int reach = w.length() >= 8 ? 2 : 1;
        int mask = letters(w);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        boolean tie = false;
        for (int k = 0; k < TARGETS.size(); k++) {
            String target = TARGETS.get(k);
            if (Math.abs(target.length() - w.length()) > reach || Integer.bitCount(mask ^ MASKS[k]) > 2 * reach) {
                continue;
            }
            int d = distance(w, target, reach);
            if (d < bestDistance) {
                best = target;
                bestDistance = d;
                tie = false;
            } else if (d == bestDistance && d <= reach) {
                String plural = target.length() > best.length() ? target : best;
                String singular = plural.equals(target) ? best : target;
                if (plural.equals(singular + "s")) {
                    best = w.endsWith("s") ? plural : singular; // "minuts" is "minutes", "minut" "minute"
                } else {
                    tie = true;
                }
            }
        }
        return bestDistance <= reach && !tie ? best : null;
    }

    /** The letters a word holds, one bit each. */
    private static int letters(String w) {
        int mask = 0;
        for (int i = 0; i < w.length(); i++) {
            char c = w.charAt(i);
            if (c >= 'a' && c <= 'z') {
                mask |= 1 << (c - 'a');
            }
        }
        return mask;
    }

    /**
     * The edit distance between two words, counting a swap of neighbours as one edit (optimal string
     * alignment); any value above {@code reach} stands for "too far".
     */
    static int distance(String a, String b, int reach) {
        int n = a.length();
        int m = b.length();
        int[][] d = new int[n + 1][m + 1];
        for (int i = 0; i <= n; i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= m; j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= n; i++) {
            int rowMin = Integer.MAX_VALUE;
            for (int j = 1; j <= m; j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
                rowMin = Math.min(rowMin, v);
            }
            if (rowMin > reach) {
                return reach + 1;
            }
        }
        return d[n][m];
    }
}
