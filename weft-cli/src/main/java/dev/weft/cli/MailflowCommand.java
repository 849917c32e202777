package dev.weft.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.GraphInvalidException;
import dev.weft.core.Json;
import dev.weft.core.Runner;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.mailflow.Filters;
import dev.weft.mailflow.MailboxWatch;
import dev.weft.mailflow.Mailflow;
import dev.weft.mailflow.MailflowData;
import dev.weft.mailflow.Processed;
import dev.weft.mailflow.Template;
import dev.weft.mailflow.Venue;
import dev.weft.mailflow.VenueGrants;
import dev.weft.oauth.OAuthProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weft mailflow …}: the email agent of seed 003. Add a venue (its rooms, bookings and mailbox),
 * process an email through its workflow, follow its mailbox, and move its template in and out.
 */
@Command(
        name = "mailflow",
        mixinStandardHelpOptions = true,
        description = "The email agent: venues answering booking inquiries by stored workflows.",
        subcommands = {
            MailflowCommand.VenueCommand.class,
            MailflowCommand.Process.class,
            MailflowCommand.Watch.class,
            MailflowCommand.TemplateCommand.class
        })
final class MailflowCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** What the mailflow subcommands share: the store and {@code --json}. */
    abstract static class MailflowSubcommand extends StoreCommand {
        @Option(names = "--json", description = "Prints one JSON object.")
        boolean json;

        @Override
        boolean json() {
            return json;
        }
    }

    @Command(
            name = "venue",
            mixinStandardHelpOptions = true,
            description = "Add a venue, list them, or sign a venue's Outlook mailbox in to Microsoft 365.",
            subcommands = {
                MailflowCommand.AddVenue.class,
                MailflowCommand.ListVenues.class,
                MailflowCommand.ConnectVenue.class
            })
    static final class VenueCommand implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().usage(spec.commandLine().getOut());
        }
    }

    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description = {
                "Adds a venue with its own copy of the venue agent's template, or changes one (options not given",
                "keep their value). The mailbox's password is read from WEFT_MAIL_SECRET, sealed with",
                "$WEFT_HOME/mail.key. A new venue's webhook secret is printed once.",
                "rooms:    [{\"name\": \"Garden\", \"capacity\": 120}, …]",
                "bookings: [{\"room\": \"Garden\", \"date\": \"2026-12-12\"}, …]  (a booking holds the room all day)"
            })
    static final class AddVenue extends MailflowSubcommand {
        @Option(names = "--id", required = true, paramLabel = "ID", description = "The venue's id.")
        String id;

        @Option(
                names = "--name",
                required = true,
                paramLabel = "NAME",
                description = "The venue's name, as its replies sign.")
        String name;

        @Option(
                names = "--address",
                required = true,
                paramLabel = "EMAIL",
                description = "The venue's mailbox address.")
        String address;

        @Option(
                names = "--org",
                paramLabel = "ORG",
                description =
                        "The organization (tenant) it belongs to: its runs are that user's (default: the venue's id).")
        String organization;

        @Option(names = "--tz", paramLabel = "ZONE", description = "Its time zone (default UTC), e.g. Asia/Jerusalem.")
        String tz;

        @Option(
                names = "--language",
                paramLabel = "en|he",
                description = "Its replies' language when the sender's is unclear (default en).")
        String language;

        @Option(names = "--rooms", paramLabel = "FILE", description = "Its rooms: a JSON array of {name, capacity}.")
        Path rooms;

        @Option(names = "--bookings", paramLabel = "FILE", description = "Its bookings: a JSON array of {room, date}.")
        Path bookings;

        @Option(
                names = "--send",
                paramLabel = "auto|approval",
                description = "Send replies at once (default) or after a person approves.")
        String send;

        @Option(
                names = "--filters",
                paramLabel = "FILE",
                description = "Its filters: {allow, block, subjects, drop} (see docs/mailflow.md).")
        Path filters;

        @Option(names = "--imap", paramLabel = "HOST:PORT", description = "Its IMAP server.")
        String imap;

        @Option(names = "--smtp", paramLabel = "HOST:PORT", description = "Its SMTP server.")
        String smtp;

        @Option(names = "--login", paramLabel = "L", description = "The login on both servers.")
        String login;

        @Option(
                names = "--security",
                paramLabel = "tls|starttls|none",
                description = "tls (default), starttls, or none (a local test server only).")
        String security = "tls";

        @Option(
                names = "--graph",
                paramLabel = "URL",
                description =
                        "Microsoft Graph's base URL for an Outlook mailbox (e.g. https://graph.microsoft.com/v1.0);"
                                + " its access token is read from WEFT_GRAPH_TOKEN.")
        String graph;

        @Override
        int call(RunStore store, PrintWriter out) {
            boolean anyMailbox = imap != null || smtp != null || login != null;
            Optional<Mailflow.MailboxSettings> mailbox = Optional.empty();
            if (anyMailbox) {
                if (imap == null || smtp == null || login == null) {
                    throw new WeftException(ErrorCode.E_BAD_INPUT, "a mailbox needs all of --imap, --smtp and --login");
                }
                MemoMailCommand.HostPort imapServer = MemoMailCommand.HostPort.parse("--imap", imap);
                MemoMailCommand.HostPort smtpServer = MemoMailCommand.HostPort.parse("--smtp", smtp);
                String secret = Env.get().get(MemoMailCommand.SECRET_VARIABLE);
                if (secret == null || secret.isEmpty()) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT,
                            "no mailbox password: set " + MemoMailCommand.SECRET_VARIABLE + " to the password of "
                                    + login);
                }
                mailbox = Optional.of(new Mailflow.MailboxSettings(
                        imapServer.host(),
                        imapServer.port(),
                        smtpServer.host(),
                        smtpServer.port(),
                        login,
                        Venue.Security.of(security),
                        secret));
            }
            Optional<Mailflow.GraphSettings> graphSettings = Optional.empty();
            if (graph != null) {
                String token = Env.get().get("WEFT_GRAPH_TOKEN");
                if (token == null || token.isBlank()) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT, "--graph needs the access token in WEFT_GRAPH_TOKEN");
                }
                graphSettings = Optional.of(new Mailflow.GraphSettings(graph.replaceAll("/+$", ""), token));
            }
            Mailflow mailflow = Storage.mailflow(store);
            Mailflow.Added added = mailflow.addVenue(new Mailflow.VenueSettings(
                    id,
                    Optional.ofNullable(organization),
                    name,
                    address,
                    Optional.ofNullable(tz).map(MailflowCommand::zone),
                    Optional.ofNullable(language).map(l -> l.trim().toLowerCase(Locale.ROOT)),
                    Optional.ofNullable(send).map(Venue.SendMode::of),
                    Optional.ofNullable(rooms).map(MailflowCommand::rooms),
                    Optional.ofNullable(bookings).map(MailflowCommand::bookings),
                    mailbox,
                    graphSettings,
                    Optional.ofNullable(filters).map(f -> Filters.Rules.fromJson(readJson(f, "--filters")))));
            Venue venue = added.venue();
            if (json) {
                ObjectNode node = venue.toJson();
                node.put("created", added.created());
                node.put("webhookSecret", added.webhookSecret().orElse(null));
                out.println(Json.write(node));
            } else {
                out.println(
                        (added.created() ? "Added " : "Changed ") + venue.name() + " (" + venue.id() + ", organization "
                                + venue.organization() + "): " + venue.rooms().size() + " rooms, replies "
                                + (venue.send() == Venue.SendMode.AUTO ? "sent at once" : "sent once approved")
                                + venue.mailbox().map(m -> ", mailbox " + m).orElse(", no mailbox yet") + ".");
                added.webhookSecret().ifPresent(s -> out.println("Webhook secret (shown once): " + s));
                out.println("Try it: weft mailflow process EMAIL.eml --venue " + venue.id() + " --dry-run");
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "connect",
            mixinStandardHelpOptions = true,
            description = {
                "Signs a venue's Outlook mailbox (added with --graph) in to Microsoft 365 with your own client",
                "(WEFT_MICROSOFT_CLIENT_ID, WEFT_MICROSOFT_CLIENT_SECRET if it has one, WEFT_MICROSOFT_ISSUER):",
                "its replies then go through Graph with an access token refreshed before it expires. The grant",
                "is sealed with $WEFT_HOME/mail.key. Connecting again replaces it (a revoked one too)."
            })
    static final class ConnectVenue extends MailflowSubcommand {
        @Parameters(index = "0", paramLabel = "VENUE", description = "The venue's id.")
        String venue;

        @Option(names = "--microsoft", description = "Sign in to Microsoft 365 (Outlook, through Graph).")
        boolean microsoft;

        @Option(names = "--device", description = "Sign in on another device with a code (no browser here).")
        boolean device;

        @Override
        int call(RunStore store, PrintWriter out) {
            OAuthProvider provider = OAuthSignIn.provider(false, microsoft, device)
                    .orElseThrow(() -> new WeftException(
                            ErrorCode.E_BAD_INPUT,
                            "say which account the venue's mailbox is: --microsoft (an Outlook mailbox read and"
                                    + " answered through Graph)"));
            Mailflow mailflow = Storage.mailflow(store);
            // Refused before anyone signs in: a venue that does not exist, or has no Graph mailbox.
            Venue target = mailflow.data().venue(venue);
            if (target.graph().isEmpty()) {
                throw new WeftException(
                        ErrorCode.E_MAIL_NOT_CONFIGURED,
                        "venue '" + venue + "' has no Graph mailbox to sign in to: add it with 'weft mailflow venue"
                                + " add --id " + venue + " --graph https://graph.microsoft.com/v1.0' first");
            }
            OAuthSignIn.SignedIn signedIn = OAuthSignIn.signIn(
                    provider,
                    VenueGrants.GRAPH_SCOPES,
                    device,
                    json ? spec.commandLine().getErr() : out);
            VenueGrants.Kept kept = mailflow.venueGrants().keep(venue, signedIn.client(), signedIn.grant());
            if (json) {
                ObjectNode node = Json.object();
                node.put("venue", venue);
                MemoCalendarSyncCommand.signedIn(node, signedIn);
                node.put("scope", kept.scope());
                out.println(Json.write(node));
            } else {
                out.println("Connected " + target.name() + " (" + venue + ") to " + provider.id() + " as "
                        + kept.account() + ": its replies go through Graph at "
                        + target.graph().orElseThrow().baseUrl() + ", the access token refreshed before it expires.");
            }
            return ExitCodes.OK;
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the venues (no secret).")
    static final class ListVenues extends MailflowSubcommand {
        @Option(names = "--org", paramLabel = "ORG", description = "Only this organization's.")
        String organization;

        @Override
        int call(RunStore store, PrintWriter out) {
            List<Venue> venues = Storage.mailflow(store).data().venues(Optional.ofNullable(organization));
            if (json) {
                ArrayNode array = Json.mapper().createArrayNode();
                venues.forEach(v -> array.add(v.toJson()));
                ObjectNode node = Json.object();
                node.set("venues", array);
                out.println(Json.write(node));
            } else if (venues.isEmpty()) {
                out.println("no venue yet: weft mailflow venue add --id ID --name NAME --address EMAIL");
            } else {
                for (Venue v : venues) {
                    out.println(v.id() + "  " + v.name() + " <" + v.address() + ">  org " + v.organization() + ", "
                            + v.zone().getId() + ", " + v.language() + ", send "
                            + v.send().label() + ", rooms: "
                            + String.join(
                                    ", ",
                                    v.rooms().stream()
                                            .map(r -> r.name() + " (" + r.capacity() + ")")
                                            .toList()));
                }
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "process",
            mixinStandardHelpOptions = true,
            description = {
                "Runs the venue's workflow on one email (an .eml file, '-' for standard input, or a .json normalized",
                "email) and prints what it did. The same email processed again is not run again.",
                "--json: {\"runId\", \"status\", \"filtered\", \"parsed\", \"reply\", \"sent\", …}"
            })
    static final class Process extends MailflowSubcommand {
        @Parameters(
                paramLabel = "FILE",
                description = "The email: RFC 822 (.eml), '-' (standard input), or JSON (.json).")
        String file;

        @Option(names = "--venue", required = true, paramLabel = "ID", description = "The venue it was sent to.")
        String venue;

        @Option(names = "--now", paramLabel = "ISO", description = "The time to read its dates against (default: now).")
        String now;

        @Option(
                names = "--dry-run",
                description = "Runs the whole workflow but sends nothing and leaves the email unclaimed.")
        boolean dryRun;

        @Override
        int call(RunStore store, PrintWriter out) {
            Mailflow mailflow = Storage.mailflow(store);
            Venue target = mailflow.data().venue(venue);
            byte[] bytes = read(file);
            Mailflow.Source source = file.endsWith(".json")
                    ? new Mailflow.Source.Normalized(Json.parse(new String(bytes, StandardCharsets.UTF_8), file))
                    : new Mailflow.Source.Raw(bytes);
            Optional<Instant> at = Optional.ofNullable(now).map(n -> instant(n, target.zone()));
            Runner runner = Storage.runner(store).build();
            Processed processed = mailflow.deliver(runner, new Mailflow.Delivery(venue, source, "cli", at, dryRun));
            if (json) {
                out.println(Json.write(processed.toJson()));
            } else {
                print(out, processed);
            }
            return switch (processed.status()) {
                case "FILTERED", "COMPLETED" -> ExitCodes.OK;
                case "WAITING", "PENDING", "RUNNING" -> ExitCodes.WAITING;
                default -> ExitCodes.FAILED;
            };
        }

        private static void print(PrintWriter out, Processed processed) {
            if (processed.filtered().isPresent()) {
                out.println("filtered: " + processed.filtered().get());
                return;
            }
            out.println("run " + processed.runId().orElse("?") + ": " + processed.status()
                    + (processed.duplicate() ? " (this email was taken in before)" : ""));
            JsonNode json = processed.toJson();
            JsonNode parsed = json.path("parsed");
            if (parsed.isObject()) {
                out.println("understood: "
                        + (parsed.path("inquiry").asBoolean() ? "a booking inquiry" : "not a booking inquiry")
                        + ", dates " + parsed.path("dates") + ", guests "
                        + parsed.path("guests").asText("?")
                        + ", event " + parsed.path("eventType").asText("?") + ", language "
                        + parsed.path("language").asText());
            }
            JsonNode reply = json.path("reply");
            if (reply.isObject()) {
                out.println("reply to " + reply.path("to").asText() + ": "
                        + reply.path("subject").asText());
                out.println();
                out.println(reply.path("body").asText());
                out.println();
            }
            if (json.path("sent").asBoolean()) {
                out.println("sent.");
            } else if (json.has("notSent")) {
                out.println("not sent: " + json.path("notSent").asText());
            } else if (json.has("waitingFor")) {
                out.println("waiting for approval: weft runs resume "
                        + processed.runId().orElse("RUN") + " --input '{\"approved\": true}'");
            } else if (json.has("handoff")) {
                out.println("handed to a person: " + json.path("handoff").asText());
            }
            if (json.has("error")) {
                out.println("error: " + json.path("error").path("code").asText() + ": "
                        + json.path("error").path("message").asText());
            }
        }
    }

    @Command(
            name = "watch",
            mixinStandardHelpOptions = true,
            description =
                    "Follows the venue's mailbox over IMAP IDLE and answers what arrives, until stopped (Ctrl-C).")
    static final class Watch extends MailflowSubcommand {
        @Option(
                names = "--venue",
                required = true,
                paramLabel = "ID",
                description = "The venue whose mailbox to follow.")
        String venue;

        @Override
        int call(RunStore store, PrintWriter out) {
            Mailflow mailflow = Storage.mailflow(store);
            Runner runner = Storage.runner(store).build();
            CountDownLatch stopped = new CountDownLatch(1);
            try (MailboxWatch watch = MailboxWatch.start(mailflow, runner, venue, processed -> {
                synchronized (out) {
                    out.println(
                            json
                                    ? Json.write(processed.toJson())
                                    : processed.status() + " "
                                            + processed.email().from() + " \""
                                            + processed.email().subject() + "\""
                                            + processed
                                                    .filtered()
                                                    .map(f -> " (" + f + ")")
                                                    .orElse(""));
                    out.flush();
                }
            })) {
                Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "weft-mailflow-watch-stop"));
                out.println("watching the mailbox of " + venue + (watch.listening() ? "" : " (connecting)")
                        + "; Ctrl-C stops");
                out.flush();
                stopped.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "template",
            mixinStandardHelpOptions = true,
            description = "A venue's workflow template: export it, import a changed one, show it, check a file.",
            subcommands = {
                MailflowCommand.ExportTemplate.class,
                MailflowCommand.ImportTemplate.class,
                MailflowCommand.ShowTemplate.class,
                MailflowCommand.CheckTemplate.class
            })
    static final class TemplateCommand implements Runnable {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().usage(spec.commandLine().getOut());
        }
    }

    @Command(
            name = "export",
            mixinStandardHelpOptions = true,
            description = "Prints the venue's template as JSON (to FILE if given).")
    static final class ExportTemplate extends MailflowSubcommand {
        @Option(names = "--venue", required = true, paramLabel = "ID")
        String venue;

        @Parameters(paramLabel = "FILE", arity = "0..1")
        Path file;

        @Override
        int call(RunStore store, PrintWriter out) {
            String text = Json.mapper()
                    .valueToTree(
                            Storage.mailflow(store).template(venue).template().toJson())
                    .toPrettyString();
            if (file == null) {
                out.println(text);
            } else {
                try {
                    Files.writeString(file, text + "\n");
                } catch (IOException e) {
                    throw new WeftException(ErrorCode.E_BAD_INPUT, file + ": cannot be written: " + e.getMessage());
                }
                out.println(json ? Json.write(Json.object().put("exported", file.toString())) : "wrote " + file);
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "import",
            mixinStandardHelpOptions = true,
            description =
                    "Replaces the venue's template with FILE once it compiles (E_GRAPH_INVALID names the node and rule if not).")
    static final class ImportTemplate extends MailflowSubcommand {
        @Option(names = "--venue", required = true, paramLabel = "ID")
        String venue;

        @Parameters(paramLabel = "FILE")
        Path file;

        @Override
        int call(RunStore store, PrintWriter out) {
            Template template =
                    Template.parse(new String(read(file.toString()), StandardCharsets.UTF_8), file.toString());
            try {
                MailflowData.StoredTemplate stored = Storage.mailflow(store).importTemplate(venue, template);
                if (json) {
                    out.println(Json.write(Json.object()
                            .put("venue", venue)
                            .put("template", stored.template().id())
                            .put("version", stored.version())));
                } else {
                    out.println(
                            "imported " + file + " as version " + stored.version() + " of " + venue + "'s template");
                }
                return ExitCodes.OK;
            } catch (GraphInvalidException e) {
                return WorkflowCommand.invalid(spec, json, e);
            }
        }
    }

    @Command(
            name = "show",
            mixinStandardHelpOptions = true,
            description = "Shows the venue's template: its nodes, tools and connections.")
    static final class ShowTemplate extends MailflowSubcommand {
        @Option(names = "--venue", required = true, paramLabel = "ID")
        String venue;

        @Override
        int call(RunStore store, PrintWriter out) {
            MailflowData.StoredTemplate stored = Storage.mailflow(store).template(venue);
            Template t = stored.template();
            if (json) {
                ObjectNode node = t.toJson();
                node.put("version", stored.version());
                out.println(Json.write(node));
                return ExitCodes.OK;
            }
            out.println(t.name() + " (" + t.id() + ", version " + stored.version() + ")");
            out.println("nodes:");
            t.nodes()
                    .forEach(n -> out.println("  " + n.id() + "  " + n.type()
                            + (n.config().has("role")
                                    ? " (" + n.config().path("role").asText() + ")"
                                    : "")));
            out.println("tools:");
            t.tools().forEach(n -> out.println("  " + n.id() + "  " + n.type()));
            out.println("connections:");
            t.connections()
                    .forEach(c -> out.println("  " + c.source() + " --" + c.sourceHandle() + "--> " + c.target()));
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description = "Compiles a template file as a venue's would be, changing nothing.")
    static final class CheckTemplate extends MailflowSubcommand {
        @Parameters(paramLabel = "FILE")
        Path file;

        @Override
        int call(RunStore store, PrintWriter out) {
            try {
                Template template =
                        Template.parse(new String(read(file.toString()), StandardCharsets.UTF_8), file.toString());
                var workflow = Storage.mailflow(store).checkTemplate(template);
                if (json) {
                    out.println(Json.write(Json.object()
                            .put("ok", true)
                            .put("template", template.id())
                            .put("nodes", workflow.graph().nodes().size())));
                } else {
                    out.println(file + ": ok (" + workflow.graph().nodes().size() + " nodes and tools)");
                }
                return ExitCodes.OK;
            } catch (GraphInvalidException e) {
                return WorkflowCommand.invalid(spec, json, e);
            }
        }
    }

    static byte[] read(String file) {
        try {
            return file.equals("-") ? System.in.readAllBytes() : Files.readAllBytes(Path.of(file));
        } catch (NoSuchFileException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, file + ": no such file");
        } catch (IOException e) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, file + ": cannot be read: " + e.getMessage());
        }
    }

    private static JsonNode readJson(Path file, String option) {
        return Json.parse(new String(read(file.toString()), StandardCharsets.UTF_8), option + " " + file);
    }

    static ZoneId zone(String tz) {
        try {
            return ZoneId.of(tz);
        } catch (DateTimeException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "--tz " + tz + ": not a time zone (e.g. Asia/Jerusalem, UTC)");
        }
    }

    static List<Venue.Room> rooms(Path file) {
        JsonNode json = readJson(file, "--rooms");
        if (!json.isArray()) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "--rooms " + file + ": must be a JSON array of {\"name\", \"capacity\"}");
        }
        List<Venue.Room> rooms = new ArrayList<>();
        for (int i = 0; i < json.size(); i++) {
            JsonNode room = json.get(i);
            if (!room.path("name").isTextual() || !room.path("capacity").canConvertToInt()) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT,
                        "--rooms " + file + ": [" + i + "] needs \"name\" (text) and \"capacity\" (a whole number)");
            }
            rooms.add(new Venue.Room(
                    room.path("name").asText().strip(), room.path("capacity").asInt()));
        }
        return rooms;
    }

    static List<Venue.Booking> bookings(Path file) {
        JsonNode json = readJson(file, "--bookings");
        if (!json.isArray()) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "--bookings " + file + ": must be a JSON array of {\"room\", \"date\"}");
        }
        List<Venue.Booking> bookings = new ArrayList<>();
        for (int i = 0; i < json.size(); i++) {
            JsonNode booking = json.get(i);
            try {
                if (!booking.path("room").isTextual()) {
                    throw new DateTimeParseException("", "", 0);
                }
                bookings.add(new Venue.Booking(
                        booking.path("room").asText().strip(),
                        LocalDate.parse(booking.path("date").asText())));
            } catch (DateTimeParseException e) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT,
                        "--bookings " + file + ": [" + i + "] needs \"room\" and \"date\" (YYYY-MM-DD)");
            }
        }
        return bookings;
    }

    /** {@code --now}: an instant with an offset or zone, or a local date-time or date in the venue's zone. */
    static Instant instant(String text, ZoneId zone) {
        String t = text.trim();
        try {
            return ZonedDateTime.parse(t).toInstant();
        } catch (DateTimeParseException notZoned) {
            try {
                return OffsetDateTime.parse(t).toInstant();
            } catch (DateTimeParseException notOffset) {
                try {
                    return LocalDateTime.parse(t).atZone(zone).toInstant();
                } catch (DateTimeParseException notLocal) {
                    try {
                        return LocalDate.parse(t).atTime(9, 0).atZone(zone).toInstant();
                    } catch (DateTimeParseException e) {
                        throw new WeftException(
                                ErrorCode.E_BAD_INPUT,
                                "--now " + text + ": expected ISO-8601, e.g. 2026-03-02T10:00:00+02:00");
                    }
                }
            }
        }
    }
}
