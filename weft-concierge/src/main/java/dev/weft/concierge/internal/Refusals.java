package dev.weft.concierge.internal;

import static dev.weft.concierge.internal.Replies.t;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.Goal;
import dev.weft.concierge.spi.ToolResult;
import java.util.ArrayList;
import java.util.List;

/**
 * What the concierge tells the customer when a tool would not do what was asked — the shop's reason, in
 * their words — and what the reply then waits for. Stateless.
 */
public final class Refusals {
    private Refusals() {}

    /** Why the shop refused {@code result}, as the customer reads it. */
    public static String why(String language, Goal goal, ToolResult result, JsonNode state) {
        return explain(language, goal, result, dev.weft.core.Json.object(), state);
    }

    /** Explains {@code result}'s refusal, and sets in {@code updates} what the reply asks for. */
    static String explain(String language, Goal goal, ToolResult result, ObjectNode updates, JsonNode state) {
        JsonNode error = result.error().orElseThrow();
        JsonNode details = error.path("details");
        String reason = error.path("reason").asText("");
        String orderId =
                details.path("orderId").asText(result.args().path("orderId").asText(""));
        String status = details.path("status").asText("");
        switch (reason) {
            case "moved_on" -> {
                // The customer said something else instead: the goal stays on, for what they said next.
                return Replies.notDone(language, result.name());
            }
            case "declined", "confirmed" -> {
                OfflineSpecialist.done(updates);
                return Replies.notDone(language, result.name());
            }
            case "not_verified" -> {
                updates.put("awaiting", "identity");
                updates.putObject("customer")
                        .put("verified", false)
                        .putNull("id")
                        .putNull("name")
                        .putNull("method");
                return Replies.askIdentity(language);
            }
            case "order_not_found" -> {
                updates.put("awaiting", "order");
                updates.withObjectProperty("request").putNull("orderId");
                return t(
                        language,
                        "I can't find order " + orderId + " on your account. Could you check the order number?",
                        "לא מצאתי את הזמנה " + orderId + " בחשבון שלך. אפשר לבדוק את מספר ההזמנה?");
            }
            case "not_pending" -> {
                OfflineSpecialist.done(updates);
                String after = status.equals("delivered")
                        ? t(
                                language,
                                " If you like, I can help you return or exchange its items.",
                                " אם תרצה/י, אפשר לעזור בהחזרה או בהחלפה של הפריטים שבה.")
                        : status.equals("processed")
                                ? t(
                                        language,
                                        " Once it's delivered you can return or exchange its items.",
                                        " אחרי שתימסר אפשר יהיה להחזיר או להחליף את הפריטים שבה.")
                                : "";
                return t(
                                language,
                                "Order " + orderId + " is " + Replies.status(language, status)
                                        + ", so it can't be cancelled or changed — only pending orders can.",
                                "הזמנה " + orderId + " במצב " + Replies.status(language, status)
                                        + ", ולכן אי אפשר לבטל או לשנות אותה — רק הזמנות ממתינות.")
                        + after;
            }
            case "not_delivered" -> {
                OfflineSpecialist.done(updates);
                if (status.equals("cancelled")) {
                    return t(
                            language,
                            "Order " + orderId + " was cancelled, so there is nothing of it to return or exchange.",
                            "הזמנה " + orderId + " בוטלה, כך שאין בה מה להחזיר או להחליף.");
                }
                return t(
                        language,
                        "Order " + orderId + " is " + Replies.status(language, status)
                                + ", so its items can't be returned or exchanged yet — only delivered items can."
                                + (status.equals("pending")
                                        ? " As it's still pending, I can cancel it or change it instead."
                                        : ""),
                        "הזמנה " + orderId + " במצב " + Replies.status(language, status)
                                + ", ולכן עוד אי אפשר להחזיר או להחליף את הפריטים שבה — רק פריטים שנמסרו."
                                + (status.equals("pending") ? " מכיוון שהיא ממתינה, אפשר לבטל או לשנות אותה." : ""));
            }
            case "no_pending_order" -> {
                OfflineSpecialist.done(updates);
                return t(
                        language,
                        "You have no pending orders — only pending orders can be cancelled or changed.",
                        "אין לך הזמנות ממתינות — רק הזמנות ממתינות אפשר לבטל או לשנות.");
            }
            case "which_order" -> {
                updates.put("awaiting", "order");
                if (details.has("action")) {
                    return t(language, "Which order? Your pending orders:", "איזו הזמנה? ההזמנות הממתינות שלך:")
                            + Replies.orders(language, details.path("orders"));
                }
                List<String> lines = new ArrayList<>();
                for (JsonNode order : details.path("orders")) {
                    lines.add("\n• " + order.path("id").asText() + " — "
                            + Replies.statusWord(language, order.path("status").asText()) + " — "
                            + Replies.items(language, order.path("items")));
                }
                return t(language, "Which order is it from?", "מאיזו הזמנה?") + String.join("", lines);
            }
            case "which_item" -> {
                updates.put("awaiting", "item");
                List<String> lines = new ArrayList<>();
                for (JsonNode item : details.path("items")) {
                    lines.add("\n• " + Replies.item(language, item) + " — "
                            + item.path("orderId").asText() + " ("
                            + Replies.statusWord(language, item.path("status").asText()) + ")");
                }
                if (lines.isEmpty()) {
                    OfflineSpecialist.done(updates);
                    return t(
                            language,
                            "I couldn't find an item that can be " + (goal == Goal.EXCHANGE ? "exchanged" : "returned")
                                    + " on your account.",
                            "לא מצאתי בחשבון שלך פריט שאפשר " + (goal == Goal.EXCHANGE ? "להחליף" : "להחזיר") + ".");
                }
                return t(language, "Which item do you mean?", "לאיזה פריט הכוונה?") + String.join("", lines);
            }
            case "already_settled" -> {
                OfflineSpecialist.done(updates);
                return t(
                        language,
                        "That item was already returned or exchanged"
                                + (orderId.isEmpty() ? "" : " (order " + orderId + ")") + ".",
                        "הפריט הזה כבר הוחזר או הוחלף" + (orderId.isEmpty() ? "" : " (הזמנה " + orderId + ")") + ".");
            }
            case "choose_variant" -> {
                updates.put("awaiting", goal == Goal.EXCHANGE ? "variant" : "product");
                return t(
                                language,
                                "Which " + details.path("product").asText() + " would you like? ",
                                "איזה " + details.path("productHe").asText() + " תרצה/י? ")
                        + variants(language, details.path("variants"));
            }
            case "other_product" -> {
                updates.put("awaiting", "variant");
                return t(
                        language,
                        "I can only exchange an item for another variant of the same product ("
                                + details.path("product").asText()
                                + "). For something else, you can return it and place a new order.",
                        "אפשר להחליף פריט רק בגרסה אחרת של אותו מוצר ("
                                + details.path("productHe").asText()
                                + "). למוצר אחר אפשר להחזיר אותו ולבצע הזמנה חדשה.");
            }
            case "same_variant" -> {
                updates.put("awaiting", "variant");
                return t(language, "That's the one you already have. ", "זה בדיוק מה שכבר יש לך. ")
                        + variants(language, details.path("alternatives"));
            }
            case "out_of_stock", "not_enough_stock" -> {
                updates.put("awaiting", goal == Goal.EXCHANGE ? "variant" : "product");
                String what = Replies.item(language, details);
                String head = reason.equals("out_of_stock")
                        ? t(language, "Sorry, " + what + " is out of stock. ", "מצטער/ת, " + what + " אזל מהמלאי. ")
                        : t(
                                language,
                                "Sorry, only " + details.path("stock").asInt() + " of " + what + " are in stock. ",
                                "מצטער/ת, יש במלאי רק " + details.path("stock").asInt() + " של " + what + ". ");
                return head + variants(language, details.path("alternatives"));
            }
            case "refund_original_only" -> {
                updates.put("awaiting", "confirmation");
                updates.withObjectProperty("request").putNull("refundTo");
                return t(
                        language,
                        "Refunds always go back to the original payment ("
                                + details.path("original").asText()
                                + "), so I can't send it to "
                                + details.path("asked").asText()
                                + ". Shall I go ahead with the return, refunded to "
                                + details.path("original").asText()
                                + "?",
                        "החזרים תמיד חוזרים לאמצעי התשלום המקורי ("
                                + details.path("original").asText()
                                + "), ולכן אי אפשר להעביר אותם ל"
                                + details.path("asked").asText()
                                + ". להמשיך עם ההחזרה, וההחזר ל"
                                + details.path("original").asText() + "?");
            }
            case "product_not_found" -> {
                updates.put("awaiting", "product");
                return t(
                                language,
                                "I couldn't find “" + details.path("query").asText() + "” in our catalog. ",
                                "לא מצאתי את “" + details.path("query").asText() + "” בקטלוג שלנו. ")
                        + OfflineSpecialist.askProduct(language);
            }
            case "which_product" -> {
                updates.put("awaiting", "product");
                List<String> names = new ArrayList<>();
                details.path("products").forEach(p -> names.add(Replies.product(language, p)));
                return t(
                        language,
                        "Did you mean " + String.join(" or ", names) + "?",
                        "האם התכוונת ל" + String.join(" או ל", names) + "?");
            }
            case "bad_address" -> {
                updates.put("awaiting", "address");
                updates.withObjectProperty("request").putNull("address");
                return t(
                        language,
                        "That doesn't look like a full address. Please give the street and number, the city and the"
                                + " postcode.",
                        "זו לא נראית כתובת מלאה. נא לציין רחוב ומספר, עיר ומיקוד.");
            }
            default -> {
                return t(
                        language,
                        "Sorry, I couldn't do that: " + error.path("message").asText(),
                        "מצטער/ת, לא הצלחתי: " + error.path("message").asText());
            }
        }
    }

    private static String variants(String language, JsonNode variants) {
        List<String> inStock = new ArrayList<>();
        for (JsonNode variant : variants) {
            if (variant.path("stock").asInt(1) > 0) {
                inStock.add(Replies.options(language, variant.path("options")) + " ("
                        + variant.path("variantId").asText() + ", " + Replies.money(variant.path("price")) + ")");
            }
        }
        if (inStock.isEmpty()) {
            return t(language, "None of its other variants is in stock right now.", "אין כרגע גרסאות אחרות במלאי.");
        }
        return t(language, "In stock: ", "במלאי: ") + String.join("; ", inStock) + ".";
    }
}
