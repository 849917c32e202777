package dev.weft.mailflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An email as the venue agent sees it (seed 003's ingestion): who sent it, its subject, its new text
 * with the quoted reply and the signature set apart, its attachments, the headers filters look at,
 * and its place in a thread ({@code Message-ID}, {@code In-Reply-To}, {@code References}). Immutable.
 *
 * @param messageId the {@code Message-ID} with its angle brackets; empty when the email had none
 * @param text what the sender wrote in this email: the quoted reply and the signature removed
 * @param headers the headers filters read, by lower-case name (the first value of each)
 */
public record Email(
        String messageId,
        Optional<String> inReplyTo,
        List<String> references,
        String from,
        String fromName,
        List<String> to,
        List<String> cc,
        Optional<String> replyTo,
        String subject,
        Optional<Instant> date,
        String text,
        String quoted,
        String signature,
        boolean forwarded,
        List<Attachment> attachments,
        Map<String, String> headers) {

    /** The headers kept for filters: auto-replies, bounces and lists are told by these. */
    public static final Set<String> KEPT_HEADERS = Set.of(
            "auto-submitted",
            "x-autoreply",
            "x-autorespond",
            "x-auto-response-suppress",
            "precedence",
            "list-id",
            "list-unsubscribe",
            "return-path",
            "x-failed-recipients",
            "content-type",
            "delivered-to");

    public Email {
        Objects.requireNonNull(messageId, "messageId");
        Objects.requireNonNull(inReplyTo, "inReplyTo");
        references = List.copyOf(references);
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(fromName, "fromName");
        to = List.copyOf(to);
        cc = List.copyOf(cc);
        Objects.requireNonNull(replyTo, "replyTo");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(quoted, "quoted");
        Objects.requireNonNull(signature, "signature");
        attachments = List.copyOf(attachments);
        headers = Map.copyOf(headers);
    }

    /** An attachment, listed (its content is not kept). */
    public record Attachment(String name, String type, long size) {
        public Attachment {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }
    }

    /** Where a reply goes: {@code Reply-To} when the sender set one, else the sender. */
    public String replyAddress() {
        return replyTo.orElse(from);
    }

    /**
     * What identifies this email for its venue across deliveries: its {@code Message-ID}, or, for an
     * email without one, a hash of its sender, subject, date and text.
     */
    public String key() {
        if (!messageId.isBlank()) {
            return messageId;
        }
        String content =
                from + "\n" + subject + "\n" + date.map(Instant::toString).orElse("") + "\n" + text;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(content.getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** The lower-case header {@code name}, if the email had it. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }

    /** The email as JSON: what runs get as their input's {@code email}, and what {@code POST /process} takes. */
    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("messageId", messageId);
        node.put("inReplyTo", inReplyTo.orElse(null));
        ArrayNode refs = node.putArray("references");
        references.forEach(refs::add);
        node.put("from", from);
        node.put("fromName", fromName);
        ArrayNode toArray = node.putArray("to");
        to.forEach(toArray::add);
        ArrayNode ccArray = node.putArray("cc");
        cc.forEach(ccArray::add);
        node.put("replyTo", replyTo.orElse(null));
        node.put("subject", subject);
        node.put("date", date.map(Instant::toString).orElse(null));
        node.put("text", text);
        node.put("quoted", quoted);
        node.put("signature", signature);
        node.put("forwarded", forwarded);
        ArrayNode files = node.putArray("attachments");
        for (Attachment a : attachments) {
            files.addObject().put("name", a.name()).put("type", a.type()).put("size", a.size());
        }
        ObjectNode head = node.putObject("headers");
        headers.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> head.put(e.getKey(), e.getValue()));
        return node;
    }

    private static final Set<String> FIELDS = Set.of(
            "messageId",
            "inReplyTo",
            "references",
            "from",
            "fromName",
            "to",
            "cc",
            "replyTo",
            "subject",
            "date",
            "text",
            "quoted",
            "signature",
            "forwarded",
            "attachments",
            "headers");

    /**
     * A normalized email given as JSON ({@code POST /process}, {@link #toJson}): {@code from} is
     * required, and {@code text} or {@code subject}; the rest is optional. A {@code text} with a quoted
     * reply or a signature still in it is not split again.
     *
     * @throws WeftException {@code E_EMAIL_INVALID} naming the field that is missing, of the wrong type or unknown
     */
    public static Email fromJson(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw invalid("a normalized email must be a JSON object");
        }
        for (String field : (Iterable<String>) json::fieldNames) {
            if (!FIELDS.contains(field)) {
                throw invalid("unknown field '" + field + "' (known: "
                        + String.join(", ", FIELDS.stream().sorted().toList()) + ")");
            }
        }
        String from = string(json, "from").orElseThrow(() -> invalid("'from' is required: the sender's address"));
        if (!from.contains("@")) {
            throw invalid("'from' must be an email address, was '" + from + "'");
        }
        String subject = string(json, "subject").orElse("");
        String text = string(json, "text").orElse("");
        if (subject.isBlank() && text.isBlank()) {
            throw invalid("'text' or 'subject' is required: an email with neither says nothing");
        }
        Optional<Instant> date = string(json, "date").map(d -> {
            try {
                return Instant.parse(d);
            } catch (DateTimeParseException e) {
                try {
                    return java.time.OffsetDateTime.parse(d).toInstant();
                } catch (DateTimeParseException again) {
                    throw invalid("'date' must be an ISO-8601 instant, was '" + d + "'");
                }
            }
        });
        List<Attachment> attachments = new ArrayList<>();
        JsonNode files = json.path("attachments");
        if (!files.isMissingNode() && !files.isNull()) {
            if (!files.isArray()) {
                throw invalid("'attachments' must be an array of {name, type, size}");
            }
            files.forEach(f -> attachments.add(new Attachment(
                    f.path("name").asText(""),
                    f.path("type").asText("application/octet-stream"),
                    f.path("size").asLong(0))));
        }
        Map<String, String> headers = new LinkedHashMap<>();
        JsonNode head = json.path("headers");
        if (!head.isMissingNode() && !head.isNull()) {
            if (!head.isObject()) {
                throw invalid("'headers' must be an object of header names to values");
            }
            head.properties()
                    .forEach(e -> headers.put(
                            e.getKey().toLowerCase(Locale.ROOT), e.getValue().asText()));
        }
        return new Email(
                string(json, "messageId").map(Email::bracketed).orElse(""),
                string(json, "inReplyTo").map(Email::bracketed),
                strings(json, "references").stream().map(Email::bracketed).toList(),
                from.trim(),
                string(json, "fromName").orElse(""),
                strings(json, "to"),
                strings(json, "cc"),
                string(json, "replyTo"),
                subject,
                date,
                text,
                string(json, "quoted").orElse(""),
                string(json, "signature").orElse(""),
                json.path("forwarded").asBoolean(false),
                attachments,
                headers);
    }

    /** A Message-ID with its angle brackets. */
    static String bracketed(String id) {
        String trimmed = id.trim();
        if (trimmed.isEmpty()) {
            return trimmed;
        }
        return (trimmed.startsWith("<") ? "" : "<") + trimmed + (trimmed.endsWith(">") ? "" : ">");
    }

    private static Optional<String> string(JsonNode json, String field) {
        JsonNode value = json.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw invalid("'" + field + "' must be a string");
        }
        return Optional.of(value.asText()).filter(s -> !s.isBlank());
    }

    private static List<String> strings(JsonNode json, String field) {
        JsonNode value = json.get(field);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (value.isTextual()) {
            return value.asText().isBlank() ? List.of() : List.of(value.asText().trim());
        }
        if (!value.isArray()) {
            throw invalid("'" + field + "' must be a string or an array of strings");
        }
        List<String> out = new ArrayList<>();
        value.forEach(v -> {
            if (!v.isTextual()) {
                throw invalid("'" + field + "' must hold strings only");
            }
            out.add(v.asText().trim());
        });
        return out;
    }

    static WeftException invalid(String message) {
        return new WeftException(ErrorCode.E_EMAIL_INVALID, message);
    }
}
