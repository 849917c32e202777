package dev.weft.memo.data;

import dev.weft.core.ErrorCode;
import dev.weft.core.WeftException;
import dev.weft.memo.data.CalDavClient.Response;
import dev.weft.memo.data.CalDavClient.Write;
import dev.weft.memo.data.CalDavObjects.Piece;
import dev.weft.memo.data.CalendarAccounts.Account;
import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Two-way sync of each user's calendar with the CalDAV calendar they connected. A sync first takes
 * what changed on the server (since the server's sync-token when it has them, RFC 6578; else by
 * comparing every object's ETag), then writes what changed in Memo since the last sync: a new event is
 * PUT only if nothing is at its place ({@code If-None-Match: *}), a change or a delete only over the
 * version last seen ({@code If-Match}), so a change made meanwhile elsewhere is never overwritten. An
 * event changed on both sides keeps the server's version, and the sync reports Memo's change as a
 * {@link Conflict}. Events keep their UIDs as their ids, so nothing is duplicated.
 *
 * <p>What changed in Memo is found by state, not by a log: each synced event's fingerprint as last
 * synced is kept, so a change made by any path (a tool, an undo, an import) is pushed, and a sync that
 * stopped half way (the server went down) leaves nothing behind that the next one does not finish.
 * One user's syncs run one at a time in a process; every request is made with the user's own
 * connection. Thread-safe.
 */
public final class CalDavSync {
    /** How many objects one calendar-multiget asks for. */
    private static final int MULTIGET_BATCH = 200;

    private final MemoData data;
    private final CalendarAccounts accounts;
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();

    CalDavSync(MemoData data, CalendarAccounts accounts) {
        this.data = data;
        this.accounts = accounts;
    }

    /** What connecting found: the connection kept, the calendars the server has, and whether one was made. */
    public record Connected(Account account, List<String> calendars, boolean made) {
        public Connected {
            Objects.requireNonNull(account, "account");
            calendars = List.copyOf(calendars);
        }
    }

    /**
     * An event changed both in Memo and on the server since the last sync: the server's version was
     * kept; Memo's is here so that nothing is lost.
     *
     * @param memo Memo's version, or empty when Memo deleted it
     * @param server the server's version, or empty when it was deleted there
     */
    public record Conflict(String eventId, String summary, Optional<Event> memo, Optional<Event> server) {
        public Conflict {
            Objects.requireNonNull(eventId, "eventId");
            Objects.requireNonNull(summary, "summary");
            Objects.requireNonNull(memo, "memo");
            Objects.requireNonNull(server, "server");
        }
    }

    /**
     * What one sync did.
     *
     * @param full whether every object's ETag was compared (the first sync, a server without
     *     sync-tokens, or one that no longer knew the last token)
     * @param pulled events made or changed in Memo from the server
     * @param removed events deleted in Memo because they were deleted on the server
     * @param pushed events written to the server
     * @param deleted events deleted on the server because Memo deleted them
     * @param touched the ids of Memo's events made, changed or deleted by the sync (for their reminders)
     */
    public record Report(
            boolean full,
            int pulled,
            int removed,
            int pushed,
            int deleted,
            List<Conflict> conflicts,
            Set<String> touched) {
        public Report {
            conflicts = List.copyOf(conflicts);
            touched = Set.copyOf(touched);
        }

        static Report none() {
            return new Report(false, 0, 0, 0, 0, List.of(), Set.of());
        }

        Report plus(Report other) {
            Set<String> all = new LinkedHashSet<>(touched);
            all.addAll(other.touched);
            List<Conflict> both = new ArrayList<>(conflicts);
            both.addAll(other.conflicts);
            return new Report(
                    full || other.full,
                    pulled + other.pulled,
                    removed + other.removed,
                    pushed + other.pushed,
                    deleted + other.deleted,
                    both,
                    all);
        }
    }

    /**
     * Connects {@code user} to the calendar behind {@code server} (the calendar itself, or a server root
     * or principal to discover calendars from): the one named {@code calendar} (its display name or the
     * last part of its path), else the first that holds events; when the user has no calendar there, one
     * is made ({@code calendar}, else "Memo"). Replaces the user's connection; nothing is synced yet. A
     * user Memo does not know yet is made (English, {@code zone}) once the server has accepted the
     * login, so a connection that fails leaves nothing behind.
     *
     * @throws WeftException {@code E_BAD_INPUT} for a URL that is not http(s); {@code E_CALENDAR_LOGIN_FAILED}
     *     when the server refuses the login; {@code E_CALENDAR_UNAVAILABLE} when it cannot be reached;
     *     {@code E_NOT_FOUND} when no calendar is named {@code calendar} (the message lists those there)
     */
    public Connected connect(
            String user,
            String server,
            String login,
            CalendarAccounts.Auth auth,
            String secret,
            Optional<String> calendar,
            ZoneId zone,
            Instant now) {
        return connect(user, server, login, auth, secret, calendar, zone, now, Optional.empty());
    }

    /**
     * Connects {@code user}'s calendar at {@code server} signed in with OAuth ({@code grant}, from {@code
     * client}): as {@link #connect}, with the grant's access token as a Bearer token and the grant kept
     * with the connection, so that every sync has a fresh token.
     *
     * @throws WeftException as {@link #connect}
     */
    public Connected connectSignedIn(
            String user,
            String server,
            dev.weft.oauth.OAuthClient client,
            dev.weft.oauth.Grant grant,
            Optional<String> calendar,
            ZoneId zone,
            Instant now) {
        try {
            return connect(
                    user,
                    server,
                    grant.account(),
                    CalendarAccounts.Auth.OAUTH2,
                    grant.accessToken(),
                    calendar,
                    zone,
                    now,
                    Optional.of(new SignedIn(client, grant)));
        } catch (WeftException e) {
            if (e.code() != ErrorCode.E_CALENDAR_LOGIN_FAILED) {
                throw e;
            }
            // The token may have ended while the calendar was looked for (short-lived tokens): once more
            // with a new one; a server that refuses that one too refuses the account.
            dev.weft.oauth.Grant refreshed = dev.weft.oauth.AuthorizationServer.discover(
                            client, java.time.Clock.fixed(now, java.time.ZoneOffset.UTC))
                    .refresh(grant);
            return connect(
                    user,
                    server,
                    refreshed.account(),
                    CalendarAccounts.Auth.OAUTH2,
                    refreshed.accessToken(),
                    calendar,
                    zone,
                    now,
                    Optional.of(new SignedIn(client, refreshed)));
        }
    }

    private record SignedIn(dev.weft.oauth.OAuthClient client, dev.weft.oauth.Grant grant) {}

    private Connected connect(
            String user,
            String server,
            String login,
            CalendarAccounts.Auth auth,
            String secret,
            Optional<String> calendar,
            ZoneId zone,
            Instant now,
            Optional<SignedIn> signedIn) {
        MemoData.requireUserId(user);
        URI url = url(server);
        if (login.isBlank()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the calendar login is empty");
        }
        if (secret.isEmpty()) {
            throw new WeftException(ErrorCode.E_BAD_INPUT, "the calendar secret (password or token) is empty");
        }
        CalDavClient client = new CalDavClient(login, auth, secret);
        CalDavClient.Discovery found = client.discover(url);
        List<CalDavClient.Found> usable =
                found.calendars().stream().filter(CalDavClient.Found::events).toList();
        List<String> names = usable.stream().map(CalDavClient.Found::name).toList();
        Optional<CalDavClient.Found> chosen = calendar.isPresent()
                ? usable.stream()
                        .filter(f -> f.name().equalsIgnoreCase(calendar.get().trim())
                                || CalDavClient.lastSegment(f.url())
                                        .equalsIgnoreCase(calendar.get().trim()))
                        .findFirst()
                : usable.stream().findFirst();
        boolean made = false;
        if (chosen.isEmpty() && !usable.isEmpty()) {
            throw new WeftException(
                    ErrorCode.E_NOT_FOUND,
                    "no calendar named '" + calendar.orElse("") + "' at " + url + "; the calendars there are: "
                            + String.join(", ", names));
        }
        if (chosen.isEmpty()) {
            String name = calendar.map(String::trim).orElse("Memo");
            URI at = found.home().resolve(slug(name) + "/");
            client.mkcalendar(at, name);
            chosen = Optional.of(new CalDavClient.Found(at, name, true));
            made = true;
            names = List.of(name);
        }
        CalDavClient.Found target = chosen.get();
        if (data.findUser(user).isEmpty()) {
            data.user(user, "en", zone, now);
        }
        Account account = data.database().write("connect the calendar of " + user, c -> {
            Account added = accounts.add(c, user, url, target.url(), target.name(), login, auth, secret, now);
            if (signedIn.isPresent()) {
                data.grants()
                        .keep(
                                c,
                                user,
                                OAuthGrants.Purpose.CALENDAR,
                                signedIn.get().client(),
                                signedIn.get().grant());
            }
            return added;
        });
        return new Connected(account, names, made);
    }

    /**
     * Forgets {@code user}'s connection and what it synced; Memo's events stay. A calendar signed in with
     * OAuth has its refresh token revoked at the provider first, where the provider can. Whether there was one.
     */
    public boolean disconnect(String user) {
        data.grants().revokeAtProvider(user, OAuthGrants.Purpose.CALENDAR);
        return locked(
                user,
                () -> data.database()
                        .write("disconnect the calendar of " + user, c -> CalendarAccounts.remove(c, user)));
    }

    /**
     * Syncs {@code user}'s calendar both ways, as of {@code now}.
     *
     * @throws WeftException {@code E_CALENDAR_NOT_CONFIGURED} when they connected none; {@code
     *     E_CALENDAR_LOGIN_FAILED} or {@code E_CALENDAR_UNAVAILABLE} when the server refuses or fails
     *     (what was done before it failed is kept; the next sync goes on from there)
     */
    public Report sync(String user, Instant now) {
        return locked(user, () -> {
            Account account = accounts.require(user);
            try {
                try {
                    return syncWith(accounts.client(account, now), account, now);
                } catch (WeftException e) {
                    if (e.code() != ErrorCode.E_CALENDAR_LOGIN_FAILED || !accounts.signedIn(account)) {
                        throw e;
                    }
                    // The server refused a token the clock still calls good (skew, or ended early): once more
                    // with a new one; what the first try synced is kept and the second goes on from there.
                    return syncWith(accounts.refreshedClient(account, now), accounts.require(user), now);
                }
            } catch (WeftException e) {
                accounts.failed(user, e.code() + ": " + e.getMessage());
                throw e;
            }
        });
    }

    private Report syncWith(CalDavClient client, Account account, Instant now) {
        Report pulled = pull(client, account, now);
        return pulled.plus(push(client, account, now));
    }

    /**
     * Writes what changed in Memo to {@code user}'s calendar (and takes the server's version of what was
     * changed there meanwhile); nothing when they connected none.
     *
     * @throws WeftException as {@link #sync}
     */
    public Report push(String user, Instant now) {
        return locked(user, () -> {
            Optional<Account> account = accounts.find(user);
            if (account.isEmpty()) {
                return Report.none();
            }
            try {
                return push(accounts.client(account.get(), now), account.get(), now);
            } catch (WeftException e) {
                accounts.failed(user, e.code() + ": " + e.getMessage());
                throw e;
            }
        });
    }

    private <T> T locked(String user, java.util.function.Supplier<T> work) {
        ReentrantLock lock = locks.computeIfAbsent(user, u -> new ReentrantLock());
        lock.lock();
        try {
            return work.get();
        } finally {
            lock.unlock();
        }
    }

    /** Takes what changed on the server into Memo, and keeps the token to start from next time. */
    private Report pull(CalDavClient client, Account account, Instant now) {
        String user = account.user();
        URI calendar = account.calendar();
        Map<String, Optional<String>> known = etags(user);
        Map<String, String> changed = new LinkedHashMap<>();
        Set<String> gone = new LinkedHashSet<>();
        Optional<String> token = Optional.empty();
        boolean full = true;
        if (account.syncToken().isPresent()) {
            try {
                CalDavClient.Multistatus answer =
                        client.syncCollection(calendar, account.syncToken().get());
                for (Response r : answer.responses()) {
                    if (isCollection(calendar, r.href())) {
                        continue;
                    }
                    if (r.status() == 404 || r.status() == 410) {
                        if (known.containsKey(r.href())) {
                            gone.add(r.href());
                        }
                    } else {
                        String etag = r.text(CalDavClient.DAV, "getetag").orElse("");
                        if (!known.getOrDefault(r.href(), Optional.empty()).equals(Optional.of(etag))
                                || etag.isEmpty()) {
                            changed.put(r.href(), etag);
                        }
                    }
                }
                token = answer.syncToken();
                full = false;
            } catch (CalDavClient.InvalidSyncToken e) {
                full = true;
            }
        }
        if (full) {
            CalDavClient.Multistatus listing =
                    client.propfind(calendar, 1, "<d:getetag/><d:sync-token/><d:resourcetype/>");
            Set<String> present = new LinkedHashSet<>();
            for (Response r : listing.responses()) {
                if (isCollection(calendar, r.href())) {
                    token = r.text(CalDavClient.DAV, "sync-token").filter(t -> !t.isBlank());
                    continue;
                }
                if (r.is(CalDavClient.DAV, "collection")) {
                    continue;
                }
                present.add(r.href());
                String etag = r.text(CalDavClient.DAV, "getetag").orElse("");
                if (!known.getOrDefault(r.href(), Optional.empty()).equals(Optional.of(etag)) || etag.isEmpty()) {
                    changed.put(r.href(), etag);
                }
            }
            known.keySet().stream().filter(h -> !present.contains(h)).forEach(gone::add);
        }
        Map<String, Optional<Fetched>> server = new LinkedHashMap<>(fetch(client, calendar, changed.keySet()));
        gone.forEach(h -> server.put(h, Optional.empty()));
        Optional<String> next = token;
        boolean wasFull = full;
        return data.database().write("take the server's changes into the calendar of " + user, c -> {
            Report report = apply(c, account, server, now, wasFull);
            CalendarAccounts.synced(c, user, next, now);
            return report;
        });
    }

    /** An object as the server has it now. */
    private record Fetched(String etag, String ics) {}

    private Map<String, Optional<Fetched>> fetch(CalDavClient client, URI calendar, Set<String> hrefs) {
        Map<String, Optional<Fetched>> found = new LinkedHashMap<>();
        List<String> all = new ArrayList<>(hrefs);
        for (int i = 0; i < all.size(); i += MULTIGET_BATCH) {
            List<String> batch = all.subList(i, Math.min(all.size(), i + MULTIGET_BATCH));
            batch.forEach(h -> found.put(h, Optional.empty()));
            for (Response r : client.multiget(calendar, batch).responses()) {
                Optional<String> ics = CalDavClient.calendarData(r);
                if (ics.isPresent() && (r.status() == 0 || r.status() == 200)) {
                    found.put(
                            r.href(),
                            Optional.of(new Fetched(
                                    r.text(CalDavClient.DAV, "getetag").orElse(""), ics.get())));
                }
            }
        }
        return found;
    }

    /** A Memo event's place on the server as last synced. */
    private record Link(String eventId, String href, Optional<String> recurrenceId, String fingerprint) {}

    /**
     * Writes the server's version of each object in {@code server} (empty: deleted there) into Memo,
     * keeping what Memo changed since the last sync where the server did not change it too.
     */
    private Report apply(
            Connection c, Account account, Map<String, Optional<Fetched>> server, Instant now, boolean full)
            throws SQLException {
        String user = account.user();
        ZoneId zone = zone(c, user);
        Map<String, List<Link>> byHref = new LinkedHashMap<>();
        for (Link link : links(c, user)) {
            byHref.computeIfAbsent(link.href(), h -> new ArrayList<>()).add(link);
        }
        int pulled = 0;
        int removed = 0;
        List<Conflict> conflicts = new ArrayList<>();
        Set<String> touched = new LinkedHashSet<>();
        for (Map.Entry<String, Optional<Fetched>> entry : server.entrySet()) {
            String href = entry.getKey();
            List<Piece> pieces = entry.getValue()
                    .map(f -> CalDavObjects.read(f.ics(), zone, now))
                    .orElse(List.of());
            Map<String, Piece> serverById = new LinkedHashMap<>();
            pieces.forEach(p -> serverById.put(p.event().id(), p));
            Map<String, Link> linked = new LinkedHashMap<>();
            byHref.getOrDefault(href, List.of()).forEach(l -> linked.put(l.eventId(), l));
            Set<String> keepMemo = new LinkedHashSet<>();
            for (Link link : linked.values()) {
                Optional<Event> mine = Events.find(c, user, link.eventId());
                boolean changedHere = mine.map(
                                e -> !CalDavObjects.fingerprint(e).equals(link.fingerprint()))
                        .orElse(true);
                if (!changedHere) {
                    continue;
                }
                Optional<Piece> theirs = Optional.ofNullable(serverById.get(link.eventId()));
                boolean changedThere = theirs.map(
                                p -> !CalDavObjects.fingerprint(p.event()).equals(link.fingerprint()))
                        .orElse(true);
                if (!changedThere) {
                    keepMemo.add(link.eventId());
                } else if (!sameEvent(mine, theirs)) {
                    conflicts.add(conflict(link.eventId(), mine, theirs.map(Piece::event)));
                }
            }
            for (Piece piece : pieces) {
                String id = piece.event().id();
                if (linked.containsKey(id)) {
                    continue;
                }
                Optional<Event> mine = Events.find(c, user, id);
                if (mine.isPresent() && !sameEvent(mine, Optional.of(piece))) {
                    // an event Memo had before it knew the server's: the server's wins, Memo's is reported
                    conflicts.add(conflict(id, mine, Optional.of(piece.event())));
                }
            }
            for (Link link : linked.values()) {
                if (!keepMemo.contains(link.eventId()) && !serverById.containsKey(link.eventId())) {
                    if (Events.find(c, user, link.eventId()).isPresent()) {
                        Events.delete(c, user, List.of(link.eventId()));
                        removed++;
                    }
                    unlink(c, user, link.eventId());
                    touched.add(link.eventId());
                }
            }
            for (Piece piece : pieces) {
                String id = piece.event().id();
                if (keepMemo.contains(id)) {
                    continue;
                }
                Optional<Event> mine = Events.find(c, user, id);
                Event theirs = mine.map(e -> CalDavObjects.copy(
                                piece.event(),
                                id,
                                piece.event().recurrence(),
                                piece.event().exdates(),
                                e.createdAt()))
                        .orElse(piece.event());
                if (mine.isEmpty()
                        || !CalDavObjects.fingerprint(mine.get()).equals(CalDavObjects.fingerprint(theirs))) {
                    Events.upsert(c, user, theirs);
                    pulled++;
                    touched.add(id);
                }
                link(c, user, new Link(id, href, piece.recurrenceId(), CalDavObjects.fingerprint(theirs)));
            }
            if (entry.getValue().isPresent()) {
                keepObject(
                        c,
                        user,
                        href,
                        Optional.of(entry.getValue().get().etag()).filter(e -> !e.isEmpty()),
                        entry.getValue().get().ics());
            } else {
                forgetObject(c, user, href);
            }
        }
        return new Report(full, pulled, removed, 0, 0, conflicts, touched);
    }

    /** Whether Memo's and the server's versions of an event are the same (both changed it alike). */
    private static boolean sameEvent(Optional<Event> mine, Optional<Piece> theirs) {
        if (mine.isEmpty() || theirs.isEmpty()) {
            return mine.isEmpty() && theirs.isEmpty();
        }
        return CalDavObjects.fingerprint(mine.get())
                .equals(CalDavObjects.fingerprint(theirs.get().event()));
    }

    private static Conflict conflict(String id, Optional<Event> mine, Optional<Event> theirs) {
        String summary = theirs.or(() -> mine).map(Event::summary).orElse(id);
        return new Conflict(id, summary, mine, theirs);
    }

    /** Writes what changed in Memo since the last sync to the server, object by object. */
    private Report push(CalDavClient client, Account account, Instant now) {
        String user = account.user();
        record State(
                List<Event> events,
                List<Link> links,
                Map<String, Optional<String>> etags,
                Map<String, String> texts,
                ZoneId zone) {}
        State state = data.database().read("read what to sync of " + user, c -> {
            Map<String, Optional<String>> etags = new LinkedHashMap<>();
            Map<String, String> texts = new LinkedHashMap<>();
            try (PreparedStatement select =
                    c.prepareStatement("SELECT href, etag, ics FROM memo_caldav_objects WHERE user_id = ?")) {
                select.setString(1, user);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        etags.put(row.getString(1), Optional.ofNullable(row.getString(2)));
                        texts.put(row.getString(1), row.getString(3));
                    }
                }
            }
            return new State(Events.all(c, user), links(c, user), etags, texts, zone(c, user));
        });
        Map<String, Event> events = new LinkedHashMap<>();
        state.events().forEach(e -> events.put(e.id(), e));
        Map<String, List<Link>> byHref = new LinkedHashMap<>();
        Set<String> linked = new LinkedHashSet<>();
        for (Link link : state.links()) {
            byHref.computeIfAbsent(link.href(), h -> new ArrayList<>()).add(link);
            linked.add(link.eventId());
        }
        int pushed = 0;
        int deleted = 0;
        Set<String> refetch = new LinkedHashSet<>();
        Set<String> touched = new LinkedHashSet<>();
        String home = account.calendar().getPath().endsWith("/")
                ? account.calendar().getPath()
                : account.calendar().getPath() + "/";
        for (Event event : state.events()) {
            if (linked.contains(event.id())) {
                continue;
            }
            String href = home + fileName(event.id());
            if (state.etags().containsKey(href)) {
                refetch.add(href);
                continue;
            }
            String ics = CalDavObjects.write(event);
            Write answer = client.put(CalDavClient.at(account.calendar(), href), ics, Optional.empty());
            if (answer instanceof Write.Done done) {
                data.database().write("record a pushed event of " + user, c -> {
                    keepObject(c, user, href, done.etag(), ics);
                    link(c, user, new Link(event.id(), href, Optional.empty(), CalDavObjects.fingerprint(event)));
                    return null;
                });
                pushed++;
            } else {
                refetch.add(href);
            }
        }
        for (Map.Entry<String, List<Link>> entry : byHref.entrySet()) {
            String href = entry.getKey();
            List<Link> links = entry.getValue();
            boolean changed = links.stream()
                    .anyMatch(l -> !Optional.ofNullable(events.get(l.eventId()))
                            .map(CalDavObjects::fingerprint)
                            .equals(Optional.of(l.fingerprint())));
            Optional<Link> series =
                    links.stream().filter(l -> l.recurrenceId().isEmpty()).findFirst();
            if (!changed || series.isEmpty() || !state.texts().containsKey(href)) {
                continue;
            }
            Optional<String> etag = state.etags().getOrDefault(href, Optional.empty());
            if (etag.isEmpty()) {
                refetch.add(href);
                continue;
            }
            URI url = CalDavClient.at(account.calendar(), href);
            Event master = events.get(series.get().eventId());
            if (master == null) {
                Write answer = client.delete(url, etag);
                if (answer instanceof Write.Changed) {
                    refetch.add(href);
                    continue;
                }
                data.database().write("record a deleted event of " + user, c -> {
                    List<String> ids = links.stream().map(Link::eventId).toList();
                    Events.delete(c, user, ids);
                    for (String id : ids) {
                        unlink(c, user, id);
                    }
                    forgetObject(c, user, href);
                    return null;
                });
                links.forEach(l -> touched.add(l.eventId()));
                deleted++;
                continue;
            }
            Map<String, Optional<Event>> occurrences = new LinkedHashMap<>();
            for (Link link : links) {
                link.recurrenceId()
                        .ifPresent(rid -> occurrences.put(rid, Optional.ofNullable(events.get(link.eventId()))));
            }
            String ics = CalDavObjects.patched(state.texts().get(href), state.zone(), now, master, occurrences);
            Write answer = client.put(url, ics, etag);
            if (answer instanceof Write.Done done) {
                data.database().write("record a pushed change of " + user, c -> {
                    keepObject(c, user, href, done.etag(), ics);
                    for (Link link : links) {
                        Event now0 = events.get(link.eventId());
                        if (now0 == null) {
                            unlink(c, user, link.eventId());
                        } else {
                            link(
                                    c,
                                    user,
                                    new Link(
                                            link.eventId(),
                                            href,
                                            link.recurrenceId(),
                                            CalDavObjects.fingerprint(now0)));
                        }
                    }
                    return null;
                });
                pushed++;
            } else {
                refetch.add(href);
            }
        }
        Report report = new Report(false, 0, 0, pushed, deleted, List.of(), touched);
        if (!refetch.isEmpty()) {
            Map<String, Optional<Fetched>> server = fetch(client, account.calendar(), refetch);
            report = report.plus(data.database()
                    .write(
                            "take the server's version of what changed there meanwhile for " + user,
                            c -> apply(c, account, server, now, false)));
        }
        return report;
    }

    /** The decoded path's last part for an event's new object: its id, kept to characters every server takes. */
    private static String fileName(String id) {
        StringBuilder name = new StringBuilder();
        for (char ch : id.toCharArray()) {
            name.append(Character.isLetterOrDigit(ch) && ch < 128 || "-_.@".indexOf(ch) >= 0 ? ch : '_');
        }
        return name + ".ics";
    }

    private static String slug(String name) {
        String slug =
                name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
        return slug.isEmpty() ? "memo" : slug;
    }

    private static boolean isCollection(URI calendar, String href) {
        String path = calendar.getPath();
        return strip(path).equals(strip(href));
    }

    private static String strip(String path) {
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /**
     * @throws WeftException {@code E_BAD_INPUT} for text that is not an http or https URL with a host
     */
    static URI url(String text) {
        try {
            URI url = new URI(text.trim());
            if (url.getScheme() == null
                    || !List.of("http", "https").contains(url.getScheme().toLowerCase(Locale.ROOT))
                    || url.getHost() == null) {
                throw new URISyntaxException(text, "not an http(s) URL with a host");
            }
            return url.getPath() == null || url.getPath().isEmpty() ? url.resolve("/") : url;
        } catch (URISyntaxException e) {
            throw new WeftException(
                    ErrorCode.E_BAD_INPUT,
                    "--caldav " + text + ": not an http(s) URL (e.g. https://caldav.fastmail.com/ or"
                            + " https://cloud.example.com/remote.php/dav/)");
        }
    }

    private static ZoneId zone(Connection c, String user) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT time_zone FROM memo_users WHERE id = ?")) {
            select.setString(1, user);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? ZoneId.of(row.getString(1)) : ZoneOffset.UTC;
            }
        }
    }

    private Map<String, Optional<String>> etags(String user) {
        return data.database().read("read the synced objects of " + user, c -> {
            Map<String, Optional<String>> etags = new LinkedHashMap<>();
            try (PreparedStatement select =
                    c.prepareStatement("SELECT href, etag FROM memo_caldav_objects WHERE user_id = ?")) {
                select.setString(1, user);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        etags.put(row.getString(1), Optional.ofNullable(row.getString(2)));
                    }
                }
            }
            return etags;
        });
    }

    private static List<Link> links(Connection c, String user) throws SQLException {
        try (PreparedStatement select = c.prepareStatement(
                "SELECT event_id, href, recurrence_id, fingerprint FROM memo_caldav_events WHERE user_id = ?"
                        + " ORDER BY href, event_id")) {
            select.setString(1, user);
            List<Link> links = new ArrayList<>();
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    links.add(new Link(
                            row.getString(1),
                            row.getString(2),
                            Optional.ofNullable(row.getString(3)),
                            row.getString(4)));
                }
            }
            return links;
        }
    }

    private static void link(Connection c, String user, Link link) throws SQLException {
        unlink(c, user, link.eventId());
        try (PreparedStatement insert = c.prepareStatement(
                "INSERT INTO memo_caldav_events (user_id, event_id, href, recurrence_id, fingerprint) VALUES (?, ?, ?, ?, ?)")) {
            insert.setString(1, user);
            insert.setString(2, link.eventId());
            insert.setString(3, link.href());
            Tasks.setText(insert, 4, link.recurrenceId());
            insert.setString(5, link.fingerprint());
            insert.executeUpdate();
        }
    }

    private static void unlink(Connection c, String user, String eventId) throws SQLException {
        deleteRow(c, "DELETE FROM memo_caldav_events WHERE user_id = ? AND event_id = ?", user, eventId);
    }

    private static void keepObject(Connection c, String user, String href, Optional<String> etag, String ics)
            throws SQLException {
        forgetObject(c, user, href);
        try (PreparedStatement insert =
                c.prepareStatement("INSERT INTO memo_caldav_objects (user_id, href, etag, ics) VALUES (?, ?, ?, ?)")) {
            insert.setString(1, user);
            insert.setString(2, href);
            Tasks.setText(insert, 3, etag);
            insert.setString(4, ics);
            insert.executeUpdate();
        }
    }

    private static void forgetObject(Connection c, String user, String href) throws SQLException {
        deleteRow(c, "DELETE FROM memo_caldav_objects WHERE user_id = ? AND href = ?", user, href);
    }

    private static void deleteRow(Connection c, String sql, String user, String key) throws SQLException {
        try (PreparedStatement delete = c.prepareStatement(sql)) {
            delete.setString(1, user);
            delete.setString(2, key);
            delete.executeUpdate();
        }
    }
}
