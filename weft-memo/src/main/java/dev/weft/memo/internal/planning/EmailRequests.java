package dev.weft.memo.internal.planning;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.internal.understanding.Intent;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How Memo reads a request about email: who from, about what, in which stretch of time (a search);
 * the recipients and the words of a message to send, reply or forward; which mail to read, archive,
 * delete or mark.
 */
public final class EmailRequests {
    private static final int FLAGS = Words.FLAGS;

    private static final Pattern EMAIL_ADDRESS =
            Pattern.compile("[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+");
    /** "…but don't send it yet", "…אבל אל תשלח עדיין": written and kept, not sent. */
    private static final String HOLD_WORDS =
            "\\b(?:don'?t|do not)\\s+send\\b|\\bwithout sending\\b|(?:אל|לא)\\s+(?:ת|ל)שלו?ח|בלי\\s+לשלוח";

    private static final Pattern DRAFT =
            Pattern.compile("\\b(?:draft|compose)\\b|טיוטה|תנסח|נסח|תנסחי|" + HOLD_WORDS, FLAGS);

    private static final Pattern HOLD = Pattern.compile(
            "\\s*[,;-]?\\s*(?:(?:but|and)\\s+)?(?:(?:don'?t|do not)\\s+send(?:\\s+it)?(?:\\s+(?:yet|now|just yet))?|without sending(?:\\s+it)?)"
                    + "\\s*[.!]*$|\\s*[,;-]?\\s*(?:אבל\\s+|ו)?(?:(?:אל|לא)\\s+(?:ת|ל)שלו?ח(?:\\s+(?:אותו|את זה))?(?:\\s+(?:עדיין|בינתיים|עוד))?"
                    + "|בלי\\s+לשלוח(?:\\s+(?:אותו|את זה))?)\\s*[.!]*$",
            FLAGS);
    private static final Pattern REPLY_TO = Pattern.compile(
            "^(?:please\\s+)?(?:reply|respond|answer|write back)\\s+(?:yes\\s+|no\\s+)?to\\s+(?!(?:the|that|this|her|his|their|my)\\b)(?<en>[\\p{L}.@+'-]+?)(?:'s)?(?=[\\s:,]|$)"
                    + "|^(?:please\\s+)?answer\\s+(?<en3>[\\p{L}.@+'-]+?)'s\\b"
                    + "|^(?:בבקשה\\s+)?(?:תענה|תעני|תשיב|תשיבי|ענה|השב|תחזיר)\\s+(?:כן\\s+|תשובה\\s+)?ל(?:-)?(?!מייל)(?<he>[\\p{IsHebrew}][\\p{IsHebrew}'\"-]+)",
            FLAGS);
    private static final Pattern ARCHIVE = Pattern.compile("\\barchive\\b|ארכיון|תארכב", FLAGS);
    private static final Pattern MARK_READ = Pattern.compile("\\bmark\\b.*\\bread\\b|סמן .*כנקר|תסמן .*כנקר", FLAGS);
    private static final Pattern STAR = Pattern.compile("\\bstar\\b|כוכב", FLAGS);
    private static final Pattern UNREAD = Pattern.compile("\\b(?:unread|new)\\b|שלא נקרא|שלא קראתי|חדשים|חדש", FLAGS);
    private static final Pattern FROM = Pattern.compile(
            "\\bfrom\\s+(?!today|yesterday|tomorrow|this|last|earlier|the usual)(?<en>(?:the\\s+|my\\s+)?[\\p{L}\\p{N}.@+'-]+)"
                    + "|(?<en2>\\b[\\p{L}][\\p{L}'-]*)'s\\s+(?:last\\s+|latest\\s+)?e-?mail"
                    + "|\\b(?:did|has|have)\\s+(?<en3>(?!i\\b|you\\b|anyone\\b|anybody\\b)[\\p{L}][\\p{L}'-]*)\\s+(?:e-?mailed|written|wrote|write|reply|replied|answer|answered|sent)"
                    + "|(?:ה)?מייל\\s+של\\s+(?<he2>[\\p{IsHebrew}][\\p{IsHebrew}'\"-]+)"
                    + "|(?:^|\\s)מ(?:-)?(?<he>(?!ה?יומן|ה?רשימ|יילים|ייל(?:\\s|$)|חר|חרתיים|אתמול|ה?בוקר|ה?יום|ה?שבוע|ה?חודש|עכשיו|שהו)[\\p{IsHebrew}][\\p{IsHebrew}'\"-]+)(?=\\s|$|\\?)",
            FLAGS);
    private static final Pattern ABOUT = Pattern.compile(
            "\\b(?:about|regarding|re:|subject)\\s+(?<en>.+?)\\s*(?:\\?|$|:|\\bfrom\\b|\\bto\\s+\\S+@|\\bsaying\\b|\\bthat says\\b|\\bwith\\b)"
                    + "|\\b(?:search|look)\\s+(?:in\\s+)?(?:my\\s+)?(?:inbox|e-?mails?|mail)\\s+for\\s+(?<en2>.+?)\\s*(?:\\?|$)"
                    + "|(?:על|בנושא)\\s+(?<he>.+?)\\s*(?:\\?|$|:|\\s+ל-?\\S+@|\\s+ותכתוב|\\s+ותגיד|\\s+שאומר)",
            FLAGS);
    private static final Pattern LATEST =
            Pattern.compile("\\b(?:latest|newest|last|most recent)\\b|האחרון|האחרונה|החדש ביותר", FLAGS);
    /** "מייל ל-dana@example.com שאני מאחר": what follows the recipient's address after ש is the body. */
    private static final Pattern HEBREW_THAT =
            Pattern.compile("ל-?[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+\\s+ש(?<he>.+)$", FLAGS);

    private static final Pattern TO = Pattern.compile(
            "\\bto\\s+(?<en>[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+|(?:my\\s+)?[\\p{L}][\\p{L}'-]+)|(?:^|\\s)ל(?:-)?(?<he>[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+|[\\p{IsHebrew}][\\p{IsHebrew}'-]+)",
            FLAGS);
    private static final Pattern BODY = Pattern.compile(
            "(?:\\bsaying|\\bthat says|\\bwith the text|\\bby email that|\\bthat\\b(?=\\s+(?:i|we|the|it|you|he|she|they|my|our)\\b)|:|"
                    + "^(?:please\\s+)?(?:e-?mail|mail|tell)\\s+[\\p{L}.@+'-]+\\s+that)\\s*(?<en>.+)$"
                    + "|(?:שאומר(?:\\s+ש)?|ותגיד(?:\\s+ש)?|ותכתוב(?:\\s+ש)?|במייל\\s+ש|:|\\s+ש(?=(?:אני|אנחנו|ה|הוא|היא|זה)))\\s*(?<he>.+)$",
            FLAGS);
    private static final Pattern NAMED_RECIPIENT = Pattern.compile(
            "^(?:please\\s+)?(?:e-?mail|mail|write to|tell|shoot|drop|let)\\s+(?!an?\\b|the\\b|my\\b|me\\b)([\\p{L}][\\p{L}'-]*)",
            FLAGS);
    private static final Pattern NOT_A_NAME = Pattern.compile(
            "(?iU)^(?:him|her|them|everyone|all|it|the|a|an|email|mail|message|note|my|me|מייל|הודעה)$");

    private EmailRequests() {}

    static Reading read(Intent intent, Request r) {
        ObjectNode c = Json.object();
        String text = r.text();
        Matcher saying = BODY.matcher(text);
        Matcher that = HEBREW_THAT.matcher(text);
        String body = saying.find()
                ? Words.either(saying, "en", "he").trim()
                : that.find() ? that.group("he").trim() : "";
        boolean sending = intent == Intent.EMAIL_SEND;
        if (!sending) {
            // A time inside what the email says ("reply: yes, Sunday at 10") is no window to search.
            r.when()
                    .filter(t -> body.isEmpty() || !body.contains(t.text().trim()))
                    .ifPresent(t -> Times.window(t, c, "timeMin", "timeMax"));
            Matcher from = FROM.matcher(text);
            if (from.find()) {
                String who = from.group("en") != null
                        ? from.group("en")
                        : from.group("en2") != null
                                ? from.group("en2")
                                : from.group("en3") != null ? from.group("en3") : Words.either(from, "he", "he2");
                c.put("from", who.trim());
            }
        }
        Matcher about = ABOUT.matcher(text);
        if (about.find()) {
            String subject = about.group("en2") != null ? about.group("en2") : Words.either(about, "en", "he");
            c.put("subject", Words.trim(subject));
        }
        return switch (intent) {
            case EMAIL_REPLY -> {
                Matcher to = REPLY_TO.matcher(text);
                if (!c.has("from") && to.find()) {
                    c.put("from", to.group("en3") != null ? to.group("en3") : Words.either(to, "en", "he"));
                }
                if (!body.isEmpty()) {
                    c.put("body", body);
                } else if (text.matches("(?iU)^(?:reply|answer|respond)\\s+yes\\b.*|^(?:תשיב|תענה)\\s+כן.*")) {
                    c.put("body", r.hebrew() ? "כן" : "Yes");
                }
                yield Reading.of("gmail", "reply_email", c);
            }
            case EMAIL_FORWARD -> {
                recipients(text, c);
                yield Reading.of("gmail", "forward_email", c);
            }
            case EMAIL_MANAGE -> {
                if (ARCHIVE.matcher(text).find()) {
                    yield Reading.of("gmail", "archive_email", c);
                }
                if (MARK_READ.matcher(text).find()) {
                    yield Reading.of("gmail", "mark_read", c);
                }
                if (STAR.matcher(text).find()) {
                    yield Reading.of("gmail", "star_email", c);
                }
                yield Reading.of("gmail", "delete_email", c);
            }
            case EMAIL_SEND -> {
                recipients(text, c);
                // "…but don't send it yet": the body is what comes before.
                String written = HOLD.matcher(body).replaceFirst("").strip();
                if (!written.isEmpty()) {
                    c.put("body", written);
                }
                yield Reading.of("gmail", DRAFT.matcher(text).find() ? "compose_email" : "send_email", c);
            }
            case EMAIL_READ -> {
                if (LATEST.matcher(text).find() || !c.has("from") && !c.has("subject")) {
                    c.put("latest", true);
                }
                yield Reading.of("gmail", "read_email", c);
            }
            default -> {
                if (UNREAD.matcher(text).find()) {
                    c.put("unread", true);
                }
                yield Reading.of("gmail", "search_emails", c);
            }
        };
    }

    private static void recipients(String text, ObjectNode constraints) {
        ArrayNode to = constraints.putArray("to");
        Matcher addresses = EMAIL_ADDRESS.matcher(text);
        while (addresses.find()) {
            to.add(addresses.group());
        }
        Matcher recipient = NAMED_RECIPIENT.matcher(text);
        if (to.isEmpty()
                && recipient.find()
                && !NOT_A_NAME.matcher(recipient.group(1)).matches()) {
            to.add(recipient.group(1));
        }
        if (to.isEmpty()) {
            Matcher named = TO.matcher(text.replaceFirst("(?iU)^.*?\\b(?:e-?mail|mail|message)\\b", ""));
            if (named.find()) {
                String who = Words.either(named, "en", "he").replaceFirst("(?iU)^my\\s+", "my ");
                if (!NOT_A_NAME.matcher(who).matches()) {
                    to.add(who);
                }
            }
        }
        if (to.isEmpty()) {
            Matcher named = TO.matcher(text);
            if (named.find()
                    && !NOT_A_NAME.matcher(Words.either(named, "en", "he")).matches()) {
                to.add(Words.either(named, "en", "he"));
            }
        }
    }
}
