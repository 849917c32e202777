package dev.weft.concierge.shop;

import dev.weft.language.Forms;
import dev.weft.language.Token;
import dev.weft.language.Tokens;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finding what a customer's words name: products of the catalog, items of their orders, variants by their
 * option values. Scores count the words that hit a product's names (two points) or the words it is known
 * by (one point); words that say nothing of a product ("the", "my", "את") hit nothing. Stateless.
 */
final class Matching {
    private Matching() {}

    private static final Pattern PRODUCT_ID = Pattern.compile("(?i)\\bP(\\d{2})\\b");
    private static final Pattern VARIANT_ID = Pattern.compile("(?i)\\bV(\\d{4})\\b");

    /** What a product is called and known by, folded for matching. */
    record Vocabulary(Set<String> names, Set<String> keywords) {}

    static Vocabulary vocabulary(Product product) {
        Set<String> names = Forms.vocabulary(List.of(product.name(), product.nameHe()));
        Set<String> keywords = Forms.vocabulary(product.keywords());
        keywords.addAll(Forms.vocabulary(List.of(product.category())));
        return new Vocabulary(names, keywords);
    }

    /** How strongly {@code text} names {@code product}: 0 when not at all; its id ("P04") counts most. */
    static int score(Product product, String text) {
        Matcher id = PRODUCT_ID.matcher(text);
        while (id.find()) {
            if (("P" + id.group(1)).equals(product.id())) {
                return 100;
            }
        }
        Vocabulary vocabulary = vocabulary(product);
        int score = 0;
        for (Token token : Tokens.of(text)) {
            if (token.text().length() < 2 && !token.isHebrew()) {
                if (!(token.lower().equals("t") && Forms.matches("t", vocabulary.names()))) {
                    continue;
                }
            }
            if (Forms.matches(token.text(), vocabulary.names())) {
                score += 2;
            } else if (Forms.matches(token.text(), vocabulary.keywords())) {
                score += 1;
            } else if (Forms.matchesLoosely(token.text(), vocabulary.names())
                    || Forms.matchesLoosely(token.text(), vocabulary.keywords())) {
                score += 1;
            }
        }
        return score;
    }

    /** The products {@code text} names best (several when they tie), best first; empty when it names none. */
    static List<Product> best(List<Product> products, String text) {
        int top = 0;
        List<Product> best = new ArrayList<>();
        for (Product product : products) {
            int score = score(product, text);
            if (score > top) {
                top = score;
                best.clear();
                best.add(product);
            } else if (score == top && score > 0) {
                best.add(product);
            }
        }
        return best;
    }

    /** Every product {@code text} names at all, best first. */
    static List<Product> ranked(List<Product> products, String text) {
        List<Product> named = new ArrayList<>(
                products.stream().filter(p -> score(p, text) > 0).toList());
        named.sort((a, b) -> Integer.compare(score(b, text), score(a, text)));
        return named;
    }

    /** The option values of {@code product}'s variants that {@code text} names. */
    static List<String> optionValues(Product product, String text) {
        Set<String> values = new LinkedHashSet<>();
        product.variants().forEach(v -> values.addAll(v.options().values()));
        return OptionValues.named(text, values);
    }

    /** The variant ids ("V0402") written in {@code text}. */
    static List<String> variantIds(String text) {
        List<String> ids = new ArrayList<>();
        Matcher m = VARIANT_ID.matcher(text);
        while (m.find()) {
            ids.add("V" + m.group(1));
        }
        return ids;
    }

    /**
     * The variants of {@code product} whose options include every value in {@code values} that the
     * product has (values of other products are ignored).
     */
    static List<Variant> variantsWith(Product product, List<String> values) {
        return product.variants().stream()
                .filter(v -> v.options().values().containsAll(values))
                .toList();
    }

    /** The variant of {@code product} named by id in {@code text}, if one is. */
    static Optional<Variant> variantNamed(Product product, String text) {
        for (String id : variantIds(text)) {
            Optional<Variant> variant = product.variant(id);
            if (variant.isPresent()) {
                return variant;
            }
        }
        return Optional.empty();
    }
}
