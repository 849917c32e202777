package dev.weft.concierge.shop;

import dev.weft.language.Folding;
import dev.weft.language.Forms;
import dev.weft.language.Token;
import dev.weft.language.Tokens;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Option values by their many names, as customers write them in English and Hebrew ("blue",
 * "כחולה", "medium", "במידה M", "500 ml"): the shop's own words, as data, over the language layer's
 * {@link Tokens} and {@link Forms}. Stateless.
 */
public final class OptionValues {
    private OptionValues() {}

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
    public static List<String> named(String text, Set<String> values) {
        List<Token> tokens = Tokens.of(joinUnits(text));
        Map<Integer, String> found = new java.util.TreeMap<>();
        for (String value : values) {
            List<String> names = new ArrayList<>();
            names.add(value);
            names.addAll(SYNONYMS.getOrDefault(value, List.of()));
            for (String name : names) {
                List<Token> nameTokens = Tokens.of(name);
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
                && DEGREE_AFTER.contains(Folding.fold(tokens.get(at + length).text()));
        return before || after;
    }

    private static boolean matchesAt(List<Token> tokens, int at, List<Token> name, boolean letterSize) {
        for (int j = 0; j < name.size(); j++) {
            Token token = tokens.get(at + j);
            String wanted = Folding.fold(name.get(j).text());
            if (!Forms.of(token.text()).contains(wanted)) {
                return false;
            }
            if (letterSize && name.size() == 1) {
                boolean capital = token.text().equals(token.text().toUpperCase(Locale.ROOT))
                        && !token.text().equals(token.text().toLowerCase(Locale.ROOT));
                boolean afterSizeWord = at > 0
                        && SIZE_WORDS.contains(Folding.fold(tokens.get(at - 1).text()));
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
    public static Set<String> all(List<Product> products) {
        Set<String> values = new LinkedHashSet<>();
        for (Product product : products) {
            product.variants().forEach(v -> values.addAll(v.options().values()));
        }
        return values;
    }
}
