package dev.weft.mailflow.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;

/**
 * What the parse step understood of an email (the output of agent {@code parse}): whether it asks to
 * book, for which days, how many guests, what event, what budget, who wrote, in what language, and
 * what is missing to answer it. Immutable.
 *
 * @param options the days asked for, one list per alternative: a range ("12-14 December") is one
 *     option of several days, all needed; "June 5 or 12" two options of one day
 * @param period a month named without a day ("sometime in June"), when no day was
 * @param past days named that have already passed
 * @param question whether the email asks about the venue's rooms or capacity
 * @param intent {@code inquiry}, {@code question}, {@code confirm} / {@code change} / {@code cancel} (a booking
 *     the sender has), {@code supplier} or {@code other}
 */
public record Inquiry(
        boolean inquiry,
        List<List<LocalDate>> options,
        OptionalInt guests,
        Optional<String> eventType,
        Optional<Budget> budget,
        Optional<String> name,
        String language,
        Optional<YearMonth> period,
        List<LocalDate> past,
        boolean question,
        String intent) {

    public Inquiry {
        options = options.stream().map(List::copyOf).toList();
        Objects.requireNonNull(guests, "guests");
        Objects.requireNonNull(eventType, "eventType");
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(language, "language");
        Objects.requireNonNull(period, "period");
        past = List.copyOf(past);
        Objects.requireNonNull(intent, "intent");
    }

    /** The intents of an email about a booking the sender already has: for a person, never an inquiry. */
    static final java.util.Set<String> ABOUT_A_BOOKING = java.util.Set.of("confirm", "change", "cancel");

    /** An amount of money and its ISO currency. */
    public record Budget(long amount, String currency) {}

    /** Every day named, in order, once. */
    public List<LocalDate> dates() {
        TreeSet<LocalDate> all = new TreeSet<>();
        options.forEach(all::addAll);
        return List.copyOf(all);
    }

    /** What an inquiry lacks to be answered: {@code date}, {@code guests}. */
    public List<String> missing() {
        List<String> missing = new ArrayList<>();
        if (!inquiry) {
            return missing;
        }
        if (options.isEmpty()) {
            missing.add("date");
        }
        if (guests.isEmpty()) {
            missing.add("guests");
        }
        return missing;
    }

    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("inquiry", inquiry);
        ArrayNode dates = node.putArray("dates");
        dates().forEach(d -> dates.add(d.toString()));
        ArrayNode optionArray = node.putArray("options");
        for (List<LocalDate> option : options) {
            ArrayNode days = optionArray.addArray();
            option.forEach(d -> days.add(d.toString()));
        }
        if (guests.isPresent()) {
            node.put("guests", guests.getAsInt());
        } else {
            node.putNull("guests");
        }
        node.put("eventType", eventType.orElse(null));
        if (budget.isPresent()) {
            node.putObject("budget")
                    .put("amount", budget.get().amount())
                    .put("currency", budget.get().currency());
        } else {
            node.putNull("budget");
        }
        node.put("name", name.orElse(null));
        node.put("language", language);
        node.put("period", period.map(YearMonth::toString).orElse(null));
        ArrayNode pastArray = node.putArray("past");
        past.forEach(d -> pastArray.add(d.toString()));
        node.put("question", question);
        node.put("intent", intent);
        ArrayNode missing = node.putArray("missing");
        missing().forEach(missing::add);
        return node;
    }

    /** Reads {@link #toJson} back (a pinned or model-written parse); fields it lacks take their empty value. */
    public static Inquiry fromJson(JsonNode node) {
        List<List<LocalDate>> options = new ArrayList<>();
        JsonNode optionArray = node.path("options");
        if (optionArray.isArray() && !optionArray.isEmpty()) {
            for (JsonNode option : optionArray) {
                List<LocalDate> days = new ArrayList<>();
                option.forEach(d -> parseDay(d.asText()).ifPresent(days::add));
                if (!days.isEmpty()) {
                    options.add(days);
                }
            }
        } else {
            node.path("dates").forEach(d -> parseDay(d.asText()).ifPresent(day -> options.add(List.of(day))));
        }
        List<LocalDate> past = new ArrayList<>();
        node.path("past").forEach(d -> parseDay(d.asText()).ifPresent(past::add));
        JsonNode budget = node.path("budget");
        return new Inquiry(
                node.path("inquiry").asBoolean(false),
                options,
                node.path("guests").canConvertToInt() && node.path("guests").asInt() > 0
                        ? OptionalInt.of(node.path("guests").asInt())
                        : OptionalInt.empty(),
                text(node, "eventType"),
                budget.isObject() && budget.path("amount").isNumber()
                        ? Optional.of(new Budget(
                                budget.path("amount").asLong(),
                                budget.path("currency").asText("")))
                        : Optional.empty(),
                text(node, "name"),
                node.path("language").asText("en").equals("he") ? "he" : "en",
                text(node, "period").flatMap(p -> {
                    try {
                        return Optional.of(YearMonth.parse(p));
                    } catch (java.time.DateTimeException e) {
                        return Optional.empty();
                    }
                }),
                past,
                node.path("question").asBoolean(false),
                node.path("intent").asText(node.path("inquiry").asBoolean(false) ? "inquiry" : "other"));
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank() ? Optional.of(value.asText()) : Optional.empty();
    }

    private static Optional<LocalDate> parseDay(String text) {
        try {
            return Optional.of(LocalDate.parse(text.length() > 10 ? text.substring(0, 10) : text));
        } catch (java.time.DateTimeException e) {
            return Optional.empty();
        }
    }

    /** This inquiry with what an earlier email of its thread said and this one does not. */
    public Inquiry withThread(Inquiry earlier) {
        // "Please cancel it" in the thread of an inquiry is about a booking, not the inquiry again.
        boolean aboutABooking = ABOUT_A_BOOKING.contains(intent);
        boolean asks = !aboutABooking && (inquiry || earlier.inquiry());
        return new Inquiry(
                asks,
                options.isEmpty() ? earlier.options() : options,
                guests.isPresent() ? guests : earlier.guests(),
                eventType.or(earlier::eventType),
                budget.or(earlier::budget),
                name.or(earlier::name),
                language,
                options.isEmpty() && period.isEmpty() ? earlier.period() : period,
                past,
                question,
                asks ? "inquiry" : intent);
    }
}
