package dev.weft.memo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.memo.MemoTools;
import dev.weft.memo.data.MailOperations;
import dev.weft.memo.data.OperationContext;
import dev.weft.plan.PlanStep;
import dev.weft.plan.Resolution;
import dev.weft.plan.ResolveContext;
import dev.weft.plan.Resolver;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Seed 002's GmailResolver, offline: email steps turned into {@code gmailOperations} calls. The email
 * a step acts on is found by the user's words (sender, subject, day) with a search on their own
 * mailbox, never by an id they typed; several → a numbered question, none → "I couldn't find…". A
 * recipient named by a name, not an address, is looked up among the senders of their mail.
 */
final class GmailResolver implements Resolver {
    /** How many of the newest matches a question offers. */
    private static final int OFFERED = 5;

    private static final Pattern ARTICLE = Pattern.compile("^(?:the|my|a|an|our)\\s+", Pattern.CASE_INSENSITIVE);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMM", Locale.ENGLISH);

    private final MemoResolvers resolvers;
    private final java.util.function.Supplier<MailOperations> mailbox;

    /** Resolves with {@code mailbox}'s operations, made on the first lookup. */
    GmailResolver(MemoResolvers resolvers, java.util.function.Supplier<MailOperations> mailbox) {
        this.resolvers = resolvers;
        this.mailbox = mailbox;
    }

    @Override
    public String name() {
        return "GmailResolver";
    }

    @Override
    public String capability() {
        return "gmail";
    }

    @Override
    public Set<String> actions() {
        return Set.of(
                "search_emails",
                "read_email",
                "compose_email",
                "send_email",
                "reply_email",
                "forward_email",
                "label_email",
                "archive_email",
                "delete_email",
                "mark_read",
                "mark_unread",
                "star_email",
                "unstar_email");
    }

    @Override
    public Optional<String> tool(PlanStep step) {
        return Optional.of(MemoTools.MAIL);
    }

    @Override
    public Resolution resolve(PlanStep step, ResolveContext context) {
        try {
            return resolveStep(step, context);
        } catch (AskException e) {
            return e.question();
        }
    }

    private Resolution resolveStep(PlanStep step, ResolveContext context) {
        JsonNode c = step.constraints();
        switch (step.action()) {
            case "search_emails" -> {
                ObjectNode args = search(c, context);
                args.put("maxResults", 10);
                return Resolution.execute(MemoTools.MAIL, args);
            }
            case "compose_email", "send_email" -> {
                return outgoing(step, context);
            }
            default -> {
                return onOne(step, context);
            }
        }
    }

    /** The search the step's words ask for: sender, subject words, day, unread. */
    private ObjectNode search(JsonNode c, ResolveContext context) {
        ObjectNode args = Json.object();
        args.put("operation", "search");
        words(c, "from").ifPresent(v -> args.put("from", v));
        words(c, "subject").or(() -> words(c, "query")).ifPresent(v -> args.put("query", v));
        text(c, "timeMin").ifPresent(v -> args.put("since", v));
        text(c, "timeMax").ifPresent(v -> args.put("before", v));
        if (c.path("unread").asBoolean(false)) {
            args.put("unread", true);
        }
        return args;
    }

    /** A step on one email (read, reply, forward, archive, delete, flags): the email found first. */
    private Resolution onOne(PlanStep step, ResolveContext context) {
        JsonNode c = step.constraints();
        String language = MemoResolvers.language(context);
        ObjectNode query = search(c, context);
        query.put("maxResults", OFFERED);
        JsonNode found = mailbox.get().apply(query, lookup(context));
        List<JsonNode> emails = new ArrayList<>();
        found.path("emails").forEach(emails::add);
        ZoneId zone = resolvers.zone(context);
        if (c.path("latest").asBoolean(false) && emails.size() > 1) {
            // "the latest email from Noa": the newest of what matched, no question.
            emails = List.of(emails.get(0));
        }
        Object picked = MemoResolvers.pick(emails, context, described(language, query), e -> label(e, zone));
        if (picked instanceof Resolution question) {
            return question;
        }
        JsonNode email = (JsonNode) picked;
        ObjectNode args = Json.object();
        args.put(
                "operation",
                switch (step.action()) {
                    case "read_email" -> "read";
                    case "reply_email" -> "reply";
                    case "forward_email" -> "forward";
                    case "label_email" -> "label";
                    case "archive_email" -> "archive";
                    case "delete_email" -> "delete";
                    case "mark_read" -> "markRead";
                    case "mark_unread" -> "markUnread";
                    case "star_email" -> "star";
                    default -> "unstar";
                });
        args.put("emailId", email.path("id").asText());
        args.put("about", label(email, zone));
        // An answer's words are the body only once the email is settled without them.
        boolean settled =
                emails.size() == 1 || MemoResolvers.choice(context.answers()).isPresent();
        switch (step.action()) {
            case "reply_email" -> {
                Optional<String> body = text(c, "body").or(() -> settled ? answer(context) : Optional.empty());
                if (body.isEmpty()) {
                    return Resolution.clarify(Texts.of(language, "What should the reply say?", "מה לכתוב בתשובה?"));
                }
                args.put("body", body.get());
            }
            case "forward_email" -> {
                ArrayNode to = recipients(c, context, language);
                if (to.isEmpty()) {
                    return Resolution.clarify(Texts.of(language, "Forward it to whom?", "למי להעביר?"));
                }
                args.set("to", to);
                text(c, "body").ifPresent(v -> args.put("body", v));
            }
            case "label_email" -> args.set("labels", c.path("labels").deepCopy());
            default -> {
                // the email is all these need
            }
        }
        return Resolution.execute(MemoTools.MAIL, args);
    }

    /** A new email: recipients as addresses, a subject, and a body (asked for when missing). */
    private Resolution outgoing(PlanStep step, ResolveContext context) {
        JsonNode c = step.constraints();
        String language = MemoResolvers.language(context);
        ArrayNode to = recipients(c, context, language);
        if (to.isEmpty()) {
            return Resolution.clarify(Texts.of(language, "Who should it go to?", "למי לשלוח?"));
        }
        Optional<String> body = text(c, "body").or(() -> answer(context));
        if (body.isEmpty()) {
            return Resolution.clarify(Texts.of(language, "What should the email say?", "מה לכתוב במייל?"));
        }
        ObjectNode args = Json.object();
        args.put("operation", step.action().equals("compose_email") ? "compose" : "send");
        args.set("to", to);
        args.put("subject", words(c, "subject").map(GmailResolver::capitalised).orElseGet(() -> subjectOf(body.get())));
        args.put("body", body.get());
        return Resolution.execute(MemoTools.MAIL, args);
    }

    /**
     * The step's recipients as addresses: an address as it is, a name as the address of the one person
     * of that name who wrote to the user (several → a question, none → not found).
     */
    private ArrayNode recipients(JsonNode c, ResolveContext context, String language) {
        ArrayNode out = Json.mapper().createArrayNode();
        JsonNode to = c.path("to");
        List<String> names = new ArrayList<>();
        if (to.isTextual()) {
            names.add(to.asText());
        } else {
            to.forEach(n -> names.add(n.asText()));
        }
        for (String name : names) {
            String said = name.trim();
            if (said.contains("@")) {
                out.add(said);
                continue;
            }
            out.add(addressOf(said, context, language));
        }
        return out;
    }

    private String addressOf(String name, ResolveContext context, String language) {
        ObjectNode query = Json.object();
        query.put("operation", "search");
        query.put("from", cleaned(name));
        query.put("maxResults", 50);
        JsonNode found = mailbox.get().apply(query, lookup(context));
        Map<String, String> people = new LinkedHashMap<>();
        for (JsonNode email : found.path("emails")) {
            try {
                InternetAddress address = new InternetAddress(email.path("from").asText(), false);
                people.putIfAbsent(address.getAddress().toLowerCase(Locale.ROOT), address.toUnicodeString());
            } catch (AddressException e) {
                // a sender that is no address: not someone to write to
            }
        }
        if (people.isEmpty()) {
            throw new NotFoundException(Texts.of(
                    language,
                    "I couldn't find an email address for " + name + " (say the address, e.g. name@example.com)",
                    "לא מצאתי כתובת מייל של " + name + " (אפשר לכתוב את הכתובת, למשל name@example.com)"));
        }
        List<Map.Entry<String, String>> options = new ArrayList<>(people.entrySet());
        if (options.size() == 1) {
            return options.get(0).getKey();
        }
        Optional<Integer> chosen = MemoResolvers.choice(context.answers());
        if (chosen.isPresent() && chosen.get() >= 1 && chosen.get() <= options.size()) {
            return options.get(chosen.get() - 1).getKey();
        }
        List<String> offered = new ArrayList<>();
        for (int i = 0; i < options.size() && i < OFFERED; i++) {
            offered.add((i + 1) + ". " + options.get(i).getValue());
        }
        throw new AskException(Resolution.clarify(
                Texts.of(language, "Which " + name + "?", "לאיזה " + name + "?"), offered.toArray(String[]::new)));
    }

    /** A question raised while finding a recipient, passed up to the step. */
    static final class AskException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Resolution question;

        AskException(Resolution question) {
            super(null, null, false, false);
            this.question = question;
        }

        Resolution question() {
            return question;
        }
    }

    private OperationContext lookup(ResolveContext context) {
        ZoneId zone = resolvers.zone(context);
        return new OperationContext(
                context.user().orElseThrow(),
                zone,
                MemoResolvers.now(context, zone).toInstant(),
                context.idempotencyKey() + "/lookup");
    }

    private static String described(String language, ObjectNode query) {
        String from = query.path("from").asText("");
        String about = query.path("query").asText("");
        if (!from.isEmpty() && !about.isEmpty()) {
            return Texts.of(language, "an email from " + from + " about " + about, "מייל מ" + from + " בנושא " + about);
        }
        if (!from.isEmpty()) {
            return Texts.of(language, "an email from " + from, "מייל מ" + from);
        }
        if (!about.isEmpty()) {
            return Texts.of(language, "an email about " + about, "מייל בנושא " + about);
        }
        return Texts.of(language, "that email", "את המייל הזה");
    }

    /** How an email is offered: sender, subject and day. */
    static String label(JsonNode email, ZoneId zone) {
        String from = email.path("from").asText("");
        try {
            InternetAddress address = new InternetAddress(from, false);
            from = address.getPersonal() != null ? address.getPersonal() : address.getAddress();
        } catch (AddressException e) {
            // shown as it came
        }
        String subject = email.path("subject").asText("");
        String day = "";
        if (email.hasNonNull("date")) {
            day = " ("
                    + ZonedDateTime.parse(email.get("date").asText())
                            .withZoneSameInstant(zone)
                            .format(DAY) + ")";
        }
        return from + " — " + (subject.isEmpty() ? "(no subject)" : subject) + day;
    }

    /** A person's or subject's words without "the", "my" or Hebrew's ה: "the bank" → "bank", "הדוח" → "דוח". */
    static String cleaned(String words) {
        String out = ARTICLE.matcher(words.trim()).replaceFirst("");
        if (out.length() >= 4
                && out.charAt(0) == 'ה'
                && Character.UnicodeScript.of(out.charAt(1)) == Character.UnicodeScript.HEBREW) {
            out = out.substring(1);
        }
        return out;
    }

    private static Optional<String> words(JsonNode c, String field) {
        return text(c, field).map(GmailResolver::cleaned).filter(s -> !s.isBlank());
    }

    private static Optional<String> text(JsonNode c, String field) {
        JsonNode value = c.path(field);
        return value.isTextual() && !value.asText().isBlank()
                ? Optional.of(value.asText().trim())
                : Optional.empty();
    }

    private static Optional<String> answer(ResolveContext context) {
        return MemoResolvers.reply(context).map(String::trim).filter(t -> !t.isBlank());
    }

    private static String capitalised(String words) {
        return words.isEmpty() ? words : Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }

    /** A subject from a body with none said: its first words. */
    static String subjectOf(String body) {
        String[] words = body.trim().split("\\s+");
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < words.length && i < 6; i++) {
            out.append(i == 0 ? "" : " ").append(words[i]);
        }
        String subject = out.toString().replaceAll("[.,;:!?]+$", "");
        return capitalised(words.length > 6 ? subject + "…" : subject);
    }
}
