package dev.weft.memo;

import dev.weft.core.WeftException;
import dev.weft.memo.data.CalDavSync;
import dev.weft.memo.data.CalDavSync.Conflict;
import dev.weft.memo.data.CalDavSync.Report;
import dev.weft.memo.data.Event;
import dev.weft.memo.data.MemoData;
import dev.weft.memo.data.Notifications.Notification;
import dev.weft.memo.data.User;
import dev.weft.memo.internal.CalendarReplies;
import dev.weft.memo.internal.Texts;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Memo's side of the CalDAV sync ({@link CalDavSync}): after a sync, the reminders of the events it
 * touched wait for their new times, and each conflict becomes a {@code calendar.conflict} notification
 * that tells the user, in their language, what their change in Memo was (chat prints it, the server
 * sends it to the page and the user's webhook). It syncs on demand, after each change Memo makes to a
 * calendar ({@link #afterChange}), and in the background ({@link #start}). Thread-safe.
 */
public final class CalendarSync {
    /** The notification type of a conflict. */
    public static final String CONFLICT = "calendar.conflict";

    /** How often the background sync runs unless told otherwise: a change shows within a minute. */
    public static final Duration INTERVAL = Duration.ofSeconds(30);

    private final MemoData data;
    private final Reminders reminders;
    private final Supplier<Instant> clock;

    public CalendarSync(MemoData data, Reminders reminders, Supplier<Instant> clock) {
        this.data = Objects.requireNonNull(data, "data");
        this.reminders = Objects.requireNonNull(reminders, "reminders");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * Syncs {@code user}'s calendar both ways now.
     *
     * @throws WeftException {@code E_CALENDAR_NOT_CONFIGURED}, {@code E_CALENDAR_LOGIN_FAILED} or {@code
     *     E_CALENDAR_UNAVAILABLE} (what was done before a failure is kept; the next sync goes on)
     */
    public Report sync(String user) {
        Instant now = clock.get();
        return settled(user, data.caldav().sync(user, now), now);
    }

    /**
     * Writes a change Memo just made to {@code user}'s calendar to their server, when they connected one.
     * A server that cannot be reached changes nothing here: the change waits for the next sync (the
     * connection keeps the error).
     */
    public Optional<Report> afterChange(String user, Instant now) {
        try {
            return Optional.of(settled(user, data.caldav().push(user, now), now));
        } catch (RuntimeException e) {
            // the change is Memo's either way; the next sync writes it (a WeftException was recorded)
            return Optional.empty();
        }
    }

    /**
     * Syncs the calendars of {@code users} (asked again each round) every {@code interval}, the first
     * round at once, on a daemon thread, until the handle is closed; {@code onError} hears each failed
     * sync (the user and the error).
     */
    public AutoCloseable start(
            Duration interval,
            Supplier<? extends Collection<String>> users,
            BiConsumer<String, WeftException> onError) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("the sync interval must be positive, was " + interval);
        }
        AtomicBoolean stopped = new AtomicBoolean();
        Thread thread = Thread.ofPlatform().daemon().name("memo-calendar-sync").start(() -> {
            while (!stopped.get()) {
                try {
                    for (String user : users.get()) {
                        if (stopped.get()) {
                            return;
                        }
                        try {
                            sync(user);
                        } catch (WeftException e) {
                            onError.accept(user, e);
                        } catch (RuntimeException e) {
                            onError.accept(
                                    user,
                                    new WeftException(
                                            dev.weft.core.ErrorCode.E_CALENDAR_UNAVAILABLE,
                                            "the sync failed: " + e,
                                            e));
                        }
                    }
                } catch (RuntimeException e) {
                    // the store is closing or busy for a moment: the next round will do
                }
                try {
                    Thread.sleep(interval);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        return () -> {
            stopped.set(true);
            thread.interrupt();
            thread.join(Duration.ofSeconds(5));
        };
    }

    /** The users with a connected calendar, for {@link #start}. */
    public List<String> connectedUsers() {
        return data.calendars().users();
    }

    private Report settled(String user, Report report, Instant now) {
        if (!report.touched().isEmpty()) {
            reminders.syncEvents(user, report.touched(), now);
        }
        for (Conflict conflict : report.conflicts()) {
            data.notifications()
                    .add(new Notification(
                            user,
                            "conflict:" + conflict.eventId() + "@" + now.toEpochMilli(),
                            CONFLICT,
                            Reminders.EVENT,
                            conflict.eventId(),
                            describe(user, conflict),
                            now,
                            now,
                            false));
        }
        return report;
    }

    /** What a conflict was, for its user: what was kept, and what their change in Memo was. */
    public String describe(String user, Conflict conflict) {
        Optional<User> found = data.findUser(user);
        String language = found.map(User::language).orElse("en");
        ZoneId zone = found.map(User::zone).orElse(ZoneOffset.UTC);
        String name = "\"" + conflict.summary() + "\"";
        if (conflict.memo().isEmpty()) {
            return Texts.of(
                    language,
                    "📅 Calendar conflict: " + name + " was changed in your calendar after you deleted it here;"
                            + " I kept it as your calendar has it (" + when(language, conflict.server(), zone) + ").",
                    "📅 התנגשות ביומן: " + name + " שונה ביומן שלך אחרי שמחקת אותו כאן; השארתי אותו כמו ביומן ("
                            + when(language, conflict.server(), zone) + ").");
        }
        String yours = "\"" + conflict.memo().get().summary() + "\", " + when(language, conflict.memo(), zone);
        if (conflict.server().isEmpty()) {
            return Texts.of(
                    language,
                    "📅 Calendar conflict: " + name + " was deleted in your calendar while you changed it here; I"
                            + " deleted it. Your version was: " + yours + ".",
                    "📅 התנגשות ביומן: " + name + " נמחק ביומן שלך בזמן ששינית אותו כאן; מחקתי אותו. הגרסה שלך"
                            + " הייתה: " + yours + ".");
        }
        return Texts.of(
                language,
                "📅 Calendar conflict: " + name + " was changed both here and in your calendar; I kept your"
                        + " calendar's version (" + when(language, conflict.server(), zone) + "). Your version was: "
                        + yours + ".",
                "📅 התנגשות ביומן: " + name + " שונה גם כאן וגם ביומן שלך; השארתי את הגרסה שביומן ("
                        + when(language, conflict.server(), zone) + "). הגרסה שלך הייתה: " + yours + ".");
    }

    private static String when(String language, Optional<Event> event, ZoneId zone) {
        return event.map(e -> CalendarReplies.when(language, e.toJson(zone), zone))
                .orElse("");
    }

    /** Whether {@code notification} is a conflict's. */
    static boolean isConflict(Notification notification) {
        return notification.type().equals(CONFLICT);
    }
}
