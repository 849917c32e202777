package dev.weft.concierge.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.Goal;
import dev.weft.concierge.shop.OptionValues;
import dev.weft.concierge.shop.Product;
import dev.weft.concierge.spi.MemoryFact;
import dev.weft.concierge.spi.Planner;
import dev.weft.concierge.spi.PlannerInput;
import dev.weft.core.Json;
import dev.weft.core.StepScope;
import dev.weft.language.Folding;
import dev.weft.language.Forms;
import dev.weft.language.NumberWords;
import dev.weft.language.RequestActs;
import dev.weft.language.Token;
import dev.weft.language.Tokens;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The planner that needs no model: rules over the words of a message, in English and Hebrew. It reads
 * what the message gives (an email, a name and postcode, order ids, the item and the variant wanted,
 * products and quantities, an address, a reason) and picks the goal by the words that say what the
 * customer wants, the strongest first (a person, a cancellation, an exchange, a return, an address, a
 * complaint, an order's status, buying, a price, finding a product, small talk); a message that says no
 * goal of its own (an email, "the blue one", "W1002") continues the goal on hand. Thread-safe.
 */
public final class OfflinePlanner implements Planner {
    /** The words the rules below look for, as data: read first, as the constants below are made from them. */
    private static final PlannerWords WORDS = PlannerWords.load("planner-words.tsv");

    private static final Pattern EMAIL = Pattern.compile("[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+");
    private static final Pattern ORDER_ID = Pattern.compile("(?i)(?<![\\w@.])#?W[- ]?(\\d{4,})\\b");
    private static final Pattern ORDER_NUMBER = Pattern.compile(
            "(?i)(?:order|הזמנה|להזמנה|בהזמנה|מהזמנה|ההזמנה|הזמנת)\\s*(?:number|no\\.?|num|#|מספר|מס['׳]?)?\\s*#?\\s*(\\d{4,})\\b");
    private static final Pattern HASH_NUMBER = Pattern.compile("(?<![\\w@.])#(\\d{4,})\\b");
    private static final Pattern VARIANT_ID = Pattern.compile("(?i)\\bV(\\d{4})\\b");
    private static final Pattern POSTCODE_AFTER_WORD = Pattern.compile(
            "(?i)(?:zip\\s*code|zipcode|zip|post\\s*code|postal\\s*code|postcode|מיקוד|מ\\.?ק\\.?)(?:\\s*(?:is|of|:|-|הוא|היא|שלי|זה))*\\s*(\\d{5}|\\d{7})\\b");
    private static final Pattern POSTCODE = Pattern.compile("(?<![\\w#$@-]|\\d\\.)(\\d{5}|\\d{7})(?![\\w@]|\\.\\d)");
    private static final Pattern NAME_EN = Pattern.compile(
            "(?i)\\b(?:my name is|my name's|name is|name's|name:|full name is)\\s+([\\p{L}'’.-]+(?:\\s+[\\p{L}'’.-]+){0,3})");
    private static final Pattern NAME_EN_WEAK =
            Pattern.compile("(?i)\\b(?:i am|i'm|im|this is|it's|its)\\s+([\\p{L}'’.-]+(?:\\s+[\\p{L}'’.-]+){0,3})");
    private static final Pattern NAME_HE = Pattern.compile(
            "(?:שמי|השם שלי(?:\\s+הוא|\\s+היא)?|קוראים לי|שם:|שם מלא:?)\\s*[:\\-]?\\s*([\\p{L}'’\"׳״-]+(?:\\s+[\\p{L}'’\"׳״-]+){0,3})");
    private static final Pattern NAME_HE_WEAK =
            Pattern.compile("(?:^|\\s)(?:אני|זה|זו|כאן)\\s+([\\p{L}'’\"׳״-]+(?:\\s+[\\p{L}'’\"׳״-]+){0,3})");

    private static final Set<String> NAME_STOP = WORDS.set("NAME_STOP");

    // ---------------------------------------------------------------- goal words

    private static final Phrases HUMAN = WORDS.phrases("HUMAN");
    private static final Phrases CANCEL = Phrases.of(
                    "cancel",
                    "cancellation",
                    "call off",
                    "no longer want the order",
                    "stop my order",
                    "stop the order",
                    "revoke",
                    "cancelling",
                    "canceling",
                    "בטל",
                    "לבטל",
                    "תבטל",
                    "תבטלי",
                    "ביטול",
                    "מבטל",
                    "מבטלת",
                    "בטלו",
                    "אבטל",
                    "לבטלה",
                    "לבטלו",
                    "בטלי")
            .withTypos();
    private static final Phrases EXCHANGE = Phrases.of(
                    "exchange",
                    "exchanging",
                    "swap",
                    "replace",
                    "replacement",
                    "different size",
                    "different color",
                    "different colour",
                    "another size",
                    "another color",
                    "another colour",
                    "other size",
                    "other color",
                    "bigger size",
                    "smaller size",
                    "larger size",
                    "size up",
                    "size down",
                    "change the size",
                    "change the color",
                    "change the colour",
                    "change size",
                    "change color",
                    "להחליף",
                    "החלפה",
                    "החלף",
                    "תחליף",
                    "תחליפי",
                    "אחליף",
                    "מחליף",
                    "מחליפה",
                    "החלפת",
                    "מידה אחרת",
                    "צבע אחר",
                    "מידה גדולה",
                    "מידה קטנה",
                    "לשנות את המידה",
                    "לשנות את הצבע",
                    "לשנות מידה",
                    "לשנות צבע",
                    "תחליפו",
                    "נחליף",
                    "להחליפה",
                    "מחליפים",
                    "exchanged",
                    "swapped")
            .withTypos();
    private static final Phrases RETURN = Phrases.of(
                    "return",
                    "returning",
                    "send back",
                    "send it back",
                    "sending back",
                    "send them back",
                    "refund",
                    "money back",
                    "get my money",
                    "להחזיר",
                    "החזרה",
                    "החזר",
                    "החזרת",
                    "אחזיר",
                    "תחזיר",
                    "מחזיר",
                    "מחזירה",
                    "החזרתי",
                    "להחזירו",
                    "להחזירם",
                    "החזיר",
                    "זיכוי",
                    "לזכות",
                    "הכסף בחזרה",
                    "את הכסף",
                    "תחזירו",
                    "נחזיר",
                    "להחזירה",
                    "מחזירים",
                    "returned")
            .withTypos();
    private static final Phrases ADDRESS = Phrases.of(
                    "address",
                    "ship it to",
                    "ship to",
                    "deliver to",
                    "deliver it to",
                    "send it to",
                    "moved",
                    "shipping address",
                    "delivery address",
                    "כתובת",
                    "כתובתי",
                    "הכתובת",
                    "לשלוח ל",
                    "עברתי דירה",
                    "כתובת המשלוח",
                    "כתובת למשלוח",
                    "לשלוח את ההזמנה ל",
                    "שתגיע ל")
            .withTypos();
    private static final Phrases TICKET = WORDS.phrases("TICKET");
    private static final Phrases STATUS = WORDS.phrases("STATUS");
    private static final Phrases BUY = WORDS.phrases("BUY");
    private static final Phrases PRICE = WORDS.phrases("PRICE");
    private static final Phrases FIND = WORDS.phrases("FIND");
    static final Phrases GREETING = WORDS.phrases("GREETING");
    static final Phrases THANKS_ONLY = WORDS.phrases("THANKS_ONLY");
    static final Phrases BYE = WORDS.phrases("BYE");
    static final Phrases THANKS = THANKS_ONLY.and(BYE);
    static final Phrases POLICY = WORDS.phrases("POLICY");
    private static final Phrases ACCOUNT = WORDS.phrases("ACCOUNT");
    private static final Phrases ORDER_WORD = WORDS.phrases("ORDER_WORD");
    private static final Phrases REFERS_BACK = WORDS.phrases("REFERS_BACK");
    private static final Phrases SOME_ITEM = WORDS.phrases("SOME_ITEM");
    private static final Phrases ALSO = WORDS.phrases("ALSO");

    private static final Pattern SHIP_TO = Pattern.compile(
            "(?i)\\b(?:ship|send|deliver|redirect|forward)\\b.{0,40}?\\bto\\s+\\d|(?:תשלחו|תשלח|תשלחי|לשלוח|שלחו|תעבירו)\\s.{0,40}?(?:לכתובת|לרחוב|לשדרות|ל-?\\d)");
    private static final Pattern CANCEL_ROOT = Pattern.compile("^[והשלב]{0,2}(?:ת?בטל|ביטול)");
    private static final Phrases CHANGE = WORDS.phrases("CHANGE");
    private static final Phrases INSTEAD = WORDS.phrases("INSTEAD");
    private static final Phrases FIT = WORDS.phrases("FIT");
    private static final Pattern WHERE_IS =
            Pattern.compile("(?i)\\bwhere\\b.{0,30}\\b(?:order|package|parcel|delivery|shipment|stuff|items?)\\b");
    private static final Pattern STATUS_QUESTION = Pattern.compile(
            "(?i)^\\s*(?:is|was|has|have|did|are|were)\\b.*\\b(?:cancel+ed|delivered|shipped|arrived|processed|sent)\\b");
    private static final Pattern STATUS_QUESTION_HE =
            Pattern.compile("(?:האם\\s+)?.*(?:בוטלה|בוטל|נמסרה|נמסר|נשלחה|נשלח|הגיעה|הגיע)\\s*\\?");

    private final Supplier<List<Product>> catalog;

    /** A planner that knows the words of {@code catalog}'s products (read anew for each message). */
    public OfflinePlanner(Supplier<List<Product>> catalog) {
        this.catalog = catalog;
    }

    @Override
    public String name() {
        return "offline";
    }

    @Override
    public ObjectNode plan(StepScope step, PlannerInput input) {
        String text = input.text();
        Phrases.Message message = new Phrases.Message(text);
        List<Product> products = this.catalog.get();
        Catalog catalog = new Catalog(vocabularyOf(products));
        JsonNode state = input.state();
        ObjectNode slots = Json.object();
        String awaitingNow = state.path("awaiting").asText("nothing");
        Identity identity = identity(text, awaitingNow);
        identity.email.ifPresent(e -> slots.put("email", e));
        identity.name.ifPresent(n -> slots.put("name", n));
        identity.postcode.ifPresent(p -> slots.put("postcode", p));
        Optional<String> orderId = orderId(text);
        List<String> orderIds = orderIds(text);
        Optional<Goal> own = goalOf(message, text);
        if (orderIds.size() > 1 && own.isPresent()) {
            // "cancel W1022 and what's the status of W1040": an order named in a part of the message that
            // asks for something else is not one to act on.
            orderIds = ownOrders(text, orderIds, own.get());
            orderId = orderIds.stream().findFirst();
        }
        orderId.ifPresent(id -> slots.put("orderId", id));
        if (orderIds.size() > 1) {
            // "cancel W1032 and W1042": every order the message names.
            ArrayNode ids = slots.putArray("orderIds");
            orderIds.forEach(ids::add);
        }
        String awaiting = state.path("awaiting").asText("nothing");
        JsonNode activeGoal = state.path("goal");
        Optional<Goal> active =
                activeGoal.isObject() && activeGoal.path("status").asText().equals("active")
                        ? Goal.find(activeGoal.path("name").asText())
                        : Optional.empty();
        Optional<Goal> lastGoal =
                activeGoal.isObject() ? Goal.find(activeGoal.path("name").asText()) : Optional.empty();
        Confirmation answer = Confirmation.of(text);

        Goal goal;
        Optional<Goal> said = goalOf(message, text);
        String rest = strip(text, identity, orderId);
        boolean bare = rest.isBlank() || Tokens.of(rest).size() <= 2 && said.isEmpty();
        // "And in color white, size M?" after a question about a product: the same question, of that product.
        boolean namesAnOrder = orderId.isPresent();
        Optional<Goal> aboutProduct = lastGoal.filter(g -> g == Goal.FIND_PRODUCT || g == Goal.QUOTE)
                // "ומה עם באפור?": "what about" also asks after an order, but not with a colour and no order.
                .filter(g -> said.isEmpty()
                        || said.get() == g
                        || said.get() == Goal.SMALLTALK
                        || said.get() == Goal.ORDER_STATUS && !identity.any() && !ORDER_WORD.in(message))
                .filter(g -> !namesAnOrder && catalog.productWords(rest).isEmpty() && describesVariant(rest));
        if (aboutProduct.isPresent()) {
            goal = aboutProduct.get();
        } else if (said.isPresent()) {
            goal = said.get();
            // "the shirt is broken, I want a different size" names a problem and an exchange: the action wins.
            if (goal == Goal.SMALLTALK
                    && active.isPresent()
                    && !awaiting.equals("nothing")
                    && !isOnlySmallTalk(message)) {
                goal = active.get();
            }
            // "hi, it's emma.johnson@example.com": a greeting that says who is writing verifies them.
            if (goal == Goal.SMALLTALK && identity.any() && !POLICY.in(message)) {
                goal = active.orElse(Goal.ORDER_STATUS);
            }
        } else if (active.isPresent()) {
            goal = active.get();
        } else if (orderId.isPresent()
                && lastGoal.isPresent()
                && ALSO.in(message)
                && lastGoal.get() != Goal.SMALLTALK) {
            goal = lastGoal.get();
        } else if (orderId.isPresent() || identity.any()) {
            goal = Goal.ORDER_STATUS;
        } else if (answer == Confirmation.YES && lastGoal.isPresent() && awaiting.equals("confirmation")) {
            goal = lastGoal.get();
        } else if (!catalog.productWords(text).isEmpty()) {
            goal = Goal.FIND_PRODUCT;
        } else {
            goal = Goal.SMALLTALK;
        }

        // Words that point back at the order on hand ("cancel it") keep it when the goal changes.
        if (orderId.isEmpty()
                && state.path("request").path("orderId").isTextual()
                && (REFERS_BACK.in(message) || active.isPresent())
                && goal != Goal.SMALLTALK) {
            slots.put("orderId", state.path("request").path("orderId").asText());
        }
        if (orderId.isEmpty() && goal != Goal.SMALLTALK && !slots.has("orderId")) {
            lastOrderOfHistory(state).filter(id -> REFERS_BACK.in(message)).ifPresent(id -> slots.put("orderId", id));
        }

        Goal chosen = goal;
        // A bare yes or no answers no question of an item, a variant or an address.
        boolean continuing = active.isPresent()
                && active.get() == chosen
                && said.filter(g -> g == chosen).isEmpty()
                && !(answer != Confirmation.NEITHER && Tokens.of(rest).size() <= 3);
        // A bare yes or no adds nothing to the request: it only says whether to go on.
        boolean bareAnswer = answer != Confirmation.NEITHER && Tokens.of(rest).size() <= 3;
        switch (bareAnswer ? Goal.SMALLTALK : goal) {
            case CANCEL -> {
                reason(text, message).ifPresent(r -> slots.put("reason", r));
                // "the smart watch one", answering which order: the order is told by what it holds.
                if (orderId.isEmpty() && !rest.isBlank() && catalog.namesItem(rest)) {
                    slots.put("item", rest);
                }
            }
            case RETURN -> {
                if (!rest.isBlank() && (awaiting.equals("item") && continuing || catalog.namesItem(rest))) {
                    slots.put("item", rest);
                } else if (orderId.isPresent() && ORDER_WORD.in(message) && !SOME_ITEM.in(message)) {
                    // "I'd like to return order W1054": all of it.
                    slots.put("item", "all");
                }
                refundTo(text).ifPresent(r -> slots.put("refundTo", r));
                reason(text, message).ifPresent(r -> slots.put("reason", r));
            }
            case EXCHANGE -> {
                Optional<String> variant = variantId(text);
                variant.ifPresent(v -> slots.put("toVariantId", v));
                if (continuing && awaiting.equals("variant")) {
                    slots.put("to", rest);
                } else if (continuing && awaiting.equals("item")) {
                    slots.put("item", rest);
                } else if (continuing && catalog.productWords(rest).isEmpty() && describesVariant(rest)) {
                    slots.put("to", rest);
                } else {
                    String[] split = catalog.exchangeSplit(rest);
                    if (!split[0].isBlank() && (catalog.namesItem(split[0]) || !continuing)) {
                        slots.put("item", split[0]);
                    }
                    if (!split[1].isBlank()) {
                        slots.put("to", split[1]);
                    }
                }
            }
            case CHANGE_ADDRESS -> {
                if (ACCOUNT.in(message) && !ORDER_WORD.in(message) && orderId.isEmpty()) {
                    slots.put("account", true);
                }
                Optional<String> address =
                        continuing && awaiting.equals("address") ? Optional.of(cleanAddress(rest)) : address(rest);
                address.filter(a -> !a.isBlank()).ifPresent(a -> slots.put("address", a));
            }
            case TICKET -> {
                String details = rest.strip();
                boolean says = continuing && awaiting.equals("details") || catalog.describesProblem(details);
                if (!details.isBlank() && says) {
                    slots.put("details", details);
                    slots.put("subject", subject(details));
                }
            }
            case HUMAN -> slots.put("details", text);
            case FIND_PRODUCT -> {
                String asked = state.path("request").path("query").asText("");
                if (aboutProduct.isPresent() && !asked.isBlank()) {
                    slots.put("query", asked + " " + rest);
                } else if (!rest.isBlank() && (!continuing || !bare || awaiting.equals("product"))) {
                    slots.put("query", rest);
                }
            }
            case QUOTE, ORDER -> {
                ArrayNode items = catalog.items(rest);
                JsonNode asked = state.path("request").path("items");
                if (aboutProduct.isPresent() && asked.isArray() && !asked.isEmpty()) {
                    ArrayNode with = asked.deepCopy();
                    ObjectNode last = (ObjectNode) with.get(with.size() - 1);
                    last.put("query", last.path("query").asText() + " " + rest);
                    slots.set("items", with);
                } else if (!items.isEmpty()) {
                    items.forEach(item -> rememberedSize((ObjectNode) item, products, input.memory()));
                    slots.set("items", items);
                } else if (continuing && asked.isArray() && !asked.isEmpty() && describesVariant(rest)) {
                    // "black, size M" after "which one?": the options of the item on hand.
                    ArrayNode with = asked.deepCopy();
                    ObjectNode last = (ObjectNode) with.get(with.size() - 1);
                    last.put("query", last.path("query").asText() + " " + rest);
                    slots.set("items", with);
                } else if (continuing && !bare) {
                    slots.put("query", rest);
                }
            }
            default -> {}
        }
        ObjectNode plan = Json.object();
        plan.put("goal", goal.id());
        plan.set("slots", slots);
        if (answer != Confirmation.NEITHER) {
            plan.put("confirm", answer == Confirmation.YES ? "yes" : "no");
        }
        return plan;
    }

    // ---------------------------------------------------------------- the goal

    /** The goal the message's own words name, if they name one. */
    Optional<Goal> goalOf(Phrases.Message message, String text) {
        if (POLICY.in(message) && orderId(text).isEmpty()) {
            return Optional.of(Goal.SMALLTALK);
        }
        if (HUMAN.in(message)) {
            return Optional.of(Goal.HUMAN);
        }
        if (STATUS_QUESTION.matcher(text).find()
                || STATUS_QUESTION_HE.matcher(text).find()) {
            return Optional.of(Goal.ORDER_STATUS);
        }
        if (CANCEL.in(message)
                || message.tokens.stream()
                        .anyMatch(t ->
                                t.isHebrew() && CANCEL_ROOT.matcher(t.text()).find())) {
            return Optional.of(Goal.CANCEL);
        }
        boolean exchange = EXCHANGE.in(message);
        boolean ret = RETURN.in(message);
        if (exchange) {
            return Optional.of(Goal.EXCHANGE);
        }
        if (ret) {
            return Optional.of(Goal.RETURN);
        }
        if (ADDRESS.in(message)
                && RequestActs.asksOnlyToRead(text)
                && !SHIP_TO.matcher(text).find()
                && address(text).isEmpty()) {
            // "what address is my order going to?": a question about the order, not a new address.
            return Optional.of(Goal.ORDER_STATUS);
        }
        if (ADDRESS.in(message) || SHIP_TO.matcher(text).find()) {
            return Optional.of(Goal.CHANGE_ADDRESS);
        }
        // "change my order: the linen shirt in size S instead", "the shirt doesn't fit": another variant.
        if (CHANGE.in(message) && (describesVariant(text) || INSTEAD.in(message)) || FIT.in(message) && !ret) {
            return Optional.of(Goal.EXCHANGE);
        }
        if (TICKET.in(message)) {
            return Optional.of(Goal.TICKET);
        }
        boolean buy = BUY.in(message)
                || text.strip()
                        .toLowerCase(Locale.ROOT)
                        .matches("^(?:please\\s+)?order\\b(?!\\s*(?:#|no\\.?\\s|number|w\\d|\\d|status|details)).*");
        if ((STATUS.in(message) || WHERE_IS.matcher(text).find())
                && orderId(text).isPresent()
                && !PRICE.in(message)) {
            return Optional.of(Goal.ORDER_STATUS);
        }
        boolean price = PRICE.in(message);
        if ((STATUS.in(message) || WHERE_IS.matcher(text).find()) && !buy && !price) {
            return Optional.of(Goal.ORDER_STATUS);
        }
        if (price) {
            return Optional.of(Goal.QUOTE);
        }
        if (buy) {
            return Optional.of(Goal.ORDER);
        }
        if (FIND.in(message)) {
            return Optional.of(Goal.FIND_PRODUCT);
        }
        if (GREETING.in(message) || THANKS.in(message)) {
            return Optional.of(Goal.SMALLTALK);
        }
        return Optional.empty();
    }

    private static boolean isOnlySmallTalk(Phrases.Message message) {
        return (GREETING.in(message) || THANKS.in(message)) && message.tokens.size() <= 4;
    }

    // ---------------------------------------------------------------- identity

    private record Identity(Optional<String> email, Optional<String> name, Optional<String> postcode) {
        boolean any() {
            return email.isPresent() || (name.isPresent() && postcode.isPresent());
        }
    }

    private static Identity identity(String text, String awaiting) {
        boolean awaitingIdentity = awaiting.equals("identity");
        Optional<String> email = Optional.empty();
        Matcher m = EMAIL.matcher(text);
        if (m.find()) {
            email = Optional.of(m.group().replaceAll("[.]+$", ""));
        }
        String withoutEmail = EMAIL.matcher(text).replaceAll(" ");
        Optional<String> postcode = Optional.empty();
        int postcodeAt = -1;
        Matcher after = POSTCODE_AFTER_WORD.matcher(withoutEmail);
        if (after.find()) {
            postcode = Optional.of(after.group(1));
            postcodeAt = after.start();
        } else {
            // Order ids are blanked out letter for letter, so that a postcode's place is its place in the text.
            String masked = blank(ORDER_NUMBER, blank(ORDER_ID, withoutEmail));
            Matcher plain = POSTCODE.matcher(masked);
            // An address the customer was asked for holds numbers that are no postcode of theirs.
            while (!awaiting.equals("address") && plain.find()) {
                if (postcode.isEmpty()) {
                    postcode = Optional.of(plain.group(1));
                    postcodeAt = plain.start();
                }
                // "… to 77 Lake Shore Drive, Chicago, IL 60611. Olivia Brown, 60614": the number a name
                // stands before is the postcode, not the one that ends an address.
                if (name(withoutEmail, plain.start()).isPresent()) {
                    postcode = Optional.of(plain.group(1));
                    postcodeAt = plain.start();
                    break;
                }
            }
        }
        Optional<String> name = name(withoutEmail, postcodeAt);
        // A bare number is a postcode only beside a name, or when the customer was asked who they are: in
        // "ship it to 5 Herzl St, 4640005" it is part of an address.
        if (postcode.isPresent() && !after.find(0) && name.isEmpty() && !awaitingIdentity) {
            postcode = Optional.empty();
        }
        return new Identity(email, name, postcode);
    }

    /** {@code text} with what {@code pattern} matches replaced by as many spaces. */
    private static String blank(Pattern pattern, String text) {
        return pattern.matcher(text).replaceAll(m -> " ".repeat(m.group().length()));
    }

    private static Optional<String> name(String text, int postcodeAt) {
        for (Pattern pattern : List.of(NAME_EN, NAME_HE, NAME_EN_WEAK, NAME_HE_WEAK)) {
            boolean weak = pattern == NAME_EN_WEAK || pattern == NAME_HE_WEAK;
            Matcher m = pattern.matcher(text);
            while (m.find()) {
                List<String> words = nameWords(m.group(1));
                if (words.size() > 3) {
                    words = words.subList(0, 3);
                }
                boolean capitalized =
                        !words.isEmpty() && words.stream().allMatch(w -> Character.isUpperCase(w.charAt(0)));
                // "I'm Emma Johnson" and "אני נועה כהן" say a name only beside a postcode (or in capitals):
                // "I'm looking for…", "אני מעוניין לבטל" do not.
                if (weak && postcodeAt < 0 && !capitalized) {
                    continue;
                }
                if (words.size() >= 2 || (words.size() == 1 && postcodeAt >= 0)) {
                    return Optional.of(String.join(" ", words));
                }
            }
        }
        if (postcodeAt > 0) {
            // "Emma Johnson, 10001" / "נועה כהן מיקוד 6473921": the words just before the postcode, when
            // they open the message (in "ship it to 55 Rainey Street, Austin, TX 78701" they are a city).
            // Words that lead to the postcode ("…, zip", "and my postcode is") are no part of the name.
            String lead =
                    "(?i)(?:(?<!\\p{L})(?:zip\\s*code|zipcode|zip|post\\s*code|postal\\s*code|postcode|and|my|is|of)"
                            + "|(?<!\\p{L})ו?ה?מיקוד(?:\\s+שלי)?|ו-|,|:)\\s*$";
            String before = text.substring(0, postcodeAt);
            for (int i = 0; i < 4; i++) {
                before = before.replaceAll(lead, "");
            }
            // Street words with their Hebrew prefixes too ("לרחוב דיזנגוף 100, תל אביב 6433222").
            boolean anAddress = STREET_WORDS.stream()
                            .anyMatch(street -> Tokens.of(text).stream()
                                    .anyMatch(t -> Forms.of(t.text()).contains(street)))
                    || text.contains("כתובת");
            List<Token> tokens = Tokens.of(before);
            List<String> words = new ArrayList<>();
            for (int i = tokens.size() - 1; i >= 0 && words.size() < 3; i--) {
                String word = tokens.get(i).text();
                if (!words.isEmpty()) {
                    String gap = before.substring(
                            tokens.get(i).start() + word.length(),
                            tokens.get(i + 1).start());
                    if (gap.matches("(?s).*[.!?,;:].*")) {
                        break;
                    }
                }
                String folded = Folding.fold(word);
                if (NAME_STOP.contains(folded) || word.chars().anyMatch(Character::isDigit)) {
                    if (words.isEmpty()) {
                        continue;
                    }
                    break;
                }
                words.add(0, word);
            }
            int opening = tokens.size() - words.size();
            boolean street = words.stream().anyMatch(w -> STREET_WORDS.contains(Folding.fold(w)));
            if (words.isEmpty()) {
                return Optional.empty();
            }
            String preceding = before.substring(0, tokens.get(opening).start()).strip();
            // "… from W1038 רונית דהן 2620101": an order id ends what was asked as a full stop would.
            boolean ownClause = opening == 0 || preceding.matches("(?s).*[.!?,;:]$|(?is).*(?<![\\w@.])#?W\\d{4,}$");
            // In an address ("…40, Tel Aviv 6525705") the words before a number are a city; a name and
            // postcode stand in a sentence of their own, opening the message or after a full stop.
            boolean ownSentence = opening == 0 || preceding.matches("(?s).*[.!?]$");
            if (words.size() >= 2 && (opening <= 1 || ownClause) && !street && (!anAddress || ownSentence)) {
                return Optional.of(String.join(" ", words.subList(Math.max(0, words.size() - 3), words.size())));
            }
        }
        return Optional.empty();
    }

    private static final Set<String> STREET_WORDS = WORDS.set("STREET_WORDS");

    private static List<String> nameWords(String captured) {
        List<String> words = new ArrayList<>();
        for (Token token : Tokens.of(captured)) {
            String folded = Folding.fold(token.text());
            if (NAME_STOP.contains(folded) || token.text().chars().anyMatch(Character::isDigit)) {
                break;
            }
            words.add(token.text());
        }
        return words;
    }

    // ---------------------------------------------------------------- what the message names

    static Optional<String> orderId(String text) {
        for (Pattern pattern : List.of(ORDER_ID, ORDER_NUMBER, HASH_NUMBER)) {
            Matcher m = pattern.matcher(text);
            if (m.find()) {
                return Optional.of("W" + m.group(1));
            }
        }
        return Optional.empty();
    }

    /** Every order id the message names, in order, once each. */
    static List<String> orderIds(String text) {
        Set<String> ids = new LinkedHashSet<>();
        java.util.TreeMap<Integer, String> found = new java.util.TreeMap<>();
        for (Pattern pattern : List.of(ORDER_ID, ORDER_NUMBER, HASH_NUMBER)) {
            Matcher m = pattern.matcher(text);
            while (m.find()) {
                found.putIfAbsent(m.start(), "W" + m.group(1));
            }
        }
        ids.addAll(found.values());
        return List.copyOf(ids);
    }

    private static final Pattern CLAUSE = Pattern.compile(
            "(?i)\\s+(?:and|also|plus|but|then)\\s+|[,;?!]|\\.(?:\\s|$)|\\s+(?:וגם|ואז|אבל|ובנוסף|בנוסף)\\s+"
                    + "|\\s+(?=ו(?:מה|איפה|מתי|האם|למה|תבטל|תחזיר|תחליף|תשנה|לבטל|להחזיר|להחליף|לשנות)(?:\\s|$))");

    /** Of {@code ids}, those named in parts of {@code text} that ask for {@code goal} or for nothing else. */
    private List<String> ownOrders(String text, List<String> ids, Goal goal) {
        List<String> kept = new ArrayList<>();
        for (String clause : CLAUSE.split(text)) {
            Optional<Goal> asked = goalOf(new Phrases.Message(clause), clause);
            if (asked.isEmpty() || asked.get() == goal || asked.get() == Goal.SMALLTALK) {
                orderIds(clause).stream().filter(ids::contains).forEach(kept::add);
            }
        }
        return kept.isEmpty() ? ids : List.copyOf(new LinkedHashSet<>(kept));
    }

    private static Optional<String> variantId(String text) {
        Matcher m = VARIANT_ID.matcher(text);
        return m.find() ? Optional.of("V" + m.group(1)) : Optional.empty();
    }

    private static Optional<String> lastOrderOfHistory(JsonNode state) {
        JsonNode history = state.path("history");
        for (int i = history.size() - 1; i >= 0; i--) {
            if (history.get(i).path("orderId").isTextual()) {
                return Optional.of(history.get(i).path("orderId").asText());
            }
        }
        return Optional.empty();
    }

    /** The message without the email, the name and postcode, and the order ids it gives. */
    private static String strip(String text, Identity identity, Optional<String> orderId) {
        String rest = EMAIL.matcher(text).replaceAll(" ");
        rest = POSTCODE_AFTER_WORD.matcher(rest).replaceAll(" ");
        rest = ORDER_NUMBER.matcher(rest).replaceAll(" ");
        rest = ORDER_ID.matcher(rest).replaceAll(" ");
        if (identity.postcode.isPresent()) {
            rest = rest.replace(identity.postcode.get(), " ");
        }
        if (identity.name.isPresent()) {
            rest = rest.replace(identity.name.get(), " ");
        }
        rest = rest.replaceAll(
                "(?i)\\b(?:my email(?: address)? is|email:|e-mail:|my name is|my name's|this is|i'm|i am)\\b", " ");
        rest = rest.replaceAll(
                "(?:המייל שלי(?: הוא)?|האימייל שלי(?: הוא)?|המייל:|שמי|קוראים לי|והמיקוד שלי|המיקוד שלי|מיקוד)", " ");
        rest = rest.replaceAll("(?i)\\b(?:zip\\s*code|zipcode|zip|post\\s*code|postal\\s*code|postcode)\\b", " ");
        rest = rest.replaceAll("\\s+([,.!?;:])", "$1").replaceAll("^[\\s,.;:!?-]+|[\\s,;:-]+$", "");
        return rest.replaceAll("\\s{2,}", " ").strip();
    }

    private static final Set<String> ALL_WORDS = WORDS.set("ALL_WORDS");

    private static final Set<String> OPTION_WORDS = WORDS.set("OPTION_WORDS");

    private static boolean describesVariant(String tail) {
        for (Token token : Tokens.of(tail)) {
            if (OPTION_WORDS.contains(token.lower())
                    || isOptionWord(token.text())
                    || token.text().matches("(?i)V\\d{4}|\\d{2}(mm|ml|l)?")) {
                return true;
            }
        }
        return false;
    }

    private static final Set<String> COMMON_VALUES = WORDS.set("COMMON_VALUES");

    private static boolean isOptionWord(String word) {
        return !OptionValues.named(word.length() <= 2 ? word.toUpperCase(Locale.ROOT) : word, COMMON_VALUES)
                .isEmpty();
    }

    private static final Pattern REASON = Pattern.compile(
            "(?i)\\b(?:because|since|as|cause|reason(?: is)?:?)\\s+(.{3,200})$|(?:כי|בגלל ש|בגלל|מכיוון ש|מאחר ש|הסיבה(?: היא)?:?)\\s*(.{3,200})$");
    private static final Phrases KNOWN_REASONS = WORDS.phrases("KNOWN_REASONS");

    private static Optional<String> reason(String text, Phrases.Message message) {
        Matcher m = REASON.matcher(text);
        if (m.find()) {
            String reason = m.group(1) != null ? m.group(1) : m.group(2);
            return Optional.of(reason.replaceAll("[.!]+$", "").strip());
        }
        int known = KNOWN_REASONS.first(message);
        if (known >= 0) {
            return Optional.of(message.from(known).replaceAll("[.!]+$", "").strip());
        }
        return Optional.empty();
    }

    private static final Pattern REFUND_TO = Pattern.compile(
            "(?i)(?:refund(?:ed)?|money|credit(?:ed)?|pay(?: me)? back)\\b[^.]*?\\b(?:to|into|onto|on|as)\\s+(?:my\\s+|a\\s+|the\\s+)?([^.,;]{3,60})|"
                    + "\\b(?:as|in)\\s+(store credit|a gift card|gift card|credit)|"
                    + "(?:זיכוי|החזר|הכסף|להחזיר את הכסף)[^.]*?\\s(?:ל|אל|על)\\s*-?\\s*([^.,;]{3,60})|"
                    + "(?:ל|על|אל)(כרטיס מתנה|כרטיס האשראי|פייפאל|שובר|זיכוי בחנות|חשבון הבנק)");

    private static Optional<String> refundTo(String text) {
        Matcher m = REFUND_TO.matcher(text);
        if (m.find()) {
            for (int g = 1; g <= m.groupCount(); g++) {
                if (m.group(g) != null) {
                    return Optional.of(m.group(g).strip());
                }
            }
        }
        return Optional.empty();
    }

    private static final Pattern ADDRESS_MARKER = Pattern.compile(
            "(?i)(?:\\b(?:(?:my|the)\\s+)?(?:new\\s+)?(?:shipping\\s+|delivery\\s+)?address(?:\\s+(?:is|should be|will be|to|now is))?\\b|\\b(?:ship|deliver|send)(?:\\s+(?:it|them|the order|my order|order\\s+W\\d+))?\\s+to\\b|\\bto\\b)\\s*:?\\s*");
    private static final Pattern ADDRESS_MARKER_HE = Pattern.compile(
            "(?:הכתובת החדשה(?:\\s+(?:היא|שלי))?|כתובת חדשה|לכתובת|הכתובת היא)\\s*:?\\s*|(?<=^|\\s)ל-?(?=(?:רחוב|רח['׳]|שדרות|שד['׳]|דרך|סמטת|כיכר|שכונת)\\s)"
                    + "|:\\s*(?=(?:רחוב|רח['׳]|שדרות|שד['׳]|דרך|סמטת|כיכר|שכונת)\\s)");
    private static final Pattern STREET_START =
            Pattern.compile("^(?:\\d|(?:רחוב|רח['׳]|שדרות|שד['׳]|דרך|סמטת|כיכר|שכונת)\\s)");

    /**
     * The new address a message gives: what follows "to", "address is", "לכתובת", "לרחוב" and the like,
     * when it starts like an address (a number, or a street word) and holds a number; cut where the
     * message goes on to something else ("… 80203. My email is …").
     */
    private static Optional<String> address(String text) {
        for (Pattern marker : List.of(ADDRESS_MARKER, ADDRESS_MARKER_HE)) {
            Matcher m = marker.matcher(text);
            while (m.find()) {
                String tail = text.substring(m.end());
                boolean explicit = marker == ADDRESS_MARKER_HE
                        ? !m.group().startsWith("ל")
                        : m.group().strip().matches("(?is).*\\b(?:is|be)$|.*:$");
                if ((explicit || STREET_START.matcher(tail).find())
                        && tail.chars().anyMatch(Character::isDigit)) {
                    String address = cleanAddress(cut(tail));
                    if (address.length() >= 6 && address.chars().anyMatch(Character::isLetter)) {
                        return Optional.of(address);
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static String cut(String tail) {
        return tail.split(
                        "(?i)(?:\\.\\s+|,\\s*|\\s+)(?=(?:my|please|thanks|thank you|and my|i am|i'm|instead|as well|המייל|תודה|שמי|בבקשה|במקום)\\b)")[
                0];
    }

    private static String cleanAddress(String text) {
        return text.strip()
                .replaceAll(
                        "(?i)^(?:the new address is|new address is|new address:|my new address is|it's|it is|to)\\s+",
                        "")
                .replaceAll("^(?:הכתובת החדשה היא|הכתובת החדשה|כתובת חדשה|הכתובת היא)\\s*:?\\s*", "")
                .replaceAll("(?i)\\s*(?:please|thanks|thank you|תודה|בבקשה)[.!]*$", "")
                .replaceAll("^[\"“”']+|[\"“”'.!?]+$", "")
                .strip();
    }

    private static final Phrases GENERIC_COMPLAINT = WORDS.phrases("GENERIC_COMPLAINT");

    private static String subject(String details) {
        String first = details.split("[.!?\\n]")[0].strip();
        return first.length() > 80 ? first.substring(0, 77) + "…" : first;
    }

    // ---------------------------------------------------------------- products and quantities

    /** The shop's own counting words beside the language layer's numbers: a pair of shoes is one item. */
    private static final java.util.Map<String, Integer> COUNT_WORDS =
            java.util.Map.of("a", 1, "an", 1, "pair", 1, "זוג", 1, "זוגות", 2);

    /** The count one word says ("two", "שלושת", "pair"), from one to twenty, or null. */
    private static @org.jspecify.annotations.Nullable Integer count(String word) {
        Integer own = COUNT_WORDS.get(Folding.fold(word));
        if (own != null) {
            return own;
        }
        java.util.OptionalInt n = NumberWords.ofWord(word);
        return n.isPresent() && n.getAsInt() >= 1 && n.getAsInt() <= 20 ? n.getAsInt() : null;
    }

    private static final Set<String> SIZE_WORDS = WORDS.set("SIZE_WORDS");

    private static int quantity(String part) {
        List<Token> tokens = Tokens.of(part);
        for (int i = 0; i < tokens.size(); i++) {
            String word = tokens.get(i).lower();
            boolean afterSize =
                    i > 0 && SIZE_WORDS.contains(Folding.fold(tokens.get(i - 1).text()));
            if (word.matches("\\d{1,2}") && !afterSize) {
                int n = Integer.parseInt(word);
                boolean unit =
                        i + 1 < tokens.size() && tokens.get(i + 1).lower().matches("ml|mm|l|liter|liters|ליטר");
                if (n >= 1 && n <= 20 && !unit) {
                    return n;
                }
            }
            String folded = Folding.fold(tokens.get(i).text());
            boolean article = folded.equals("a") || folded.equals("an");
            Integer n = count(tokens.get(i).text());
            if (n != null && (!article || i == 0)) {
                return n;
            }
        }
        return 1;
    }

    /** The catalog's words, read once for a message, and what a message's words say of products. */
    private static final class Catalog {
        private final Set<String> words;

        Catalog(Set<String> words) {
            this.words = words;
        }

        /** Whether {@code text} names an item: a product of the catalog, a variant id, or everything. */
        private boolean namesItem(String text) {
            return !productWords(text).isEmpty()
                    || VARIANT_ID.matcher(text).find()
                    || Tokens.of(text).stream().anyMatch(t -> ALL_WORDS.contains(Folding.fold(t.text())));
        }

        /**
         * An exchange's item and the variant wanted: "the linen shirt for a blue one in L" → "the linen shirt",
         * "a blue one in L"; "את החולצה הכחולה בלבנה" → "את החולצה הכחולה", "בלבנה". Without a clear split, the
         * whole text is the item and the tool takes the option values that differ from the item's.
         */
        private String[] exchangeSplit(String text) {
            Phrases.Message message = new Phrases.Message(text);
            int verb = Math.max(0, EXCHANGE.first(message));
            List<Token> tokens = message.tokens;
            for (int i = verb + 1; i < tokens.size(); i++) {
                String word = tokens.get(i).lower();
                boolean marker = Set.of("for", "to", "into", "with").contains(word);
                if (marker
                        && (describesVariant(message.from(i + 1))
                                || !productWords(message.from(i + 1)).isEmpty())) {
                    return new String[] {
                        message.before(i).strip(), message.from(i + 1).strip()
                    };
                }
                String token = tokens.get(i).text();
                if (tokens.get(i).isHebrew()
                        && (token.startsWith("ל") || token.startsWith("ב"))
                        && token.length() > 1) {
                    String bare = token.substring(1);
                    if (isOptionWord(bare) || bare.equals("מידה") || bare.equals("צבע") || Forms.matches(bare, words)) {
                        if (token.startsWith("ב") && bare.equals("מידה") && i + 1 < tokens.size() && i < 3) {
                            continue;
                        }
                        return new String[] {
                            message.before(i).strip(), message.from(i).strip()
                        };
                    }
                }
                if (token.equals("ל") || token.equals("תמורת") || token.equals("במקום")) {
                    return new String[] {
                        message.before(i).strip(), message.from(i + 1).strip()
                    };
                }
            }
            return new String[] {text, ""};
        }

        /** Whether a message says what went wrong, beyond "I have a complaint". */
        private boolean describesProblem(String text) {
            Phrases.Message message = new Phrases.Message(text);
            if (!productWords(text).isEmpty() || orderId(text).isPresent()) {
                return true;
            }
            boolean specific = TICKET.count(message) > GENERIC_COMPLAINT.count(message);
            return specific || message.tokens.size() >= 7;
        }

        /** The words of the message that name products of the catalog. */
        private List<String> productWords(String text) {
            Set<String> vocabulary = words;
            List<String> found = new ArrayList<>();
            for (Token token : Tokens.of(text)) {
                if (token.text().length() > 1 && Forms.matchesLoosely(token.text(), vocabulary)) {
                    found.add(token.text());
                }
            }
            return found;
        }

        /**
         * The products a message asks for, each with its quantity: "2 blue linen shirts in M and a mug" →
         * {@code [{"query": "blue linen shirts in M", "quantity": 2}, {"query": "mug", "quantity": 1}]}. Parts that
         * name no product of the catalog but options ("and one in white") go with the product before them.
         */
        ArrayNode items(String words) {
            Set<String> vocabulary = this.words;
            // "Running Shoes (gray, 42)": a comma inside parentheses parts no items.
            String text = maskParenthesized(words);
            List<Token> tokens = Tokens.of(text);
            List<String> parts = new ArrayList<>();
            int from = 0;
            for (int i = 0; i < tokens.size(); i++) {
                Token token = tokens.get(i);
                String word = token.lower();
                boolean joint =
                        Set.of("and", "plus", "also", "וגם", "ועוד", "ו").contains(word);
                boolean hebrewAnd = token.isHebrew()
                        && word.startsWith("ו")
                        && word.length() > 2
                        && (count(word.substring(1)) != null || Forms.matches(word.substring(1), vocabulary));
                int at = token.start();
                boolean comma = i > 0
                        && text.substring(
                                        tokens.get(i - 1).start()
                                                + tokens.get(i - 1).text().length(),
                                        at)
                                .matches(".*[,;&+].*");
                if ((joint || hebrewAnd || comma) && at > from) {
                    parts.add(text.substring(from, at));
                    from = joint ? at + token.text().length() : (hebrewAnd ? at + 1 : at);
                }
            }
            parts.add(text.substring(Math.min(from, text.length())));
            ArrayNode items = Json.mapper().createArrayNode();
            String lastProduct = "";
            for (String raw : parts) {
                String part = raw.strip().replaceAll("^[,;&+\\s-]+|[,;&+\\s-]+$", "");
                if (part.isBlank()) {
                    continue;
                }
                part = part.replace('\u0001', ',');
                List<String> named = productWords(part);
                int quantity = quantity(part);
                String query = part;
                if (named.isEmpty()) {
                    if (lastProduct.isEmpty() || !describesVariant(part)) {
                        continue;
                    }
                    if (!startsWithQuantity(part) && !items.isEmpty()) {
                        // "a cotton t-shirt, white, size M": more of the item before, not another one.
                        ObjectNode previous = (ObjectNode) items.get(items.size() - 1);
                        previous.put("query", previous.path("query").asText() + " " + part);
                        continue;
                    }
                    query = lastProduct + " " + part;
                } else {
                    lastProduct = String.join(" ", named);
                }
                ObjectNode item = items.addObject();
                item.put("query", query);
                item.put("quantity", quantity);
            }
            return items;
        }
    }

    /**
     * Adds to an item the size its customer usually takes in its product's category ("a cotton t-shirt in
     * black" → "… size M"), when the item names no size and the product comes in that size.
     */
    private static void rememberedSize(ObjectNode item, List<Product> products, List<MemoryFact> memory) {
        String query = item.path("query").asText();
        Product best = null;
        int top = 0;
        for (Product product : products) {
            Set<String> names = Forms.vocabulary(List.of(product.name(), product.nameHe()));
            Set<String> known = Forms.vocabulary(product.keywords());
            int score = 0;
            for (Token token : Tokens.of(query)) {
                score += Forms.matches(token.text(), names) ? 2 : Forms.matches(token.text(), known) ? 1 : 0;
            }
            if (score > top) {
                top = score;
                best = product;
            }
        }
        if (best == null) {
            return;
        }
        Set<String> sizes = new LinkedHashSet<>();
        best.variants().forEach(v -> {
            if (v.options().containsKey("size")) {
                sizes.add(v.options().get("size"));
            }
        });
        if (sizes.isEmpty() || !OptionValues.named(query, sizes).isEmpty()) {
            return;
        }
        String category = best.category();
        memory.stream()
                .filter(f -> f.kind().equals("size") && f.item().equals(category) && sizes.contains(f.value()))
                .findFirst()
                .ifPresent(f -> {
                    item.put("query", query + " size " + f.value());
                });
    }

    /** {@code text} with the commas inside parentheses hidden (as U+0001), so that they part nothing. */
    private static String maskParenthesized(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            depth += c == '(' ? 1 : c == ')' && depth > 0 ? -1 : 0;
            out.append(c == ',' && depth > 0 ? '\u0001' : c);
        }
        return out.toString();
    }

    private static boolean startsWithQuantity(String part) {
        List<Token> tokens = Tokens.of(part);
        if (tokens.isEmpty()) {
            return false;
        }
        String first = Folding.fold(tokens.get(0).text());
        return first.matches("\\d{1,2}") || count(first) != null && !first.equals("a") && !first.equals("an");
    }

    private static Set<String> vocabularyOf(List<Product> products) {
        Set<String> vocabulary = new LinkedHashSet<>();
        for (Product product : products) {
            vocabulary.addAll(Forms.vocabulary(List.of(product.name(), product.nameHe())));
            vocabulary.addAll(Forms.vocabulary(product.keywords()));
        }
        return vocabulary;
    }
}
