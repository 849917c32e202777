package dev.weft.concierge.shop;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Words as customers write them, in English and Hebrew: tokens, their forms for matching (case folded,
 * Hebrew prefix letters and English plurals taken off), and option values by their many names ("blue",
 * "כחולה", "medium", "במידה M"). Stateless.
 */
public final class Words {
    private Words() {}

    /** A word of a text: as written, and where it starts. */
    public record Token(String text, int start) {
        public String lower() {
            return text.toLowerCase(Locale.ROOT);
        }

        public boolean isHebrew() {
            return text.chars().anyMatch(Words::isHebrewLetter);
        }
    }

    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}]+(?:['’\"׳״][\\p{L}\\p{N}]+)*['’׳]?");

    /** The words of {@code text}: letters and digits, keeping apostrophes inside a word ({@code it's}, {@code ג'קט}). */
    public static List<Token> tokens(String text) {
        List<Token> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(text);
        while (m.find()) {
            tokens.add(new Token(m.group(), m.start()));
        }
        return tokens;
    }

    static boolean isHebrewLetter(int c) {
        return c >= 0x05D0 && c <= 0x05EA;
    }

    private static final Set<String> ENGLISH_FUNCTION_WORDS = Set.of(
            "i", "i'm", "i'd", "i've", "my", "me", "the", "a", "an", "is", "are", "was", "to", "of", "and", "or", "for",
            "in", "on", "it", "it's", "this", "that", "what", "where", "when", "how", "can", "could", "would", "please",
            "want", "like", "do", "you", "your", "hi", "hello", "hey", "yes", "no", "not", "with", "from", "order");

    /**
     * The language a message is written in: {@code he} or {@code en}, by its words — Hebrew words against
     * English ones, where capitalized English words other than the common ones are names (of products, of
     * people) and say nothing of the language, nor do emails, ids ("W1002") and sizes. Empty when the
     * message says too little to tell (an email, an id, one English word such as "ok"), so that the
     * conversation's language holds.
     */
    public static java.util.Optional<String> language(String text) {
        String words = text.replaceAll("[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+", " ")
                .replaceAll("(?i)\\b[WVPCRTX]-?\\d{2,}\\b", " ")
                .replaceAll("\\b(?:XL|S|M|L|\\d+(?:ml|mm|L))\\b", " ");
        int hebrew = 0;
        int english = 0;
        for (Token token : tokens(words)) {
            String word = token.text();
            if (token.isHebrew()) {
                hebrew++;
            } else if (word.chars().anyMatch(Character::isLetter)) {
                boolean common = ENGLISH_FUNCTION_WORDS.contains(word.toLowerCase(java.util.Locale.ROOT));
                if (common || !Character.isUpperCase(word.charAt(0))) {
                    english++;
                }
            }
        }
        if (hebrew == 0 && english <= 1) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(hebrew >= english ? "he" : "en");
    }

    private static final String PREFIXES = "והבלמשכ";

    /**
     * The forms a word may match under: folded to lower case without accents or apostrophes; for a Hebrew
     * word, also without one, two or three leading prefix letters (ו, ה, ב, ל, מ, ש, כ: "ובכחול" →
     * "בכחול", "כחול"); for an English word, also without a plural ending.
     */
    public static Set<String> forms(String word) {
        String folded = fold(word);
        Set<String> forms = new LinkedHashSet<>();
        if (folded.isEmpty()) {
            return forms;
        }
        forms.add(folded);
        if (folded.chars().anyMatch(Words::isHebrewLetter)) {
            String rest = folded;
            for (int i = 0; i < 3 && rest.length() > 2 && PREFIXES.indexOf(rest.charAt(0)) >= 0; i++) {
                rest = rest.substring(1);
                forms.add(rest);
            }
            // Final letters written as inner ones after a prefix was taken off are not a concern; plural ים/ות endings
            // are.
            for (String f : List.copyOf(forms)) {
                if (f.length() > 4 && (f.endsWith("ים") || f.endsWith("ות"))) {
                    forms.add(f.substring(0, f.length() - 2));
                }
                if (f.length() > 3 && f.endsWith("ה")) {
                    forms.add(f.substring(0, f.length() - 1));
                }
            }
        } else {
            if (folded.length() > 4 && folded.endsWith("es") && !folded.endsWith("ses")) {
                forms.add(folded.substring(0, folded.length() - 2));
            }
            if (folded.length() > 3 && folded.endsWith("s") && !folded.endsWith("ss")) {
                forms.add(folded.substring(0, folded.length() - 1));
            }
        }
        return forms;
    }

    /** Lower case, without accents, apostrophes or geresh, Hebrew final letters written as inner ones. */
    public static String fold(String word) {
        String decomposed = Normalizer.normalize(word.toLowerCase(Locale.ROOT), Normalizer.Form.NFD);
        StringBuilder out = new StringBuilder(decomposed.length());
        for (int i = 0; i < decomposed.length(); i++) {
            char c = decomposed.charAt(i);
            if (Character.getType(c) == Character.NON_SPACING_MARK || "'’\"׳״-".indexOf(c) >= 0) {
                continue;
            }
            out.append(
                    switch (c) {
                        case 'ך' -> 'כ';
                        case 'ם' -> 'מ';
                        case 'ן' -> 'נ';
                        case 'ף' -> 'פ';
                        case 'ץ' -> 'צ';
                        default -> c;
                    });
        }
        return out.toString();
    }

    /** Whether {@code word} matches {@code vocabulary} under any of its forms. */
    public static boolean matches(String word, Set<String> vocabulary) {
        for (String form : forms(word)) {
            if (vocabulary.contains(form)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@link #matches}, or — for a word of six letters or more — one letter off a word of {@code
     * vocabulary} ("headphons", "backpak"): a customer's typo in a product's name.
     */
    public static boolean matchesLoosely(String word, Set<String> vocabulary) {
        if (matches(word, vocabulary)) {
            return true;
        }
        String folded = fold(word);
        if (folded.length() < 6) {
            return false;
        }
        for (String known : vocabulary) {
            if (known.length() >= 5 && typoOf(folded, known)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code word} is {@code known} written with one slip: {@link #oneEditApart one letter off}, or
     * two letters side by side swapped ("cancle" for "cancel", "retrun" for "return"); not the word itself
     * in letters only (digits name ids and sizes, not words).
     */
    public static boolean typoOf(String word, String known) {
        if (word.equals(known) || word.chars().anyMatch(Character::isDigit)) {
            return false;
        }
        if (word.length() == known.length()) {
            int i = 0;
            while (i < word.length() && word.charAt(i) == known.charAt(i)) {
                i++;
            }
            if (i + 1 < word.length()
                    && word.charAt(i) == known.charAt(i + 1)
                    && word.charAt(i + 1) == known.charAt(i)
                    && word.substring(i + 2).equals(known.substring(i + 2))) {
                return true;
            }
        }
        return Math.abs(word.length() - known.length()) <= 1 && oneEditApart(word, known);
    }

    /** Whether {@code a} becomes {@code b} by one letter changed, added or taken away. */
    static boolean oneEditApart(String a, String b) {
        if (a.equals(b)) {
            return true;
        }
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        if (a.length() == b.length()) {
            return a.substring(i + 1).equals(b.substring(i + 1));
        }
        return a.length() > b.length()
                ? a.substring(i + 1).equals(b.substring(i))
                : a.substring(i).equals(b.substring(i + 1));
    }

    /** The folded forms of every word of {@code words}, for {@link #matches}. */
    public static Set<String> vocabulary(Iterable<String> words) {
        Set<String> vocabulary = new LinkedHashSet<>();
        for (String phrase : words) {
            for (Token token : tokens(phrase)) {
                vocabulary.addAll(forms(token.text()));
            }
        }
        return vocabulary;
    }

    // ---------------------------------------------------------------- option values

    /** Other names of option values, by the value as the catalog has it. */
    private static final Map<String, List<String>> SYNONYMS = new LinkedHashMap<>();

    static {
        synonyms("white", "לבן", "לבנה", "לבנים", "לבנות");
        synonyms("blue", "navy", "כחול", "כחולה", "כחולים", "כחולות", "נייבי");
        synonyms("beige", "cream", "בז", "בז'", "שמנת");
        synonyms("black", "שחור", "שחורה", "שחורים", "שחורות");
        synonyms("green", "ירוק", "ירוקה", "ירוקים", "ירוקות");
        synonyms("gray", "grey", "אפור", "אפורה", "אפורים", "אפורות");
        synonyms("red", "אדום", "אדומה", "אדומים", "אדומות");
        synonyms("brown", "חום", "חומה", "חומים");
        synonyms("purple", "violet", "סגול", "סגולה");
        synonyms("silver", "כסף", "כסוף", "כסופה", "כסופים");
        synonyms("tortoise", "tortoiseshell", "tortoise-shell", "צב", "טורטוס");
        synonyms("S", "small", "קטן", "קטנה", "סמול");
        synonyms("M", "medium", "בינוני", "בינונית", "מדיום");
        synonyms("L", "large", "גדול", "גדולה", "לארג'", "לארג");
        synonyms("XL", "x-large", "xlarge", "אקסטרה", "extra-large");
        synonyms("500ml", "500", "0.5l", "חצי");
        synonyms("750ml", "750", "0.75l");
        synonyms("20L", "20", "20l", "20liter", "20litre");
        synonyms("30L", "30", "30l", "30liter", "30litre");
        synonyms("40mm", "40", "40mm");
        synonyms("44mm", "44", "44mm");
    }

    private static void synonyms(String value, String... others) {
        SYNONYMS.put(value, List.of(others));
    }

    private static final Set<String> SIZE_WORDS =
            Set.of("size", "sized", "in", "מידה", "במידה", "למידה", "גודל", "בגודל", "מידת");

    /**
     * The values among {@code values} (an option's values as the catalog has them: "blue", "M", "42",
     * "500ml") that {@code text} names, by the value itself or one of its other names, in the order the
     * text names them. A lone letter size (S, M, L) counts only when written in capitals or after a word
     * such as "size" or "מידה", so that "I'm" names no size.
     */
    public static List<String> optionValues(String text, Set<String> values) {
        List<Token> tokens = tokens(joinUnits(text));
        Map<Integer, String> found = new java.util.TreeMap<>();
        for (String value : values) {
            List<String> names = new ArrayList<>();
            names.add(value);
            names.addAll(SYNONYMS.getOrDefault(value, List.of()));
            for (String name : names) {
                List<Token> nameTokens = tokens(name);
                if (nameTokens.isEmpty()) {
                    continue;
                }
                for (int i = 0; i + nameTokens.size() <= tokens.size(); i++) {
                    if (comparative(tokens, i, nameTokens.size())) {
                        continue;
                    }
                    if (matchesAt(
                            tokens, i, nameTokens, value.matches("[A-Za-z]{1,2}") && name.matches("[A-Za-z]{1,2}"))) {
                        found.putIfAbsent(tokens.get(i).start(), value);
                    }
                }
            }
        }
        return List.copyOf(new LinkedHashSet<>(found.values()));
    }

    private static final Set<String> DEGREE_BEFORE =
            Set.of("too", "very", "so", "a bit", "bit", "little", "מאוד", "ממש");
    private static final Set<String> DEGREE_AFTER = Set.of("מדי", "מידי", "עליי", "עלי", "לי");

    /** "too small", "קטנה מדי", "קטנה עליי": how a thing fits, not a size asked for. */
    private static boolean comparative(List<Token> tokens, int at, int length) {
        boolean before = at > 0 && DEGREE_BEFORE.contains(tokens.get(at - 1).lower());
        boolean after = at + length < tokens.size()
                && DEGREE_AFTER.contains(fold(tokens.get(at + length).text()));
        return before || after;
    }

    private static boolean matchesAt(List<Token> tokens, int at, List<Token> name, boolean letterSize) {
        for (int j = 0; j < name.size(); j++) {
            Token token = tokens.get(at + j);
            String wanted = fold(name.get(j).text());
            if (!forms(token.text()).contains(wanted)) {
                return false;
            }
            if (letterSize && name.size() == 1) {
                boolean capital = token.text().equals(token.text().toUpperCase(Locale.ROOT))
                        && !token.text().equals(token.text().toLowerCase(Locale.ROOT));
                boolean afterSizeWord =
                        at > 0 && SIZE_WORDS.contains(fold(tokens.get(at - 1).text()));
                boolean xl = wanted.equals("xl");
                boolean hebrewSuffix = token.isHebrew();
                if (!capital && !afterSizeWord && !xl && !hebrewSuffix) {
                    return false;
                }
            }
        }
        return true;
    }

    /** "500 ml" → "500ml", "40 mm" → "40mm", "20 liters" → "20l": units written apart joined to their number. */
    static String joinUnits(String text) {
        return text.replaceAll("(?i)(\\d)\\s*(ml|mm|l|liter|liters|litre|litres|ליטר)\\b", "$1$2")
                .replaceAll("(?i)(\\d)(liters|litres|liter|litre|ליטר)", "$1l");
    }

    /** Every option value the catalog's variants have, across products. */
    public static Set<String> allOptionValues(List<Product> products) {
        Set<String> values = new LinkedHashSet<>();
        for (Product product : products) {
            product.variants().forEach(v -> values.addAll(v.options().values()));
        }
        return values;
    }
}
