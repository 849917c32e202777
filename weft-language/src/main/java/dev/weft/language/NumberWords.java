package dev.weft.language;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers written in words, English and Hebrew, read once for every assistant: "fifty", "a hundred
 * and twenty", "two dozen", "מאה וחמישים", both Hebrew genders ("שלוש", "שלושה"), the construct forms
 * that count a noun ("שלושת הילדים", "שני חדרים", "שתי מנות"), and ordinals ("second", "השני",
 * "השלישית"). {@link #ENGLISH} and {@link #HEBREW} are the same words as regular expressions, for the
 * rules that find a number inside a longer phrase. Stateless.
 */
public final class NumberWords {
    private static final Map<String, Integer> ENGLISH_WORDS = Map.ofEntries(
            Map.entry("zero", 0),
            Map.entry("one", 1),
            Map.entry("two", 2),
            Map.entry("three", 3),
            Map.entry("four", 4),
            Map.entry("five", 5),
            Map.entry("six", 6),
            Map.entry("seven", 7),
            Map.entry("eight", 8),
            Map.entry("nine", 9),
            Map.entry("ten", 10),
            Map.entry("eleven", 11),
            Map.entry("twelve", 12),
            Map.entry("thirteen", 13),
            Map.entry("fourteen", 14),
            Map.entry("fifteen", 15),
            Map.entry("sixteen", 16),
            Map.entry("seventeen", 17),
            Map.entry("eighteen", 18),
            Map.entry("nineteen", 19),
            Map.entry("twenty", 20),
            Map.entry("thirty", 30),
            Map.entry("forty", 40),
            Map.entry("fourty", 40),
            Map.entry("fifty", 50),
            Map.entry("sixty", 60),
            Map.entry("seventy", 70),
            Map.entry("eighty", 80),
            Map.entry("ninety", 90),
            Map.entry("dozen", 12),
            Map.entry("couple", 2));

    /** Hebrew numbers as counted, both genders and the construct forms, folded (final letters as inner ones). */
    private static final Map<String, Integer> HEBREW_WORDS = new HashMap<>();

    private static final Map<String, Integer> ORDINALS = new HashMap<>();

    static {
        hebrew(1, "אחד", "אחת");
        hebrew(2, "שניים", "שתיים", "שנים", "שתים", "שני", "שתי");
        hebrew(3, "שלושה", "שלוש", "שלושת", "שלש", "שלשה");
        hebrew(4, "ארבעה", "ארבע", "ארבעת");
        hebrew(5, "חמישה", "חמש", "חמשת", "חמשה");
        hebrew(6, "שישה", "שש", "ששת", "ששה");
        hebrew(7, "שבעה", "שבע", "שבעת");
        hebrew(8, "שמונה", "שמונת");
        hebrew(9, "תשעה", "תשע", "תשעת");
        hebrew(10, "עשרה", "עשר", "עשרת");
        hebrew(20, "עשרים");
        hebrew(30, "שלושים", "שלשים");
        hebrew(40, "ארבעים");
        hebrew(50, "חמישים");
        hebrew(60, "שישים", "ששים");
        hebrew(70, "שבעים");
        hebrew(80, "שמונים");
        hebrew(90, "תשעים");
        hebrew(100, "מאה", "מאת");
        hebrew(200, "מאתיים");
        hebrew(1000, "אלף");
        hebrew(2000, "אלפיים");
        hebrew(12, "תריסר");
        ordinal(1, "first", "1st", "ראשון", "ראשונה");
        ordinal(2, "second", "2nd", "שני", "שנייה", "שניה");
        ordinal(3, "third", "3rd", "שלישי", "שלישית");
        ordinal(4, "fourth", "4th", "רביעי", "רביעית");
        ordinal(5, "fifth", "5th", "חמישי", "חמישית");
        ordinal(6, "sixth", "6th", "שישי", "שישית");
        ordinal(7, "seventh", "7th", "שביעי", "שביעית");
        ordinal(8, "eighth", "8th", "שמיני", "שמינית");
        ordinal(9, "ninth", "9th", "תשיעי", "תשיעית");
        ordinal(10, "tenth", "10th", "עשירי", "עשירית");
        ordinal(-1, "last", "אחרון", "אחרונה");
    }

    private static void hebrew(int value, String... words) {
        for (String word : words) {
            HEBREW_WORDS.put(Folding.fold(word), value);
        }
    }

    private static void ordinal(int value, String... words) {
        for (String word : words) {
            ORDINALS.put(Folding.fold(word), value);
        }
    }

    private static final String EN_UNITS = "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen"
            + "|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|fou?rty|fifty|sixty|seventy|eighty"
            + "|ninety";

    /** An English number in words, as a regular expression without groups of its own ("a hundred and fifty"). */
    public static final String ENGLISH = "(?:(?:a\\s+)?(?:" + EN_UNITS + "|a|dozen|couple|hundred|thousand)"
            + "(?:[\\s-]+(?:and\\s+)?(?:" + EN_UNITS + "|hundred|thousand|dozen))*)";

    private static final String HE_UNIT =
            "(?:שלושה|שלושת|שלוש|ארבעה|ארבעת|ארבע|חמישה|חמשת|חמש|שישה|ששת|שש|שבעה|שבעת|שבע|שמונה"
                    + "|שמונת|תשעה|תשעת|תשע|עשרה|עשרת|עשר)";
    private static final String HE_TERM =
            "(?:(?:שלוש|ארבע|חמש|שש|שבע|שמונה|תשע)\\s+מאות|מאתיים|מאה|אלפיים|אלף|עשרים|שלושים"
                    + "|ארבעים|חמישים|שישים|שבעים|שמונים|תשעים|" + HE_UNIT + "|שניים|שתיים|שני|שתי|אחד|אחת)";

    /**
     * A Hebrew number in words, as a regular expression without groups of its own: the teens
     * ("שתים עשרה"), hundreds, tens and units joined by ו ("מאה ועשרים וחמישה"), and construct forms.
     */
    public static final String HEBREW =
            "(?:(?:אחד|אחת|שנים|שתים|שתיים|שלושה|שלוש|ארבעה|ארבע|חמישה|חמש|שישה|שש|שבעה|שבע|שמונה"
                    + "|תשעה|תשע)[\\s-]+(?:עשרה|עשר)|" + HE_TERM + "(?:\\s+ו" + HE_TERM + ")*)";

    private static final Pattern DIGITS = Pattern.compile("\\d{1,6}");
    private static final Pattern THOUSANDS = Pattern.compile("\\d+(?:\\.\\d+)?k");
    private static final Pattern LATIN_WORD = Pattern.compile("[a-z]+");

    private NumberWords() {}

    /** A whole number written in digits ({@code 1,200}, {@code 1.5k}) or in English or Hebrew words; empty otherwise. */
    public static OptionalInt parse(String text) {
        String t = Folding.fold(text).replace(",", "");
        if (DIGITS.matcher(t).matches()) {
            return OptionalInt.of(Integer.parseInt(t));
        }
        if (THOUSANDS.matcher(t).matches()) {
            return OptionalInt.of((int) Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
        }
        OptionalInt english = english(t);
        return english.isPresent() ? english : hebrew(t);
    }

    /**
     * The number one word says ("seven", "שלושת", "ושניים" with its prefix letters), or empty. "a" and
     * "an" say none here: alone they are articles.
     */
    public static OptionalInt ofWord(String word) {
        String folded = Folding.fold(word);
        Integer english = ENGLISH_WORDS.get(folded.toLowerCase(Locale.ROOT));
        if (english != null) {
            return OptionalInt.of(english);
        }
        for (String form : Forms.withoutPrefixes(folded)) {
            Integer hebrew = HEBREW_WORDS.get(form);
            if (hebrew != null) {
                return OptionalInt.of(hebrew);
            }
        }
        return OptionalInt.empty();
    }

    /** The position an ordinal names ("second" → 2, "השלישית" → 3, "last" → -1), or empty. */
    public static OptionalInt ordinal(String word) {
        for (String form : Forms.withoutPrefixes(word)) {
            Integer n = ORDINALS.get(form);
            if (n != null) {
                return OptionalInt.of(n);
            }
        }
        return OptionalInt.empty();
    }

    private static OptionalInt english(String t) {
        Matcher words = LATIN_WORD.matcher(t);
        int total = 0;
        int current = 0;
        boolean any = false;
        int end = 0;
        while (words.find()) {
            if (!t.substring(end, words.start()).isBlank()
                    && !t.substring(end, words.start()).strip().equals("-")) {
                return OptionalInt.empty();
            }
            end = words.end();
            String word = words.group();
            switch (word) {
                case "and", "a", "an", "of" -> {}
                case "hundred" -> {
                    current = Math.max(current, 1) * 100;
                    any = true;
                }
                case "thousand" -> {
                    total += Math.max(current, 1) * 1000;
                    current = 0;
                    any = true;
                }
                case "dozen" -> {
                    current = Math.max(current, 1) * 12;
                    any = true;
                }
                default -> {
                    Integer value = ENGLISH_WORDS.get(word);
                    if (value == null) {
                        return OptionalInt.empty();
                    }
                    current += value;
                    any = true;
                }
            }
        }
        if (!t.substring(end).isBlank()) {
            return OptionalInt.empty();
        }
        int value = total + current;
        return any && value > 0 ? OptionalInt.of(value) : OptionalInt.empty();
    }

    private static OptionalInt hebrew(String t) {
        String[] words = t.replace('-', ' ').strip().split("\\s+");
        if (words.length == 0 || words[0].isEmpty()) {
            return OptionalInt.empty();
        }
        int total = 0;
        int i = 0;
        while (i < words.length) {
            String word = i > 0 && words[i].startsWith("ו") && words[i].length() > 2 ? words[i].substring(1) : words[i];
            if (i > 0 && !words[i].startsWith("ו") && !word.startsWith("עשר") && !word.equals("מאות")) {
                return OptionalInt.empty();
            }
            Integer value = HEBREW_WORDS.get(word);
            if (word.equals("מאות") && i > 0) {
                // "שלוש מאות": the units before it are hundreds.
                int units = HEBREW_WORDS.getOrDefault(words[i - 1].replaceFirst("^ו", ""), 0);
                total += units * 99;
                i++;
                continue;
            }
            if ((word.equals("עשר") || word.equals("עשרה")) && i > 0) {
                // "חמש עשרה": a teen, its units already counted.
                total += 10;
                i++;
                continue;
            }
            if (value == null) {
                return OptionalInt.empty();
            }
            total += value;
            i++;
        }
        return total > 0 ? OptionalInt.of(total) : OptionalInt.empty();
    }
}
