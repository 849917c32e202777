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
            c.put("outOfScope", intent.label().substring("oos.".length()));
        }
        return Reading.of("general", "respond", c);
    }
}
