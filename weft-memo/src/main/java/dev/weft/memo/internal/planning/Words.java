package dev.weft.memo.internal.planning;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Words the readers share: request verbs, how a text is trimmed, how items are listed. */
final class Words {
    static final int FLAGS = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.UNICODE_CHARACTER_CLASS;

    static final Pattern DELETE = Pattern.compile(
            "\\b(?:delete|remove|cancel|erase|clear|scrap|drop|wipe|get rid of|turn off|disable|call off|take .* off)\\b"
                    + "|מחק|תמחק|תמחקי|למחוק|הסר|תסיר|בטל|תבטל|תבטלי|לבטל|תוריד|הורד|תורידי|תכבה|תכבי|תנקה|תפנה",
            FLAGS);
    static final Pattern ALL = Pattern.compile("\\ball\\b|\\bevery(?:thing)?\\b|כל ה|הכל|את כל", FLAGS);
    static final Pattern QUERY = Pattern.compile(
            "^(?:what|which|show|list|tell me|send me|do i have|give me|get|find|look up|search|when|where|is|are|am|any|"
                    + "how many|have i|did i|check)\\b|\\?\\s*$"
                    + "|^(?:מה|אילו|איזה|איזו|תראה|הראה|תראי|תשלח לי|שלח לי|תגיד לי|יש לי|תמצא|מצא|תחפש|חפש|מתי|איפה|"
                    + "כמה|האם|תבדוק|תבדקי|יש)",
            FLAGS);

    private Words() {}

    /** The group of the two that matched: a pattern's English and Hebrew alternatives. */
    static String either(Matcher m, String english, String hebrew) {
        return m.group(english) != null ? m.group(english) : m.group(hebrew);
    }

    // Compiled once: trim runs many times for every message.
    private static final Pattern TRAIL_EN = Pattern.compile("(?iU)\\s+(?:at|on|in|by|for|from|to)\\s*$");
    private static final Pattern TRAIL_HE = Pattern.compile("(?U)\\s+(?:ב|ב-|מ|עד|ל|ל-)\\s*$");
    private static final Pattern SPACES = Pattern.compile("\\s{2,}");
    private static final Pattern MARKS = Pattern.compile("^[\\s,.:;!\\-\"']+|[\\s,.:;!?\\-\"']+$");

    /** What is left of a text once its request words are gone, without dangling prepositions and marks. */
    static String trim(String text) {
        String trimmed = TRAIL_EN.matcher(text).replaceAll("");
        trimmed = TRAIL_HE.matcher(trimmed).replaceAll("");
        trimmed = SPACES.matcher(trimmed).replaceAll(" ");
        return MARKS.matcher(trimmed).replaceAll("");
    }

    /** Items said in a row: "milk, eggs and bread", "חלב, ביצים ולחם". */
    static List<String> items(String text, String language) {
        List<String> items = new ArrayList<>();
        String[] pieces = language.equals("he")
                ? text.split("\\s*,\\s*|\\s+ו(?=[\\p{L}])(?=\\S+\\s*$)")
                : text.split("(?iU)\\s*,\\s*(?:and\\s+)?|\\s+and\\s+");
        if (language.equals("he") && pieces.length > 1) {
            // "חלב, ביצים ושאיבת אבק": the last comma's piece holds the last two items, joined by ו.
            String last = pieces[pieces.length - 1];
            int and = last.lastIndexOf(" ו");
            if (and > 0 && and + 2 < last.length()) {
                List<String> joined = new ArrayList<>(List.of(pieces).subList(0, pieces.length - 1));
                joined.add(last.substring(0, and));
                joined.add(last.substring(and + 2));
                pieces = joined.toArray(String[]::new);
            }
        }
        for (String piece : pieces) {
            String item = piece.trim().replaceAll("^[.!?\"'“”]+|[.!?\"'“”]+$", "");
            if (language.equals("he") && !items.isEmpty() && item.startsWith("ו") && item.length() > 2) {
                item = item.substring(1);
            }
            if (!item.isEmpty()) {
                items.add(item);
            }
        }
        return items;
    }

    /** Something a request keeps out of its scope, and where it says so. */
    record Kept(String said, dev.weft.time.Span span) {}

    /**
     * What a request keeps out of its scope: "but keep the 1:1", "except lunch", "other than the
     * standup", "חוץ מה-1:1", "מלבד הפגישה עם דנה", "אבל תשאיר את …". Empty when it names none.
     */
    static List<Kept> exceptions(String text, String language) {
        Matcher m = EXCEPT.matcher(text);
        List<Kept> kept = new ArrayList<>();
        while (m.find()) {
            String said = trim(either(m, "en", "he")
                    .replaceFirst("(?iU)^(?:the|my|our|on)\\s+", "")
                    .replaceFirst("(?U)^(?:את\\s+)?(?:ה|ב)?-?(?=\\S{2,})", "")
                    .replaceFirst("(?U)^-", ""));
            for (String one : items(said, language)) {
                kept.add(new Kept(
                        one.replaceFirst("(?iU)^(?:the\\s+)?(?:ones?|thing)\\s+(?:about|for|to|with|on)\\s+", "")
                                .replaceFirst("(?iU)^(?:the|my)\\s+", "")
                                .replaceFirst("(?U)^(?:זו|זה|זאת|ההיא|ההוא)\\s+(?:של|על|עם)\\s+", "")
                                .replaceFirst("(?U)^ה-?(?=\\S{2,})", ""),
                        new dev.weft.time.Span(m.start(), m.end())));
            }
        }
        return kept;
    }

    private static final Pattern EXCEPT = Pattern.compile(
            "\\s*,?\\s*\\b(?:but (?:keep|leave|not|don'?t (?:touch|delete|cancel|remove))|except(?: for)?|other than|apart from"
                    + "|besides|save for|excluding|leaving out)\\s+(?<en>.+?)(?=\\s*(?:[,.;!?]|$))"
                    + "|\\s*,?\\s*(?:חוץ מ|מלבד|פרט ל|אבל (?:תשאיר|תשאירי|לא את|בלי)\\s*(?:את\\s+)?|בלי\\s+)(?<he>.+?)(?=\\s*(?:[,.;!?]|$))",
            FLAGS);
}
