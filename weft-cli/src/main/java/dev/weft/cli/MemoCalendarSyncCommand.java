package dev.weft.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.ErrorCode;
import dev.weft.core.Json;
import dev.weft.core.WeftException;
import dev.weft.core.spi.RunStore;
import dev.weft.memo.CalendarSync;
import dev.weft.memo.Memo;
import dev.weft.memo.data.CalDavSync;
import dev.weft.memo.data.CalendarAccounts;
import dev.weft.memo.data.OAuthGrants;
import dev.weft.oauth.OAuthProvider;
import java.io.PrintWriter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Locale;
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
            CalDavSync.Connected connected;
            Memo memo;
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
                memo = Storage.memo(store);
                String at = url != null
                        ? url
                        : GOOGLE_CALDAV.formatted(
                                URLEncoder.encode(signedIn.get().grant().account(), StandardCharsets.UTF_8));
                connected = memo.data()
                        .caldav()
                        .connectSignedIn(
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
                memo = Storage.memo(store);
                connected = memo.data()
                        .caldav()
                        .connect(
                                id,
                                url,
                                login,
                                oauth2 ? CalendarAccounts.Auth.OAUTH2 : CalendarAccounts.Auth.PASSWORD,
                                secret,
                                Optional.ofNullable(calendar),
                                zone,
                                Instant.now());
            }
            CalendarAccounts.Account account = connected.account();
            Optional<CalDavSync.Report> first;
            Optional<WeftException> failed = Optional.empty();
            try {
                first = Optional.of(memo.calendar().sync(id));
            } catch (WeftException e) {
                first = Optional.empty();
                failed = Optional.of(e);
            }
            if (json) {
                ObjectNode node = describe(account);
                signedIn.ifPresent(s -> signedIn(node, s));
                node.put("made", connected.made());
                connected.calendars().forEach(node.putArray("calendars")::add);
                first.ifPresent(r -> node.set("sync", report(memo, id, r)));
                failed.ifPresent(e ->
                        node.putObject("error").put("code", e.code().name()).put("message", e.getMessage()));
                out.println(Json.write(node));
            } else {
                out.println("Connected " + id + " to '" + account.calendarName() + "' (" + account.calendar() + ", "
                        + signedIn.map(s ->
                                        "signed in to " + s.client().provider().id() + " as ")
                                .orElse("login ")
                        + account.login()
                        + (connected.made() ? "; made it, the account had no calendar" : "") + ").");
                signedIn.ifPresent(s -> out.println("Memo keeps the sign-in (encrypted) and refreshes its token before"
                        + " each sync; 'weft memo calendar disconnect' revokes it."));
                first.ifPresent(r -> print(out, memo, id, r));
                failed.ifPresent(e -> out.println("The first sync failed (" + e.code() + "): " + e.getMessage()));
                out.println("Memo keeps it in sync while 'weft chat' or 'weft serve' runs; sync by hand with"
                        + " 'weft memo calendar sync --user " + id + "'.");
            }
            shown(memo, id);
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
            Memo memo = Storage.memo(store);
            CalDavSync.Report report = memo.calendar().sync(id);
            if (json) {
                ObjectNode node = report(memo, id, report);
                node.put(
                        "calendar",
                        memo.data().calendars().require(id).calendar().toString());
                out.println(Json.write(node));
            } else {
                print(out, memo, id, report);
            }
            shown(memo, id);
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
            var data = MemoMailCommand.data(store);
            CalendarAccounts.Account account = data.calendars().require(id);
            Optional<OAuthGrants.Kept> grant = data.grants().find(id, OAuthGrants.Purpose.CALENDAR);
            if (json) {
                ObjectNode node = describe(account);
                grant.ifPresent(g -> node.set("signIn", describe(g)));
                out.println(Json.write(node));
            } else {
                out.println("'" + account.calendarName() + "' " + account.calendar() + " (login " + account.login()
                        + (account.auth() == CalendarAccounts.Auth.OAUTH2 ? ", OAuth2" : "") + ")");
                grant.ifPresent(g -> out.println("  " + signIn(g)));
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
            var data = MemoMailCommand.data(store);
            CalendarAccounts.Account account = data.calendars().require(id);
            data.caldav().disconnect(id);
            if (json) {
                ObjectNode node = Json.object();
                node.put("disconnected", id);
                node.put("calendar", account.calendar().toString());
                out.println(Json.write(node));
            } else {
                out.println("Disconnected " + id + " from '" + account.calendarName() + "'; Memo keeps its "
                        + data.events().all(id).size() + " events.");
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

    /** A kept sign-in as {@code show --json} prints it: never a token. */
    static ObjectNode describe(OAuthGrants.Kept grant) {
        ObjectNode node = Json.object();
        node.put("provider", grant.provider().id());
        node.put("account", grant.account());
        node.put("scope", grant.scope());
        node.put("expiresAt", grant.expiresAt().toString());
        grant.revokedAt().ifPresent(at -> node.put("revokedAt", at.toString()));
        return node;
    }

    /** A kept sign-in as {@code show} prints it. */
    static String signIn(OAuthGrants.Kept grant) {
        return "signed in to " + grant.provider().id() + " as " + grant.account()
                + grant.revokedAt()
                        .map(at -> "; revoked at " + at + ": connect again with '"
                                + grant.purpose().connectCommand(grant.user(), grant.provider()) + "'")
                        .orElse("; the access token is refreshed before it expires (now until " + grant.expiresAt()
                                + ")");
    }

    private static ObjectNode describe(CalendarAccounts.Account account) {
        ObjectNode node = Json.object();
        node.put("user", account.user());
        node.put("server", account.server().toString());
        node.put("calendar", account.calendar().toString());
        node.put("name", account.calendarName());
        node.put("login", account.login());
        node.put("auth", account.auth().name().toLowerCase(Locale.ROOT));
        account.syncedAt().ifPresent(at -> node.put("syncedAt", at.toString()));
        account.lastError().ifPresent(e -> node.put("lastError", e));
        return node;
    }

    private static ObjectNode report(Memo memo, String user, CalDavSync.Report report) {
        ObjectNode node = Json.object();
        node.put("full", report.full());
        node.put("pulled", report.pulled());
        node.put("removed", report.removed());
        node.put("pushed", report.pushed());
        node.put("deleted", report.deleted());
        ArrayNode conflicts = node.putArray("conflicts");
        CalendarSync sync = memo.calendar();
        for (CalDavSync.Conflict conflict : report.conflicts()) {
            ObjectNode c = conflicts.addObject();
            c.put("eventId", conflict.eventId());
            c.put("summary", conflict.summary());
            c.put("message", sync.describe(user, conflict));
        }
        return node;
    }

    /** Marks the conflicts this command printed as shown, so that a chat does not tell them again. */
    private static void shown(Memo memo, String user) {
        memo.data()
                .notifications()
                .delivered(
                        user,
                        memo.data().notifications().pending(user).stream()
                                .filter(n -> n.type().equals(CalendarSync.CONFLICT))
                                .map(n -> n.id())
                                .toList(),
                        Instant.now());
    }

    private static void print(PrintWriter out, Memo memo, String user, CalDavSync.Report report) {
        out.println("Synced" + (report.full() ? " (every event compared)" : "") + ": " + report.pulled()
                + " in, " + report.removed() + " removed here, " + report.pushed() + " out, " + report.deleted()
                + " deleted there"
                + (report.conflicts().isEmpty()
                        ? "."
                        : "; " + report.conflicts().size() + " conflict"
                                + (report.conflicts().size() == 1 ? ":" : "s:")));
        for (CalDavSync.Conflict conflict : report.conflicts()) {
            out.println("  " + memo.calendar().describe(user, conflict));
        }
    }
}
