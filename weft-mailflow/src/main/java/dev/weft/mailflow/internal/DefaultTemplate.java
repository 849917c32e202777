package dev.weft.mailflow.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.mailflow.Template;
import java.util.List;
import java.util.Map;

/**
 * The venue agent every venue is installed with (seed 003's flow): trigger → agent {@code parse} →
 * guardrail {@code enough} (a booking inquiry with its date and guests, or no inquiry at all;
 * {@code negative} takes the clarifying path) → agent {@code orchestrate} (check availability, answer
 * a question about the rooms, or hand to a person) → tool {@code get_availability} → agent {@code
 * execution} → guardrail {@code reply_ok} (the reply in the sender's language, offering only free
 * rooms; {@code negative} loops back to {@code execution}, three visits at most) → {@code send}.
 */
public final class DefaultTemplate {
    private DefaultTemplate() {}

    public static Template create() {
        List<Template.Item> nodes = List.of(
                item("email", "trigger", Json.object()),
                item("parse", "agent", agent("parse", Schemas.PARSE_SYSTEM, Schemas.EMAIL_USER)),
                item(
                        "enough",
                        "guardrail",
                        Json.object()
                                .put("expression", "!nodes.parse.inquiry || size(nodes.parse.missing) == 0")
                                .put("message", "a booking inquiry needs its date and its number of guests")),
                item(
                        "orchestrate",
                        "agent",
                        agent("orchestrate", Schemas.ORCHESTRATE_SYSTEM, Schemas.ORCHESTRATE_USER)),
                item(
                        "execution",
                        "agent",
                        agent("execution", Schemas.EXECUTION_SYSTEM, Schemas.EXECUTION_USER)
                                .put("maxVisits", 3)),
                item(
                        "reply_ok",
                        "guardrail",
                        Json.object()
                                .put(
                                        "expression",
                                        "nodes.execution.body != '' && nodes.execution.language == nodes.parse.language"
                                                + " && nodes.execution.offered.all(r, r in nodes.get_availability.offer)")
                                .put(
                                        "message",
                                        "the reply must be in the sender's language and offer only rooms that are free")),
                item("clarify", "agent", agent("clarify", Schemas.CLARIFY_SYSTEM, Schemas.CLARIFY_USER)),
                item(
                        "answer",
                        "agent",
                        agent(
                                "execution",
                                Schemas.EXECUTION_SYSTEM.replace(
                                        "Offer only rooms listed as free for the dates asked, by their names exactly as given, and list them in \"offered\".\n"
                                                + "When none is free, say so and mention the nearest free dates given. ",
                                        "Answer the question about the rooms from the list below; offer none (\"offered\" is empty) and ask for the date and number of guests.\n"),
                                Schemas.CLARIFY_USER)),
                item("send", "send", sendConfig()),
                item("handoff", "handoff", Json.object()));
        List<Template.Item> tools = List.of(item("get_availability", "get_availability", Json.object()));
        List<Template.Connection> links = List.of(
                link("email", "parse", "output"),
                link("parse", "enough", "output"),
                link("enough", "orchestrate", "positive"),
                link("enough", "clarify", "negative"),
                link("orchestrate", "get_availability", "availability"),
                link("orchestrate", "answer", "answer"),
                link("orchestrate", "handoff", "handoff"),
                link("get_availability", "execution", "output"),
                link("execution", "reply_ok", "output"),
                link("reply_ok", "send", "positive"),
                link("reply_ok", "execution", "negative"),
                link("clarify", "send", "output"),
                link("answer", "send", "output"));
        return new Template("venue-agent", "Venue agent", Map.of(), nodes, tools, links);
    }

    /** A send that failed (a server unreachable, a crash after SMTP) is tried again; the outbox keeps it to one email. */
    private static ObjectNode sendConfig() {
        ObjectNode config = Json.object();
        config.putObject("retry")
                .put("maxAttempts", 3)
                .put("initialDelayMs", 1000)
                .put("maxDelayMs", 10_000);
        return config;
    }

    private static ObjectNode agent(String role, String system, String user) {
        ObjectNode config = Json.object().put("role", role);
        config.putObject("prompt").put("system", system).put("user", user);
        return config;
    }

    private static Template.Item item(String id, String type, ObjectNode config) {
        return new Template.Item(id, type, id, config);
    }

    private static Template.Connection link(String source, String target, String handle) {
        return new Template.Connection(source, target, handle, "input");
    }
}
