package dev.weft.memo.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.weft.core.ErrorCode;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/** What Memo says of email steps, in the user's language: what was found, read, sent or changed. Stateless. */
final class MailReplies {
    /** How many emails a search's reply lists. */
    private static final int LISTED = 10;

    /** How much of a body a reply shows. */
    private static final int BODY = 1500;

    private MailReplies() {}

    static String done(String language, String action, JsonNode result, ZoneId zone) {
        switch (action) {
            case "search_emails" -> {
                JsonNode emails = result.path("emails");
                int total = result.path("total").asInt(emails.size());
                if (emails.isEmpty()) {
                    return Texts.of(language, "No emails found.", "לא מצאתי מיילים.");
                }
                List<String> lines = new ArrayList<>();
                lines.add(Texts.of(
                        language,
                        total == 1 ? "1 email:" : total + " emails" + (total > emails.size() ? ", the newest:" : ":"),
                        total == 1 ? "מייל אחד:" : total + " מיילים" + (total > emails.size() ? ", האחרונים:" : ":")));
                int shown = 0;
                for (JsonNode email : emails) {
                    if (shown++ == LISTED) {
                        break;
                    }
                    lines.add("• " + GmailResolver.label(email, zone)
                            + (email.path("unread").asBoolean() ? " ●" : ""));
                }
                return String.join("\n", lines);
            }
            case "read_email" -> {
                JsonNode email = result.path("email");
                String body = email.path("body").asText("").strip();
                if (body.length() > BODY) {
                    body = body.substring(0, BODY) + "…";
                }
                return GmailResolver.label(email, zone) + "\n\n" + body;
            }
            case "compose_email" -> {
                JsonNode preview = result.path("preview");
                return Texts.of(language, "Here is the draft:\n", "הנה הטיוטה:\n") + message(language, preview);
            }
            case "send_email", "reply_email", "forward_email" -> {
                JsonNode sent = result.path("sent");
                return Texts.of(
                        language,
                        "Sent to " + join(sent.path("to")) + ": \""
                                + sent.path("subject").asText() + "\".",
                        "שלחתי ל-" + join(sent.path("to")) + ": \""
                                + sent.path("subject").asText() + "\".");
            }
            case "archive_email" -> {
                return Texts.of(language, "Archived ", "העברתי לארכיון את ") + quoted(result.path("archived"));
            }
            case "delete_email" -> {
                return Texts.of(language, "Moved to the trash: ", "העברתי לאשפה את ") + quoted(result.path("deleted"));
            }
            case "mark_read" -> {
                return Texts.of(language, "Marked as read: ", "סימנתי כנקרא: ") + quoted(result.path("email"));
            }
            case "mark_unread" -> {
                return Texts.of(language, "Marked as unread: ", "סימנתי כלא נקרא: ") + quoted(result.path("email"));
            }
            case "star_email" -> {
                return Texts.of(language, "Starred ", "סימנתי בכוכב את ") + quoted(result.path("email"));
            }
            case "unstar_email" -> {
                return Texts.of(language, "Removed the star from ", "הורדתי את הכוכב מ") + quoted(result.path("email"));
            }
            default -> {
                return Texts.of(language, "Done: ", "בוצע: ") + quoted(result.path("email"));
            }
        }
    }

    /** What an approval of an email step shows: the message itself, or the email it acts on. */
    static String pending(String language, JsonNode args) {
        String about = args.path("about").asText(args.path("emailId").asText(""));
        return switch (args.path("operation").asText()) {
            case "send" -> Texts.of(language, "send this email:\n", "לשלוח את המייל הזה:\n") + message(language, args);
            case "reply" ->
                Texts.of(language, "reply to ", "לענות ל") + about + ":\n"
                        + args.path("body").asText("") + "\n";
            case "forward" ->
                Texts.of(language, "forward ", "להעביר את ") + about + Texts.of(language, " to ", " ל-")
                        + join(args.path("to"))
                        + (args.hasNonNull("body") ? ":\n" + args.get("body").asText() : "")
                        + "\n";
            case "sendDraft" -> Texts.of(language, "send the draft ", "לשלוח את הטיוטה ") + about;
            case "delete" -> Texts.of(language, "move to the trash: ", "להעביר לאשפה את ") + about;
            default -> "gmailOperations " + args.path("operation").asText();
        };
    }

    /** What a failed email step says: how to connect a mailbox, or what the server said. */
    static String failed(String language, ErrorCode code, String message, String user) {
        if (code == ErrorCode.E_MAIL_NOT_CONFIGURED) {
            return Texts.of(
                    language,
                    "I can't reach your email: no mailbox is connected. Connect one with: weft memo mail add --user "
                            + user + " --imap HOST:993 --smtp HOST:465 --login YOUR-ADDRESS",
                    "אין לי גישה למייל שלך: לא חוברה תיבת דואר. אפשר לחבר אחת כך: weft memo mail add --user " + user
                            + " --imap HOST:993 --smtp HOST:465 --login YOUR-ADDRESS");
        }
        return Texts.of(language, "I couldn't reach your email: ", "לא הצלחתי לגשת למייל: ")
                + message.replaceFirst("^step '[^']*': ", "");
    }

    private static String message(String language, JsonNode m) {
        return Texts.of(language, "To: ", "אל: ") + join(m.path("to")) + "\n"
                + Texts.of(language, "Subject: ", "נושא: ") + m.path("subject").asText("") + "\n\n"
                + m.path("body").asText("") + "\n";
    }

    private static String join(JsonNode list) {
        if (list.isTextual()) {
            return list.asText();
        }
        List<String> out = new ArrayList<>();
        list.forEach(v -> out.add(v.asText()));
        return String.join(", ", out);
    }

    private static String quoted(JsonNode email) {
        return "\"" + email.path("subject").asText("") + "\"";
    }
}
