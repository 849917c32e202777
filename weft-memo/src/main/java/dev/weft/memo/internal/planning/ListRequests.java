package dev.weft.memo.internal.planning;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.internal.understanding.Intent;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How Memo reads a request about lists and notes: which list (its name before "list", after "list
 * called", or the Hebrew construct "רשימת קניות"), the items named before the list ("add milk and
 * eggs to the shopping list") or after it ("…with milk, eggs and bread"), and what to do with them.
 */
public final class ListRequests {
    private static final int FLAGS = Words.FLAGS;

    static final Pattern ADD = Pattern.compile(
            "^(?:please\\s+)?(?:add|put|throw|include|append|write|note)\\b|^(?:תוסיף|תוסיפי|הוסף|הוסיפי|תכניס|תרשום|רשום|תשים)",
            FLAGS);
    private static final Pattern EN_LIST_CALLED = Pattern.compile(
            "\\b(?:list|note)\\s+(?:called|named|titled)\\s+(?<name>[\\p{L}\\p{N}' -]+?)\\s*(?:\\bwith\\b|:|$)"
                    + "|\\b(?:list|note)\\s+(?:for|of)\\s+(?:the\\s+|my\\s+|a\\s+)?(?<purpose>[\\p{L}\\p{N}' -]+?)\\s*(?:\\bwith\\b|:|$)",
            FLAGS);
    private static final Pattern EN_BEFORE_LIST = Pattern.compile("^(?<before>.*?)\\s*\\b(?:list|note)\\b", FLAGS);
    private static final Pattern HE_LIST_NAMED = Pattern.compile(
            "רשימת\\s+(?:ה)?(?<name>[\\p{L}\\p{N}'\"-]+(?:\\s+(?!עם|של|ל|ב)[\\p{L}\\p{N}'\"-]+)?)|רשימה\\s+(?:בשם|שנקראת)\\s+(?<named>[\\p{L}\\p{N}'\" -]+)",
            FLAGS);
    private static final Pattern HE_LIST_FOR = Pattern.compile(
            "(?:רשימה|פתק)\\s+(?:בשם|שנקרא|שנקראת|של|עבור)\\s+(?:ה)?(?<name>[\\p{L}\\p{N}'\" -]+?)\\s*(?:\\sעם\\s|:|$)"
                    + "|רשימה\\s+ל(?:ה)?(?<purpose>\\p{L}[\\p{L}\\p{N}'\"-]*(?:\\s+(?!עם)\\p{L}[\\p{L}\\p{N}'\"-]*)?)\\s*(?:\\sעם\\s|:|$)",
            FLAGS);
    private static final Pattern DETERMINER = Pattern.compile("\\b(?:the|my|a|an|our|your|new)\\s+", FLAGS);
    private static final Pattern LIST_VERB_OR_PREPOSITION = Pattern.compile(
            "\\b(?:to|from|on|in|of|off|create|make|start|show|me|open|read|check|clear|delete)\\s+", FLAGS);
    private static final Pattern HE_ITEMS_AFTER = Pattern.compile("(?:עם|:)\\s*(.+)$", FLAGS);
    private static final Pattern EN_ITEMS_AFTER = Pattern.compile("(?:with|of|containing|:)\\s+(.+)$", FLAGS);
    private static final Pattern SHOPPING_WORDS = Pattern.compile(
            "\\b(?:buy|bought|shopping|groceries|grocery|out of|ran out)\\b|קניות|לקנות|קניתי|נגמר|סופר", FLAGS);

    /** A list named first, its items after it: "לרשימת הקניות עגבניות ומלפפונים", "לרשימה: חלב". */
    private static final Pattern HE_AFTER_LIST = Pattern.compile(
            "(?:^|\\s)(?:ל|ב)(?:רשימת\\s+(?:ה)?(?<name>[\\p{L}\\p{N}'\"-]+)|(?:ה)?רשימה(?:\\s+(?:שלי|שלנו))?)\\s*[:,-]?\\s+(?:את\\s+)?(?<items>\\S.*)$",
            FLAGS);

    /** "add to my shopping list eggs and milk", "put on the list: bread". */
    private static final Pattern EN_AFTER_LIST = Pattern.compile(
            "\\b(?:to|on|onto)\\s+(?:the\\s+|my\\s+|our\\s+)?(?:(?<name>[\\p{L}\\p{N}'-]+(?:\\s+[\\p{L}\\p{N}'-]+)?)\\s+)?list\\s*[:,-]?\\s+(?<items>\\S.*)$",
            FLAGS);

    private ListRequests() {}

    static Reading read(Intent intent, Request r) {
        ObjectNode c = Json.object();
        String text = r.text();
        String language = r.language();
        Optional<String> name = listName(text, language);
        if (name.isEmpty() && SHOPPING_WORDS.matcher(text).find() && intent != Intent.LIST_CREATE) {
            name = Optional.of(r.hebrew() ? "קניות" : "shopping");
        }
        name.ifPresent(n -> c.put("listName", n));
        return switch (intent) {
            case LIST_CREATE -> {
                ArrayNode items = c.putArray("items");
                itemsAfter(text, language).forEach(items::add);
                c.put("isChecklist", !items.isEmpty() || !text.matches("(?iU).*(?:\\bnotes?\\b|פתק).*"));
                yield Reading.of("database", "create_list", c);
            }
            case LIST_ADD -> {
                ArrayNode items = c.putArray("items");
                List<String> before = itemsBefore(text, language);
                if (before.isEmpty()) {
                    // "תוסיף לרשימת הקניות עגבניות ומלפפונים", "add to my shopping list: eggs and milk": after it.
                    Matcher after = (r.hebrew() ? HE_AFTER_LIST : EN_AFTER_LIST).matcher(text);
                    if (after.find()) {
                        List<String> named = Words.items(after.group("items"), language);
                        if (!named.isEmpty()) {
                            before = named;
                            if (after.group("name") != null) {
                                c.put("listName", after.group("name").trim());
                            }
                        }
                    }
                }
                before.forEach(items::add);
                yield Reading.of("database", "add_item", c);
            }
            case LIST_REMOVE_ITEM -> {
                List<String> items = itemsBefore(text, language);
                c.put("item", items.isEmpty() ? "" : items.get(0));
                yield Reading.of("database", "delete_item", c);
            }
            case LIST_CHECK -> {
                List<String> items = itemsBefore(text, language);
                c.put("item", items.isEmpty() ? "" : items.get(0));
                yield Reading.of("database", "toggle_item", c);
            }
            case LIST_DELETE -> Reading.of("database", "delete_list", c);
            default -> Reading.of("database", "find_list", c);
        };
    }

    static Optional<String> listName(String text, String language) {
        if (language.equals("en")) {
            Matcher before = EN_BEFORE_LIST.matcher(text);
            if (before.find()) {
                String words = before.group("before").trim();
                Matcher det = DETERMINER.matcher(words);
                int from = -1;
                while (det.find()) {
                    from = det.end();
                }
                if (from < 0) {
                    Matcher prep = LIST_VERB_OR_PREPOSITION.matcher(words);
                    while (prep.find()) {
                        from = prep.end();
                    }
                }
                String name = (from < 0 ? words : words.substring(from)).trim();
                if (name.equalsIgnoreCase("to-do") || name.equalsIgnoreCase("todo") || name.equalsIgnoreCase("to do")) {
                    return Optional.of("to-do");
                }
                if (!name.isEmpty()
                        && !name.matches(
                                "(?iU)(?:a|an|the|my|new|all|a new|create|make|show|add|delete|remove|what's on|whats on|what is on|on|read|open|check|clear)")
                        && name.split("\\s+").length <= 3) {
                    return Optional.of(name.toLowerCase(Locale.ROOT));
                }
            }
            Matcher called = EN_LIST_CALLED.matcher(text);
            if (called.find()) {
                return Optional.of(
                        Words.either(called, "name", "purpose").trim().toLowerCase(Locale.ROOT));
            }
            return Optional.empty();
        }
        Matcher named = HE_LIST_NAMED.matcher(text);
        while (named.find()) {
            String name = named.group("named") != null ? named.group("named") : named.group("name");
            if (name != null && !name.isBlank()) {
                return Optional.of(name.trim());
            }
        }
        Matcher purpose = HE_LIST_FOR.matcher(text);
        if (purpose.find()) {
            return Optional.of(Words.either(purpose, "name", "purpose").trim());
        }
        return Optional.empty();
    }

    /** Items named before the list: "add milk and eggs to the shopping list", "תוסיף חלב לרשימה". */
    static List<String> itemsBefore(String text, String language) {
        String part;
        if (language.equals("he")) {
            part = text.replaceAll(
                            "(?U)^(?:בבקשה\\s+)?(?:(?:תוריד|הורד|תורידי) את הסימון\\s+מ(?:ה)?|(?:תוסיף|תוסיפי|הוסף|הוסיפי|תכניס|תרשום|רשום|"
                                    + "תשים|תמחק|מחק|תמחקי|תוריד|הורד|תורידי|תוציא|סמן|תסמן|תסמני|קניתי)(?:\\s+את)?\\s+)",
                            "")
                    .replaceAll("(?U)^(?:נגמר|נגמרו|נגמרה)\\s+(?:ה)?", "")
                    .replaceAll(
                            "(?U)\\s*,?\\s*(?:תוסיף|תכניס|תסמן|תוריד)(?:\\s+את\\s+זה)?(?:\\s+(?:ל|מ)(?:ה)?רשימה)?\\s*$",
                            "")
                    .replaceAll("(?U)(?:^|\\s+)(?:ל|מ|ב)?(?:ה)?רשימ.*$", "")
                    .replaceAll("(?U)\\s+(?:כנקנה|כבוצע)\\s*$", "");
        } else {
            part = text.replaceAll(
                            "(?iU)^(?:please\\s+|can you\\s+|could you\\s+)*(?:add|put|throw|include|append|write|note|delete|remove|take|"
                                    + "scratch|tick|check off|check|cross off|cross|mark|uncheck|untick|i bought|got the|got)\\s+",
                            "")
                    .replaceAll("(?iU)^(?:we're|we are|i'm|i am)\\s+(?:out of|low on)\\s+", "")
                    .replaceAll("(?iU)\\s*,\\s*(?:put|add|check|tick|take)\\s+(?:it|them)\\b.*$", "")
                    .replaceAll("(?iU)^i (?:don't|do not) need\\s+(.+?)\\s+anymore.*$", "$1")
                    .replaceAll(
                            "(?iU)(?:^|\\s+)(?:to|from|on|in|off|onto)\\s+(?:the |my |a )?[\\p{L}\\p{N}' -]*list\\b.*$",
                            "")
                    .replaceAll("(?iU)(?:^|\\s+)(?:off|from)\\s+(?:the |my )?(?:list|it)\\b.*$", "")
                    .replaceAll("(?iU)\\s+(?:as )?(?:done|bought|checked)\\s*$", "")
                    .replaceAll("(?iU)\\s+(?:off|too|as well)\\s*$", "");
        }
        return Words.items(part, language);
    }

    /** Items named after the list: "create a shopping list with milk, eggs and bread", "...עם חלב וביצים". */
    static List<String> itemsAfter(String text, String language) {
        Matcher m = (language.equals("he") ? HE_ITEMS_AFTER : EN_ITEMS_AFTER).matcher(text);
        return m.find() ? Words.items(m.group(1), language) : List.of();
    }
}
