package dev.weft.concierge.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.concierge.shop.ShopTools;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the concierge says, in English or Hebrew, from what the tools returned: templates, never a model.
 * Stateless.
 */
public final class Replies {
    private Replies() {}

    static String t(String language, String english, String hebrew) {
        return language.equals("he") ? hebrew : english;
    }

    // ---------------------------------------------------------------- pieces

    private static final Map<String, String> HEBREW_VALUES = Map.ofEntries(
            Map.entry("white", "לבן"),
            Map.entry("blue", "כחול"),
            Map.entry("beige", "בז'"),
            Map.entry("black", "שחור"),
            Map.entry("green", "ירוק"),
            Map.entry("gray", "אפור"),
            Map.entry("red", "אדום"),
            Map.entry("brown", "חום"),
            Map.entry("purple", "סגול"),
            Map.entry("silver", "כסוף"),
            Map.entry("tortoise", "צב"));

    static String money(JsonNode amount) {
        BigDecimal value = amount.decimalValue().setScale(2, java.math.RoundingMode.HALF_UP);
        return (value.signum() < 0 ? "-$" + value.negate().toPlainString() : "$" + value.toPlainString());
    }

    /** "blue, M" (in Hebrew "כחול, M"); empty for a product of one variant without options. */
    static String options(String language, JsonNode options) {
        List<String> values = new ArrayList<>();
        options.properties().forEach(e -> {
            String value = e.getValue().asText();
            values.add(language.equals("he") ? HEBREW_VALUES.getOrDefault(value, value) : value);
        });
        return String.join(", ", values);
    }

    /** The product's name; in Hebrew, its Hebrew name with the catalog's ("חולצת פשתן (Linen Shirt)"). */
    static String product(String language, JsonNode item) {
        String name = item.path("product").asText(item.path("name").asText());
        if (language.equals("he")) {
            String hebrew = item.path("productHe").asText(item.path("nameHe").asText(""));
            if (!hebrew.isEmpty()) {
                return hebrew + " (" + name + ")";
            }
        }
        return name;
    }

    /** "Linen Shirt (blue, M)"; in Hebrew "חולצת פשתן (Linen Shirt, כחול, M)". */
    static String item(String language, JsonNode item) {
        String options = options(language, item.path("options"));
        String name = item.path("product").asText(item.path("name").asText());
        String hebrew = item.path("productHe").asText(item.path("nameHe").asText(""));
        if (language.equals("he") && !hebrew.isEmpty()) {
            return hebrew + " (" + name + (options.isEmpty() ? "" : ", " + options) + ")";
        }
        return options.isEmpty() ? name : name + " (" + options + ")";
    }

    static String items(String language, JsonNode items) {
        List<String> parts = new ArrayList<>();
        items.forEach(i -> parts.add(item(language, i)));
        return String.join(", ", parts);
    }

    static String status(String language, String status) {
        return switch (status) {
            case "pending" -> t(language, "pending (not shipped yet)", "ממתינה (pending — טרם נשלחה)");
            case "processed" -> t(language, "processed (on its way)", "בטיפול (processed — בדרך אליך)");
            case "delivered" -> t(language, "delivered", "נמסרה (delivered)");
            case "cancelled" -> t(language, "cancelled", "בוטלה (cancelled)");
            default -> status;
        };
    }

    static String statusWord(String language, String status) {
        return switch (status) {
            case "pending" -> t(language, "pending", "ממתינה");
            case "processed" -> t(language, "processed", "בטיפול");
            case "delivered" -> t(language, "delivered", "נמסרה");
            case "cancelled" -> t(language, "cancelled", "בוטלה");
            default -> status;
        };
    }

    /** "W1002 — pending (not shipped yet) — Linen Shirt (white, L), Ceramic Mug (blue) — $57.00". */
    static String order(String language, JsonNode order) {
        return order.path("id").asText() + " — "
                + status(language, order.path("status").asText()) + " — " + items(language, order.path("items")) + " — "
                + money(order.path("total"));
    }

    static String orders(String language, JsonNode orders) {
        StringBuilder out = new StringBuilder();
        orders.forEach(o -> out.append("\n• ").append(order(language, o)));
        return out.toString();
    }

    // ---------------------------------------------------------------- identity

    public static String askIdentity(String language) {
        return t(
                language,
                "I can help with that. First, please tell me the email address on your account, or your full name and"
                        + " postcode.",
                "אשמח לעזור. קודם כול, מה כתובת האימייל שבחשבון שלך? (או שם מלא ומיקוד)");
    }

    static String askPostcode(String language) {
        return t(language, "Thanks. And what is your postcode?", "תודה. ומה המיקוד שלך?");
    }

    static String askName(String language) {
        return t(language, "Thanks. And your full name, please?", "תודה. ומה השם המלא שלך?");
    }

    static String verified(String language, String firstName) {
        return t(language, "Thanks, " + firstName + " — you're verified.", "תודה " + firstName + ", זיהיתי אותך.");
    }

    /** The reply to a verification the shop did not take: a code sent, no way to verify, or another customer vouched. */
    static java.util.Optional<String> identityRefused(String language, JsonNode error) {
        String reason = error.path("reason").asText("");
        return switch (reason) {
            case "code_sent" ->
                java.util.Optional.of(t(
                        language,
                        "To keep your account safe, I've mailed a six-digit code to the address on it (if that address"
                                + " is on an account with us). Please tell me the code — it's valid for 10 minutes.",
                        "כדי לשמור על החשבון שלך, שלחתי קוד בן שש ספרות לכתובת המייל שבחשבון (אם הכתובת רשומה אצלנו)."
                                + " מה הקוד? הוא בתוקף 10 דקות."));
            case "code_limit" -> java.util.Optional.of(codeLimited(language));
            case "cannot_verify" ->
                java.util.Optional.of(t(
                        language,
                        "I can't confirm who you are in this chat. Please sign in on the shop's website and ask me there.",
                        "אני לא יכול לאמת את זהותך בצ'אט הזה. אפשר להתחבר באתר החנות ולפנות אליי משם."));
            case "vouched_other" ->
                java.util.Optional.of(t(
                        language,
                        "You're signed in as "
                                + error.path("details").path("email").asText()
                                + ", so I can only help with that account here.",
                        "את/ה מחובר/ת כ-" + error.path("details").path("email").asText()
                                + ", ולכן כאן אוכל לעזור רק עם החשבון הזה."));
            default -> java.util.Optional.empty();
        };
    }

    /** What is said about a one-time code said back. */
    public static String codeAccepted(String language, String firstName) {
        return t(language, "Thanks, " + firstName + " — the code is right.", "תודה " + firstName + ", הקוד נכון.");
    }

    public static String codeWrong(String language, int triesLeft) {
        if (triesLeft <= 0) {
            return codeUsedUp(language);
        }
        return t(
                language,
                "That code isn't right. You can try " + triesLeft + " more time" + (triesLeft == 1 ? "" : "s") + ".",
                "הקוד הזה לא נכון. נשארו " + triesLeft + " ניסיונות.");
    }

    public static String codeUsedUp(String language) {
        return t(
                language,
                "That code can't be used any more (three wrong tries). Tell me your email again and I'll send a new one.",
                "אי אפשר להשתמש בקוד הזה יותר (שלושה ניסיונות שגויים). כתבו שוב את המייל ואשלח קוד חדש.");
    }

    /** Too many codes asked for, or wrong codes said, for one address lately: the same words for both. */
    public static String codeLimited(String language) {
        return t(
                language,
                "Too many codes have been asked for or tried for that address lately, so I can't send or check one"
                        + " right now. Please try again later, or sign in on the shop's website.",
                "ביקשו או ניסו יותר מדי קודים לכתובת הזו לאחרונה, ולכן אינני יכול לשלוח או לבדוק קוד כרגע. נסו שוב"
                        + " מאוחר יותר, או התחברו באתר החנות.");
    }

    public static String codeExpired(String language) {
        return t(
                language,
                "That code has expired (codes last 10 minutes). Tell me your email again and I'll send a new one.",
                "פג תוקפו של הקוד (קוד בתוקף 10 דקות). כתבו שוב את המייל ואשלח קוד חדש.");
    }

    static String notFoundByEmail(String language, String email) {
        return t(
                language,
                "I couldn't find an account with the email " + email
                        + ". Could you check it, or give me your full name and postcode instead?",
                "לא מצאתי חשבון עם האימייל " + email + ". אפשר לבדוק אותו, או למסור שם מלא ומיקוד?");
    }

    static String notFoundByName(String language) {
        return t(
                language,
                "I couldn't find a customer with that name and postcode. Could you check them, or give me the email on"
                        + " your account?",
                "לא מצאתי לקוח עם השם והמיקוד האלה. אפשר לבדוק אותם, או למסור את האימייל שבחשבון?");
    }

    // ---------------------------------------------------------------- confirmations

    /** A change a turn waits on: the tool and what its dry run said it would do. */
    public record Change(String tool, JsonNode preview) {}

    /**
     * The question a turn waits on: what exactly each change will do ("To confirm: cancel order W1032
     * (…) … cancel order W1042 (…)"), and one yes or no for all of them.
     */
    public static String confirmation(String language, List<Change> changes) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < changes.size(); i++) {
            String part =
                    statement(language, changes.get(i).tool(), changes.get(i).preview());
            parts.add(i == 0 ? part : part.replaceFirst("^(To confirm: |לאישור: )", t(language, "And ", "וגם ")));
        }
        return String.join(" ", parts) + " " + t(language, "Shall I go ahead? (yes/no)", "להמשיך? (כן/לא)");
    }

    /** "Thanks, Emma." — said before a question, once the customer is verified. */
    public static String verifiedBriefly(String language, String firstName) {
        return t(language, "Thanks, " + firstName + ".", "תודה " + firstName + ".");
    }

    /** What one change will do: "To confirm: cancel order W1002 (…), with $57.00 refunded to …". */
    private static String statement(String language, String tool, JsonNode preview) {
        String question = switch (tool) {
            case ShopTools.CANCEL ->
                t(
                        language,
                        "To confirm: cancel order " + preview.path("orderId").asText() + " ("
                                + items(language, preview.path("order").path("items")) + "), with "
                                + money(preview.path("refund")) + " refunded to your original payment, "
                                + preview.path("refundTo").asText() + ".",
                        "לאישור: לבטל את הזמנה " + preview.path("orderId").asText() + " ("
                                + items(language, preview.path("order").path("items")) + "), וההחזר של "
                                + money(preview.path("refund")) + " יזוכה לאמצעי התשלום המקורי, "
                                + preview.path("refundTo").asText() + ".");
            case ShopTools.RETURN ->
                t(
                        language,
                        "To confirm: return " + items(language, preview.path("items")) + " from order "
                                + preview.path("orderId").asText() + ", with " + money(preview.path("refund"))
                                + " refunded to your original payment, "
                                + preview.path("refundTo").asText() + ".",
                        "לאישור: להחזיר " + items(language, preview.path("items")) + " מהזמנה "
                                + preview.path("orderId").asText() + ", וההחזר של " + money(preview.path("refund"))
                                + " יזוכה לאמצעי התשלום המקורי, "
                                + preview.path("refundTo").asText() + ".");
            case ShopTools.EXCHANGE -> exchangeQuestion(language, preview);
            case ShopTools.ORDER_ADDRESS ->
                t(
                        language,
                        "To confirm: ship order " + preview.path("orderId").asText() + " to “"
                                + preview.path("to").asText() + "” instead of “"
                                + preview.path("from").asText() + "”.",
                        "לאישור: לשלוח את הזמנה " + preview.path("orderId").asText() + " לכתובת “"
                                + preview.path("to").asText() + "” במקום “"
                                + preview.path("from").asText() + "”.");
            case ShopTools.ACCOUNT_ADDRESS ->
                t(
                        language,
                        "To confirm: change the address on your account to “"
                                + preview.path("to").asText() + "” (orders already placed keep theirs).",
                        "לאישור: לעדכן את הכתובת בחשבון שלך ל“"
                                + preview.path("to").asText() + "” (הזמנות קיימות נשארות עם הכתובת שלהן).");
            case ShopTools.PLACE_ORDER ->
                t(
                        language,
                        "To confirm: order " + lines(language, preview.path("lines")) + " — total "
                                + money(preview.path("total")) + ", shipped to "
                                + preview.path("address").asText()
                                + " and paid with " + preview.path("payment").asText() + ".",
                        "לאישור: להזמין " + lines(language, preview.path("lines")) + " — סך הכול "
                                + money(preview.path("total")) + ", משלוח ל"
                                + preview.path("address").asText()
                                + " ותשלום ב-" + preview.path("payment").asText() + ".");
            default -> t(language, "To confirm: " + tool + ".", "לאישור: " + tool + ".");
        };
        return question;
    }

    private static String exchangeQuestion(String language, JsonNode preview) {
        JsonNode from = preview.path("item");
        JsonNode to = preview.path("to");
        String difference = difference(
                language,
                preview.path("priceDifference"),
                preview.path("payment").asText());
        if (preview.path("kind").asText().equals("change")) {
            return t(
                    language,
                    "To confirm: in your pending order "
                            + preview.path("orderId").asText() + ", change " + item(language, from) + " to "
                            + item(language, to) + difference + ".",
                    "לאישור: בהזמנה הממתינה " + preview.path("orderId").asText() + ", לשנות את " + item(language, from)
                            + " ל" + item(language, to) + difference + ".");
        }
        return t(
                language,
                "To confirm: exchange " + item(language, from) + " from order "
                        + preview.path("orderId").asText() + " for " + item(language, to) + difference + ".",
                "לאישור: להחליף את " + item(language, from) + " מהזמנה "
                        + preview.path("orderId").asText() + " ב" + item(language, to) + difference + ".");
    }

    private static String difference(String language, JsonNode amount, String payment) {
        int sign = amount.decimalValue().signum();
        if (sign == 0) {
            return t(language, " — no price difference", " — ללא הפרש מחיר");
        }
        if (sign > 0) {
            return t(
                    language,
                    " — the difference of " + money(amount) + " will be charged to " + payment,
                    " — הפרש של " + money(amount) + " יחויב ב-" + payment);
        }
        return t(
                language,
                " — the difference of " + money(amount.decimalValue().negate()) + " will be refunded to " + payment,
                " — הפרש של " + money(amount.decimalValue().negate()) + " יזוכה ל-" + payment);
    }

    private static String money(BigDecimal amount) {
        return "$" + amount.setScale(2, java.math.RoundingMode.HALF_UP).toPlainString();
    }

    static String lines(String language, JsonNode lines) {
        List<String> parts = new ArrayList<>();
        for (JsonNode line : lines) {
            parts.add(line.path("quantity").asInt(1) + " × " + item(language, line) + " ("
                    + money(line.path("price").isMissingNode() ? line.path("unitPrice") : line.path("price"))
                    + t(language, " each", " ליחידה") + ")");
        }
        return String.join(t(language, " and ", " ו-"), parts);
    }

    // ---------------------------------------------------------------- done

    static String cancelled(String language, JsonNode result) {
        return t(
                language,
                "Done — order " + result.path("orderId").asText() + " is cancelled. " + money(result.path("refund"))
                        + " will be refunded to your original payment, "
                        + result.path("refundTo").asText() + ".",
                "בוצע — הזמנה " + result.path("orderId").asText() + " בוטלה. " + money(result.path("refund"))
                        + " יזוכו לאמצעי התשלום המקורי, "
                        + result.path("refundTo").asText() + ".");
    }

    static String returned(String language, JsonNode result) {
        return t(
                language,
                "Done — the return of " + items(language, result.path("items")) + " from order "
                        + result.path("orderId").asText() + " is registered ("
                        + result.path("returnId").asText()
                        + "). " + money(result.path("refund")) + " will be refunded to your original payment, "
                        + result.path("refundTo").asText() + ", once we receive it.",
                "בוצע — ההחזרה של " + items(language, result.path("items")) + " מהזמנה "
                        + result.path("orderId").asText() + " נרשמה ("
                        + result.path("returnId").asText() + "). "
                        + money(result.path("refund")) + " יזוכו לאמצעי התשלום המקורי, "
                        + result.path("refundTo").asText() + ", כשהפריט יגיע אלינו.");
    }

    static String exchanged(String language, JsonNode result) {
        if (result.path("kind").asText().equals("change")) {
            return t(
                    language,
                    "Done — order " + result.path("orderId").asText() + " now has " + item(language, result.path("to"))
                            + " instead of " + item(language, result.path("item")) + ".",
                    "בוצע — בהזמנה " + result.path("orderId").asText() + " יש עכשיו "
                            + item(language, result.path("to")) + " במקום " + item(language, result.path("item"))
                            + ".");
        }
        return t(
                language,
                "Done — the exchange of " + item(language, result.path("item")) + " from order "
                        + result.path("orderId").asText() + " for " + item(language, result.path("to"))
                        + " is registered (" + result.path("exchangeId").asText()
                        + "). We'll send the new one as soon as we receive the old one.",
                "בוצע — ההחלפה של " + item(language, result.path("item")) + " מהזמנה "
                        + result.path("orderId").asText() + " ב" + item(language, result.path("to")) + " נרשמה ("
                        + result.path("exchangeId").asText() + "). נשלח את החדש ברגע שהישן יגיע אלינו.");
    }

    static String addressChanged(String language, JsonNode result, boolean account) {
        if (account) {
            return t(
                    language,
                    "Done — the address on your account is now “"
                            + result.path("to").asText() + "”.",
                    "בוצע — הכתובת בחשבון שלך היא עכשיו “" + result.path("to").asText() + "”.");
        }
        return t(
                language,
                "Done — order " + result.path("orderId").asText() + " will be shipped to “"
                        + result.path("to").asText() + "”.",
                "בוצע — הזמנה " + result.path("orderId").asText() + " תישלח ל“"
                        + result.path("to").asText() + "”.");
    }

    static String placed(String language, JsonNode result) {
        return t(
                language,
                "Done — your order " + result.path("orderId").asText() + " is placed: "
                        + lines(language, result.path("lines"))
                        + ", total " + money(result.path("total")) + ". It ships to "
                        + result.path("address").asText()
                        + ", paid with " + result.path("payment").asText() + ".",
                "בוצע — הזמנה " + result.path("orderId").asText() + " נקלטה: " + lines(language, result.path("lines"))
                        + ", סך הכול " + money(result.path("total")) + ". המשלוח ל"
                        + result.path("address").asText()
                        + ", והתשלום ב-" + result.path("payment").asText() + ".");
    }

    static String ticket(String language, JsonNode result) {
        return t(
                language,
                "I've opened ticket " + result.path("ticketId").asText() + " about “"
                        + result.path("subject").asText()
                        + "”"
                        + (result.has("orderId")
                                ? " (order " + result.path("orderId").asText() + ")"
                                : "")
                        + ". Our support team will get back to you by email within one business day.",
                "פתחתי פנייה " + result.path("ticketId").asText() + " בנושא “"
                        + result.path("subject").asText() + "”"
                        + (result.has("orderId")
                                ? " (הזמנה " + result.path("orderId").asText() + ")"
                                : "")
                        + ". צוות התמיכה יחזור אליך במייל תוך יום עסקים.");
    }

    static String human(String language, JsonNode result) {
        return t(
                language,
                "I've asked a person from our team to take over ("
                        + result.path("ticketId").asText()
                        + "). They'll reply to you by email within one business day.",
                "ביקשתי מנציג/ה מהצוות שלנו להמשיך איתך ("
                        + result.path("ticketId").asText() + "). יחזרו אליך במייל תוך יום עסקים.");
    }

    /** A change the customer did not say yes to. */
    static String notDone(String language, String tool) {
        String what = switch (tool) {
            case ShopTools.CANCEL -> t(language, "cancelled the order", "ביטלתי את ההזמנה");
            case ShopTools.RETURN -> t(language, "registered the return", "רשמתי את ההחזרה");
            case ShopTools.EXCHANGE -> t(language, "made the exchange", "ביצעתי את ההחלפה");
            case ShopTools.ORDER_ADDRESS, ShopTools.ACCOUNT_ADDRESS ->
                t(language, "changed the address", "שיניתי את הכתובת");
            case ShopTools.PLACE_ORDER -> t(language, "placed the order", "ביצעתי את ההזמנה");
            default -> t(language, "done it", "ביצעתי את זה");
        };
        return t(
                language,
                "OK — I haven't " + what + ". Is there anything else I can help with?",
                "בסדר — לא " + what + ". יש עוד משהו שאפשר לעזור בו?");
    }

    // ---------------------------------------------------------------- small talk

    public static String smalltalk(String language, String text, JsonNode state) {
        Phrases.Message message = new Phrases.Message(text);
        boolean policy = OfflinePlanner.POLICY.in(message);
        boolean thanks = OfflinePlanner.THANKS_ONLY.in(message);
        boolean bye = OfflinePlanner.BYE.in(message);
        boolean greeting = OfflinePlanner.GREETING.in(message);
        Confirmation confirmation = Confirmation.of(text);
        String active = "";
        if (policy) {
            return t(
                    language,
                    "Our policy: a pending order can be cancelled or changed (items, address) until it ships; delivered"
                            + " items can be returned, with the refund going to the original payment, or exchanged for"
                            + " another size or color of the same product. Every change waits for your yes.",
                    "המדיניות שלנו: הזמנה ממתינה אפשר לבטל או לשנות (פריטים, כתובת) עד שהיא נשלחת; פריטים שנמסרו"
                            + " אפשר להחזיר, וההחזר יוצא לאמצעי התשלום המקורי, או להחליף במידה או בצבע אחרים של אותו"
                            + " מוצר. כל שינוי מחכה לאישור שלך.");
        }
        if (bye) {
            return t(language, "Goodbye, and thank you for shopping with us!", "להתראות, ותודה שקנית אצלנו!");
        }
        if (thanks) {
            return t(language, "You're welcome! Anything else I can do for you?", "בשמחה! יש עוד משהו שאפשר לעזור בו?")
                    + active;
        }
        if (greeting) {
            return t(
                            language,
                            "Hi! I'm the shop's concierge. I can help you find a product, get a price quote or place an"
                                    + " order, and with your orders: their status, cancelling, returns, exchanges, a new"
                                    + " address, or a support ticket. What can I do for you?",
                            "שלום! אני הקונסיירז' של החנות. אפשר לעזור לך למצוא מוצר, לקבל הצעת מחיר או להזמין, וגם"
                                    + " בהזמנות שלך: סטטוס, ביטול, החזרה, החלפה, שינוי כתובת או פנייה לתמיכה. במה אפשר"
                                    + " לעזור?")
                    + active;
        }
        if (confirmation == Confirmation.YES) {
            return t(language, "Great. What would you like to do next?", "מצוין. במה עוד אפשר לעזור?") + active;
        }
        if (confirmation == Confirmation.NO) {
            return t(language, "No problem. Anything else I can help with?", "אין בעיה. יש עוד משהו שאפשר לעזור בו?");
        }
        return t(
                        language,
                        "Sorry, I'm not sure I understood. I can help you find products, prices and orders, and with"
                                + " your orders: status, cancelling, returns, exchanges and address changes.",
                        "סליחה, לא בטוח שהבנתי. אפשר לעזור במציאת מוצרים, מחירים והזמנות, וגם בהזמנות שלך: סטטוס,"
                                + " ביטול, החזרה, החלפה ושינוי כתובת.")
                + active;
    }
}
