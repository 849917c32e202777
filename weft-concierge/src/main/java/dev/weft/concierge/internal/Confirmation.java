package dev.weft.concierge.internal;

import dev.weft.language.Tokens;
import java.util.List;
import java.util.Set;

/**
 * Whether a message is the customer's explicit yes, their no, or neither, in English or Hebrew: "yes",
 * "sure, go ahead", "כן, תבטל" are yes; "no", "not now", "לא תודה" are no; "yes but to my other address"
 * or a new question is neither. Stateless.
 */
public enum Confirmation {
    YES,
    NO,
    NEITHER;

    private static final List<List<String>> YES_STARTS = phrases(
            "yes",
            "yeah",
            "yep",
            "yup",
            "ya",
            "y",
            "sure",
            "ok",
            "okay",
            "k",
            "confirm",
            "confirmed",
            "i confirm",
            "correct",
            "right",
            "please do",
            "go ahead",
            "go for it",
            "do it",
            "sounds good",
            "absolutely",
            "definitely",
            "of course",
            "affirmative",
            "that's right",
            "thats right",
            "that's correct",
            "proceed",
            "please proceed",
            "alright",
            "all right",
            "fine",
            "that's fine",
            "perfect",
            "great",
            "i do",
            "yes please",
            "כן",
            "בטח",
            "אישור",
            "מאשר",
            "מאשרת",
            "אני מאשר",
            "אני מאשרת",
            "סבבה",
            "יאללה",
            "בסדר",
            "נכון",
            "קדימה",
            "תבצע",
            "תבצעי",
            "בצע",
            "אוקיי",
            "אוקי",
            "בהחלט",
            "ברור",
            "תמשיך",
            "תמשיכי",
            "מעולה",
            "אשמח",
            "כן כן",
            "no problem",
            "no worries",
            "sure thing",
            "of course",
            "certainly",
            "kk",
            "כמובן",
            "בוודאי",
            "אין בעיה",
            "לגמרי",
            "בטח שכן");
    private static final List<List<String>> NO_STARTS = phrases(
            "no",
            "nope",
            "nah",
            "n",
            "don't",
            "dont",
            "do not",
            "not now",
            "not yet",
            "never mind",
            "nevermind",
            "no thanks",
            "stop",
            "wait",
            "hold on",
            "forget it",
            "cancel that",
            "i changed my mind",
            "לא",
            "ממש לא",
            "אל",
            "עזוב",
            "עזבי",
            "רגע",
            "חכה",
            "חכי",
            "לא תודה",
            "בעצם לא",
            "תעצור",
            "תעצרי",
            "לא צריך",
            "שכח מזה");
    private static final java.util.regex.Pattern CORRECTION = java.util.regex.Pattern.compile(
            "(?i)(?<![\\w@.])#?W[- ]?\\d{4,}\\b|(?<![\\w@.])#\\d{4,}\\b|[\\w.+-]+@[\\w-]+\\.|\\b(?:i\\s+)?meant\\b|\\bi mean\\b"
                    + "|\\bwrong (?:order|one|item|email)\\b|טעיתי|התכוונתי|התכוונת|התבלבלתי|טעות שלי");
    private static final Set<String> LEADING = Set.of("please", "בבקשה", "um", "well", "oh", "hmm", "אה", "אמ");
    private static final Set<String> CHANGE_OF_MIND =
            Set.of("but", "actually", "instead", "however", "rather", "אבל", "בעצם", "במקום", "רק");
    private static final Set<String> NEGATIONS = Set.of("not", "don't", "dont", "never", "אל", "לא");

    /** What {@code text} says to a question that waits for a yes or a no. */
    public static Confirmation of(String text) {
        List<String> words = Tokens.of(text).stream()
                .map(t -> t.text().toLowerCase(java.util.Locale.ROOT).replace('’', '\''))
                .toList();
        int start = 0;
        while (start < words.size() && LEADING.contains(words.get(start))) {
            start++;
        }
        List<String> rest = words.subList(start, words.size());
        if (rest.isEmpty()) {
            return NEITHER;
        }
        int no = startsWithAny(rest, NO_STARTS);
        int yes = startsWithAny(rest, YES_STARTS);
        // The longer opening says it: "no problem" is a yes, "no" a no — unless the no goes on to put the
        // request right ("wait, I meant W1047", "רגע, טעיתי, התכוונתי ל-W1047"): that is a new message.
        if (no > 0 && no >= yes) {
            return CORRECTION.matcher(text).find() ? NEITHER : NO;
        }
        if (yes == 0) {
            return NEITHER;
        }
        List<String> after = rest.subList(yes, rest.size());
        for (int i = 0; i < after.size(); i++) {
            if (CHANGE_OF_MIND.contains(after.get(i)) && after.size() - i > 2) {
                return NEITHER;
            }
            if (NEGATIONS.contains(after.get(i))) {
                return NEITHER;
            }
        }
        return YES;
    }

    /** The length of the longest of {@code phrases} that {@code words} start with; 0 for none. */
    private static int startsWithAny(List<String> words, List<List<String>> phrases) {
        int longest = 0;
        for (List<String> phrase : phrases) {
            if (phrase.size() <= words.size()
                    && words.subList(0, phrase.size()).equals(phrase)
                    && phrase.size() > longest) {
                longest = phrase.size();
            }
        }
        return longest;
    }

    private static List<List<String>> phrases(String... phrases) {
        return java.util.Arrays.stream(phrases)
                .map(p -> Tokens.of(p).stream()
                        .map(t -> t.text().toLowerCase(java.util.Locale.ROOT))
                        .toList())
                .toList();
    }
}
