package dev.weft.memo.internal.planning;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.internal.understanding.Intent;

/**
 * How Memo reads what is not a request of its capabilities: small talk and help (answered in
 * words), a request to undo what it last did, and a request for something Memo does not do — the
 * weather, music, ordering food… — which is answered honestly, by its topic, and never acted on.
 */
public final class ChatRequests {
    private ChatRequests() {}

    /** Paying, transferring and bank accounts: "pay my electricity bill", "תעביר 200 שקל לעומר בביט". */
    private static final java.util.regex.Pattern MONEY = java.util.regex.Pattern.compile(
            "\\b(?:pay|paying|payment|transfer|wire|venmo|paypal|bank account|balance|bills?|dollars|shekels|nis|\\$\\d+)\\b"
                    + "|(?:^|\\s)(?:תשלם|תשלמי|לשלם|שלם|תעביר\\s+\\d+|העברה|בביט|בפייבוקס|שקל|שקלים|ש\"ח|בחשבון הבנק|חשבון החשמל|חשבון המים"
                    + "|כמה כסף|יתרה)(?=\\s|$|[?.,!])",
            Words.FLAGS);

    static Reading read(Intent intent, Request r) {
        ObjectNode c = Json.object();
        c.put("message", r.text());
        if (intent == Intent.META_HELP) {
            return Reading.of("meta", "help", c);
        }
        if (intent == Intent.UNDO) {
            // Memo undoes the user's last run before this step says what it undid.
            return Reading.of("meta", "undo", Json.object());
        }
        NotCommands.kind(r.text()).ifPresent(kind -> c.put("notACommand", kind));
        if (intent.outOfScope()) {
            // Money has no topic of its own in the classifier; it is told by its words.
            c.put(
                    "outOfScope",
                    MONEY.matcher(r.text()).find() ? "payments" : intent.label().substring("oos.".length()));
        }
        return Reading.of("general", "respond", c);
    }
}
