package dev.weft.mailflow.internal;

import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Numbers written in words, English and Hebrew, as guest counts are ("fifty", "מאה וחמישים"). Stateless. */
final class Numbers {
    private static final Map<String, Integer> ENGLISH = Map.ofEntries(
            Map.entry("a", 1),
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
            Map.entry("a dozen", 12));

    /** Hebrew numbers as counted (both genders), tens and hundreds. */
    private static final Map<String, Integer> HEBREW = Map.ofEntries(
            Map.entry("אחד", 1),
            Map.entry("שניים", 2),
            Map.entry("שתיים", 2),
            Map.entry("שלושה", 3),
            Map.entry("שלוש", 3),
            Map.entry("ארבעה", 4),
            Map.entry("ארבע", 4),
            Map.entry("חמישה", 5),
            Map.entry("חמש", 5),
            Map.entry("שישה", 6),
            Map.entry("שש", 6),
            Map.entry("שבעה", 7),
            Map.entry("שבע", 7),
            Map.entry("שמונה", 8),
            Map.entry("תשעה", 9),
            Map.entry("תשע", 9),
            Map.entry("עשרה", 10),
            Map.entry("עשר", 10),
            Map.entry("עשרים", 20),
            Map.entry("שלושים", 30),
            Map.entry("ארבעים", 40),
            Map.entry("חמישים", 50),
            Map.entry("שישים", 60),
            Map.entry("שבעים", 70),
            Map.entry("שמונים", 80),
            Map.entry("תשעים", 90),
            Map.entry("מאה", 100),
            Map.entry("מאתיים", 200),
            Map.entry("אלף", 1000),
            Map.entry("שלוש מאות", 300),
            Map.entry("ארבע מאות", 400),
            Map.entry("חמש מאות", 500),
            Map.entry("שש מאות", 600),
            Map.entry("שבע מאות", 700),
            Map.entry("שמונה מאות", 800),
            Map.entry("תשע מאות", 900),
            Map.entry("אחד עשר", 11),
            Map.entry("אחת עשרה", 11),
            Map.entry("שנים עשר", 12),
            Map.entry("שתים עשרה", 12),
            Map.entry("שתיים עשרה", 12),
            Map.entry("שלושה עשר", 13),
            Map.entry("שלוש עשרה", 13),
            Map.entry("ארבעה עשר", 14),
            Map.entry("ארבע עשרה", 14),
            Map.entry("חמישה עשר", 15),
            Map.entry("חמש עשרה", 15),
            Map.entry("שישה עשר", 16),
            Map.entry("שש עשרה", 16),
            Map.entry("שבעה עשר", 17),
            Map.entry("שבע עשרה", 17),
            Map.entry("שמונה עשר", 18),
            Map.entry("שמונה עשרה", 18),
            Map.entry("תשעה עשר", 19),
            Map.entry("תשע עשרה", 19));

    static final String ENGLISH_WORD =
            "(?:(?:a\\s+)?(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen"
                    + "|seventeen|eighteen|nineteen|twenty|thirty|fou?rty|fifty|sixty|seventy|eighty|ninety|a|dozen|hundred"
                    + "|thousand)(?:[\\s-]+(?:and\\s+)?(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
                    + "|twenty|thirty|fou?rty|fifty|sixty|seventy|eighty|ninety|hundred|thousand))*)";

    static final String HEBREW_WORD =
            "(?:(?:אחד|אחת|שנים|שתים|שתיים|שלושה|שלוש|ארבעה|ארבע|חמישה|חמש|שישה|שש|שבעה|שבע|שמונה|תשעה|תשע)"
                    + "[\\s-]+(?:עשרה|עשר)|"
                    + "(?:(?:שלוש|ארבע|חמש|שש|שבע|שמונה|תשע)\\s+מאות|מאתיים|מאה|אלף|עשרים|שלושים|ארבעים|חמישים|שישים|שבעים|שמונים|תשעים"
                    + "|עשרה|עשר|שלושה|ארבעה|חמישה|שישה|שבעה|שמונה|תשעה|שלוש|ארבע|חמש|שש|שבע|תשע)"
                    + "(?:\\s+ו(?:(?:שלוש|ארבע|חמש|שש|שבע|שמונה|תשע)\\s+מאות|מאתיים|מאה|עשרים|שלושים|ארבעים|חמישים|שישים|שבעים"
                    + "|שמונים|תשעים|עשרה|עשר|שלושה|ארבעה|חמישה|שישה|שבעה|שמונה|תשעה|שלוש|ארבע|חמש|שש|שבע|תשע))*)";

    private Numbers() {}

    /** A number written in digits ({@code 1,200}) or in English or Hebrew words. */
    static OptionalInt parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace(",", "");
        if (t.matches("\\d+")) {
            return t.length() > 6 ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(t));
        }
        if (t.matches("\\d+(\\.\\d+)?k")) {
            return OptionalInt.of((int) Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
        }
        OptionalInt english = english(t);
        return english.isPresent() ? english : hebrew(t);
    }

    private static OptionalInt english(String t) {
        Matcher words = Pattern.compile("[a-z]+").matcher(t);
        int total = 0;
        int current = 0;
        boolean any = false;
        while (words.find()) {
            String word = words.group();
            if (word.equals("and")) {
                continue;
            }
            if (word.equals("hundred")) {
                current = Math.max(current, 1) * 100;
                any = true;
            } else if (word.equals("thousand")) {
                total += Math.max(current, 1) * 1000;
                current = 0;
                any = true;
            } else if (ENGLISH.containsKey(word)) {
                current += word.equals("a") ? 0 : ENGLISH.get(word);
                if (word.equals("a")) {
                    current = Math.max(current, 0);
                }
                any = any || !word.equals("a");
            } else {
                return OptionalInt.empty();
            }
        }
        int value = total + current;
        return any && value > 0 ? OptionalInt.of(value) : OptionalInt.empty();
    }

    private static OptionalInt hebrew(String t) {
        int total = 0;
        boolean any = false;
        for (String part : t.replace('-', ' ').split("\\s+ו")) {
            Integer value = HEBREW.get(part.trim());
            if (value == null) {
                return OptionalInt.empty();
            }
            total += value;
            any = true;
        }
        return any ? OptionalInt.of(total) : OptionalInt.empty();
    }
}
