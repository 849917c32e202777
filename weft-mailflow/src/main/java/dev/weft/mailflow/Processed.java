package dev.weft.mailflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.RunJson;
import dev.weft.core.RunResult;
import dev.weft.core.Step;
import dev.weft.core.StepStatus;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What became of one delivery: the run it started (or the run an earlier delivery of the same email
 * started), or why it was filtered. Immutable.
 *
 * @param duplicate whether an earlier delivery of this email had been taken in already
 */
public record Processed(
        Venue venue,
        Email email,
        Optional<String> runId,
        Optional<RunResult> result,
        Optional<String> filtered,
        boolean duplicate) {
    /** What a person is told when the agent met its visit limit and no reply went out. */
    public static final String VISIT_LIMIT_HANDOFF = "no reply was sent: the agent could not write one its checks"
            + " accept within the visit limit (E_VISIT_LIMIT); a person should answer this email";

    public Processed {
        Objects.requireNonNull(venue, "venue");
        Objects.requireNonNull(email, "email");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(filtered, "filtered");
    }

    static Processed filtered(Venue venue, Email email, String reason, boolean duplicate) {
        return new Processed(venue, email, Optional.empty(), Optional.empty(), Optional.of(reason), duplicate);
    }

    static Processed ran(Venue venue, Email email, RunResult result, boolean duplicate) {
        return new Processed(
                venue, email, Optional.of(result.run().id()), Optional.of(result), Optional.empty(), duplicate);
    }

    static Processed pending(Venue venue, Email email, String runId) {
        return new Processed(venue, email, Optional.of(runId), Optional.empty(), Optional.empty(), true);
    }

    /** {@code FILTERED}, {@code PENDING} (an earlier delivery's run not begun yet), or the run's status. */
    public String status() {
        if (filtered.isPresent()) {
            return "FILTERED";
        }
        return result.map(r -> r.status().name()).orElse("PENDING");
    }

    /** The reply the run wrote (sent, to be approved, or not sent), if it wrote one. */
    public Optional<JsonNode> reply() {
        return result.flatMap(Processed::replyOf);
    }

    /** The reply a mailflow run wrote: the send step's, else the last reply a writing step produced. */
    public static Optional<JsonNode> replyOf(RunResult result) {
        JsonNode send = result.outputs().get("send");
        if (send != null && send.path("reply").isObject()) {
            return Optional.of(send.path("reply"));
        }
        List<Step> steps = result.steps();
        for (int i = steps.size() - 1; i >= 0; i--) {
            Step step = steps.get(i);
            if (step.status() == StepStatus.COMPLETED
                    && step.output().has("body")
                    && step.output().has("offered")) {
                return Optional.of(step.output());
            }
        }
        return Optional.empty();
    }

    /** Whether the run's reply went out. */
    public static boolean sent(RunResult result) {
        JsonNode send = result.outputs().get("send");
        return send != null && send.path("sent").asBoolean(false);
    }

    /**
     * What {@code weft mailflow process --json} prints: {@code {"runId", "status", "filtered",
     * "duplicate", "parsed": {"inquiry", "dates", "guests", "eventType", "language", …} | null,
     * "reply": {"subject", "body", "inReplyTo", "language", "offered", "to"} | null, "sent"}}.
     */
    public ObjectNode toJson() {
        ObjectNode node = Json.object();
        node.put("runId", runId.orElse(null));
        node.put("status", status());
        node.put("filtered", filtered.orElse(null));
        node.put("duplicate", duplicate);
        node.put("venue", venue.id());
        node.put("messageId", email.messageId());
        JsonNode parse = result.map(r -> r.outputs().get("parse")).orElse(null);
        if (parse != null) {
            ObjectNode parsed = node.putObject("parsed");
            for (String field :
                    List.of("inquiry", "dates", "guests", "eventType", "language", "budget", "name", "missing")) {
                parsed.set(
                        field, parse.path(field).isMissingNode() ? Json.mapper().nullNode() : parse.get(field));
            }
        } else {
            node.putNull("parsed");
        }
        Optional<JsonNode> written = reply();
        if (written.isPresent()) {
            JsonNode r = written.get();
            ObjectNode reply = node.putObject("reply");
            reply.put("subject", r.path("subject").asText(""));
            reply.put("body", r.path("body").asText(""));
            reply.put("inReplyTo", r.path("inReplyTo").asText(""));
            reply.put("language", r.path("language").asText(""));
            reply.set(
                    "offered",
                    r.path("offered").isArray()
                            ? r.path("offered")
                            : Json.mapper().createArrayNode());
            reply.put("to", r.path("to").asText(""));
            reply.put("question", r.path("question").asBoolean(false));
        } else {
            node.putNull("reply");
        }
        node.put("sent", result.map(Processed::sent).orElse(false));
        result.ifPresent(r -> {
            JsonNode send = r.outputs().get("send");
            if (send != null && send.has("reason")) {
                node.put("notSent", send.path("reason").asText());
            }
            JsonNode handoff = r.outputs().get("handoff");
            if (handoff != null) {
                node.put("handoff", handoff.path("reason").asText("for a person"));
            } else if (r.run()
                    .error()
                    .map(e -> e.code() == ErrorCode.E_VISIT_LIMIT)
                    .orElse(false)) {
                // The agent could not write a reply its guardrail accepts: a person answers instead.
                node.put("handoff", VISIT_LIMIT_HANDOFF);
            }
            r.run()
                    .error()
                    .ifPresent(e -> node.set("error", RunJson.error(r.run().error())));
            if (!r.interrupts().isEmpty()) {
                node.put("waitingFor", "approval");
                // A reply that may have been sent waits for a person to say whether to send it again.
                r.interrupts().values().stream()
                        .filter(payload -> payload.has("code"))
                        .findFirst()
                        .ifPresent(payload -> {
                            node.put("code", payload.path("code").asText());
                            node.put("question", payload.path("question").asText());
                        });
            }
        });
        return node;
    }
}
