package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.assistant.AssistantEnvironment;
import dev.weft.assistant.Assistants;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.NotFoundException;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.Mailboxes;
import dev.weft.memo.Memo;
import dev.weft.memo.MemoAssistant;
import dev.weft.oauth.OAuthProvider;
import java.io.Console;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weft memo mail …}: connect a user's mailbox (IMAP and SMTP) to Memo, check it, show it and
 * remove it. The password or OAuth2 token is read from {@code WEFT_MAIL_SECRET} or a prompt, never
 * from the command line, and kept encrypted under the key {@code $WEFT_HOME/mail.key}.
 */
@Command(
        name = "mail",
        mixinStandardHelpOptions = true,
        description = "A Memo user's mailbox: add it, check both servers, show it, remove it.",
        subcommands = {
            MemoMailCommand.Add.class,
            MemoMailCommand.Connect.class,
            MemoMailCommand.Check.class,
            MemoMailCommand.Show.class,
            MemoMailCommand.Remove.class
        })
final class MemoMailCommand implements Runnable {
    /** The environment variable the secret is read from before a prompt is tried. */
    static final String SECRET_VARIABLE = "WEFT_MAIL_SECRET";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * A user's password or OAuth2 token: from {@code variable}, else typed at the terminal, never from
     * the command line.
     *
     * @throws WeftException {@code E_BAD_INPUT} when there is neither
     */
    static String secret(String variable, boolean oauth2, String login) {
        String secret = Env.get().get(variable);
        if (secret != null && !secret.isEmpty()) {
            return secret;
        }
        Console console = System.console();
        if (console == null) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "no secret: set " + variable + " to the password (or the OAuth2 token with --oauth2),"
                            + " or run this at a terminal to be asked for it");
        }
        char[] typed = console.readPassword(oauth2 ? "OAuth2 access token for %s: " : "Password for %s: ", login);
        if (typed == null || typed.length == 0) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "no secret was typed");
        }
        return new String(typed);
    }

    /** The zone {@code --tz} names, else the system's. @throws WeftException {@code E_BAD_INPUT} for no zone */
    static ZoneId zone(String tz) {
        if (tz == null) {
            return ZoneId.systemDefault();
        }
        try {
            return ZoneId.of(tz);
        } catch (java.time.DateTimeException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT, "--tz " + tz + ": not a time zone (e.g. Asia/Jerusalem, UTC)");
        }
    }

    /** Memo on {@code store}, offline, its users' secrets under the key {@code $WEFT_HOME/mail.key}. */
    static Memo memo(RunStore store) {
        return ((MemoAssistant) Assistants.open(Memo.EXECUTOR, AssistantEnvironment.offline(store, Detached.home())))
                .memo();
    }

    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description = {
                "Connects the user's mailbox, replacing the one they had.",
                "The password (or with --oauth2 an access token) is read from WEFT_MAIL_SECRET, else asked for;",
                "it is kept encrypted with the key $WEFT_HOME/mail.key (made on first use, mode 600)."
            })
    static final class Add extends MemoCommand.UserSubcommand {
        @Option(names = "--imap", required = true, paramLabel = "HOST:PORT", description = "The IMAP server.")
        String imap;

        @Option(names = "--smtp", required = true, paramLabel = "HOST:PORT", description = "The SMTP server.")
        String smtp;

        @Option(names = "--login", required = true, paramLabel = "L", description = "The login on both servers.")
        String login;

        @Option(
                names = "--address",
                paramLabel = "EMAIL",
                description = "The address mail is sent from (default: the login, when it is an address).")
        String address;

        @Option(
                names = "--security",
                paramLabel = "tls|starttls|none",
                description = "TLS from the first byte (default), STARTTLS, or none (a local test server only).")
        String security = "tls";

        @Option(
                names = "--oauth2",
                description = "The secret is an OAuth2 access token (XOAUTH2, as Gmail and Outlook want), not a"
                        + " password.")
        boolean oauth2;

        @Option(
                names = "--tz",
                paramLabel = "ZONE",
                description = "The zone of a user Memo does not know yet (default: the system's).")
        String tz;

        @Override
        int call(RunStore store, PrintWriter out) {
            String id = user();
            HostPort imapServer = HostPort.parse("--imap", imap);
            HostPort smtpServer = HostPort.parse("--smtp", smtp);
            String chosen = Mailboxes.security(security);
            String from = address != null ? address : login;
            if (!from.contains("@")) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT,
                        "--login " + login + " is not an email address: say which address mail is sent from with"
                                + " --address");
            }
            String secret = secret(SECRET_VARIABLE, oauth2, login);
            Mailboxes.Mailbox account = memo(store)
                    .mailboxes()
                    .add(
                            id,
                            from,
                            imapServer.host(),
                            imapServer.port(),
                            smtpServer.host(),
                            smtpServer.port(),
                            login,
                            chosen,
                            oauth2,
                            secret,
                            zone(tz),
                            Instant.now());
            if (json) {
                out.println(Json.write(account.toJson()));
            } else {
                out.println("Added " + from + " for " + id + " (IMAP " + imapServer + ", SMTP " + smtpServer + ", "
                        + chosen + ").");
                out.println("Try it: weft memo mail check --user " + id);
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "connect",
            mixinStandardHelpOptions = true,
            description = {
                "Signs the user in to their Gmail (--google) or Microsoft 365 (--microsoft) mailbox with OAuth and",
                "connects it over IMAP and SMTP with XOAUTH2, replacing the mailbox they had; then checks both servers.",
                "In a browser by default, or with --device on another device with a code. Memo keeps the grant",
                "encrypted and refreshes its token before each connection (docs/oauth.md)."
            })
    static final class Connect extends MemoCommand.UserSubcommand {
        @Option(names = "--google", description = "Gmail (WEFT_GOOGLE_CLIENT_ID): imap.gmail.com and smtp.gmail.com.")
        boolean google;

        @Option(
                names = "--microsoft",
                description = "Microsoft 365 (WEFT_MICROSOFT_CLIENT_ID): outlook.office365.com and smtp.office365.com.")
        boolean microsoft;

        @Option(names = "--device", description = "Sign in on another device with a code (no browser here).")
        boolean device;

        @Option(names = "--imap", paramLabel = "HOST:PORT", description = "Another IMAP server than the provider's.")
        String imap;

        @Option(names = "--smtp", paramLabel = "HOST:PORT", description = "Another SMTP server than the provider's.")
        String smtp;

        @Option(
                names = "--security",
                paramLabel = "tls|starttls|none",
                description = "How the servers are reached (default: the provider's; none is for a local test server).")
        String security;

        @Option(
                names = "--tz",
                paramLabel = "ZONE",
                description = "The zone of a user Memo does not know yet (default: the system's).")
        String tz;

        @Override
        int call(RunStore store, PrintWriter out) {
            String id = user();
            OAuthProvider provider = OAuthSignIn.provider(google, microsoft, device)
                    .orElseThrow(() -> new WeftException(
                            ErrorCode.E_BAD_INPUT,
                            "say whose mailbox to sign in to: --google or --microsoft (or add one with a password:"
                                    + " 'weft memo mail add')"));
            boolean gmail = provider == OAuthProvider.GOOGLE;
            // Microsoft's SMTP takes STARTTLS only, so both of its servers are reached that way.
            HostPort imapServer = HostPort.parse(
                    "--imap", imap != null ? imap : gmail ? "imap.gmail.com:993" : "outlook.office365.com:143");
            HostPort smtpServer = HostPort.parse(
                    "--smtp", smtp != null ? smtp : gmail ? "smtp.gmail.com:465" : "smtp.office365.com:587");
            String chosen = Mailboxes.security(security != null ? security : gmail ? "tls" : "starttls");
            ZoneId zone = zone(tz);
            OAuthSignIn.SignedIn signedIn = OAuthSignIn.signIn(
                    provider,
                    provider.mailScopes(),
                    device,
                    json ? spec.commandLine().getErr() : out);
            Mailboxes mailboxes = memo(store).mailboxes();
            Mailboxes.Mailbox account = mailboxes.addSignedIn(
                    id,
                    imapServer.host(),
                    imapServer.port(),
                    smtpServer.host(),
                    smtpServer.port(),
                    chosen,
                    signedIn.client(),
                    signedIn.grant(),
                    zone,
                    Instant.now());
            List<String> lines = mailboxes.check(id);
            boolean ok = lines.stream().allMatch(MemoMailCommand::answered);
            if (json) {
                ObjectNode node = account.toJson();
                MemoCalendarSyncCommand.signedIn(node, signedIn);
                node.put("ok", ok);
                lines.forEach(node.putArray("servers")::add);
                out.println(Json.write(node));
            } else {
                out.println("Connected " + account.address() + " for " + id + " (signed in to " + provider.id()
                        + "; IMAP " + imapServer + ", SMTP " + smtpServer + ", XOAUTH2).");
                lines.forEach(out::println);
                out.println("Memo keeps the sign-in (encrypted) and refreshes its token before each connection;"
                        + " 'weft memo mail remove' revokes it.");
            }
            return ok ? ExitCodes.OK : ExitCodes.FAILED;
        }
    }

    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description = "Connects to both of the user's servers and logs in; exit 0 when both answer.")
    static final class Check extends MemoCommand.UserSubcommand {
        @Override
        int call(RunStore store, PrintWriter out) {
            String id = user();
            List<String> lines = memo(store).mailboxes().check(id);
            boolean ok = lines.stream().allMatch(MemoMailCommand::answered);
            if (json) {
                ObjectNode node = Json.object();
                node.put("ok", ok);
                lines.forEach(node.putArray("servers")::add);
                out.println(Json.write(node));
            } else {
                lines.forEach(out::println);
            }
            return ok ? ExitCodes.OK : ExitCodes.FAILED;
        }
    }

    private static boolean answered(String line) {
        return line.matches("(IMAP|SMTP) \\S+: ok.*");
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Shows the user's mailbox (not its secret).")
    static final class Show extends MemoCommand.UserSubcommand {
        @Override
        int call(RunStore store, PrintWriter out) {
            String id = user();
            Mailboxes.Mailbox account = memo(store).mailboxes().require(id);
            if (json) {
                ObjectNode node = account.toJson();
                account.signIn().ifPresent(g -> node.set("signIn", g.toJson()));
                out.println(Json.write(node));
            } else {
                out.println(account.address() + " (login " + account.login() + ")");
                out.println("  IMAP " + account.imapHost() + ":" + account.imapPort() + ", SMTP " + account.smtpHost()
                        + ":" + account.smtpPort() + ", "
                        + account.security()
                        + (account.oauth2() ? ", OAuth2" : ""));
                account.signIn().ifPresent(g -> out.println("  " + g.describe()));
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "remove",
            mixinStandardHelpOptions = true,
            description = "Forgets the user's mailbox and its secret.")
    static final class Remove extends MemoCommand.UserSubcommand {
        @Override
        int call(RunStore store, PrintWriter out) {
            String id = user();
            if (!memo(store).mailboxes().remove(id)) {
                throw new NotFoundException("no mail account for '" + id + "'");
            }
            if (json) {
                ObjectNode node = Json.object();
                node.put("removed", id);
                out.println(Json.write(node));
            } else {
                out.println("Removed the mailbox of " + id + ".");
            }
            return ExitCodes.OK;
        }
    }

    /** A server as {@code HOST:PORT}. */
    record HostPort(String host, int port) {
        static HostPort parse(String option, String text) {
            int colon = text.lastIndexOf(':');
            if (colon <= 0 || colon == text.length() - 1) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT,
                        option + " " + text + ": expected HOST:PORT (e.g. imap.example.com:993)");
            }
            try {
                int port = Integer.parseInt(text.substring(colon + 1));
                if (port < 1 || port > 65535) {
                    throw new NumberFormatException();
                }
                return new HostPort(text.substring(0, colon), port);
            } catch (NumberFormatException e) {
                throw new WeftException(
                        ErrorCode.E_BAD_INPUT, option + " " + text + ": the port must be a number from 1 to 65535");
            }
        }

        @Override
        public String toString() {
            return host + ":" + port;
        }
    }
}
