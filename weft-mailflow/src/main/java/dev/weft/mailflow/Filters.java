package dev.weft.mailflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.workflow.spi.Expression;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Seed 003's filtering: which emails a venue's agent never sees. Always dropped: mail from the venue's
 * own address (an agent must never answer itself), auto-replies ({@code Auto-Submitted}, {@code
 * X-Autoreply}, {@code Precedence: bulk|list|junk}, {@code X-Auto-Response-Suppress}), mailing lists
 * and bounces. Then each venue's rules: senders and domains allowed or blocked, subject patterns, and
 * CEL expressions over the normalized email ({@code input}). Stateless.
 */
public final class Filters {
    private Filters() {}

    /**
     * A venue's own rules. {@code allow}: when not empty, only these senders ({@code dana@x.com}) or
     * domains ({@code x.com}, {@code @x.com}) get through; {@code block}: senders or domains dropped;
     * {@code subjects}: case-insensitive regular expressions whose match in the subject drops the
     * email; {@code drop}: CEL expressions over {@code input} (the email as JSON) dropping it when true.
     */
    public record Rules(List<String> allow, List<String> block, List<String> subjects, List<String> drop) {
        private static final Set<String> FIELDS = Set.of("allow", "block", "subjects", "drop");

        public Rules {
            allow = List.copyOf(allow);
            block = List.copyOf(block);
            subjects = List.copyOf(subjects);
            drop = List.copyOf(drop);
            for (String subject : subjects) {
                try {
                    Pattern.compile(subject);
                } catch (PatternSyntaxException e) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT,
                            "filters.subjects: '" + subject + "' is not a regular expression: " + e.getDescription());
                }
            }
            for (int i = 0; i < drop.size(); i++) {
                try {
                    Expression.compile("filters", "drop[" + i + "]", drop.get(i));
                } catch (GraphInvalidException e) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT, e.getMessage().replace("node 'filters': config.", "filters."));
                }
            }
        }

        public static Rules none() {
            return new Rules(List.of(), List.of(), List.of(), List.of());
        }

        /** @throws WeftException {@code E_BAD_INPUT} naming the field that is wrong */
        public static Rules fromJson(JsonNode json) {
            if (json == null || json.isNull() || json.isMissingNode()) {
                return none();
            }
            if (!json.isObject()) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, "filters must be an object {allow, block, subjects, drop}");
            }
            for (String field : (Iterable<String>) json::fieldNames) {
                if (!FIELDS.contains(field)) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT,
                            "filters." + field + ": unknown (known: allow, block, drop, subjects)");
                }
            }
            return new Rules(list(json, "allow"), list(json, "block"), list(json, "subjects"), list(json, "drop"));
        }

        private static List<String> list(JsonNode json, String field) {
            JsonNode value = json.path(field);
            if (value.isMissingNode() || value.isNull()) {
                return List.of();
            }
            if (!value.isArray()) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "filters." + field + " must be an array of strings");
            }
            List<String> out = new ArrayList<>();
            for (JsonNode item : value) {
                if (!item.isTextual() || item.asText().isBlank()) {
                    throw new WeftException(ErrorCode.E_BAD_INPUT, "filters." + field + " must hold non-empty strings");
                }
                out.add(item.asText().trim());
            }
            return out;
        }

        public ObjectNode toJson() {
            ObjectNode node = Json.object();
            put(node, "allow", allow);
            put(node, "block", block);
            put(node, "subjects", subjects);
            put(node, "drop", drop);
            return node;
        }

        private static void put(ObjectNode node, String field, List<String> values) {
            ArrayNode array = node.putArray(field);
            values.forEach(array::add);
        }
    }

    /**
     * Why {@code email} is dropped for {@code venue}, or empty when its agent should see it.
     *
     * @param ownMessage whether the email's Message-ID is one of the venue's own replies
     */
    public static Optional<String> reason(Venue venue, Email email, boolean ownMessage) {
        String from = email.from().toLowerCase(Locale.ROOT);
        if (from.equals(venue.address().toLowerCase(Locale.ROOT)) || ownMessage) {
            return Optional.of("own: the venue's own address (" + venue.address() + ")");
        }
        Optional<String> auto = automatic(email);
        if (auto.isPresent()) {
            return auto;
        }
        Rules rules = venue.filters();
        if (!rules.allow().isEmpty() && rules.allow().stream().noneMatch(rule -> matches(rule, from))) {
            return Optional.of("not allowed: " + email.from() + " matches no sender in filters.allow");
        }
        for (String rule : rules.block()) {
            if (matches(rule, from)) {
                return Optional.of("blocked: " + email.from() + " matches '" + rule + "' in filters.block");
            }
        }
        for (String subject : rules.subjects()) {
            if (Pattern.compile(subject, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE)
                    .matcher(email.subject())
                    .find()) {
                return Optional.of("subject: '" + email.subject() + "' matches '" + subject + "' in filters.subjects");
            }
        }
        JsonNode input = email.toJson();
        for (int i = 0; i < rules.drop().size(); i++) {
            String source = rules.drop().get(i);
            JsonNode value =
                    Expression.compile("filters", "drop[" + i + "]", source).evaluate(input, Map.of(), Map.of());
            if (value.isBoolean() && value.asBoolean()) {
                return Optional.of("rule: filters.drop[" + i + "] (" + source + ") is true");
            }
        }
        return Optional.empty();
    }

    /** Auto-replies, mailing lists and bounces: never answered, whatever the venue's rules. */
    static Optional<String> automatic(Email email) {
        Optional<String> submitted =
                email.header("auto-submitted").map(v -> v.trim().toLowerCase(Locale.ROOT));
        if (submitted.isPresent() && !submitted.get().startsWith("no")) {
            return Optional.of("auto-reply: Auto-Submitted: " + submitted.get());
        }
        for (String header : List.of("x-autoreply", "x-autorespond", "x-auto-response-suppress")) {
            if (email.header(header).isPresent()) {
                return Optional.of("auto-reply: " + canonical(header) + ": "
                        + email.header(header).get());
            }
        }
        Optional<String> precedence =
                email.header("precedence").map(v -> v.trim().toLowerCase(Locale.ROOT));
        if (precedence.isPresent()
                && Set.of("bulk", "list", "junk", "auto_reply").contains(precedence.get())) {
            return Optional.of("auto-reply: Precedence: " + precedence.get());
        }
        if (email.header("list-id").isPresent()) {
            return Optional.of("list: List-Id: " + email.header("list-id").get());
        }
        String type = email.header("content-type").orElse("").toLowerCase(Locale.ROOT);
        String local = email.from().toLowerCase(Locale.ROOT).replaceFirst("@.*", "");
        if (type.contains("multipart/report")
                || email.header("x-failed-recipients").isPresent()
                || local.equals("mailer-daemon")
                || local.equals("postmaster")
                || email.header("return-path")
                        .map(p -> p.replaceAll("\\s", "").equals("<>"))
                        .orElse(false)) {
            return Optional.of("bounce: a delivery status notification from " + email.from());
        }
        return Optional.empty();
    }

    private static String canonical(String header) {
        return switch (header) {
            case "x-autoreply" -> "X-Autoreply";
            case "x-autorespond" -> "X-Autorespond";
            default -> "X-Auto-Response-Suppress";
        };
    }

    /** Whether {@code sender} is {@code rule}: an address, or a domain ({@code x.com} or {@code @x.com}, subdomains too). */
    static boolean matches(String rule, String sender) {
        String r = Objects.requireNonNull(rule).trim().toLowerCase(Locale.ROOT);
        if (r.contains("@") && !r.startsWith("@")) {
            return sender.equals(r);
        }
        String domain = r.startsWith("@") ? r.substring(1) : r;
        String senderDomain = sender.substring(sender.indexOf('@') + 1);
        return senderDomain.equals(domain) || senderDomain.endsWith("." + domain);
    }
}
