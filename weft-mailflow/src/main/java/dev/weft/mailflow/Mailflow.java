package dev.weft.mailflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Graph;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.Run;
import dev.weft.core.RunRequest;
import dev.weft.core.RunResult;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.llm.ModelSettings;
import dev.weft.llm.Models;
import dev.weft.mailflow.internal.DefaultTemplate;
import dev.weft.mailflow.internal.GraphMailer;
import dev.weft.mailflow.internal.Mailer;
import dev.weft.mailflow.internal.VenueNodes;
import dev.weft.store.Secrets;
import dev.weft.workflow.NodeTypes;
import dev.weft.workflow.Workflow;
import dev.weft.workflow.WorkflowParser;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The email agent of seed 003: venues and their templates, and emails taken in (normalized, filtered,
 * one run per email per venue, decided by the database), each run walking the venue's stored workflow
 * to a threaded reply. Runs are Weft runs whose user is the venue's organization. Thread-safe.
 */
public final class Mailflow {
    /** A claim whose run has not appeared after this long was left by a process that died: a redelivery starts it. */
    static final Duration ORPHAN_CLAIM = Duration.ofSeconds(60);

    private final RunStore store;
    private final MailflowData data;
    private final Secrets secrets;
    private final NodeTypes types;
    private final Clock clock;
    private final Mailer mailer;
    private final VenueGrants grants;
    private final GraphTokens graphTokens;
    private final Map<String, Graph> graphs = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    private Mailflow(Builder builder) {
        this.store = builder.store;
        this.data = MailflowData.open(builder.store);
        this.secrets = Secrets.inFile(
                builder.keyFile,
                ErrorCode.E_MAIL_UNAVAILABLE,
                "add the venue's mailbox again with 'weft mailflow venue add'");
        this.clock = builder.clock;
        this.mailer = new Mailer(builder.mailProperties);
        this.grants = new VenueGrants(data, secrets, clock);
        this.graphTokens = builder.graphTokens.orElseGet(() -> grants.graphTokens(GraphTokens.stored(secrets)));
        this.types = VenueNodes.types(new VenueNodes.Services(
                store,
                data,
                secrets,
                builder.models,
                mailer,
                GraphMailer.create(Duration.ofSeconds(30)),
                graphTokens,
                builder.afterSmtp));
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Mailflow on {@code store}, offline, its secrets under {@code $WEFT_HOME/mail.key}. */
    public static Mailflow open(RunStore store) {
        return builder().store(store).build();
    }

    /** The Microsoft 365 sign-ins of venues' Outlook mailboxes, which their replies' Graph tokens come from. */
    public VenueGrants venueGrants() {
        return grants;
    }

    /** Where the access tokens of venues' Graph mailboxes come from, for sending and for fetching alike. */
    public GraphTokens graphTokens() {
        return graphTokens;
    }

    public MailflowData data() {
        return data;
    }

    public RunStore store() {
        return store;
    }

    /** Where the mailbox secrets and webhook secrets are sealed. */
    public Secrets secrets() {
        return secrets;
    }

    /** The venue mailboxes' client. */
    Mailer mailer() {
        return mailer;
    }

    /** The node and tool types a venue's template may use. */
    public NodeTypes nodeTypes() {
        return types;
    }

    // ---- venues

    /** What {@link #addVenue} is given; empty fields keep what a venue added before has. */
    public record VenueSettings(
            String id,
            Optional<String> organization,
            String name,
            String address,
            Optional<java.time.ZoneId> zone,
            Optional<String> language,
            Optional<Venue.SendMode> send,
            Optional<List<Venue.Room>> rooms,
            Optional<List<Venue.Booking>> bookings,
            Optional<MailboxSettings> mailbox,
            Optional<GraphSettings> graph,
            Optional<Filters.Rules> filters) {
        public VenueSettings {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(address, "address");
        }
    }

    /** A mailbox to connect, its password in the clear (it is sealed before it is stored). */
    public record MailboxSettings(
            String imapHost,
            int imapPort,
            String smtpHost,
            int smtpPort,
            String login,
            Venue.Security security,
            String secret) {}

    /** A Microsoft Graph mailbox: where Graph answers, and the access token (sealed before it is stored). */
    public record GraphSettings(String baseUrl, String token) {}

    /** A venue as added, and its webhook secret, shown in full only when the venue is new. */
    public record Added(Venue venue, boolean created, Optional<String> webhookSecret) {}

    /**
     * Adds a venue, or changes one: a new venue gets its own copy of the venue agent's template and a
     * webhook secret.
     *
     * @throws WeftException {@code E_BAD_INPUT} for an id, address, language or booking that cannot be
     *     right, or a venue of another organization
     */
    public Added addVenue(VenueSettings settings) {
        Instant now = clock.instant();
        requireId("venue id", settings.id());
        if (!settings.address().matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+")) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "--address '" + settings.address() + "' is not an email address");
        }
        if (settings.name().isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "--name must not be blank");
        }
        settings.language().ifPresent(l -> {
            if (!l.equals("en") && !l.equals("he")) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "--language '" + l + "' is not one of en, he");
            }
        });
        Optional<MailflowData.StoredVenue> existing = data.findStored(settings.id());
        String organization = settings.organization()
                .or(() -> existing.map(e -> e.venue().organization()))
                .orElse(settings.id());
        requireId("organization id", organization);
        if (existing.isPresent() && !existing.get().venue().organization().equals(organization)) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "venue '" + settings.id() + "' belongs to organization '"
                            + existing.get().venue().organization() + "', not '" + organization + "'");
        }
        List<Venue.Room> rooms = settings.rooms()
                .orElseGet(() -> existing.map(e -> e.venue().rooms()).orElse(List.of()));
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Venue.Room room : rooms) {
            if (!names.add(room.name().toLowerCase(java.util.Locale.ROOT))) {
                throw new WeftException(ErrorCode.E_BAD_INPUT, "room '" + room.name() + "' is listed twice");
            }
        }
        settings.bookings()
                .ifPresent(list -> list.forEach(b -> {
                    if (!names.contains(b.room().toLowerCase(java.util.Locale.ROOT))) {
                        throw new WeftException(
                                ErrorCode.E_BAD_INPUT,
                                "booking of '" + b.room() + "' on " + b.day()
                                        + ": the venue has no such room (its rooms: "
                                        + String.join(
                                                ", ",
                                                rooms.stream()
                                                        .map(Venue.Room::name)
                                                        .toList()) + ")");
                    }
                }));
        Optional<Venue.Mailbox> mailbox = settings.mailbox()
                .map(m -> new Venue.Mailbox(
                        m.imapHost(),
                        m.imapPort(),
                        m.smtpHost(),
                        m.smtpPort(),
                        m.login(),
                        m.security(),
                        secrets.encrypt(m.secret())))
                .or(() -> existing.flatMap(e -> e.venue().mailbox()));
        Optional<Venue.GraphMailbox> graph = settings.graph()
                .map(g -> new Venue.GraphMailbox(g.baseUrl(), secrets.encrypt(g.token())))
                .or(() -> existing.flatMap(e -> e.venue().graph()));
        String templateId = existing.map(e -> e.venue().templateId()).orElse(settings.id());
        Venue venue = new Venue(
                settings.id(),
                organization,
                settings.name().strip(),
                settings.address().strip(),
                settings.zone().or(() -> existing.map(e -> e.venue().zone())).orElse(java.time.ZoneId.of("UTC")),
                settings.language()
                        .or(() -> existing.map(e -> e.venue().language()))
                        .orElse("en"),
                settings.send().or(() -> existing.map(e -> e.venue().send())).orElse(Venue.SendMode.AUTO),
                templateId,
                rooms,
                settings.filters()
                        .or(() -> existing.map(e -> e.venue().filters()))
                        .orElse(Filters.Rules.none()),
                mailbox,
                graph);
        Optional<String> secret = Optional.empty();
        String sealed;
        if (existing.isPresent()) {
            sealed = existing.get().sealedWebhookSecret();
        } else {
            byte[] bytes = new byte[32];
            random.nextBytes(bytes);
            secret = Optional.of(HexFormat.of().formatHex(bytes));
            sealed = secrets.encrypt(secret.get());
            Template template = DefaultTemplate.create().withId(templateId);
            checkTemplate(template);
            data.saveTemplate(organization, template, now);
        }
        data.saveVenue(venue, sealed, settings.bookings(), now);
        return new Added(venue, existing.isEmpty(), secret);
    }

    private static void requireId(String what, String id) {
        if (!id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,99}")) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    what + " '" + id
                            + "' must be 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
    }

    /** The venue's webhook secret, in the clear: what signs its webhooks. */
    public String webhookSecret(String venueId) {
        return secrets.decrypt(data.findStored(venueId)
                .orElseThrow(() -> new NotFoundException("no venue '" + venueId + "'"))
                .sealedWebhookSecret());
    }

    /**
     * Whether {@code signature} ({@code sha256=<hex>} or the bare hex) is the HMAC-SHA256 of {@code
     * body} under the venue's webhook secret; compared in constant time.
     */
    public boolean signed(String venueId, byte[] body, String signature) {
        String hex = signature.strip();
        if (hex.regionMatches(true, 0, "sha256=", 0, 7)) {
            hex = hex.substring(7);
        }
        byte[] given;
        try {
            given = HexFormat.of().parseHex(hex.toLowerCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(hmac(webhookSecret(venueId), body), given);
    }

    /** The signature a webhook of the venue must carry: {@code sha256=} and the hex HMAC-SHA256 of the body. */
    public static String signature(String secret, byte[] body) {
        return "sha256=" + HexFormat.of().formatHex(hmac(secret, body));
    }

    private static byte[] hmac(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(body);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JVM has HmacSHA256", e);
        }
    }

    // ---- templates

    /**
     * Compiles {@code template} as a venue's would be, changing nothing.
     *
     * @throws GraphInvalidException ({@code E_GRAPH_INVALID}) naming every node and rule that fails
     */
    public Workflow checkTemplate(Template template) {
        return ConnectionResolver.compile(template, "mailflow:" + template.id(), types, VenueNodes.TOOLS);
    }

    /** The template of venue {@code venueId}. */
    public MailflowData.StoredTemplate template(String venueId) {
        Venue venue = data.venue(venueId);
        return data.template(venue.templateId())
                .orElseThrow(() ->
                        new NotFoundException("venue '" + venueId + "' has no template '" + venue.templateId() + "'"));
    }

    /**
     * Replaces venue {@code venueId}'s template with {@code template} (its id becomes the venue's
     * template id) once it compiles; runs already started keep the one they started with.
     *
     * @return the template as stored, with its new version
     * @throws GraphInvalidException when it does not compile: nothing is changed
     */
    public MailflowData.StoredTemplate importTemplate(String venueId, Template template) {
        Venue venue = data.venue(venueId);
        Template own = template.withId(venue.templateId());
        checkTemplate(own);
        data.saveTemplate(venue.organization(), own, clock.instant());
        return template(venueId);
    }

    // ---- emails

    /** An email to take in: raw RFC 822 bytes or a normalized email as JSON. */
    public sealed interface Source {
        /** A raw message, as a webhook or a mailbox has it. */
        record Raw(byte[] bytes) implements Source {}

        /** A normalized email ({@link Email#fromJson}). */
        record Normalized(JsonNode json) implements Source {}
    }

    /**
     * One delivery of an email to a venue.
     *
     * @param channel how it came: {@code imap}, {@code outlook}, {@code process}, {@code watch}, {@code cli}
     * @param now the time to read the email's dates against (default: the clock; for {@code cli}, the email's {@code Date})
     * @param dryRun run the whole workflow but send nothing, and leave the email unclaimed
     */
    public record Delivery(String venueId, Source source, String channel, Optional<Instant> now, boolean dryRun) {
        public Delivery {
            Objects.requireNonNull(venueId, "venueId");
            Objects.requireNonNull(source, "source");
            Objects.requireNonNull(channel, "channel");
            Objects.requireNonNull(now, "now");
        }
    }

    /**
     * Takes one delivery in: the email normalized and filtered, claimed for its venue (a second
     * delivery of the same email, by any channel, gets the first one's run), and its run driven on
     * {@code runner} until it completes, fails, is cancelled or waits for an approval.
     *
     * @throws NotFoundException for an unknown venue
     * @throws WeftException {@code E_EMAIL_INVALID} for an email that cannot be read, {@code E_TOO_LARGE}
     *     for one over {@link EmailParser#MAX_BYTES}; nothing is started
     */
    public Processed deliver(Runner runner, Delivery delivery) {
        Venue venue = data.venue(delivery.venueId());
        Email email = switch (delivery.source()) {
            case Source.Raw raw -> EmailParser.parse(raw.bytes());
            case Source.Normalized normalized -> Email.fromJson(normalized.json());
        };
        Instant now = delivery.now().orElseGet(() -> readAt(delivery, email));
        Optional<String> filtered = Filters.reason(venue, email, data.isOwnReply(venue.id(), email.messageId()));
        if (delivery.dryRun()) {
            if (filtered.isPresent()) {
                return Processed.filtered(venue, email, filtered.get(), false);
            }
            String runId = "mf-dry-" + HexFormat.of().formatHex(bytes(12));
            return Processed.ran(venue, email, start(runner, venue, email, runId, now, delivery), false);
        }
        String runId = runId(venue.id(), email.key());
        Optional<MailflowData.Received> earlier = data.claim(
                venue.id(),
                email.key(),
                email.messageId(),
                filtered.isPresent() ? Optional.empty() : Optional.of(runId),
                filtered,
                delivery.channel(),
                email.from(),
                email.subject(),
                clock.instant());
        if (earlier.isEmpty()) {
            return filtered.isPresent()
                    ? Processed.filtered(venue, email, filtered.get(), false)
                    : Processed.ran(venue, email, start(runner, venue, email, runId, now, delivery), false);
        }
        MailflowData.Received first = earlier.get();
        if (first.filtered().isPresent() || first.runId().isEmpty()) {
            return Processed.filtered(venue, email, first.filtered().orElse("filtered"), true);
        }
        String existing = first.runId().get();
        if (store.findRun(existing).isPresent()) {
            return Processed.ran(venue, email, runner.result(existing), true);
        }
        if (Duration.between(first.receivedAt(), clock.instant()).compareTo(ORPHAN_CLAIM) > 0) {
            // Claimed by a delivery whose process died before its run began: begin it now.
            return Processed.ran(venue, email, start(runner, venue, email, existing, now, delivery), true);
        }
        return Processed.pending(venue, email, existing);
    }

    /**
     * The time an email's dates are read against when the delivery names none: for a file given on the
     * command line, the email's own {@code Date} (what "next Friday" meant when it was written), unless
     * it is in the future; else now.
     */
    private Instant readAt(Delivery delivery, Email email) {
        Instant now = clock.instant();
        if (!delivery.channel().equals("cli")) {
            return now;
        }
        return email.date()
                .filter(date -> !date.isAfter(now.plus(Duration.ofDays(1))))
                .orElse(now);
    }

    private byte[] bytes(int n) {
        byte[] out = new byte[n];
        random.nextBytes(out);
        return out;
    }

    /** The run an email starts at a venue: the same for every delivery of it. */
    static String runId(String venueId, String key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((venueId + "\n" + key).getBytes(StandardCharsets.UTF_8));
            return "mf-" + HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private RunResult start(Runner runner, Venue venue, Email email, String runId, Instant now, Delivery delivery) {
        Compiled compiled = compiled(venue);
        MailflowData.StoredTemplate stored = compiled.stored();
        String graphId = compiled.graphId();
        Graph graph = compiled.graph();
        ObjectNode input = Json.object();
        input.set("venue", venue.runView());
        input.set("email", email.toJson());
        input.put("now", ZonedDateTime.ofInstant(now, venue.zone()).toString());
        input.put("channel", delivery.channel());
        input.put("dryRun", delivery.dryRun());
        RunRequest request = RunRequest.builder()
                .runId(runId)
                .user(venue.organization())
                .input(input)
                .source(ConnectionResolver.source(venue, stored, graphId))
                .build();
        return handedOff(runner.run(graph, request));
    }

    /** The event that hands a run's email to a person: the agent could not answer it. */
    public static final String HANDOFF_EVENT = "mailflow.handoff";

    /**
     * A run that met a node's visit limit ({@code E_VISIT_LIMIT}: the agent kept writing a reply its
     * guardrail refused) is not left a bare failure: it is flagged with a {@value #HANDOFF_EVENT} event
     * saying that a person must answer the email, which {@code weft runs show --events} and the API show,
     * and the processed email says {@code handoff} (see {@link Processed#toJson}). Once per run.
     */
    private RunResult handedOff(RunResult result) {
        boolean limit = result.status() == dev.weft.core.RunStatus.FAILED
                && result.run()
                        .error()
                        .map(e -> e.code() == ErrorCode.E_VISIT_LIMIT)
                        .orElse(false);
        if (!limit) {
            return result;
        }
        List<dev.weft.core.Event> events = store.events(result.runId());
        if (events.stream().anyMatch(e -> e.type().equals(HANDOFF_EVENT))) {
            return result;
        }
        ObjectNode data = Json.object();
        data.put("handoff", true);
        data.put("code", ErrorCode.E_VISIT_LIMIT.name());
        data.put("reason", Processed.VISIT_LIMIT_HANDOFF);
        data.put("cause", result.run().error().orElseThrow().message());
        store.appendEvent(new dev.weft.core.Event(
                result.runId(),
                events.isEmpty() ? 1 : events.get(events.size() - 1).sequence() + 1,
                HANDOFF_EVENT,
                Optional.empty(),
                0,
                clock.instant(),
                data));
        return result;
    }

    /** A venue's template as stored and compiled, kept by template id until its version changes. */
    private record Compiled(MailflowData.StoredTemplate stored, String graphId, Graph graph) {}

    private final Map<String, Compiled> compiled = new ConcurrentHashMap<>();

    private Compiled compiled(Venue venue) {
        String templateId = venue.templateId();
        int version = data.templateVersion(templateId)
                .orElseThrow(
                        () -> new NotFoundException("venue '" + venue.id() + "' has no template '" + templateId + "'"));
        Compiled known = compiled.get(templateId);
        if (known != null && known.stored().version() == version) {
            return known;
        }
        MailflowData.StoredTemplate stored = data.template(templateId)
                .orElseThrow(
                        () -> new NotFoundException("venue '" + venue.id() + "' has no template '" + templateId + "'"));
        String graphId = "mailflow:" + templateId + ":v" + stored.version();
        Compiled fresh = new Compiled(
                stored,
                graphId,
                ConnectionResolver.compile(stored.template(), graphId, types, VenueNodes.TOOLS)
                        .graph());
        compiled.put(templateId, fresh);
        return fresh;
    }

    // ---- runs

    /** Whether {@code run} is a mailflow run (its source names a venue and a template). */
    public static boolean isMailflowRun(Run run) {
        return run.source().isObject()
                && run.source().has("mailflow")
                && run.source().has("workflow");
    }

    /** The venue a mailflow run answered for. */
    public static Optional<String> venueOf(Run run) {
        return isMailflowRun(run)
                ? Optional.of(run.source().path("mailflow").path("venue").asText())
                : Optional.empty();
    }

    /**
     * The graph of a stored mailflow run, rebuilt from the definition kept with it (so a template
     * changed since does not change the run): for resuming, re-running, forking and recovering it in
     * any process.
     */
    public Optional<Graph> graphOf(Run run) {
        if (!isMailflowRun(run)) {
            return Optional.empty();
        }
        return Optional.of(graphs.computeIfAbsent(
                run.graphId(),
                id -> Workflow.compile(WorkflowParser.fromJson(run.source().path("workflow"), "run " + run.id()), types)
                        .graph()));
    }

    /** Builds a {@link Mailflow}. */
    public static final class Builder {
        private RunStore store;
        private Models models = Models.resolve(ModelSettings.none("mailflow"), Map.of());
        private Path keyFile = Secrets.defaultKeyFile();
        private Properties mailProperties = new Properties();
        private Clock clock = Clock.systemUTC();
        private Runnable afterSmtp = () -> {};
        private Optional<GraphTokens> graphTokens = Optional.empty();

        private Builder() {}

        /**
         * Runs after each reply the SMTP server took, before it is recorded as sent: tests put a crash
         * there to check that the reply is not sent again.
         */
        Builder afterSmtp(Runnable afterSmtp) {
            this.afterSmtp = Objects.requireNonNull(afterSmtp, "afterSmtp");
            return this;
        }

        /**
         * Where the access tokens of venues' Graph mailboxes come from; by default a venue's Microsoft 365
         * sign-in when it has one ({@link VenueGrants#graphTokens}), else the token stored with its Graph
         * mailbox ({@link GraphTokens#stored}).
         */
        public Builder graphTokens(GraphTokens graphTokens) {
            this.graphTokens = Optional.of(Objects.requireNonNull(graphTokens, "graphTokens"));
            return this;
        }

        /** The store of runs and of mailflow's tables (SQLite or PostgreSQL). Required. */
        public Builder store(RunStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /** The models agent nodes use (default: offline, by rules). */
        public Builder models(Models models) {
            this.models = Objects.requireNonNull(models, "models");
            return this;
        }

        /** The key file sealing mailbox and webhook secrets (default {@code $WEFT_HOME/mail.key}). */
        public Builder keyFile(Path keyFile) {
            this.keyFile = Objects.requireNonNull(keyFile, "keyFile");
            return this;
        }

        /** Extra Jakarta Mail session properties (a test server's certificate trusted, say). */
        public Builder mailProperties(Properties properties) {
            this.mailProperties = Objects.requireNonNull(properties, "properties");
            return this;
        }

        /** The clock of claims and venues' changes (default: the system's). */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Opens mailflow's tables (migrating them).
         *
         * @throws IllegalStateException without a store
         */
        public Mailflow build() {
            if (store == null) {
                throw new IllegalStateException("a store is required: Mailflow.builder().store(...)");
            }
            return new Mailflow(this);
        }
    }
}
