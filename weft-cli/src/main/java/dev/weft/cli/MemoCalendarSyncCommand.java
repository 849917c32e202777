package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.CalendarConnections;
import dev.weft.memo.SignIn;
import dev.weft.oauth.OAuthProvider;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code weft memo calendar connect|sync|show|disconnect}: a user's CalDAV calendar (Google with an
 * OAuth2 token, iCloud, Fastmail, Nextcloud, Radicale, Baïkal) kept in sync with Memo's. The password
 * or token is read from {@code WEFT_CALDAV_SECRET} or a prompt, never from the command line, and kept
 * encrypted under the key {@code $WEFT_HOME/mail.key}.
 */
final class MemoCalendarSyncCommand {
    /** The environment variable the secret is read from before a prompt is tried. */
    static final String SECRET_VARIABLE = "WEFT_CALDAV_SECRET";

    private MemoCalendarSyncCommand() {}

    @Command(
            name = "connect",
            mixinStandardHelpOptions = true,
            description = {
                "Connects the user's CalDAV calendar, replacing the one they had, and syncs it once.",
                "URL is the calendar itself or the server's root (https://caldav.fastmail.com/,",
                "https://cloud.example.com/remote.php/dav/, https://apidata.googleusercontent.com/caldav/v2/ID/events/);",
                "the password (or with --oauth2 an access token) is read from WEFT_CALDAV_SECRET, else asked for.",
                "With --google (or --microsoft) the user signs in with OAuth instead, in a browser or with --device",
                "on another device; Memo keeps the grant and refreshes its token before every sync (docs/oauth.md)."
            })
    static final class Connect extends MemoCommand.UserSubcommand {
        /** Google's CalDAV endpoint of a user's primary calendar, by the account's address. */
        static final String GOOGLE_CALDAV = "https://apidata.googleusercontent.com/caldav/v2/%s/events/";

        @Option(
                names = {"--caldav", "--url"},
                paramLabel = "URL",
                description = "The CalDAV server or calendar (with --google, default: the account's primary"
                        + " calendar at Google).")
        String url;

        @Option(names = "--login", paramLabel = "L", description = "The login on the server (not with --google).")
        String login;

        @Option(names = "--google", description = "Sign in to a Google account with OAuth (WEFT_GOOGLE_CLIENT_ID).")
        boolean google;

        @Option(
                names = "--microsoft",
                description = "Sign in to a Microsoft account with OAuth (WEFT_MICROSOFT_CLIENT_ID); needs --url.")
        boolean microsoft;

        @Option(
                names = "--device",
                description = "With --google or --microsoft: sign in on another device with a code (no browser here).")
        boolean device;

        @Option(
                names = "--oauth2",
                description = "The secret is an OAuth2 access token (Bearer, as Google wants), not a password.")
        boolean oauth2;

        @Option(
                names = "--calendar",
                paramLabel = "NAME",
                description = "Which of the user's calendars (its name); made when they have none"
                        + " (default: the first that holds events).")
        String calendar;

        @Option(
                names = "--tz",
                paramLabel = "ZONE",
                description = "The zone of a user Memo does not know yet (default: the system's).")
        String tz;

        @Override
        int call(RunStore store, PrintWriter out) {
            String id = user();
            Optional<OAuthProvider> provider = OAuthSignIn.provider(google, microsoft, device);
            ZoneId zone = MemoMailCommand.zone(tz);
            Optional<OAuthSignIn.SignedIn> signedIn = Optional.empty();
            CalendarConnections.Connected connected;
            CalendarConnections calendars;
            if (provider.isPresent()) {
                if (login != null || oauth2) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT,
                            "--login and --oauth2 are for a password or a pasted token; --"
                                    + provider.get().id() + " signs in instead");
                }
                if (provider.get() == OAuthProvider.MICROSOFT && url == null) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT,
                            "Microsoft 365 calendars have no CalDAV: give --url, a CalDAV server that takes a Microsoft"
                                    + " sign-in");
                }
                signedIn = Optional.of(OAuthSignIn.signIn(
                        provider.get(),
                        provider.get().calendarScopes(),
                        device,
                        json ? spec.commandLine().getErr() : out));
                calendars = Storage.memo(store).calendarConnections();
                String at = url != null
                        ? url
                        : GOOGLE_CALDAV.formatted(
                                URLEncoder.encode(signedIn.get().grant().account(), StandardCharsets.UTF_8));
                connected = calendars.connectSignedIn(
                        id,
                        at,
                        signedIn.get().client(),
                        signedIn.get().grant(),
                        Optional.ofNullable(calendar),
                        zone,
                        Instant.now());
            } else {
                if (url == null || login == null) {
                    throw new WeftException(
                            ErrorCode.E_BAD_INPUT,
                            "say where and as whom: --caldav URL --login LOGIN, or sign in with --google (or"
                                    + " --microsoft --url URL)");
                }
                String secret = MemoMailCommand.secret(SECRET_VARIABLE, oauth2, login);
                calendars = Storage.memo(store).calendarConnections();
                connected = calendars.connect(
                        id, url, login, oauth2, secret, Optional.ofNullable(calendar), zone, Instant.now());
            }
            CalendarConnections.Connection account = connected.connection();
            Optional<CalendarConnections.Report> first;
            Optional<WeftException> failed = Optional.empty();
            try {
                first = Optional.of(calendars.sync(id));
            } catch (WeftException e) {
                first = Optional.empty();
                failed = Optional.of(e);
            }
            if (json) {
                ObjectNode node = account.toJson();
                signedIn.ifPresent(s -> signedIn(node, s));
                node.put("made", connected.made());
                connected.calendars().forEach(node.putArray("calendars")::add);
                first.ifPresent(r -> node.set("sync", r.toJson()));
                failed.ifPresent(e ->
                        node.putObject("error").put("code", e.code().name()).put("message", e.getMessage()));
                out.println(Json.write(node));
            } else {
                out.println("Connected " + id + " to '" + account.name() + "' (" + account.calendar() + ", "
                        + signedIn.map(s ->
                                        "signed in to " + s.client().provider().id() + " as ")
                                .orElse("login ")
                        + account.login()
                        + (connected.made() ? "; made it, the account had no calendar" : "") + ").");
                signedIn.ifPresent(s -> out.println("Memo keeps the sign-in (encrypted) and refreshes its token before"
                        + " each sync; 'weft memo calendar disconnect' revokes it."));
                first.ifPresent(r -> print(out, r));
                failed.ifPresent(e -> out.println("The first sync failed (" + e.code() + "): " + e.getMessage()));
                out.println("Memo keeps it in sync while 'weft chat' or 'weft serve' runs; sync by hand with"
                        + " 'weft memo calendar sync --user " + id + "'.");
            }
            calendars.conflictsShown(id, Instant.now());
            return failed.isPresent() ? ExitCodes.FAILED : ExitCodes.OK;
        }
    }

    @Command(
            name = "sync",
            mixinStandardHelpOptions = true,
            description = "Syncs the user's connected calendar both ways now, and says what changed and any conflict.")
    static final class Sync extends MemoCommand.UserSubcommand {
        @Override
        int call(RunStore store, PrintWriter out) {
            String id = user();
            CalendarConnections calendars = Storage.memo(store).calendarConnections();
            CalendarConnections.Report report = calendars.sync(id);
            if (json) {
                ObjectNode node = report.toJson();
                node.put("calendar", calendars.require(id).calendar().toString());
                out.println(Json.write(node));
            } else {
                print(out, report);
            }
            calendars.conflictsShown(id, Instant.now());
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "show",
            mixinStandardHelpOptions = true,
            description = "Shows the user's connected calendar (not its secret), its last sync and last error.")
    static final class Show extends MemoCommand.UserSubcommand {
        @Override
        int call(RunStore store, PrintWriter out) {
            String id = user();
            CalendarConnections.Connection account =
                    MemoMailCommand.memo(store).calendarConnections().require(id);
            Optional<SignIn> grant = account.signIn();
            if (json) {
                ObjectNode node = account.toJson();
                grant.ifPresent(g -> node.set("signIn", g.toJson()));
                out.println(Json.write(node));
            } else {
                out.println("'" + account.name() + "' " + account.calendar() + " (login " + account.login()
                        + (account.oauth2() ? ", OAuth2" : "") + ")");
                grant.ifPresent(g -> out.println("  " + g.describe()));
                out.println("  last sync: "
                        + account.syncedAt().map(Instant::toString).orElse("never")
                        + account.lastError().map(e -> "; last error: " + e).orElse(""));
            }
            return ExitCodes.OK;
        }
    }

    @Command(
            name = "disconnect",
            mixinStandardHelpOptions = true,
            description = "Forgets the user's calendar connection and its secret; Memo keeps the events it has.")
    static final class Disconnect extends MemoCommand.UserSubcommand {
        @Override
        int call(RunStore store, PrintWriter out) {
            String id = user();
            CalendarConnections.Disconnected disconnected =
                    MemoMailCommand.memo(store).calendarConnections().disconnect(id);
            CalendarConnections.Connection account = disconnected.connection();
            if (json) {
                ObjectNode node = Json.object();
                node.put("disconnected", id);
                node.put("calendar", account.calendar().toString());
                out.println(Json.write(node));
            } else {
                out.println("Disconnected " + id + " from '" + account.name() + "'; Memo keeps its "
                        + disconnected.eventsKept() + " events.");
            }
            return ExitCodes.OK;
        }
    }

    /** The fields every signed-in connect prints: {@code connected}, {@code provider}, {@code account}, {@code expiresAt}. */
    static void signedIn(ObjectNode node, OAuthSignIn.SignedIn signedIn) {
        node.put("connected", true);
        node.put("provider", signedIn.client().provider().id());
        node.put("account", signedIn.grant().account());
        node.put("expiresAt", signedIn.grant().expiresAt().toString());
    }

    private static void print(PrintWriter out, CalendarConnections.Report report) {
        out.println("Synced" + (report.full() ? " (every event compared)" : "") + ": " + report.pulled()
                + " in, " + report.removed() + " removed here, " + report.pushed() + " out, " + report.deleted()
                + " deleted there"
                + (report.conflicts().isEmpty()
                        ? "."
                        : "; " + report.conflicts().size() + " conflict"
                                + (report.conflicts().size() == 1 ? ":" : "s:")));
        for (CalendarConnections.Conflict conflict : report.conflicts()) {
            out.println("  " + conflict.message());
        }
    }
}
