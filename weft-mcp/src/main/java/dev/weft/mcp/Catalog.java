package dev.weft.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunStatus;
import dev.weft.core.WeftException;
import dev.weft.plan.Risk;
import java.util.List;
import java.util.Optional;

/** The schemas of the tools Weft adds of its own (talking to an assistant, the runs), and reading their arguments. */
final class Catalog {
    private Catalog() {}

    static List<AssistantTools.Offered> runsTools() {
        ObjectNode list = object();
        ObjectNode status = property(list, "status", "string", "Only runs in this status.");
        ArrayNode values = status.putArray("enum");
        for (RunStatus s : RunStatus.values()) {
            values.add(s.name());
        }
        ObjectNode limit = property(list, "limit", "integer", "At most this many runs, newest first (default 20).");
        limit.put("minimum", 1).put("maximum", 100);

        ObjectNode show = runId(object());
        ObjectNode approve = runId(object());
        ObjectNode steps = property(approve, "steps", "array", "The waiting steps to approve (default: all of them).");
        steps.putObject("items").put("type", "string");
        ObjectNode reject = runId(object());
        ObjectNode answer = runId(object());
        property(answer, "text", "string", "The answer: '2' picks the second option, or words.");
        answer.withArray("required").add("text");
        return List.of(
                new AssistantTools.Offered(
                        AssistantTools.RUNS_LIST,
                        "Your runs (each message to an assistant and each tool call is one), newest first.",
                        list,
                        Optional.empty(),
                        Risk.LOW,
                        true),
                new AssistantTools.Offered(
                        AssistantTools.RUNS_SHOW,
                        "One of your runs: its status, steps, outputs, error, and what it waits for.",
                        show,
                        Optional.empty(),
                        Risk.LOW,
                        true),
                new AssistantTools.Offered(
                        AssistantTools.RUNS_APPROVE,
                        "Approves what one of your waiting runs waits for (a high-risk step) and continues it. Call it"
                                + " only once the person you act for has said yes.",
                        approve,
                        Optional.empty(),
                        Risk.LOW,
                        false),
                new AssistantTools.Offered(
                        AssistantTools.RUNS_REJECT,
                        "Rejects what one of your waiting runs waits for: its waiting steps are skipped, nothing is"
                                + " done.",
                        reject,
                        Optional.empty(),
                        Risk.LOW,
                        false),
                new AssistantTools.Offered(
                        AssistantTools.RUNS_ANSWER,
                        "Answers the question one of your waiting runs asked, and continues it.",
                        answer,
                        Optional.empty(),
                        Risk.LOW,
                        false));
    }

    static ObjectNode chatInput() {
        ObjectNode schema = object();
        property(schema, "message", "string", "What to say, in English or Hebrew.");
        property(schema, "zone", "string", "Your time zone (an IANA name such as Asia/Jerusalem), if it changed.");
        property(
                schema,
                "session",
                "string",
                "The conversation to continue (the session of an earlier reply). Without it: your one"
                        + " conversation, or for an assistant that serves many people under one key (the concierge)"
                        + " a new conversation.");
        schema.withArray("required").add("message");
        return schema;
    }

    static ObjectNode chatOutput() {
        ObjectNode schema = object();
        property(schema, "reply", "string", "The assistant's reply.");
        property(schema, "language", "string", "The reply's language: en or he.");
        property(schema, "status", "string", "The run's status: COMPLETED, WAITING (for a yes/no or an answer)…");
        property(schema, "runId", "string", "The run the message made or continued.");
        property(schema, "session", "string", "The conversation: give it back to continue it.");
        ArrayNode required = schema.putArray("required");
        List.of("reply", "language", "status", "runId").forEach(required::add);
        return schema;
    }

    /**
     * The non-empty string {@code field} of {@code args}.
     *
     * @throws WeftException {@code E_ARGS_INVALID} naming the field
     */
    static String text(ObjectNode args, String field) {
        JsonNode value = args.get(field);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            throw new WeftException(ErrorCode.E_ARGS_INVALID, "'" + field + "' is required: a non-empty string");
        }
        return value.asText();
    }

    private static ObjectNode object() {
        ObjectNode schema = Json.object();
        schema.put("type", "object");
        schema.putObject("properties");
        return schema;
    }

    private static ObjectNode runId(ObjectNode schema) {
        property(schema, "runId", "string", "The run's id (from runs_list, or a tool call's result).");
        schema.withArray("required").add("runId");
        return schema;
    }

    private static ObjectNode property(ObjectNode schema, String name, String type, String description) {
        ObjectNode property = ((ObjectNode) schema.get("properties")).putObject(name);
        property.put("type", type);
        property.put("description", description);
        return property;
    }
}
