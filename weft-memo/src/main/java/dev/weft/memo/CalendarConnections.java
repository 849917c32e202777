package dev.weft.memo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.weft.core.Json;
import dev.weft.memo.data.CalDavSync;
import dev.weft.memo.data.CalendarAccounts;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.OAuthGrants;
import dev.weft.oauth.Grant;
import dev.weft.oauth.OAuthClient;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Users' CalDAV calendar connections as the command line manages them ({@code weft memo calendar
 * connect|sync|show|disconnect}): Memo reads and writes its own tables, the caller sees what may be
 * shown (never a secret). Thread-safe.
 */
public final class CalendarConnections {
    private final Memo memo;
    private final MemoData data;

    CalendarConnections(Memo memo) {
        this.memo = memo;
        this.data = memo.data();
    }

    /**
     * A user's calendar connection, without its secret.
     *
     * @param oauth2 whether the secret is an OAuth2 access token rather than a password
     * @param signIn the sign-in Memo keeps for it, when it was connected by signing in
     */
    public record Connection(
            String user,
            URI server,
            URI calendar,
            String name,
            String login,
            boolean oauth2,
            Optional<Instant> syncedAt,
            Optional<String> lastError,
            Optional<SignIn> signIn) {
        public Connection {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(server, "server");
            Objects.requireNonNull(calendar, "calendar");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(login, "login");
            Objects.requireNonNull(syncedAt, "syncedAt");
            Objects.requireNonNull(lastError, "lastError");
            Objects.requireNonNull(signIn, "signIn");
        }

        /** {@code user}, {@code server}, {@code calendar}, {@code name}, {@code login}, {@code auth}, the last sync and error. */
        public ObjectNode toJson() {
            ObjectNode node = Json.object();
            node.put("user", user);
            node.put("server", server.toString());
            node.put("calendar", calendar.toString());
            node.put("name", name);
            node.put("login", login);
            node.put("auth", oauth2 ? "oauth2" : "password");
            syncedAt.ifPresent(at -> node.put("syncedAt", at.toString()));
            lastError.ifPresent(e -> node.put("lastError", e));
            return node;
        }
    }

    /** What connecting found: the connection kept, the calendars the server has, and whether one was made. */
    public record Connected(Connection connection, List<String> calendars, boolean made) {
        public Connected {
            Objects.requireNonNull(connection, "connection");
            calendars = List.copyOf(calendars);
        }
    }

    /** An event changed both in Memo and on the server since the last sync, and what its user is told of it. */
    public record Conflict(String eventId, String summary, String message) {
        public Conflict {
            Objects.requireNonNull(eventId, "eventId");
            Objects.requireNonNull(summary, "summary");
            Objects.requireNonNull(message, "message");
        }
    }

    /**
     * What one sync did: whether every event was compared, the events made or changed here ({@code
     * pulled}), deleted here ({@code removed}), written there ({@code pushed}), deleted there, and the
     * conflicts (the server's version kept).
     */
    public record Report(boolean full, int pulled, int removed, int pushed, int deleted, List<Conflict> conflicts) {
        public Report {
            conflicts = List.copyOf(conflicts);
        }

        public ObjectNode toJson() {
            ObjectNode node = Json.object();
            node.put("full", full);
            node.put("pulled", pulled);
            node.put("removed", removed);
            node.put("pushed", pushed);
            node.put("deleted", deleted);
            ArrayNode listed = node.putArray("conflicts");
            for (Conflict conflict : conflicts) {
                listed.addObject()
                        .put("eventId", conflict.eventId())
                        .put("summary", conflict.summary())
                        .put("message", conflict.message());
            }
            return node;
        }
    }

    /** What disconnecting forgot, and how many of the user's events Memo keeps. */
    public record Disconnected(Connection connection, int eventsKept) {}

    /**
     * Connects {@code user}'s calendar at {@code url} with a password (or an OAuth2 access token, {@code
     * token}), replacing the one they had; a user Memo does not know yet is made, in {@code zone}.
     *
     * @throws dev.weft.core.WeftException {@code E_CALENDAR_LOGIN_FAILED}, {@code E_CALENDAR_UNAVAILABLE}
     *     or {@code E_BAD_INPUT}; nothing is kept then
     */
    public Connected connect(
            String user,
            String url,
            String login,
            boolean token,
            String secret,
            Optional<String> calendar,
            ZoneId zone,
            Instant now) {
        return connected(data.caldav()
                .connect(
                        user,
                        url,
                        login,
                        token ? CalendarAccounts.Auth.OAUTH2 : CalendarAccounts.Auth.PASSWORD,
                        secret,
                        calendar,
                        zone,
                        now));
    }

    /** Connects {@code user}'s calendar at {@code url} with a sign-in, which Memo keeps and refreshes. */
    public Connected connectSignedIn(
            String user,
            String url,
            OAuthClient client,
            Grant grant,
            Optional<String> calendar,
            ZoneId zone,
            Instant now) {
        return connected(data.caldav().connectSignedIn(user, url, client, grant, calendar, zone, now));
    }

    private Connected connected(CalDavSync.Connected connected) {
        return new Connected(connection(connected.account()), connected.calendars(), connected.made());
    }

    /**
     * Syncs {@code user}'s calendar both ways now.
     *
     * @throws dev.weft.core.WeftException {@code E_CALENDAR_NOT_CONFIGURED}, {@code
     *     E_CALENDAR_LOGIN_FAILED} or {@code E_CALENDAR_UNAVAILABLE}
     */
    public Report sync(String user) {
        CalDavSync.Report report = memo.calendar().sync(user);
        return new Report(
                report.full(),
                report.pulled(),
                report.removed(),
                report.pushed(),
                report.deleted(),
                report.conflicts().stream()
                        .map(c -> new Conflict(
                                c.eventId(), c.summary(), memo.calendar().describe(user, c)))
                        .toList());
    }

    /**
     * {@code user}'s connection.
     *
     * @throws dev.weft.core.WeftException {@code E_CALENDAR_NOT_CONFIGURED} when they have none
     */
    public Connection require(String user) {
        return connection(data.calendars().require(user));
    }

    /**
     * Forgets {@code user}'s connection and its secret (revoking a sign-in); Memo keeps the events.
     *
     * @throws dev.weft.core.WeftException {@code E_CALENDAR_NOT_CONFIGURED} when they have none
     */
    public Disconnected disconnect(String user) {
        Connection connection = require(user);
        data.caldav().disconnect(user);
        return new Disconnected(connection, data.events().all(user).size());
    }

    /** Marks {@code user}'s calendar conflicts as shown (a command printed them), so that a chat does not tell them again. */
    public void conflictsShown(String user, Instant at) {
        data.notifications()
                .delivered(
                        user,
                        data.notifications().pending(user).stream()
                                .filter(n -> n.type().equals(CalendarSync.CONFLICT))
                                .map(n -> n.id())
                                .toList(),
                        at);
    }

    private Connection connection(CalendarAccounts.Account account) {
        return new Connection(
                account.user(),
                account.server(),
                account.calendar(),
                account.calendarName(),
                account.login(),
                account.auth() == CalendarAccounts.Auth.OAUTH2,
                account.syncedAt(),
                account.lastError(),
                data.grants().find(account.user(), OAuthGrants.Purpose.CALENDAR).map(SignIn::of));
    }
}
