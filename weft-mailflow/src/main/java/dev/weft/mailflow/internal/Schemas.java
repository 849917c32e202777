package dev.weft.mailflow.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.Json;
import dev.weft.llm.PromptTemplate;
import java.time.LocalDate;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The venue agent's default prompts and the JSON Schemas of what a model answers for each role, in
 * OpenAI's strict subset (every property required, nothing more allowed), and how a parse a model
 * wrote becomes an {@link Inquiry}. Stateless.
 */
final class Schemas {
    private Schemas() {}

    static final String PARSE_SYSTEM = """
            You read emails sent to {{input.venue.name}}, an event venue, and say whether each asks to book it, and for what.
            Today is {{input.now}} (time zone {{input.venue.tz}}). Resolve every date the sender names to YYYY-MM-DD, never in the past.
            dateRange is true when the dates are the days of one event (12-14 December), false when they are alternatives (June 5 or 12).
            guests is the number of guests (the larger end of a range), or null when not said.
            eventType is a short English label (wedding, bar mitzvah, birthday, conference, corporate event, …) or null.
            language is "he" when the sender writes Hebrew, else "en". question is true when the email asks about the rooms or their capacity.""";
    static final String EMAIL_USER = """
            From: {{input.email.fromName}} <{{input.email.from}}>
            Subject: {{input.email.subject}}

            {{input.email.text}}""";
    static final String ORCHESTRATE_SYSTEM = """
            You decide what the venue {{input.venue.name}} does with an email, from what was understood of it.
            availability: a booking inquiry with its dates and number of guests, to check the rooms for.
            answer: a question about the rooms or their capacity. handoff: anything else, for a person.""";
    static final String ORCHESTRATE_USER = "What was understood: {{nodes.parse}}";
    static final String EXECUTION_SYSTEM = """
            You write the reply of {{input.venue.name}}, an event venue, to a booking inquiry, in the sender's language
            ({{nodes.parse.language}}: "he" is Hebrew, "en" English), warm and short, signed with the venue's name.
            Offer only rooms listed as free for the dates asked, by their names exactly as given, and list them in "offered".
            When none is free, say so and mention the nearest free dates given. Ask nothing the sender already told.
            The venue's rooms: {{input.venue.rooms}}""";
    static final String EXECUTION_USER = """
            The email:
            From: {{input.email.fromName}} <{{input.email.from}}>
            Subject: {{input.email.subject}}

            {{input.email.text}}

            What was understood: {{nodes.parse}}
            Availability (free rooms per option of dates): {{nodes.get_availability}}""";
    static final String CLARIFY_SYSTEM = """
            You write the reply of {{input.venue.name}}, an event venue, to an inquiry that lacks what is needed to check
            availability: ask for what is missing (listed in "missing": the date, the number of guests), in the sender's
            language ({{nodes.parse.language}}: "he" is Hebrew, "en" English), warm and short, signed with the venue's name.""";
    static final String CLARIFY_USER = """
            The email:
            From: {{input.email.fromName}} <{{input.email.from}}>
            Subject: {{input.email.subject}}

            {{input.email.text}}

            What was understood: {{nodes.parse}}""";

    static PromptTemplate prompt(String role) {
        return switch (role) {
            case "parse" -> PromptTemplate.of(PARSE_SYSTEM, EMAIL_USER);
            case "orchestrate" -> PromptTemplate.of(ORCHESTRATE_SYSTEM, ORCHESTRATE_USER);
            case "execution" -> PromptTemplate.of(EXECUTION_SYSTEM, EXECUTION_USER);
            default -> PromptTemplate.of(CLARIFY_SYSTEM, CLARIFY_USER);
        };
    }

    /**
     * {@code schema} with its {@code action} left open (any text): an orchestrator's answer is held to
     * its step's actions by the node itself, so that one outside them is refused and recorded rather
     * than repaired. A schema without an {@code action} property is returned as it is.
     */
    static JsonNode actionOpen(JsonNode schema) {
        JsonNode action = schema.path("properties").path("action");
        if (!(action instanceof com.fasterxml.jackson.databind.node.ObjectNode known) || !known.has("enum")) {
            return schema;
        }
        com.fasterxml.jackson.databind.node.ObjectNode open = schema.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) open.get("properties").get("action")).remove("enum");
        return open;
    }

    static JsonNode of(String role) {
        String schema = switch (role) {
            case "parse" -> """
                    {"type": "object", "additionalProperties": false,
                     "required": ["inquiry", "dates", "dateRange", "guests", "eventType", "budgetAmount", "budgetCurrency",
                                  "name", "language", "question"],
                     "properties": {
                       "inquiry": {"type": "boolean"},
                       "dates": {"type": "array", "items": {"type": "string"}},
                       "dateRange": {"type": "boolean"},
                       "guests": {"type": ["integer", "null"]},
                       "eventType": {"type": ["string", "null"]},
                       "budgetAmount": {"type": ["number", "null"]},
                       "budgetCurrency": {"type": ["string", "null"]},
                       "name": {"type": ["string", "null"]},
                       "language": {"type": "string", "enum": ["en", "he"]},
                       "question": {"type": "boolean"}}}""";
            case "orchestrate" -> """
                    {"type": "object", "additionalProperties": false, "required": ["action", "reason"],
                     "properties": {"action": {"type": "string", "enum": ["availability", "answer", "handoff"]},
                                    "reason": {"type": "string"}}}""";
            case "execution" -> """
                    {"type": "object", "additionalProperties": false, "required": ["body", "offered"],
                     "properties": {"body": {"type": "string"}, "offered": {"type": "array", "items": {"type": "string"}}}}""";
            default -> """
                    {"type": "object", "additionalProperties": false, "required": ["body"],
                     "properties": {"body": {"type": "string"}}}""";
        };
        return Json.parse(schema, "the " + role + " schema");
    }

    /** A parse a model wrote, as an {@link Inquiry}: dates checked, days before {@code today} kept apart. */
    static Inquiry inquiry(JsonNode answer, LocalDate today) {
        List<LocalDate> days = new ArrayList<>();
        List<LocalDate> past = new ArrayList<>();
        for (JsonNode d : answer.path("dates")) {
            try {
                LocalDate day = LocalDate.parse(
                        d.asText().substring(0, Math.min(10, d.asText().length())));
                (day.isBefore(today) ? past : days).add(day);
            } catch (java.time.DateTimeException | StringIndexOutOfBoundsException e) {
                // a date the model could not write: not a date
            }
        }
        List<List<LocalDate>> options = new ArrayList<>();
        if (answer.path("dateRange").asBoolean(false) && !days.isEmpty()) {
            options.add(days.stream().sorted().distinct().toList());
        } else {
            days.stream().sorted().distinct().forEach(d -> options.add(List.of(d)));
        }
        JsonNode guests = answer.path("guests");
        JsonNode amount = answer.path("budgetAmount");
        boolean inquiry = answer.path("inquiry").asBoolean(false);
        boolean question = answer.path("question").asBoolean(false);
        return new Inquiry(
                inquiry,
                options,
                guests.canConvertToInt() && guests.asInt() > 0 ? OptionalInt.of(guests.asInt()) : OptionalInt.empty(),
                text(answer, "eventType"),
                amount.isNumber()
                        ? Optional.of(new Inquiry.Budget(
                                amount.asLong(), text(answer, "budgetCurrency").orElse("ILS")))
                        : Optional.empty(),
                text(answer, "name"),
                answer.path("language").asText("en").equals("he") ? "he" : "en",
                Optional.<YearMonth>empty(),
                past,
                question,
                inquiry ? "inquiry" : question ? "question" : "other");
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isBlank() ? Optional.of(value.asText()) : Optional.empty();
    }
}
