package dev.weft.concierge.internal;

import static dev.weft.concierge.internal.Replies.t;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** What the concierge says of orders, products and quotes, in English or Hebrew. Stateless. */
final class Listings {
    private Listings() {}

    static String order(String language, JsonNode order) {
        String id = order.path("id").asText();
        String status = order.path("status").asText();
        StringBuilder out = new StringBuilder(t(
                language,
                "Order " + id + " is " + Replies.status(language, status) + ": "
                        + Replies.items(language, order.path("items")) + " — total "
                        + Replies.money(order.path("total")) + ".",
                "הזמנה " + id + " במצב " + Replies.status(language, status) + ": "
                        + Replies.items(language, order.path("items")) + " — סך הכול "
                        + Replies.money(order.path("total")) + "."));
        if (!status.equals("cancelled")) {
            out.append(' ')
                    .append(t(
                            language,
                            (status.equals("delivered") ? "It was delivered to " : "It ships to ")
                                    + order.path("address").asText() + ".",
                            (status.equals("delivered") ? "היא נמסרה ל" : "היא נשלחת ל")
                                    + order.path("address").asText() + "."));
        }
        List<String> settled = new ArrayList<>();
        order.path("items").forEach(i -> {
            if (i.path("settled").asBoolean(false)) {
                settled.add(Replies.item(language, i));
            }
        });
        if (!settled.isEmpty()) {
            out.append(' ')
                    .append(t(
                            language,
                            "Already returned or exchanged: " + String.join(", ", settled) + ".",
                            "כבר הוחזרו או הוחלפו: " + String.join(", ", settled) + "."));
        }
        return out.toString();
    }

    static String orders(String language, JsonNode orders) {
        if (orders.isEmpty()) {
            return t(language, "You have no orders with us yet.", "אין לך עדיין הזמנות אצלנו.");
        }
        return t(language, "Your orders:", "ההזמנות שלך:") + Replies.orders(language, orders);
    }

    /** The products a search found, with their prices and the variants in stock (those asked for only, when asked). */
    static String products(String language, JsonNode search) {
        JsonNode products = search.path("products");
        if (products.isEmpty()) {
            return t(
                    language,
                    "I couldn't find anything like “" + search.path("query").asText() + "” in our catalog. We carry"
                            + " shirts, t-shirts, jackets, running shoes, hiking boots, scarves, headphones, speakers,"
                            + " an espresso machine, water bottles, yoga mats, backpacks, desk lamps, mugs, sunglasses"
                            + " and smart watches.",
                    "לא מצאתי משהו כמו “" + search.path("query").asText() + "” בקטלוג שלנו. יש לנו חולצות, טי-שירטים,"
                            + " ג'קטים, נעלי ריצה, נעלי הליכה, צעיפים, אוזניות, רמקולים, מכונת אספרסו, בקבוקי מים,"
                            + " מזרני יוגה, תיקי גב, מנורות שולחן, ספלים, משקפי שמש ושעונים חכמים.");
        }
        StringBuilder out = new StringBuilder(t(language, "Here's what I found:", "הנה מה שמצאתי:"));
        boolean asked = !search.path("options").isEmpty();
        for (JsonNode product : products) {
            out.append("\n• ")
                    .append(Replies.product(language, product))
                    .append(" — ")
                    .append(prices(product));
            Set<String> matching = new LinkedHashSet<>();
            product.path("matching").forEach(m -> matching.add(m.asText()));
            List<String> inStock = new ArrayList<>();
            List<String> outOfStock = new ArrayList<>();
            for (JsonNode variant : product.path("variants")) {
                if (asked
                        && !matching.isEmpty()
                        && !matching.contains(variant.path("id").asText())) {
                    continue;
                }
                String options = Replies.options(language, variant.path("options"));
                String shown = options.isEmpty() ? variant.path("id").asText() : options;
                if (variant.path("stock").asInt() > 0) {
                    inStock.add(shown + " (" + variant.path("id").asText() + ")");
                } else {
                    outOfStock.add(shown);
                }
            }
            if (inStock.isEmpty()) {
                out.append(t(language, " — out of stock", " — אזל מהמלאי"));
                if (asked && !matching.isEmpty() && product.path("inStock").asBoolean()) {
                    out.append(t(language, " in what you asked for", " במה שביקשת"));
                }
            } else {
                out.append(t(language, " — in stock: ", " — במלאי: ")).append(String.join("; ", inStock));
                if (!outOfStock.isEmpty()) {
                    out.append(t(language, " (out of stock: ", " (אזלו: "))
                            .append(String.join("; ", outOfStock))
                            .append(")");
                }
            }
        }
        return out.toString();
    }

    private static String prices(JsonNode product) {
        java.math.BigDecimal low = null;
        java.math.BigDecimal high = null;
        for (JsonNode variant : product.path("variants")) {
            java.math.BigDecimal price = variant.path("price").decimalValue();
            low = low == null || price.compareTo(low) < 0 ? price : low;
            high = high == null || price.compareTo(high) > 0 ? price : high;
        }
        if (low == null) {
            return "";
        }
        String from = "$" + low.setScale(2, java.math.RoundingMode.HALF_UP).toPlainString();
        return low.compareTo(high) == 0
                ? from
                : from + "–$" + high.setScale(2, java.math.RoundingMode.HALF_UP).toPlainString();
    }

    static String quote(String language, JsonNode quote) {
        StringBuilder out = new StringBuilder(t(language, "Here's your quote:", "הנה הצעת המחיר:"));
        for (JsonNode line : quote.path("lines")) {
            out.append("\n• ")
                    .append(line.path("quantity").asInt())
                    .append(" × ")
                    .append(line.has("options") ? Replies.item(language, line) : Replies.product(language, line))
                    .append(" — ")
                    .append(range(line.path("unitPrice"), line.path("unitPriceMax")))
                    .append(t(language, " each = ", " ליחידה = "))
                    .append(range(line.path("amount"), line.path("amountMax")));
            if (!line.path("inStock").asBoolean()) {
                int available = line.path("available").asInt();
                out.append(
                        available == 0
                                ? t(language, " (out of stock right now)", " (אזל מהמלאי כרגע)")
                                : t(language, " (only " + available + " in stock)", " (רק " + available + " במלאי)"));
            }
        }
        out.append('\n')
                .append(t(language, "Total: ", "סך הכול: "))
                .append(range(quote.path("total"), quote.path("totalMax")));
        if (quote.has("totalMax")) {
            out.append(t(language, " (depending on the variant you choose)", " (לפי הגרסה שתבחר/י)"));
        }
        return out.toString();
    }

    private static String range(JsonNode low, JsonNode high) {
        return high.isMissingNode() ? Replies.money(low) : Replies.money(low) + "–" + Replies.money(high);
    }
}
