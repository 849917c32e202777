package dev.weft.mailflow.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NodeContext;
import dev.weft.core.NodeResult;
import dev.weft.core.NodeSpec;
import dev.weft.core.OutcomeUnknownException;
import dev.weft.core.WeftException;
import dev.weft.core.spi.Checkpoint;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.Model;
import dev.weft.llm.ModelUnavailableException;
import dev.weft.llm.Models;
import dev.weft.llm.Prompt;
import dev.weft.llm.PromptTemplate;
import dev.weft.llm.Provider;
import dev.weft.llm.StepModels;
import dev.weft.mailflow.GraphTokens;
import dev.weft.mailflow.MailflowData;
import dev.weft.mailflow.Venue;
import dev.weft.store.Secrets;
import dev.weft.workflow.NodeTypes;
import dev.weft.workflow.spi.NodeConfig;
import dev.weft.workflow.spi.NodeType;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The node and tool types of a venue's workflow (seed 003): {@code agent} (roles {@code parse},
 * {@code orchestrate}, {@code execution}, {@code clarify}: by rules offline, by a model with
 * structured output when one is configured), {@code send} (a threaded reply, exactly once), {@code
 * handoff}, and the tool {@code get_availability}. Thread-safe.
 */
public final class VenueNodes {
    /** The tool types a template may list under {@code tools}. */
    public static final Set<String> TOOLS = Set.of("get_availability");

    /** What the nodes work with. */
    public record Services(
            RunStore store,
            MailflowData data,
            Secrets secrets,
            Models models,
            Mailer mailer,
            GraphMailer graph,
            GraphTokens graphTokens,
            Runnable afterSmtp) {}

    private VenueNodes() {}

    /** The standard node types with the venue agent's. */
    public static NodeTypes types(Services services) {
        return NodeTypes.standard()
                .with(new AgentType(services))
                .with(new SendType(services))
                .with(new HandoffType())
                .with(new AvailabilityType(services));
    }

    // ---- agent

    static final Set<String> ROLES = Set.of("parse", "orchestrate", "execution", "clarify");
    static final List<String> ACTIONS = List.of("availability", "answer", "handoff");

    private record AgentType(Services services) implements NodeType {
        @Override
        public String name() {
            return "agent";
        }

        @Override
        public Set<String> configFields() {
            return Set.of("role", "prompt", "schema", "model", "parse", "availability");
        }

        @Override
        public NodeSpec.Builder create(NodeConfig config) {
            String role = config.requiredString("role");
            if (!ROLES.contains(role)) {
                throw config.problem(
                        "role",
                        "must be one of "
                                + String.join(", ", ROLES.stream().sorted().toList()) + ", was '" + role + "'");
            }
            PromptTemplate template = prompt(config, role);
            JsonNode schema = config.optional("schema").orElse(Schemas.of(role));
            if (!schema.isObject()) {
                throw config.problem("schema", "must be a JSON Schema object");
            }
            Model model = model(config);
            String parseNode = config.optionalString("parse").orElse("parse");
            String availabilityNode = config.optionalString("availability").orElse("get_availability");
            Agent agent = new Agent(role, template, schema, model, parseNode, availabilityNode, services);
            NodeSpec.Builder spec = config.spec(agent::run);
            if (role.equals("orchestrate")) {
                spec.handles(ACTIONS.toArray(String[]::new)).router(output -> {
                    String action = output.path("action").asText("handoff");
                    return ACTIONS.contains(action) ? action : "handoff";
                });
            }
            return spec;
        }

        private static PromptTemplate prompt(NodeConfig config, String role) {
            JsonNode prompt = config.optional("prompt").orElse(null);
            if (prompt == null) {
                return Schemas.prompt(role);
            }
            if (!prompt.isObject()) {
                throw config.problem("prompt", "must be an object {\"system\": TEMPLATE, \"user\": TEMPLATE}");
            }
            for (String field : (Iterable<String>) prompt::fieldNames) {
                if (!field.equals("system") && !field.equals("user")) {
                    throw config.problem("prompt." + field, "is not a prompt part (known: system, user)");
                }
            }
            try {
                return PromptTemplate.of(
                        prompt.path("system").asText(""), prompt.path("user").asText(""));
            } catch (IllegalArgumentException e) {
                throw config.problem("prompt", e.getMessage());
            }
        }

        private Model model(NodeConfig config) {
            Optional<String> override = config.optionalString("model");
            try {
                return override.isPresent()
                        ? services.models().model(override.get())
                        : services.models().defaultModel();
            } catch (ModelUnavailableException e) {
                throw new ModelUnavailableException("node '" + config.nodeId() + "': " + e.getMessage(), e);
            } catch (WeftException e) {
                throw config.problem("model", e.getMessage());
            }
        }
    }

    /** One agent node: its rules offline, its model otherwise. */
    private record Agent(
            String role,
            PromptTemplate template,
            JsonNode schema,
            Model model,
            String parseNode,
            String availabilityNode,
            Services services) {

        NodeResult run(NodeContext context) {
            JsonNode input = context.runInput();
            ObjectNode venue = (ObjectNode) input.path("venue");
            boolean offline = model.provider() == Provider.OFFLINE;
            Prompt prompt = template.render(context);
            if (offline) {
                context.record("prompt", prompt.toJson());
                context.record("model", Json.mapper().getNodeFactory().textNode("offline:rules"));
            }
            return NodeResult.output(
                    switch (role) {
                        case "parse" -> parse(context, venue, offline, prompt);
                        case "orchestrate" -> orchestrate(context, offline, prompt);
                        case "execution" -> execution(context, venue, offline, prompt);
                        default -> clarify(context, venue, offline, prompt);
                    });
        }

        private ObjectNode parse(NodeContext context, ObjectNode venue, boolean offline, Prompt prompt) {
            JsonNode email = context.runInput().path("email");
            ZonedDateTime now = now(context);
            Inquiry inquiry;
            if (offline) {
                inquiry = InquiryRules.parse(
                        email.path("subject").asText(""),
                        email.path("text").asText(""),
                        email.path("signature").asText(""),
                        email.path("fromName").asText(""),
                        venue.path("language").asText("en"),
                        now);
                context.record("confidence", Json.mapper().getNodeFactory().numberNode(confidence(inquiry)));
            } else {
                JsonNode answer = StepModels.structured(context, model, prompt, schema);
                inquiry = Schemas.inquiry(answer, now.toLocalDate());
            }
            List<String> thread = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            email.path("inReplyTo").asText("").lines().filter(s -> !s.isBlank()).forEach(ids::add);
            email.path("references").forEach(r -> ids.add(r.asText()));
            if (!ids.isEmpty() && (!inquiry.inquiry() || !inquiry.missing().isEmpty())) {
                for (String run : services.data().threadRuns(venue.path("id").asText(), ids)) {
                    if (run.equals(context.runId())) {
                        continue;
                    }
                    Optional<JsonNode> earlier = earlierParse(context, run);
                    if (earlier.isPresent()) {
                        inquiry = inquiry.withThread(Inquiry.fromJson(earlier.get()));
                        thread.add(run);
                    }
                }
            }
            ObjectNode out = inquiry.toJson();
            ArrayNode threadArray = out.putArray("thread");
            thread.forEach(threadArray::add);
            return out;
        }

        private Optional<JsonNode> earlierParse(NodeContext context, String runId) {
            return services.store()
                    .latestCheckpoint(runId)
                    .map(Checkpoint::outputs)
                    .map(o -> o.get(parseNode));
        }

        private ObjectNode orchestrate(NodeContext context, boolean offline, Prompt prompt) {
            Inquiry parse = Inquiry.fromJson(context.outputs().getOrDefault(parseNode, Json.object()));
            ObjectNode out = Json.object();
            if (offline) {
                if (parse.inquiry() && parse.missing().isEmpty()) {
                    out.put("action", "availability");
                    out.put("reason", "a booking inquiry with its dates and guests: check the rooms");
                } else if (!parse.inquiry() && parse.question()) {
                    out.put("action", "answer");
                    out.put("reason", "a question about the rooms: describe them");
                } else {
                    out.put("action", "handoff");
                    out.put("reason", "not a booking inquiry (" + parse.intent() + "): for a person to answer");
                }
                return out;
            }
            // The answer is read with its action open, and held to the step here: an action this step
            // does not have is a model steered by the email it read, refused for what it is and recorded,
            // and the email goes to a person (a repair would ask that same model again).
            JsonNode answer = StepModels.structured(context, model, prompt, Schemas.actionOpen(schema));
            String action = answer.path("action").asText("");
            if (!ACTIONS.contains(action)) {
                ObjectNode refused = Json.object();
                refused.put("stepId", context.nodeId());
                refused.put("code", dev.weft.core.ErrorCode.E_STEP_MISMATCH.name());
                refused.put(
                        "reason",
                        "node '" + context.nodeId() + "': the model answered with the action '" + action
                                + "', which this step does not have (only " + String.join(", ", ACTIONS)
                                + "); nothing was done, and the email is handed to a person");
                refused.set("answer", answer);
                context.emit(dev.weft.core.Event.STEP_REFUSED, refused);
                context.record("refused", refused);
                out.put("action", "handoff");
                out.put("reason", "E_STEP_MISMATCH: " + refused.get("reason").asText());
                out.set("refused", refused);
                return out;
            }
            out.put("action", action);
            out.put("reason", answer.path("reason").asText(""));
            return out;
        }

        private ObjectNode execution(NodeContext context, ObjectNode venue, boolean offline, Prompt prompt) {
            Inquiry parse = Inquiry.fromJson(context.outputs().getOrDefault(parseNode, Json.object()));
            Optional<JsonNode> availability =
                    Optional.ofNullable(context.outputs().get(availabilityNode));
            Replies.Reply reply;
            String kind = availability.isPresent() ? "availability" : "answer";
            if (offline) {
                reply = availability.isPresent()
                        ? Replies.availability(
                                parse, availability.get(), venue.path("name").asText())
                        : Replies.rooms(
                                parse, venue.path("rooms"), venue.path("name").asText());
            } else {
                Prompt asked = prompt;
                JsonNode check = context.outputs().get("reply_ok");
                if (check != null && !check.path("passed").asBoolean(true)) {
                    asked = new Prompt(
                            prompt.system(),
                            prompt.user() + "\n\nYour previous reply was rejected: "
                                    + check.path("message").asText("it broke the rules") + ". Write it again.");
                }
                JsonNode answer = StepModels.structured(context, model, asked, schema);
                List<String> offered = new ArrayList<>();
                answer.path("offered").forEach(r -> offered.add(r.asText()));
                reply = new Replies.Reply(answer.path("body").asText(""), offered);
            }
            return reply(context, parse, reply, kind);
        }

        private ObjectNode clarify(NodeContext context, ObjectNode venue, boolean offline, Prompt prompt) {
            Inquiry parse = Inquiry.fromJson(context.outputs().getOrDefault(parseNode, Json.object()));
            Replies.Reply reply;
            if (offline) {
                reply = Replies.clarify(parse, venue.path("name").asText());
            } else {
                JsonNode answer = StepModels.structured(context, model, prompt, schema);
                reply = new Replies.Reply(answer.path("body").asText(""), List.of());
            }
            return reply(context, parse, reply, "clarify");
        }

        private static ObjectNode reply(NodeContext context, Inquiry parse, Replies.Reply reply, String kind) {
            JsonNode email = context.runInput().path("email");
            ObjectNode out = Json.object();
            out.put("kind", kind);
            out.put(
                    "to",
                    email.path("replyTo").isTextual()
                            ? email.path("replyTo").asText()
                            : email.path("from").asText());
            out.put("subject", Replies.subject(email.path("subject").asText(""), parse.language()));
            out.put("body", reply.body());
            out.put("inReplyTo", email.path("messageId").asText(""));
            out.put("language", parse.language());
            ArrayNode offered = out.putArray("offered");
            reply.offered().forEach(offered::add);
            out.put("question", kind.equals("clarify"));
            return out;
        }
    }

    /** How sure the rules are of a parse: the share of what an answer needs that they found. */
    static double confidence(Inquiry inquiry) {
        if (!inquiry.inquiry()) {
            return inquiry.intent().equals("other") ? 0.6 : 0.8;
        }
        double found = (inquiry.options().isEmpty() ? 0 : 1)
                + (inquiry.guests().isPresent() ? 1 : 0)
                + (inquiry.eventType().isPresent() ? 0.5 : 0);
        return Math.round(found / 2.5 * 100) / 100.0;
    }

    static ZonedDateTime now(NodeContext context) {
        JsonNode input = context.runInput();
        ZoneId zone = ZoneId.of(input.path("venue").path("tz").asText("UTC"));
        String now = input.path("now").asText("");
        if (!now.isEmpty()) {
            return ZonedDateTime.parse(now).withZoneSameInstant(zone);
        }
        return context.time().now().atZone(zone);
    }

    // ---- get_availability

    /** The tool {@code get_availability}: for each option of the parse, the rooms that hold the guests and are free. */
    private record AvailabilityType(Services services) implements NodeType {
        @Override
        public String name() {
            return "get_availability";
        }

        @Override
        public Set<String> configFields() {
            return Set.of("parse", "alternatives", "searchDays");
        }

        @Override
        public NodeSpec.Builder create(NodeConfig config) {
            String parseNode = config.optionalString("parse").orElse("parse");
            int alternatives =
                    Math.toIntExact(config.optionalLong("alternatives", 0).orElse(2L));
            int searchDays =
                    Math.toIntExact(config.optionalLong("searchDays", 1).orElse(60L));
            return config.spec(context -> {
                Inquiry parse = Inquiry.fromJson(context.outputs().getOrDefault(parseNode, Json.object()));
                JsonNode venue = context.runInput().path("venue");
                return NodeResult.output(availability(services.data(), venue, parse, alternatives, searchDays));
            });
        }
    }

    static ObjectNode availability(MailflowData data, JsonNode venue, Inquiry parse, int alternatives, int searchDays) {
        String venueId = venue.path("id").asText();
        int guests = parse.guests().orElse(1);
        List<String[]> rooms = new ArrayList<>();
        venue.path("rooms")
                .forEach(r -> rooms.add(new String[] {
                    r.path("name").asText(), r.path("capacity").asText()
                }));
        ObjectNode out = Json.object();
        out.put("guests", guests);
        ArrayNode roomArray = out.putArray("rooms");
        rooms.forEach(r -> roomArray.addObject().put("name", r[0]).put("capacity", Integer.parseInt(r[1])));
        Map<String, List<LocalDate>> booked = data.bookings(venueId, parse.dates());
        ArrayNode options = out.putArray("options");
        List<String> offer = new ArrayList<>();
        for (List<LocalDate> option : parse.options()) {
            ObjectNode node = options.addObject();
            ArrayNode days = node.putArray("days");
            option.forEach(d -> days.add(d.toString()));
            ArrayNode free = node.putArray("free");
            ArrayNode taken = node.putArray("booked");
            ArrayNode small = node.putArray("tooSmall");
            for (String[] room : rooms) {
                boolean fits = Integer.parseInt(room[1]) >= guests;
                List<LocalDate> roomBooked = booked.getOrDefault(room[0].toLowerCase(java.util.Locale.ROOT), List.of());
                boolean isFree = option.stream().noneMatch(roomBooked::contains);
                if (!fits) {
                    small.add(room[0]);
                } else if (!isFree) {
                    taken.add(room[0]);
                } else {
                    free.add(room[0]);
                    if (!offer.contains(room[0])) {
                        offer.add(room[0]);
                    }
                }
            }
            ArrayNode nearest = node.putArray("alternatives");
            if (free.isEmpty() && rooms.stream().anyMatch(r -> Integer.parseInt(r[1]) >= guests)) {
                LocalDate start = option.get(0);
                Map<String, List<LocalDate>> ahead =
                        data.bookingsBetween(venueId, start.minusDays(searchDays / 2), searchDays + 1);
                List<LocalDate> candidates = new ArrayList<>();
                for (int i = 1; i <= searchDays / 2; i++) {
                    candidates.add(start.plusDays(i));
                    if (!start.minusDays(i)
                            .isBefore(LocalDate.now(ZoneId.of(venue.path("tz").asText("UTC"))))) {
                        candidates.add(start.minusDays(i));
                    }
                }
                for (LocalDate day : candidates) {
                    if (nearest.size() >= alternatives) {
                        break;
                    }
                    ArrayNode freeThen = Json.mapper().createArrayNode();
                    for (String[] room : rooms) {
                        if (Integer.parseInt(room[1]) >= guests
                                && !ahead.getOrDefault(room[0].toLowerCase(java.util.Locale.ROOT), List.of())
                                        .contains(day)) {
                            freeThen.add(room[0]);
                        }
                    }
                    if (!freeThen.isEmpty()) {
                        nearest.addObject().put("date", day.toString()).set("rooms", freeThen);
                    }
                }
            }
        }
        ArrayNode offerArray = out.putArray("offer");
        offer.forEach(offerArray::add);
        return out;
    }

    // ---- handoff

    private record HandoffType() implements NodeType {
        @Override
        public String name() {
            return "handoff";
        }

        @Override
        public Set<String> configFields() {
            return Set.of("message");
        }

        @Override
        public NodeSpec.Builder create(NodeConfig config) {
            String message = config.optionalString("message").orElse("for a person to answer");
            return config.spec(context -> {
                ObjectNode out = Json.object();
                out.put("handoff", true);
                out.put("reason", context.input().path("reason").asText(message));
                context.emit("mailflow.handoff", out);
                return NodeResult.output(out);
            });
        }
    }

    // ---- send

    private record SendType(Services services) implements NodeType {
        @Override
        public String name() {
            return "send";
        }

        @Override
        public Set<String> configFields() {
            return Set.of("approval", "reply");
        }

        @Override
        public NodeSpec.Builder create(NodeConfig config) {
            String approval = config.optionalString("approval").orElse("venue");
            if (!Set.of("venue", "always", "never").contains(approval)) {
                throw config.problem("approval", "must be one of venue, always, never; was '" + approval + "'");
            }
            List<String> writers = new ArrayList<>();
            JsonNode names = config.optional("reply")
                    .orElse(Json.mapper()
                            .createArrayNode()
                            .add("execution")
                            .add("answer")
                            .add("clarify"));
            if (!names.isArray() || names.isEmpty()) {
                throw config.problem(
                        "reply", "must be a non-empty array of the names of the nodes that write the reply");
            }
            names.forEach(n -> writers.add(n.asText()));
            return config.spec(context -> send(services, context, approval, writers));
        }
    }

    /** The reply to send: the node's input when it is one (a writer leads here), else the output of the first writer that ran. */
    private static JsonNode replyOf(NodeContext context, List<String> writers) {
        if (context.input().path("body").isTextual()) {
            return context.input();
        }
        for (String writer : writers) {
            JsonNode output = context.outputs().get(writer);
            if (output != null && output.path("body").isTextual()) {
                return output;
            }
        }
        return context.input();
    }

    static NodeResult send(Services services, NodeContext context, String approval, List<String> writers) {
        JsonNode input = context.runInput();
        JsonNode reply = replyOf(context, writers);
        String venueId = input.path("venue").path("id").asText();
        ObjectNode out = Json.object();
        out.set("reply", reply);
        if (!reply.path("body").isTextual() || reply.path("body").asText().isBlank()) {
            throw new WeftException(
                    ErrorCode.E_NODE_FAILED, "send: its input is not a reply (no body): " + Json.write(reply));
        }
        if (input.path("dryRun").asBoolean(false)) {
            out.put("sent", false);
            out.put("reason", "dry run: nothing is sent");
            return NodeResult.output(out);
        }
        Venue venue = services.data().venue(venueId);
        if (venue.mailbox().isEmpty() && venue.graph().isEmpty()) {
            out.put("sent", false);
            out.put(
                    "reason",
                    "the venue has no mailbox to send from: connect one with 'weft mailflow venue add --id " + venueId
                            + " --imap HOST:PORT --smtp HOST:PORT --login L'");
            return NodeResult.output(out);
        }
        // Resumed from the question "may have been sent — send again?": the person's answer decides.
        boolean repeat = false;
        JsonNode asked = context.interruptPayload().orElse(NullNode.getInstance());
        if (asked.path("code").asText().equals(ErrorCode.E_OUTCOME_UNKNOWN.name())) {
            JsonNode decision = context.resumeValue().orElse(Json.object());
            String by = decision.path("by").isTextual()
                    ? " by " + decision.path("by").asText()
                    : "";
            if (!decision.path("approved").asBoolean(false)) {
                throw new OutcomeUnknownException("the reply to "
                        + asked.path("to").asText() + " may have been sent; not sent again (rejected" + by + ")");
            }
            repeat = true;
            out.put("sentAgainBy", decision.path("by").asText("someone"));
        }
        boolean ask = !repeat
                && (approval.equals("always")
                        || approval.equals("venue")
                                && input.path("venue")
                                        .path("send")
                                        .asText("auto")
                                        .equals("approval"));
        ObjectNode sendable = reply.deepCopy();
        if (ask) {
            if (context.resumeValue().isEmpty()) {
                ObjectNode payload = Json.object();
                payload.put("type", "approval");
                payload.put("node", context.nodeId());
                payload.put("message", "send this reply to " + reply.path("to").asText() + "?");
                payload.set("input", reply);
                return NodeResult.interrupt(payload);
            }
            JsonNode decision = context.resumeValue().get();
            if (!decision.path("approved").asBoolean(false)) {
                out.put("sent", false);
                out.put(
                        "reason",
                        "rejected"
                                + (decision.path("by").isTextual()
                                        ? " by " + decision.path("by").asText()
                                        : ""));
                return NodeResult.output(out);
            }
            if (decision.path("body").isTextual()
                    && !decision.path("body").asText().isBlank()) {
                sendable.put("body", decision.path("body").asText());
                out.set("reply", sendable);
            }
            out.put("approvedBy", decision.path("by").asText("someone"));
        }
        String messageId = messageId(context.runId(), context.nodeId(), venue.address());
        MailflowData.Recorded recorded = services.data()
                .recordIntent(
                        new MailflowData.Outgoing(
                                messageId,
                                venueId,
                                context.runId(),
                                sendable.path("inReplyTo").asText(""),
                                sendable.path("to").asText(),
                                sendable.path("subject").asText(),
                                mime(
                                        venue,
                                        sendable,
                                        messageId,
                                        input.path("email"),
                                        context.time().now()),
                                false),
                        context.time().now());
        MailflowData.Outgoing intent = recorded.outgoing();
        out.put("messageId", messageId);
        out.put("to", intent.recipient());
        out.put("via", venue.mailbox().isPresent() ? "smtp" : "graph");
        if (intent.sent()) {
            out.put("sent", true);
            out.put("replayed", true);
            return NodeResult.output(out);
        }
        Outbound outbound = new Outbound(services, venue);
        // A row an earlier attempt left may have gone out before that attempt died: look first, and
        // where no copy tells, ask a person rather than send it twice.
        if (recorded.earlier() && services.data().mayHaveGone(messageId)) {
            if (outbound.inSent(messageId)) {
                services.data().markSent(messageId, context.time().now());
                out.put("sent", true);
                out.put("replayed", true);
                return NodeResult.output(out);
            }
            if (!repeat) {
                return unknown(
                        context,
                        intent,
                        "the reply to " + intent.recipient() + " (" + messageId + ") may have been sent: an"
                                + " earlier attempt was cut after it meant to send it, and no copy of it is in Sent");
            }
        }
        if (context.cancellationRequested()) {
            out.put("sent", false);
            out.put("reason", "the run was cancelled before the reply went out");
            return NodeResult.output(out);
        }
        services.data().markAttempt(messageId);
        boolean filed = false;
        try {
            outbound.send(intent);
        } catch (OutcomeUnknownException e) {
            // Its answer was lost: the reply went if its copy is there.
            filed = outbound.inSent(messageId);
            if (!filed) {
                return unknown(context, intent, e.getMessage());
            }
        } catch (WeftException e) {
            // Refused before the server was given it: nothing went out, and the next attempt need not ask.
            services.data().markUnsent(messageId);
            throw e;
        }
        services.afterSmtp().run();
        if (!filed) {
            outbound.fileInSent(intent);
        }
        services.data().markSent(messageId, context.time().now());
        out.put("sent", true);
        out.put("replayed", false);
        return NodeResult.output(out);
    }

    /**
     * The step waits for a person: the reply may have been sent and nothing can tell ({@code
     * E_OUTCOME_UNKNOWN}). Approving sends it again (with the same Message-ID); rejecting fails the step.
     */
    private static NodeResult unknown(NodeContext context, MailflowData.Outgoing intent, String message) {
        ObjectNode error = Json.object();
        error.put("code", ErrorCode.E_OUTCOME_UNKNOWN.name());
        error.put("message", message);
        context.record("error", error);
        ObjectNode payload = Json.object();
        payload.put("type", "approval");
        payload.put("code", ErrorCode.E_OUTCOME_UNKNOWN.name());
        payload.put("question", "may have been sent — send again?");
        payload.put("message", message);
        payload.put("node", context.nodeId());
        payload.put("messageId", intent.messageId());
        payload.put("to", intent.recipient());
        payload.put("subject", intent.subject());
        return NodeResult.interrupt(payload);
    }

    /** The way a venue's replies leave: its SMTP server when it has one, else its Graph mailbox. */
    private record Outbound(Services services, Venue venue) {
        void send(MailflowData.Outgoing intent) {
            if (venue.mailbox().isPresent()) {
                Venue.Mailbox box = venue.mailbox().get();
                services.mailer()
                        .send(box, services.secrets().decrypt(box.sealedSecret()), intent.mime(), intent.recipient());
            } else {
                services.graph()
                        .send(
                                venue.graph().orElseThrow(),
                                venue.address(),
                                services.graphTokens().accessToken(venue),
                                intent.mime());
            }
        }

        /** Files the reply sent over SMTP in the venue's {@code Sent}; Graph files what it sends itself. */
        void fileInSent(MailflowData.Outgoing intent) {
            venue.mailbox()
                    .ifPresent(box -> services.mailer()
                            .fileInSent(box, services.secrets().decrypt(box.sealedSecret()), intent.mime()));
        }

        /** Whether the reply is in the venue's sent mail; false, too, when that cannot be asked now. */
        boolean inSent(String messageId) {
            try {
                if (venue.mailbox().isPresent()) {
                    Venue.Mailbox box = venue.mailbox().get();
                    return services.mailer().inSent(box, services.secrets().decrypt(box.sealedSecret()), messageId);
                }
                return services.graph()
                        .inSent(
                                venue.graph().orElseThrow(),
                                venue.address(),
                                services.graphTokens().accessToken(venue),
                                messageId);
            } catch (WeftException e) {
                return false;
            }
        }
    }

    /** A reply's Message-ID: the same for the same run and node, so every retry and recovery finds it. */
    public static String messageId(String runId, String nodeId, String venueAddress) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((runId + "\n" + nodeId).getBytes(StandardCharsets.UTF_8));
            String domain =
                    venueAddress.contains("@") ? venueAddress.substring(venueAddress.indexOf('@') + 1) : "weft.local";
            return "<mailflow." + HexFormat.of().formatHex(digest, 0, 16) + "@" + domain + ">";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** The reply as MIME text: threaded under the email it answers, marked as written automatically. */
    static String mime(Venue venue, JsonNode reply, String messageId, JsonNode email, java.time.Instant now) {
        try {
            MimeMessage message = new MimeMessage(Session.getInstance(new java.util.Properties()));
            message.setFrom(new InternetAddress(venue.address(), venue.name(), "UTF-8"));
            message.setRecipients(
                    jakarta.mail.Message.RecipientType.TO,
                    InternetAddress.parse(reply.path("to").asText()));
            message.setSubject(reply.path("subject").asText(), "UTF-8");
            message.setText(reply.path("body").asText(), "UTF-8");
            message.setSentDate(java.util.Date.from(now));
            String inReplyTo = reply.path("inReplyTo").asText("");
            if (!inReplyTo.isBlank()) {
                message.setHeader("In-Reply-To", inReplyTo);
                List<String> references = new ArrayList<>();
                email.path("references").forEach(r -> references.add(r.asText()));
                if (!references.contains(inReplyTo)) {
                    references.add(inReplyTo);
                }
                message.setHeader("References", String.join(" ", references));
            }
            message.setHeader("Auto-Submitted", "auto-replied");
            message.setHeader("X-Auto-Response-Suppress", "All");
            message.setHeader("Content-Language", reply.path("language").asText("en"));
            message.saveChanges();
            message.setHeader("Message-ID", messageId);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            message.writeTo(bytes);
            return bytes.toString(StandardCharsets.UTF_8);
        } catch (MessagingException | IOException e) {
            throw new WeftException(ErrorCode.E_NODE_FAILED, "send: the reply cannot be composed: " + e.getMessage());
        }
    }
}
