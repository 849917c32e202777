package dev.weft.concierge.internal;

import static dev.weft.concierge.internal.Replies.t;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.concierge.Goal;
import dev.weft.concierge.shop.ShopTools;
import dev.weft.concierge.spi.MemoryFact;
import dev.weft.concierge.spi.Specialist;
import dev.weft.concierge.spi.SpecialistInput;
import dev.weft.concierge.spi.SpecialistOutput;
import dev.weft.concierge.spi.ToolRequest;
import dev.weft.concierge.spi.ToolResult;
import dev.weft.core.Json;
import dev.weft.core.StepScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The specialists that need no model, one for every sales and support goal: the first pass turns what is
 * known of the request into the tools to call (verifying the customer first when they gave who they
 * are), or asks for what is missing; the second pass says what the tools did, or why they would not, in
 * the customer's language, and updates the state (the verified customer, what the reply asks for, the
 * goal done). Stateless and thread-safe.
 */
public final class OfflineSpecialist implements Specialist {
    @Override
    public SpecialistOutput first(StepScope step, SpecialistInput input) {
        Goal goal = input.goal();
        String language = input.language();
        JsonNode state = input.state();
        JsonNode request = state.path("request");
        boolean verified = state.path("customer").path("verified").asBoolean(false);
        List<ToolRequest> calls = new ArrayList<>();
        boolean identifying = false;
        if (goal.tools().contains(ShopTools.FIND_BY_EMAIL)) {
            if (request.path("email").isTextual()) {
                calls.add(new ToolRequest(
                        ShopTools.FIND_BY_EMAIL,
                        args("email", request.path("email").asText())));
                identifying = true;
            } else if (request.path("name").isTextual()
                    && request.path("postcode").isTextual()) {
                ObjectNode args = args("name", request.path("name").asText());
                args.put("postcode", request.path("postcode").asText());
                calls.add(new ToolRequest(ShopTools.FIND_BY_NAME, args));
                identifying = true;
            }
        }
        boolean needsAccount = goal != Goal.FIND_PRODUCT && goal != Goal.QUOTE && goal != Goal.HUMAN;
        if (needsAccount && !verified && !identifying) {
            String ask = request.path("name").isTextual()
                    ? Replies.askPostcode(language)
                    : request.path("postcode").isTextual() ? Replies.askName(language) : Replies.askIdentity(language);
            return ask(ask, "identity");
        }
        switch (goal) {
            case ORDER_STATUS -> {
                if (orders(request).size() > 1) {
                    orders(request).forEach(id -> calls.add(new ToolRequest(ShopTools.GET_ORDER, args("orderId", id))));
                } else if (request.path("orderId").isTextual()) {
                    calls.add(new ToolRequest(
                            ShopTools.GET_ORDER,
                            args("orderId", request.path("orderId").asText())));
                } else {
                    calls.add(new ToolRequest(ShopTools.LIST_ORDERS, Json.object()));
                }
            }
            case CANCEL -> calls.addAll(perOrder(ShopTools.CANCEL, request, "reason", "item"));
            case RETURN ->
                calls.add(new ToolRequest(ShopTools.RETURN, copy(request, "orderId", "item", "refundTo", "reason")));
            case EXCHANGE ->
                calls.add(new ToolRequest(ShopTools.EXCHANGE, copy(request, "orderId", "item", "to", "toVariantId")));
            case CHANGE_ADDRESS -> {
                if (!request.path("address").isTextual()) {
                    if (!identifying) {
                        return ask(askAddress(language), "address");
                    }
                } else if (request.path("account").asBoolean(false)) {
                    calls.add(new ToolRequest(ShopTools.ACCOUNT_ADDRESS, copy(request, "address")));
                } else {
                    calls.addAll(perOrder(ShopTools.ORDER_ADDRESS, request, "address"));
                }
            }
            case TICKET -> {
                if (!request.path("details").isTextual()) {
                    if (!identifying) {
                        return ask(askDetails(language), "details");
                    }
                } else {
                    ObjectNode args = copy(request, "orderId");
                    args.put(
                            "subject",
                            request.path("subject")
                                    .asText(request.path("details").asText()));
                    args.put("body", request.path("details").asText());
                    calls.add(new ToolRequest(ShopTools.TICKET, args));
                }
            }
            case HUMAN -> {
                List<String> said = new ArrayList<>(input.recent());
                said.add("customer: " + input.text());
                calls.add(new ToolRequest(ShopTools.HUMAN, args("summary", String.join("\n", said))));
            }
            case FIND_PRODUCT -> {
                if (request.path("query").isTextual()) {
                    calls.add(new ToolRequest(
                            ShopTools.SEARCH,
                            args("query", request.path("query").asText())));
                } else {
                    return ask(askProduct(language), "product");
                }
            }
            case QUOTE, ORDER -> {
                if (request.path("items").isArray() && !request.path("items").isEmpty()) {
                    ObjectNode args = Json.object();
                    args.set("items", request.path("items").deepCopy());
                    calls.add(new ToolRequest(goal == Goal.QUOTE ? ShopTools.QUOTE : ShopTools.PLACE_ORDER, args));
                } else if (request.path("query").isTextual()) {
                    calls.add(new ToolRequest(
                            ShopTools.SEARCH,
                            args("query", request.path("query").asText())));
                } else if (!identifying) {
                    return ask(askProduct(language), "product");
                }
            }
            default -> throw new IllegalArgumentException("no offline specialist for " + goal.id());
        }
        return SpecialistOutput.call(calls);
    }

    @Override
    public SpecialistOutput second(
            StepScope step, SpecialistInput input, SpecialistOutput first, List<ToolResult> results) {
        SpecialistOutput answer = answer(input, results);
        Optional<String> note = readBeforeCode(input.language(), results);
        return note.map(n -> new SpecialistOutput(
                        answer.message() + " " + n, answer.toolCalls(), answer.stateUpdates(), answer.memory()))
                .orElse(answer);
    }

    /**
     * What is said after what the shop's policy let be read before the code (an order's status): that the
     * code was sent, for anything more. Empty when nothing was read that way.
     */
    private static Optional<String> readBeforeCode(String language, List<ToolResult> results) {
        return results.stream()
                .filter(r -> Identities.isVerification(r) && !r.ok())
                .flatMap(r -> r.error().stream())
                .filter(error -> error.path("reason").asText().equals("code_sent"))
                .findFirst()
                .filter(error -> readAnyway(results))
                .flatMap(error -> Replies.identityRefused(language, error));
    }

    /** Whether a tool that is not a verification answered, although the verification did not. */
    private static boolean readAnyway(List<ToolResult> results) {
        return results.stream().anyMatch(r -> !Identities.isVerification(r) && r.ok());
    }

    private SpecialistOutput answer(SpecialistInput input, List<ToolResult> results) {
        String language = input.language();
        Goal goal = input.goal();
        ObjectNode updates = Json.object();
        List<MemoryFact> memory = new ArrayList<>();
        StringBuilder message = new StringBuilder();
        boolean changed = results.stream().anyMatch(r -> r.ok() && isChange(r.name()));
        Optional<ToolResult> main = Optional.empty();
        List<ToolResult> mains = new ArrayList<>();
        for (ToolResult result : results) {
            if (Identities.isVerification(result)) {
                Identities.record(result, updates);
                if (result.ok()) {
                    if (!changed) {
                        message.append(Replies.verified(
                                language, result.result().path("firstName").asText()));
                    }
                } else {
                    boolean wasVerified =
                            input.state().path("customer").path("verified").asBoolean(false);
                    Optional<String> refused =
                            result.error().flatMap(error -> Replies.identityRefused(language, error));
                    if (refused.isPresent()) {
                        if (readAnyway(results)) {
                            // What the policy lets be read is answered; the code is mentioned after it.
                            continue;
                        }
                        return new SpecialistOutput(refused.get(), List.of(), updates, List.of());
                    }
                    String notFound = result.name().equals(ShopTools.FIND_BY_EMAIL)
                            ? Replies.notFoundByEmail(
                                    language, result.args().path("email").asText())
                            : Replies.notFoundByName(language);
                    if (!wasVerified) {
                        return new SpecialistOutput(notFound, List.of(), updates, List.of());
                    }
                    message.append(notFound);
                }
            } else {
                mains.add(result);
                main = Optional.of(result);
            }
        }
        if (mains.size() > 1) {
            // Several orders at once: what became of each, in turn.
            List<String> said = new ArrayList<>();
            boolean any = false;
            for (ToolResult each : mains) {
                if (each.ok()) {
                    said.add(done(language, each, memory, updates));
                    any = true;
                } else {
                    said.add(Refusals.explain(language, goal, each, updates, input.state()));
                }
            }
            if (any) {
                done(updates);
            }
            append(message, String.join("\n", said));
            return new SpecialistOutput(message.toString(), List.of(), updates, memory);
        }
        if (main.isEmpty()) {
            String ask = switch (goal) {
                case CHANGE_ADDRESS -> {
                    updates.put("awaiting", "address");
                    yield askAddress(language);
                }
                case TICKET -> {
                    updates.put("awaiting", "details");
                    yield askDetails(language);
                }
                case ORDER, QUOTE, FIND_PRODUCT -> {
                    updates.put("awaiting", "product");
                    yield askProduct(language);
                }
                default -> t(language, "How can I help you?", "במה אפשר לעזור?");
            };
            append(message, ask);
            return new SpecialistOutput(message.toString(), List.of(), updates, memory);
        }
        ToolResult result = main.get();
        if (result.ok()) {
            append(message, done(language, result, memory, updates));
            done(updates);
        } else {
            append(message, Refusals.explain(language, goal, result, updates, input.state()));
        }
        return new SpecialistOutput(message.toString(), List.of(), updates, memory);
    }

    private static String done(String language, ToolResult result, List<MemoryFact> memory, ObjectNode updates) {
        JsonNode value = result.result();
        return switch (result.name()) {
            case ShopTools.GET_ORDER -> Listings.order(language, value.path("order"));
            case ShopTools.LIST_ORDERS -> Listings.orders(language, value.path("orders"));
            case ShopTools.SEARCH -> Listings.products(language, value);
            case ShopTools.GET_PRODUCT -> Listings.products(language, wrap(value.path("product")));
            case ShopTools.QUOTE -> Listings.quote(language, value);
            case ShopTools.CANCEL -> {
                ObjectNode request = updates.withObjectProperty("request");
                request.put("orderId", value.path("orderId").asText());
                yield Replies.cancelled(language, value);
            }
            case ShopTools.RETURN -> {
                memory.add(new MemoryFact(
                        "issue",
                        value.path("returnId").asText(),
                        "returned " + Replies.items("en", value.path("items")) + " from "
                                + value.path("orderId").asText()));
                yield Replies.returned(language, value);
            }
            case ShopTools.EXCHANGE -> {
                remember(value.path("to"), memory);
                yield Replies.exchanged(language, value);
            }
            case ShopTools.ORDER_ADDRESS -> Replies.addressChanged(language, value, false);
            case ShopTools.ACCOUNT_ADDRESS -> Replies.addressChanged(language, value, true);
            case ShopTools.PLACE_ORDER -> {
                value.path("lines").forEach(line -> remember(line, memory));
                yield Replies.placed(language, value);
            }
            case ShopTools.TICKET -> {
                memory.add(new MemoryFact(
                        "issue",
                        value.path("ticketId").asText(),
                        value.path("subject").asText()));
                yield Replies.ticket(language, value);
            }
            case ShopTools.HUMAN -> Replies.human(language, value);
            default -> t(language, "Done.", "בוצע.");
        };
    }

    private static ObjectNode wrap(JsonNode product) {
        ObjectNode search = Json.object();
        search.putArray("products").add(product);
        search.putArray("options");
        return search;
    }

    /** Sizes and colors of what the customer chose, kept for next time. */
    private static void remember(JsonNode variant, List<MemoryFact> memory) {
        String category = variant.path("category").asText("");
        if (category.isEmpty()) {
            return;
        }
        JsonNode options = variant.path("options");
        if (options.path("size").isTextual() && (category.equals("apparel") || category.equals("shoes"))) {
            memory.add(new MemoryFact("size", category, options.path("size").asText()));
        }
        if (options.path("color").isTextual()) {
            memory.add(
                    new MemoryFact("preference", "color", options.path("color").asText()));
        }
    }

    private static boolean isChange(String tool) {
        return switch (tool) {
            case ShopTools.CANCEL,
                    ShopTools.RETURN,
                    ShopTools.EXCHANGE,
                    ShopTools.ORDER_ADDRESS,
                    ShopTools.ACCOUNT_ADDRESS,
                    ShopTools.PLACE_ORDER -> true;
            default -> false;
        };
    }

    static void done(ObjectNode updates) {
        ObjectNode goal = updates.putObject("goal");
        goal.put("status", "done");
    }

    private static SpecialistOutput ask(String message, String awaiting) {
        ObjectNode updates = Json.object();
        updates.put("awaiting", awaiting);
        return new SpecialistOutput(message, List.of(), updates, List.of());
    }

    private static void append(StringBuilder message, String text) {
        if (!message.isEmpty()) {
            message.append(' ');
        }
        message.append(text);
    }

    /**
     * A call of {@code tool} with {@code fields} of the request for each of the several orders it names, or
     * one call for the order it names (or none: the tool then takes the customer's only candidate).
     */
    private static List<ToolRequest> perOrder(String tool, JsonNode request, String... fields) {
        List<ToolRequest> calls = new ArrayList<>();
        List<String> ids = orders(request);
        if (ids.size() <= 1) {
            List<String> with = new ArrayList<>(List.of(fields));
            with.add("orderId");
            calls.add(new ToolRequest(tool, copy(request, with.toArray(String[]::new))));
            return calls;
        }
        for (String id : ids) {
            ObjectNode args = copy(request, fields);
            args.put("orderId", id);
            calls.add(new ToolRequest(tool, args));
        }
        return calls;
    }

    /** The several orders the request names, when it names several. */
    private static List<String> orders(JsonNode request) {
        List<String> ids = new ArrayList<>();
        request.path("orderIds").forEach(id -> ids.add(id.asText()));
        return ids;
    }

    private static ObjectNode args(String field, String value) {
        ObjectNode args = Json.object();
        args.put(field, value);
        return args;
    }

    private static ObjectNode copy(JsonNode request, String... fields) {
        ObjectNode args = Json.object();
        for (String field : fields) {
            JsonNode value = request.path(field);
            if (value.isTextual() && !value.asText().isBlank() || value.isBoolean()) {
                args.set(field, value.deepCopy());
            }
        }
        return args;
    }

    static String askAddress(String language) {
        return t(
                language,
                "What is the new address? Please give the street and number, the city and the postcode.",
                "מה הכתובת החדשה? נא לציין רחוב ומספר, עיר ומיקוד.");
    }

    static String askDetails(String language) {
        return t(
                language,
                "I'm sorry to hear that. What happened? Tell me about the problem (and the order, if it's about one)"
                        + " and I'll open a ticket for our support team.",
                "צר לי לשמוע. מה קרה? ספר/י לי על הבעיה (ועל ההזמנה, אם מדובר בהזמנה) ואפתח פנייה לצוות התמיכה.");
    }

    static String askProduct(String language) {
        return t(
                language,
                "Which product are you looking for? We carry shirts, t-shirts, jackets, running shoes, hiking boots,"
                        + " scarves, headphones, speakers, an espresso machine, water bottles, yoga mats, backpacks,"
                        + " desk lamps, mugs, sunglasses and smart watches.",
                "איזה מוצר מעניין אותך? יש לנו חולצות, טי-שירטים, ג'קטים, נעלי ריצה, נעלי הליכה, צעיפים, אוזניות,"
                        + " רמקולים, מכונת אספרסו, בקבוקי מים, מזרני יוגה, תיקי גב, מנורות שולחן, ספלים, משקפי שמש"
                        + " ושעונים חכמים.");
    }
}
