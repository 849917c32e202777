package dev.weft.mailflow;

import dev.weft.mailflow.internal.HtmlText;
import dev.weft.mailflow.internal.Quotes;
import jakarta.mail.Address;
import jakarta.mail.BodyPart;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.Part;
import jakarta.mail.Session;
import jakarta.mail.internet.ContentType;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeUtility;
import jakarta.mail.internet.ParseException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.jspecify.annotations.Nullable;

/**
 * Normalizes a raw RFC 822 message (seed 003's ingestion) with Angus Mail: the MIME tree walked for
 * its text (the plain part of a {@code multipart/alternative}, else its HTML turned into text with
 * jsoup), charsets decoded (Hebrew {@code windows-1255} and {@code iso-8859-8[-i]} too, and 8-bit text
 * that names none), the quoted reply and signature set apart, attachments listed, and the thread
 * headers kept. Stateless and thread-safe.
 */
public final class EmailParser {
    /** The largest message read: 10 MiB (attachments included). */
    public static final int MAX_BYTES = 10 << 20;

    private static final Session SESSION = Session.getInstance(lenient());

    private EmailParser() {}

    private static Properties lenient() {
        Properties props = new Properties();
        props.put("mail.mime.address.strict", "false");
        props.put("mail.mime.decodetext.strict", "false");
        props.put("mail.mime.multipart.ignoremissingendboundary", "true");
        return props;
    }

    /**
     * Normalizes {@code raw}.
     *
     * @throws dev.weft.core.WeftException {@code E_EMAIL_INVALID} for a message that is empty, has no
     *     headers or no sender, or whose MIME structure cannot be read; {@code E_TOO_LARGE} over {@link #MAX_BYTES}
     */
    public static Email parse(byte[] raw) {
        if (raw.length > MAX_BYTES) {
            throw new dev.weft.core.WeftException(
                    dev.weft.core.ErrorCode.E_TOO_LARGE,
                    "the email is " + raw.length + " bytes; the largest read is " + MAX_BYTES);
        }
        if (raw.length == 0 || new String(raw, 0, Math.min(raw.length, 4096), StandardCharsets.ISO_8859_1).isBlank()) {
            throw Email.invalid("the email is empty");
        }
        MimeMessage message;
        try {
            message = new MimeMessage(SESSION, new ByteArrayInputStream(raw));
        } catch (MessagingException e) {
            throw Email.invalid("malformed email: " + e.getMessage());
        }
        try {
            Address[] senders = message.getFrom();
            if (senders == null || senders.length == 0 || !(senders[0] instanceof InternetAddress sender)) {
                throw Email.invalid("malformed email: it has no From header (is it an RFC 822 message?)");
            }
            if (sender.getAddress() == null || !sender.getAddress().contains("@")) {
                throw Email.invalid("malformed email: From '" + header(message, "From") + "' is not an address");
            }
            Body body = new Body();
            walk(message, body, 0);
            String plain = body.plain.toString();
            String fromHtml = "";
            String htmlQuoted = "";
            if (plain.isBlank() && body.html.length() > 0) {
                HtmlText.Split split = HtmlText.split(body.html.toString());
                fromHtml = split.text();
                htmlQuoted = split.quoted();
            }
            Quotes.Split split = Quotes.split(plain.isBlank() ? fromHtml : plain);
            String quoted = (split.quoted() + "\n" + htmlQuoted).strip();
            Map<String, String> headers = new LinkedHashMap<>();
            for (String name : Email.KEPT_HEADERS) {
                String value = header(message, name);
                if (value != null) {
                    headers.put(name, value);
                }
            }
            return new Email(
                    Optional.ofNullable(header(message, "Message-ID"))
                            .map(EmailParser::firstId)
                            .orElse(""),
                    Optional.ofNullable(header(message, "In-Reply-To"))
                            .map(EmailParser::firstId)
                            .filter(s -> !s.isEmpty()),
                    ids(header(message, "References")),
                    sender.getAddress().trim(),
                    decodeWord(Optional.ofNullable(sender.getPersonal()).orElse(""))
                            .trim(),
                    addresses(message, Message.RecipientType.TO),
                    addresses(message, Message.RecipientType.CC),
                    Optional.ofNullable(message.getReplyTo())
                            .filter(r -> r.length > 0
                                    && r[0] instanceof InternetAddress a
                                    && !a.getAddress().equalsIgnoreCase(sender.getAddress()))
                            .map(r -> ((InternetAddress) r[0]).getAddress()),
                    decodeWord(Optional.ofNullable(header(message, "Subject")).orElse(""))
                            .replaceAll("\\s+", " ")
                            .trim(),
                    Optional.ofNullable(message.getSentDate()).map(java.util.Date::toInstant),
                    split.text(),
                    quoted,
                    split.signature(),
                    split.forwarded(),
                    body.attachments,
                    headers);
        } catch (MessagingException e) {
            throw Email.invalid("malformed email: " + e.getMessage());
        } catch (IOException e) {
            throw Email.invalid("malformed email: its body cannot be read: " + e.getMessage());
        }
    }

    /** What the walk of the MIME tree collects. */
    private static final class Body {
        final StringBuilder plain = new StringBuilder();
        final StringBuilder html = new StringBuilder();
        final List<Email.Attachment> attachments = new ArrayList<>();
    }

    private static void walk(Part part, Body body, int depth) throws MessagingException, IOException {
        if (depth > 20) {
            throw new MessagingException("MIME parts nested more than 20 deep");
        }
        String disposition = part.getDisposition();
        String fileName = fileName(part);
        if ((Part.ATTACHMENT.equalsIgnoreCase(disposition) || fileName != null) && !part.isMimeType("multipart/*")) {
            body.attachments.add(new Email.Attachment(fileName == null ? "" : fileName, baseType(part), size(part)));
            return;
        }
        if (part.isMimeType("multipart/*")) {
            Object content = part.getContent();
            if (!(content instanceof Multipart multipart)) {
                throw new MessagingException("a multipart without parts");
            }
            if (part.isMimeType("multipart/alternative")) {
                // The richest part the agent can read: the plain one when it is there.
                BodyPart chosen = null;
                for (int i = 0; i < multipart.getCount(); i++) {
                    BodyPart candidate = multipart.getBodyPart(i);
                    if (candidate.isMimeType("text/plain") && chosen == null) {
                        chosen = candidate;
                    }
                }
                if (chosen != null) {
                    walk(chosen, body, depth + 1);
                    return;
                }
            }
            for (int i = 0; i < multipart.getCount(); i++) {
                walk(multipart.getBodyPart(i), body, depth + 1);
            }
            return;
        }
        if (part.isMimeType("message/rfc822") && part.getContent() instanceof MimeMessage inner) {
            body.plain.append("\n---------- Forwarded message ----------\n");
            walk(inner, body, depth + 1);
            return;
        }
        if (part.isMimeType("text/plain")) {
            append(body.plain, decode(part));
        } else if (part.isMimeType("text/html")) {
            append(body.html, decode(part));
        } else if (!part.isMimeType("text/*") || part.isMimeType("text/calendar")) {
            body.attachments.add(new Email.Attachment("", baseType(part), size(part)));
        }
    }

    private static void append(StringBuilder out, String text) {
        if (out.length() > 0) {
            out.append('\n');
        }
        out.append(text);
    }

    /** A text part's characters, in the charset it names, or the one its bytes fit when it names none it can be read in. */
    static String decode(Part part) throws MessagingException, IOException {
        byte[] bytes;
        try (InputStream in = part.getInputStream()) {
            bytes = in.readAllBytes();
        }
        @Nullable String named = null;
        try {
            named = new ContentType(part.getContentType()).getParameter("charset");
        } catch (ParseException e) {
            // a malformed Content-Type: the bytes tell
        }
        Optional<Charset> charset = charset(named);
        if (charset.isPresent()) {
            return new String(bytes, charset.get());
        }
        return guess(bytes);
    }

    /** A charset by its MIME name, with the names Java does not know mapped to ones it does. */
    static Optional<Charset> charset(@Nullable String name) {
        if (name == null || name.isBlank()) {
            return Optional.empty();
        }
        String n = name.trim().replace("\"", "").toLowerCase(Locale.ROOT);
        n = switch (n) {
            // Logical and explicit Hebrew are the same bytes as visual ISO-8859-8.
            case "iso-8859-8-i", "iso-8859-8-e", "iso_8859-8-i", "iso_8859-8", "hebrew", "visual" -> "iso-8859-8";
            case "cp1255", "windows1255" -> "windows-1255";
            case "utf8" -> "utf-8";
            case "us-ascii", "ascii", "ansi_x3.4-1968" -> "utf-8"; // 8-bit text labelled ASCII is usually UTF-8
            default -> n;
        };
        try {
            return Optional.of(Charset.forName(MimeUtility.javaCharset(n)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Text in UTF-8 when its bytes are; else Hebrew windows-1255 when its high bytes are Hebrew letters; else windows-1252. */
    static String guess(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            int hebrew = 0;
            int high = 0;
            for (byte b : bytes) {
                int v = b & 0xff;
                if (v >= 0x80) {
                    high++;
                    if (v >= 0xE0 && v <= 0xFA) {
                        hebrew++;
                    }
                }
            }
            return new String(bytes, Charset.forName(hebrew * 2 > high ? "windows-1255" : "windows-1252"));
        }
    }

    private static @Nullable String header(Part part, String name) throws MessagingException {
        String[] values = part.getHeader(name);
        return values == null || values.length == 0 ? null : values[0];
    }

    /** An encoded header decoded, in a charset Java may not know by that name. */
    static String decodeWord(String text) {
        try {
            return MimeUtility.decodeText(MimeUtility.unfold(text));
        } catch (java.io.UnsupportedEncodingException e) {
            java.util.regex.Matcher word = java.util.regex.Pattern.compile("=\\?([^?]+)\\?([bBqQ])\\?([^?]*)\\?=")
                    .matcher(text);
            StringBuilder out = new StringBuilder();
            while (word.find()) {
                Charset cs = charset(word.group(1)).orElse(StandardCharsets.UTF_8);
                byte[] bytes = word.group(2).equalsIgnoreCase("b")
                        ? java.util.Base64.getMimeDecoder().decode(word.group(3))
                        : qDecode(word.group(3));
                word.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(new String(bytes, cs)));
            }
            word.appendTail(out);
            return out.toString().replaceAll("\\?=\\s+=\\?", "");
        }
    }

    private static byte[] qDecode(String text) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '_') {
                out.write(' ');
            } else if (c == '=' && i + 2 < text.length()) {
                out.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.write(c);
            }
        }
        return out.toByteArray();
    }

    private static @Nullable String fileName(Part part) {
        try {
            String name = part.getFileName();
            return name == null ? null : decodeWord(name);
        } catch (MessagingException e) {
            return null;
        }
    }

    private static String baseType(Part part) throws MessagingException {
        try {
            return new ContentType(part.getContentType()).getBaseType().toLowerCase(Locale.ROOT);
        } catch (ParseException e) {
            return "application/octet-stream";
        }
    }

    private static long size(Part part) throws MessagingException, IOException {
        try (InputStream in = part.getInputStream()) {
            return in.transferTo(java.io.OutputStream.nullOutputStream());
        }
    }

    private static String firstId(String header) {
        List<String> ids = ids(header);
        return ids.isEmpty() ? header.trim() : ids.get(0);
    }

    private static List<String> ids(@Nullable String header) {
        if (header == null) {
            return List.of();
        }
        List<String> ids = new ArrayList<>();
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("<[^<>\\s]+>").matcher(header);
        while (m.find()) {
            ids.add(m.group());
        }
        if (ids.isEmpty() && !header.isBlank()) {
            Arrays.stream(header.trim().split("\\s+")).map(Email::bracketed).forEach(ids::add);
        }
        return ids;
    }

    private static List<String> addresses(Message message, Message.RecipientType type) {
        try {
            Address[] list = message.getRecipients(type);
            if (list == null) {
                return List.of();
            }
            List<String> out = new ArrayList<>();
            for (Address a : list) {
                if (a instanceof InternetAddress ia && ia.getAddress() != null) {
                    out.add(ia.getAddress());
                }
            }
            return out;
        } catch (MessagingException e) {
            return List.of();
        }
    }
}
