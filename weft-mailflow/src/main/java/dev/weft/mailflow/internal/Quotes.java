package dev.weft.mailflow.internal;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Sets apart, in a plain-text body, the reply quoted below what the sender wrote and their signature,
 * in English and Hebrew mail as the common clients write it. A forwarded message is kept as text: it
 * is usually what the sender wants answered. Stateless.
 */
public final class Quotes {
    /** "On Mon, 2 Mar 2026 at 10:00, Dana <d@x.com> wrote:", "ב-2 במרץ 2026, 10:00, דנה כתב/ה:" */
    private static final Pattern ATTRIBUTION = Pattern.compile(
            "^\\s*(On\\s.{4,200}\\swrote:|Le\\s.{4,200}\\sa écrit\\s?:|.{0,200}(כתב|כתבה|כתב/ה|כתב\\(ה\\))\\s*:)\\s*$",
            Pattern.CASE_INSENSITIVE);
    /** Outlook's separators before the quoted message. */
    private static final Pattern OUTLOOK = Pattern.compile(
            "^\\s*(-{2,}\\s*(Original Message|ההודעה המקורית|הודעה מקורית)\\s*-{2,}|_{20,})\\s*$",
            Pattern.CASE_INSENSITIVE);
    /** Outlook's header block of the quoted message: "From: …" followed by "Sent: …" or "Date: …". */
    private static final Pattern HEADER_FROM =
            Pattern.compile("^\\s*\\*?(From|מאת)\\s*:\\*?\\s.*$", Pattern.CASE_INSENSITIVE);

    private static final Pattern HEADER_SENT =
            Pattern.compile("^\\s*\\*?(Sent|Date|נשלח|תאריך)\\s*:\\*?\\s.*$", Pattern.CASE_INSENSITIVE);
    private static final Pattern FORWARD = Pattern.compile(
            "^\\s*(-{2,}\\s*(Forwarded message|Begin forwarded message|הודעה שהועברה|הודעה מועברת)\\s*:?\\s*-{0,}|Begin forwarded message:)\\s*$",
            Pattern.CASE_INSENSITIVE);
    /** Lines that start a signature without the "-- " delimiter. */
    private static final List<Pattern> SIGN_OFF = List.of(Pattern.compile(
            "^\\s*(Sent from my|Get Outlook for|נשלח מה-?|נשלח מ-?|Sent from Mail for).*$", Pattern.CASE_INSENSITIVE));

    private Quotes() {}

    /** What the sender wrote, what they quoted, their signature, and whether a forwarded message is in it. */
    public record Split(String text, String quoted, String signature, boolean forwarded) {}

    public static Split split(String body) {
        String normalized = body.replace("\r\n", "\n").replace('\r', '\n');
        String[] lines = normalized.split("\n", -1);
        int quoteStart = lines.length;
        boolean forwarded = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (FORWARD.matcher(line).matches()) {
                forwarded = true;
                break;
            }
            if (ATTRIBUTION.matcher(line).matches() || OUTLOOK.matcher(line).matches()) {
                quoteStart = i;
                break;
            }
            // An attribution wrapped over two lines: "On Mon, 2 Mar 2026 at 10:00, Dana Cohen <d@x.com>\nwrote:"
            if (i + 1 < lines.length
                    && line.trim().startsWith("On ")
                    && lines[i + 1].trim().equalsIgnoreCase("wrote:")) {
                quoteStart = i;
                break;
            }
            if (HEADER_FROM.matcher(line).matches()
                    && i + 1 < lines.length
                    && HEADER_SENT.matcher(lines[i + 1]).matches()) {
                quoteStart = i;
                break;
            }
            if (line.startsWith(">") && restIsQuoted(lines, i)) {
                quoteStart = i;
                break;
            }
        }
        StringBuilder quoted = new StringBuilder();
        for (int i = quoteStart; i < lines.length; i++) {
            quoted.append(lines[i].replaceFirst("^>+ ?", "")).append('\n');
        }
        int end = quoteStart;
        int signatureStart = end;
        for (int i = 0; i < end; i++) {
            String line = lines[i];
            if (line.equals("-- ") || line.equals("--") || line.equals("—") || line.equals("-- -")) {
                signatureStart = i;
                break;
            }
            if (!forwarded && SIGN_OFF.stream().anyMatch(p -> p.matcher(line).matches())) {
                signatureStart = i;
                break;
            }
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < signatureStart; i++) {
            // Quoted lines inside the new text (an inline reply) stay out of it.
            if (!lines[i].startsWith(">")) {
                text.append(lines[i]).append('\n');
            } else {
                quoted.insert(0, lines[i].replaceFirst("^>+ ?", "") + "\n");
            }
        }
        StringBuilder signature = new StringBuilder();
        for (int i = signatureStart; i < end; i++) {
            signature.append(lines[i]).append('\n');
        }
        return new Split(
                text.toString().strip(),
                quoted.toString().strip(),
                signature.toString().replaceFirst("^(-- ?|—)\\n", "").strip(),
                forwarded);
    }

    /** Whether the lines from {@code from} on are quoted or blank (the quote of a reply written on top). */
    private static boolean restIsQuoted(String[] lines, int from) {
        for (int i = from; i < lines.length; i++) {
            if (!lines[i].isBlank() && !lines[i].startsWith(">")) {
                return false;
            }
        }
        return true;
    }
}
