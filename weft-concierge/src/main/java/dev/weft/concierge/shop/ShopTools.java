package dev.weft.concierge.shop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.ForbiddenException;
import dev.weft.core.Json;
import dev.weft.language.Folding;
import dev.weft.language.Forms;
import dev.weft.language.Token;
import dev.weft.language.Tokens;
import dev.weft.plan.Risk;
import dev.weft.plan.Tool;
import dev.weft.plan.ToolContext;
import dev.weft.plan.ToolRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The concierge's tools over the shop, with the shop's policy in them rather than in any prompt: a tool
 * that touches an account acts only for the customer the conversation ({@code session}, under the run's
 * user) verified, and finds only that customer's orders; only pending orders are cancelled or changed;
 * only delivered items are returned or exchanged, for another variant of the same product; refunds go to
 * the original payment; every change is high-risk, so it waits for the customer's explicit yes, and with
 * {@code dryRun} it checks everything and says what it would do, changing nothing. A tool that refuses
 * throws a {@link Refusal} saying why. Thread-safe.
 */
public final class ShopTools {
    public static final String FIND_BY_EMAIL = "find_customer_by_email";
    public static final String FIND_BY_NAME = "find_customer_by_name_postcode";
    public static final String LIST_ORDERS = "list_orders";
    public static final String GET_ORDER = "get_order";
    public static final String SEARCH = "search_products";
    public static final String GET_PRODUCT = "get_product";
    public static final String QUOTE = "quote";
    public static final String PLACE_ORDER = "place_order";
    public static final String CANCEL = "cancel_order";
    public static final String RETURN = "return_items";
    public static final String EXCHANGE = "exchange_item";
    public static final String ORDER_ADDRESS = "change_order_address";
    public static final String ACCOUNT_ADDRESS = "change_customer_address";
    public static final String TICKET = "create_ticket";
    public static final String HUMAN = "transfer_to_human";

    /** The argument that names the conversation; the dispatcher sets it, never the model. */
    public static final String SESSION = "session";
    /** The argument that makes a change check itself and say what it would do, changing nothing. */
    public static final String DRY_RUN = "dryRun";

    private static final Pattern EMAIL = Pattern.compile("[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+");
    private static final Set<String> ALL_WORDS =
            Set.of("all", "everything", "both", "whole", "entire", "הכל", "כל", "הכול", "שניהם", "שתיהן", "כולם");

    private final Shop shop;
    private final ShopPolicy policy;
    private final ToolRegistry registry;

    /** The tools under the strict policy: nobody is verified but by a storefront's vouch. */
    public ShopTools(Shop shop) {
        this(shop, ShopPolicy.strict());
    }

    public ShopTools(Shop shop, ShopPolicy policy) {
        this.shop = Objects.requireNonNull(shop, "shop");
        this.policy = Objects.requireNonNull(policy, "policy");
        JsonNode specs = specs();
        ToolRegistry tools = ToolRegistry.of();
        tools = tools.with(
                tool(specs, FIND_BY_EMAIL, this::findByEmail).idempotent(true).build());
        tools = tools.with(
                tool(specs, FIND_BY_NAME, this::findByName).idempotent(true).build());
        tools = tools.with(
                tool(specs, LIST_ORDERS, this::listOrders).idempotent(true).build());
        tools = tools.with(
                tool(specs, GET_ORDER, this::getOrder).idempotent(true).build());
        tools = tools.with(tool(specs, SEARCH, this::search).idempotent(true).build());
        tools = tools.with(
                tool(specs, GET_PRODUCT, this::getProduct).idempotent(true).build());
        tools = tools.with(tool(specs, QUOTE, this::quote).idempotent(true).build());
        tools = tools.with(change(specs, PLACE_ORDER, this::placeOrder));
        tools = tools.with(change(specs, CANCEL, this::cancel));
        tools = tools.with(change(specs, RETURN, this::returnItems));
        tools = tools.with(change(specs, EXCHANGE, this::exchange));
        tools = tools.with(change(specs, ORDER_ADDRESS, this::changeOrderAddress));
        tools = tools.with(change(specs, ACCOUNT_ADDRESS, this::changeAccountAddress));
        tools = tools.with(tool(specs, TICKET, this::ticket).build());
        tools = tools.with(tool(specs, HUMAN, this::human).build());
        this.registry = tools;
    }

    /** Every tool, by name. */
    public ToolRegistry registry() {
        return registry;
    }

    public Shop shop() {
        return shop;
    }

    public ShopPolicy policy() {
        return policy;
    }

    private static JsonNode specs() {
        try (InputStream in = ShopTools.class.getResourceAsStream("/dev/weft/concierge/tools.json")) {
            if (in == null) {
                throw new IllegalStateException("dev/weft/concierge/tools.json is missing from the class path");
            }
            return Json.mapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Tool.Builder tool(JsonNode specs, String name, Tool.Call call) {
        JsonNode spec = specs.path(name);
        ObjectNode output = Json.object();
        output.put("type", "object");
        return Tool.json(name, spec.path("description").asText(), (ObjectNode) spec.get("input"), output, call);
    }

    private static Tool change(JsonNode specs, String name, Tool.Call call) {
        return tool(specs, name, call)
                .risk(args -> args.path(DRY_RUN).asBoolean(false) ? Risk.LOW : Risk.HIGH)
                .build();
    }

    // ---------------------------------------------------------------- identity

    private JsonNode findByEmail(ObjectNode args, ToolContext context) {
        String user = user(context);
        String given = args.path("email").asText().strip();
        Matcher m = EMAIL.matcher(given);
        String email = m.find() ? m.group() : given;
        Optional<Customer> found = shop.customerByEmail(shop.ownerOf(user), email);
        return identify(
                user,
                args,
                found,
                "email",
                OneTimeCodes.address(email),
                context,
                () -> new Refusal(
                        ErrorCode.E_NOT_FOUND,
                        "no_customer",
                        "no customer has the email " + email,
                        details("email", email)));
    }

    private JsonNode findByName(ObjectNode args, ToolContext context) {
        String user = user(context);
        String name = args.path("name").asText().strip();
        String postcode = args.path("postcode").asText().strip();
        List<Customer> found = shop.customersByPostcode(shop.ownerOf(user), postcode).stream()
                .filter(c -> nameMatches(c.name(), name))
                .toList();
        return identify(
                user,
                args,
                found.size() == 1 ? Optional.of(found.get(0)) : Optional.empty(),
                "name_postcode",
                "name:" + Folding.fold(name) + "|" + postcode,
                context,
                () -> {
                    ObjectNode details = details("name", name);
                    details.put("postcode", postcode);
                    return new Refusal(
                            ErrorCode.E_NOT_FOUND,
                            "no_customer",
                            "no customer is called " + name + " at postcode " + postcode,
                            details);
                });
    }

    /**
     * Who the conversation may act for, now that it names {@code found} (empty: nobody the shop knows).
     * A conversation the storefront vouched for acts for that customer only. In the demo's policy knowing
     * the email (or name and postcode) is enough; otherwise a one-time code goes to the account's address
     * and nothing of the account is read or changed until it is said back ({@code code_sent}). Codes are
     * limited per address across conversations ({@code code_limit}, {@code E_CODE_LIMIT}); {@code asked}
     * is what the limit counts when {@code found} is empty, so that an address on no account is limited
     * as one on an account is.
     */
    private JsonNode identify(
            String user,
            ObjectNode args,
            Optional<Customer> found,
            String method,
            String asked,
            ToolContext context,
            java.util.function.Supplier<Refusal> notFound) {
        String session = session(args);
        Instant now = context.time().now();
        Optional<Shop.Vouched> vouched = shop.vouched(user, session);
        if (vouched.isPresent()) {
            if (found.isPresent()
                    && found.get().email().equalsIgnoreCase(vouched.get().email())) {
                return verified(user, args, found.get(), vouched.get().source(), now);
            }
            throw new Refusal(
                    ErrorCode.E_FORBIDDEN,
                    "vouched_other",
                    "this conversation acts only for the customer the storefront vouched for ("
                            + vouched.get().email() + "); it cannot act for another",
                    details("email", vouched.get().email()));
        }
        if (policy.verification() == ShopPolicy.Verification.DEMO) {
            return verified(user, args, found.orElseThrow(notFound), method, now);
        }
        Optional<Shop.Identity> proven = shop.identity(user, session).filter(ShopTools::proven);
        if (found.isPresent()
                && proven.isPresent()
                && proven.get().customerId().equals(found.get().id())) {
            return verified(user, args, found.get(), proven.get().method(), now);
        }
        if (policy.codes().isEmpty()) {
            throw new Refusal(
                    ErrorCode.E_FORBIDDEN,
                    "cannot_verify",
                    "knowing an email is not proof, and this shop mails no codes (WEFT_SHOP_SMTP is not set): the"
                            + " customer must sign in on the storefront");
        }
        ObjectNode details = Json.object();
        String address =
                found.map(customer -> OneTimeCodes.address(customer.email())).orElse(asked);
        if (found.isPresent()) {
            Customer customer = found.get();
            if (policy.openReads() == ShopPolicy.OpenReads.ORDER_STATUS) {
                // Claimed, not proven: enough for the status of an order of theirs the customer names.
                shop.verify(user, session, customer.id(), CLAIMED, now);
            }
            details.put("sentTo", OneTimeCodes.masked(customer.email()));
            if (shop.codeWaiting(user, session, now)
                    .filter(customer.id()::equals)
                    .isPresent()) {
                // The code sent a moment ago is still good: the customer's inbox is not filled with more.
                throw codeSent(details);
            }
        } else if (shop.codeAskedLately(address, user, session, now.minus(OneTimeCodes.LIFETIME))) {
            // As for an account's address, whose code would still be waiting: asked again, it counts once.
            throw codeSent(details);
        }
        if (!shop.mayMailCode(address, user, session, now)) {
            // Said the same whether or not the shop has such a customer, as code_sent is.
            throw new Refusal(
                    ErrorCode.E_CODE_LIMIT,
                    "code_limit",
                    "too many one-time codes were asked for this address in the last hour (at most "
                            + OneTimeCodes.SENDS_PER_ADDRESS + "): no code is mailed until the hour has passed, or"
                            + " the customer signs in on the storefront",
                    details);
        }
        if (found.isPresent()) {
            Customer customer = found.get();
            String code = OneTimeCodes.next();
            // Mailed first, kept after: a code is waited for only once it was handed to the mail server, so
            // a crash between the two leaves no code that nobody received (the next try mails a new one).
            policy.codes().get().send(customer.email(), code, OneTimeCodes.LIFETIME);
            shop.awaitCode(
                    user,
                    session,
                    customer.id(),
                    OneTimeCodes.hash(user, session, code),
                    OneTimeCodes.TRIES,
                    now.plus(OneTimeCodes.LIFETIME),
                    context.runId(),
                    now);
        }
        // Said the same whether or not the shop has such a customer, so that nobody learns who does.
        throw codeSent(details);
    }

    private static Refusal codeSent(ObjectNode details) {
        return new Refusal(
                ErrorCode.E_FORBIDDEN,
                "code_sent",
                "knowing an email is not proof: if it is on an account, a six-digit code was mailed there; the"
                        + " customer must say it back before anything of the account is read or changed",
                details);
    }

    /** An identity named but not proven: the shop's open reads allow it an order's status, nothing more. */
    static final String CLAIMED = "claimed";

    /** Whether {@code identity} was proven (a vouch or a code), not merely claimed as the demo allows. */
    private static boolean proven(Shop.Identity identity) {
        return PROVEN.contains(identity.method());
    }

    /** How a conversation proves its customer outside the demo: a storefront's token or key, or a code. */
    public static final Set<String> PROVEN = Set.of("token", "key", "code");

    /** Whether every word of {@code customerName} is among the words of {@code given}. */
    static boolean nameMatches(String customerName, String given) {
        Set<String> words = Forms.vocabulary(List.of(given));
        List<Token> name = Tokens.of(customerName);
        return !name.isEmpty() && name.stream().allMatch(t -> words.contains(Folding.fold(t.text())));
    }

    private JsonNode verified(String user, ObjectNode args, Customer customer, String method, Instant now) {
        shop.verify(user, session(args), customer.id(), method, now);
        ObjectNode out = Json.object();
        out.put("customerId", customer.id());
        out.put("name", customer.name());
        out.put("firstName", customer.firstName());
        out.put("method", method);
        out.put("language", customer.language());
        return out;
    }

    /**
     * The customer this conversation verified.
     *
     * @throws Refusal {@code E_FORBIDDEN} ({@code not_verified}) when it verified none
     */
    private Customer customer(ObjectNode args, ToolContext context) {
        String user = user(context);
        String session = session(args);
        return shop.identity(user, session)
                .filter(identity -> policy.verification() == ShopPolicy.Verification.DEMO || proven(identity))
                .flatMap(identity -> shop.customer(identity.customerId()))
                .orElseThrow(() -> new Refusal(
                        ErrorCode.E_FORBIDDEN,
                        "not_verified",
                        "the customer is not verified in this conversation: ask for the email on their account, or"
                                + " their full name and postcode"));
    }

    /** Whose shop the call is in: the run's user's own, or the default shop ({@link Shop#ownerOf}). */
    private String owner(ToolContext context) {
        return context.user().map(shop::ownerOf).orElse(Shop.DEFAULT_OWNER);
    }

    private static String user(ToolContext context) {
        return context.user()
                .orElseThrow(() -> new ForbiddenException(
                        "the concierge's tools act in a conversation of a user; this run has none"));
    }

    private static String session(ObjectNode args) {
        return args.path(SESSION).asText();
    }

    /**
     * {@code customer}'s order {@code orderId}.
     *
     * @throws Refusal {@code E_NOT_FOUND} for an order that does not exist or is another customer's (the
     *     two are not told apart)
     */
    private Order ownOrder(Customer customer, String orderId) {
        String id = orderId.strip().toUpperCase(Locale.ROOT);
        return shop.order(id)
                .filter(o -> o.customerId().equals(customer.id()))
                .orElseThrow(() -> new Refusal(
                        ErrorCode.E_NOT_FOUND,
                        "order_not_found",
                        "there is no order " + id + " on this customer's account",
                        details("orderId", id)));
    }

    // ---------------------------------------------------------------- reading

    private JsonNode listOrders(ObjectNode args, ToolContext context) {
        Customer customer = customer(args, context);
        Optional<String> status = text(args, "status");
        Catalog catalog = catalog();
        ObjectNode out = Json.object();
        out.put("customerId", customer.id());
        ArrayNode orders = out.putArray("orders");
        for (Order order : shop.orders(customer.id())) {
            if (status.isEmpty() || order.status().label().equals(status.get())) {
                orders.add(orderJson(order, catalog));
            }
        }
        return out;
    }

    private JsonNode getOrder(ObjectNode args, ToolContext context) {
        Customer customer = policy.openReads() == ShopPolicy.OpenReads.ORDER_STATUS
                ? shop.identity(user(context), session(args))
                        .filter(identity -> identity.method().equals(CLAIMED))
                        .flatMap(identity -> shop.customer(identity.customerId()))
                        .orElseGet(() -> customer(args, context))
                : customer(args, context);
        Order order = ownOrder(customer, args.path("orderId").asText());
        ObjectNode out = Json.object();
        out.set("order", orderJson(order, catalog()));
        return out;
    }

    private JsonNode search(ObjectNode args, ToolContext context) {
        String query = args.path("query").asText();
        List<Product> products = shop.products(owner(context));
        List<Product> found = Matching.ranked(products, query);
        Set<String> named = new LinkedHashSet<>(OptionValues.named(query, OptionValues.all(products)));
        if (found.isEmpty() && !named.isEmpty()) {
            found = products.stream()
                    .filter(p -> !Matching.optionValues(p, query).isEmpty())
                    .toList();
        }
        ObjectNode out = Json.object();
        out.put("query", query);
        ArrayNode options = out.putArray("options");
        named.forEach(options::add);
        ArrayNode results = out.putArray("products");
        for (Product product : found.subList(0, Math.min(found.size(), 6))) {
            ObjectNode json = productJson(product);
            List<String> values = Matching.optionValues(product, query);
            ArrayNode matching = json.putArray("matching");
            product.variants().stream()
                    .filter(v -> v.options().values().containsAll(values))
                    .forEach(v -> matching.add(v.id()));
            results.add(json);
        }
        return out;
    }

    private JsonNode getProduct(ObjectNode args, ToolContext context) {
        String id = args.path("productId").asText().toUpperCase(Locale.ROOT);
        Product product = shop.product(owner(context), id)
                .orElseThrow(() -> new Refusal(
                        ErrorCode.E_NOT_FOUND, "product_not_found", "there is no product " + id, details("query", id)));
        ObjectNode out = Json.object();
        out.set("product", productJson(product));
        return out;
    }

    private JsonNode quote(ObjectNode args, ToolContext context) {
        List<Product> products = shop.products(owner(context));
        ObjectNode out = Json.object();
        ArrayNode lines = out.putArray("lines");
        long total = 0;
        long totalMax = 0;
        for (JsonNode item : args.path("items")) {
            Product product = product(products, item);
            int quantity = item.path("quantity").asInt(1);
            List<Variant> variants = variants(product, item);
            long low = variants.stream().mapToLong(Variant::priceCents).min().orElseThrow();
            long high = variants.stream().mapToLong(Variant::priceCents).max().orElseThrow();
            int available = variants.stream().mapToInt(Variant::stock).sum();
            ObjectNode line = lines.addObject();
            line.put("productId", product.id());
            line.put("product", product.name());
            line.put("productHe", product.nameHe());
            if (variants.size() == 1) {
                line.put("variantId", variants.get(0).id());
                line.set("options", variants.get(0).optionsJson());
            }
            line.put("quantity", quantity);
            line.put("unitPrice", Money.decimal(low));
            line.put("amount", Money.decimal(low * quantity));
            if (high != low) {
                // The variants asked for differ in price: the quote says from what to what.
                line.put("unitPriceMax", Money.decimal(high));
                line.put("amountMax", Money.decimal(high * quantity));
            }
            line.put("available", available);
            line.put("inStock", available >= quantity);
            total += low * quantity;
            totalMax += high * quantity;
        }
        out.put("total", Money.decimal(total));
        if (totalMax != total) {
            out.put("totalMax", Money.decimal(totalMax));
        }
        return out;
    }

    // ---------------------------------------------------------------- changes

    private JsonNode placeOrder(ObjectNode args, ToolContext context) {
        Customer customer = customer(args, context);
        List<Product> products = shop.products(owner(context));
        List<String> variantIds = new ArrayList<>();
        ObjectNode out = Json.object();
        ArrayNode lines = Json.mapper().createArrayNode();
        long total = 0;
        Map<String, Integer> wanted = new LinkedHashMap<>();
        for (JsonNode item : args.path("items")) {
            Product product = product(products, item);
            int quantity = item.path("quantity").asInt(1);
            List<Variant> variants = variants(product, item);
            if (variants.size() > 1) {
                List<Variant> inStock =
                        variants.stream().filter(Variant::inStock).toList();
                if (inStock.isEmpty()) {
                    ObjectNode details = variantJson(product, variants.get(0));
                    details.putObject("options");
                    details.put("stock", 0);
                    details.set("alternatives", Json.mapper().createArrayNode());
                    throw new Refusal(ErrorCode.E_POLICY, "out_of_stock", product.name() + " is out of stock", details);
                }
                if (inStock.size() != 1) {
                    throw chooseVariant(product, variants, "say which variant of " + product.name());
                }
                variants = inStock;
            }
            Variant variant = variants.get(0);
            int total_wanted = wanted.merge(variant.id(), quantity, Integer::sum);
            if (variant.stock() < total_wanted) {
                ObjectNode details = variantJson(product, variant);
                details.put("requested", total_wanted);
                details.set("alternatives", alternatives(product, variant));
                throw new Refusal(
                        ErrorCode.E_POLICY,
                        variant.stock() == 0 ? "out_of_stock" : "not_enough_stock",
                        product.name() + " (" + variant.describe() + ") has " + variant.stock() + " in stock, "
                                + total_wanted + " asked",
                        details);
            }
            for (int i = 0; i < quantity; i++) {
                variantIds.add(variant.id());
            }
            ObjectNode line = variantJson(product, variant);
            line.put("quantity", quantity);
            line.put("amount", Money.decimal(variant.priceCents() * quantity));
            lines.add(line);
            total += variant.priceCents() * quantity;
        }
        out.put("customerId", customer.id());
        out.set("lines", lines);
        out.put("total", Money.decimal(total));
        out.put("address", customer.address());
        out.put("payment", customer.payment().label());
        if (dryRun(args)) {
            out.put("dryRun", true);
            return out;
        }
        Order order = shop.placeOrder(customer.id(), variantIds, context.time().now());
        out.put("orderId", order.id());
        out.put("status", order.status().label());
        return out;
    }

    private JsonNode cancel(ObjectNode args, ToolContext context) {
        Customer customer = customer(args, context);
        Order order = pendingOrder(
                customer, text(args, "orderId"), "cancel", text(args, "item").orElse(""));
        String reason = text(args, "reason").orElse("");
        ObjectNode out = Json.object();
        out.put("orderId", order.id());
        out.set("order", orderJson(order, catalog()));
        out.put("refund", Money.decimal(order.totalCents()));
        out.put("refundTo", order.payment().label());
        if (dryRun(args)) {
            out.put("dryRun", true);
            return out;
        }
        shop.cancel(
                order.id(),
                reason.isBlank() ? "no reason given" : reason,
                context.time().now());
        out.put("status", OrderStatus.CANCELLED.label());
        return out;
    }

    private JsonNode returnItems(ObjectNode args, ToolContext context) {
        Customer customer = customer(args, context);
        Catalog catalog = catalog();
        List<Candidate> chosen =
                chooseItems(customer, text(args, "orderId"), text(args, "item").orElse(""), catalog, true);
        Order order = chosen.get(0).order();
        if (order.status() != OrderStatus.DELIVERED) {
            throw Shop.notDelivered(order);
        }
        Optional<String> refundTo = text(args, "refundTo");
        if (refundTo.isPresent() && !isOriginal(refundTo.get(), order.payment())) {
            ObjectNode details = details("original", order.payment().label());
            details.put("asked", refundTo.get());
            throw new Refusal(
                    ErrorCode.E_POLICY,
                    "refund_original_only",
                    "refunds go to the original payment (" + order.payment().label() + "), not to " + refundTo.get(),
                    details);
        }
        List<Integer> positions =
                chosen.stream().map(c -> c.item().position()).sorted().toList();
        long refund = chosen.stream().mapToLong(c -> c.item().priceCents()).sum();
        ObjectNode out = Json.object();
        out.put("orderId", order.id());
        ArrayNode items = out.putArray("items");
        chosen.forEach(c -> items.add(itemJson(c.item(), catalog)));
        out.put("refund", Money.decimal(refund));
        out.put("refundTo", order.payment().label());
        if (dryRun(args)) {
            out.put("dryRun", true);
            return out;
        }
        Shop.ReturnRequest done = shop.returnItems(
                order.id(),
                positions,
                text(args, "reason").orElse(""),
                context.time().now());
        out.put("returnId", done.id());
        out.put("status", done.status());
        return out;
    }

    private JsonNode exchange(ObjectNode args, ToolContext context) {
        Customer customer = customer(args, context);
        Catalog catalog = catalog();
        String itemText = text(args, "item").orElse("");
        Optional<String> toText = text(args, "to");
        List<Candidate> chosen = chooseItems(customer, text(args, "orderId"), itemText, catalog, false);
        if (chosen.size() > 1) {
            throw whichItem(chosen.stream().map(Candidate::order).distinct().toList(), chosen, catalog);
        }
        Candidate item = chosen.get(0);
        Order order = item.order();
        if (order.status() != OrderStatus.DELIVERED && order.status() != OrderStatus.PENDING) {
            throw Shop.notDelivered(order);
        }
        Variant target = target(item, itemText, toText, text(args, "toVariantId"), catalog);
        ObjectNode out = Json.object();
        out.put("orderId", order.id());
        out.put("kind", order.status() == OrderStatus.DELIVERED ? "exchange" : "change");
        out.set("item", itemJson(item.item(), catalog));
        out.set("to", variantJson(item.product(), target));
        long difference = target.priceCents() - item.item().priceCents();
        out.put("priceDifference", Money.decimal(difference));
        out.put("payment", order.payment().label());
        if (dryRun(args)) {
            out.put("dryRun", true);
            return out;
        }
        if (order.status() == OrderStatus.DELIVERED) {
            Shop.Exchange done = shop.exchange(
                    order.id(),
                    item.item().position(),
                    target.id(),
                    context.time().now());
            out.put("exchangeId", done.id());
        } else {
            shop.changeItem(
                    order.id(),
                    item.item().position(),
                    target.id(),
                    context.time().now());
        }
        return out;
    }

    private JsonNode changeOrderAddress(ObjectNode args, ToolContext context) {
        Customer customer = customer(args, context);
        Order order = pendingOrder(customer, text(args, "orderId"), "change", "");
        String address = address(args);
        ObjectNode out = Json.object();
        out.put("orderId", order.id());
        out.put("from", order.address());
        out.put("to", address);
        if (dryRun(args)) {
            out.put("dryRun", true);
            return out;
        }
        shop.changeAddress(order.id(), address, context.time().now());
        return out;
    }

    private JsonNode changeAccountAddress(ObjectNode args, ToolContext context) {
        Customer customer = customer(args, context);
        String address = address(args);
        ObjectNode out = Json.object();
        out.put("customerId", customer.id());
        out.put("from", customer.address());
        out.put("to", address);
        if (dryRun(args)) {
            out.put("dryRun", true);
            return out;
        }
        shop.changeCustomerAddress(customer.id(), address);
        return out;
    }

    private JsonNode ticket(ObjectNode args, ToolContext context) {
        Customer customer = customer(args, context);
        Optional<String> orderId =
                text(args, "orderId").map(id -> ownOrder(customer, id).id());
        Shop.Ticket ticket = shop.openTicket(
                user(context),
                session(args),
                Optional.of(customer.id()),
                orderId,
                "ticket",
                args.path("subject").asText().strip(),
                args.path("body").asText().strip(),
                context.time().now());
        ObjectNode out = Json.object();
        out.put("ticketId", ticket.id());
        orderId.ifPresent(id -> out.put("orderId", id));
        out.put("subject", ticket.subject());
        return out;
    }

    private JsonNode human(ObjectNode args, ToolContext context) {
        String user = user(context);
        Optional<Customer> customer = shop.identity(user, session(args))
                .filter(identity -> policy.verification() == ShopPolicy.Verification.DEMO || proven(identity))
                .flatMap(identity -> shop.customer(identity.customerId()));
        Shop.Ticket ticket = shop.openTicket(
                user,
                session(args),
                customer.map(Customer::id),
                Optional.empty(),
                "human",
                "the customer asked for a person",
                args.path("summary").asText().strip(),
                context.time().now());
        ObjectNode out = Json.object();
        out.put("ticketId", ticket.id());
        customer.ifPresent(c -> out.put("customerId", c.id()));
        return out;
    }

    // ---------------------------------------------------------------- choosing what the customer means

    /** An item of one of the customer's orders, with how strongly the customer's words name it. */
    record Candidate(Order order, OrderItem item, Product product, Variant variant, int score) {}

    /**
     * The items the customer's words name: in order {@code orderId} when given, else among all their
     * orders that are not cancelled; items already returned or exchanged are left out. "All" takes every
     * item of the order (for a return).
     *
     * @throws Refusal naming the candidates when the words name none, or items of several orders
     */
    private List<Candidate> chooseItems(
            Customer customer, Optional<String> orderId, String words, Catalog catalog, boolean many) {
        List<Order> orders = orderId.isPresent()
                ? List.of(ownOrder(customer, orderId.get()))
                : shop.orders(customer.id()).stream()
                        .filter(o -> o.status() != OrderStatus.CANCELLED)
                        .toList();
        List<Candidate> all = new ArrayList<>();
        for (Order order : orders) {
            List<Integer> settled = shop.settledItems(order.id());
            for (OrderItem item : order.items()) {
                if (settled.contains(item.position())) {
                    continue;
                }
                Product product = catalog.productOf(item.variantId());
                Variant variant = product.variant(item.variantId()).orElseThrow();
                int score = Matching.score(product, words) * 10;
                if (score > 0) {
                    for (String value : Matching.optionValues(product, words)) {
                        if (variant.options().containsValue(value)) {
                            score++;
                        }
                    }
                }
                if (words.toUpperCase(Locale.ROOT).contains(item.variantId())) {
                    score += 1000;
                }
                all.add(new Candidate(order, item, product, variant, score));
            }
        }
        if (orderId.isPresent() && all.isEmpty()) {
            Order order = orders.get(0);
            throw new Refusal(
                    ErrorCode.E_POLICY,
                    "already_settled",
                    "every item of order " + order.id() + " was already returned or exchanged",
                    details("orderId", order.id()));
        }
        boolean everything = many
                && orderId.isPresent()
                && Tokens.of(words).stream().anyMatch(t -> ALL_WORDS.contains(Folding.fold(t.text())));
        if (everything) {
            return all;
        }
        int top = all.stream().mapToInt(Candidate::score).max().orElse(0);
        List<Candidate> chosen = new ArrayList<>();
        if (top == 0) {
            List<Candidate> usable = all.stream()
                    .filter(c -> orderId.isPresent()
                            || c.order().status() == OrderStatus.DELIVERED
                            || c.order().status() == OrderStatus.PENDING)
                    .toList();
            if (usable.size() == 1) {
                return usable;
            }
            throw whichItem(orders, usable.isEmpty() ? all : usable, catalog);
        }
        for (Candidate c : all) {
            if (c.score() == top) {
                chosen.add(c);
            }
        }
        if (many) {
            // Other things named apart from the best ("the shirt and the scarf").
            Set<String> taken = new LinkedHashSet<>();
            chosen.forEach(c -> {
                Matching.Vocabulary v = Matching.vocabulary(c.product());
                taken.addAll(v.names());
                taken.addAll(v.keywords());
            });
            for (Candidate c : all) {
                if (chosen.contains(c) || c.score() == 0) {
                    continue;
                }
                Matching.Vocabulary v = Matching.vocabulary(c.product());
                boolean apart = Tokens.of(words).stream()
                        .anyMatch(t -> Forms.matches(t.text(), v.names()) && !Forms.matches(t.text(), taken));
                if (apart) {
                    chosen.add(c);
                }
            }
        }
        List<Order> among = chosen.stream().map(Candidate::order).distinct().toList();
        if (among.size() > 1) {
            // The same words name items of several orders: delivered ones first, then ask.
            List<Candidate> delivered = chosen.stream()
                    .filter(c -> c.order().status() == OrderStatus.DELIVERED)
                    .toList();
            List<Order> deliveredOrders =
                    delivered.stream().map(Candidate::order).distinct().toList();
            if (many && deliveredOrders.size() == 1) {
                return delivered;
            }
            throw whichOrder(among, chosen, catalog);
        }
        return chosen;
    }

    private Refusal whichItem(List<Order> orders, List<Candidate> candidates, Catalog catalog) {
        ObjectNode details = Json.object();
        ArrayNode items = details.putArray("items");
        for (Candidate c : candidates) {
            ObjectNode item = itemJson(c.item(), catalog);
            item.put("orderId", c.order().id());
            item.put("status", c.order().status().label());
            items.add(item);
        }
        return new Refusal(
                ErrorCode.E_POLICY,
                "which_item",
                "say which item: " + (candidates.isEmpty() ? "there are none to choose from" : describe(candidates)),
                details);
    }

    private Refusal whichOrder(List<Order> orders, List<Candidate> candidates, Catalog catalog) {
        ObjectNode details = Json.object();
        ArrayNode list = details.putArray("orders");
        for (Order order : orders) {
            ObjectNode json = list.addObject();
            json.put("id", order.id());
            json.put("status", order.status().label());
            ArrayNode items = json.putArray("items");
            candidates.stream()
                    .filter(c -> c.order().equals(order))
                    .forEach(c -> items.add(itemJson(c.item(), catalog)));
        }
        return new Refusal(
                ErrorCode.E_POLICY,
                "which_order",
                "those words name items of several orders: "
                        + String.join(", ", orders.stream().map(Order::id).toList()),
                details);
    }

    private static String describe(List<Candidate> candidates) {
        List<String> names = new ArrayList<>();
        for (Candidate c : candidates) {
            names.add(c.product().name() + " (" + c.variant().describe() + ") in "
                    + c.order().id());
        }
        return String.join("; ", names);
    }

    /** The variant an exchange goes to: named by id, or by the option values the customer wants. */
    private Variant target(
            Candidate item, String itemText, Optional<String> toText, Optional<String> toVariantId, Catalog catalog) {
        Product product = item.product();
        Variant current = item.variant();
        Optional<Variant> named = Optional.empty();
        if (toVariantId.isPresent()) {
            String id = toVariantId.get().toUpperCase(Locale.ROOT);
            named = Optional.of(product.variant(id).orElseThrow(() -> otherProduct(product, id)));
        } else {
            String words = toText.orElse(itemText);
            named = Matching.variantIds(words).stream()
                    .filter(id -> !id.equals(current.id()))
                    .map(id -> product.variant(id).orElseThrow(() -> otherProduct(product, id)))
                    .findFirst();
        }
        Variant target;
        if (named.isPresent()) {
            target = named.get();
        } else {
            String words = toText.orElse(itemText);
            List<String> values = new ArrayList<>(Matching.optionValues(product, words));
            if (toText.isEmpty()) {
                values.removeAll(current.options().values());
            }
            if (values.isEmpty()) {
                if (toText.isPresent()) {
                    List<Product> elsewhere = Matching.best(catalog.products(), toText.get());
                    if (!elsewhere.isEmpty() && !elsewhere.contains(product)) {
                        throw otherProduct(product, elsewhere.get(0).name());
                    }
                }
                throw chooseVariant(
                        product,
                        product.variants().stream()
                                .filter(v -> !v.id().equals(current.id()))
                                .toList(),
                        "say which variant of " + product.name() + " the customer wants instead");
            }
            List<Variant> matching = Matching.variantsWith(product, values);
            if (matching.isEmpty()) {
                throw chooseVariant(
                        product,
                        product.variants().stream()
                                .filter(v -> !v.id().equals(current.id()))
                                .toList(),
                        product.name() + " has no variant " + String.join(", ", values));
            }
            // Keep what the customer did not ask to change.
            target = matching.stream()
                    .max(java.util.Comparator.comparingInt((Variant v) -> kept(v, current, values))
                            .thenComparing(Variant::inStock))
                    .orElseThrow();
        }
        if (target.id().equals(current.id())) {
            ObjectNode details = variantJson(product, target);
            details.set("alternatives", alternatives(product, current));
            throw new Refusal(
                    ErrorCode.E_POLICY,
                    "same_variant",
                    "the item already is " + product.name() + " (" + target.describe() + ")",
                    details);
        }
        if (!target.inStock()) {
            ObjectNode details = variantJson(product, target);
            details.set("alternatives", alternatives(product, current));
            throw new Refusal(
                    ErrorCode.E_POLICY,
                    "out_of_stock",
                    product.name() + " (" + target.describe() + ") is out of stock",
                    details);
        }
        return target;
    }

    private static int kept(Variant candidate, Variant current, List<String> asked) {
        int kept = 0;
        for (Map.Entry<String, String> option : current.options().entrySet()) {
            if (!asked.contains(candidate.options().get(option.getKey()))
                    && option.getValue().equals(candidate.options().get(option.getKey()))) {
                kept++;
            }
        }
        return kept;
    }

    private static Refusal otherProduct(Product product, String other) {
        ObjectNode details = details("product", product.name());
        details.put("productHe", product.nameHe());
        details.put("asked", other);
        return new Refusal(
                ErrorCode.E_POLICY,
                "other_product",
                "an item is exchanged only for another variant of the same product (" + product.name() + "), not for "
                        + other,
                details);
    }

    private Refusal chooseVariant(Product product, List<Variant> variants, String message) {
        ObjectNode details = details("product", product.name());
        details.put("productHe", product.nameHe());
        details.put("productId", product.id());
        ArrayNode list = details.putArray("variants");
        variants.forEach(v -> list.add(variantJson(product, v)));
        return new Refusal(ErrorCode.E_POLICY, "choose_variant", message, details);
    }

    private ArrayNode alternatives(Product product, Variant except) {
        ArrayNode list = Json.mapper().createArrayNode();
        product.variants().stream()
                .filter(v -> v.inStock() && !v.id().equals(except.id()))
                .forEach(v -> list.add(variantJson(product, v)));
        return list;
    }

    /**
     * The pending order a cancellation or change is for: {@code orderId}, or the customer's only pending
     * order.
     */
    private Order pendingOrder(Customer customer, Optional<String> orderId, String what, String words) {
        if (orderId.isPresent()) {
            Order order = ownOrder(customer, orderId.get());
            if (order.status() != OrderStatus.PENDING) {
                throw Shop.notPending(order);
            }
            return order;
        }
        List<Order> pending = shop.orders(customer.id()).stream()
                .filter(o -> o.status() == OrderStatus.PENDING)
                .toList();
        if (pending.size() == 1) {
            return pending.get(0);
        }
        Catalog catalog = catalog();
        if (!words.isBlank()) {
            // "the one with the smart watch": the only pending order holding what the words name.
            List<Order> named = new ArrayList<>();
            int top = 0;
            for (Order order : pending) {
                int score = order.items().stream()
                        .mapToInt(i -> Matching.score(catalog.productOf(i.variantId()), words))
                        .max()
                        .orElse(0);
                if (score > top) {
                    top = score;
                    named.clear();
                }
                if (score == top && score > 0) {
                    named.add(order);
                }
            }
            if (named.size() == 1) {
                return named.get(0);
            }
        }
        ObjectNode details = Json.object();
        details.put("action", what);
        ArrayNode orders = details.putArray("orders");
        pending.forEach(o -> orders.add(orderJson(o, catalog)));
        if (pending.isEmpty()) {
            throw new Refusal(
                    ErrorCode.E_POLICY,
                    "no_pending_order",
                    "the customer has no pending order; only pending orders can be cancelled or changed",
                    details);
        }
        throw new Refusal(
                ErrorCode.E_POLICY,
                "which_order",
                "the customer has several pending orders: "
                        + String.join(", ", pending.stream().map(Order::id).toList()),
                details);
    }

    private Product product(List<Product> products, JsonNode item) {
        Optional<String> variantId = text(item, "variantId");
        if (variantId.isPresent()) {
            String id = variantId.get().toUpperCase(Locale.ROOT);
            return products.stream()
                    .filter(p -> p.variant(id).isPresent())
                    .findFirst()
                    .orElseThrow(() -> new Refusal(
                            ErrorCode.E_NOT_FOUND,
                            "product_not_found",
                            "there is no variant " + id,
                            details("query", id)));
        }
        String query = text(item, "query")
                .orElseThrow(() -> new Refusal(
                        ErrorCode.E_ARGS_INVALID, "product_not_found", "an item needs a query or a variantId"));
        List<Product> best = Matching.best(products, query);
        if (best.isEmpty()) {
            throw new Refusal(
                    ErrorCode.E_NOT_FOUND,
                    "product_not_found",
                    "the catalog has nothing called " + query,
                    details("query", query));
        }
        if (best.size() > 1) {
            ObjectNode details = details("query", query);
            ArrayNode list = details.putArray("products");
            best.forEach(p -> list.add(productJson(p)));
            throw new Refusal(
                    ErrorCode.E_POLICY,
                    "which_product",
                    "'" + query + "' could be "
                            + String.join(
                                    " or ", best.stream().map(Product::name).toList()),
                    details);
        }
        return best.get(0);
    }

    /** The variants of {@code product} an item's words (or variant id) allow; never empty. */
    private List<Variant> variants(Product product, JsonNode item) {
        Optional<String> variantId = text(item, "variantId");
        if (variantId.isPresent()) {
            return List.of(
                    product.variant(variantId.get().toUpperCase(Locale.ROOT)).orElseThrow());
        }
        String query = text(item, "query").orElse("");
        Optional<Variant> byId = Matching.variantNamed(product, query);
        if (byId.isPresent()) {
            return List.of(byId.get());
        }
        List<String> values = Matching.optionValues(product, query);
        List<Variant> matching = Matching.variantsWith(product, values);
        if (matching.isEmpty()) {
            throw chooseVariant(
                    product, product.variants(), product.name() + " has no variant " + String.join(", ", values));
        }
        return matching;
    }

    private static boolean isOriginal(String asked, Payment payment) {
        String words = Folding.fold(asked);
        if (words.matches(".*(original|same|card i paid|how i paid|מקורי|אותו|אמצעי התשלום).*")) {
            return true;
        }
        Set<String> label =
                Forms.vocabulary(List.of(payment.label(), payment.kind().replace('_', ' ')));
        long hits = Tokens.of(asked).stream()
                .filter(t -> t.text().length() > 2 && Forms.matches(t.text(), label))
                .count();
        boolean other = words.matches(".*(gift|store credit|credit note|voucher|cash|bank|paypal|זיכוי|שובר|מזומן|"
                + "כרטיס מתנה|העברה|בנק|פייפאל|גיפט).*");
        return hits > 0 && !(other && !Folding.fold(payment.label()).matches(".*(gift|paypal).*"));
    }

    private static String address(ObjectNode args) {
        String address = args.path("address").asText().strip().replaceAll("\\s+", " ");
        if (address.length() < 6 || address.chars().noneMatch(Character::isLetter)) {
            throw new Refusal(
                    ErrorCode.E_ARGS_INVALID,
                    "bad_address",
                    "'" + address + "' is not an address: give the street and number, and the city",
                    details("address", address));
        }
        return address;
    }

    private static boolean dryRun(ObjectNode args) {
        return args.path(DRY_RUN).asBoolean(false);
    }

    private static Optional<String> text(JsonNode args, String field) {
        JsonNode value = args.path(field);
        return value.isTextual() && !value.asText().isBlank()
                ? Optional.of(value.asText().strip())
                : Optional.empty();
    }

    private static ObjectNode details(String field, String value) {
        ObjectNode details = Json.object();
        details.put(field, value);
        return details;
    }

    // ---------------------------------------------------------------- JSON

    /** The catalog read once for a call: products by variant. */
    record Catalog(List<Product> products, Map<String, Product> byVariant) {
        Product productOf(String variantId) {
            return byVariant.get(variantId);
        }
    }

    private Catalog catalog() {
        // Every shop's: an order is read by its own customer's shop, and ids are unique across shops.
        List<Product> products = shop.allProducts();
        Map<String, Product> byVariant = new LinkedHashMap<>();
        products.forEach(p -> p.variants().forEach(v -> byVariant.put(v.id(), p)));
        return new Catalog(products, byVariant);
    }

    private ObjectNode orderJson(Order order, Catalog catalog) {
        ObjectNode json = Json.object();
        json.put("id", order.id());
        json.put("status", order.status().label());
        json.put("total", Money.decimal(order.totalCents()));
        json.put("address", order.address());
        json.put("payment", order.payment().label());
        List<Integer> settled = shop.settledItems(order.id());
        ArrayNode items = json.putArray("items");
        for (OrderItem item : order.items()) {
            ObjectNode i = itemJson(item, catalog);
            if (settled.contains(item.position())) {
                i.put("settled", true);
            }
            items.add(i);
        }
        return json;
    }

    /** An order's item: its position, its product and variant, and the price paid for it. */
    private static ObjectNode itemJson(OrderItem item, Catalog catalog) {
        Product product = catalog.productOf(item.variantId());
        ObjectNode json = Json.object();
        json.put("position", item.position());
        json.setAll(variantJson(product, product.variant(item.variantId()).orElseThrow()));
        json.remove("stock");
        json.put("price", Money.decimal(item.priceCents()));
        return json;
    }

    private static ObjectNode variantJson(Product product, Variant variant) {
        ObjectNode json = Json.object();
        json.put("productId", product.id());
        json.put("category", product.category());
        json.put("product", product.name());
        json.put("productHe", product.nameHe());
        json.put("variantId", variant.id());
        json.set("options", variant.optionsJson());
        json.put("price", Money.decimal(variant.priceCents()));
        json.put("stock", variant.stock());
        return json;
    }

    private static ObjectNode productJson(Product product) {
        ObjectNode json = Json.object();
        json.put("id", product.id());
        json.put("name", product.name());
        json.put("nameHe", product.nameHe());
        json.put("category", product.category());
        json.put("inStock", product.inStock());
        ArrayNode variants = json.putArray("variants");
        for (Variant v : product.variants()) {
            ObjectNode variant = variants.addObject();
            variant.put("id", v.id());
            variant.set("options", v.optionsJson());
            variant.put("price", Money.decimal(v.priceCents()));
            variant.put("stock", v.stock());
        }
        return json;
    }
}
